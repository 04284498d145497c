//! `Card` and `CardSet` as immutable, hashable, picklable Python objects, and card parsing.

use super::py_objects::display;
use crate::args::{read_int, type_name, IntArg};
use crate::errors::{py_err, OrPyErr};
use chinese_poker::card::{self, Card, CardSet};
use chinese_poker::error::{clip, count, Error};
use numpy::PyArrayMethods;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString, PyType};

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
    /// A card from its code, 0..=51: an `int` or anything with `__index__` (numpy integers), but
    /// not a `bool`.
    #[new]
    fn new(code: &Bound<'_, PyAny>) -> PyResult<Self> {
        card_from_int(code, 1)?
            .map(PyCard)
            .ok_or_else(|| not_a_code("Card", code))
    }
    /// Parses one card.
    ///
    /// Args:
    ///     text: The card: `As`, `as`, `AS`, `10h`, `Th`, `A♠`.
    ///
    /// Returns:
    ///     The card.
    ///
    /// Raises:
    ///     InvalidCardError: Text that is not one card, saying why.
    #[staticmethod]
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = text_arg("text", text)?;
        let cards = card::parse_cards(&text).py()?;
        match cards.as_slice() {
            [c] => Ok(PyCard(*c)),
            _ => Err(py_err(Error::InvalidCard {
                token: clip(&text),
                position: 1,
                reason: format!("expected one card, got {}", count(cards.len(), "card")),
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
        format!("Card.parse('{}')", self.0)
    }
    /// Pickles as `Card(code)`; `__reduce__` rather than `__getnewargs__` so that every pickle
    /// protocol works, 0 and 1 included.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (u8,)) {
        (slf.get_type(), (slf.get().0.code(),))
    }
    fn __int__(&self) -> u8 {
        self.0.code()
    }
    /// The card as Jupyter shows it: its symbol, red or black.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "html")
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
    /// The set of a raw mask.
    ///
    /// Args:
    ///     mask: An int whose bit `code` is set for every card in the set (bits 0 to 51).
    ///
    /// Returns:
    ///     The set.
    ///
    /// Raises:
    ///     InvalidArgumentError: A mask outside 0..2**52.
    ///     InvalidTypeError: A mask that is not an int.
    #[staticmethod]
    fn from_mask(mask: &Bound<'_, PyAny>) -> PyResult<Self> {
        let bad = |got: String| {
            py_err(Error::InvalidArgument {
                name: "mask".into(),
                reason: format!(
                    "expected an int in 0..2**52 (bit n set for card code n), got {got}"
                ),
            })
        };
        match read_int(mask)? {
            IntArg::Value(m) if (0..1i128 << 52).contains(&m) => Ok(PyCardSet(CardSet(m as u64))),
            IntArg::Value(m) if m >= 0 => Err(bad(format!("{m:#x}"))),
            IntArg::Value(m) => Err(bad(m.to_string())),
            IntArg::TooLarge(text) => Err(bad(text)),
            IntArg::NotInt(type_name) => Err(super::errors::InvalidTypeError::new_err(format!(
                "CardSet.from_mask: expected an int mask, got {type_name}"
            ))),
        }
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
    /// The cards as Jupyter shows them, highest first, with coloured suits.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "html")
    }
    /// Pickles as `CardSet("As Kd ...")`, for every pickle protocol.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.get().0.to_string(),))
    }
}

/// The cards of one row in the order every row is printed in: cards of a rank held more often
/// first (quads, trips, pairs), then higher ranks, a wheel straight from its five; suits from
/// spades down. For display only: settings keep their cards' order as data.
#[pyfunction]
pub fn display_order(cards: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
    Ok(card::display_order(&extract_cards(cards)?)
        .into_iter()
        .map(PyCard)
        .collect())
}

/// Parses text into cards.
///
/// Args:
///     text: Cards separated by spaces and/or commas (`"As Kd 7c"`).
///
/// Returns:
///     The cards, in the order given.
///
/// Raises:
///     InvalidCardError: A card that does not parse, naming its position.
#[pyfunction]
pub fn parse_cards(text: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
    let text = text_arg("text", text)?;
    Ok(card::parse_cards(&text)
        .py()?
        .into_iter()
        .map(PyCard)
        .collect())
}

/// The error of a card code outside 0..=51 (`token` as written) at `position`.
fn code_out_of_range(token: String, position: usize) -> PyErr {
    py_err(Error::InvalidCard {
        token,
        position,
        reason: "card codes are 0..=51".into(),
    })
}

