//! The solver for Python: single-hand solves per objective, the numpy batch path (GIL released,
//! rayon, Ctrl-C between chunks), frontier / legal-setting listings and table training.

use super::cards::extract_cards;
use super::rules::PyRules;
use crate::card::{validate_rows, Card};
use crate::error::Error;
use crate::eval::Wheel;
use crate::rules::{NaturalKind, Rules};
use crate::score::Decision;
use crate::setting::Setting;
use crate::solve::monte_carlo::{sample_opponents, Opponent};
use crate::solve::train::{train, TrainConfig};
use crate::solve::{
    self, tables_key as core_tables_key, with_scratch, Choice, Classes, Objective, OutcomeTables,
    Policy, RowValues, Solution, Split, TableEv,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::Arc;

type Pair<'py, A, B> = (Bound<'py, A>, Bound<'py, B>);
type SplitArrays<'py> = Pair<'py, PyArray2<u8>, PyArray2<u32>>;
type BatchArrays<'py> = (
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<u8>>,
);

fn rules_of(rules: Option<&Bound<'_, PyRules>>) -> Rules {
    rules.map(|r| r.get().0.clone()).unwrap_or_default()
}

fn wheel_name(w: Wheel) -> &'static str {
    w.name()
}

/// 13 distinct cards from any card-like input.
fn extract_hand(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 13]> {
    let cards = extract_cards(obj)?;
    let codes: Vec<u8> = cards.iter().map(|c| c.code()).collect();
    codes
        .try_into()
        .map_err(|v: Vec<u8>| Error::InvalidShape {
            what: "hand".into(),
            expected: "13 cards".into(),
            got: format!("{} cards", v.len()),
        })
        .map_err(PyErr::from)
}

/// Compiled outcome tables for one rule set and table size (built by `chinese_poker.solver`).
#[pyclass(name = "TableEv", module = "chinese_poker._core", frozen)]
pub struct PyTableEv(pub Arc<TableEv>);

#[pymethods]
impl PyTableEv {
    #[new]
    fn new(
        rules: &Bound<'_, PyRules>,
        players: usize,
        front: PyReadonlyArray1<'_, f64>,
        middle: PyReadonlyArray1<'_, f64>,
        back: PyReadonlyArray1<'_, f64>,
        scoop_rate: f64,
    ) -> PyResult<Self> {
        let r = &rules.get().0;
        let dist = [
            front.as_array().to_vec(),
            middle.as_array().to_vec(),
            back.as_array().to_vec(),
        ];
        let tables = OutcomeTables::new(r.wheel, dist, scoop_rate)?;
        TableEv::new(r, players, tables)
            .map(|t| PyTableEv(Arc::new(t)))
            .map_err(PyErr::from)
    }
    #[getter]
    fn players(&self) -> usize {
        self.0.players
    }
    #[getter]
    fn wheel(&self) -> &'static str {
        wheel_name(self.0.tables.wheel)
    }
    /// Expected score of a setting with these raw row ranks (front, middle, back).
    fn value(&self, front: u32, middle: u32, back: u32) -> f64 {
        self.0.value(&[front, middle, back])
    }
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
            .map_err(PyErr::from)
    }
    #[getter]
    fn monotone(&self) -> bool {
        self.0.monotone
    }
}

/// The raw ranks of every class, weakest first: (front: 455, five-card: 7,462) uint32 arrays.
#[pyfunction]
#[pyo3(signature = (wheel = "low"))]
pub fn rank_classes<'py>(
    py: Python<'py>,
    wheel: &str,
) -> PyResult<Pair<'py, PyArray1<u32>, PyArray1<u32>>> {
    let c = Classes::get(super::eval::parse_wheel(wheel)?);
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
    wheel: &str,
    collect: impl FnOnce(&mut solve::Scratch, &[u8; 13], Wheel) -> Vec<Split> + Send,
) -> PyResult<SplitArrays<'py>> {
    let w = super::eval::parse_wheel(wheel)?;
    let h = extract_hand(hand)?;
    let out = py.detach(|| with_scratch(|s| collect(s, &h, w)));
    splits_arrays(py, &h, &out)
}

