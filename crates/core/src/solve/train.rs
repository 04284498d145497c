//! Self-play training of the table objective's outcome tables (fictitious-play style) and of
//! its model (`model.rs`).
//!
//! Start from rows distributed like random 5- and 3-card hands. Each iteration deals `deals`
//! deals of `players` hands, decides every hand with the table objective built from the current
//! tables (natural and surrender decisions included), and counts the classes of the rows
//! played, the scoops seen against the scoops the independent rows predict, how often a hand
//! that scoops one opponent scoops another, and how often hands declare naturals (and for how
//! much) or surrender. The row counts are smoothed across neighbouring classes (a triangular
//! kernel: the tables are a distribution over ordered ranks, so the win rates derived from them
//! stay monotone and sparse classes borrow from their neighbours) and blended into the current
//! tables, and so are the rates. Training stops when no row's cumulative distribution moved by
//! more than `tol` (after `min_iters`), or after `max_iters`.
//!
//! Then calibration: `calibration_iters` times, `calibration_hands` hands are played in
//! symmetric self-play rounds of `players` seats, settled exactly, and the calibration map is
//! fitted to the points the played hands realise against the formula's value of their setting
//! (`model::fit_calibration`). Naturals and surrenders are decided by comparing calibrated
//! values with fixed amounts, so a new map changes those decisions and with them the rounds:
//! the steps repeat, and the report gives how far the map moved at each.
//!
//! Deal `d` of iteration `t` is drawn from its own seed, and sums are integers (probabilities
//! in fixed point), so the result depends only on the seed and the sizes, never on the thread
//! count.

use super::classes::{FIVE_CLASSES, FRONT_CLASSES};
use super::improve::{improve, Improvement};
use super::model::{fit_calibration, Calibration, Model};
use super::monte_carlo::mix;
use super::table_ev::{OutcomeTables, TableEv};
use super::{check_players, decide_table_ev_split, decision_of, with_scratch, Choice, Split};
use crate::error::{Error, Result};
use crate::hand::Hand;
use crate::rules::Rules;
use crate::score::settle;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

#[derive(Clone, Debug)]
/// How to train strategy tables (self-play fictitious play, then calibration).
pub struct TrainConfig {
    /// Table size.
    pub players: usize,
    /// Seed of the deals.
    pub seed: u64,
    /// Deals per iteration (each of `players` hands).
    pub deals: usize,
    /// Fewest iterations.
    pub min_iters: usize,
    /// Most iterations.
    pub max_iters: usize,
    /// Largest move of any row's cumulative distribution that counts as "stopped moving".
    pub tol: f64,
    /// Weight of the new measurement when blending.
    pub blend: f64,
    /// Hands played per calibration step (0: no calibration); by default
    /// [`CALIBRATION_HANDS_PER_DEAL`] × `deals`, so that one number scales the whole effort.
    pub calibration_hands: usize,
    /// Calibration steps.
    pub calibration_iters: usize,
    /// Tables to start from instead of fictitious play (which is then skipped): what the
    /// improvement phase refits and calibration then fits.
    pub start: Option<OutcomeTables>,
    /// Hands the improvement phase values ([`improve`](super::improve); 0: no such phase).
    pub improve_hands: usize,
    /// Monte Carlo samples per hand of the improvement phase.
    pub improve_samples: usize,
}

