//! Self-play simulation and duplicate duels: determinism, legality, zero-sum, and the duel's
//! edge measured against known answers.

use chinese_poker::hand::Hand;
use chinese_poker::parallel::with_threads;
use chinese_poker::sim::{deal, deal_round, duel_deals, simulate, Policy};
use chinese_poker::solve::{with_scratch, Budget, OutcomeTables, TableEv};
use chinese_poker::{Evaluator, Rules, Wheel};
use std::sync::Arc;

fn table(rules: &Rules, players: usize) -> Arc<TableEv> {
    Arc::new(TableEv::new(rules, players, OutcomeTables::random_rows(rules.wheel)).unwrap())
}

fn legal(codes: &[u8], wheel: Wheel) -> bool {
    let ev = Evaluator::new(wheel);
    let (f, m, b) = (
        ev.eval_codes(&codes[..3]).raw(),
        ev.eval_codes(&codes[3..8]).raw(),
        ev.eval_codes(&codes[8..13]).raw(),
    );
    f <= m && m <= b
}

fn same_cards(a: &[u8], b: &[u8]) -> bool {
    let mut x = a.to_vec();
    let mut y = b.to_vec();
    x.sort_unstable();
    y.sort_unstable();
    x == y
}

#[test]
fn deals_are_distinct_sorted_and_reproducible() {
    for round in 0..2000u64 {
        let (hands, _) = deal_round(7, round, 4);
        let mut seen = 0u64;
        for h in &hands {
            assert!(h.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
            for &c in h {
                assert!(c < 52);
                assert_eq!(seen >> c & 1, 0, "card dealt twice");
                seen |= 1 << c;
            }
        }
        assert_eq!(deal_round(7, round, 4), deal_round(7, round, 4));
    }
    // the flat form is the same deals, in order, and a range is a slice of a longer run
    let flat = deal(3, 0, 50, 3).unwrap();
    let tail = deal(3, 20, 30, 3).unwrap();
    assert_eq!(&flat[20 * 39..], &tail[..]);
    assert_eq!(&flat[..13], &deal_round(3, 0, 3).0[0]);
    assert_ne!(deal(3, 0, 1, 2).unwrap(), deal(4, 0, 1, 2).unwrap());
}

#[test]
fn greedy_takes_the_strongest_back_then_middle_and_never_fouls() {
    let ev = Evaluator::new(Wheel::Low);
    for round in 0..3000u64 {
        let (hands, _) = deal_round(11, round, 1);
        let hand = hands[0];
        let split = with_scratch(|s| s.greedy(&hand, Wheel::Low));
        let codes = split.row_codes(&hand);
        assert!(same_cards(&codes, &hand));
        assert!(legal(&codes, Wheel::Low));
        // brute force: no five of the 13 beat the back, no five of the other 8 beat the middle
        let best5 = |cards: &[u8]| {
            let mut best = 0;
            let n = cards.len();
            for a in 0..n {
                for b in a + 1..n {
                    for c in b + 1..n {
                        for d in c + 1..n {
                            for e in d + 1..n {
                                let r = ev
                                    .eval_codes(&[cards[a], cards[b], cards[c], cards[d], cards[e]])
                                    .raw();
                                best = best.max(r);
                            }
                        }
                    }
                }
            }
            best
        };
        if round < 300 {
            assert_eq!(ev.eval_codes(&codes[8..]).raw(), best5(&hand));
            assert_eq!(ev.eval_codes(&codes[3..8]).raw(), best5(&codes[..8]));
        }
    }
}

#[test]
fn random_policy_is_legal_seeded_and_varied() {
    let rules = Rules::default();
    let (hands, _) = deal_round(5, 0, 1);
    let mut seen = std::collections::HashSet::new();
    for seed in 0..50u64 {
        let d = Policy::Random
            .decide(&rules, 2, &Hand::new(hands[0]).unwrap(), seed)
            .unwrap();
        let codes = d.codes;
        assert_eq!(d.choice, chinese_poker::solve::Choice::Play);
        assert!(d.value.is_nan());
        assert!(legal(&codes, rules.wheel) && same_cards(&codes, &hands[0]));
        let again = Policy::Random
            .decide(&rules, 2, &Hand::new(hands[0]).unwrap(), seed)
            .unwrap();
        assert_eq!(again.codes, codes, "same seed, same setting");
        seen.insert(codes);
    }
    assert!(
        seen.len() > 40,
        "50 seeds gave only {} settings",
        seen.len()
    );
}

#[test]
fn simulation_is_zero_sum_legal_and_independent_of_threads_and_shards() {
    for (name, players) in [
        ("maceplay", 4),
        ("pokerclub_south", 3),
        ("shisanshui", 4),
        ("two_four", 2),
    ] {
        let rules = Rules::preset(name).unwrap();
        let te = table(&rules, players);
        let mut policies = vec![Policy::TableEv(te.clone()); players];
        policies[1] = Policy::Greedy;
        if players > 2 {
            policies[2] = Policy::Random;
        }
        let one = with_threads(Some(1), || simulate(&rules, &policies, 9, 0, 120)).unwrap();
        let two = with_threads(Some(2), || simulate(&rules, &policies, 9, 0, 120)).unwrap();
        assert_eq!(
            one.points, two.points,
            "{name}: thread count changed the results"
        );
        assert_eq!(
            one.setting, two.setting,
            "{name}: thread count changed the results"
        );
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&one.value), bits(&two.value));
        let a = simulate(&rules, &policies, 9, 0, 70).unwrap();
        let b = simulate(&rules, &policies, 9, 70, 50).unwrap();
        assert_eq!(
            &one.points[..],
            &[a.points.clone(), b.points.clone()].concat()[..]
        );
        assert_eq!(&one.setting[..], &[a.setting, b.setting].concat()[..]);
        assert_eq!(one.rows(), 120 * players);
        for r in 0..120 {
            let pts = &one.points[r * players..(r + 1) * players];
            assert_eq!(pts.iter().sum::<i64>(), 0, "{name} round {r} not zero-sum");
            for s in 0..players {
                let row = r * players + s;
                assert_eq!(one.round[row], r as u64);
                assert_eq!(one.seat[row] as usize, s);
                let hand = &one.hand[13 * row..13 * row + 13];
                let set = &one.setting[13 * row..13 * row + 13];
                assert!(same_cards(hand, set), "{name}: setting is not the hand");
                // the built-in policies never foul
                assert_ne!(one.status[row], 1, "{name} round {r} seat {s} fouled");
            }
        }
    }
}

