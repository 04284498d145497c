//! `HttpServer`: the Rust HTTP front (`chinese_poker_server`) bound to an address, serving the
//! core's operations with the GIL released; the pages are Python's (a callable). Ctrl-C and
//! the other signal handlers run between the accept loop's turns, and an exception they raise
//! stops the server gracefully, then is raised here.

use crate::service::PyService;
use chinese_poker_server::{Config, PageRequest, PageResponse, Pages, Server};
use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;
use std::time::Duration;

/// The pages: a Python callable `(route, method, query, body) -> (status, content_type,
/// headers, body)`.
struct PyPages(Py<PyAny>);

impl Pages for PyPages {
    fn page(&self, r: PageRequest) -> PageResponse {
        Python::attach(|py| {
            let called =
                self.0
                    .bind(py)
                    .call1((r.route, r.method, r.query, PyBytes::new(py, &r.body)));
            let read = called
                .and_then(|out| out.extract::<(u16, String, Vec<(String, String)>, Vec<u8>)>());
            match read {
                Ok((status, content_type, headers, body)) => PageResponse {
                    status,
                    content_type,
                    headers,
                    body,
                },
                Err(e) => {
                    e.print(py);
                    PageResponse {
                        status: 500,
                        content_type: "application/json".into(),
                        headers: Vec::new(),
                        body: chinese_poker::service::ApiError::new("internal", "internal error")
                            .to_json(),
                    }
                }
            }
        })
    }
}

/// A server bound to its address; `serve()` runs it.
#[pyclass(name = "HttpServer", module = "chinese_poker._core")]
pub struct PyHttpServer {
    server: Option<Server>,
}

#[pymethods]
impl PyHttpServer {
    #[new]
    #[pyo3(signature = (*, host, port, token, cors_origins, access_log, log_errors, read_timeout, timeout, max_connections, max_body, workers, version))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        host: String,
        port: u16,
        token: Option<String>,
        cors_origins: Vec<String>,
        access_log: bool,
        log_errors: bool,
        read_timeout: f64,
        timeout: f64,
        max_connections: usize,
        max_body: usize,
        workers: usize,
        version: String,
    ) -> PyResult<Self> {
        let seconds = |s: f64| {
            Duration::try_from_secs_f64(s).map_err(|e| PyRuntimeError::new_err(e.to_string()))
        };
        let config = Config {
            host,
            port,
            token,
            cors_origins,
            access_log,
            log_errors,
            read_timeout: seconds(read_timeout)?,
            timeout: seconds(timeout)?,
            max_connections,
            max_body,
            workers,
            version,
        };
        let server = Server::bind(config).map_err(|e| PyOSError::new_err(e.to_string()))?;
        Ok(PyHttpServer {
            server: Some(server),
        })
    }

    /// The address it listens on: (host, port).
    fn address(&self) -> PyResult<(String, u16)> {
        let server = self
            .server
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("already served"))?;
        let addr = server
            .local_addr()
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        Ok((addr.ip().to_string(), addr.port()))
    }

    /// Serves until a signal handler raises; stops gracefully, then raises that exception.
    fn serve(
        &mut self,
        py: Python<'_>,
        service: PyRef<'_, PyService>,
        pages: Py<PyAny>,
    ) -> PyResult<()> {
        let server = self
            .server
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("already served"))?;
        let service = service.0.clone();
        let pages: Arc<dyn Pages> = Arc::new(PyPages(pages));
        let mut raised: Option<PyErr> = None;
        let served = py.detach(|| {
            let mut stop = || {
                Python::attach(|py| match py.check_signals() {
                    Ok(()) => false,
                    Err(e) => {
                        raised = Some(e);
                        true
                    }
                })
            };
            server.run(service, pages, &mut stop)
        });
        if let Some(e) = raised {
            return Err(e);
        }
        served.map_err(|e| PyOSError::new_err(e.to_string()))
    }
}

/// Whether `given` is the server's `token` (compared in constant time): the sign-in form's
/// check, the same as the front's.
#[pyfunction]
pub fn token_matches(given: &str, token: &str) -> bool {
    chinese_poker_server::token_matches(given, token)
}

/// Whether an `Authorization` header value carries `token`: the front's check (the scheme's
/// name case-insensitive, the token compared in constant time).
#[pyfunction]
pub fn bearer_matches(header: &str, token: &str) -> bool {
    chinese_poker_server::bearer_matches(header, token)
}
