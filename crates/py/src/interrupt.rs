//! Ctrl-C for long calls. Python runs signal handlers only on the main thread, and only when
//! that thread runs Python: so the work runs on a thread of the core's pool
//! (`chinese_poker::parallel::watched`), with the GIL released, while the calling thread waits
//! and runs `check_signals` every [`POLL`]. A signal handler's error (`KeyboardInterrupt`) sets
//! the stop flag the core checks between small units of work (a seat's decision, a chunk of
//! samples or deals: see `chinese_poker::parallel::Stop`), so the call returns within a fraction
//! of a second with that error. The pool's threads are already running: a short call pays a
//! wake-up, not a new thread (which cost about 80 µs a call here).
//!
//! Work that runs on the calling thread alone (`interruptible_here`: a Monte Carlo solve on one
//! thread) is not handed to the pool at all, which saves the two wake-ups (about 55 µs a call
//! here): its own stop checks run the signal handlers, at most every [`POLL`].

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// How often the waiting thread runs Python's signal handlers.
const POLL: Duration = Duration::from_millis(20);

pyo3::import_exception!(chinese_poker.exceptions, CancelledError);

/// A call's stop flag and the error that set it: the signal handler's, or `CancelledError`
/// once the caller's `cancel` event (anything with `is_set()`) is set.
struct Signals<'c> {
    stop: AtomicBool,
    raised: Mutex<Option<PyErr>>,
    cancel: Option<&'c Py<PyAny>>,
}

impl<'c> Signals<'c> {
    fn new(cancel: Option<&'c Py<PyAny>>) -> Self {
        Signals {
            stop: AtomicBool::new(false),
            raised: Mutex::new(None),
            cancel,
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Runs Python's signal handlers (on the main thread; elsewhere they do nothing), once an
    /// error is raised no more.
    fn check(&self) {
        if self.stopped() {
            return;
        }
        let checked = Python::attach(|py| {
            py.check_signals()?;
            match self.cancel {
                Some(event) if event.bind(py).call_method0("is_set")?.is_truthy()? => Err(
                    CancelledError::new_err("cancelled by the caller before it finished"),
                ),
                _ => Ok(()),
            }
        });
        if let Err(e) = checked {
            *self.raised.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The signal handler's error if one was raised, else `result`.
    fn result<R>(self, result: R) -> PyResult<R> {
        match self.raised.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(e) => Err(e),
            None => Ok(result),
        }
    }
}

/// Runs `work(stop)` with the GIL released. Returns the signal handler's error (Ctrl-C:
/// `KeyboardInterrupt`) if one was raised while it ran, else what `work` returned.
pub fn interruptible<R: Send>(
    py: Python<'_>,
    work: impl FnOnce(chinese_poker::parallel::Stop) -> R + Send,
) -> PyResult<R> {
    interruptible_or_cancelled(py, None, work)
}

/// [`interruptible`] that also stops, with `CancelledError`, once `cancel.is_set()`.
pub fn interruptible_or_cancelled<R: Send>(
    py: Python<'_>,
    cancel: Option<&Py<PyAny>>,
    work: impl FnOnce(chinese_poker::parallel::Stop) -> R + Send,
) -> PyResult<R> {
    let signals = Signals::new(cancel);
    let stop = || signals.stopped();
    let result =
        py.detach(|| chinese_poker::parallel::watched(|| work(&stop), POLL, || signals.check()));
    signals.result(result)
}

/// [`interruptible`] for work that runs on the calling thread alone
/// (`chinese_poker::parallel::on_caller`): run here, its stop checks on this thread run the
/// signal handlers once [`POLL`] has passed since the last time.
pub fn interruptible_here<R: Send>(
    py: Python<'_>,
    cancel: Option<&Py<PyAny>>,
    work: impl FnOnce(chinese_poker::parallel::Stop) -> R + Send,
) -> PyResult<R> {
    let signals = Signals::new(cancel);
    let here: ThreadId = std::thread::current().id();
    let next = Mutex::new(Instant::now() + POLL);
    let stop = || {
        if std::thread::current().id() == here {
            let mut next = next.lock().unwrap_or_else(|p| p.into_inner());
            let now = Instant::now();
            if now >= *next {
                *next = now + POLL;
                signals.check();
            }
        }
        signals.stopped()
    };
    let result = py.detach(|| work(&stop));
    signals.result(result)
}