/// Every legal setting of a hand: (codes (N, 13) front/middle/back, raw ranks (N, 3)).
#[pyfunction]
#[pyo3(signature = (hand, wheel = "low"))]
pub fn legal_settings<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    wheel: &str,
) -> PyResult<SplitArrays<'py>> {
    hand_splits(py, hand, wheel, |s, h, w| {
        let mut out = Vec::new();
        s.legal_settings(h, w, &mut out);
        out
    })
}

/// The Pareto frontier of a hand's legal settings, strongest back first (same arrays).
#[pyfunction]
#[pyo3(signature = (hand, wheel = "low"))]
pub fn frontier<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    wheel: &str,
) -> PyResult<SplitArrays<'py>> {
    hand_splits(py, hand, wheel, |s, h, w| {
        s.frontier(h, w);
        s.frontier.clone()
    })
}

fn choice_parts(c: Choice) -> (&'static str, Option<&'static str>) {
    match c {
        Choice::Play => ("play", None),
        Choice::Declare(k) => ("declare", Some(k.key())),
        Choice::Surrender => ("surrender", None),
    }
}

fn solution_dict<'py>(py: Python<'py>, s: &Solution) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let (choice, natural) = choice_parts(s.choice);
    d.set_item("choice", choice)?;
    d.set_item("declared", natural)?;
    d.set_item("codes", s.codes.to_vec())?;
    d.set_item("ranks", s.ranks.to_vec())?;
    d.set_item("value", s.value)?;
    d.set_item("stderr", s.stderr)?;
    d.set_item("play_value", s.play_value)?;
    d.set_item(
        "natural",
        s.natural.map(|(k, units, v)| (k.key(), units, v)),
    )?;
    d.set_item("surrender_value", s.surrender_value)?;
    let alts = PyList::empty(py);
    for a in &s.alternatives {
        alts.append((a.codes.to_vec(), a.split.ranks.to_vec(), a.value, a.stderr))?;
    }
    d.set_item("alternatives", alts)?;
    d.set_item("candidates", s.candidates)?;
    d.set_item("objective", s.objective)?;
    Ok(d)
}

fn run_solve<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyRules>>,
    players: usize,
    objective: Objective,
    top_k: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let h = extract_hand(hand)?;
    let r = rules_of(rules);
    let heavy = matches!(
        objective,
        Objective::MonteCarlo { .. } | Objective::BestResponse(_)
    );
    let sol = if heavy {
        py.detach(|| solve::solve(&h, &r, players, &objective, top_k))
    } else {
        solve::solve(&h, &r, players, &objective, top_k)
    };
    solution_dict(py, &sol?)
}

/// Solves one hand for the table objective.
#[pyfunction]
#[pyo3(signature = (hand, rules, table, top_k = 5))]
pub fn solve_table_ev<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyRules>>,
    table: &Bound<'py, PyTableEv>,
    top_k: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let te = table.get().0.clone();
    let players = te.players;
    run_solve(py, hand, rules, players, Objective::TableEv(te), top_k)
}

/// Solves one hand for user row values.
#[pyfunction]
#[pyo3(signature = (hand, rules, values, players = 4, top_k = 5))]
pub fn solve_row_values<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyRules>>,
    values: &Bound<'py, PyRowValues>,
    players: usize,
    top_k: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let rv = values.get().0.clone();
    run_solve(py, hand, rules, players, Objective::RowValues(rv), top_k)
}

fn setting_from_codes(player: usize, codes: &[u8]) -> PyResult<Setting> {
    let bad = |why: String| Error::InvalidDecision {
        player,
        reason: why,
    };
    if codes.len() != 13 {
        return Err(PyErr::from(bad(format!(
            "expected 13 cards, got {}",
            codes.len()
        ))));
    }
    let cards = codes
        .iter()
        .map(|&c| Card::from_code(c))
        .collect::<crate::error::Result<Vec<Card>>>()?;
    Setting::new(&cards[..3], &cards[3..8], &cards[8..]).map_err(PyErr::from)
}

