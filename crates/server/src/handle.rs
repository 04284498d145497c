//! One request, from its head to its answer: the route, the token, the body within its limits,
//! the work within its deadline (cancelled when the deadline passes or the client leaves), the
//! metrics and the access log.

use crate::auth::{bearer_matches, cookie_token, token_matches};
use crate::respond::{finish, Answer, JSON};
use crate::routes::{self, Found, Route, OTHER};
use crate::{Config, Metrics, PageRequest, Pages, STOP_GRACE};
use bytes::Bytes;
use chinese_poker::service::ops::MONTE_CARLO;
use chinese_poker::service::{ApiError, Op, Service};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderMap, HeaderValue};
use hyper::{Request, Response};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What every request shares.
pub struct State {
    pub config: Config,
    pub service: Arc<Service>,
    pub pages: Arc<dyn Pages>,
    pub metrics: Metrics,
}

/// A connection to close without an answer: its client was too slow to send its request.
#[derive(Debug)]
pub struct Cut;

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request was not received within the read timeout")
    }
}

impl std::error::Error for Cut {}

/// Work in flight: dropped before it is done (hyper drops a request whose client hung up), it
/// cancels the work and counts the request as `client_closed`.
struct InFlight<'s> {
    cancel: Arc<AtomicBool>,
    state: &'s State,
    route: &'static str,
    start: Instant,
    done: bool,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        if !self.done {
            let seconds = self.start.elapsed().as_secs_f64();
            self.state
                .metrics
                .observe(self.route, 499, seconds, Some("client_closed"));
        }
    }
}

fn timeout_error(config: &Config) -> ApiError {
    ApiError::new(
        "timeout",
        format!(
            "the request took longer than its time limit of {} s",
            config.timeout.as_secs_f64()
        ),
    )
}

fn internal() -> ApiError {
    ApiError::new("internal", "internal error")
}

/// The allowed origin of a request, if CORS is on and its `Origin` is one of them.
fn allowed_origin(config: &Config, headers: &HeaderMap) -> Option<HeaderValue> {
    let origin = headers.get(hyper::header::ORIGIN)?;
    let text = origin.to_str().ok()?;
    config
        .cors_origins
        .iter()
        .any(|o| o == "*" || o == text)
        .then(|| origin.clone())
}

