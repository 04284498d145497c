//! Thread-count control for batch work. `None` uses rayon's global pool (all cores); a number
//! uses a pool of that size, built once and reused, so a `threads=` knob costs nothing per call.
//! Results never depend on the thread count: batch functions write each item's result to its own
//! slot.

use rayon::{ThreadPool, ThreadPoolBuilder};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

fn pool(threads: usize) -> Arc<ThreadPool> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    pools
        .entry(threads)
        .or_insert_with(|| {
            Arc::new(
                ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(move |i| format!("chinese-poker-{threads}-{i}"))
                    .build()
                    .expect("thread pool"),
            )
        })
        .clone()
}

/// Runs `f` inside a pool of `threads` threads (`None` or `Some(0)`: the global pool).
pub fn with_threads<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> R {
    match threads {
        None | Some(0) => f(),
        Some(n) => pool(n).install(f),
    }
}