/// Opponent decisions as tuples: ("play", 13 codes), ("declare", natural, 13 codes),
/// ("surrender",). Seat numbers in errors start at 1 (the solved hand is seat 0).
fn extract_opponent(player: usize, item: &Bound<'_, PyAny>) -> PyResult<Decision> {
    let t = item.cast::<PyTuple>()?;
    let tag: String = t.get_item(0)?.extract()?;
    match tag.as_str() {
        "surrender" => Ok(Decision::Surrender),
        "play" => {
            let codes: Vec<u8> = t.get_item(1)?.extract()?;
            Ok(Decision::Play(setting_from_codes(player, &codes)?))
        }
        "declare" => {
            let key: String = t.get_item(1)?.extract()?;
            let natural = NaturalKind::from_key(&key)?;
            let codes: Vec<u8> = t.get_item(2)?.extract()?;
            Ok(Decision::Declare {
                natural,
                setting: setting_from_codes(player, &codes)?,
            })
        }
        other => Err(PyErr::from(Error::InvalidDecision {
            player,
            reason: format!("unknown decision {other:?}"),
        })),
    }
}

/// Solves one hand (seat 0) as the exact best response to the opponents' decisions.
#[pyfunction]
#[pyo3(signature = (hand, rules, opponents, top_k = 5))]
pub fn solve_best_response<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyRules>>,
    opponents: &Bound<'py, PyList>,
    top_k: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let opps = opponents
        .iter()
        .enumerate()
        .map(|(i, o)| extract_opponent(i + 1, &o))
        .collect::<PyResult<Vec<Decision>>>()?;
    let n = opps.len() + 1;
    run_solve(py, hand, rules, n, Objective::BestResponse(opps), top_k)
}

/// Solves one hand by Monte Carlo against opponents set by the table policy.
#[pyfunction]
#[pyo3(signature = (hand, rules, table, samples, seed, threads = None, top_k = 5))]
#[allow(clippy::too_many_arguments)]
pub fn solve_monte_carlo<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyRules>>,
    table: &Bound<'py, PyTableEv>,
    samples: usize,
    seed: u64,
    threads: Option<i64>,
    top_k: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = super::threads_arg(threads)?;
    let te = table.get().0.clone();
    let players = te.players;
    let obj = Objective::MonteCarlo {
        samples,
        seed,
        policy: Policy::TableEv(te),
        threads,
    };
    run_solve(py, hand, rules, players, obj, top_k)
}

/// The opponents Monte Carlo sample `index` deals and sets for `hand`: a list of
/// ("play", 13 codes) or ("declare", natural, 13 codes).
#[pyfunction]
pub fn monte_carlo_opponents<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyRules>>,
    table: &Bound<'py, PyTableEv>,
    seed: u64,
    index: u64,
) -> PyResult<Bound<'py, PyList>> {
    let h = extract_hand(hand)?;
    let r = rules_of(rules);
    let te = table.get().0.clone();
    let players = te.players;
    let opps =
        with_scratch(|s| sample_opponents(&r, players, &Policy::TableEv(te), &h, seed, index, s));
    let out = PyList::empty(py);
    for o in opps {
        match o {
            Opponent::Played { codes, .. } => out.append(("play", codes.to_vec()))?,
            Opponent::Natural { kind, codes, .. } => {
                out.append(("declare", kind.key(), codes.to_vec()))?
            }
        }
    }
    Ok(out)
}

