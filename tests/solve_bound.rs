//! The bounded search (`Scratch::best_split`, behind `best_table_ev`) against the full frontier
//! valued split by split, and against brute force over every legal setting.

use chinese_poker::presets::PRESETS;
use chinese_poker::solve::train::{train, TrainConfig};
use chinese_poker::solve::{best_on_frontier, best_table_ev, Classes, Scratch, Split, TableEv};
use chinese_poker::solve::{OutcomeTables, FIVE_CLASSES, FRONT_CLASSES};
use chinese_poker::{parse_cards, Rules, Wheel};
use rand::{Rng, SeedableRng};

fn random_hand(rng: &mut impl Rng) -> [u8; 13] {
    let mut deck: Vec<u8> = (0..52).collect();
    for i in 0..13 {
        let j = rng.random_range(i..52);
        deck.swap(i, j);
    }
    deck[..13].try_into().unwrap()
}

fn hand(text: &str) -> [u8; 13] {
    let codes: Vec<u8> = parse_cards(text)
        .unwrap()
        .iter()
        .map(|c| c.code())
        .collect();
    codes.try_into().unwrap()
}

/// Within the search's tolerance: a relative 1e-9.
fn tied(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

/// The reference: the whole frontier, then its first split with the strictly largest value.
fn frontier_best(
    s: &mut Scratch,
    hand: &[u8; 13],
    wheel: Wheel,
    value: &dyn Fn(&[u16; 3]) -> f64,
) -> (Split, f64) {
    s.frontier(hand, wheel);
    let mut best = (s.frontier[0], f64::NEG_INFINITY);
    for t in &s.frontier {
        let v = value(&t.classes);
        if v > best.1 {
            best = (*t, v);
        }
    }
    best
}

/// The same split as the reference, or one whose value ties with it.
fn assert_same_or_tied(got: (Split, f64), want: (Split, f64), what: &str) -> bool {
    assert!(tied(got.1, want.1), "{what}: value {} != {}", got.1, want.1);
    if got.0 != want.0 {
        assert!(
            got.0.ranks != want.0.ranks,
            "{what}: same ranks, other cards: {:?} vs {:?}",
            got.0,
            want.0
        );
        return false;
    }
    true
}

/// Small self-trained tables for a preset at `players` (the shipped tables are Python data).
fn trained(rules: &Rules, players: usize) -> TableEv {
    let cfg = TrainConfig {
        players,
        deals: 400,
        max_iters: 2,
        ..TrainConfig::default()
    };
    let report = train(rules, &cfg, &mut |_, _| true).unwrap();
    TableEv::new(rules, players, report.tables).unwrap()
}

#[test]
fn bounded_search_matches_the_frontier_on_every_preset() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(31);
    let mut s = Scratch::default();
    for preset in PRESETS {
        let rules = preset.rules();
        for players in [2, 4] {
            for te in [
                trained(&rules, players),
                TableEv::new(&rules, players, OutcomeTables::random_rows(rules.wheel)).unwrap(),
            ] {
                // Doubled bonuses make losing to the next category dearer, and the overall
                // point compares conditional means: only those can break monotonicity.
                if !rules.double_bonus && rules.overall_point == 0 {
                    assert!(te.monotone(), "{} x{players}", preset.name);
                }
                let (mut same, n) = (0, 1500);
                for i in 0..n {
                    let h = random_hand(&mut rng);
                    let got = best_table_ev(&te, &h, &mut s);
                    let want = best_on_frontier(&te, &h, &mut s);
                    let what = format!("{} x{players} hand {i} {h:?}", preset.name);
                    if te.monotone() {
                        same += assert_same_or_tied(got, want, &what) as usize;
                    } else {
                        assert_eq!(got, want, "{what}");
                    }
                }
                eprintln!(
                    "{} x{players} {}: {same}/{n} identical",
                    preset.name,
                    te.monotone()
                );
            }
        }
    }
}
