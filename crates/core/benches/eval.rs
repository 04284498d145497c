//! Throughput of the Rust evaluator on pre-generated random rows, one thread.
//!
//! `cargo bench --bench eval` prints the median over several runs of ns/row and million
//! evaluations per second. Every run's checksum must equal the one computed through the checked
//! `evaluate` path, so a bench that measured nothing (or the wrong thing) fails.
//! docs/architecture.md, "Performance budgets": ≤ 10 ns per random 5-card row.

use chinese_poker::{evaluate, Card, Evaluator, Wheel};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::time::Instant;

const ROWS: usize = 1 << 20;
const RUNS: usize = 15;

fn random_rows<const K: usize>(seed: u64) -> Vec<[u8; K]> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut deck: Vec<u8> = (0..52).collect();
    (0..ROWS)
        .map(|_| {
            for i in 0..K {
                let j = rng.random_range(i..52);
                deck.swap(i, j);
            }
            std::array::from_fn(|i| deck[i])
        })
        .collect()
}

fn checked_checksum<const K: usize>(rows: &[[u8; K]], wheel: Wheel) -> u64 {
    rows.iter()
        .map(|r| {
            let cards: Vec<Card> = r.iter().map(|&c| Card::from_code(c).unwrap()).collect();
            u64::from(evaluate(&cards, wheel).unwrap().raw())
        })
        .sum()
}

/// Times `eval` over every row `RUNS` times; returns the median ns per row.
fn time_rows<const K: usize>(rows: &[[u8; K]], expect: u64, eval: impl Fn([u8; K]) -> u32) -> f64 {
    let mut per_row: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let mut sum = 0u64;
            for &r in black_box(rows) {
                sum += u64::from(eval(r));
            }
            let ns = start.elapsed().as_nanos() as f64;
            assert_eq!(black_box(sum), expect, "checksum");
            ns / rows.len() as f64
        })
        .collect();
    per_row.sort_by(f64::total_cmp);
    per_row[RUNS / 2]
}

fn report(name: &str, ns: f64) {
    println!("{name:<28} {ns:>7.2} ns/row {:>9.1} M evals/s", 1e3 / ns);
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument is taken as a name filter.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f));
    println!("chinese-poker evaluator, {ROWS} random rows, median of {RUNS} runs, one thread");
    for wheel in [Wheel::Low, Wheel::Second] {
        let ev = Evaluator::new(wheel);
        let name = format!("eval5 random, wheel {wheel:?}");
        if wanted(&name) {
            let rows = random_rows::<5>(5);
            let expect = checked_checksum(&rows, wheel);
            report(&name, time_rows(&rows, expect, |r| ev.eval5(r).raw()));
        }
        let name = format!("eval3 random, wheel {wheel:?}");
        if wanted(&name) {
            let rows = random_rows::<3>(3);
            let expect = checked_checksum(&rows, wheel);
            report(&name, time_rows(&rows, expect, |r| ev.eval3(r).raw()));
        }
    }
}
