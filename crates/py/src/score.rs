//! `settle` and `find_naturals` for Python. Decisions are read by the one extractor in
//! `decision.rs`; the result is the frozen `Settlement` class of `results.rs`, built once.

use super::decision::extract_decisions;
use super::py_objects::py_setting;
use super::results::PySettlement;
use super::rules::PyRules;
use crate::errors::{py_err, OrPyErr};
use chinese_poker::error::Error;
use chinese_poker::naturals;
use chinese_poker::score::{self, MAX_PLAYERS};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};

/// `bankrolls=`: `None`, or a sequence of ints (not a string, not floats: a bankroll of 1.9
/// units would otherwise be truncated silently), one per player, each in the core's
/// `bankroll_range` for `rules` (negative only where the rule set does not cap payments).
pub fn bankrolls_arg(
    obj: Option<&Bound<'_, PyAny>>,
    rules: &chinese_poker::Rules,
    players: Option<usize>,
) -> PyResult<Option<Vec<i64>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let not_sequence = |got: String| {
        crate::errors::type_err(
            "bankrolls",
            "expected a sequence of ints, one per player",
            &got,
        )
    };
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(not_sequence("a string".into()));
    }
    // a dict iterates its keys, a set has no order and a generator no length: none says
    // which seat has which bankroll (a list, a tuple or a numpy array does)
    let indexable = obj.hasattr("__len__")? && obj.hasattr("__getitem__")?;
    if !indexable || obj.is_instance_of::<pyo3::types::PyDict>() {
        return Err(not_sequence(crate::args::type_name(obj)));
    }
    let (low, high) = score::bankroll_range(rules);
    let mut out = Vec::new();
    for (i, item) in obj.try_iter()?.enumerate() {
        if i >= MAX_PLAYERS {
            return Err(py_err(Error::InvalidShape {
                what: "bankrolls".into(),
                expected: format!("at most {MAX_PLAYERS} values (one per player)"),
                got: "more".into(),
            }));
        }
        let v = crate::args::int_arg(
            &item?,
            &format!("bankrolls[{i}]"),
            low as i128,
            high as i128,
        )?;
        out.push(v as i64);
    }
    if let Some(n) = players {
        score::check_bankrolls(rules, n, &out).py()?;
    }
    Ok(Some(out))
}

/// The bankrolls of a table of `players` under `rules` as `Table` takes them: `None`, or one
/// int per seat in the rule set's bankroll range (`bankrolls_arg`, the reader `settle` uses).
#[pyfunction]
pub fn read_bankrolls(
    value: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
    players: &Bound<'_, PyAny>,
) -> PyResult<Option<Vec<i64>>> {
    let players = crate::args::players_arg(players, "players")?;
    bankrolls_arg(Some(value), &rules.get().0, Some(players))
}

/// `dealer=`: a seat of the table, 0 to `players - 1`.
pub fn dealer_arg(obj: &Bound<'_, PyAny>, players: usize) -> PyResult<usize> {
    Ok(crate::args::int_arg(obj, "dealer", 0, players.max(1) as i128 - 1)? as usize)
}

/// Settles one round (see `chinese_poker.settle`).
#[pyfunction]
#[pyo3(signature = (decisions, rules, bankrolls = None, dealer = None))]
pub fn settle(
    decisions: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
    bankrolls: Option<&Bound<'_, PyAny>>,
    dealer: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySettlement> {
    let parsed = extract_decisions(decisions, "decisions", 0)?;
    let dealer = match dealer {
        None => 0,
        Some(d) => dealer_arg(d, parsed.len())?,
    };
    let bankrolls = bankrolls_arg(bankrolls, &rules.get().0, None)?;
    // One round is microseconds of work: not worth releasing the GIL.
    let result = score::settle(&parsed, &rules.get().0, bankrolls.as_deref(), dealer).py()?;
    Ok(PySettlement::new(result))
}

/// Naturals a 13-card hand holds under the rule set, highest first:
/// `(name, value, Setting or None)`.
#[pyfunction]
pub fn find_naturals<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
) -> PyResult<Bound<'py, PyList>> {
    let hand = super::solve::extract_hand(hand)?;
    let found = naturals::find_naturals(&hand, &rules.get().0);
    let out = PyList::empty(py);
    for m in found {
        let setting = m.setting.map(|s| py_setting(py, &s)).transpose()?;
        out.append((m.kind.name(), m.value, setting))?;
    }
    Ok(out)
}

/// A setting of the 13-card `hand` that is certainly fouled (`Setting::fouled` in the core):
/// what a seat that did not act plays under a rule set whose timeout fouls it.
#[pyfunction]
#[pyo3(signature = (hand, wheel = None), text_signature = "(hand, wheel='low')")]
pub fn fouled_setting<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    wheel: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let hand = super::solve::extract_hand(hand)?;
    let wheel = super::eval::wheel_arg(wheel)?;
    py_setting(py, &chinese_poker::setting::Setting::fouled(&hand, wheel))
}

/// Seconds per call of the core's `settle` alone on these decisions (converted once), the
/// median of 5 runs of `rounds` calls with the GIL released: the baseline `make bench` compares
/// Python's `settle` with, in the same process. Not part of the public API.
#[pyfunction]
pub fn settle_seconds(
    py: Python<'_>,
    decisions: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyRules>,
    rounds: &Bound<'_, PyAny>,
) -> PyResult<f64> {
    let parsed = extract_decisions(decisions, "decisions", 0)?;
    let rounds = crate::args::int_arg(rounds, "rounds", 1, 10_000_000)? as usize;
    let r = &rules.get().0;
    score::settle(&parsed, r, None, 0).py()?;
    let mut runs: Vec<f64> = py.detach(|| {
        (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                for _ in 0..rounds {
                    let s = score::settle(std::hint::black_box(&parsed), r, None, 0);
                    std::hint::black_box(s.ok());
                }
                start.elapsed().as_secs_f64() / rounds as f64
            })
            .collect()
    });
    runs.sort_by(f64::total_cmp);
    Ok(runs[runs.len() / 2])
}
