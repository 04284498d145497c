//! The fast frontier against a slow, obvious brute force on seeded random hands, both wheels.

mod common;

use chinese_poker::hand::Hand;
use chinese_poker::solve::{solve, Classes, Objective, RowValues, Scratch, Split};
use chinese_poker::{Evaluator, Rules, Wheel};
use common::random_hand;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// Every (front, middle, back) split by plain index combinations, fouls dropped.
fn brute_legal(hand: &[u8; 13], wheel: Wheel) -> Vec<[u32; 3]> {
    let ev = Evaluator::new(wheel);
    let mut out = Vec::new();
    let idx: Vec<usize> = (0..13).collect();
    for b in combos(&idx, 5) {
        let rest: Vec<usize> = idx.iter().copied().filter(|i| !b.contains(i)).collect();
        for m in combos(&rest, 5) {
            let f: Vec<usize> = rest.iter().copied().filter(|i| !m.contains(i)).collect();
            let codes = |v: &[usize]| v.iter().map(|&i| hand[i]).collect::<Vec<u8>>();
            let rf = ev.eval_codes(&codes(&f)).raw();
            let rm = ev.eval_codes(&codes(&m)).raw();
            let rb = ev.eval_codes(&codes(&b)).raw();
            if rf <= rm && rm <= rb {
                out.push([rf, rm, rb]);
            }
        }
    }
    out
}

fn combos(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        for mut rest in combos(&items[i + 1..], k - 1) {
            rest.insert(0, items[i]);
            out.push(rest);
        }
    }
    out
}

/// Distinct rank triples not weakly dominated by another legal triple.
fn brute_frontier(legal: &[[u32; 3]]) -> Vec<[u32; 3]> {
    let mut all = legal.to_vec();
    all.sort_unstable();
    all.dedup();
    let dominates = |a: &[u32; 3], b: &[u32; 3]| a != b && (0..3).all(|i| a[i] >= b[i]);
    let mut out: Vec<[u32; 3]> = all
        .iter()
        .filter(|t| !all.iter().any(|o| dominates(o, t)))
        .copied()
        .collect();
    out.sort_unstable();
    out
}

fn check_split(hand: &[u8; 13], s: &Split, wheel: Wheel) {
    let ev = Evaluator::new(wheel);
    assert_eq!(s.front | s.middle | s.back, 0x1fff);
    assert_eq!(
        s.front.count_ones() + s.middle.count_ones() + s.back.count_ones(),
        13
    );
    let ranks = [s.front, s.middle, s.back].map(|m| ev.eval_codes(&Split::codes(hand, m)).raw());
    assert_eq!(ranks, s.ranks);
}

#[test]
fn frontier_matches_brute_force() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut scratch = Scratch::default();
    let mut legal = Vec::new();
    // The obvious O(n²) frontier is slow, so the full check runs on fewer hands; the large
    // sample below compares against a lexicographic-sort reference.
    for wheel in [Wheel::Low, Wheel::Second] {
        for _ in 0..60 {
            let hand = random_hand(&mut rng);
            let brute = brute_legal(&hand, wheel);
            scratch.legal_settings(&hand, wheel, &mut legal);
            let mut a: Vec<[u32; 3]> = legal.iter().map(|s| s.ranks).collect();
            let mut b = brute.clone();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "legal settings of {hand:?}");
            scratch.frontier(&hand, wheel);
            let mut fast: Vec<[u32; 3]> = scratch.frontier.iter().map(|s| s.ranks).collect();
            fast.sort_unstable();
            assert_eq!(
                fast,
                brute_frontier(&brute),
                "frontier of {hand:?} {wheel:?}"
            );
            for s in &scratch.frontier {
                check_split(&hand, s, wheel);
            }
        }
    }
}

/// Reference frontier by sorting (back, middle, front) descending and keeping what no kept
/// triple covers: a later triple in that order can never dominate an earlier one.
fn sorted_frontier(legal: &[[u32; 3]]) -> Vec<[u32; 3]> {
    let mut all: Vec<[u32; 3]> = legal.iter().map(|t| [t[2], t[1], t[0]]).collect();
    all.sort_unstable_by(|a, b| b.cmp(a));
    let mut kept: Vec<[u32; 3]> = Vec::new();
    for t in all {
        if !kept
            .iter()
            .any(|k| k[0] >= t[0] && k[1] >= t[1] && k[2] >= t[2])
        {
            kept.push(t);
        }
    }
    let mut out: Vec<[u32; 3]> = kept.iter().map(|t| [t[2], t[1], t[0]]).collect();
    out.sort_unstable();
    out
}

fn rules_for(wheel: Wheel) -> Rules {
    Rules {
        wheel,
        ..Rules::default()
    }
}

/// Non-decreasing random values per rank class for each row.
fn random_monotone_values(rng: &mut impl Rng, wheel: Wheel) -> RowValues {
    let c = Classes::get(wheel);
    let mut ramp = |n: usize| -> Vec<f64> {
        let mut acc = 0.0;
        (0..n)
            .map(|_| {
                acc += rng.random::<f64>() * rng.random::<f64>();
                acc
            })
            .collect()
    };
    let values = [ramp(c.front.len()), ramp(c.five.len()), ramp(c.five.len())];
    let rv = RowValues::new(wheel, values).unwrap();
    assert!(rv.monotone);
    rv
}

#[test]
fn frontier_and_row_values_best_match_on_10000_hands_per_wheel() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(99);
    let mut scratch = Scratch::default();
    let mut legal = Vec::new();
    let rv: Vec<Arc<RowValues>> = [Wheel::Low, Wheel::Second]
        .iter()
        .map(|&w| Arc::new(random_monotone_values(&mut rng, w)))
        .collect();
    for (w, wheel) in [Wheel::Low, Wheel::Second].into_iter().enumerate() {
        for n in 0..10_000 {
            let hand = random_hand(&mut rng);
            scratch.legal_settings(&hand, wheel, &mut legal);
            let triples: Vec<[u32; 3]> = legal.iter().map(|s| s.ranks).collect();
            scratch.frontier(&hand, wheel);
            let mut fast: Vec<[u32; 3]> = scratch.frontier.iter().map(|s| s.ranks).collect();
            fast.sort_unstable();
            assert_eq!(
                fast,
                sorted_frontier(&triples),
                "hand {n} {hand:?} {wheel:?}"
            );
            // The RowValues objective (random non-decreasing values per rank class, solved on the
            // frontier) finds the best value over all legal settings.
            let sol = solve(
                &Hand::new(hand).unwrap(),
                &rules_for(wheel),
                2,
                &Objective::RowValues(rv[w].clone()),
                1,
            )
            .unwrap();
            let best_all = triples
                .iter()
                .map(|t| rv[w].value(t))
                .fold(f64::MIN, f64::max);
            assert_eq!(sol.value, best_all, "hand {n} {hand:?} {wheel:?}");
        }
    }
}
