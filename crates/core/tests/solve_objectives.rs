//! Objectives and decisions: legal settings only, the exact objectives against references,
//! determinism of Monte Carlo and of training.

mod common;

use chinese_poker::hand::Hand;
use chinese_poker::solve::train::{train, TrainConfig};
use chinese_poker::solve::{
    solve, Budget, Choice, Classes, Objective, OutcomeTables, Policy, RowValues, Scratch, TableEv,
};
use chinese_poker::{settle, Card, Decision, Evaluator, Rules, Setting, Wheel};
use common::deal;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

fn setting(codes: &[u8; 13]) -> Setting {
    let c: Vec<Card> = codes.iter().map(|&x| Card::from_code(x).unwrap()).collect();
    Setting::new(&c[..3], &c[3..8], &c[8..]).unwrap()
}

fn assert_legal_and_complete(hand: &[u8; 13], codes: &[u8; 13], wheel: Wheel) {
    let mut a = *hand;
    let mut b = *codes;
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "the setting uses exactly the hand's 13 cards");
    assert!(!setting(codes).is_foul(wheel), "fouled setting {codes:?}");
}

fn table(rules: &Rules, players: usize) -> Arc<TableEv> {
    Arc::new(TableEv::new(rules, players, OutcomeTables::random_rows(rules.wheel)).unwrap())
}

#[test]
fn every_objective_returns_a_legal_setting_of_the_hand() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
    for name in [
        "maceplay",
        "pokerclub_south",
        "pokerfever_western",
        "two_four",
        "shisanshui",
    ] {
        let rules = Rules::preset(name).unwrap();
        let te = table(&rules, 3);
        let c = Classes::get(rules.wheel);
        // deliberately non-monotone row values: every legal setting is searched
        let rv = Arc::new(
            RowValues::new(
                rules.wheel,
                [
                    (0..c.front.len())
                        .map(|i| ((i * 7919) % 101) as f64)
                        .collect(),
                    (0..c.five.len()).map(|i| ((i * 31) % 97) as f64).collect(),
                    (0..c.five.len()).map(|i| i as f64).collect(),
                ],
            )
            .unwrap(),
        );
        for _ in 0..20 {
            let hands = deal(&mut rng, 3);
            let opps: Vec<Decision> = hands[1..]
                .iter()
                .map(|h| {
                    let s = solve(
                        &Hand::new(*h).unwrap(),
                        &rules,
                        3,
                        &Objective::TableEv(te.clone()),
                        1,
                    )
                    .unwrap();
                    Decision::Play(setting(&s.alternatives[0].codes))
                })
                .collect();
            let objectives = [
                Objective::TableEv(te.clone()),
                Objective::RowValues(rv.clone()),
                Objective::BestResponse(opps),
                Objective::MonteCarlo {
                    budget: Budget {
                        samples: 20,
                        ..Budget::default()
                    },
                    seed: 1,
                    policy: Policy::TableEv(te.clone()),
                    threads: Some(1),
                },
            ];
            for obj in &objectives {
                let sol = solve(&Hand::new(hands[0]).unwrap(), &rules, 3, obj, 5).unwrap();
                assert_legal_and_complete(&hands[0], &sol.codes, rules.wheel);
                for alt in &sol.alternatives {
                    assert_legal_and_complete(&hands[0], &alt.codes, rules.wheel);
                }
                // best first; Monte Carlo puts the play it chose first (the table's choice
                // unless another beat it at the racing confidence), the rest by mean
                let rest = match obj {
                    Objective::MonteCarlo { .. } => &sol.alternatives[1..],
                    _ => &sol.alternatives[..],
                };
                assert!(rest.windows(2).all(|w| w[0].value >= w[1].value));
            }
        }
    }
}

