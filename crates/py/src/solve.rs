//! The solver for Python: single-hand solves per objective, the numpy batch path (GIL released,
//! rayon, Ctrl-C between chunks), frontier / legal-setting listings and table training.

use super::cards::extract_cards;
use super::decision::extract_decisions;
use super::results::PySolution;
use super::rules::PyRules;
use crate::errors::{py_err, OrPyErr};
use crate::interrupt::{interruptible, interruptible_here, interruptible_or_cancelled};
use chinese_poker::error::Error;
use chinese_poker::eval::Wheel;
use chinese_poker::hand::Hand;
use chinese_poker::rules::Rules;
use chinese_poker::solve::improve::{self, Improvement};
use chinese_poker::solve::monte_carlo::{sample_opponents, Opponent};
use chinese_poker::solve::train::{self, train_with_stop, CalibrationStep, Progress, TrainConfig};
use chinese_poker::solve::{
    self as core_solve, canonical_tables_key as core_canonical_tables_key, read_tables_file,
    tables_key as core_tables_key, with_scratch, Classes, Model, Objective, OutcomeTables, Policy,
    RowValues, Solved, Split, TableEv,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

type Pair<'py, A, B> = (Bound<'py, A>, Bound<'py, B>);
type SplitArrays<'py> = Pair<'py, PyArray2<u8>, PyArray2<u32>>;
type BatchArrays<'py> = (
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<u8>>,
);

fn rules_of(rules: Option<&Bound<'_, PyRules>>) -> Rules {
    rules.map(|r| r.get().0.clone()).unwrap_or_default()
}

/// The hand of any card-like input (13 distinct cards, checked here once).
pub fn extract_hand(obj: &Bound<'_, PyAny>) -> PyResult<Hand> {
    Hand::from_cards(&extract_cards(obj)?).py()
}

/// Compiled outcome tables for one rule set and table size (built by `chinese_poker.solver`).
#[pyclass(name = "TableEv", module = "chinese_poker._core", frozen)]
pub struct PyTableEv(pub Arc<TableEv>);

#[pymethods]
impl PyTableEv {
    #[new]
    #[pyo3(signature = (rules, players, front, middle, back, scoop_rate, model = None, source = "file"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: &Bound<'_, PyRules>,
        players: usize,
        front: PyReadonlyArray1<'_, f64>,
        middle: PyReadonlyArray1<'_, f64>,
        back: PyReadonlyArray1<'_, f64>,
        scoop_rate: f64,
        model: Option<&str>,
        source: &str,
    ) -> PyResult<Self> {
        let source = super::results::tables_source(source)?;
        let r = &rules.get().0;
        let dist = [
            front.as_array().to_vec(),
            middle.as_array().to_vec(),
            back.as_array().to_vec(),
        ];
        let model = model
            .map(Model::from_json)
            .transpose()
            .py()?
            .unwrap_or_default();
        let tables = OutcomeTables::new(r.wheel, dist, scoop_rate)
            .py()?
            .with_model(model)
            .py()?;
        TableEv::new(r, players, tables)
            .map(|t| PyTableEv(Arc::new(t.with_source(source))))
            .map_err(py_err)
    }
    #[getter]
    fn players(&self) -> usize {
        self.0.players
    }
    /// Where the tables came from: "file", "installed", "shipped" or "fallback".
    #[getter]
    fn source(&self) -> &'static str {
        self.0.id.source.name()
    }
    /// SHA-256 of the tables' content, 64 hex digits.
    #[getter]
    fn digest(&self) -> &str {
        &self.0.id.digest
    }
    #[getter]
    fn wheel(&self) -> &'static str {
        self.0.tables.wheel.name()
    }
    /// Expected score of a setting with these raw row ranks (front, middle, back).
    fn value(&self, front: u32, middle: u32, back: u32) -> f64 {
        self.0.value(&[front, middle, back])
    }
    /// The measured model (`src/solve/model.rs`) as JSON text.
    #[getter]
    fn model(&self) -> String {
        self.0.tables.model.to_data().to_string()
    }
}