/// `Some(card)` for an integer code 0..=51; `None` if `obj` is not an integer; an
/// `InvalidCardError` naming `position` for an integer outside 0..=51.
fn card_from_int(obj: &Bound<'_, PyAny>, position: usize) -> PyResult<Option<Card>> {
    let out_of_range = |token: String| code_out_of_range(token, position);
    match read_int(obj)? {
        IntArg::Value(v) => u8::try_from(v)
            .ok()
            .and_then(|c| Card::from_code(c).ok())
            .map(Some)
            .ok_or_else(|| out_of_range(v.to_string())),
        IntArg::TooLarge(text) => Err(out_of_range(text)),
        IntArg::NotInt(_) => Ok(None),
    }
}

fn not_a_code(what: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    let hint = if obj.is_instance_of::<PyString>() {
        "; Card.parse reads text"
    } else {
        ""
    };
    super::errors::InvalidTypeError::new_err(format!(
        "{what}: expected an int card code 0..=51, got {}{hint}",
        type_name(obj)
    ))
}

/// Text from a `str` argument. `bytes` are refused rather than read as a sequence of codes, and
/// a string with lone surrogates (which has no UTF-8 form) is an invalid card, not a
/// `UnicodeEncodeError`.
fn text_arg(name: &str, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let s = obj.cast::<PyString>().map_err(|_| {
        super::errors::InvalidTypeError::new_err(format!(
            "{name}: expected str, got {}{}",
            type_name(obj),
            bytes_hint(obj)
        ))
    })?;
    pystr(s, 1)
}

fn pystr(s: &Bound<'_, PyString>, position: usize) -> PyResult<String> {
    str_text(s, position).py()
}

/// The text of a Python `str`; one holding a lone surrogate (which has no UTF-8 form) is an
/// invalid card at `position`, never a `UnicodeEncodeError`.
pub fn str_text(s: &Bound<'_, PyString>, position: usize) -> Result<String, Error> {
    match s.to_str() {
        Ok(t) => Ok(t.to_string()),
        Err(_) => Err(Error::InvalidCard {
            token: clip(&s.to_string_lossy()),
            position,
            reason: "text with a lone surrogate is not a card".into(),
        }),
    }
}

fn bytes_hint(obj: &Bound<'_, PyAny>) -> &'static str {
    if is_bytes_like(obj) {
        " (decode bytes to str first)"
    } else {
        ""
    }
}

fn is_bytes_like(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || obj.is_instance_of::<PyMemoryView>()
}

/// One card from a `Card`, a code or a one-card string.
pub fn extract_card(obj: &Bound<'_, PyAny>, position: usize) -> PyResult<Card> {
    if let Ok(c) = obj.cast::<PyCard>() {
        return Ok(c.get().0);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Card::parse_token(pystr(s, position)?.trim(), position).map_err(py_err);
    }
    card_from_int(obj, position)?.ok_or_else(|| {
        super::errors::InvalidTypeError::new_err(format!(
            "card at position {position}: expected Card, str or int, got {}",
            type_name(obj)
        ))
    })
}

/// Distinct cards from a string, a `CardSet`, or an iterable of cards / codes / strings.
/// `bytes` are refused: iterating them would read `b"As"` as the codes 65 and 115.
pub fn extract_cards(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return card::parse_cards(&pystr(s, 1)?).map_err(py_err);
    }
    if let Ok(set) = obj.cast::<PyCardSet>() {
        return Ok(set.get().0.cards_desc());
    }
    let not_cards = || {
        super::errors::InvalidTypeError::new_err(format!(
            "cards: expected str, CardSet or an iterable of cards, got {}{}",
            type_name(obj),
            bytes_hint(obj)
        ))
    };
    if is_bytes_like(obj) {
        return Err(not_cards());
    }
    let mut cards = Vec::new();
    let mut seen = CardSet::EMPTY;
    let mut push = |c: Card| -> PyResult<()> {
        if seen.contains(c) {
            cards.push(c);
            card::check_distinct(&cards).py()?;
        }
        seen = seen.insert(c);
        cards.push(c);
        Ok(())
    };
    if let Ok(codes) = obj.cast::<numpy::PyArray1<u8>>() {
        // a row of uint8 codes (what `deal`, `parse_hands` and a policy's hand are): read from
        // the buffer, not item by item through Python, with the errors of an int item
        for (i, &code) in codes.try_readonly()?.as_array().iter().enumerate() {
            push(Card::from_code(code).map_err(|_| code_out_of_range(code.to_string(), i + 1))?)?;
        }
    } else {
        let items = obj.try_iter().map_err(|_| not_cards())?;
        // checked as the items arrive, so an endless iterator stops at its first repeat
        for (i, item) in items.enumerate() {
            push(extract_card(&item?, i + 1)?)?;
        }
    }
    Ok(cards)
}
