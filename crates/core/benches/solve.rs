//! Solver throughput: `cargo bench --bench solve`. Prints the median over repeated passes.

use chinese_poker::hand::Hand;
use chinese_poker::solve::train::{train, TrainConfig};
use chinese_poker::solve::{
    best_on_frontier, best_table_ev, solve, solve_batch_table_ev, Budget, Objective, Policy,
    Scratch, TableEv,
};
use chinese_poker::{best_natural, Rules, Wheel};
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::time::Instant;

fn hands(n: usize, seed: u64) -> Vec<[u8; 13]> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut deck: Vec<u8> = (0..52).collect();
            for i in 0..13 {
                let j = rng.random_range(i..52);
                deck.swap(i, j);
            }
            deck[..13].try_into().unwrap()
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn best(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Passes over the 10,000 hands per measurement (`SOLVE_BENCH_PASSES`, default 5): more passes
/// steady the best-pass figure on a busy machine.
fn passes() -> usize {
    std::env::var("SOLVE_BENCH_PASSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
}

fn main() {
    let hs = hands(10_000, 1);
    let mut scratch = Scratch::default();
    let mut sizes = Vec::new();
    let mut times = Vec::new();
    for pass in 0..passes() {
        let t = Instant::now();
        let mut total = 0usize;
        for h in &hs {
            scratch.frontier(h, Wheel::Low);
            total += scratch.frontier.len();
            if pass == 0 {
                sizes.push(scratch.frontier.len() as f64);
            }
        }
        times.push(t.elapsed().as_secs_f64() * 1e6 / hs.len() as f64);
        assert!(total > 0);
    }
    let mut s = sizes.clone();
    s.sort_by(|a, b| a.total_cmp(b));
    println!(
        "frontier: median {:.2} µs/hand (best pass {:.2}); frontier size median {} p99 {} max {}",
        median(times.clone()),
        best(&times),
        s[s.len() / 2],
        s[s.len() * 99 / 100],
        s[s.len() - 1]
    );

    // Table objective on small self-trained tables (the shipped ones are Python package data).
    let rules = Rules::preset("maceplay").expect("preset");
    let t = Instant::now();
    let cfg = TrainConfig {
        players: 2,
        deals: 2000,
        max_iters: 2,
        calibration_hands: 20_000,
        calibration_iters: 1,
        ..TrainConfig::default()
    };
    let report = train(&rules, &cfg, &mut |_| true).expect("train");
    println!(
        "train 2 iterations x {} deals, one calibration step: {:.2} s",
        cfg.deals,
        t.elapsed().as_secs_f64()
    );
    let te = Arc::new(TableEv::new(&rules, 2, report.tables).expect("tables"));
    assert!(te.monotone());
    // the pruned search and the whole frontier valued split by split, interleaved
    let (mut bounded, mut full) = (Vec::new(), Vec::new());
    for _ in 0..passes() {
        for (times, search) in [
            (
                &mut bounded,
                best_table_ev as fn(&TableEv, &[u8; 13], &mut Scratch) -> _,
            ),
            (&mut full, best_on_frontier),
        ] {
            let t = Instant::now();
            let mut acc = 0.0;
            for h in &hs {
                acc += search(&te, h, &mut scratch).1;
            }
            times.push(t.elapsed().as_secs_f64() * 1e6 / hs.len() as f64);
            assert!(acc.is_finite());
        }
    }
    let (b, f) = (median(bounded.clone()), median(full.clone()));
    println!(
        "TableEV solve (bounded search), 1 thread: median {b:.2} µs/hand = {:.0} hands/s (best pass {:.2})",
        1e6 / b,
        best(&bounded)
    );
    println!(
        "TableEV solve (frontier + objective), 1 thread: median {f:.2} µs/hand (best pass {:.2}); frontier / bounded = {:.2}x",
        best(&full),
        f / b
    );
    // The path of Python's solve_batch: natural and surrender decisions, codes out.
    let hands: Vec<Hand> = hs.iter().map(|&h| Hand::new(h).expect("dealt")).collect();
    let mut codes = vec![[0u8; 13]; hs.len()];
    let mut values = vec![0f64; hs.len()];
    let mut choice = vec![0u8; hs.len()];
    let mut natural = vec![0u8; hs.len()];
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        solve_batch_table_ev(
            Some(1),
            &te,
            &rules,
            &hands,
            &mut codes,
            &mut values,
            &mut choice,
            &mut natural,
        );
        times.push(t.elapsed().as_secs_f64() * 1e6 / hs.len() as f64);
    }
    println!(
        "solve_batch_table_ev (decisions included), 1 thread: median {:.2} µs/hand",
        median(times)
    );
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let mut held = 0usize;
        for h in &hands {
            held += best_natural(h, &rules).is_some() as usize;
        }
        times.push(t.elapsed().as_secs_f64() * 1e6 / hs.len() as f64);
        assert!(held < hs.len());
    }
    println!(
        "natural detection (best_natural): median {:.2} µs/hand",
        median(times)
    );
    // Unraced (every frontier play scored on all 1,000 samples: the cost per sample), then the
    // default racing budget (stops once decided).
    for (label, budget) in [
        (
            "unraced",
            Budget {
                samples: 1000,
                confidence: 0.0,
                candidates: 0,
                time_limit: None,
            },
        ),
        ("raced (default budget)", Budget::default()),
    ] {
        let obj = Objective::MonteCarlo {
            budget,
            seed: 7,
            policy: Policy::TableEv(te.clone()),
            threads: Some(1),
        };
        let (mut times, mut per_sample, mut drawn) = (Vec::new(), Vec::new(), Vec::new());
        for h in hs.iter().take(5) {
            let t = Instant::now();
            let sol = solve(&Hand::new(*h).unwrap(), &rules, 2, &obj, 3).expect("solve");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            times.push(ms);
            per_sample.push(ms * 1e3 / sol.samples as f64);
            drawn.push(sol.samples as f64);
            assert!(sol.value.is_finite());
        }
        println!(
            "MonteCarlo {label}, at most 1,000 samples heads-up, 1 thread: median {:.2} ms/hand, \
             {:.1} µs/sample, {} samples drawn",
            median(times),
            median(per_sample),
            median(drawn)
        );
    }
}
