//! The one mapping from the core's `Error` to the exception classes of
//! `chinese_poker.exceptions` (defined in Python so they have public module paths and can
//! inherit from `ValueError`). Each class is imported once and cached by PyO3.

use chinese_poker::error::Error;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::PyErr;

pyo3::import_exception!(chinese_poker.exceptions, InvalidCardError);
pyo3::import_exception!(chinese_poker.exceptions, DuplicateCardError);
pyo3::import_exception!(chinese_poker.exceptions, InvalidShapeError);
pyo3::import_exception!(chinese_poker.exceptions, InvalidRulesError);
pyo3::import_exception!(chinese_poker.exceptions, InvalidDecisionError);
pyo3::import_exception!(chinese_poker.exceptions, InvalidArgumentError);
pyo3::import_exception!(chinese_poker.exceptions, InvalidTablesError);
// Raised by the bindings themselves (a Python type check, not a core error).
pyo3::import_exception!(chinese_poker.exceptions, InvalidTypeError);

/// The exception for a core error: the one place an `Error` becomes a `PyErr` (the orphan
/// rule keeps this a function, not a `From`; `OrPyErr::py` applies it to a `Result`).
pub fn py_err(e: Error) -> PyErr {
    {
        let message = e.to_string();
        match e {
            Error::InvalidCard { .. } => InvalidCardError::new_err(message),
            Error::DuplicateCard { .. } | Error::DuplicateCardPlayers { .. } => {
                DuplicateCardError::new_err(message)
            }
            Error::InvalidShape { .. } => InvalidShapeError::new_err(message),
            Error::InvalidRules { .. } => InvalidRulesError::new_err(message),
            Error::InvalidDecision { .. } => InvalidDecisionError::new_err(message),
            Error::InvalidArgument { .. } => InvalidArgumentError::new_err(message),
            Error::InvalidTables { .. } => InvalidTablesError::new_err(message),
            Error::Interrupted => PyKeyboardInterrupt::new_err(message),
        }
    }
}

/// `result.py()?` turns a core `Result` into a `PyResult` through `py_err`.
pub trait OrPyErr<T> {
    fn py(self) -> pyo3::PyResult<T>;
}

impl<T> OrPyErr<T> for Result<T, Error> {
    fn py(self) -> pyo3::PyResult<T> {
        self.map_err(py_err)
    }
}
