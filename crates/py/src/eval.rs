//! Row evaluation for Python: `HandRank`, `evaluate`, and the numpy batch path.

use super::cards::{extract_cards, PyCard};
use crate::args::{read_int, IntArg};
use crate::errors::{py_err, OrPyErr};
use chinese_poker::error::Error;
use chinese_poker::eval::{evaluate as core_evaluate, Evaluator, HandRank, Wheel};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyAny, PyInt, PyList, PyTuple, PyType};
use rayon::prelude::*;
use std::hash::{Hash, Hasher};

/// A `wheel=` argument, by the core's names ([`Wheel::from_name`]).
pub fn parse_wheel(wheel: &str) -> PyResult<Wheel> {
    Wheel::from_name(wheel).ok_or_else(|| {
        let names: Vec<String> = Wheel::ALL
            .iter()
            .map(|w| format!("'{}'", w.name()))
            .collect();
        py_err(Error::InvalidRules {
            field: "wheel".into(),
            reason: format!("expected one of {}, got {wheel:?}", names.join(", ")),
        })
    })
}

/// A `wheel=` argument as given (`None`: `"low"`): text naming a wheel, else an
/// `InvalidTypeError` naming `wheel`.
pub fn wheel_arg(wheel: Option<&Bound<'_, PyAny>>) -> PyResult<Wheel> {
    let Some(obj) = wheel else {
        return parse_wheel("low");
    };
    match obj.cast::<pyo3::types::PyString>() {
        Ok(text) => parse_wheel(&text.to_cow()?),
        Err(_) => Err(crate::errors::type_err(
            "wheel",
            "expected the name of a wheel ('low' or 'second')",
            &obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default(),
        )),
    }
}

/// The rank of a 3- or 5-card row. Ranks of either size compare with each other by the rules'
/// row comparison (a front equals a middle whose leading ranks it matches).
#[pyclass(
    name = "HandRank",
    module = "chinese_poker",
    frozen,
    skip_from_py_object
)]
#[derive(Clone, Copy)]
pub struct PyHandRank(pub HandRank);

/// A `HandRank` from its raw value; errors name the argument `raw`.
fn rank_from_raw_arg(raw: &Bound<'_, PyAny>) -> PyResult<PyHandRank> {
    let bad = |got: String| {
        py_err(Error::InvalidArgument {
            name: "raw".into(),
            reason: format!(
                "expected a HandRank.raw value from evaluate/evaluate_batch, got {got}"
            ),
        })
    };
    match read_int(raw)? {
        IntArg::Value(v) => u32::try_from(v)
            .ok()
            .and_then(HandRank::checked_from_raw)
            .map(PyHandRank)
            .ok_or_else(|| bad(v.to_string())),
        IntArg::TooLarge(text) => Err(bad(text)),
        IntArg::NotInt(type_name) => Err(super::errors::InvalidTypeError::new_err(format!(
            "HandRank: expected an int raw value, got {type_name}"
        ))),
    }
}

#[pymethods]
impl PyHandRank {
    /// Rebuilds a rank from its `raw` value (as returned by `evaluate_batch`). `description`,
    /// if given, must be the rank's `describe()`: it makes `repr` evaluable and readable.
    #[new]
    #[pyo3(signature = (raw, description = None))]
    fn new(raw: &Bound<'_, PyAny>, description: Option<&str>) -> PyResult<Self> {
        let rank = rank_from_raw_arg(raw)?;
        match description {
            Some(d) if d != rank.0.describe() => Err(py_err(Error::InvalidArgument {
                name: "description".into(),
                reason: format!(
                    "HandRank {} is {:?}, not {d:?}",
                    rank.0.raw(),
                    rank.0.describe()
                ),
            })),
            _ => Ok(rank),
        }
    }
    /// The rank in words, as Jupyter shows it.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        super::py_objects::display(slf.as_any(), "html")
    }
    /// The ordered integer: category, then ranks
    /// ([layout](https://chinese-poker.github.io/chinese-poker/guide/cards/)).
    #[getter]
    fn raw(&self) -> u32 {
        self.0.raw()
    }
    #[getter]
    fn category<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::py_objects::category(py)?.call1((self.0.category() as u8,))
    }
    /// 3 for a front row, 5 for a middle or back row.
    #[getter]
    fn size(&self) -> usize {
        self.0.size()
    }
    /// Significant rank values, most significant first (2..14; a straight's top card 5..15).
    #[getter]
    fn values(&self) -> Vec<u32> {
        // widened so that PyO3 gives a list of ints, not `bytes`
        self.0.values().into_iter().map(u32::from).collect()
    }
    /// "pair of kings, ace kicker".
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn __str__(&self) -> String {
        self.0.describe()
    }
    fn __repr__(&self) -> String {
        format!("HandRank({}, '{}')", self.0.raw(), self.0.describe())
    }
    /// Pickles as `HandRank(raw)`, for every pickle protocol.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (u32,)) {
        (slf.get_type(), (slf.get().0.raw(),))
    }
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: pyo3::pyclass::CompareOp) -> Py<PyAny> {
        let py = other.py();
        match other.cast::<PyHandRank>() {
            Ok(o) => {
                let result = op.matches(self.0.row_cmp(o.get().0));
                pyo3::types::PyBool::new(py, result)
                    .to_owned()
                    .into_any()
                    .unbind()
            }
            Err(_) => py.NotImplemented(),
        }
    }
    /// Consistent with `==` across row sizes: equal ranks share category and leading value.
    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.0.category() as u8, self.0.values()[0]).hash(&mut h);
        h.finish()
    }
}

