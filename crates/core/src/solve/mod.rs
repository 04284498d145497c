//! The exhaustive setting solver ([architecture: Data flow](https://chinese-poker.github.io/chinese-poker/architecture/#data-flow)): enumerate a hand's splits, keep the Pareto
//! frontier of rank triples, pick from it with an objective, decide play / natural / surrender.
//!
//! Decisions: under `Declaration::Auto` a held natural is declared. Otherwise a natural is
//! declared when its value (paid by each opponent) beats the best play's value, and a surrender
//! (where allowed) is chosen when paying its cost to each opponent loses less than anything
//! else. `RowValues` values are not points, so under that objective the hand plays unless the
//! rule set declares naturals automatically.

pub mod classes;
pub mod enumerate;
mod explain;
pub mod improve;
pub mod model;
pub mod monte_carlo;
pub mod objective;
#[cfg(feature = "search-stats")]
pub mod search_stats;
mod solved;
pub mod table_ev;
pub mod tables_file;
pub mod tables_id;
pub mod train;

/// The most plays a solution lists (`top_k`).
pub const MAX_TOP_K: usize = 1_000_000;
/// The plays a solution lists when the caller names no number (`Solver.solve`, the service).
pub const DEFAULT_TOP_K: usize = 5;

pub use classes::{Classes, FIVE_CLASSES, FRONT_CLASSES};
pub use enumerate::{Bound, Scratch, Split};
pub use model::{Calibration, Model};
pub use objective::{Budget, Objective, Policy, RowValues, MAX_CANDIDATES, MAX_TIME_LIMIT};
pub use solved::Solved;
pub(crate) use table_ev::TableBound;
pub use table_ev::{canonical_tables_key, tables_key, OutcomeTables, TableEv};
#[cfg(feature = "bundled-tables")]
pub use tables_file::{bundled_files, bundled_tables, load_bundled};
pub use tables_file::{load_shipped, read_tables_file, shipped_tables_path, TablesFile};
pub use tables_id::{TablesId, TablesSource};

use crate::error::{Error, Result};
use crate::hand::Hand;
use crate::naturals::best_natural;
use crate::rules::{Declaration, NaturalKind, Rules};
use crate::score::{settle, Decision};
use crate::setting::Setting;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's reusable scratch buffers.
pub fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|s| f(&mut s.borrow_mut()))
}

/// What the solver decided.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Choice {
    /// Set the cards and compare rows.
    Play,
    /// Declare this natural.
    Declare(NaturalKind),
    /// Give up before the showdown.
    Surrender,
}

/// A candidate setting with its value under the objective.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    /// front, middle, back codes
    #[serde(with = "crate::data::list")]
    pub codes: [u8; 13],
    /// front, middle, back raw ranks of `codes`
    #[serde(rename = "raw_ranks", with = "crate::data::list")]
    pub ranks: [u32; 3],
    /// The setting's value under the objective.
    pub value: f64,
    /// standard error of `value` (Monte Carlo), else 0
    pub stderr: f64,
}

/// The solver's answer for one hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solution {
    /// Data: `decision` and `natural`.
    #[serde(flatten, with = "solved::choice_data")]
    pub choice: Choice,
    /// The 13 cards as front (3), middle (5), back (5) codes: the best play, or the natural's
    /// layout when one is declared. Data: `setting` (its text) and `codes`.
    #[serde(flatten, with = "solved::codes_data")]
    pub codes: [u8; 13],
    /// front, middle, back raw ranks of `codes`.
    #[serde(rename = "raw_ranks", with = "crate::data::list")]
    pub ranks: [u32; 3],
    /// Value of the decision under the objective (points for every objective but `RowValues`).
    pub value: f64,
    /// Standard error of `value`: Monte Carlo only.
    pub stderr: Option<f64>,
    /// The best play's value (the first alternative).
    pub play_value: f64,
    /// The natural held, what each opponent pays for it and its value under the objective.
    #[serde(rename = "natural_held")]
    pub natural: Option<(NaturalKind, u32, f64)>,
    /// Value of surrendering, where the rule set allows it.
    pub surrender_value: Option<f64>,
    /// The best plays, best first (at most the requested number).
    pub alternatives: Vec<Alternative>,
    /// How many settings the objective looked at: those the table objective's bounded search
    /// valued (the frontier where it cannot prune), the frontier (`RowValues`,
    /// `BestResponse`), every legal setting (non-monotone `RowValues`), or the plays Monte
    /// Carlo raced.
    pub candidates: usize,
    /// Monte Carlo samples drawn (0 for the other objectives).
    pub samples: usize,
    /// One of [`Objective::NAMES`].
    #[serde(deserialize_with = "solved::objective_name")]
    pub objective: solved::StaticName,
}