/// The table objective from a tables file read by the core (`solve/tables_file.rs`), for a rule
/// set and table size; raises `InvalidTablesError` naming the file for anything wrong with it.
#[pyfunction]
#[pyo3(signature = (path, rules, players))]
pub fn load_tables(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyRules>>,
    players: &Bound<'_, PyAny>,
) -> PyResult<PyTableEv> {
    // the message of `strategy_tables.py`'s `_path_arg` for the same mistake
    let path: std::path::PathBuf = path.extract().map_err(|_| {
        crate::errors::InvalidTypeError::new_err(format!(
            "path: expected a path (str or os.PathLike), got {}",
            path.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    let players = crate::args::players_arg(players, "players")?;
    let r = rules_of(rules);
    py.detach(|| read_tables_file(&path)?.table_ev(&r, players))
        .map(|t| PyTableEv(Arc::new(t)))
        .map_err(py_err)
}

/// Per-row values by rank class (built by `chinese_poker.solver.RowValues`).
#[pyclass(name = "RowValues", module = "chinese_poker._core", frozen)]
pub struct PyRowValues(pub Arc<RowValues>);

#[pymethods]
impl PyRowValues {
    #[new]
    fn new(
        wheel: &str,
        front: PyReadonlyArray1<'_, f64>,
        middle: PyReadonlyArray1<'_, f64>,
        back: PyReadonlyArray1<'_, f64>,
    ) -> PyResult<Self> {
        let w = super::eval::parse_wheel(wheel)?;
        let values = [
            front.as_array().to_vec(),
            middle.as_array().to_vec(),
            back.as_array().to_vec(),
        ];
        RowValues::new(w, values)
            .map(|v| PyRowValues(Arc::new(v)))
            .map_err(py_err)
    }
    #[getter]
    fn monotone(&self) -> bool {
        self.0.monotone
    }
}

/// The raw ranks of every class, weakest first: (front: 455, five-card: 7,462) uint32 arrays.
#[pyfunction]
#[pyo3(signature = (wheel = None), text_signature = "(wheel='low')")]
pub fn rank_classes<'py>(
    py: Python<'py>,
    wheel: Option<&Bound<'py, PyAny>>,
) -> PyResult<Pair<'py, PyArray1<u32>, PyArray1<u32>>> {
    let c = Classes::get(super::eval::wheel_arg(wheel)?);
    Ok((
        PyArray1::from_vec(py, c.front.clone()),
        PyArray1::from_vec(py, c.five.clone()),
    ))
}

fn splits_arrays<'py>(
    py: Python<'py>,
    hand: &[u8; 13],
    splits: &[Split],
) -> PyResult<SplitArrays<'py>> {
    let mut codes = Vec::with_capacity(splits.len() * 13);
    let mut ranks = Vec::with_capacity(splits.len() * 3);
    for s in splits {
        codes.extend_from_slice(&s.row_codes(hand));
        ranks.extend_from_slice(&s.ranks);
    }
    Ok((
        PyArray1::from_vec(py, codes).reshape([splits.len(), 13])?,
        PyArray1::from_vec(py, ranks).reshape([splits.len(), 3])?,
    ))
}

/// Runs one enumeration of the solver's scratch on a checked hand, without the GIL, and returns
/// its splits as arrays; `legal_settings` and `frontier` differ only in `collect`.
fn hand_splits<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    wheel: Option<&Bound<'py, PyAny>>,
    collect: impl FnOnce(&mut core_solve::Scratch, &[u8; 13], Wheel) -> Vec<Split> + Send,
) -> PyResult<SplitArrays<'py>> {
    let w = super::eval::wheel_arg(wheel)?;
    let h = *extract_hand(hand)?.codes();
    let out = py.detach(|| with_scratch(|s| collect(s, &h, w)));
    splits_arrays(py, &h, &out)
}

/// Every legal setting of a hand: (codes (N, 13) front/middle/back, raw ranks (N, 3)).
#[pyfunction]
#[pyo3(signature = (hand, wheel = None), text_signature = "(hand, wheel='low')")]
pub fn legal_settings<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    wheel: Option<&Bound<'py, PyAny>>,
) -> PyResult<SplitArrays<'py>> {
    hand_splits(py, hand, wheel, |s, h, w| {
        let mut out = Vec::new();
        s.legal_settings(h, w, &mut out);
        out
    })
}

/// The Pareto frontier of a hand's legal settings, strongest back first (same arrays).
#[pyfunction]
#[pyo3(signature = (hand, wheel = None), text_signature = "(hand, wheel='low')")]
pub fn frontier<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    wheel: Option<&Bound<'py, PyAny>>,
) -> PyResult<SplitArrays<'py>> {
    hand_splits(py, hand, wheel, |s, h, w| {
        s.frontier(h, w);
        s.frontier.clone()
    })
}

