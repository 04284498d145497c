//! The improvement phase of training: the tables refitted to the plays Monte Carlo finds
//! better ([architecture: Tables that learn from Monte Carlo](https://chinese-poker.github.io/chinese-poker/architecture/#tables-that-learn-from-monte-carlo)).
//!
//! `MonteCarlo()` gains over the table objective by valuing its best plays against sampled
//! opponents who play the tables: it is a best response to a table of `TableEv` players, and
//! what it finds the formula misjudges. This phase teaches the tables what it finds:
//!
//! 1. Deal [`TrainConfig::improve_hands`] hands; on each the table objective plays (it neither
//!    declares nor surrenders), value its [`CANDIDATES`] best plays by Monte Carlo over
//!    [`TrainConfig::improve_samples`] deals of the unseen cards to opponents who play the
//!    tables (the same deals for every play, no racing).
//! 2. Reweight each row's opponent distribution by one factor per bucket of classes (a category
//!    and its leading card: a pair of sevens, a flush to the king). A coordinate search over
//!    the factors' logarithms, in steps of [`STEPS`], keeps each change that raises the mean
//!    Monte Carlo value of the plays the reweighted tables choose among the valued ones, on two
//!    hands of every three.
//! 3. The third hand measures that gain unseen (held out), with its 95% interval. The
//!    reweighted tables are kept only when it is above 0; otherwise the phase changes nothing.
//!
//! Reweighting keeps the tables' form (distributions over row classes), so the objective's
//! speed, its search bounds and the file format stay as they are; calibration, which runs next,
//! fits the map to the new formula. The factors are an "effective" opponent: the distribution
//! against which the independent-rows formula best ranks the plays that Monte Carlo ranks.
//!
//! Deterministic for the seed whatever the thread count: each hand and its samples have their
//! own seeds, Monte Carlo's sums are exact integers, the search runs in order and sums the
//! chosen values in fixed point.

use super::classes::Classes;
use super::monte_carlo::{mix, race, split_keys};
use super::objective::{Budget, Policy};
use super::table_ev::{OutcomeTables, TableEv};
use super::train::{deal, TrainConfig};
use super::{decide_table_ev_split, top_table_ev, with_scratch, Choice};
use crate::error::{Error, Result};
use crate::eval::HandRank;
use crate::hand::Hand;
use crate::rules::Rules;
use rayon::prelude::*;
use std::sync::Arc;

/// Plays valued on each hand: the table objective's best, as `MonteCarlo()` races them.
pub const CANDIDATES: usize = 16;
/// Hands valued unless told otherwise (two thirds fit, one third held out).
pub const DEFAULT_HANDS: usize = 9_000;
/// Most hands one training may value: beyond this the phase would take days.
pub const MAX_HANDS: usize = 10_000_000;
/// Monte Carlo samples per hand unless told otherwise: every play is valued on the same
/// deals, so differences between plays are measured far more finely than their values.
pub const DEFAULT_SAMPLES: usize = 1_000;
/// The coordinate search's steps in a factor's logarithm, coarse to fine.
pub const STEPS: [f64; 3] = [0.5, 0.25, 0.125];
/// Most passes over the factors at one step (a pass that changes nothing ends the step).
const MAX_PASSES: usize = 4;
/// One hand of every `HOLD_OUT` measures the gain unseen.
const HOLD_OUT: usize = 3;
/// Buckets holding less of a row's distribution than this keep their factor (too little of
/// the opponents' play to be measured).
const MIN_MASS: f64 = 1e-4;
/// Fixed-point scale of the summed values (exact sums whatever the order).
const FIXED: f64 = (1u64 << 32) as f64;

/// What the improvement phase measured and did.
#[derive(Clone, Debug, PartialEq)]
pub struct Improvement {
    /// Hands valued (those the table objective plays).
    pub hands: usize,
    /// Hands dealt but not valued: the table objective declares a natural or surrenders.
    pub skipped: usize,
    /// Monte Carlo samples per hand.
    pub samples: usize,
    /// Factors the search could move (buckets with enough mass).
    pub factors: usize,
    /// Passes over the factors, over every step.
    pub passes: usize,
    /// Mean gain (points a hand) of the reweighted tables' plays on the fitting hands.
    pub fitted: f64,
    /// Mean gain on the held-out hands, and the half-width of its 95% interval.
    pub held_out: (f64, f64),
    /// Held-out hands.
    pub held_out_hands: usize,
    /// Share of the held-out hands played differently.
    pub changed: f64,
    /// Whether the reweighted tables were kept (the held-out gain is above 0).
    pub kept: bool,
}