#[test]
fn a_policy_duelling_itself_has_no_edge_and_table_ev_beats_greedy() {
    let rules = Rules::preset("two_four").unwrap();
    let te = Policy::TableEv(table(&rules, 2));
    let same = duel_deals(&rules, 2, &te, &te, 1, 0, 200).unwrap();
    assert!(same.edge.iter().all(|&e| e == 0.0));
    let s = same.summary();
    assert_eq!((s.edge, s.same_share), (0.0, 1.0));
    let vs = duel_deals(&rules, 2, &te, &Policy::Greedy, 1, 0, 400)
        .unwrap()
        .summary();
    assert!(vs.ci_low > 0.0, "TableEV should beat greedy: {vs:?}");
    assert!(vs.same_share < 0.9);
    // at four players one seat plays A: identical policies still cancel exactly
    let rules4 = Rules::preset("maceplay").unwrap();
    let te4 = Policy::TableEv(table(&rules4, 4));
    let four = duel_deals(&rules4, 4, &te4, &te4, 2, 0, 60).unwrap();
    assert!(four.edge.iter().all(|&e| e == 0.0));
    let rand = duel_deals(&rules4, 4, &te4, &Policy::Random, 2, 0, 60)
        .unwrap()
        .summary();
    assert!(rand.edge > 0.0, "{rand:?}");
}

