//! The table objective's per-hand cost on one preset, for profiling (docs/performance.md):
//!
//! ```text
//! cargo run --release -p chinese-poker --example solve_profile -- two_four 2
//! valgrind --tool=callgrind --toggle-collect='chinese_poker::solve::best_table_ev*' \
//!     target/release/examples/solve_profile two_four 2 --count
//! valgrind --tool=callgrind --toggle-collect='chinese_poker::solve::enumerate::Scratch::greedy*' \
//!     target/release/examples/solve_profile two_four 2 --count --ranking
//! ```
//!
//! Run from the repository root: it reads the shipped tables in `python/chinese_poker/data`.
//! Timed: the median and least of 9 passes over 3,000 dealt hands of ranking alone
//! (`Scratch::greedy`), `best_table_ev` and `decide_table_ev`, each also in thousands of
//! cycles a hand at the core's clock, estimated on x86-64 from a chain of dependent additions
//! (one a cycle): beside callgrind's count, how many instructions a cycle each part retires.
//! With `--count`: one pass of 1,000 dealt hands through `best_table_ev` (with `--ranking`,
//! through `Scratch::greedy`), whose instructions callgrind counts.

use chinese_poker::hand::Hand;
use chinese_poker::solve::{best_table_ev, decide_table_ev, load_shipped, Scratch};
use chinese_poker::Rules;
use std::time::Instant;

mod common;
use common::{hands, preset_and_players};

/// µs a hand of `f` over `hands`, per pass.
fn passes(n: usize, hands: usize, mut f: impl FnMut() -> u64) -> Vec<f64> {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            assert!(f() > 0);
            t.elapsed().as_secs_f64() * 1e6 / hands as f64
        })
        .collect()
}

/// The core's clock in GHz, from the median of 9 timings of a chain of 10^8 dependent
/// additions, which retires one a cycle; `None` where the chain is not written for the target.
fn clock_ghz() -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        const N: u64 = 100_000_000;
        let mut ghz: Vec<f64> = (0..9)
            .map(|_| {
                let (mut x, t) = (0u64, Instant::now());
                for _ in 0..N {
                    // SAFETY: adds 1 to a register and touches nothing else
                    unsafe { std::arch::asm!("add {0}, 1", inout(reg) x, options(nomem, nostack)) };
                }
                assert_eq!(x, N);
                N as f64 / t.elapsed().as_secs_f64() / 1e9
            })
            .collect();
        ghz.sort_by(f64::total_cmp);
        Some(ghz[ghz.len() / 2])
    }
    #[cfg(not(target_arch = "x86_64"))]
    None
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (preset, players) = preset_and_players(&args);
    let rules = Rules::preset(preset).expect("a preset name");
    let te = load_shipped("python/chinese_poker/data", &rules, players).expect("shipped tables");
    let mut scratch = Scratch::default();
    if args.iter().any(|a| a == "--count") {
        let wheel = te.tables.wheel;
        let total: u64 = if args.iter().any(|a| a == "--ranking") {
            hands(1000, 7)
                .iter()
                .map(|h| scratch.greedy(h, wheel).back as u64)
                .sum()
        } else {
            hands(1000, 7)
                .iter()
                .map(|h| best_table_ev(&te, h, &mut scratch).0.back as u64)
                .sum()
        };
        println!("{preset} at {players}: 1,000 hands solved ({total})");
        return;
    }
    let codes = hands(3000, 7);
    let dealt: Vec<Hand> = codes
        .iter()
        .map(|h| Hand::new(*h).expect("a hand"))
        .collect();
    let wheel = te.tables.wheel;
    let n = codes.len();
    let rows = [
        (
            "ranking (greedy)",
            passes(9, n, || {
                codes
                    .iter()
                    .map(|h| scratch.greedy(h, wheel).back as u64)
                    .sum()
            }),
        ),
        (
            "best_table_ev",
            passes(9, n, || {
                codes
                    .iter()
                    .map(|h| best_table_ev(&te, h, &mut scratch).0.back as u64)
                    .sum()
            }),
        ),
        (
            "decide_table_ev",
            passes(9, n, || {
                dealt
                    .iter()
                    .map(|h| decide_table_ev(&te, &rules, h, &mut scratch).1[0] as u64 + 1)
                    .sum()
            }),
        ),
    ];
    let ghz = clock_ghz();
    if let Some(ghz) = ghz {
        println!("clock about {ghz:.2} GHz (a chain of dependent additions, one a cycle)");
    }
    for (name, mut times) in rows {
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let cycles = ghz.map_or(String::new(), |g| {
            format!(", about {:.1} thousand cycles", median * g)
        });
        println!(
            "{preset} at {players}: {name:>16} median {median:.2} µs a hand, least {:.2}{cycles}",
            times[0]
        );
    }
}