/// The setting of a split of a hand (its codes are the hand's: valid and distinct).
fn setting_of(codes: &[u8; 13]) -> Setting {
    Setting::from_codes(codes).expect("a split of a hand")
}

/// Refuses a table size outside `MIN_PLAYERS..=MAX_PLAYERS`, naming it.
pub fn check_players(players: usize) -> Result<()> {
    use crate::score::{MAX_PLAYERS, MIN_PLAYERS};
    if (MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        Ok(())
    } else {
        Err(Error::InvalidShape {
            what: "players".into(),
            expected: "2 to 4".into(),
            got: players.to_string(),
        })
    }
}

/// The best frontier split under the table objective, and its value. The hot path of batch
/// solving, of Monte Carlo's opponents and of self-play: a search pruned by the value where it
/// is monotone in each row's class, by an envelope of it where it is not but has one
/// ([`TableEv::bounded`]), else the whole frontier valued. Settings are ordered by the formula
/// and only the chosen one is calibrated.
pub fn best_table_ev(te: &TableEv, hand: &[u8; 13], scratch: &mut Scratch) -> (Split, f64) {
    let (split, formula) = if !te.bounded() {
        best_on_frontier(te, hand, scratch)
    } else {
        let value = |c: &[u16; 3]| te.order_value(c);
        scratch.best_split_bounded(hand, te.tables.wheel, &value, &TableBound(te))
    };
    (split, te.calibrate(formula))
}

/// The `k` best frontier splits under the table objective, best first, with their formulas
/// (the order of the table values), and how many settings were valued: the bounded search
/// keeping the `k` best ([`Scratch::top_splits`]) where [`best_table_ev`] prunes, else the
/// whole frontier valued and sorted (stably, so that equal values keep the frontier's order).
pub fn top_table_ev(
    te: &TableEv,
    hand: &[u8; 13],
    scratch: &mut Scratch,
    k: usize,
) -> (Vec<(Split, f64)>, usize) {
    let wheel = te.tables.wheel;
    if !te.bounded() {
        scratch.frontier(hand, wheel);
        let mut all: Vec<(Split, f64)> = scratch
            .frontier
            .iter()
            .map(|s| (*s, te.formula(&s.classes)))
            .collect();
        all.sort_by(|a, b| b.1.total_cmp(&a.1));
        let n = all.len();
        all.truncate(k.max(1));
        return (all, n);
    }
    let value = |c: &[u16; 3]| te.order_value(c);
    scratch.top_splits(hand, wheel, &value, &TableBound(te), k)
}

/// The first frontier split with the strictly largest table formula (the order of the table
/// values: [`TableEv::calibrate`]), and that formula.
pub fn best_on_frontier(te: &TableEv, hand: &[u8; 13], scratch: &mut Scratch) -> (Split, f64) {
    scratch.frontier(hand, te.tables.wheel);
    let mut best = 0;
    let mut best_v = f64::NEG_INFINITY;
    for (i, s) in scratch.frontier.iter().enumerate() {
        let v = te.formula(&s.classes);
        if v > best_v {
            best_v = v;
            best = i;
        }
    }
    (scratch.frontier[best], best_v)
}

/// Fewest Monte Carlo samples: two give a standard error.
pub const MIN_SAMPLES: usize = 2;
/// Most Monte Carlo samples one solve may ask for (about 40 minutes heads-up on one core).
pub const MAX_SAMPLES: usize = 10_000_000;