/// One valued hand: its candidate plays' row classes and Monte Carlo values.
struct Valued {
    classes: Vec<[u16; 3]>,
    values: Vec<f64>,
}

/// The improvement phase: `tables` reweighted as the module says, and what it measured.
pub(crate) fn improve(
    rules: &Rules,
    cfg: &TrainConfig,
    tables: OutcomeTables,
    stop: crate::parallel::Stop,
) -> Result<(OutcomeTables, Improvement)> {
    let start = Arc::new(TableEv::new(rules, cfg.players, tables.clone())?);
    let (valued, skipped) = value_hands(rules, cfg, &start, stop)?;
    let part = |held: bool| -> Vec<&Valued> {
        let is_held = |i: usize| i % HOLD_OUT == HOLD_OUT - 1;
        valued
            .iter()
            .enumerate()
            .filter(|(i, _)| is_held(*i) == held)
            .map(|(_, v)| v)
            .collect()
    };
    let (fit, held) = (part(false), part(true));
    let buckets = Buckets::new(rules, &tables);
    let mut theta: [Vec<f64>; 3] = std::array::from_fn(|r| vec![0.0; buckets.count[r]]);
    let free: Vec<(usize, usize)> = (0..3)
        .flat_map(|r| (0..buckets.count[r]).map(move |b| (r, b)))
        .filter(|&(r, b)| buckets.mass(&tables, r, b) >= MIN_MASS)
        .collect();
    let score = |theta: &[Vec<f64>; 3]| -> Result<i64> {
        if stop() {
            return Err(Error::Interrupted);
        }
        let te = TableEv::new(rules, cfg.players, buckets.reweight(&tables, theta)?)?;
        Ok(chosen(&te, &fit)
            .iter()
            .map(|&v| (v * FIXED).round() as i64)
            .sum())
    };
    let base = score(&theta)?;
    let mut best = base;
    let mut passes = 0;
    for step in STEPS {
        for _ in 0..MAX_PASSES {
            passes += 1;
            let mut moved = false;
            for &(r, b) in &free {
                for delta in [step, -step] {
                    theta[r][b] += delta;
                    let s = score(&theta)?;
                    if s > best {
                        best = s;
                        moved = true;
                        break;
                    }
                    theta[r][b] -= delta;
                }
            }
            if !moved {
                break;
            }
        }
    }
    let refit = buckets.reweight(&tables, &theta)?;
    let te = TableEv::new(rules, cfg.players, refit.clone())?;
    let before = chosen(&start, &held);
    let after = chosen(&te, &held);
    let gains: Vec<f64> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
    let (mean, half) = mean_interval(&gains);
    let changed = gains.iter().filter(|g| **g != 0.0).count();
    let report = Improvement {
        hands: valued.len(),
        skipped,
        samples: cfg.improve_samples,
        factors: free.len(),
        passes,
        fitted: (best - base) as f64 / FIXED / fit.len().max(1) as f64,
        held_out: (mean, half),
        held_out_hands: held.len(),
        changed: changed as f64 / held.len().max(1) as f64,
        kept: mean > 0.0,
    };
    Ok((if report.kept { refit } else { tables }, report))
}