/// An objective compiled for the core: built once from `chinese_poker.solver`'s objective
/// classes (tables loaded, opponents' decisions converted) and reused for every hand.
#[pyclass(name = "Objective", module = "chinese_poker._core", frozen)]
pub struct PyObjective(pub Objective);

#[pymethods]
impl PyObjective {
    /// Expected score against the table from these outcome tables.
    #[staticmethod]
    fn table_ev(table: &Bound<'_, PyTableEv>) -> Self {
        PyObjective(Objective::TableEv(table.get().0.clone()))
    }
    /// Sum of per-row values.
    #[staticmethod]
    fn row_values(values: &Bound<'_, PyRowValues>) -> Self {
        PyObjective(Objective::RowValues(values.get().0.clone()))
    }
    /// Exact score against 1 to 3 known opponents (seats 1..; the solved hand is seat 0), each a
    /// `Setting`, `Declare`, `Surrender` or `(front, middle, back)`.
    #[staticmethod]
    fn best_response(opponents: &Bound<'_, PyAny>) -> PyResult<Self> {
        let opps = extract_decisions(opponents, "BestResponse opponents", 1)?;
        if !(1..=3).contains(&opps.len()) {
            return Err(py_err(Error::InvalidShape {
                what: "BestResponse opponents".into(),
                expected: "1 to 3 opponents".into(),
                got: opps.len().to_string(),
            }));
        }
        Ok(PyObjective(Objective::BestResponse(opps)))
    }
    /// Mean score over at most `samples` sampled deals, opponents decided by the table policy,
    /// raced over the table's best `candidates` plays at `confidence`, stopped after
    /// `time_limit` seconds if given (`Budget`; `None`: the core's default).
    #[staticmethod]
    #[pyo3(signature = (table, samples, seed, threads = None, confidence = None, candidates = None, time_limit = None))]
    #[allow(clippy::too_many_arguments)]
    fn monte_carlo(
        table: &Bound<'_, PyTableEv>,
        samples: Option<&Bound<'_, PyAny>>,
        seed: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
        confidence: Option<&Bound<'_, PyAny>>,
        candidates: Option<&Bound<'_, PyAny>>,
        time_limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let budget = budget_arg(samples, confidence, candidates, time_limit)?;
        let seed = crate::args::seed_arg(seed, "seed")?;
        Ok(PyObjective(Objective::MonteCarlo {
            budget,
            seed,
            policy: Policy::TableEv(table.get().0.clone()),
            threads: crate::args::threads_arg(threads)?,
        }))
    }
    /// "TableEV", "RowValues", "BestResponse" or "MonteCarlo".
    #[getter]
    fn name(&self) -> &'static str {
        self.0.name()
    }
    /// The table size the objective fixes (its tables', or 1 + the opponents given); `None`
    /// for row values, which fit any table.
    #[getter]
    fn players(&self) -> Option<usize> {
        match &self.0 {
            Objective::TableEv(te) => Some(te.players),
            Objective::MonteCarlo {
                policy: Policy::TableEv(te),
                ..
            } => Some(te.players),
            Objective::BestResponse(opps) => Some(opps.len() + 1),
            Objective::RowValues(_) => None,
        }
    }
    /// The strategy tables this objective plays with (`TablesId`), `None` where it uses none.
    #[getter]
    fn tables(&self) -> Option<super::results::PyTablesId> {
        self.0.tables().cloned().map(super::results::PyTablesId)
    }
    fn __repr__(&self) -> String {
        format!("Objective('{}')", self.0.name())
    }
}

fn top_k_arg(top_k: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match top_k {
        None => Ok(core_solve::DEFAULT_TOP_K),
        Some(k) => Ok(crate::args::int_arg(k, "top_k", 1, core_solve::MAX_TOP_K as i128)? as usize),
    }
}

