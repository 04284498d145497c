//! Thread-count control for batch work. `None` uses rayon's global pool (all cores); a number
//! uses a pool of that size, reused across calls, so a `threads=` knob costs nothing per call.
//! Results never depend on the thread count: batch functions write each item's result to its own
//! slot, and Monte Carlo sums are exact integers.
//!
//! Bounds, so that no argument can exhaust the machine:
//! - counts above [`MAX_THREADS`] are refused by the bindings (a typo like `threads=10**9` would
//!   otherwise try to spawn that many OS threads);
//! - a count above the number of CPUs runs on a pool of as many threads as CPUs: CPU-bound work
//!   cannot go faster with more threads than cores, and the result is the same;
//! - at most [`MAX_POOLS`] sized pools are kept, least recently used dropped first (a dropped
//!   pool's threads exit once the calls still using it return).

use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::{Arc, Mutex, OnceLock};

/// Largest `threads=` value accepted.
pub const MAX_THREADS: usize = 1024;
/// Sized pools kept alive between calls.
pub const MAX_POOLS: usize = 4;

/// Threads a pool for `threads` really gets: at most one per CPU.
pub fn effective_threads(threads: usize) -> usize {
    static CPUS: OnceLock<usize> = OnceLock::new();
    let cpus = *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    threads.clamp(1, cpus)
}

fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    // most recently used last
    static POOLS: Mutex<Vec<(usize, Arc<ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(i) = pools.iter().position(|(n, _)| *n == threads) {
        let entry = pools.remove(i);
        let p = entry.1.clone();
        pools.push(entry);
        return Some(p);
    }
    // a pool that cannot be built (the OS refused threads) falls back to the global pool
    let built = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("chinese-poker-{threads}-{i}"))
        .build()
        .ok()
        .map(Arc::new)?;
    if pools.len() >= MAX_POOLS {
        pools.remove(0);
    }
    pools.push((threads, built.clone()));
    Some(built)
}

/// Runs `f` inside a pool of `threads` threads (`None` or `Some(0)`: the global pool).
pub fn with_threads<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> R {
    match threads {
        None | Some(0) => f(),
        Some(n) => match pool(effective_threads(n.min(MAX_THREADS))) {
            Some(p) => p.install(f),
            None => f(),
        },
    }
}
