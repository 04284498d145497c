//! The one mapping from the core's `Error` to the exception classes of
//! `chinese_poker.exceptions` (defined in Python so they have public module paths and can
//! inherit from `ValueError`), the class of each error named by the core (`Error::class_name`).
//!
//! Besides its message, every exception carries what it names as attributes, so that no caller
//! parses a message: `field` (rule-set field), `position` (1-based card position in a text),
//! `player` (seat), `argument` (call argument), all from the core error's own fields, and
//! `line` (line of a batch of hands) and `row` (a setting's row), from the [`Place`] the
//! bindings know the error at. The others are `None` (declared on the classes).

use chinese_poker::error::Error;
use chinese_poker::rules::Row;
use pyo3::exceptions::{PyBaseException, PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyType;
use pyo3::PyErr;

// Raised by the bindings themselves with messages of their own (a Python type check).
pyo3::import_exception!(chinese_poker.exceptions, InvalidTypeError);
pyo3::import_exception!(chinese_poker.exceptions, InvalidArgumentError);

/// The class of `chinese_poker.exceptions` called `name` (`Error::class_name`: the core owns
/// which error is which class, for the bindings and the service alike).
fn exception_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyType>> {
    Ok(py
        .import("chinese_poker.exceptions")?
        .getattr(name)?
        .cast_into::<PyType>()?)
}

/// Where an error happened, beyond what the core error names: the exception's `line`,
/// `player` and `row` attributes.
#[derive(Clone, Copy, Default)]
pub struct Place {
    pub line: Option<usize>,
    pub player: Option<usize>,
    pub row: Option<Row>,
}

/// The structured attributes of an exception, by name.
#[derive(Default)]
struct Attributes {
    field: Option<String>,
    position: Option<usize>,
    player: Option<usize>,
    argument: Option<String>,
    place: Place,
}

impl Attributes {
    /// Sets the attributes that are known (a `None` leaves the class default, or what the
    /// exception already says).
    fn set(self, err: &PyErr) {
        // An exception object takes any attribute: setting them cannot fail.
        let _ = Python::attach(|py| self.set_on(err.value(py)));
    }

    fn set_on(self, value: &Bound<'_, PyBaseException>) -> PyResult<()> {
        let p = self.place;
        if let Some(v) = self.field {
            value.setattr("field", v)?;
        }
        if let Some(v) = self.position {
            value.setattr("position", v)?;
        }
        if let Some(v) = self.player.or(p.player) {
            value.setattr("player", v)?;
        }
        if let Some(v) = self.argument {
            value.setattr("argument", v)?;
        }
        if let Some(v) = p.line {
            value.setattr("line", v)?;
        }
        if let Some(v) = p.row {
            value.setattr("row", v.name())?;
        }
        Ok(())
    }
}

/// The exception for a core error: the one place an `Error` becomes a `PyErr` (the orphan
/// rule keeps this a function, not a `From`; `OrPyErr::py` applies it to a `Result`).
pub fn py_err(e: Error) -> PyErr {
    py_err_at(e, Place::default())
}

/// [`py_err`] for an error the bindings met at `place` (its message already says where).
pub fn py_err_at(e: Error, place: Place) -> PyErr {
    let message = e.to_string();
    let class = e.class_name();
    let mut attributes = Attributes {
        place,
        ..Attributes::default()
    };
    match e {
        Error::InvalidCard { position, .. } => attributes.position = Some(position),
        Error::DuplicateCard { second, .. } => attributes.position = Some(second),
        Error::DuplicateCardPlayers { second, .. } => attributes.player = Some(second),
        Error::InvalidRules { field, .. } => attributes.field = Some(field),
        Error::InvalidDecision { player, .. } => attributes.player = Some(player),
        Error::InvalidArgument { name, .. } | Error::InvalidType { name, .. } => {
            attributes.argument = Some(name)
        }
        Error::InvalidShape { .. } | Error::InvalidTables { .. } => {}
        Error::Interrupted => return PyKeyboardInterrupt::new_err(message),
    }
    let err = Python::attach(|py| match exception_class(py, class) {
        Ok(t) => PyErr::from_type(t, message),
        // the package's own module, always importable where this extension is
        Err(e) => PyRuntimeError::new_err(format!("{class}: {message} ({e})")),
    });
    attributes.set(&err);
    err
}

/// The `InvalidTypeError` for argument `name` of the wrong Python type: the message of the
/// core's `InvalidArgument` (one wording for both), `got` the type's name, and the exception's
/// `argument` set.
pub fn type_err(name: &str, expected: &str, got: &str) -> PyErr {
    py_err(Error::InvalidType {
        name: name.into(),
        reason: format!("{expected}, got {got}"),
    })
}

/// The same exception class with `context: ` in front of its message, its attributes kept and
/// those of `place` added.
pub fn in_context(py: Python<'_>, err: PyErr, context: &str, place: Place) -> PyErr {
    let old = err.value(py);
    let new = PyErr::from_type(err.get_type(py), format!("{context}: {old}"));
    let value = new.value(py);
    for name in ["field", "position", "line", "player", "row", "argument"] {
        if let Ok(v) = old.getattr(name) {
            if !v.is_none() {
                let _ = value.setattr(name, v);
            }
        }
    }
    Attributes {
        place,
        ..Attributes::default()
    }
    .set(&new);
    new
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
