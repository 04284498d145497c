//! The one reader of call arguments: every whole number, count, seed, seat, `threads` and
//! bankroll any entry point takes, from Python or through the bindings, is read here
//! (`chinese_poker._args` calls [`read_int_arg`] for the arguments Python checks itself).
//!
//! A Python `int` or anything with `__index__` (numpy integers) is a number; a `bool` (Python's
//! or numpy's) and a float are mistakes, not numbers: `InvalidTypeError`. A number outside its
//! range is an `InvalidArgumentError` whose message states exactly the range enforced. Both
//! name the argument as the caller wrote it and set the exception's `argument`. Nothing here
//! ever raises `OverflowError`: `2**200` is a number out of range like any other.

use crate::errors::{py_err, type_err};
use chinese_poker::error::{clip, Error};
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};

/// An integer argument as Python holds it.
pub enum IntArg {
    /// An `int`, or an object with `__index__` (numpy integers), that fits in `i128`.
    Value(i128),
    /// An `int` too large for `i128`: its text, clipped for messages.
    TooLarge(String),
    /// Not an integer: the type's name. `bool` is here too: `True` is not the number 1 to a
    /// caller who passed it, it is a mistake.
    NotInt(String),
}

/// The name of `obj`'s type, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// Reads `obj` as an integer without ever raising `OverflowError`, leaving the range and the
/// message to the caller.
pub fn read_int(obj: &Bound<'_, PyAny>) -> PyResult<IntArg> {
    // numpy's bool (`numpy.bool_`, `numpy.bool`) is no more a number than Python's
    let name = type_name(obj);
    if obj.is_instance_of::<PyBool>() || name == "bool_" || name == "bool" {
        return Ok(IntArg::NotInt("bool".into()));
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(IntArg::NotInt(name));
    }
    match obj.extract::<i128>() {
        Ok(v) => Ok(IntArg::Value(v)),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            // str() of an int past Python's digit limit (4300) itself raises
            let text = obj
                .str()
                .map(|t| clip(&t.to_string_lossy()))
                .unwrap_or_else(|_| "an int of thousands of digits".into());
            Ok(IntArg::TooLarge(text))
        }
        Err(_) => Ok(IntArg::NotInt(name)),
    }
}

/// The error for argument `name`, with `reason` saying what it accepts.
pub fn bad_arg(name: &str, reason: impl Into<String>) -> PyErr {
    py_err(Error::InvalidArgument {
        name: name.into(),
        reason: reason.into(),
    })
}

/// What an int argument in `lo..=hi` accepts, as every message says it.
fn expected_int(lo: i128, hi: i128) -> String {
    format!("expected an int from {lo} to {hi}")
}

/// A whole number in `lo..=hi` (never a `bool`, a float or a numpy float): the one check of
/// every integer argument. `InvalidTypeError` for another type, `InvalidArgumentError` for a
/// number out of range, both naming `name`.
pub fn int_arg(obj: &Bound<'_, PyAny>, name: &str, lo: i128, hi: i128) -> PyResult<i128> {
    match read_int(obj)? {
        IntArg::Value(v) if (lo..=hi).contains(&v) => Ok(v),
        IntArg::Value(v) => Err(bad_arg(name, format!("{}, got {v}", expected_int(lo, hi)))),
        IntArg::TooLarge(text) => Err(bad_arg(
            name,
            format!("{}, got {text}", expected_int(lo, hi)),
        )),
        IntArg::NotInt(t) => Err(type_err(name, &expected_int(lo, hi), &t)),
    }
}

/// [`int_arg`] for Python: `chinese_poker._args` reads every integer argument it checks
/// itself through this, so Python and the bindings refuse the same values with the same
/// messages.
#[pyfunction]
pub fn read_int_arg(value: &Bound<'_, PyAny>, name: &str, low: i128, high: i128) -> PyResult<i128> {
    int_arg(value, name, low, high)
}

/// A Python `int` or `float` (never a `bool`) as an `f64`, or an `InvalidTypeError` naming
/// `name`; the core checks its range.
pub fn number_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    if obj.is_instance_of::<PyBool>()
        || !(obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyFloat>())
    {
        return Err(type_err(name, "expected a number", &type_name(obj)));
    }
    // only an int beyond a float's range fails here
    obj.extract::<f64>()
        .map_err(|_| bad_arg(name, "expected a number within a float's range"))
}

/// Checks a `threads=` argument: `None` (all cores) or 1..=`MAX_THREADS` (see
/// `chinese_poker::parallel` for why larger counts are refused).
pub fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    match threads {
        None => Ok(None),
        Some(t) if t.is_none() => Ok(None),
        Some(t) => {
            let max = chinese_poker::parallel::MAX_THREADS as i128;
            int_arg(t, "threads", 1, max).map(|n| Some(n as usize))
        }
    }
}

/// A seed: 0..=`MAX_SEED`.
pub fn seed_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    Ok(int_arg(obj, name, 0, chinese_poker::sim::MAX_SEED as i128)? as u64)
}

/// A table size: `MIN_PLAYERS..=MAX_PLAYERS`.
pub fn players_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    use chinese_poker::score::{MAX_PLAYERS, MIN_PLAYERS};
    Ok(int_arg(obj, name, MIN_PLAYERS as i128, MAX_PLAYERS as i128)? as usize)
}

/// A count of rounds one call returns as arrays: 0..=`MAX_DEALT_ROUNDS`, checked before
/// anything is allocated.
pub fn dealt_rounds_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    Ok(int_arg(obj, name, 0, chinese_poker::sim::MAX_DEALT_ROUNDS as i128)? as usize)
}