/// Deals per iteration unless told otherwise.
pub const DEFAULT_DEALS: usize = 20_000;
/// Most deals per iteration: beyond this one iteration would take days; a larger value is a
/// typo, not a plan.
pub const MAX_DEALS: usize = 100_000_000;
/// Training stops when no row's cumulative distribution moves by more than [`TOLERANCE`] (after
/// at least [`MIN_ITERATIONS`]), or at [`MAX_ITERATIONS`], when it has not converged.
pub const MIN_ITERATIONS: usize = 3;
/// Most iterations unless told otherwise.
pub const MAX_ITERATIONS: usize = 12;
/// Largest move that counts as converged unless told otherwise.
pub const TOLERANCE: f64 = 0.01;
/// Calibration steps unless told otherwise (see [`CALIBRATION_HANDS_PER_DEAL`] for why two).
pub const CALIBRATION_STEPS: usize = 2;
/// Most calibration hands per step and most steps one training may ask for.
pub const MAX_CALIBRATION_HANDS: usize = 100_000_000;
/// Most calibration steps one training may ask for.
pub const MAX_CALIBRATION_STEPS: usize = 100;

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            players: 4,
            seed: 0,
            deals: DEFAULT_DEALS,
            min_iters: MIN_ITERATIONS,
            max_iters: MAX_ITERATIONS,
            tol: TOLERANCE,
            blend: 0.5,
            calibration_hands: CALIBRATION_HANDS_PER_DEAL * DEFAULT_DEALS,
            calibration_iters: CALIBRATION_STEPS,
            start: None,
            improve_hands: 0,
            improve_samples: super::improve::DEFAULT_SAMPLES,
        }
    }
}

/// One calibration step: how the map it started from did on the step's rounds, and how far the
/// new map moved from it.
#[derive(Clone, Debug, PartialEq)]
pub struct CalibrationStep {
    /// Hands played in the step.
    pub hands: usize,
    /// Mean value the objective gave its decisions, over every hand (realised mean: 0).
    pub mean_predicted: f64,
    /// Largest gap between the mean prediction and the mean realised points in any decile of
    /// the predictions.
    pub worst_decile_gap: f64,
    /// Largest change of the calibrated value at any knot of the new map.
    pub moved: f64,
}

#[derive(Clone, Debug)]
/// What training made and measured.
pub struct TrainReport {
    /// The trained tables.
    pub tables: OutcomeTables,
    /// Fictitious-play iterations run.
    pub iterations: usize,
    /// The largest cumulative-distribution move of each iteration.
    pub deltas: Vec<f64>,
    /// What the improvement phase measured and did, where it ran.
    pub improvement: Option<Improvement>,
    /// Each calibration step.
    pub calibration: Vec<CalibrationStep>,
}

/// Default calibration hands per training deal: 3,000,000 hands per step at the default 20,000
/// deals. A hand's points vary by about 5.7 at 4 players, so a decile's mean is then fitted to
/// about 0.01 point; at 600,000 the fit's own noise left deciles 0.05–0.08 off. Two steps: the
/// first map fixes the natural and surrender decisions, the second is fitted on rounds played
/// with them (a third moved the map by no more than its noise).
pub const CALIBRATION_HANDS_PER_DEAL: usize = 150;

const SMOOTH_FRONT: usize = 1;
const SMOOTH_FIVE: usize = 3;
/// Knots of the calibration map (groups of equal size).
const CALIBRATION_BINS: usize = 40;
/// Fixed-point scale of the probability sums (exact integers whatever the thread count).
const FIXED: f64 = (1u64 << 40) as f64;

/// The hands of deal `d` of a run seeded `seed`: `n` hands of 13 distinct codes.
pub(super) fn deal(seed: u64, d: u64, n: usize) -> [[u8; 13]; 4] {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(mix(seed, d));
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    for k in 0..13 * n {
        let j = rng.random_range(k..52);
        deck.swap(k, j);
    }
    std::array::from_fn(|p| deck[13 * p..13 * p + 13].try_into().expect("13"))
}

/// The phases of training, in the order they run, as [`Progress`] names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The self-play iterations that blend the row distributions until they stop moving.
    FictitiousPlay,
    /// The tables refitted to the plays Monte Carlo finds better ([`improve`](super::improve)).
    Improvement,
    /// The steps that fit the calibration map to the points played hands realise.
    Calibration,
}

impl Phase {
    /// Every phase, in the order they run.
    pub const ALL: [Phase; 3] = [
        Phase::FictitiousPlay,
        Phase::Improvement,
        Phase::Calibration,
    ];

    /// The phase's name in progress reports (the Python callback's `phase`).
    pub fn name(self) -> &'static str {
        match self {
            Phase::FictitiousPlay => "fictitious_play",
            Phase::Improvement => "improvement",
            Phase::Calibration => "calibration",
        }
    }
}

