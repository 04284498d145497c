//! Ctrl-C for long calls. Python runs signal handlers only on the main thread, and only when
//! that thread runs Python: so the work runs on a helper thread, with the GIL released, while
//! the calling thread waits and runs `check_signals` every [`POLL`]. A signal handler's error
//! (`KeyboardInterrupt`) sets the stop flag the core checks between small units of work (a seat's
//! decision, a chunk of samples or deals: see `chinese_poker::parallel::Stop`), so the call
//! returns within a fraction of a second with that error.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How often the waiting thread runs Python's signal handlers.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work(stop)` with the GIL released. Returns the signal handler's error (Ctrl-C:
/// `KeyboardInterrupt`) if one was raised while it ran, else what `work` returned.
pub fn interruptible<R: Send>(
    py: Python<'_>,
    work: impl FnOnce(chinese_poker::parallel::Stop) -> R + Send,
) -> PyResult<R> {
    let stop = AtomicBool::new(false);
    let check = || stop.load(Ordering::Relaxed);
    let mut raised: Option<PyErr> = None;
    let result = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let check = &check;
            let worker = scope.spawn(move || {
                let r = work(check);
                let _ = done.send(());
                r
            });
            loop {
                match finished.recv_timeout(POLL) {
                    Err(mpsc::RecvTimeoutError::Timeout) if raised.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            raised = Some(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    _ => break,
                }
            }
            worker.join()
        })
    });
    let result = result.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    match raised {
        Some(e) => Err(e),
        None => Ok(result),
    }
}
