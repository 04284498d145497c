//! Building answers: the one JSON error shape, gzip for clients that ask, CORS headers.

use bytes::Bytes;
use chinese_poker::service::ApiError;
use flate2::{write::GzEncoder, Compression};
use http_body_util::Full;
use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use hyper::{Response, StatusCode};
use std::io::Write;

/// Answers at least this long are gzipped for a client that accepts it (bytes).
pub const GZIP_MIN: usize = 1024;
/// The content type of every JSON answer.
pub const JSON: &str = "application/json";

/// What a route answered, before the front adds gzip and CORS.
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub headers: Vec<(HeaderName, HeaderValue)>,
    pub body: Vec<u8>,
    /// The error code, for the metrics.
    pub code: Option<&'static str>,
}

impl Answer {
    /// A JSON answer; an error's code adds its header (`WWW-Authenticate` to a 401,
    /// `Retry-After` to a 429).
    pub fn json(status: u16, body: Vec<u8>, code: Option<&'static str>) -> Answer {
        let mut headers = Vec::new();
        match code {
            Some("unauthorized") => headers.push((
                hyper::header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer"),
            )),
            Some("busy") => {
                headers.push((hyper::header::RETRY_AFTER, HeaderValue::from_static("1")))
            }
            _ => {}
        }
        Answer {
            status,
            content_type: JSON,
            headers,
            body,
            code,
        }
    }

    /// The answer of an error.
    pub fn error(e: &ApiError) -> Answer {
        Answer::json(e.status(), e.to_json(), Some(e.code))
    }
}

fn accepts_gzip(request: &HeaderMap) -> bool {
    request
        .get_all(hyper::header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|e| {
            let mut parts = e.split(';');
            let name = parts.next().unwrap_or("").trim();
            let refused = parts.any(|p| {
                matches!(
                    p.trim().replace(' ', "").as_str(),
                    "q=0" | "q=0.0" | "q=0.00" | "q=0.000"
                )
            });
            name.eq_ignore_ascii_case("gzip") && !refused
        })
}

fn gzip(body: &[u8]) -> Option<Vec<u8>> {
    let mut enc = GzEncoder::new(Vec::with_capacity(body.len() / 4), Compression::fast());
    enc.write_all(body).ok()?;
    enc.finish().ok()
}

/// The HTTP response of `answer`: gzipped when the client accepts it and it is long enough,
/// with the CORS header when `origin` is allowed.
pub fn finish(
    answer: Answer,
    request: &HeaderMap,
    origin: Option<HeaderValue>,
    head: bool,
) -> Response<Full<Bytes>> {
    let mut body = answer.body;
    let mut builder = Response::builder()
        .status(StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header(hyper::header::CONTENT_TYPE, answer.content_type);
    let compress = body.len() >= GZIP_MIN && accepts_gzip(request);
    if body.len() >= GZIP_MIN {
        builder = builder.header(hyper::header::VARY, "Accept-Encoding");
    }
    if compress {
        if let Some(zipped) = gzip(&body) {
            body = zipped;
            builder = builder.header(hyper::header::CONTENT_ENCODING, "gzip");
        }
    }
    for (k, v) in answer.headers {
        builder = builder.header(k, v);
    }
    if let Some(origin) = origin {
        builder = builder
            .header(hyper::header::ACCESS_CONTROL_ALLOW_ORIGIN, origin)
            .header(hyper::header::VARY, "Origin");
    }
    let body = if head {
        Bytes::new()
    } else {
        Bytes::from(body)
    };
    builder.body(Full::new(body)).unwrap_or_else(|_| {
        let mut r = Response::new(Full::new(Bytes::from_static(b"internal error")));
        *r.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_only_when_accepted() {
        let mut h = HeaderMap::new();
        assert!(!accepts_gzip(&h));
        h.insert(
            hyper::header::ACCEPT_ENCODING,
            HeaderValue::from_static("br, GZIP"),
        );
        assert!(accepts_gzip(&h));
        h.insert(
            hyper::header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip;q=0"),
        );
        assert!(!accepts_gzip(&h));
    }
}