#[test]
fn a_duel_of_fewer_than_two_deals_has_no_interval() {
    let rules = Rules::preset("two_four").unwrap();
    let one = duel_deals(&rules, 2, &Policy::Greedy, &Policy::Random, 1, 0, 1)
        .unwrap()
        .summary();
    assert!(one.edge.is_finite());
    assert!(one.stderr.is_nan() && one.ci_low.is_nan() && one.ci_high.is_nan());
    assert!(one.deals_needed.is_nan(), "{one:?}");
    let none = chinese_poker::sim::DuelDeals {
        players: 2,
        ..Default::default()
    }
    .summary();
    assert!(none.edge.is_nan() && none.stderr.is_nan() && none.deals_needed.is_nan());
}

#[test]
fn monte_carlo_seats_play_in_simulations_and_duels() {
    // The Monte Carlo policy solves inside the simulation's parallel loop: it must not need the
    // scratch its caller holds, and stays deterministic whatever the threads.
    let rules = Rules::preset("shisanshui").unwrap();
    let te = table(&rules, 3);
    let mc = Policy::MonteCarlo {
        table: te.clone(),
        budget: Budget {
            samples: 24,
            ..Budget::default()
        },
    };
    let policies = vec![mc.clone(), Policy::TableEv(te.clone()), Policy::Greedy];
    let one = with_threads(Some(1), || simulate(&rules, &policies, 4, 0, 12)).unwrap();
    let two = with_threads(Some(2), || simulate(&rules, &policies, 4, 0, 12)).unwrap();
    assert_eq!(one.setting, two.setting);
    assert_eq!(one.points, two.points);
    assert!(one.value.iter().step_by(3).all(|v| v.is_finite()));
    let d = duel_deals(&rules, 3, &mc, &Policy::TableEv(te), 4, 0, 6).unwrap();
    assert_eq!(d.edge.len(), 6);
}

#[test]
fn a_stop_check_ends_simulations_duels_and_monte_carlo_seats() {
    use chinese_poker::sim::{decide_seat_with_stop, duel_deals_with_stop, simulate_with_stop};
    use chinese_poker::Error;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let rules = Rules::preset("maceplay").unwrap();
    let te = table(&rules, 2);
    let mc = Policy::MonteCarlo {
        table: te.clone(),
        budget: Budget {
            samples: 100_000,
            confidence: 0.0,
            ..Budget::default()
        },
    };
    // stops after a few checks: far sooner than the 100,000 samples of one decision
    let calls = AtomicUsize::new(0);
    let stop = || calls.fetch_add(1, Ordering::Relaxed) >= 20;
    let policies = vec![mc.clone(), Policy::Greedy];
    let r = with_threads(Some(2), || {
        simulate_with_stop(&rules, &policies, 1, 0, 50, &stop)
    });
    assert!(matches!(r, Err(Error::Interrupted)), "{r:?}");
    calls.store(0, Ordering::Relaxed);
    let r = duel_deals_with_stop(&rules, 2, &mc, &Policy::Greedy, 1, 0, 50, &stop);
    assert!(matches!(r, Err(Error::Interrupted)));
    calls.store(0, Ordering::Relaxed);
    let r = decide_seat_with_stop(&rules, 2, &mc, 1, 0, 50, 0, &stop);
    assert!(matches!(r, Err(Error::Interrupted)));
    // a check that never stops changes nothing
    let policies = vec![Policy::TableEv(te), Policy::Greedy];
    let never = simulate_with_stop(&rules, &policies, 1, 0, 40, &|| false).unwrap();
    let plain = simulate(&rules, &policies, 1, 0, 40).unwrap();
    assert_eq!((never.setting, never.points), (plain.setting, plain.points));
}
