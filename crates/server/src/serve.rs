//! The listening socket and the connections: accept within `max_connections` (503 beyond),
//! HTTP/1.1 with keep-alive and a deadline for each request's head, and the graceful stop:
//! no new connection, the requests in flight answered, then return.

use crate::handle::{handle, State};
use crate::{Config, Metrics, Pages};
use chinese_poker::service::Service;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::sync::{watch, Semaphore};

/// The longest request head, request line and headers (bytes); longer: 431 and closed.
const MAX_HEAD: usize = 64 * 1024;

/// How often the accept loop asks whether to stop (the caller's check: Ctrl-C, SIGTERM).
const STOP_POLL: Duration = Duration::from_millis(50);

const UNAVAILABLE: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; \
charset=utf-8\r\ncontent-length: 19\r\nconnection: close\r\n\r\nService Unavailable";

/// A bound server, not yet serving.
pub struct Server {
    listener: TcpListener,
    config: Config,
}

impl Server {
    /// Binds `config.host:config.port`.
    pub fn bind(config: Config) -> io::Result<Server> {
        let host = config.host.trim_start_matches('[').trim_end_matches(']');
        let listener = TcpListener::bind((host, config.port))?;
        listener.set_nonblocking(true)?;
        Ok(Server { listener, config })
    }

    /// The address it listens on (the port chosen for port 0).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `stop()` (asked every 50 ms on the calling thread) says so, then stops
    /// gracefully: the requests in flight are answered (for at most `timeout` + 1 s).
    pub fn run(
        self,
        service: Arc<Service>,
        pages: Arc<dyn Pages>,
        stop: &mut dyn FnMut() -> bool,
    ) -> io::Result<()> {
        let config = self.config;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(config.workers.clamp(1, 4))
            .max_blocking_threads(config.workers.max(1))
            .thread_name("chinese-poker-http")
            .enable_all()
            .build()?;
        let grace = config.timeout + Duration::from_secs(1);
        let state = Arc::new(State {
            config,
            service,
            pages,
            metrics: Metrics::default(),
        });
        let listener = self.listener;
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener)?;
            let slots = Arc::new(Semaphore::new(state.config.max_connections.max(1)));
            let (quit, quitting) = watch::channel(false);
            let mut poll = tokio::time::interval(STOP_POLL);
            loop {
                tokio::select! {
                    accepted = listener.accept() => {
                        let Ok((stream, peer)) = accepted else { continue };
                        let _ = stream.set_nodelay(true);
                        match slots.clone().try_acquire_owned() {
                            Ok(permit) => {
                                let state = state.clone();
                                let quitting = quitting.clone();
                                tokio::spawn(async move {
                                    connection(state, stream, peer, quitting).await;
                                    drop(permit);
                                });
                            }
                            Err(_) => {
                                tokio::spawn(async move {
                                    let mut stream = stream;
                                    let _ = stream.write_all(UNAVAILABLE).await;
                                    let _ = stream.shutdown().await;
                                });
                            }
                        }
                    }
                    _ = poll.tick() => {
                        if stop() {
                            break;
                        }
                    }
                }
            }
            drop(listener);
            let _ = quit.send(true);
            let until = Instant::now() + grace;
            let total = state.config.max_connections.max(1);
            while slots.available_permits() < total && Instant::now() < until {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            Ok::<(), io::Error>(())
        })?;
        runtime.shutdown_timeout(Duration::from_millis(100));
        Ok(())
    }
}

async fn connection(
    state: Arc<State>,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    mut quitting: watch::Receiver<bool>,
) {
    let service_state = state.clone();
    let service = service_fn(move |request| handle(service_state.clone(), peer, request));
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(state.config.read_timeout)
        .keep_alive(true)
        .max_buf_size(MAX_HEAD)
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => {}
        _ = async { let _ = quitting.wait_for(|q| *q).await; } => {
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
}