/// Table-objective solve of an (N, 13) uint8 array of hands: (settings (N, 13) front/middle/back
/// codes, values (N,) float64, choices (N,) uint8: 0 play, 1 declare, 2 surrender).
#[pyfunction]
#[pyo3(signature = (codes, rules, table, threads = None))]
pub fn solve_batch<'py>(
    py: Python<'py>,
    codes: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyRules>>,
    table: &Bound<'py, PyTableEv>,
    threads: Option<i64>,
) -> PyResult<BatchArrays<'py>> {
    let threads = super::threads_arg(threads)?;
    let arr = super::arrays::readonly_u8_2d(codes, "codes", &[13])?;
    let view = arr.as_array();
    let hands: Vec<[u8; 13]> = view
        .rows()
        .into_iter()
        .map(|r| std::array::from_fn(|i| r[i]))
        .collect();
    drop(arr);
    let flat: Vec<u8> = hands.iter().flatten().copied().collect();
    validate_rows(&flat, 13, "codes")?;
    let r = rules_of(rules);
    let te = table.get().0.clone();
    let n = hands.len();
    let mut out_codes = vec![[0u8; 13]; n];
    let mut values = vec![0f64; n];
    let mut choices = vec![0u8; n];
    // Chunks keep Ctrl-C responsive: signals are checked, with the GIL, between them.
    const CHUNK: usize = 8192;
    let mut start = 0;
    while start < n {
        let end = (start + CHUNK).min(n);
        let (h, c) = (&hands[start..end], &mut out_codes[start..end]);
        let (v, ch) = (&mut values[start..end], &mut choices[start..end]);
        py.detach(|| {
            crate::parallel::with_threads(threads, || {
                solve::solve_batch_table_ev(&te, &r, h, c, v, ch)
            })
        });
        py.check_signals()?;
        start = end;
    }
    let flat: Vec<u8> = out_codes.into_iter().flatten().collect();
    Ok((
        PyArray1::from_vec(py, flat).reshape([n, 13])?,
        PyArray1::from_vec(py, values),
        PyArray1::from_vec(py, choices),
    ))
}

/// Trains outcome tables by self-play; returns a dict with the three row distributions (float64
/// arrays), `scoop_rate`, `iterations`, `deltas` and the `key`. `progress(iteration, delta)` is
/// called after each iteration (with the GIL); Ctrl-C stops training.
#[pyfunction]
#[pyo3(signature = (rules, players, seed = 0, deals = 20000, min_iters = 3, max_iters = 12, tol = 0.01, threads = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn train_tables<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyRules>>,
    players: usize,
    seed: u64,
    deals: usize,
    min_iters: usize,
    max_iters: usize,
    tol: f64,
    threads: Option<i64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = super::threads_arg(threads)?;
    let r = rules_of(rules);
    let cfg = TrainConfig {
        players,
        seed,
        deals,
        min_iters,
        max_iters,
        tol,
        ..TrainConfig::default()
    };
    let mut callback_err: Option<PyErr> = None;
    let report = py.detach(|| {
        crate::parallel::with_threads(threads, || {
            train(&r, &cfg, &mut |iter, delta| {
                Python::attach(|py| {
                    let res = py.check_signals().and_then(|_| match &progress {
                        Some(f) => f.call1(py, (iter, delta)).map(|_| ()),
                        None => Ok(()),
                    });
                    match res {
                        Ok(()) => true,
                        Err(e) => {
                            callback_err = Some(e);
                            false
                        }
                    }
                })
            })
        })
    });
    if let Some(e) = callback_err {
        return Err(e);
    }
    let report = report?;
    let d = PyDict::new(py);
    let [f, m, b] = report.tables.dist;
    d.set_item("front", PyArray1::from_vec(py, f))?;
    d.set_item("middle", PyArray1::from_vec(py, m))?;
    d.set_item("back", PyArray1::from_vec(py, b))?;
    d.set_item("scoop_rate", report.tables.scoop_rate)?;
    d.set_item("iterations", report.iterations)?;
    d.set_item("deltas", report.deltas)?;
    d.set_item("key", core_tables_key(&r, players))?;
    d.set_item("wheel", wheel_name(r.wheel))?;
    Ok(d)
}

/// The text key of the rule-set fields the tables depend on (equal keys share tables).
#[pyfunction]
pub fn tables_key(rules: Option<&Bound<'_, PyRules>>, players: usize) -> String {
    core_tables_key(&rules_of(rules), players)
}
