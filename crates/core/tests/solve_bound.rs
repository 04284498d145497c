//! The bounded search (`Scratch::best_split`, behind `best_table_ev`) against the full frontier
//! valued split by split, and against brute force over every legal setting.

mod common;

use chinese_poker::presets::PRESETS;
use chinese_poker::solve::train::{train, TrainConfig};
use chinese_poker::solve::{best_on_frontier, best_table_ev, Classes, Scratch, Split, TableEv};
use chinese_poker::solve::{
    load_shipped, top_table_ev, OutcomeTables, FIVE_CLASSES, FRONT_CLASSES,
};
use chinese_poker::{parse_cards, Rules, Wheel};
use common::random_hand;
use rand::{Rng, SeedableRng};

fn hand(text: &str) -> [u8; 13] {
    let codes: Vec<u8> = parse_cards(text)
        .unwrap()
        .iter()
        .map(|c| c.code())
        .collect();
    let distinct = codes.iter().fold(0u64, |m, &c| m | 1 << c);
    assert_eq!(distinct.count_ones(), 13, "{text}");
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

/// The tables the Python package ships for a preset at `players`.
fn shipped(rules: &Rules, players: usize) -> TableEv {
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../python/chinese_poker/data"
    );
    load_shipped(data, rules, players).unwrap()
}

/// Small self-trained tables for a preset at `players`.
fn trained(rules: &Rules, players: usize) -> TableEv {
    let cfg = TrainConfig {
        players,
        deals: 400,
        max_iters: 2,
        // a small calibration, so that the bounded search also meets a calibrated value
        calibration_hands: 12_000,
        ..TrainConfig::default()
    };
    let report = train(rules, &cfg, &mut |_| true).unwrap();
    TableEv::new(rules, players, report.tables).unwrap()
}

#[test]
fn bounded_search_matches_the_frontier_on_every_preset() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(31);
    let mut s = Scratch::default();
    for preset in PRESETS {
        let rules = preset.rules();
        for players in [2, 3, 4] {
            let mut tables = vec![
                ("shipped", shipped(&rules, players)),
                (
                    "random rows",
                    TableEv::new(&rules, players, OutcomeTables::random_rows(rules.wheel)).unwrap(),
                ),
            ];
            if players != 3 {
                tables.push(("trained", trained(&rules, players)));
            }
            for (name, te) in tables {
                // Doubled bonuses make losing to the next category dearer: only they break
                // monotonicity here (the overall point compares conditional means, constant
                // under two_four's equal row values up to a rounding the guard allows).
                if !rules.double_bonus {
                    assert!(te.monotone(), "{} x{players} {name}", preset.name);
                }
                // and where it is not monotone, its envelope still bounds the search
                assert!(te.bounded(), "{} x{players} {name}", preset.name);
                let (mut same, n) = (0, 400);
                for i in 0..n {
                    let h = random_hand(&mut rng);
                    let got = best_table_ev(&te, &h, &mut s);
                    let want = frontier_choice(&te, &h, &mut s);
                    let what = format!("{} x{players} {name} hand {i} {h:?}", preset.name);
                    same += assert_same_or_tied(got, want, &what) as usize;
                }
                eprintln!(
                    "{} x{players} {name} {}: {same}/{n} identical",
                    preset.name,
                    te.monotone()
                );
            }
        }
    }
}

/// The `k` best plays the bounded search lists (what `solve` reports as alternatives, and the
/// plays Monte Carlo races: 16 by default) are the first `k` of the frontier sorted by value,
/// equal values in the frontier's order: every preset at 2, 3 and 4 players, with its shipped
/// tables and with rows of random hands.
#[test]
fn top_plays_match_the_frontier_sorted_by_value_on_every_preset() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(61);
    let mut s = Scratch::default();
    for preset in PRESETS {
        let rules = preset.rules();
        for players in [2, 3, 4] {
            for (name, te) in [
                ("shipped", shipped(&rules, players)),
                (
                    "random rows",
                    TableEv::new(&rules, players, OutcomeTables::random_rows(rules.wheel)).unwrap(),
                ),
            ] {
                let (mut same, mut n) = (0, 0);
                for i in 0..60 {
                    let h = random_hand(&mut rng);
                    s.frontier(&h, rules.wheel);
                    let mut want: Vec<(Split, f64)> = s
                        .frontier
                        .iter()
                        .map(|t| (*t, te.formula(&t.classes)))
                        .collect();
                    want.sort_by(|a, b| b.1.total_cmp(&a.1));
                    for k in [1, 2, 5, 16, 40] {
                        let (got, valued) = top_table_ev(&te, &h, &mut s, k);
                        let what =
                            format!("{} x{players} {name} hand {i} k {k} {h:?}", preset.name);
                        assert_eq!(got.len(), k.min(want.len()), "{what}");
                        // (it may value a split that a pruned one would have covered)
                        assert!(valued >= got.len(), "{what}");
                        for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                            same += assert_same_or_tied(*g, *w, &format!("{what} #{j}")) as usize;
                            n += 1;
                        }
                    }
                }
                eprintln!("{} x{players} {name}: {same}/{n} identical", preset.name);
            }
        }
    }
}