/// Deals the phase's hands and values the table objective's best plays on each one it plays;
/// also counts those it does not play.
fn value_hands(
    rules: &Rules,
    cfg: &TrainConfig,
    te: &Arc<TableEv>,
    stop: crate::parallel::Stop,
) -> Result<(Vec<Valued>, usize)> {
    let seed = mix(cfg.seed, 0x1A9E_0000);
    let policy = Policy::TableEv(te.clone());
    let budget = Budget {
        samples: cfg.improve_samples,
        confidence: 0.0,
        candidates: CANDIDATES,
        time_limit: None,
    };
    let hands: Vec<Option<Valued>> = (0..cfg.improve_hands)
        .into_par_iter()
        .map(|h| {
            if stop() {
                return Err(Error::Interrupted);
            }
            let codes = deal(seed, h as u64, 1)[0];
            let hand = Hand::trusted(codes);
            let top = with_scratch(|s| {
                let (choice, ..) = decide_table_ev_split(te, rules, &hand, s);
                (choice == Choice::Play).then(|| top_table_ev(te, &codes, s, CANDIDATES).0)
            });
            let Some(top) = top else { return Ok(None) };
            let keys: Vec<[u64; 3]> = top
                .iter()
                .map(|(s, _)| split_keys(rules, &codes, s))
                .collect();
            let raced = race(
                rules,
                cfg.players,
                &policy,
                &codes,
                &keys,
                &budget,
                mix(seed, h as u64),
                Some(1),
                stop,
            )?;
            Ok(Some(Valued {
                classes: top.iter().map(|(s, _)| s.classes).collect(),
                values: raced.mean,
            }))
        })
        .collect::<Result<_>>()?;
    let skipped = hands.iter().filter(|h| h.is_none()).count();
    Ok((hands.into_iter().flatten().collect(), skipped))
}

/// The Monte Carlo value of the play `te` chooses among each hand's valued plays (the first of
/// the largest formulas, as the search keeps the first).
fn chosen(te: &TableEv, hands: &[&Valued]) -> Vec<f64> {
    hands
        .par_iter()
        .map(|v| {
            let mut best = (f64::NEG_INFINITY, 0);
            for (i, c) in v.classes.iter().enumerate() {
                let f = te.formula(c);
                if f > best.0 {
                    best = (f, i);
                }
            }
            v.values[best.1]
        })
        .collect()
}