/// What training reports after each step, so that a log can say which phase it is in and how
/// close that phase is to done (the two phases' figures are different measures: a calibration
/// map moving by points after the distributions converged is no divergence).
#[derive(Clone, Debug, PartialEq)]
pub enum Progress<'a> {
    /// After fictitious-play iteration `iteration` (from 1): `delta` is the largest move of any
    /// row's cumulative distribution; `converged`, that it moved less than the tolerance after
    /// the minimum iterations, so this was the last iteration.
    Iteration {
        /// The iteration (from 1).
        iteration: usize,
        /// Largest move of any row's cumulative distribution.
        delta: f64,
        /// Whether this was the last iteration.
        converged: bool,
    },
    /// After the improvement phase (its one step), with what it measured and did.
    Improvement(&'a Improvement),
    /// After calibration step `step` (from 1) of `steps`, with what the step measured.
    Calibration {
        /// The step (from 1).
        step: usize,
        /// Steps in all.
        steps: usize,
        /// What the step measured.
        report: &'a CalibrationStep,
    },
}

impl Progress<'_> {
    /// The phase this report is from.
    pub fn phase(&self) -> Phase {
        match self {
            Progress::Iteration { .. } => Phase::FictitiousPlay,
            Progress::Improvement(_) => Phase::Improvement,
            Progress::Calibration { .. } => Phase::Calibration,
        }
    }

    /// The step within its phase, from 1.
    pub fn step(&self) -> usize {
        match *self {
            Progress::Iteration { iteration, .. } => iteration,
            Progress::Improvement(_) => 1,
            Progress::Calibration { step, .. } => step,
        }
    }
}

