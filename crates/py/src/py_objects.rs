//! Every Python object the extension calls, looked up here and nowhere else: the decision
//! classes of `chinese_poker.scoring` (`Setting`, `Declare`, `Surrender`), the layouts of
//! `chinese_poker.display` and the `Category` enum (made at module init, `rules.rs`). Each is imported on first use and kept for the process, so a
//! getter or a `str()` costs one call, never an import or an attribute search of a module.
//! (The exception classes are imported by the one error mapping, `errors.rs`.)

use super::cards::PyCard;
use chinese_poker::setting::Setting;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyTuple, PyType};

/// `chinese_poker.scoring`'s `Setting`, `Declare` and `Surrender` classes.
pub struct Classes {
    pub setting: Py<PyType>,
    pub declare: Py<PyType>,
    pub surrender: Py<PyType>,
}

pub fn classes(py: Python<'_>) -> PyResult<&Classes> {
    static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();
    CLASSES.get_or_try_init(py, || {
        let m = py.import("chinese_poker.scoring")?;
        let get = |name: &str| -> PyResult<Py<PyType>> {
            Ok(m.getattr(name)?.cast_into::<PyType>()?.unbind())
        };
        Ok(Classes {
            setting: get("Setting")?,
            declare: get("Declare")?,
            surrender: get("Surrender")?,
        })
    })
}

/// The Python `Setting` for a core setting (no re-parsing: the core's settings are valid).
pub fn py_setting<'py>(py: Python<'py>, s: &Setting) -> PyResult<Bound<'py, PyAny>> {
    let row =
        |cards: &[chinese_poker::card::Card]| PyTuple::new(py, cards.iter().map(|&c| PyCard(c)));
    classes(py)?
        .setting
        .bind(py)
        .call_method1("_trusted", (row(&s.front)?, row(&s.middle)?, row(&s.back)?))
}

/// `chinese_poker.display.<function>(obj)`: the text and HTML layouts of every result object are
/// written once, in that module, which is imported on first use and kept.
pub fn display(obj: &Bound<'_, PyAny>, function: &str) -> PyResult<String> {
    static DISPLAY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let py = obj.py();
    let module =
        DISPLAY.get_or_try_init(py, || py.import("chinese_poker.display").map(Bound::unbind))?;
    module.bind(py).getattr(function)?.call1((obj,))?.extract()
}

/// `chinese_poker._core.Category`, the `IntEnum` the module made at init from the core's
/// categories.
pub fn category(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CATEGORY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let cls = CATEGORY.get_or_try_init(py, || {
        py.import("chinese_poker._core")?
            .getattr("Category")
            .map(Bound::unbind)
    })?;
    Ok(cls.bind(py))
}