/// Seconds per hand of the core's `solve` alone on these hands (top_k plays, as `solve` from
/// Python lists them), the median of 5 passes with the GIL released: the baseline `make bench`
/// compares Python's per-call `solve` with, in the same process. Not part of the public API.
#[pyfunction]
pub fn solve_seconds(
    py: Python<'_>,
    codes: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
    players: &Bound<'_, PyAny>,
    objective: &Bound<'_, PyObjective>,
    top_k: &Bound<'_, PyAny>,
) -> PyResult<f64> {
    let (flat, _) = super::arrays::u8_rows(codes, "codes", &[13])?;
    let hands = Hand::rows(&flat, "codes").py()?;
    let players = crate::args::players_arg(players, "players")?;
    let top_k = top_k_arg(Some(top_k))?;
    let (r, objective) = (&rules.get().0, &objective.get().0);
    if let Some(h) = hands.first() {
        core_solve::solve(h, r, players, objective, top_k).py()?;
    }
    let mut runs: Vec<f64> = py.detach(|| {
        (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                for h in &hands {
                    let s =
                        core_solve::solve(std::hint::black_box(h), r, players, objective, top_k);
                    std::hint::black_box(s.ok());
                }
                start.elapsed().as_secs_f64() / hands.len().max(1) as f64
            })
            .collect()
    });
    runs.sort_by(f64::total_cmp);
    Ok(runs[runs.len() / 2])
}

/// Solves one hand for any objective: the decision, its value and the `top_k` best plays.
/// Heavy objectives (Monte Carlo, best response) run without the GIL; Monte Carlo checks for
/// Ctrl-C between blocks of samples.
#[pyfunction]
#[pyo3(signature = (hand, rules, players, objective, top_k = None, rules_name = "custom", cancel = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
    players: &Bound<'_, PyAny>,
    objective: &Bound<'_, PyObjective>,
    top_k: Option<&Bound<'_, PyAny>>,
    rules_name: &str,
    cancel: Option<Py<PyAny>>,
) -> PyResult<PySolution> {
    let h = extract_hand(hand)?;
    let top_k = top_k_arg(top_k)?;
    let objective = &objective.get().0;
    let players = match objective {
        Objective::BestResponse(opps) => opps.len() + 1,
        _ => crate::args::players_arg(players, "players")?,
    };
    let r = &rules.get().0;
    if let (Objective::TableEv(_), 2..) = (objective, top_k) {
        // the best play now, by the search `solve_batch` runs; the listing when first read
        let best = core_solve::solve(&h, r, players, objective, 1).py()?;
        let best = Solved::new(best, players, rules_name, &rules.get().1, objective);
        let (rules, objective, name) = (
            rules.clone().unbind(),
            objective.clone(),
            best.rules.clone(),
        );
        return Ok(PySolution::listed_later(best, move || {
            let r = rules.get();
            let listed = core_solve::solve(&h, &r.0, players, &objective, top_k).ok()?;
            Some(Solved::new(listed, players, &name, &r.1, &objective))
        }));
    }
    let sol = match objective {
        Objective::MonteCarlo { threads, .. } => {
            let work = |stop: chinese_poker::parallel::Stop| {
                core_solve::solve_with_stop(&h, r, players, objective, top_k, stop)
            };
            match chinese_poker::parallel::on_caller(*threads) {
                true => interruptible_here(py, cancel.as_ref(), work)?,
                false => interruptible_or_cancelled(py, cancel.as_ref(), work)?,
            }
        }
        Objective::BestResponse(_) => {
            py.detach(|| core_solve::solve(&h, r, players, objective, top_k))
        }
        _ => core_solve::solve(&h, r, players, objective, top_k),
    }
    .py()?;
    Ok(PySolution::new(Solved::new(
        sol,
        players,
        rules_name,
        &rules.get().1,
        objective,
    )))
}

/// The opponents Monte Carlo sample `index` deals and sets for `hand`: a list of
/// ("play", 13 codes), ("declare", natural, 13 codes) or ("surrender", 13 codes).
#[pyfunction]
pub fn monte_carlo_opponents<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyRules>>,
    table: &Bound<'py, PyTableEv>,
    seed: &Bound<'py, PyAny>,
    index: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let h = extract_hand(hand)?;
    let seed = crate::args::seed_arg(seed, "seed")?;
    let index = crate::args::seed_arg(index, "index")?;
    let r = rules_of(rules);
    let te = table.get().0.clone();
    let players = te.players;
    let (policy, h) = (Policy::TableEv(te), h.codes());
    let opps = with_scratch(|s| sample_opponents(&r, players, &policy, h, seed, index, s));
    let out = PyList::empty(py);
    // lists of ints, not the `bytes` PyO3 makes of a `Vec<u8>`: a `Setting` reads them as codes
    let list = |codes: [u8; 13]| PyList::new(py, codes);
    for o in opps {
        match o {
            Opponent::Played { codes, .. } => out.append(("play", list(codes)?))?,
            Opponent::Natural { kind, codes, .. } => {
                out.append(("declare", kind.name(), list(codes)?))?
            }
            Opponent::Surrendered { codes } => out.append(("surrender", list(codes)?))?,
        }
    }
    Ok(out)
}