/// The mean of `x` and the half-width of its 95% interval (normal).
fn mean_interval(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    if x.len() < 2 {
        return (x.first().copied().unwrap_or(0.0), f64::INFINITY);
    }
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// Each row's classes grouped by category and leading card.
struct Buckets {
    of: [Vec<usize>; 3],
    count: [usize; 3],
}

impl Buckets {
    fn new(rules: &Rules, tables: &OutcomeTables) -> Buckets {
        let classes = Classes::get(rules.wheel);
        let group = |raws: &[u32]| {
            let keys: Vec<(usize, u32)> = raws
                .iter()
                .map(|&raw| {
                    (
                        HandRank::category_index_of_raw(raw),
                        HandRank::nibble_of_raw(raw, 0),
                    )
                })
                .collect();
            let mut distinct = keys.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let of: Vec<usize> = keys
                .iter()
                .map(|k| distinct.binary_search(k).expect("listed"))
                .collect();
            (of, distinct.len())
        };
        let front = group(classes.of(true));
        let five = group(classes.of(false));
        debug_assert_eq!(front.0.len(), tables.dist[0].len());
        Buckets {
            count: [front.1, five.1, five.1],
            of: [front.0, five.0.clone(), five.0],
        }
    }

    /// The share of row `r`'s distribution in bucket `b`.
    fn mass(&self, tables: &OutcomeTables, r: usize, b: usize) -> f64 {
        self.of[r]
            .iter()
            .zip(&tables.dist[r])
            .filter(|(&x, _)| x == b)
            .map(|(_, p)| p)
            .sum()
    }

    /// `tables` with each class's probability times `exp(theta)` of its bucket, renormalised;
    /// the scoop rate and the model as they were.
    fn reweight(&self, tables: &OutcomeTables, theta: &[Vec<f64>; 3]) -> Result<OutcomeTables> {
        let dist: [Vec<f64>; 3] = std::array::from_fn(|r| {
            tables.dist[r]
                .iter()
                .zip(&self.of[r])
                .map(|(p, &b)| p * theta[r][b].exp())
                .collect()
        });
        OutcomeTables::new(tables.wheel, dist, tables.scoop_rate)?.with_model(tables.model.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::super::load_bundled;
    use super::super::train::{train, Progress, TrainConfig};
    use super::*;

    fn config(preset: &str, players: usize, hands: usize, samples: usize) -> (Rules, TrainConfig) {
        let rules = Rules::preset(preset).unwrap();
        let start = load_bundled(&rules, players).unwrap().tables;
        let cfg = TrainConfig {
            players,
            start: Some(start),
            improve_hands: hands,
            improve_samples: samples,
            calibration_hands: 0,
            ..TrainConfig::default()
        };
        (rules, cfg)
    }

    /// The lab behind the shipped tables' figures: `LAB_PRESET`, `LAB_PLAYERS`, `LAB_HANDS`,
    /// `LAB_SAMPLES` (`cargo test --release -p chinese-poker --lib improvement_lab -- --ignored
    /// --nocapture`).
    #[test]
    #[ignore]
    fn improvement_lab() {
        let var = |name: &str, default: usize| {
            std::env::var(name).map_or(default, |v| v.parse().unwrap())
        };
        let preset = std::env::var("LAB_PRESET").unwrap_or("maceplay".into());
        let (rules, cfg) = config(
            &preset,
            var("LAB_PLAYERS", 4),
            var("LAB_HANDS", DEFAULT_HANDS),
            var("LAB_SAMPLES", DEFAULT_SAMPLES),
        );
        let t = std::time::Instant::now();
        let report = train(&rules, &cfg, &mut |_| true).unwrap();
        println!("{preset}: {:?} in {:?}", report.improvement, t.elapsed());
    }

    #[test]
    fn keeps_only_a_held_out_gain_and_reports_it() {
        let (rules, cfg) = config("maceplay", 2, 90, 64);
        let mut seen = Vec::new();
        let report = train(&rules, &cfg, &mut |p| {
            seen.push(p.phase());
            true
        })
        .unwrap();
        assert_eq!(seen, [super::super::train::Phase::Improvement]);
        assert_eq!(report.iterations, 0);
        let imp = report.improvement.unwrap();
        assert_eq!(imp.hands + imp.skipped, 90);
        assert_eq!(imp.held_out_hands, imp.hands / HOLD_OUT);
        assert!(imp.factors > 50, "{imp:?}");
        assert!(
            imp.fitted >= 0.0,
            "the search only keeps what raises the fit: {imp:?}"
        );
        assert_eq!(imp.kept, imp.held_out.0 > 0.0);
        let start = cfg.start.as_ref().unwrap();
        assert_eq!(imp.kept, report.tables != *start, "{imp:?}");
        // the model and the scoop rate are carried over
        assert_eq!(report.tables.model, start.model);
        assert_eq!(report.tables.scoop_rate, start.scoop_rate);
    }

    #[test]
    fn the_same_whatever_the_threads() {
        let (rules, cfg) = config("two_four", 4, 30, 32);
        let run = |threads| {
            crate::parallel::with_threads(Some(threads), || {
                train(&rules, &cfg, &mut |_| true).unwrap()
            })
        };
        let (a, b) = (run(1), run(2));
        assert_eq!(a.tables, b.tables);
        assert_eq!(a.improvement, b.improvement);
    }

    #[test]
    fn stops_when_asked_and_refuses_bad_settings() {
        let (rules, cfg) = config("two_four", 2, 50, 32);
        let stopped = super::super::train::train_with_stop(&rules, &cfg, &mut |_| true, &|| true);
        assert!(matches!(stopped, Err(Error::Interrupted)));
        let interrupted = train(&rules, &cfg, &mut |p| {
            !matches!(p, Progress::Improvement(_))
        });
        assert!(matches!(interrupted, Err(Error::Interrupted)));
        for (hands, samples, name) in [(10, 1, "samples"), (MAX_HANDS + 1, 32, "improve_hands")] {
            let bad = TrainConfig {
                improve_hands: hands,
                improve_samples: samples,
                ..cfg.clone()
            };
            let err = train(&rules, &bad, &mut |_| true).unwrap_err();
            assert!(err.to_string().contains(name), "{err}");
        }
        // tables of another wheel are refused by name
        let other = Rules::preset("pokerfever_eastern").unwrap();
        if other.wheel != rules.wheel {
            let bad = TrainConfig {
                start: Some(load_bundled(&other, 2).unwrap().tables),
                ..cfg.clone()
            };
            let err = train(&rules, &bad, &mut |_| true).unwrap_err();
            assert!(err.to_string().contains("wheel"), "{err}");
        }
    }
}
