//! The one mapping from the core's `Error` to the exception classes of
//! `chinese_poker.exceptions` (defined in Python so they have public module paths and can
//! inherit from `ValueError`). Each class is imported once and cached by PyO3.

use crate::error::Error;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::PyErr;

pyo3::import_exception!(chinese_poker.exceptions, InvalidCardError);
pyo3::import_exception!(chinese_poker.exceptions, DuplicateCardError);
pyo3::import_exception!(chinese_poker.exceptions, InvalidShapeError);
pyo3::import_exception!(chinese_poker.exceptions, InvalidRulesError);
pyo3::import_exception!(chinese_poker.exceptions, InvalidDecisionError);
pyo3::import_exception!(chinese_poker.exceptions, InvalidArgumentError);
// Raised by the bindings themselves (a Python type check, not a core error).
pyo3::import_exception!(chinese_poker.exceptions, InvalidTypeError);

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
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
            Error::Interrupted => PyKeyboardInterrupt::new_err(message),
        }
    }
}