/// Table-objective solve of an (N, 13) uint8 array of hands: (settings (N, 13) front/middle/back
/// codes, values (N,) float64, choices (N,) uint8: 0 play, 1 declare, 2 surrender, naturals (N,)
/// uint8: the declared natural's index in `NATURAL_NAMES`, 255 for none).
#[pyfunction]
#[pyo3(signature = (codes, rules, objective, threads = None))]
pub fn solve_batch<'py>(
    py: Python<'py>,
    codes: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
    objective: &Bound<'py, PyObjective>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<BatchArrays<'py>> {
    let threads = crate::args::threads_arg(threads)?;
    let Objective::TableEv(te) = &objective.get().0 else {
        return Err(py_err(Error::InvalidArgument {
            name: "objective".into(),
            reason: format!(
                "only the TableEV objective runs in batches, got {}",
                objective.get().0.name()
            ),
        }));
    };
    let (flat, _) = super::arrays::u8_rows(codes, "codes", &[13])?;
    let r = &rules.get().0;
    core_solve::check_players(te.players).py()?;
    let n = flat.len() / 13;
    let mut out_codes = vec![[0u8; 13]; n];
    let mut values = vec![0f64; n];
    let mut choices = vec![0u8; n];
    let mut naturals = vec![0u8; n];
    let hands = py.detach(|| Hand::rows(&flat, "codes")).py()?;
    if te.tables.wheel != r.wheel {
        return Err(py_err(Error::InvalidRules {
            field: "tables".into(),
            reason: "the tables were trained for the other wheel".into(),
        }));
    }
    // Chunks keep Ctrl-C responsive: signals are checked, with the GIL, between them.
    const CHUNK: usize = 8192;
    let mut start = 0;
    while start < n {
        let end = (start + CHUNK).min(n);
        let (h, c) = (&hands[start..end], &mut out_codes[start..end]);
        let (v, ch) = (&mut values[start..end], &mut choices[start..end]);
        let nat = &mut naturals[start..end];
        py.detach(|| core_solve::solve_batch_table_ev(threads, te, r, h, c, v, ch, nat));
        py.check_signals()?;
        start = end;
    }
    let flat: Vec<u8> = out_codes.into_iter().flatten().collect();
    Ok((
        PyArray1::from_vec(py, flat).reshape([n, 13])?,
        PyArray1::from_vec(py, values),
        PyArray1::from_vec(py, choices),
        PyArray1::from_vec(py, naturals),
    ))
}

