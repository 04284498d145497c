//! Every limit of the service, defined once: its name (the `serve` command's option, the
//! field of [`super::ServiceLimits`] or of the HTTP front's configuration), its default, its
//! bounds and the help its option shows.

use crate::parallel::MAX_THREADS;
use crate::solve::{MAX_SAMPLES, MIN_SAMPLES};

/// One limit of the service.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    /// Its name (`max_body`; the option `--max-body`).
    pub name: &'static str,
    /// Its default.
    pub default: f64,
    /// The smallest value it takes.
    pub low: f64,
    /// The largest value it takes.
    pub high: f64,
    /// A whole number (else seconds).
    pub whole: bool,
    /// What it limits, and what a request beyond it gets.
    pub help: &'static str,
}

const fn whole(name: &'static str, default: f64, low: f64, high: f64, help: &'static str) -> Limit {
    Limit {
        name,
        default,
        low,
        high,
        whole: true,
        help,
    }
}

const fn seconds(
    name: &'static str,
    default: f64,
    low: f64,
    high: f64,
    help: &'static str,
) -> Limit {
    Limit {
        name,
        default,
        low,
        high,
        whole: false,
        help,
    }
}

/// The default of `workers`: the machine's CPUs, at most this many.
pub const DEFAULT_WORKERS_MAX: usize = 8;

/// Every limit, in the order the `serve` command lists its options (`workers`' default is the
/// machine's CPUs, at most [`DEFAULT_WORKERS_MAX`]).
pub fn limits() -> [Limit; 8] {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    [
        whole(
            "max_body",
            (1u32 << 20) as f64,
            (1u32 << 10) as f64,
            (1u32 << 26) as f64,
            "largest request body (bytes); larger: 413",
        ),
        whole(
            "max_hands",
            1024.0,
            1.0,
            100_000.0,
            "most hands in one solve request; more: 422",
        ),
        whole(
            "max_samples",
            100_000.0,
            MIN_SAMPLES as f64,
            MAX_SAMPLES as f64,
            "most Monte Carlo samples in one request (samples x hands); more: 422",
        ),
        whole(
            "mc_slots",
            2.0,
            1.0,
            MAX_THREADS as f64,
            "Monte Carlo requests solved at once (one thread each); another one meanwhile: 429",
        ),
        whole(
            "workers",
            cpus.min(DEFAULT_WORKERS_MAX) as f64,
            1.0,
            MAX_THREADS as f64,
            "threads that solve, settle and render the pages (the threads that read and \
               write the connections never solve)",
        ),
        seconds(
            "read_timeout",
            10.0,
            0.05,
            3600.0,
            "seconds a client may take to send a whole request, headers and body; slower: \
                 its connection is closed",
        ),
        whole(
            "max_connections",
            512.0,
            1.0,
            65_536.0,
            "connections at once; more: 503 (each open connection holds a file descriptor)",
        ),
        seconds(
            "timeout",
            30.0,
            0.01,
            3600.0,
            "seconds a request may take; later: 504, and its work is cancelled (a Monte \
                 Carlo request's time_limit x hands must fit in it)",
        ),
    ]
}

/// The default of the limit `name` (one of [`limits`]).
pub fn default_of(name: &str) -> f64 {
    limits()
        .into_iter()
        .find(|l| l.name == name)
        .map_or(f64::NAN, |l| l.default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_within_its_bounds() {
        for l in limits() {
            assert!(l.low <= l.default && l.default <= l.high, "{}", l.name);
            assert!(!l.whole || l.default.fract() == 0.0, "{}", l.name);
        }
    }
}