/// Distinct rank triples of the legal settings that no other legal setting weakly beats in
/// all three rows, each with its classes: the frontier by its definition, from every legal
/// setting (strongest back first, so only settings already kept can dominate a later one).
fn brute_frontier(legal: &[Split]) -> Vec<Split> {
    let mut all = legal.to_vec();
    all.sort_by(|a, b| {
        b.ranks[2]
            .cmp(&a.ranks[2])
            .then(b.ranks[1].cmp(&a.ranks[1]))
            .then(b.ranks[0].cmp(&a.ranks[0]))
    });
    all.dedup_by(|a, b| a.ranks == b.ranks);
    let mut kept: Vec<Split> = Vec::new();
    for t in all {
        if !kept
            .iter()
            .any(|k| k.ranks[1] >= t.ranks[1] && k.ranks[0] >= t.ranks[0])
        {
            kept.push(t);
        }
    }
    kept
}

/// Every preset at 2, 3 and 4 players with its shipped tables: the search's value is the best
/// of the brute-force frontier's values, and where the value is monotone the best of every
/// legal setting's.
#[test]
fn table_objective_matches_brute_force_on_every_preset() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(59);
    let mut s = Scratch::default();
    let mut legal = Vec::new();
    for preset in PRESETS {
        let rules = preset.rules();
        for players in [2, 3, 4] {
            let te = shipped(&rules, players);
            let hands = HARD
                .iter()
                .map(|t| hand(t))
                .chain((0..10).map(|_| random_hand(&mut rng)));
            for h in hands {
                let what = format!("{} x{players} {h:?}", preset.name);
                let got = best_table_ev(&te, &h, &mut s);
                s.legal_settings(&h, rules.wheel, &mut legal);
                assert!(legal.contains(&got.0), "{what}: not a legal setting");
                let on_frontier = brute_frontier(&legal)
                    .iter()
                    .map(|t| te.value_of_classes(&t.classes))
                    .fold(f64::NEG_INFINITY, f64::max);
                assert!(
                    tied(got.1, on_frontier),
                    "{what}: {} vs {on_frontier}",
                    got.1
                );
                if te.monotone() {
                    let value = |c: &[u16; 3]| te.value_of_classes(c);
                    assert!(tied(got.1, brute_best(&legal, &value)), "{what}");
                }
            }
        }
    }
}

/// The frontier's choice under the table objective, with its calibrated value (the frontier is
/// ordered by the formula).
fn frontier_choice(te: &TableEv, h: &[u8; 13], s: &mut Scratch) -> (Split, f64) {
    let (split, formula) = best_on_frontier(te, h, s);
    (split, te.calibrate(formula))
}