/// A Monte Carlo budget from Python values (`None`: the core's default), checked by the core's
/// `Budget::check`: the one check of these bounds, for the binding and the `MonteCarlo` type.
fn budget_arg(
    samples: Option<&Bound<'_, PyAny>>,
    confidence: Option<&Bound<'_, PyAny>>,
    candidates: Option<&Bound<'_, PyAny>>,
    time_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<core_solve::Budget> {
    let defaults = core_solve::Budget::default();
    let time_limit = match time_limit.filter(|t| !t.is_none()) {
        Some(t) => {
            let seconds = crate::args::number_arg(t, "time_limit")?;
            core_solve::Budget::check_time_limit(seconds).py()?;
            Some(std::time::Duration::from_secs_f64(seconds))
        }
        None => None,
    };
    let samples = match samples.filter(|s| !s.is_none()) {
        Some(s) => {
            let (lo, hi) = (core_solve::MIN_SAMPLES, core_solve::MAX_SAMPLES);
            crate::args::int_arg(s, "samples", lo as i128, hi as i128)? as usize
        }
        None => core_solve::Budget::default_samples(time_limit),
    };
    let confidence = match confidence.filter(|c| !c.is_none()) {
        Some(c) => crate::args::number_arg(c, "confidence")?,
        None => defaults.confidence,
    };
    let candidates = match candidates.filter(|c| !c.is_none()) {
        Some(c) => {
            crate::args::int_arg(c, "candidates", 0, core_solve::MAX_CANDIDATES as i128)? as usize
        }
        None => defaults.candidates,
    };
    let budget = core_solve::Budget {
        samples,
        confidence,
        candidates,
        time_limit,
    };
    budget.check().py()?;
    Ok(budget)
}

/// Checks a Monte Carlo budget as `Objective.monte_carlo` does, raising the core's message;
/// `None` stands for the core's default.
#[pyfunction]
#[pyo3(signature = (samples = None, confidence = None, candidates = None, time_limit = None))]
pub fn check_budget(
    samples: Option<&Bound<'_, PyAny>>,
    confidence: Option<&Bound<'_, PyAny>>,
    candidates: Option<&Bound<'_, PyAny>>,
    time_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    budget_arg(samples, confidence, candidates, time_limit).map(|_| ())
}

/// Trains outcome tables by self-play; returns a dict with the three row distributions (float64
/// arrays), `scoop_rate`, `iterations`, `deltas`, `improvement` (a dict, or `None`) and the
/// `key`. `progress(phase, step, report)` is called after each fictitious-play iteration, after
/// the improvement phase and after each calibration step (with the GIL; see
/// [`progress_report`]); Ctrl-C stops training. `start`: compiled tables to start from instead
/// of fictitious play.
#[pyfunction]
#[pyo3(signature = (rules, players, seed = None, deals = None, min_iters = None, max_iters = None, tol = None, threads = None, progress = None, calibration_hands = None, calibration_iters = None, start = None, improve_hands = None, improve_samples = None))]
#[allow(clippy::too_many_arguments)]
pub fn train_tables<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyRules>>,
    players: usize,
    seed: Option<&Bound<'py, PyAny>>,
    deals: Option<&Bound<'py, PyAny>>,
    min_iters: Option<usize>,
    max_iters: Option<usize>,
    tol: Option<f64>,
    threads: Option<&Bound<'py, PyAny>>,
    progress: Option<Py<PyAny>>,
    calibration_hands: Option<&Bound<'py, PyAny>>,
    calibration_iters: Option<&Bound<'py, PyAny>>,
    start: Option<&Bound<'py, PyTableEv>>,
    improve_hands: Option<&Bound<'py, PyAny>>,
    improve_samples: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let defaults = TrainConfig::default();
    let improve_hands = match improve_hands {
        Some(h) => {
            crate::args::int_arg(h, "improve_hands", 0, improve::MAX_HANDS as i128)? as usize
        }
        None => defaults.improve_hands,
    };
    let improve_samples = match improve_samples {
        Some(s) => crate::args::int_arg(
            s,
            "improve_samples",
            core_solve::MIN_SAMPLES as i128,
            core_solve::MAX_SAMPLES as i128,
        )? as usize,
        None => defaults.improve_samples,
    };
    let deals = match deals {
        Some(d) => crate::args::int_arg(d, "deals", 1, train::MAX_DEALS as i128)? as usize,
        None => defaults.deals,
    };
    let calibration_hands = match calibration_hands {
        Some(h) => {
            let max = train::MAX_CALIBRATION_HANDS as i128;
            crate::args::int_arg(h, "calibration_hands", 0, max)? as usize
        }
        None => train::CALIBRATION_HANDS_PER_DEAL * deals,
    };
    let calibration_iters = match calibration_iters {
        Some(h) => {
            let max = train::MAX_CALIBRATION_STEPS as i128;
            crate::args::int_arg(h, "calibration_iters", 0, max)? as usize
        }
        None => defaults.calibration_iters,
    };
    let threads = crate::args::threads_arg(threads)?;
    let seed = match seed {
        Some(s) => crate::args::seed_arg(s, "seed")?,
        None => 0,
    };
    let r = rules_of(rules);
    let cfg = TrainConfig {
        players,
        seed,
        deals,
        min_iters: min_iters.unwrap_or(defaults.min_iters),
        max_iters: max_iters.unwrap_or(defaults.max_iters),
        tol: tol.unwrap_or(defaults.tol),
        calibration_hands,
        calibration_iters,
        start: start.map(|t| t.get().0.tables.clone()),
        improve_hands,
        improve_samples,
        ..defaults
    };
    // the callback runs on the training thread; Ctrl-C is seen by the calling thread, which
    // stops training within a chunk of deals (see `interrupt::interruptible`)
    let mut callback_err: Option<PyErr> = None;
    let report = interruptible(py, |stop| {
        chinese_poker::parallel::with_threads(threads, || {
            train_with_stop(
                &r,
                &cfg,
                &mut |done| {
                    let Some(f) = &progress else { return true };
                    Python::attach(|py| {
                        let called = progress_report(py, done).and_then(|report| {
                            f.call1(py, (done.phase().name(), done.step(), report))
                        });
                        match called {
                            Ok(_) => true,
                            Err(e) => {
                                callback_err = Some(e);
                                false
                            }
                        }
                    })
                },
                stop,
            )
        })
    })?;
    if let Some(e) = callback_err {
        return Err(e);
    }
    let report = report.py()?;
    let d = PyDict::new(py);
    let [f, m, b] = report.tables.dist;
    d.set_item("front", PyArray1::from_vec(py, f))?;
    d.set_item("middle", PyArray1::from_vec(py, m))?;
    d.set_item("back", PyArray1::from_vec(py, b))?;
    d.set_item("scoop_rate", report.tables.scoop_rate)?;
    d.set_item("model", report.tables.model.to_data().to_string())?;
    let steps = PyList::empty(py);
    for c in &report.calibration {
        steps.append(calibration_step(py, c)?)?;
    }
    d.set_item("calibration", steps)?;
    match &report.improvement {
        Some(imp) => d.set_item("improvement", improvement(py, imp)?)?,
        None => d.set_item("improvement", py.None())?,
    }
    d.set_item("iterations", report.iterations)?;
    d.set_item("deltas", report.deltas)?;
    d.set_item("key", core_tables_key(&r, players))?;
    d.set_item("wheel", r.wheel.name())?;
    Ok(d)
}