/// Trains the tables for `rules` at `cfg.players`. `progress` is called after each training
/// iteration and then after each calibration step ([`Progress`]); returning `false` stops with
/// `Error::Interrupted`. `rules` must be validated.
pub fn train(
    rules: &Rules,
    cfg: &TrainConfig,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<TrainReport> {
    train_with_stop(rules, cfg, progress, &crate::parallel::never)
}

/// [`train`] that also calls `stop` between chunks of 256 deals or rounds of every training
/// iteration and calibration step (from any thread) and ends with `Error::Interrupted` when it
/// returns true.
pub fn train_with_stop(
    rules: &Rules,
    cfg: &TrainConfig,
    progress: &mut dyn FnMut(&Progress) -> bool,
    stop: crate::parallel::Stop,
) -> Result<TrainReport> {
    check_players(cfg.players)?;
    if cfg.deals == 0 || cfg.max_iters == 0 || !(0.0..=1.0).contains(&cfg.blend) {
        return Err(Error::InvalidShape {
            what: "training settings".into(),
            expected: "deals ≥ 1, max_iters ≥ 1, 0 ≤ blend ≤ 1".into(),
            got: format!(
                "deals {}, max_iters {}, blend {}",
                cfg.deals, cfg.max_iters, cfg.blend
            ),
        });
    }
    if cfg.improve_hands > 0 {
        super::check_samples(cfg.improve_samples)?;
    }
    if cfg.improve_hands > super::improve::MAX_HANDS {
        return Err(Error::InvalidArgument {
            name: "improve_hands".into(),
            reason: format!(
                "expected 0 to {} hands, got {}",
                super::improve::MAX_HANDS,
                cfg.improve_hands
            ),
        });
    }
    let (mut tables, deltas) = match &cfg.start {
        // checked against the rule set and table size as the objective is built
        Some(start) => {
            TableEv::new(rules, cfg.players, start.clone())?;
            (start.clone(), Vec::new())
        }
        None => fictitious_play(rules, cfg, progress, stop)?,
    };
    let iterations = deltas.len();
    let mut improvement = None;
    if cfg.improve_hands > 0 {
        let (next, report) = improve(rules, cfg, tables, stop)?;
        tables = next;
        if !progress(&Progress::Improvement(&report)) {
            return Err(Error::Interrupted);
        }
        improvement = Some(report);
    }
    let mut calibration = Vec::new();
    if cfg.calibration_hands > 0 {
        for step in 0..cfg.calibration_iters {
            let te = TableEv::new(rules, cfg.players, tables.clone())?;
            let (map, report) = calibrate(&te, rules, cfg, step as u64, stop)?;
            let mut model = tables.model.clone();
            model.calibration = map;
            tables = tables.with_model(model)?;
            let done = Progress::Calibration {
                step: step + 1,
                steps: cfg.calibration_iters,
                report: &report,
            };
            if !progress(&done) {
                return Err(Error::Interrupted);
            }
            calibration.push(report);
        }
    }
    Ok(TrainReport {
        tables,
        iterations,
        deltas,
        improvement,
        calibration,
    })
}

/// The fictitious-play iterations from rows distributed like random hands: the tables, and
/// the largest move of each iteration.
fn fictitious_play(
    rules: &Rules,
    cfg: &TrainConfig,
    progress: &mut dyn FnMut(&Progress) -> bool,
    stop: crate::parallel::Stop,
) -> Result<(OutcomeTables, Vec<f64>)> {
    let mut tables = OutcomeTables::random_rows(rules.wheel);
    let mut deltas = Vec::new();
    for iter in 0..cfg.max_iters {
        let te = TableEv::new(rules, cfg.players, tables.clone())?;
        let seen = measure(&te, rules, cfg, iter as u64, stop)?;
        let alpha = if iter == 0 { 1.0 } else { cfg.blend };
        let dist: [Vec<f64>; 3] = std::array::from_fn(|r| {
            let radius = if r == 0 { SMOOTH_FRONT } else { SMOOTH_FIVE };
            let measured = smooth(&seen.hist[r], radius);
            tables.dist[r]
                .iter()
                .zip(&measured)
                .map(|(&old, &new)| (1.0 - alpha) * old + alpha * new)
                .collect()
        });
        let blend = |old: f64, new: f64| (1.0 - alpha) * old + alpha * new;
        let pairs = seen.pairs.max(1) as f64;
        let scoop_rate = blend(tables.scoop_rate, seen.scoops as f64 / pairs);
        let old = &tables.model;
        let model = Model {
            scoop_for: blend(old.scoop_for, seen.scoop_factor(seen.predicted_for)),
            scoop_against: blend(old.scoop_against, seen.scoop_factor(seen.predicted_against)),
            sweep_rate: match (seen.sweep_base, old.sweep_rate) {
                (0, _) => None,
                (_, Some(q)) if iter > 0 => Some(blend(q, seen.sweep_rate())),
                _ => Some(seen.sweep_rate()),
            },
            natural_rate: blend(old.natural_rate, seen.naturals as f64 / seen.hands as f64),
            natural_value: blend(old.natural_value, seen.natural_value()),
            surrender_rate: blend(
                old.surrender_rate,
                seen.surrenders as f64 / seen.hands as f64,
            ),
            calibration: Calibration::default(),
        };
        let next = OutcomeTables::new(rules.wheel, dist, scoop_rate)?.with_model(model)?;
        let delta = (0..3)
            .map(|r| cdf_distance(&tables.dist[r], &next.dist[r]))
            .fold(0.0, f64::max);
        tables = next;
        deltas.push(delta);
        let converged = iter + 1 >= cfg.min_iters && delta < cfg.tol;
        let report = Progress::Iteration {
            iteration: iter + 1,
            delta,
            converged,
        };
        if !progress(&report) {
            return Err(Error::Interrupted);
        }
        if converged {
            break;
        }
    }
    Ok((tables, deltas))
}

/// What one training iteration saw.
#[derive(Default)]
struct Seen {
    /// Row-class counts of the settings played.
    hist: [Vec<u64>; 3],
    hands: u64,
    naturals: u64,
    /// Units paid to the declared naturals, per opponent.
    natural_units: u64,
    surrenders: u64,
    /// Ordered pairs of hands that both played, and how often the first scooped the second.
    pairs: u64,
    scoops: u64,
    /// `Σ Π pw` and `Σ Π pl` of the first hand over those pairs, in fixed point.
    predicted_for: u128,
    predicted_against: u128,
    /// Ordered pairs (b, c) of other played hands where the hand scooped b, and of those,
    /// where it scooped c too.
    sweep_base: u64,
    sweep_both: u64,
}

impl Seen {
    fn empty() -> Seen {
        Seen {
            hist: [
                vec![0; FRONT_CLASSES],
                vec![0; FIVE_CLASSES],
                vec![0; FIVE_CLASSES],
            ],
            ..Seen::default()
        }
    }
    fn add(mut self, o: Seen) -> Seen {
        for r in 0..3 {
            self.hist[r]
                .iter_mut()
                .zip(&o.hist[r])
                .for_each(|(x, y)| *x += y);
        }
        self.hands += o.hands;
        self.naturals += o.naturals;
        self.natural_units += o.natural_units;
        self.surrenders += o.surrenders;
        self.pairs += o.pairs;
        self.scoops += o.scoops;
        self.predicted_for += o.predicted_for;
        self.predicted_against += o.predicted_against;
        self.sweep_base += o.sweep_base;
        self.sweep_both += o.sweep_both;
        self
    }
    /// Scoops seen over scoops predicted (1 when nothing was predicted), kept in a sane range.
    fn scoop_factor(&self, predicted: u128) -> f64 {
        let p = predicted as f64 / FIXED;
        if p <= 0.0 || self.scoops == 0 {
            return 1.0;
        }
        (self.scoops as f64 / p).clamp(0.1, 10.0)
    }
    fn sweep_rate(&self) -> f64 {
        self.sweep_both as f64 / self.sweep_base.max(1) as f64
    }
    fn natural_value(&self) -> f64 {
        self.natural_units as f64 / self.naturals.max(1) as f64
    }
}

/// Plays one training iteration's deals with `te` and counts what they show.
fn measure(
    te: &TableEv,
    rules: &Rules,
    cfg: &TrainConfig,
    iter: u64,
    stop: crate::parallel::Stop,
) -> Result<Seen> {
    const CHUNK: usize = 256;
    let n = cfg.players;
    let opp = (n - 1) as f64;
    let iter_seed = mix(cfg.seed, iter.wrapping_add(0x5EED_0000));
    (0..cfg.deals.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            if stop() {
                return Err(Error::Interrupted);
            }
            let mut seen = Seen::empty();
            with_scratch(|scratch| {
                for d in chunk * CHUNK..((chunk + 1) * CHUNK).min(cfg.deals) {
                    let hands = deal(iter_seed, d as u64, n);
                    let mut played: Vec<Split> = Vec::with_capacity(n);
                    for hand in &hands[..n] {
                        seen.hands += 1;
                        let (choice, split, _, value) =
                            decide_table_ev_split(te, rules, &Hand::trusted(*hand), scratch);
                        match choice {
                            Choice::Play => {
                                for row in 0..3 {
                                    seen.hist[row][split.classes[row] as usize] += 1;
                                }
                                played.push(split);
                            }
                            Choice::Declare(_) => {
                                seen.naturals += 1;
                                seen.natural_units += (value / opp).round() as u64;
                            }
                            Choice::Surrender => seen.surrenders += 1,
                        }
                    }
                    let beats = |a: &Split, b: &Split| (0..3).all(|i| a.ranks[i] > b.ranks[i]);
                    for (i, a) in played.iter().enumerate() {
                        let (ps, pc) = te.independent_scoops(&a.classes);
                        for (j, b) in played.iter().enumerate() {
                            if i == j {
                                continue;
                            }
                            seen.pairs += 1;
                            seen.predicted_for += (ps * FIXED) as u128;
                            seen.predicted_against += (pc * FIXED) as u128;
                            if !beats(a, b) {
                                continue;
                            }
                            seen.scoops += 1;
                            for (k, c) in played.iter().enumerate() {
                                if k != i && k != j {
                                    seen.sweep_base += 1;
                                    seen.sweep_both += beats(a, c) as u64;
                                }
                            }
                        }
                    }
                }
            });
            Ok(seen)
        })
        .try_reduce(Seen::empty, |a, b| Ok(a.add(b)))
}

