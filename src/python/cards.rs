//! `Card` and `CardSet` as immutable, hashable, picklable Python objects, and card parsing.

use crate::card::{self, Card, CardSet};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString, PyType};

/// One playing card. `code = rank * 4 + suit` (ranks 2..A = 0..12, suits c d h s = 0..3).
#[pyclass(
    name = "Card",
    module = "chinese_poker",
    frozen,
    eq,
    ord,
    hash,
    skip_from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyCard(pub Card);

#[pymethods]
impl PyCard {
    #[new]
    fn new(code: i64) -> PyResult<Self> {
        // i64, not u8, so that a negative code is an InvalidCardError rather than OverflowError
        u8::try_from(code)
            .ok()
            .and_then(|c| Card::from_code(c).ok())
            .map(PyCard)
            .ok_or_else(|| crate::error::Error::InvalidCard {
                token: code.to_string(),
                position: 1,
                reason: "card codes are 0..=51".into(),
            })
            .map_err(PyErr::from)
    }
    /// Parses one card: `As`, `as`, `AS`, `10h`, `Th`, `A♠`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        let cards = card::parse_cards(text)?;
        match cards.as_slice() {
            [c] => Ok(PyCard(*c)),
            _ => Err(PyErr::from(crate::error::Error::InvalidCard {
                token: text.to_string(),
                position: 1,
                reason: format!("expected one card, got {}", cards.len()),
            })),
        }
    }
    #[getter]
    fn code(&self) -> u8 {
        self.0.code()
    }
    /// 0 = two .. 12 = ace.
    #[getter]
    fn rank(&self) -> u8 {
        self.0.rank()
    }
    /// 0..3 = clubs, diamonds, hearts, spades.
    #[getter]
    fn suit(&self) -> u8 {
        self.0.suit()
    }
    /// `A♠`.
    fn pretty(&self) -> String {
        self.0.pretty()
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Card('{}')", self.0)
    }
    /// Pickles as `Card(code)`; `__reduce__` rather than `__getnewargs__` so that every pickle
    /// protocol works, 0 and 1 included.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (u8,)) {
        (slf.get_type(), (slf.get().0.code(),))
    }
    fn __int__(&self) -> u8 {
        self.0.code()
    }
}

/// An immutable set of distinct cards (a 64-bit mask), iterated from the highest card down.
#[pyclass(
    name = "CardSet",
    module = "chinese_poker",
    frozen,
    eq,
    hash,
    skip_from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyCardSet(pub CardSet);

#[pymethods]
impl PyCardSet {
    #[new]
    #[pyo3(signature = (cards = None))]
    fn new(cards: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        match cards {
            None => Ok(PyCardSet(CardSet::EMPTY)),
            Some(obj) => Ok(PyCardSet(CardSet::from_cards(&extract_cards(obj)?))),
        }
    }
    /// The raw mask: bit `code` is set for every card in the set.
    #[getter]
    fn mask(&self) -> u64 {
        self.0 .0
    }
    #[staticmethod]
    fn from_mask(mask: u64) -> PyResult<Self> {
        if mask >> 52 != 0 {
            return Err(PyErr::from(crate::error::Error::InvalidCard {
                token: format!("{mask:#x}"),
                position: 0,
                reason: "mask has bits above 51".into(),
            }));
        }
        Ok(PyCardSet(CardSet(mask)))
    }
    fn cards(&self) -> Vec<PyCard> {
        self.0.cards_desc().into_iter().map(PyCard).collect()
    }
    fn codes(&self) -> Vec<u32> {
        // widened so that PyO3 gives a list of ints, not `bytes`
        self.0
            .cards_desc()
            .into_iter()
            .map(|c| u32::from(c.code()))
            .collect()
    }
    fn __len__(&self) -> usize {
        self.0.len() as usize
    }
    fn __contains__(&self, card: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.contains(extract_card(card, 1)?))
    }
    fn __iter__(slf: PyRef<'_, Self>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let list = pyo3::types::PyList::new(py, slf.cards())?;
        Ok(list.call_method0("__iter__")?.unbind())
    }
    fn __or__(&self, other: &Self) -> Self {
        PyCardSet(self.0.union(other.0))
    }
    fn __sub__(&self, other: &Self) -> Self {
        PyCardSet(self.0.minus(other.0))
    }
    fn __and__(&self, other: &Self) -> Self {
        PyCardSet(CardSet(self.0 .0 & other.0 .0))
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("CardSet('{}')", self.0)
    }
    /// Pickles as `CardSet("As Kd ...")`, for every pickle protocol.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.get().0.to_string(),))
    }
}

/// Parses text into a list of cards (spaces and/or commas between cards).
#[pyfunction]
pub fn parse_cards(text: &str) -> PyResult<Vec<PyCard>> {
    Ok(card::parse_cards(text)?.into_iter().map(PyCard).collect())
}

/// One card from a `Card`, a code or a one-card string.
pub fn extract_card(obj: &Bound<'_, PyAny>, position: usize) -> PyResult<Card> {
    if let Ok(c) = obj.cast::<PyCard>() {
        return Ok(c.get().0);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Card::parse_token(s.to_str()?.trim(), position).map_err(PyErr::from);
    }
    let out_of_range = |token: String| crate::error::Error::InvalidCard {
        token,
        position,
        reason: "card codes are 0..=51".into(),
    };
    if let Ok(code) = obj.extract::<i64>() {
        return u8::try_from(code)
            .ok()
            .and_then(|c| Card::from_code(c).ok())
            .ok_or_else(|| out_of_range(code.to_string()))
            .map_err(PyErr::from);
    }
    // an int too big for i64 is a bad code, not a wrong type
    if obj.cast::<PyInt>().is_ok() {
        return Err(PyErr::from(out_of_range(obj.str()?.to_string())));
    }
    Err(PyTypeError::new_err(format!(
        "card at position {position}: expected Card, str or int, got {}",
        obj.get_type().name()?
    )))
}

/// Distinct cards from a string, a `CardSet`, or an iterable of cards / codes / strings.
pub fn extract_cards(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return card::parse_cards(s.to_str()?).map_err(PyErr::from);
    }
    if let Ok(set) = obj.cast::<PyCardSet>() {
        return Ok(set.get().0.cards_desc());
    }
    let mut cards = Vec::new();
    for (i, item) in obj.try_iter()?.enumerate() {
        cards.push(extract_card(&item?, i + 1)?);
    }
    card::check_distinct(&cards)?;
    Ok(cards)
}
