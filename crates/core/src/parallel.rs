//! Thread-count control for batch work, and the stop check of long work. `None` uses a pool of
//! one thread per CPU; a number uses a pool of that size; both are reused across calls, so a
//! `threads=` knob costs nothing per call. Results never depend on the thread count: batch
//! functions write each item's result to its own slot, and Monte Carlo sums are exact integers.
//!
//! Bounds, so that no argument can exhaust the machine:
//! - counts above [`MAX_THREADS`] are refused by the bindings (a typo like `threads=10**9` would
//!   otherwise try to spawn that many OS threads);
//! - a count above the number of CPUs runs on a pool of as many threads as CPUs: CPU-bound work
//!   cannot go faster with more threads than cores, and the result is the same;
//! - at most [`MAX_POOLS`] sized pools are kept, least recently used dropped first (a dropped
//!   pool's threads exit once the calls still using it return).
//!
//! Fork: a pool's threads do not survive `fork()`; a child that used a pool its parent built
//! would wait forever for them. Every pool here is therefore owned by the process that built
//! it: a pool built by another process id (the parent) is forgotten and a new one built. Work
//! that runs through [`with_threads`] (every entry point of the Python bindings does) never
//! touches rayon's global pool, which cannot be rebuilt.

use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Largest `threads=` value accepted.
pub const MAX_THREADS: usize = 1024;
/// Sized pools kept alive between calls.
pub const MAX_POOLS: usize = 4;

/// The stop check of long work: called between small units of work (a round, a deal, a chunk
/// of Monte Carlo samples or of training deals), from any thread; when it returns true the work
/// ends with [`crate::Error::Interrupted`]. The Python bindings set it from Ctrl-C.
pub type Stop<'a> = &'a (dyn Fn() -> bool + Sync);

/// The stop check that never stops.
pub fn never() -> bool {
    false
}

fn cpus() -> usize {
    static CPUS: OnceLock<usize> = OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Threads a pool for `threads` really gets: at most one per CPU.
pub fn effective_threads(threads: usize) -> usize {
    threads.clamp(1, cpus())
}

/// Whether work asked to run on `threads` threads runs on the calling thread alone: one thread
/// asked for, or a number on a machine of one CPU (`None` and `Some(0)` mean a pool). Such work
/// wakes no pool, and a caller that watches for signals can run it itself.
pub fn on_caller(threads: Option<usize>) -> bool {
    matches!(threads, Some(n) if n >= 1 && effective_threads(n) == 1)
}

struct Pooled {
    threads: usize,
    pid: u32,
    pool: Arc<ThreadPool>,
}

fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    // most recently used last
    static POOLS: Mutex<Vec<Pooled>> = Mutex::new(Vec::new());
    let pid = std::process::id();
    let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
    if pools.iter().any(|p| p.pid != pid) {
        // built by the parent before a fork: their threads are not in this process. Dropping
        // one would signal threads that do not exist; forgetting it costs a few bytes.
        for stale in pools.drain(..) {
            std::mem::forget(stale);
        }
    }
    if let Some(i) = pools.iter().position(|p| p.threads == threads) {
        let entry = pools.remove(i);
        let p = entry.pool.clone();
        pools.push(entry);
        return Some(p);
    }
    let built = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("chinese-poker-{threads}-{i}"))
        .build()
        .ok()
        .map(Arc::new)?;
    if pools.len() >= MAX_POOLS {
        pools.remove(0);
    }
    pools.push(Pooled {
        threads,
        pid,
        pool: built.clone(),
    });
    Some(built)
}

/// Runs `f` inside a pool of `threads` threads (`None` or `Some(0)`: one per CPU; inside a pool
/// already, that pool).
pub fn with_threads<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> R {
    let n = match threads {
        None | Some(0) if rayon::current_thread_index().is_some() => return f(),
        None | Some(0) => cpus(),
        Some(n) => effective_threads(n.min(MAX_THREADS)),
    };
    match pool(n) {
        Some(p) => p.install(f),
        // no pool could be built (the OS refused threads): rayon's global pool
        None => f(),
    }
}

/// Runs `work` on a thread of the one-per-CPU pool while the calling thread waits for it,
/// calling `tick` every `every` until it is done: how a caller that alone can see an event
/// (Python runs signal handlers only on its main thread) watches for it while the work runs.
/// The pool's threads are already running, so a call costs a wake-up, not a thread; a panic
/// of `work` is raised again here. Without a pool (the OS refused threads) `work` runs here,
/// unwatched.
pub fn watched<R: Send>(
    work: impl FnOnce() -> R + Send,
    every: Duration,
    mut tick: impl FnMut(),
) -> R {
    let Some(p) = pool(cpus()) else {
        return work();
    };
    let (done, finished) = mpsc::channel();
    let out = p.in_place_scope(|scope| {
        scope.spawn(move |_| {
            let _ = done.send(work());
        });
        loop {
            match finished.recv_timeout(every) {
                Ok(r) => return Some(r),
                Err(RecvTimeoutError::Timeout) => tick(),
                // `work` panicked before sending: the scope raises that panic on its way out
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    });
    out.unwrap_or_else(|| unreachable!("a scope whose job panicked raises the panic"))
}