#[test]
fn non_monotone_row_values_match_brute_force() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let rules = Rules::default();
    let c = Classes::get(rules.wheel);
    let rv = RowValues::new(
        rules.wheel,
        [
            (0..c.front.len()).map(|_| rng.random::<f64>()).collect(),
            (0..c.five.len()).map(|_| rng.random::<f64>()).collect(),
            (0..c.five.len()).map(|_| rng.random::<f64>()).collect(),
        ],
    )
    .unwrap();
    assert!(!rv.monotone);
    let ev = Evaluator::new(rules.wheel);
    let rv = Arc::new(rv);
    let mut scratch = Scratch::default();
    let mut legal = Vec::new();
    for _ in 0..30 {
        let hand = deal(&mut rng, 1)[0];
        let sol = solve(
            &Hand::new(hand).unwrap(),
            &rules,
            2,
            &Objective::RowValues(rv.clone()),
            1,
        )
        .unwrap();
        scratch.legal_settings(&hand, rules.wheel, &mut legal);
        let best = legal
            .iter()
            .map(|s| {
                let codes = s.row_codes(&hand);
                let ranks = [
                    ev.eval_codes(&codes[..3]).raw(),
                    ev.eval_codes(&codes[3..8]).raw(),
                    ev.eval_codes(&codes[8..]).raw(),
                ];
                rv.value(&ranks)
            })
            .fold(f64::MIN, f64::max);
        assert_eq!(sol.value, best);
    }
}

#[test]
fn best_response_agrees_with_settle() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    for name in [
        "maceplay",
        "pokerclub_north",
        "pokerfever_eastern",
        "one_six",
        "shisanshui",
    ] {
        let rules = Rules::preset(name).unwrap();
        for players in [2, 4] {
            let te = table(&rules, players);
            for _ in 0..10 {
                let hands = deal(&mut rng, players);
                let opps: Vec<Decision> = hands[1..]
                    .iter()
                    .map(|h| {
                        let s = solve(
                            &Hand::new(*h).unwrap(),
                            &rules,
                            players,
                            &Objective::TableEv(te.clone()),
                            1,
                        )
                        .unwrap();
                        Decision::Play(setting(&s.alternatives[0].codes))
                    })
                    .collect();
                let sol = solve(
                    &Hand::new(hands[0]).unwrap(),
                    &rules,
                    players,
                    &Objective::BestResponse(opps.clone()),
                    3,
                )
                .unwrap();
                let mine = match sol.choice {
                    Choice::Play => Decision::Play(setting(&sol.codes)),
                    Choice::Declare(natural) => Decision::Declare {
                        natural,
                        setting: setting(&sol.codes),
                    },
                    Choice::Surrender => Decision::Surrender,
                };
                let mut all = vec![mine];
                all.extend(opps);
                let st = settle(&all, &rules, None, 0).unwrap();
                assert_eq!(st.raw_totals()[0] as f64, sol.value, "{name} {players}");
            }
        }
    }
}

#[test]
fn monte_carlo_is_deterministic_whatever_the_threads() {
    let rules = Rules::preset("maceplay").unwrap();
    let te = table(&rules, 2);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(8);
    let hand = deal(&mut rng, 1)[0];
    // racing (the default) and every candidate on every sample; one thread runs the chunks
    // inline, more run them on a pool
    for confidence in [Budget::default().confidence, 0.0] {
        let run = |threads| {
            let obj = Objective::MonteCarlo {
                budget: Budget {
                    samples: 200,
                    confidence,
                    ..Budget::default()
                },
                seed: 42,
                policy: Policy::TableEv(te.clone()),
                threads,
            };
            let s = solve(&Hand::new(hand).unwrap(), &rules, 2, &obj, 5).unwrap();
            (s.codes, s.value, s.stderr, s.alternatives)
        };
        let a = run(Some(1));
        assert_eq!(a, run(Some(2)));
        assert_eq!(a, run(None));
        assert!(
            a.2.is_some_and(|se| se > 0.0),
            "Monte Carlo gives a standard error"
        );
    }
}

#[test]
fn training_is_deterministic_for_a_seed() {
    let rules = Rules::preset("one_six").unwrap();
    let cfg = TrainConfig {
        players: 2,
        seed: 9,
        deals: 300,
        max_iters: 2,
        min_iters: 2,
        calibration_hands: 3000,
        calibration_iters: 2,
        ..TrainConfig::default()
    };
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let a = pool(1).install(|| train(&rules, &cfg, &mut |_| true).unwrap());
    let b = pool(2).install(|| train(&rules, &cfg, &mut |_| true).unwrap());
    assert_eq!(a.tables, b.tables);
    assert_eq!(a.iterations, 2);
    // win rates derived from the tables are monotone in rank
    let te = TableEv::new(&rules, 2, a.tables).unwrap();
    let c = Classes::get(rules.wheel);
    let mut last = f64::MIN;
    for &raw in &c.five {
        let v = te.value(&[c.front[0], raw, *c.five.last().unwrap()]);
        assert!(v >= last - 1e-9);
        last = v;
    }
}

