//! Solver throughput: `cargo bench --bench solve`. Prints the median over repeated passes.

use chinese_poker::solve::Scratch;
use chinese_poker::Wheel;
use rand::{Rng, SeedableRng};
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

fn main() {
    let hs = hands(10_000, 1);
    let mut scratch = Scratch::default();
    let mut sizes = Vec::new();
    let mut times = Vec::new();
    for pass in 0..5 {
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
        "frontier: median {:.2} µs/hand; frontier size median {} p99 {} max {}",
        median(times),
        s[s.len() / 2],
        s[s.len() * 99 / 100],
        s[s.len() - 1]
    );
}
