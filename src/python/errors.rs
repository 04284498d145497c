//! The one mapping from the core's `Error` to the exception classes of
//! `chinese_poker.exceptions` (defined in Python so they have public module paths and can
//! inherit from `ValueError`).

use crate::error::Error;
use pyo3::prelude::*;
use pyo3::types::PyType;

fn exception_name(e: &Error) -> &'static str {
    match e {
        Error::InvalidCard { .. } => "InvalidCardError",
        Error::DuplicateCard { .. } => "DuplicateCardError",
        Error::DuplicateCardPlayers { .. } => "DuplicateCardError",
        Error::InvalidShape { .. } => "InvalidShapeError",
        Error::InvalidRules { .. } => "InvalidRulesError",
        Error::InvalidDecision { .. } => "InvalidDecisionError",
        Error::Interrupted => "KeyboardInterrupt",
        Error::InvalidArgument { .. } => "InvalidArgumentError",
    }
}

pub fn to_pyerr(e: Error) -> PyErr {
    Python::attach(|py| {
        let name = exception_name(&e);
        let class = if name == "KeyboardInterrupt" {
            return pyo3::exceptions::PyKeyboardInterrupt::new_err(e.to_string());
        } else {
            py.import("chinese_poker.exceptions")
                .and_then(|m| m.getattr(name))
        };
        match class.and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from)) {
            Ok(cls) => PyErr::from_type(cls, e.to_string()),
            Err(import_failure) => import_failure,
        }
    })
}

/// `?`-friendly conversion for core results.
pub trait IntoPyResult<T> {
    fn py_err(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for crate::error::Result<T> {
    fn py_err(self) -> PyResult<T> {
        self.map_err(to_pyerr)
    }
}