/// Hands that stress the search: many equal ranks, flushes, straights, quads, no pairs at all.
const HARD: [&str; 14] = [
    "2c 2d 5h 5s 8c 8d Jh Js Kc Kd Ah As 3c", // six pairs
    "2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 7h 7s Ac", // six low pairs, straights everywhere
    "2h 5h 8h Jh Kh 3s 6s 9s Qs As 4d 7d Td", // three flushes
    "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", // dragon
    "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", // same-suit dragon
    "9c 9d 9h 9s Kc Kd Kh Ks 2c 2d 2h 2s Ac", // three quads
    "Ac Ad Ah As 5c 6d 7h 8s 9c Tc Jd Qh Kd", // quads and a long run
    "Ac 2d 3h 4s 5c 6d 7h 8s 9c Tc Jd Qh 2c", // straights from the wheel up
    "5h 6h 7h 8h 9h 4c 5c 6c 7c 8c Td Jd Qd", // two straight flushes
    "Ac Kc Qc Jc Tc 9d 8d 7d 6d 5d 4s 3s 2s", // three straight flushes
    "Qc Qd Qh 8c 8d 8h 4c 4d 4h 2s 2h 7s 9s", // three trips
    "2c 4d 6h 8s Tc Qd 3h 5s 7c 9d Jh Ks Ad", // no pair, no flush
    "Ac Ad Kh Ks Qc Qd Js Jh Tc 9d 8h 7s 5c", // high pairs over a run
    "3c 3d 3h 3s 7c 7d 7h Jc Jd Js Kc Kd Ad", // quads, full houses
];

#[test]
fn bounded_search_matches_the_frontier_on_hard_hands() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(47);
    let mut s = Scratch::default();
    let mut legal = Vec::new();
    for preset in PRESETS {
        let rules = preset.rules();
        let te = trained(&rules, 4);
        let mono = Monotone::random(&mut rng, rules.wheel, None);
        for text in HARD {
            let h = hand(text);
            let what = format!("{} {text}", preset.name);
            let got = best_table_ev(&te, &h, &mut s);
            let want = frontier_choice(&te, &h, &mut s);
            if te.bounded() {
                assert_same_or_tied(got, want, &what);
            } else {
                assert_eq!(got, want, "{what}");
            }
            let value = |c: &[u16; 3]| mono.value(c);
            let got = s.best_split(&h, rules.wheel, value);
            let want = frontier_best(&mut s, &h, rules.wheel, &value);
            assert_eq!(got, want, "{what}");
            s.legal_settings(&h, rules.wheel, &mut legal);
            assert_eq!(got.1, brute_best(&legal, &value), "{what}");
        }
    }
}

/// A value non-decreasing in each row's class: per-row ramps plus a product of per-row ramps,
/// optionally rounded down to a step (many exact ties, so the tie rule is exercised too).
struct Monotone {
    add: [Vec<f64>; 3],
    mul: [Vec<f64>; 3],
    weight: f64,
    step: Option<f64>,
}

impl Monotone {
    fn random(rng: &mut impl Rng, wheel: Wheel, step: Option<f64>) -> Monotone {
        let c = Classes::get(wheel);
        let sizes = [c.front.len(), c.five.len(), c.five.len()];
        assert_eq!(sizes, [FRONT_CLASSES, FIVE_CLASSES, FIVE_CLASSES]);
        // non-negative increments, a third of them zero: plateaus, as real tables have
        let mut ramp = |n: usize, scale: f64| -> Vec<f64> {
            let mut acc = 0.0;
            (0..n)
                .map(|_| {
                    if rng.random::<f64>() > 1.0 / 3.0 {
                        acc += rng.random::<f64>() * scale / n as f64;
                    }
                    acc
                })
                .collect()
        };
        let add = sizes.map(|n| ramp(n, 5.0));
        let mul = sizes.map(|n| ramp(n, 1.0));
        let weight = rng.random::<f64>() * 20.0;
        Monotone {
            add,
            mul,
            weight,
            step,
        }
    }

    fn value(&self, c: &[u16; 3]) -> f64 {
        let sum: f64 = (0..3).map(|r| self.add[r][c[r] as usize]).sum();
        let product: f64 = (0..3).map(|r| self.mul[r][c[r] as usize]).product();
        let v = sum + self.weight * product;
        match self.step {
            Some(q) => (v / q).floor() * q,
            None => v,
        }
    }
}

fn brute_best(legal: &[Split], value: &dyn Fn(&[u16; 3]) -> f64) -> f64 {
    legal
        .iter()
        .map(|t| value(&t.classes))
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn bounded_search_finds_the_best_legal_setting_for_any_monotone_value() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(53);
    let mut s = Scratch::default();
    let mut legal = Vec::new();
    for wheel in [Wheel::Low, Wheel::Second] {
        for round in 0..40 {
            let step = [None, Some(0.05), Some(0.5)][round % 3];
            let mono = Monotone::random(&mut rng, wheel, step);
            let value = |c: &[u16; 3]| mono.value(c);
            for _ in 0..10 {
                let h = random_hand(&mut rng);
                let what = format!("{wheel:?} round {round} {h:?}");
                let got = s.best_split(&h, wheel, value);
                s.legal_settings(&h, wheel, &mut legal);
                assert_eq!(got.1, brute_best(&legal, &value), "{what}");
                assert!(legal.contains(&got.0), "{what}: not a legal setting");
                // exact values, so the frontier's first best exactly, ties included
                assert_eq!(got, frontier_best(&mut s, &h, wheel, &value), "{what}");
            }
        }
    }
}