#[test]
fn training_reports_each_phase_and_its_own_figure() {
    use chinese_poker::solve::train::{Phase, Progress};
    let rules = Rules::preset("one_six").unwrap();
    let cfg = TrainConfig {
        players: 2,
        deals: 300,
        min_iters: 2,
        max_iters: 3,
        calibration_hands: 2000,
        calibration_iters: 2,
        ..TrainConfig::default()
    };
    let mut seen: Vec<(Phase, usize, f64, bool)> = Vec::new();
    let mut steps_told = Vec::new();
    let report = train(&rules, &cfg, &mut |p| {
        let (figure, last) = match *p {
            Progress::Iteration {
                delta, converged, ..
            } => (delta, converged),
            Progress::Calibration {
                step,
                steps,
                report,
            } => {
                steps_told.push(steps);
                (report.moved, step == steps)
            }
            Progress::Improvement(_) => unreachable!("no improvement phase was asked for"),
        };
        seen.push((p.phase(), p.step(), figure, last));
        true
    })
    .unwrap();
    let iterations: Vec<_> = seen
        .iter()
        .filter(|s| s.0 == Phase::FictitiousPlay)
        .collect();
    let calibration: Vec<_> = seen.iter().filter(|s| s.0 == Phase::Calibration).collect();
    // every iteration, numbered from 1, then every calibration step, numbered from 1
    assert_eq!(seen.len(), report.iterations + cfg.calibration_iters);
    assert!(seen[..report.iterations]
        .iter()
        .all(|s| s.0 == Phase::FictitiousPlay));
    let numbers: Vec<usize> = iterations.iter().map(|s| s.1).collect();
    assert_eq!(numbers, (1..=report.iterations).collect::<Vec<_>>());
    let numbers: Vec<usize> = calibration.iter().map(|s| s.1).collect();
    assert_eq!(numbers, vec![1, 2]);
    assert_eq!(steps_told, vec![2, 2]);
    // an iteration's figure is its distribution move, a step's how far its map moved
    let deltas: Vec<f64> = iterations.iter().map(|s| s.2).collect();
    assert_eq!(deltas, report.deltas);
    let moved: Vec<f64> = calibration.iter().map(|s| s.2).collect();
    assert_eq!(
        moved,
        report
            .calibration
            .iter()
            .map(|c| c.moved)
            .collect::<Vec<_>>()
    );
    // `converged` only on an iteration that stopped the phase below the tolerance
    let converged = report.deltas.last().is_some_and(|&d| d < cfg.tol);
    for s in &iterations[..iterations.len() - 1] {
        assert!(!s.3);
    }
    assert_eq!(iterations.last().unwrap().3, converged);
    assert_eq!(
        Phase::ALL.map(Phase::name),
        ["fictitious_play", "improvement", "calibration"]
    );
}

#[test]
fn a_stop_check_ends_training_in_its_iterations_and_its_calibration() {
    use chinese_poker::solve::train::train_with_stop;
    use chinese_poker::Error;
    use std::sync::atomic::{AtomicBool, Ordering};
    let rules = Rules::preset("maceplay").unwrap();
    let cfg = TrainConfig {
        players: 2,
        deals: 2000,
        max_iters: 1,
        min_iters: 1,
        calibration_hands: 1_000_000,
        calibration_iters: 1,
        ..TrainConfig::default()
    };
    // stopped at once: in the first iteration
    let r = train_with_stop(&rules, &cfg, &mut |_| true, &|| true);
    assert!(matches!(r, Err(Error::Interrupted)));
    // stopped once the iterations are done: in the calibration step, before its million hands
    let calibrating = AtomicBool::new(false);
    let r = train_with_stop(
        &rules,
        &cfg,
        &mut |_| {
            calibrating.store(true, Ordering::Relaxed);
            true
        },
        &|| calibrating.load(Ordering::Relaxed),
    );
    assert!(matches!(r, Err(Error::Interrupted)));
}