/// Checks a Monte Carlo sample count: [`MIN_SAMPLES`] to [`MAX_SAMPLES`].
pub fn check_samples(samples: usize) -> Result<()> {
    if (MIN_SAMPLES..=MAX_SAMPLES).contains(&samples) {
        Ok(())
    } else {
        Err(Error::InvalidArgument {
            name: "samples".into(),
            reason: format!(
                "expected {MIN_SAMPLES} to {MAX_SAMPLES} Monte Carlo samples, got {samples}"
            ),
        })
    }
}

/// Solves one hand: the decision, its value and the `top_k` best plays. `players` is the table size (for `BestResponse`, 1 + the opponents given).
/// `rules` must be validated ([`Rules::validate`]); it is not checked again here.
pub fn solve(
    hand: &Hand,
    rules: &Rules,
    players: usize,
    objective: &Objective,
    top_k: usize,
) -> Result<Solution> {
    solve_with_stop(
        hand,
        rules,
        players,
        objective,
        top_k,
        &crate::parallel::never,
    )
}

/// [`solve`] that calls `stop` now and then during long objectives (Monte Carlo) and ends with
/// `Error::Interrupted` when it returns true.
pub fn solve_with_stop(
    hand: &Hand,
    rules: &Rules,
    players: usize,
    objective: &Objective,
    top_k: usize,
    stop: crate::parallel::Stop,
) -> Result<Solution> {
    // the searches read the codes; natural detection the checked hand
    let (checked, hand) = (hand, hand.codes());
    let players = match objective {
        Objective::BestResponse(opps) => opps.len() + 1,
        _ => players,
    };
    check_players(players)?;
    // the table objective's best plays, listed by its bounded search; how many settings it
    // valued
    let table_top = match objective {
        Objective::TableEv(te) => {
            check_tables(te, rules, players)?;
            Some(with_scratch(|s| top_table_ev(te, hand, s, top_k.max(1))))
        }
        // Monte Carlo races the policy's best plays: the same search lists them
        Objective::MonteCarlo {
            budget,
            policy: Policy::TableEv(te),
            ..
        } if budget.candidates > 0 => {
            budget.check()?;
            check_tables(te, rules, players)?;
            Some(with_scratch(|s| {
                top_table_ev(te, hand, s, budget.candidates)
            }))
        }
        _ => None,
    };
    // candidates: the frontier, or every legal setting for non-monotone row values
    let mut splits: Vec<Split> = match &table_top {
        Some((top, _)) => top.iter().map(|&(s, _)| s).collect(),
        None => with_scratch(|s| {
            if let Objective::RowValues(rv) = objective {
                if !rv.monotone {
                    let mut legal = Vec::new();
                    s.legal_settings(hand, rules.wheel, &mut legal);
                    return legal;
                }
            }
            s.frontier(hand, rules.wheel);
            s.frontier.clone()
        }),
    };
    let opp = (players - 1) as f64;
    // the candidate the objective plays, where it is not simply the best value
    let mut first: Option<usize> = None;
    let mut drawn = 0;
    // the order of the splits where it is not that of `values`
    let mut formula: Option<Vec<f64>> = None;
    let values: Vec<(f64, f64)> = match objective {
        Objective::TableEv(te) => {
            // ordered by the formula, as `best_table_ev` chooses (see `TableEv::calibrate`)
            let f: Vec<f64> = table_top
                .iter()
                .flat_map(|(t, _)| t.iter().map(|x| x.1))
                .collect();
            let v = f.iter().map(|&x| (te.calibrate(x), 0.0)).collect();
            formula = Some(f);
            v
        }
        Objective::RowValues(rv) => {
            if rv.wheel != rules.wheel {
                return Err(Error::InvalidRules {
                    field: "wheel".into(),
                    reason: "RowValues were built for the other wheel".into(),
                });
            }
            splits.iter().map(|s| (rv.value(&s.ranks), 0.0)).collect()
        }
        Objective::BestResponse(opps) => {
            let mut out = Vec::with_capacity(splits.len());
            for s in &splits {
                let d = Decision::Play(setting_of(&s.row_codes(hand)));
                out.push((exact(rules, d, opps)?, 0.0));
            }
            out
        }
        Objective::MonteCarlo {
            budget,
            seed,
            policy,
            threads,
        } => {
            budget.check()?;
            let Policy::TableEv(te) = policy;
            check_tables(te, rules, players)?;
            // the table objective's best plays, best first (listed so already where they are a
            // few): its choice is the anchor
            let mut ranked: Vec<(usize, f64)> = splits
                .iter()
                .enumerate()
                .map(|(i, s)| (i, te.formula(&s.classes)))
                .collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            if budget.candidates > 0 {
                ranked.truncate(budget.candidates);
            }
            splits = ranked.iter().map(|&(i, _)| splits[i]).collect();
            let keys: Vec<[u64; 3]> = splits
                .iter()
                .map(|s| monte_carlo::split_keys(rules, hand, s))
                .collect();
            let raced = monte_carlo::race(
                rules, players, policy, hand, &keys, budget, *seed, *threads, stop,
            )?;
            first = Some(raced.chosen);
            drawn = raced.drawn;
            raced.mean.into_iter().zip(raced.stderr).collect()
        }
    };
    // best first; equal values keep frontier order (strongest back first); a raced play that
    // was dropped early (fewer samples) sorts by its mean all the same
    let mut order: Vec<usize> = (0..splits.len()).collect();
    let key = |i: usize| formula.as_ref().map_or(values[i].0, |f| f[i]);
    order.sort_by(|&a, &b| key(b).total_cmp(&key(a)));
    if let Some(f) = first {
        order.retain(|&i| i != f);
        order.insert(0, f);
    }
    let alternatives: Vec<Alternative> = order
        .iter()
        .take(top_k.max(1))
        .map(|&i| Alternative {
            ranks: splits[i].ranks,
            codes: splits[i].row_codes(hand),
            value: values[i].0,
            stderr: values[i].1,
        })
        .collect();
    let best = alternatives[0];
    let is_points = !matches!(objective, Objective::RowValues(_));
    let natural = match best_natural(checked, rules) {
        Some(nm) => {
            let layout = nm.setting.unwrap_or_else(|| setting_of(&best.codes));
            let v = match objective {
                Objective::BestResponse(opps) => exact(
                    rules,
                    Decision::Declare {
                        natural: nm.kind,
                        setting: layout,
                    },
                    opps,
                )?,
                _ => natural_points(&nm, opp),
            };
            Some((nm.kind, nm.value, v, layout))
        }
        None => None,
    };
    let surrender_value = match (rules.surrender, objective) {
        (Some(_), Objective::BestResponse(opps)) => Some(exact(rules, Decision::Surrender, opps)?),
        _ if is_points => surrender_points(rules, opp),
        _ => None,
    };
    let (pick, value) = choose(
        rules,
        best.value,
        natural.as_ref().map(|n| n.2),
        surrender_value,
        is_points,
    );
    let (choice, stderr, codes) = match (pick, &natural) {
        (Pick::Declare, Some((kind, _, _, layout))) => {
            (Choice::Declare(*kind), 0.0, layout.codes())
        }
        (Pick::Surrender, _) => (Choice::Surrender, 0.0, best.codes),
        _ => (Choice::Play, best.stderr, best.codes),
    };
    let ev = crate::eval::Evaluator::new(rules.wheel);
    let ranks = [
        ev.eval_codes(&codes[..3]).raw(),
        ev.eval_codes(&codes[3..8]).raw(),
        ev.eval_codes(&codes[8..]).raw(),
    ];
    Ok(Solution {
        choice,
        codes,
        ranks,
        value,
        stderr: matches!(objective, Objective::MonteCarlo { .. }).then_some(stderr),
        play_value: best.value,
        natural: natural.map(|(k, u, v, _)| (k, u, v)),
        surrender_value,
        alternatives,
        candidates: match (objective, table_top) {
            (Objective::TableEv(_), Some((_, valued))) => valued,
            _ => splits.len(),
        },
        samples: drawn,
        objective: objective.name(),
    })
}

