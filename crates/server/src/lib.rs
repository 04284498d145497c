//! The HTTP front of the chinese-poker service: hyper on a tokio runtime, answering the core's
//! operations ([`chinese_poker::service::Service`]) as bytes in and bytes out, with no Python on the
//! path of a solve. What only a person reads (the pages, the OpenAPI document, the sign-in) is
//! answered by a [`Pages`] implementation (the Python side). The front owns the transport's
//! rules: routes, the token, body and time limits, connections, metrics, gzip, CORS, the access
//! log and the graceful stop.

mod auth;
mod handle;
mod metrics;
mod respond;
pub mod routes;
mod serve;

pub use auth::{bearer_matches, token_matches, TOKEN_COOKIE};
pub use metrics::Metrics;
pub use respond::GZIP_MIN;
pub use routes::{Route, ROUTES};
pub use serve::Server;

use std::time::Duration;

/// The HTTP libraries compiled in, with their versions (`"hyper 1.13.0, hyper-util …"`).
pub const LIBRARIES: &str = env!("SERVER_LIBRARIES");

/// How long an answer waits for cancelled work to stop (a Monte Carlo solve stops within
/// about 20 ms), so that its slot is free when the answer leaves.
pub const STOP_GRACE: Duration = Duration::from_secs(1);

/// What a server runs with.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on.
    pub host: String,
    /// The port (0: any free port, [`Server::local_addr`] tells which).
    pub port: u16,
    /// The bearer token every route but `/healthz` and the sign-in needs (`None`: open).
    pub token: Option<String>,
    /// Origins whose browser pages may call the API (CORS); empty: CORS off.
    pub cors_origins: Vec<String>,
    /// One line per request on standard error.
    pub access_log: bool,
    /// Internal errors logged on standard error.
    pub log_errors: bool,
    /// Seconds a client may take to send a whole request; slower: its connection is closed.
    pub read_timeout: Duration,
    /// Seconds a request may take; later: 504, and its work is cancelled.
    pub timeout: Duration,
    /// Connections at once; more: 503.
    pub max_connections: usize,
    /// The largest request body (bytes); larger: 413.
    pub max_body: usize,
    /// Threads that solve, settle and render pages.
    pub workers: usize,
    /// The package version `/healthz` reports.
    pub version: String,
}

/// A request for the pages (`/`, `/docs`, `/openapi.json`, `/login`).
#[derive(Clone, Debug)]
pub struct PageRequest {
    /// The route's name ([`Route::name`]), or `"sign_in"`: a page asked for without the token,
    /// to be answered with the sign-in form (401).
    pub route: &'static str,
    /// `GET` or `POST`.
    pub method: String,
    /// The query string, undecoded.
    pub query: String,
    /// The body (the sign-in form's post).
    pub body: Vec<u8>,
}

/// A page's answer.
#[derive(Clone, Debug)]
pub struct PageResponse {
    /// The HTTP status.
    pub status: u16,
    /// The content type.
    pub content_type: String,
    /// Other headers (`Location`, `Set-Cookie`).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

/// The pages' side of the service.
pub trait Pages: Send + Sync + 'static {
    /// The answer to `request`.
    fn page(&self, request: PageRequest) -> PageResponse;
}