/// The envelope bound of a non-monotone value (doubled bonuses) is at least the value at the
/// same classes and at every weaker ones, and non-decreasing itself.
#[test]
fn the_envelope_bounds_the_value_at_every_weaker_setting() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(77);
    let rules = Rules::preset("pokerfever_eastern").unwrap();
    for players in [2, 4] {
        for te in [
            trained(&rules, players),
            TableEv::new(&rules, players, OutcomeTables::random_rows(rules.wheel)).unwrap(),
        ] {
            assert!(!te.monotone() && te.bounded());
            for _ in 0..2000 {
                let c = [
                    rng.random_range(0..FRONT_CLASSES) as u16,
                    rng.random_range(0..FIVE_CLASSES) as u16,
                    rng.random_range(0..FIVE_CLASSES) as u16,
                ];
                let bound = te.order_bound(&c);
                assert!(bound >= te.formula(&c), "{c:?}");
                for _ in 0..10 {
                    let weaker = c.map(|x| rng.random_range(0..=x));
                    assert!(bound >= te.formula(&weaker), "{c:?} {weaker:?}");
                    assert!(bound >= te.order_bound(&weaker), "{c:?} {weaker:?}");
                }
            }
        }
    }
}

/// `check(what, te, hand, scratch)` for 150 random hands of `seed` on every preset at 2 and 4
/// players, with its shipped tables (`what` names the case for a failure).
#[cfg(feature = "search-stats")]
fn on_shipped_hands(seed: u64, mut check: impl FnMut(&str, &TableEv, &[u8; 13], &mut Scratch)) {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut s = Scratch::default();
    for preset in PRESETS {
        let rules = preset.rules();
        for players in [2, 4] {
            let te = shipped(&rules, players);
            for i in 0..150 {
                let h = random_hand(&mut rng);
                check(
                    &format!("{} x{players} hand {i} {h:?}", preset.name),
                    &te,
                    &h,
                    &mut s,
                );
            }
        }
    }
}

/// A first threshold given to the search from outside (feature `search-stats`, for
/// `examples/threshold_ceiling.rs`), at the hand's best value or below it, leaves the setting
/// the search picks on its own.
#[cfg(feature = "search-stats")]
#[test]
fn a_given_first_threshold_leaves_the_setting() {
    use chinese_poker::solve::search_stats::GivenThreshold;
    on_shipped_hands(37, |what, te, h, s| {
        let want = best_table_ev(te, h, s).0;
        let v = te.order_value(&want.classes);
        for given in [
            GivenThreshold::Everywhere(v),
            GivenThreshold::WalkOnly(v),
            GivenThreshold::Everywhere(v - 0.5),
            GivenThreshold::WalkOnly(v - 0.5),
        ] {
            s.given_threshold = Some(given);
            let got = best_table_ev(te, h, s).0;
            assert_eq!(got, want, "{what} {given:?}");
            assert_eq!(
                s.given_threshold, None,
                "{what} {given:?}: taken by the search"
            );
        }
    });
}

/// Backs recorded from a search and given to a later one of the same hand (feature
/// `search-stats`, for `examples/backs_ceiling.rs`), which then neither lists nor buckets them,
/// leave the setting.
#[cfg(feature = "search-stats")]
#[test]
fn given_backs_leave_the_setting() {
    on_shipped_hands(41, |what, te, h, s| {
        s.record_backs = true;
        let want = best_table_ev(te, h, s).0;
        s.record_backs = false;
        let backs = s.last_backs.clone();
        assert!(
            !backs.sorted.is_empty(),
            "{what}: the strongest back is past the cut"
        );
        s.give_backs(&backs);
        assert_eq!(best_table_ev(te, h, s).0, want, "{what}");
    });
}
