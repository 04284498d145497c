//! numpy input of the batch functions (`evaluate_batch`, `solve_batch`), one policy for both:
//! a 2-D `uint8` array (any strides) is **copied once** into a Rust `Vec` while the GIL is held,
//! and only the copy is read with the GIL released.
//!
//! Why copy: borrowing the array across the GIL release is unsound in general. rust-numpy's
//! `PyReadonlyArray` flag stops other Rust code from writing, but not Python code in another
//! thread (`arr[0] = 99` does not consult it), and not even `writeable=False` protects the
//! memory: a read-only view can share it with a writeable base. The copy is one `memcpy` of 3
//! to 13 bytes per row, well under 1% of the cheapest batch work (about 10 ns to evaluate a
//! 5-card row, about 5 µs to solve a hand), so the sound path costs nothing measurable.
//!
//! Also here: `parse_hands`, text to the same `uint8` arrays.

use crate::errors::{py_err, py_err_at, OrPyErr, Place};
use chinese_poker::card::{parse_cards, Card};
use chinese_poker::error::Error;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// Sets up, at import, what rust-numpy otherwise sets up on first use: numpy's C API (its
/// capsule, found by importing numpy's `multiarray` module) and the shared borrow-checking
/// API. Done lazily, the import ran Python code in the middle of the first call that returned
/// or read an array, where a pending Ctrl-C made it fail and rust-numpy panicked
/// (`PanicException`) instead of raising `KeyboardInterrupt`. Here the module imports are
/// ours, with their errors (a Ctrl-C during `import chinese_poker` is a `KeyboardInterrupt`
/// like any other), and what follows finds every module imported: no Python code runs, so no
/// signal handler can fail it.
pub fn set_up_numpy(py: Python<'_>) -> PyResult<()> {
    // the module of both capsules (numpy 2: `numpy._core.multiarray`), imported with errors
    numpy::get_array_module(py)?;
    let probe = PyArray1::<u8>::zeros(py, 1, false); // the C API, now found without Python code
    drop(probe.try_readonly()); // the borrow-checking API, published or found
    Ok(())
}

/// The rows of a 2-D `uint8` array whose width is one of `widths`, copied row-major, and the
/// width. Errors (`InvalidShapeError`) name `what` and say what was given.
pub fn u8_rows(obj: &Bound<'_, PyAny>, what: &str, widths: &[usize]) -> PyResult<(Vec<u8>, usize)> {
    let shape_err = |got: String| {
        let expected = widths
            .iter()
            .map(|w| format!("(N, {w})"))
            .collect::<Vec<_>>()
            .join(" or ");
        Error::InvalidShape {
            what: what.into(),
            expected: format!("uint8 array of shape {expected}"),
            got,
        }
    };
    let untyped = obj
        .cast::<PyUntypedArray>()
        .map_err(|_| {
            let type_name = obj.get_type().name().map(|n| n.to_string());
            shape_err(format!("a {} object", type_name.unwrap_or_default()))
        })
        .py()?;
    // (named only in an error: numpy makes the name in Python code, microseconds a call)
    let dtype = || untyped.dtype().to_string();
    if untyped.ndim() != 2 || !widths.contains(&untyped.shape()[1]) {
        return Err(py_err(shape_err(format!(
            "shape {:?} ({})",
            untyped.shape(),
            dtype()
        ))));
    }
    let typed = obj
        .cast::<PyArray2<u8>>()
        .map_err(|_| shape_err(format!("dtype {}", dtype())))
        .py()?;
    let width = untyped.shape()[1];
    // The borrow lasts only for the copy, with the GIL held.
    let ro = typed
        .try_readonly()
        .map_err(|_| shape_err("an array being written by Rust code on another thread".into()))
        .py()?;
    let view = ro.as_array();
    let data = match view.as_slice() {
        Some(s) => s.to_vec(),
        None => view.iter().copied().collect(),
    };
    Ok((data, width))
}

/// Lines `parse_hands` reads between two runs of Python's signal handlers (a few milliseconds).
const SIGNAL_CHECK_LINES: usize = 16_384;

/// Card strings to an array of codes, one row per line, in the order the cards are written.
/// Errors name the line (0-based, as the array row) and the token.
///
/// Args:
///     lines: Card strings, one hand each (`"As Ks Qs ..."`).
///     cards: How many cards each line must hold, 1 to 52 (`None`: 13).
///
/// Returns:
///     An (N, cards) `uint8` array of codes.
///
/// Raises:
///     InvalidShapeError: A single string instead of lines, or a line with another number of
///         cards.
///     InvalidCardError: A card that does not parse.
///     DuplicateCardError: A card twice in one line.
#[pyfunction]
#[pyo3(signature = (lines, cards = None))]
pub fn parse_hands<'py>(
    py: Python<'py>,
    lines: &Bound<'py, PyAny>,
    cards: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    // cards per line: 1 to a whole deck
    let cards = match cards {
        None => 13,
        Some(c) => crate::args::int_arg(c, "cards", 1, 52)? as usize,
    };
    let not_lines = |got: String| {
        py_err(Error::InvalidShape {
            what: "lines".into(),
            expected: "an iterable of card strings".into(),
            got,
        })
    };
    if lines.is_instance_of::<PyString>() || lines.is_instance_of::<PyBytes>() {
        return Err(not_lines("a single string (wrap it in a list)".into()));
    }
    let iter = lines.try_iter().map_err(|_| {
        not_lines(
            lines
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default(),
        )
    })?;
    let mut out: Vec<u8> = Vec::new();
    let mut n = 0usize;
    for (i, item) in iter.enumerate() {
        if i % SIGNAL_CHECK_LINES == SIGNAL_CHECK_LINES - 1 {
            py.check_signals()?; // Ctrl-C stops a long text within milliseconds
        }
        let item = item?;
        let text = item.cast::<PyString>().map_err(|_| {
            line_err(
                i,
                Error::InvalidShape {
                    what: format!("line {i}"),
                    expected: "a string of cards".into(),
                    got: item
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default(),
                },
            )
        })?;
        let text = crate::cards::str_text(text, 1).map_err(|e| in_line(i, e))?;
        let parsed = parse_cards(&text).map_err(|e| in_line(i, e))?;
        if parsed.len() != cards {
            return Err(line_err(
                i,
                Error::InvalidShape {
                    what: format!("line {i}"),
                    expected: format!("{cards} cards"),
                    got: chinese_poker::error::count(parsed.len(), "card"),
                },
            ));
        }
        out.extend(parsed.iter().map(|c: &Card| c.code()));
        n += 1;
    }
    PyArray1::from_vec(py, out).reshape([n, cards])
}

/// The same error with `line N: ` in front of its message (the one place a batch's line is
/// named, so a caller who knows the line by another number can replace that prefix), its
/// attributes kept and `line` set.
fn in_line(line: usize, e: Error) -> PyErr {
    Python::attach(|py| {
        crate::errors::in_context(
            py,
            py_err(e),
            &format!("line {line}"),
            Place {
                line: Some(line),
                ..Place::default()
            },
        )
    })
}

/// The exception for an error about line `line` (its `line` attribute).
fn line_err(line: usize, e: Error) -> PyErr {
    let place = Place {
        line: Some(line),
        ..Place::default()
    };
    py_err_at(e, place)
}