/// What a hand's options are worth to it, valued against every opponent alike (points).
fn natural_points(nm: &crate::naturals::NaturalMatch, opponents: f64) -> f64 {
    nm.value as f64 * opponents
}

/// What surrendering is worth where the rule set allows it: its cost paid to each opponent.
fn surrender_points(rules: &Rules, opponents: f64) -> Option<f64> {
    rules.surrender.map(|cost| -(cost as f64) * opponents)
}

/// One of a hand's three options.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Pick {
    /// Play the best setting.
    Play,
    /// Declare the natural.
    Declare,
    /// Surrender.
    Surrender,
}

/// The one play / declare / surrender rule (module doc), from the values under the objective
/// of the best play, of the natural held (if any) and of surrendering (where allowed): a held
/// natural is declared under [`Declaration::Auto`], or where the values are points (`points`)
/// and it is worth more than the play; else a surrender is chosen where it loses less than the
/// play. Returns the option and its value.
pub fn choose(
    rules: &Rules,
    play: f64,
    natural: Option<f64>,
    surrender: Option<f64>,
    points: bool,
) -> (Pick, f64) {
    if let Some(v) = natural {
        if rules.declaration == Declaration::Auto || (points && v > play) {
            return (Pick::Declare, v);
        }
    }
    match surrender {
        Some(v) if v > play => (Pick::Surrender, v),
        _ => (Pick::Play, play),
    }
}

