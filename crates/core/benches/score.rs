//! Throughput of scoring, one thread: the solver's fast pair scorer, whole-table settlement and
//! natural detection, on pre-generated random legal settings.
//!
//! `cargo bench --bench score` prints medians over several runs. Every run's checksum of
//! `pair_score` points must equal the one computed through `settle`, so a bench that measured
//! nothing (or the wrong thing) fails.

use chinese_poker::presets::SHISANSHUI_SUIT_ORDER;
use chinese_poker::{
    best_natural, pair_score, row_key, settle, Card, Decision, Hand, Rules, Setting,
};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::time::Instant;

const SETTINGS: usize = 4096;
const PAIRS: usize = 1 << 22;
const ROUNDS: usize = 20_000;
const RUNS: usize = 7;

/// Random deals of `players` hands, each set at random until legal.
fn deals(
    rng: &mut Xoshiro256PlusPlus,
    count: usize,
    players: usize,
    rules: &Rules,
) -> Vec<Vec<Setting>> {
    let mut deck: Vec<Card> = (0..52).map(|c| Card::from_code(c).unwrap()).collect();
    (0..count)
        .map(|_| {
            deck.shuffle(rng);
            (0..players)
                .map(|p| {
                    let mut h = deck[13 * p..13 * p + 13].to_vec();
                    loop {
                        h.shuffle(rng);
                        let s = Setting::new(&h[..3], &h[3..8], &h[8..]).unwrap();
                        if !s.is_foul(rules.wheel) {
                            return s;
                        }
                    }
                })
                .collect()
        })
        .collect()
}

fn keys(rules: &Rules, s: &Setting) -> [u64; 3] {
    let r = s.ranks(rules.wheel);
    [
        row_key(rules, &s.front, r[0]),
        row_key(rules, &s.middle, r[1]),
        row_key(rules, &s.back, r[2]),
    ]
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

fn main() {
    let mut suited = Rules::shisanshui();
    suited.suit_order = Some(SHISANSHUI_SUIT_ORDER);
    let sets = [
        ("maceplay", Rules::maceplay()),
        ("pokerfever_eastern", Rules::pokerfever_eastern()),
        ("shisanshui+suits", suited),
    ];
    for (name, rules) in sets {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let pairs = deals(&mut rng, SETTINGS, 2, &rules);
        let ks: Vec<[[u64; 3]; 2]> = pairs
            .iter()
            .map(|d| [keys(&rules, &d[0]), keys(&rules, &d[1])])
            .collect();
        // the checksum through settle, naturals off so that both hands are compared on rows
        let plain = Rules {
            naturals: Vec::new(),
            ..rules.clone()
        };
        let expect: i64 = pairs
            .iter()
            .map(|d| {
                let out = settle(
                    &[Decision::Play(d[0]), Decision::Play(d[1])],
                    &plain,
                    None,
                    0,
                );
                out.unwrap().matchups[0].after_scoop
            })
            .sum::<i64>()
            * (PAIRS / SETTINGS) as i64;
        let mut times = Vec::new();
        for _ in 0..RUNS {
            let t = Instant::now();
            let mut sum = 0i64;
            for i in 0..PAIRS {
                let [a, b] = &ks[i % SETTINGS];
                sum += pair_score(&plain, black_box(a), black_box(b)).points;
            }
            times.push(t.elapsed().as_nanos() as f64 / PAIRS as f64);
            assert_eq!(sum, expect, "{name}: pair_score disagrees with settle");
        }
        println!("{name:>20}: pair_score      {:8.2} ns/pair", median(times));

        let tables = deals(&mut rng, ROUNDS, 4, &rules);
        let decisions: Vec<Vec<Decision>> = tables
            .iter()
            .map(|t| t.iter().map(|&s| Decision::Play(s)).collect())
            .collect();
        let mut times = Vec::new();
        for _ in 0..RUNS {
            let t = Instant::now();
            for d in &decisions {
                let out = settle(black_box(d), &rules, None, 0).unwrap();
                assert_eq!(out.raw_totals().iter().sum::<i64>(), 0);
            }
            times.push(t.elapsed().as_nanos() as f64 / ROUNDS as f64 / 1000.0);
        }
        println!(
            "{name:>20}: settle 4 players {:7.2} µs/round",
            median(times)
        );

        let hands: Vec<Hand> = tables.iter().flatten().map(|s| s.hand()).collect();
        let mut times = Vec::new();
        for _ in 0..RUNS {
            let t = Instant::now();
            let found = hands
                .iter()
                .filter(|h| best_natural(black_box(h), &rules).is_some())
                .count();
            black_box(found);
            times.push(t.elapsed().as_nanos() as f64 / hands.len() as f64 / 1000.0);
        }
        println!("{name:>20}: best_natural    {:8.2} µs/hand", median(times));
    }
}