/// Evaluates one row of 3 or 5 distinct cards.
///
/// Args:
///     cards: The row: a card string (`"As Ks Qs"`), cards, codes or a `CardSet`.
///     wheel: Where A-2-3-4-5 ranks: `"low"` (the lowest straight) or `"second"` (just under
///         10-J-Q-K-A).
///
/// Returns:
///     The row's rank, comparable with any other row's.
///
/// Raises:
///     InvalidShapeError: Not 3 or 5 cards.
///     InvalidCardError: A card that does not parse.
///     DuplicateCardError: A card given twice.
///     InvalidArgumentError: An unknown wheel.
#[pyfunction]
#[pyo3(signature = (cards, wheel = None), text_signature = "(cards, wheel='low')")]
pub fn evaluate(
    cards: &Bound<'_, PyAny>,
    wheel: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyHandRank> {
    let w = wheel_arg(wheel)?;
    if let Some(rank) = eval_code_sequence(cards, w) {
        return Ok(PyHandRank(rank));
    }
    let cards = extract_cards(cards)?;
    core_evaluate(&cards, w).map(PyHandRank).map_err(py_err)
}

/// The per-call hot path (150 ns, the performance page's "Budgets"): a list or tuple of 3 or 5 distinct `int`
/// codes or `Card`s, read without allocating. `None` for anything else, bad input included, which
/// then takes the general path and gets its precise error there.
fn eval_code_sequence(obj: &Bound<'_, PyAny>, wheel: Wheel) -> Option<HandRank> {
    let mut codes = [0u8; 5];
    let mut n = 0;
    let mut seen = 0u64;
    let mut push = |item: Bound<'_, PyAny>| -> Option<()> {
        let code = if let Ok(i) = item.cast_exact::<PyInt>() {
            u8::try_from(i.extract::<i64>().ok()?).ok()?
        } else {
            item.cast::<PyCard>().ok()?.get().0.code()
        };
        if code >= 52 || n == 5 || seen & (1u64 << code) != 0 {
            return None;
        }
        seen |= 1u64 << code;
        codes[n] = code;
        n += 1;
        Some(())
    };
    if let Ok(list) = obj.cast_exact::<PyList>() {
        if list.len() != 3 && list.len() != 5 {
            return None;
        }
        list.iter().try_for_each(&mut push)?;
    } else if let Ok(tuple) = obj.cast_exact::<PyTuple>() {
        if tuple.len() != 3 && tuple.len() != 5 {
            return None;
        }
        tuple.iter().try_for_each(&mut push)?;
    } else {
        return None;
    }
    // a list can shrink while we read it (another thread): only a complete row is evaluated
    matches!(n, 3 | 5).then(|| Evaluator::new(wheel).eval_codes(&codes[..n]))
}

/// Evaluates every row of an array in Rust threads. The array (any strides) is copied once
/// before the GIL is released, so other threads may change it meanwhile without affecting the
/// result.
///
/// Args:
///     codes: A `uint8` array of card codes of shape (N, 5) or (N, 3), one row per line.
///     wheel: Where A-2-3-4-5 ranks: `"low"` or `"second"`.
///     threads: `None` (all cores) or 1 to `MAX_THREADS`; results never depend on it.
///
/// Returns:
///     An (N,) `uint32` array of raw ranks (`HandRank.raw`).
///
/// Raises:
///     InvalidShapeError: An array that is not (N, 5) or (N, 3).
///     InvalidCardError: A code outside 0..51.
///     DuplicateCardError: A card twice in one row.
///     InvalidArgumentError: An unknown wheel or a bad `threads`.
#[pyfunction]
#[pyo3(
    signature = (codes, wheel = None, threads = None),
    text_signature = "(codes, wheel='low', threads=None)"
)]
pub fn evaluate_batch<'py>(
    py: Python<'py>,
    codes: &Bound<'py, PyAny>,
    wheel: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let threads = crate::args::threads_arg(threads)?;
    let w = wheel_arg(wheel)?;
    let (data, width) = super::arrays::u8_rows(codes, "codes", &[3, 5])?;
    let out = py.detach(|| -> chinese_poker::error::Result<Vec<u32>> {
        chinese_poker::card::validate_rows(&data, width, "codes")?;
        let ev = Evaluator::new(w);
        Ok(chinese_poker::parallel::with_threads(threads, || {
            data.par_chunks(width.max(1))
                .with_min_len(4096)
                .map(|row| ev.eval_codes(row).raw())
                .collect()
        }))
    });
    Ok(PyArray1::from_vec(py, out.py()?))
}