/// A CORS preflight's answer (CORS on, an `Origin` and `Access-Control-Request-Method`).
fn preflight(config: &Config, headers: &HeaderMap) -> Option<Response<Full<Bytes>>> {
    if config.cors_origins.is_empty()
        || !headers.contains_key(hyper::header::ACCESS_CONTROL_REQUEST_METHOD)
    {
        return None;
    }
    headers.get(hyper::header::ORIGIN)?;
    let builder = Response::builder().header(hyper::header::VARY, "Origin");
    let response = match allowed_origin(config, headers) {
        Some(origin) => builder
            .status(200)
            .header(hyper::header::ACCESS_CONTROL_ALLOW_ORIGIN, origin)
            .header(hyper::header::ACCESS_CONTROL_ALLOW_METHODS, "GET, POST")
            .header(
                hyper::header::ACCESS_CONTROL_ALLOW_HEADERS,
                "authorization, content-type",
            )
            .header(hyper::header::ACCESS_CONTROL_MAX_AGE, "600")
            .header(hyper::header::CONTENT_TYPE, "text/plain; charset=utf-8")
            .body(Full::new(Bytes::from_static(b"OK"))),
        None => builder
            .status(400)
            .header(hyper::header::CONTENT_TYPE, "text/plain; charset=utf-8")
            .body(Full::new(Bytes::from_static(b"Disallowed CORS origin"))),
    };
    response.ok()
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl State {
    fn authorized(&self, route: &Route, headers: &HeaderMap) -> bool {
        let Some(token) = &self.config.token else {
            return true;
        };
        if !route.auth {
            return true;
        }
        let header = |name| {
            headers
                .get(name)
                .and_then(|v: &HeaderValue| v.to_str().ok())
        };
        if header(hyper::header::AUTHORIZATION).is_some_and(|h| bearer_matches(h, token)) {
            return true;
        }
        route.page
            && header(hyper::header::COOKIE)
                .and_then(cookie_token)
                .is_some_and(|given| token_matches(given, token))
    }

    /// The body, at most `max_body` bytes (413 beyond), received by `deadline` (else the
    /// connection is cut).
    async fn body(
        &self,
        headers: &HeaderMap,
        body: Incoming,
        deadline: Instant,
    ) -> Result<Result<Vec<u8>, ApiError>, Cut> {
        let limit = self.config.max_body;
        let too_large = || {
            ApiError::new(
                "too_large",
                format!("the request body is larger than {limit} bytes"),
            )
        };
        let length = headers
            .get(hyper::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if length.is_some_and(|n| n > limit as u64) {
            return Ok(Err(too_large()));
        }
        let collect = Limited::new(body, limit).collect();
        match tokio::time::timeout_at(deadline.into(), collect).await {
            Err(_) => Err(Cut),
            Ok(Ok(collected)) => Ok(Ok(collected.to_bytes().to_vec())),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Ok(Err(too_large())),
            Ok(Err(_)) => Ok(Err(ApiError::new(
                "client_closed",
                "the client closed the connection",
            ))),
        }
    }

    /// `work(stop)` on a worker thread, answered by the request's deadline (504 after, the work
    /// cancelled and waited for up to [`STOP_GRACE`]); cancelled too if the client leaves.
    async fn run<R: Send + 'static>(
        &self,
        flight: &mut InFlight<'_>,
        deadline: Instant,
        work: impl FnOnce(&(dyn Fn() -> bool + Sync)) -> R + Send + 'static,
    ) -> Result<R, ApiError> {
        let cancel = flight.cancel.clone();
        let mut job = tokio::task::spawn_blocking(move || {
            let stop = || cancel.load(Ordering::Relaxed) || Instant::now() > deadline;
            if stop() {
                return None;
            }
            Some(work(&stop))
        });
        match tokio::time::timeout_at(deadline.into(), &mut job).await {
            Ok(Ok(Some(done))) => Ok(done),
            Ok(Ok(None)) => Err(timeout_error(&self.config)),
            Ok(Err(e)) => {
                if self.config.log_errors {
                    eprintln!("ERROR:    internal error on {}: {e}", flight.route);
                }
                Err(internal())
            }
            Err(_) => {
                flight.cancel.store(true, Ordering::Relaxed);
                let _ = tokio::time::timeout(STOP_GRACE, job).await;
                Err(timeout_error(&self.config))
            }
        }
    }

    async fn op(
        &self,
        flight: &mut InFlight<'_>,
        op: Op,
        body: Vec<u8>,
        deadline: Instant,
    ) -> Answer {
        let answered = if body.len() > INLINE_BODY || may_sample(&body) {
            let service = self.service.clone();
            self.run(flight, deadline, move |stop| {
                service.answer(op, &body, stop)
            })
            .await
        } else {
            self.inline(flight, deadline, || {
                self.service
                    .answer(op, &body, &|| Instant::now() > deadline)
            })
        };
        match answered {
            // stopped by its deadline: the front's words, which name the limit
            Ok(reply) if reply.code == Some("timeout") => {
                Answer::error(&timeout_error(&self.config))
            }
            Ok(reply) => {
                if let Some((objective, n)) = reply.hands {
                    self.metrics.solved(objective, n);
                }
                Answer::json(reply.status, reply.body, reply.code)
            }
            Err(e) => Answer::error(&e),
        }
    }

    /// `work` on this connection's thread: no hand-over to a worker thread and back, which
    /// costs more than solving one hand (two thread wake-ups; measured in
    /// benches/serve_ratios.py). For small requests that cannot sample ([`INLINE_BODY`]):
    /// short and bounded work, whose deadline is checked between chunks and again at the end.
    fn inline<R>(
        &self,
        flight: &InFlight<'_>,
        deadline: Instant,
        work: impl FnOnce() -> R,
    ) -> Result<R, ApiError> {
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        match done {
            Ok(_) if Instant::now() > deadline => Err(timeout_error(&self.config)),
            Ok(r) => Ok(r),
            Err(_) => {
                if self.config.log_errors {
                    eprintln!("ERROR:    internal error on {}: a panic", flight.route);
                }
                Err(internal())
            }
        }
    }

    async fn page(
        &self,
        flight: &mut InFlight<'_>,
        request: PageRequest,
        deadline: Instant,
    ) -> Answer {
        let pages = self.pages.clone();
        match self
            .run(flight, deadline, move |_| pages.page(request))
            .await
        {
            Ok(p) => {
                let headers = p
                    .headers
                    .into_iter()
                    .filter_map(|(k, v)| Some((k.parse().ok()?, HeaderValue::from_str(&v).ok()?)))
                    .collect();
                let content_type: &'static str = match p.content_type.as_str() {
                    "application/json" => JSON,
                    _ => "text/html; charset=utf-8",
                };
                let code = match p.status {
                    401 => Some("unauthorized"),
                    s if s >= 500 => Some("internal"),
                    _ => None,
                };
                Answer {
                    status: p.status,
                    content_type,
                    headers,
                    body: p.body,
                    code,
                }
            }
            Err(e) => Answer::error(&e),
        }
    }

    /// The answer of a request that found `route`.
    async fn route(
        &self,
        flight: &mut InFlight<'_>,
        route: &'static Route,
        name: Option<&str>,
        request: Request<Incoming>,
    ) -> Result<Answer, Cut> {
        let start = flight.start;
        let deadline = start + self.config.timeout;
        let (parts, body) = request.into_parts();
        let page_request = |route: &'static str, body: Vec<u8>| PageRequest {
            route,
            method: parts.method.as_str().to_string(),
            query: parts.uri.query().unwrap_or("").to_string(),
            body,
        };
        if !self.authorized(route, &parts.headers) {
            if route.page {
                return Ok(self
                    .page(flight, page_request("sign_in", Vec::new()), deadline)
                    .await);
            }
            let e = ApiError::new(
                "unauthorized",
                "this server needs 'Authorization: Bearer TOKEN'",
            );
            return Ok(Answer::error(&e));
        }
        let read_by = start + self.config.read_timeout;
        Ok(match route.answer {
            routes::Answer::Op(op) => match self.body(&parts.headers, body, read_by).await? {
                Ok(body) => self.op(flight, op, body, deadline).await,
                Err(e) => Answer::error(&e),
            },
            routes::Answer::Rules => {
                let body = match name {
                    None => b"{}".to_vec(),
                    Some(n) => serde_json_name(&percent_decoded(n)),
                };
                let reply = self.service.answer(Op::Rules, &body, &|| false);
                Answer::json(reply.status, reply.body, reply.code)
            }
            routes::Answer::Health => {
                let body = format!(
                    "{{\"status\":\"ok\",\"version\":\"{}\"}}",
                    self.config.version
                );
                Answer::json(200, body.into_bytes(), None)
            }
            routes::Answer::Metrics => Answer {
                status: 200,
                content_type: crate::metrics::CONTENT_TYPE,
                headers: Vec::new(),
                body: self.metrics.text().into_bytes(),
                code: None,
            },
            routes::Answer::Page => {
                let body = if parts.method == hyper::Method::POST {
                    match self.body(&parts.headers, body, read_by).await? {
                        Ok(b) => b,
                        Err(e) => return Ok(Answer::error(&e)),
                    }
                } else {
                    Vec::new()
                };
                self.page(flight, page_request(route.name, body), deadline)
                    .await
            }
        })
    }
}

