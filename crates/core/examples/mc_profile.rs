//! Monte Carlo's per-sample cost heads-up, like for like (every frontier play on every
//! sample, no racing), for profiling (docs/performance.md):
//!
//! ```text
//! cargo run --release -p chinese-poker --example mc_profile -- two_four
//! valgrind --tool=callgrind target/release/examples/mc_profile two_four --count
//! ```
//!
//! Run from the repository root: it reads the shipped heads-up tables. Timed: the median and
//! least of 5 passes over 20 dealt hands of 200 samples each, one thread. With `--count`: one
//! pass.

use chinese_poker::hand::Hand;
use chinese_poker::solve::objective::{Budget, Objective, Policy};
use chinese_poker::solve::{load_shipped, solve};
use chinese_poker::Rules;
use std::sync::Arc;
use std::time::Instant;

mod common;
use common::{hands, preset};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // (heads-up: Monte Carlo's opponents play with the heads-up tables)
    let preset = preset(&args);
    let rules = Rules::preset(preset).expect("a preset name");
    let te = Arc::new(load_shipped("python/chinese_poker/data", &rules, 2).expect("tables"));
    let samples = 200;
    let objective = Objective::MonteCarlo {
        budget: Budget {
            samples,
            confidence: 0.0,
            candidates: 0,
            time_limit: None,
        },
        seed: 1,
        policy: Policy::TableEv(te),
        threads: Some(1),
    };
    let dealt: Vec<Hand> = hands(20, 7)
        .iter()
        .map(|h| Hand::new(*h).expect("a hand"))
        .collect();
    let pass = || -> f64 {
        dealt
            .iter()
            .map(|h| solve(h, &rules, 2, &objective, 1).expect("a solve").value)
            .sum()
    };
    if args.iter().any(|a| a == "--count") {
        println!("{preset}: 20 hands x {samples} samples ({:.3})", pass());
        return;
    }
    let mut us: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            assert!(pass().is_finite());
            t.elapsed().as_secs_f64() * 1e6 / (dealt.len() * samples) as f64
        })
        .collect();
    us.sort_by(f64::total_cmp);
    println!(
        "{preset} heads-up Monte Carlo: median {:.2} µs a sample, least {:.2}",
        us[2], us[0]
    );
}