fn check_tables(te: &TableEv, rules: &Rules, players: usize) -> Result<()> {
    if te.players != players || te.tables.wheel != rules.wheel {
        return Err(Error::InvalidRules {
            field: "tables".into(),
            reason: format!(
                "the tables are for {} players and the {} wheel; solving for {} players and the {} wheel",
                te.players, te.tables.wheel.name(), players, rules.wheel.name()
            ),
        });
    }
    Ok(())
}

/// Seat 0's exact total (before any bankroll cap) for `mine` against the opponents' decisions.
fn exact(rules: &Rules, mine: Decision, opps: &[Decision]) -> Result<f64> {
    let mut all = Vec::with_capacity(opps.len() + 1);
    all.push(mine);
    all.extend(opps.iter().cloned());
    Ok(settle(&all, rules, None, 0)?.raw_totals()[0] as f64)
}

/// The settle-ready decision for a choice and its 13 codes front/middle/back (valid and
/// distinct unless the choice is a surrender, whose codes are not read).
pub fn decision_of(choice: Choice, codes: &[u8; 13]) -> Decision {
    match choice {
        Choice::Play => Decision::Play(setting_of(codes)),
        Choice::Declare(natural) => Decision::Declare {
            natural,
            setting: setting_of(codes),
        },
        Choice::Surrender => Decision::Surrender,
    }
}

/// Batch decision codes: `out_choice`.
pub const BATCH_PLAY: u8 = 0;
/// `out_choice` of a hand that declares a natural.
pub const BATCH_DECLARE: u8 = 1;
/// `out_choice` of a hand that surrenders.
pub const BATCH_SURRENDER: u8 = 2;
/// `out_natural` of a hand that declares nothing.
pub const BATCH_NO_NATURAL: u8 = u8::MAX;

impl Choice {
    /// The data name of the decision (`play`, `declare`, `surrender`).
    pub fn name(self) -> &'static str {
        match self {
            Choice::Play => "play",
            Choice::Declare(_) => "declare",
            Choice::Surrender => "surrender",
        }
    }
    /// The decision code of batch and simulation results.
    pub fn code(self) -> u8 {
        match self {
            Choice::Play => BATCH_PLAY,
            Choice::Declare(_) => BATCH_DECLARE,
            Choice::Surrender => BATCH_SURRENDER,
        }
    }
    /// The declared natural's [`NaturalKind::index`], or [`BATCH_NO_NATURAL`].
    pub fn natural_code(self) -> u8 {
        match self {
            Choice::Declare(k) => k.index(),
            _ => BATCH_NO_NATURAL,
        }
    }
    /// The choice of a decision code and a natural code (read only for a declaration): the
    /// inverse of [`Choice::code`] and [`Choice::natural_code`]. The error says which code is
    /// wrong, for the caller to name the seat.
    pub fn from_codes(choice: u8, natural: u8) -> std::result::Result<Choice, String> {
        match choice {
            BATCH_PLAY => Ok(Choice::Play),
            BATCH_DECLARE => NaturalKind::ALL
                .get(natural as usize)
                .map(|&k| Choice::Declare(k))
                .ok_or_else(|| {
                    if natural == BATCH_NO_NATURAL {
                        "declares a natural but names none".into()
                    } else {
                        format!("unknown natural index {natural}")
                    }
                }),
            BATCH_SURRENDER => Ok(Choice::Surrender),
            c => Err(format!(
                "unknown decision code {c} ({BATCH_PLAY} play, {BATCH_DECLARE} declare, \
                 {BATCH_SURRENDER} surrender)"
            )),
        }
    }
}