/// The largest request body answered on the connection's own thread (bytes): a few dozen hands
/// of the table objective at most, a millisecond or two, so one request never holds up the
/// others on that thread for long. Larger requests go to the worker threads.
const INLINE_BODY: usize = 4096;

/// Whether a request body may ask for Monte Carlo (it names the objective's key): such work
/// runs on a worker thread the request can leave (a deadline or a client gone cancels it);
/// other work is short and runs in place ([`State::inline`]). Only where the work runs depends
/// on this, never the answer.
fn may_sample(body: &[u8]) -> bool {
    body.windows(MONTE_CARLO.len())
        .any(|w| w == MONTE_CARLO.as_bytes())
}

fn serde_json_name(name: &str) -> Vec<u8> {
    serde_json::json!({ "name": name }).to_string().into_bytes()
}

/// The answer to one request on a connection from `peer`.
pub async fn handle(
    state: Arc<State>,
    peer: SocketAddr,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Cut> {
    let start = Instant::now();
    let method = request.method().as_str().to_string();
    let target = request
        .uri()
        .path_and_query()
        .map_or("/".to_string(), |p| p.to_string());
    let path = request.uri().path().to_string();
    let headers = request.headers().clone();
    if method == "OPTIONS" {
        if let Some(r) = preflight(&state.config, &headers) {
            return Ok(r);
        }
    }
    let mut flight = InFlight {
        cancel: Arc::new(AtomicBool::new(false)),
        state: &state,
        route: OTHER,
        start,
        done: false,
    };
    let answer = match routes::find(&method, &path) {
        Found::NotFound => Answer::error(&ApiError::new(
            "not_found",
            format!("{method} {path}: not found"),
        )),
        Found::WrongMethod(allow) => {
            let e = ApiError::new(
                "method_not_allowed",
                format!("{method} {path}: method not allowed"),
            );
            let mut a = Answer::error(&e);
            if let Ok(v) = HeaderValue::from_str(&allow.join(", ")) {
                a.headers.push((hyper::header::ALLOW, v));
            }
            a
        }
        Found::Route(route, name) => {
            flight.route = route.name;
            let name = name.map(str::to_string);
            match state
                .route(&mut flight, route, name.as_deref(), request)
                .await
            {
                Ok(a) => a,
                Err(cut) => {
                    flight.done = true;
                    return Err(cut);
                }
            }
        }
    };
    flight.done = true;
    let status = answer.status;
    state.metrics.observe(
        flight.route,
        status,
        start.elapsed().as_secs_f64(),
        answer.code,
    );
    if state.config.access_log {
        eprintln!("INFO:     {peer} - \"{method} {target} HTTP/1.1\" {status}");
    }
    let origin = allowed_origin(&state.config, &headers);
    Ok(finish(answer, &headers, origin, method == "HEAD"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_decode() {
        assert_eq!(percent_decoded("mace%20play"), "mace play");
        assert_eq!(percent_decoded("bad%zz%2"), "bad%zz%2");
        assert_eq!(serde_json_name("a\"b"), b"{\"name\":\"a\\\"b\"}".to_vec());
    }
}
