//! `settle` and `find_naturals` for Python. Decisions are read by the one extractor in
//! `decision.rs`; the result is the frozen `Settlement` class of `results.rs`, built once.

use super::decision::extract_decisions;
use super::py_objects::py_setting;
use super::results::PySettlement;
use super::rules::PyRules;
use crate::errors::{py_err, OrPyErr};
use chinese_poker::error::Error;
use chinese_poker::naturals;
use chinese_poker::score::{self, MAX_BANKROLL};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};

/// `bankrolls=`: `None`, or a sequence of ints (not a string, not floats: a bankroll of 1.9
/// units would otherwise be truncated silently), each 0..=`MAX_BANKROLL`.
fn bankrolls_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<i64>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let not_sequence = |got: String| {
        py_err(Error::InvalidShape {
            what: "bankrolls".into(),
            expected: "a sequence of ints, one per player".into(),
            got,
        })
    };
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(not_sequence("a string".into()));
    }
    let iter = obj.try_iter().map_err(|_| {
        not_sequence(
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default(),
        )
    })?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        if i >= 4 {
            return Err(not_sequence("more than 4 bankrolls".into()));
        }
        // negative bankrolls are the core's to refuse: it names the player
        let bound = MAX_BANKROLL as i128;
        let v = super::int_arg(&item?, &format!("bankrolls[{i}]"), -bound, bound)?;
        out.push(v as i64);
    }
    Ok(Some(out))
}

/// `dealer=`: an int (else `InvalidArgumentError`) that is a seat of the table (else
/// `InvalidShapeError`, like the core's check of a seat that does not fit the table).
fn dealer_arg(obj: &Bound<'_, PyAny>, players: usize) -> PyResult<usize> {
    let seat = super::int_arg(obj, "dealer", i128::MIN, i128::MAX);
    let seat = match seat {
        Ok(v) => usize::try_from(v).ok().filter(|&v| v < players.max(1)),
        // an int beyond i128 is a seat that does not exist, not a wrong type
        Err(_) if obj.is_exact_instance_of::<pyo3::types::PyInt>() => None,
        Err(e) => return Err(e),
    };
    seat.ok_or_else(|| {
        py_err(Error::InvalidShape {
            what: "dealer".into(),
            expected: format!("a seat number 0..{}", players.max(1) - 1),
            got: obj.repr().map(|r| r.to_string()).unwrap_or_default(),
        })
    })
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
    let bankrolls = bankrolls_arg(bankrolls)?;
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
#[pyo3(signature = (hand, wheel = "low"))]
pub fn fouled_setting<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    wheel: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let hand = super::solve::extract_hand(hand)?;
    let wheel = super::eval::parse_wheel(wheel)?;
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
    let rounds = super::int_arg(rounds, "rounds", 1, 10_000_000)? as usize;
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
