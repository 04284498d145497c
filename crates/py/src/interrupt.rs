//! Ctrl-C for long calls. Python runs signal handlers only on the main thread, and only when
//! that thread runs Python: so the work runs on a thread of the core's pool
//! (`chinese_poker::parallel::watched`), with the GIL released, while the calling thread waits
//! and runs `check_signals` every [`POLL`]. A signal handler's error (`KeyboardInterrupt`) sets
//! the stop flag the core checks between small units of work (a seat's decision, a chunk of
//! samples or deals: see `chinese_poker::parallel::Stop`), so the call returns within a fraction
//! of a second with that error. The pool's threads are already running: a short call pays a
//! wake-up, not a new thread (which cost about 80 µs a call here).

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
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
        chinese_poker::parallel::watched(
            || work(&check),
            POLL,
            || {
                if raised.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        raised = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            },
        )
    });
    match raised {
        Some(e) => Err(e),
        None => Ok(result),
    }
}
