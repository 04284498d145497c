//! The service for Python (`chinese_poker.server`): the core's `Service` behind a class whose
//! calls take the request's bytes and give the answer's, the GIL released while the core reads,
//! solves and writes. Python keeps only what is Python's: the HTTP front, the stdio loop's
//! reads and writes, and which strategy tables play (`load_tables`, called once per rule set
//! and table size).

use crate::errors::{py_err, OrPyErr};
use crate::interrupt::interruptible_here;
use crate::solve::PyTableEv;
use chinese_poker::error::Error;
use chinese_poker::service::{ApiError, Op, RuleSet, Service, ServiceLimits, TablesLoader, CODES};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;

/// The solver service (`chinese_poker.server`): requests as JSON bytes in, answers as JSON
/// bytes out, its limits enforced, its Monte Carlo slots shared by every thread that calls it.
#[pyclass(name = "Service", module = "chinese_poker._core", frozen)]
pub struct PyService(pub(crate) Arc<Service>);

/// An answer as Python gets it: (status, body, error code, (objective, hands solved)).
type PyReply<'py> = (
    u16,
    Bound<'py, PyBytes>,
    Option<&'static str>,
    Option<(&'static str, u64)>,
);

/// The error answer of a tables loader that raised `err` (the package's error: its message and
/// class, named `rules`; anything else is a bug: `internal`).
fn loader_error(py: Python<'_>, err: PyErr) -> ApiError {
    let value = err.value(py);
    let ours = py
        .import("chinese_poker.exceptions")
        .and_then(|m| m.getattr("ChinesePokerError"))
        .and_then(|base| value.is_instance(&base))
        .unwrap_or(false);
    if !ours {
        return ApiError::new("internal", "internal error");
    }
    let mut e = ApiError::new("invalid_input", value.to_string()).at("rules");
    e.kind = value.get_type().name().ok().map(|n| n.to_string());
    e
}

/// The core service's tables from Python's `load_tables(key, preset, players)` (the package's
/// one choice between installed, shipped and fallback tables), called with the GIL on a
/// cache miss only: for any front of the extension that builds its own `Service`.
pub(crate) fn tables_loader(load_tables: Py<PyAny>) -> Box<TablesLoader> {
    Box::new(move |rules: &RuleSet, players: usize| {
        Python::attach(|py| {
            let loaded = load_tables
                .call1(py, (rules.key.as_str(), rules.preset, players))
                .map_err(|e| loader_error(py, e))?;
            let table = loaded
                .cast_bound::<PyTableEv>(py)
                .map_err(|e| loader_error(py, e.into()))?;
            Ok(table.get().0.clone())
        })
    })
}

#[pymethods]
impl PyService {
    /// A service with these limits; `load_tables(key, preset, players)` gives the table
    /// objective's tables (`TableEv`) for a rule set (`key`: a preset's name if `preset`, else
    /// its JSON) and table size.
    #[new]
    #[pyo3(signature = (max_body, max_hands, max_samples, mc_slots, timeout, load_tables))]
    fn new(
        max_body: usize,
        max_hands: usize,
        max_samples: u64,
        mc_slots: usize,
        timeout: f64,
        load_tables: Py<PyAny>,
    ) -> PyResult<Self> {
        if !timeout.is_finite() || timeout <= 0.0 {
            return Err(py_err(Error::InvalidArgument {
                name: "timeout".into(),
                reason: format!("expected seconds above 0, got {timeout}"),
            }));
        }
        let limits = ServiceLimits {
            max_body,
            max_hands,
            max_samples,
            mc_slots,
            timeout,
        };
        Ok(PyService(Arc::new(Service::with_tables(
            limits,
            tables_loader(load_tables),
        ))))
    }

    /// The answer to one request of `op` ("solve", "settle", "naturals" or "rules"), `body` its
    /// JSON: (status, body, error code or None, (objective, hands solved) or None). With
    /// `cancel` (anything with `is_set()`), a Monte Carlo solve stops once it is set, raising
    /// `CancelledError`.
    #[pyo3(signature = (op, body, cancel = None))]
    fn answer<'py>(
        &self,
        py: Python<'py>,
        op: &str,
        body: &[u8],
        cancel: Option<Py<PyAny>>,
    ) -> PyResult<PyReply<'py>> {
        let op = Op::from_name(op)
            .ok_or_else(|| Error::InvalidArgument {
                name: "op".into(),
                reason: format!("expected one of {}, got {op:?}", Op::NAMES.join(", ")),
            })
            .py()?;
        let service = &self.0;
        let reply = interruptible_here(py, cancel.as_ref(), |stop| service.answer(op, body, stop))?;
        Ok((
            reply.status,
            PyBytes::new(py, &reply.body),
            reply.code,
            reply.hands,
        ))
    }

    /// The answer line (without its newline) to one line of `serve --stdio`: a request of the
    /// HTTP shape plus "op" and an optional "id" echoed back.
    fn answer_line<'py>(&self, py: Python<'py>, line: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
        let service = &self.0;
        let out = interruptible_here(py, None, |stop| service.answer_line(line, stop))?;
        Ok(PyBytes::new(py, &out))
    }

    /// Monte Carlo slots free now.
    #[getter]
    fn free_slots(&self) -> usize {
        self.0.free_slots()
    }
}

/// The error answer's body (`{"error": {...}}`, JSON bytes) for `text` that is not 13 cards,
/// naming the request field `field` as the service does; `None` for a hand.
#[pyfunction]
pub fn hand_error<'py>(py: Python<'py>, text: &str, field: &str) -> Option<Bound<'py, PyBytes>> {
    chinese_poker::service::ops::hand_at(text, field)
        .err()
        .map(|e| PyBytes::new(py, &e.to_json()))
}

/// Every error code an answer may carry, with its HTTP status.
pub fn error_codes(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for (code, status) in CODES {
        d.set_item(code, status)?;
    }
    Ok(d)
}
