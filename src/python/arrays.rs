//! numpy input checks shared by the batch functions: clear errors for the wrong type, dtype or
//! shape instead of a generic conversion failure.

use crate::error::Error;
use numpy::{PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// A read-only view of a 2-D `uint8` array whose width is one of `widths`.
pub fn readonly_u8_2d<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    widths: &[usize],
) -> PyResult<PyReadonlyArray2<'py, u8>> {
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
    let untyped = obj.cast::<PyUntypedArray>().map_err(|_| {
        let type_name = obj.get_type().name().map(|n| n.to_string());
        shape_err(format!("a {} object", type_name.unwrap_or_default()))
    })?;
    let dtype = untyped.dtype().to_string();
    if untyped.ndim() != 2 || !widths.contains(&untyped.shape()[1]) {
        return Err(PyErr::from(shape_err(format!(
            "shape {:?} ({dtype})",
            untyped.shape()
        ))));
    }
    let typed = obj
        .cast::<PyArray2<u8>>()
        .map_err(|_| shape_err(format!("dtype {dtype}")))?;
    Ok(typed.readonly())
}