/// One calibration step: plays `cfg.calibration_hands` hands in rounds of `cfg.players` with
/// `te`, settles each round, and fits the map from the formula's value of every played
/// setting to the points it realised.
fn calibrate(
    te: &TableEv,
    rules: &Rules,
    cfg: &TrainConfig,
    step: u64,
    stop: crate::parallel::Stop,
) -> Result<(Calibration, CalibrationStep)> {
    const CHUNK: usize = 256;
    let n = cfg.players;
    let rounds = cfg.calibration_hands.div_ceil(n);
    let seed = mix(cfg.seed, step.wrapping_add(0xCA11_0000));
    // per seat: (formula value if played, predicted value, realised points)
    let seats: Vec<Vec<(Option<f64>, f64, i64)>> = (0..rounds.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            if stop() {
                return Err(Error::Interrupted);
            }
            let mut out = Vec::with_capacity(CHUNK * n);
            for r in chunk * CHUNK..((chunk + 1) * CHUNK).min(rounds) {
                let hands = deal(seed, r as u64, n);
                let decided: Vec<_> = hands[..n]
                    .iter()
                    .map(|&h| {
                        with_scratch(|s| decide_table_ev_split(te, rules, &Hand::trusted(h), s))
                    })
                    .collect();
                let decisions: Vec<_> = decided
                    .iter()
                    .map(|(c, _, codes, _)| decision_of(*c, codes))
                    .collect();
                let totals = settle(&decisions, rules, None, 0)?.raw_totals();
                for ((choice, split, _, value), points) in decided.iter().zip(totals) {
                    let formula = (*choice == Choice::Play).then(|| te.formula(&split.classes));
                    out.push((formula, *value, points));
                }
            }
            Ok(out)
        })
        .collect::<Result<_>>()?;
    let seats: Vec<(Option<f64>, f64, i64)> = seats.into_iter().flatten().collect();
    let mean_predicted = seats.iter().map(|s| s.1).sum::<f64>() / seats.len() as f64;
    let mut by_prediction: Vec<(f64, f64)> = seats.iter().map(|s| (s.1, s.2 as f64)).collect();
    by_prediction.sort_by(|a, b| a.0.total_cmp(&b.0));
    let worst_decile_gap = (0..10)
        .map(|d| {
            let part = &by_prediction[d * seats.len() / 10..(d + 1) * seats.len() / 10];
            let gap: f64 = part.iter().map(|(p, r)| p - r).sum();
            (gap / part.len().max(1) as f64).abs()
        })
        .fold(0.0, f64::max);
    let mut pairs: Vec<(f64, f64)> = seats
        .iter()
        .filter_map(|s| s.0.map(|x| (x, s.2 as f64)))
        .collect();
    let old = &te.tables.model.calibration;
    let map = fit_calibration(&mut pairs, CALIBRATION_BINS)?;
    let moved = map
        .knots()
        .iter()
        .map(|&(x, y)| (y - old.apply(x)).abs())
        .fold(0.0, f64::max);
    Ok((
        map,
        CalibrationStep {
            hands: seats.len(),
            mean_predicted,
            worst_decile_gap,
            moved,
        },
    ))
}

/// Triangular-kernel smoothing over neighbouring classes, normalised to sum 1.
fn smooth(counts: &[u64], radius: usize) -> Vec<f64> {
    let n = counts.len();
    let mut out = vec![0f64; n];
    for (i, o) in out.iter_mut().enumerate() {
        let (mut acc, mut wsum) = (0.0, 0.0);
        let lo = i.saturating_sub(radius);
        for (j, &c) in counts
            .iter()
            .enumerate()
            .take((i + radius + 1).min(n))
            .skip(lo)
        {
            let w = (radius + 1 - i.abs_diff(j)) as f64;
            acc += w * c as f64;
            wsum += w;
        }
        *o = acc / wsum;
    }
    let total: f64 = out.iter().sum();
    if total > 0.0 {
        out.iter_mut().for_each(|x| *x /= total);
    }
    out
}

/// Largest difference between two distributions' cumulative sums.
fn cdf_distance(a: &[f64], b: &[f64]) -> f64 {
    let (mut ca, mut cb, mut worst) = (0.0, 0.0, 0f64);
    for (x, y) in a.iter().zip(b) {
        ca += x;
        cb += y;
        worst = worst.max((ca - cb).abs());
    }
    worst
}