/// One calibration step as a dict: what `meta["calibration"]` lists and the progress callback
/// is given.
fn calibration_step<'py>(py: Python<'py>, c: &CalibrationStep) -> PyResult<Bound<'py, PyDict>> {
    let step = PyDict::new(py);
    step.set_item("hands", c.hands)?;
    step.set_item("mean_predicted", c.mean_predicted)?;
    step.set_item("worst_decile_gap", c.worst_decile_gap)?;
    step.set_item("moved", c.moved)?;
    Ok(step)
}

/// What the improvement phase measured, as `meta["improvement"]` records it and the progress
/// callback is given.
fn improvement<'py>(py: Python<'py>, imp: &Improvement) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("hands", imp.hands)?;
    d.set_item("skipped", imp.skipped)?;
    d.set_item("samples", imp.samples)?;
    d.set_item("factors", imp.factors)?;
    d.set_item("passes", imp.passes)?;
    d.set_item("fitted_gain", imp.fitted)?;
    d.set_item("held_out_hands", imp.held_out_hands)?;
    d.set_item("held_out_gain", imp.held_out.0)?;
    d.set_item("held_out_interval", imp.held_out.1)?;
    d.set_item("changed", imp.changed)?;
    d.set_item("kept", imp.kept)?;
    Ok(d)
}

/// The `report` the progress callback is given: after an iteration `delta` and `converged`,
/// after the improvement phase its figures (as `meta["improvement"]` records them), after a
/// calibration step its figures (as `meta["calibration"]` lists them) and `steps`, the number
/// of steps.
fn progress_report<'py>(py: Python<'py>, done: &Progress) -> PyResult<Bound<'py, PyDict>> {
    match *done {
        Progress::Iteration {
            delta, converged, ..
        } => {
            let d = PyDict::new(py);
            d.set_item("delta", delta)?;
            d.set_item("converged", converged)?;
            Ok(d)
        }
        Progress::Improvement(imp) => improvement(py, imp),
        Progress::Calibration { steps, report, .. } => {
            let d = calibration_step(py, report)?;
            d.set_item("steps", steps)?;
            Ok(d)
        }
    }
}

/// The text key of the rule-set fields the tables depend on (equal keys share tables).
#[pyfunction]
pub fn tables_key(rules: Option<&Bound<'_, PyRules>>, players: usize) -> String {
    core_tables_key(&rules_of(rules), players)
}

/// A key read from a tables file or index, as `tables_key` writes it now (older keys listed
/// the naturals in the order of the rule set's data).
#[pyfunction]
pub fn canonical_tables_key(key: &str) -> String {
    core_canonical_tables_key(key)
}