/// The table objective's decision for one hand, as the batch path and self-play make it:
/// the best frontier play, then a natural or a surrender by [`choose`]. Returns the decision,
/// the 13 codes front/middle/back (the natural's layout when it has one) and the value.
pub fn decide_table_ev(
    te: &TableEv,
    rules: &Rules,
    hand: &Hand,
    scratch: &mut Scratch,
) -> (Choice, [u8; 13], f64) {
    let (choice, _, codes, value) = decide_table_ev_split(te, rules, hand, scratch);
    (choice, codes, value)
}

/// [`decide_table_ev`] with the best play's split (played or not), for training.
pub fn decide_table_ev_split(
    te: &TableEv,
    rules: &Rules,
    hand: &Hand,
    scratch: &mut Scratch,
) -> (Choice, Split, [u8; 13], f64) {
    let (split, play) = best_table_ev(te, hand.codes(), scratch);
    let codes = split.row_codes(hand.codes());
    let opp = (te.players - 1) as f64;
    let natural = best_natural(hand, rules);
    let (pick, value) = choose(
        rules,
        play,
        natural.as_ref().map(|nm| natural_points(nm, opp)),
        surrender_points(rules, opp),
        true,
    );
    match (pick, natural) {
        (Pick::Declare, Some(nm)) => {
            let codes = nm.setting.map_or(codes, |layout| layout.codes());
            (Choice::Declare(nm.kind), split, codes, value)
        }
        (Pick::Surrender, _) => (Choice::Surrender, split, codes, value),
        _ => (Choice::Play, split, codes, value),
    }
}

/// Hands a batch solve gives each task of its pool at least; a batch of at most this many runs
/// on the calling thread instead, since one task would take it all and handing it to a pool
/// thread (a wake-up and a wait) costs about as much as solving a hand.
pub const BATCH_GRAIN: usize = 64;

/// Batch table-objective solve on a pool of `threads` (see [`crate::parallel::with_threads`]), or
/// on the calling thread for at most [`BATCH_GRAIN`] hands: for each hand, the 13 codes
/// front/middle/back, the value, the decision code ([`BATCH_PLAY`], [`BATCH_DECLARE`],
/// [`BATCH_SURRENDER`]) and the declared natural (its index in `NaturalKind::ALL`, else
/// [`BATCH_NO_NATURAL`]), so that every result can be settled exactly as [`solve`]'s. The
/// caller splits long batches into chunks so that Ctrl-C is seen between them.
#[allow(clippy::too_many_arguments)]
pub fn solve_batch_table_ev(
    threads: Option<usize>,
    te: &TableEv,
    rules: &Rules,
    hands: &[Hand],
    out_codes: &mut [[u8; 13]],
    out_values: &mut [f64],
    out_choice: &mut [u8],
    out_natural: &mut [u8],
) {
    use rayon::prelude::*;
    let one =
        |hand: &Hand, codes: &mut [u8; 13], value: &mut f64, choice: &mut u8, natural: &mut u8| {
            let (c, k, v) = with_scratch(|s| decide_table_ev(te, rules, hand, s));
            *codes = k;
            *value = v;
            *choice = c.code();
            *natural = c.natural_code();
        };
    if hands.len() <= BATCH_GRAIN {
        for (i, hand) in hands.iter().enumerate() {
            let (v, c, n) = (&mut out_values[i], &mut out_choice[i], &mut out_natural[i]);
            one(hand, &mut out_codes[i], v, c, n);
        }
        return;
    }
    crate::parallel::with_threads(threads, || {
        hands
            .par_iter()
            .zip(out_codes.par_iter_mut())
            .zip(out_values.par_iter_mut().zip(out_choice.par_iter_mut()))
            .zip(out_natural.par_iter_mut())
            .with_min_len(BATCH_GRAIN)
            .for_each(|(((h, k), (v, c)), n)| one(h, k, v, c, n))
    });
}
