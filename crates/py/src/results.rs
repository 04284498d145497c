//! The result classes of `settle` and `solve`, built once in Rust: frozen `#[pyclass]`es that
//! hold the core's result and build Python values (settings, ranks, tuples) only when an
//! attribute is read. `explain()` text is written on demand, never on every call.
//!
//! Each class pickles as `Class._from_dict(obj.to_dict())`: `to_dict()` is JSON data, and
//! `_from_dict` re-checks it (cards, ranks, names) so that a damaged pickle raises
//! `InvalidShapeError` rather than building a result that never came from the core.

use super::cards::{display, PyCard};
use super::decision::classes;
use super::eval::PyHandRank;
use crate::errors::{py_err, OrPyErr};
use chinese_poker::card::{parse_cards, Card};
use chinese_poker::error::Error;
use chinese_poker::eval::HandRank;
use chinese_poker::rules::{NaturalKind, Row};
use chinese_poker::score::{
    Matchup, MatchupKind, Payment, PlayerResult, RowOutcome, Settlement, Status,
};
use chinese_poker::setting::Setting;
use chinese_poker::solve::{Choice, Solution};
use pyo3::conversion::FromPyObjectOwned;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::Arc;

// -- shared helpers ------------------------------------------------------------------------

/// The Python `Setting` for a core setting (no re-parsing: the core's settings are valid).
pub fn py_setting<'py>(py: Python<'py>, s: &Setting) -> PyResult<Bound<'py, PyAny>> {
    let row = |cards: &[Card]| PyTuple::new(py, cards.iter().map(|&c| PyCard(c)));
    classes(py)?
        .setting
        .bind(py)
        .call_method1("_trusted", (row(&s.front)?, row(&s.middle)?, row(&s.back)?))
}

fn setting_of_codes(codes: &[u8; 13]) -> Setting {
    let cards = codes.map(|c| Card::from_code(c).expect("the core's codes are valid"));
    Setting::new(&cards[..3], &cards[3..8], &cards[8..]).expect("the core's codes are distinct")
}

/// A setting's text for reprs that cannot be evaluated: rows in the one display order
/// ([`chinese_poker::card::display_order`]), plain letters.
fn shown(codes: &[u8; 13]) -> String {
    let s = setting_of_codes(codes);
    [&s.front[..], &s.middle[..], &s.back[..]]
        .map(|row| {
            chinese_poker::card::display_order(row)
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .join(" / ")
}

fn ranks_tuple<'py>(py: Python<'py>, raws: [u32; 3]) -> PyResult<Bound<'py, PyTuple>> {
    let ranks = raws.map(|r| PyHandRank(HandRank::from_raw(r)));
    PyTuple::new(py, ranks)
}

fn damaged(what: &str, reason: impl Into<String>) -> PyErr {
    py_err(Error::InvalidShape {
        what: format!("{what} data"),
        expected: "what to_dict() returns".into(),
        got: reason.into(),
    })
}

/// Reads the fields of a `to_dict()` dict back, naming the class and field on any problem.
struct Fields<'a, 'py> {
    dict: &'a Bound<'py, PyDict>,
    what: &'static str,
}

impl<'py> Fields<'_, 'py> {
    fn of(obj: &Bound<'py, PyAny>, what: &'static str) -> PyResult<Bound<'py, PyDict>> {
        obj.cast::<PyDict>()
            .cloned()
            .map_err(|_| damaged(what, "not a dict"))
    }
    fn raw(&self, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.dict
            .get_item(key)?
            .ok_or_else(|| damaged(self.what, format!("no {key:?}")))
    }
    fn get<T: FromPyObjectOwned<'py>>(&self, key: &str) -> PyResult<T> {
        self.raw(key)?
            .extract::<T>()
            .map_err(|_| damaged(self.what, format!("{key:?} has the wrong type")))
    }
    fn list(&self, key: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let v = self.raw(key)?;
        let l = v
            .cast::<PyList>()
            .map_err(|_| damaged(self.what, format!("{key:?} is not a list")))?;
        Ok(l.iter().collect())
    }
    fn bad(&self, reason: impl Into<String>) -> PyErr {
        damaged(self.what, reason)
    }
}

fn parse_setting(f: &Fields<'_, '_>, text: &str) -> PyResult<Setting> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 3 {
        return Err(f.bad(format!("setting {text:?}")));
    }
    let cards = rows
        .iter()
        .map(|r| parse_cards(r))
        .collect::<chinese_poker::error::Result<Vec<_>>>()
        .py()?;
    Setting::new(&cards[0], &cards[1], &cards[2]).py()
}

fn parse_ranks(f: &Fields<'_, '_>, raws: [u32; 3]) -> PyResult<[HandRank; 3]> {
    let mut out = [HandRank::from_raw(0); 3];
    for (slot, raw) in out.iter_mut().zip(raws) {
        *slot = HandRank::checked_from_raw(raw).ok_or_else(|| f.bad(format!("rank {raw}")))?;
    }
    Ok(out)
}

fn parse_natural(f: &Fields<'_, '_>, key: &str) -> PyResult<NaturalKind> {
    NaturalKind::from_name(key).ok_or_else(|| f.bad(format!("natural {key:?}")))
}

fn to_py_reduce<'py>(
    slf: &Bound<'py, PyAny>,
    data: Bound<'py, PyDict>,
) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
    Ok((slf.get_type().getattr("_from_dict")?, (data,)))
}

// -- settlement ----------------------------------------------------------------------------

fn status_of(f: &Fields<'_, '_>, name: &str) -> PyResult<Status> {
    [
        Status::Played,
        Status::Fouled,
        Status::Natural,
        Status::Surrendered,
    ]
    .into_iter()
    .find(|s| s.name() == name)
    .ok_or_else(|| f.bad(format!("status {name:?}")))
}

fn kind_of(f: &Fields<'_, '_>, name: &str) -> PyResult<MatchupKind> {
    [
        MatchupKind::Rows,
        MatchupKind::Foul,
        MatchupKind::BothFouled,
        MatchupKind::Natural,
        MatchupKind::Surrender,
    ]
    .into_iter()
    .find(|k| k.name() == name)
    .ok_or_else(|| f.bad(format!("kind {name:?}")))
}

/// One row of a matchup: who won it and for how many units (after doubling).
#[pyclass(
    name = "RowResult",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq)]
pub struct PyRowResult {
    row: Row,
    r: RowOutcome,
}

impl PyRowResult {
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("row", self.row.name())?;
        d.set_item("winner", self.r.winner)?;
        d.set_item("value", self.r.value)?;
        d.set_item("bonus", self.r.bonus)?;
        d.set_item("doubled", self.r.doubled)?;
        d.set_item("suit_break", self.r.suit_break)?;
        Ok(d)
    }
    fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dict = Fields::of(obj, "RowResult")?;
        let f = Fields {
            dict: &dict,
            what: "RowResult",
        };
        let name: String = f.get("row")?;
        let row = Row::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| f.bad(format!("row {name:?}")))?;
        Ok(PyRowResult {
            row,
            r: RowOutcome {
                winner: f.get("winner")?,
                value: f.get("value")?,
                bonus: f.get("bonus")?,
                doubled: f.get("doubled")?,
                suit_break: f.get("suit_break")?,
            },
        })
    }
}

#[pymethods]
impl PyRowResult {
    #[getter]
    fn row(&self) -> &'static str {
        self.row.name()
    }
    /// The seat that won the row; `None` for a tie (or no row comparison).
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.r.winner
    }
    /// Units the winner scores for the row (after doubling), 0 for a tie.
    #[getter]
    fn value(&self) -> u64 {
        self.r.value
    }
    /// The winning hand pays a row bonus (value above the plain point).
    #[getter]
    fn bonus(&self) -> bool {
        self.r.bonus
    }
    /// The bonus was doubled (bonus row over a row of the same category).
    #[getter]
    fn doubled(&self) -> bool {
        self.r.doubled
    }
    /// The ranks were equal and the suit order decided the row.
    #[getter]
    fn suit_break(&self) -> bool {
        self.r.suit_break
    }
    /// Plain data (JSON types only).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }
    #[staticmethod]
    fn _from_dict(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::parse(data)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        to_py_reduce(slf.as_any(), slf.get().dict(slf.py())?)
    }
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "text")
    }
    /// The HTML Jupyter shows (cards with coloured suits, tables).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "html")
    }
    fn __repr__(&self) -> String {
        let winner = self.r.winner.map_or("None".into(), |w| w.to_string());
        format!(
            "RowResult(row='{}', winner={winner}, value={})",
            self.row.name(),
            self.r.value
        )
    }
}

/// The settlement between seats `a < b`; every amount is for `a` (`b` gets the negative).
/// `base` is the row difference plus majority/overall points (or the foul penalty, natural value
/// or surrender cost), `after_scoop` applies the scoop, `points` the sweep multiplier.
#[pyclass(
    name = "Matchup",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq)]
pub struct PyMatchup(Matchup);

impl PyMatchup {
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let m = &self.0;
        let d = PyDict::new(py);
        d.set_item("a", m.a)?;
        d.set_item("b", m.b)?;
        d.set_item("kind", m.kind.name())?;
        let rows = PyList::empty(py);
        for (row, r) in Row::ALL.into_iter().zip(m.rows) {
            rows.append(PyRowResult { row, r }.dict(py)?)?;
        }
        d.set_item("rows", rows)?;
        d.set_item("row_totals", m.row_totals.to_vec())?;
        d.set_item("majority", m.majority)?;
        d.set_item("overall", m.overall)?;
        d.set_item("base", m.base)?;
        d.set_item("scoop", m.scoop)?;
        d.set_item("after_scoop", m.after_scoop)?;
        d.set_item("sweep_multiplier", m.sweep_multiplier)?;
        d.set_item("points", m.points)?;
        Ok(d)
    }
    fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dict = Fields::of(obj, "Matchup")?;
        let f = Fields {
            dict: &dict,
            what: "Matchup",
        };
        let rows = f
            .list("rows")?
            .iter()
            .map(PyRowResult::parse)
            .collect::<PyResult<Vec<_>>>()?;
        if rows.len() != 3 || rows.iter().zip(Row::ALL).any(|(r, row)| r.row != row) {
            return Err(f.bad("rows"));
        }
        let kind: String = f.get("kind")?;
        let row_totals: [i64; 2] = f.get("row_totals")?;
        Ok(PyMatchup(Matchup {
            a: f.get("a")?,
            b: f.get("b")?,
            kind: kind_of(&f, &kind)?,
            rows: [rows[0].r, rows[1].r, rows[2].r],
            row_totals,
            majority: f.get("majority")?,
            overall: f.get("overall")?,
            base: f.get("base")?,
            scoop: f.get("scoop")?,
            after_scoop: f.get("after_scoop")?,
            sweep_multiplier: f.get("sweep_multiplier")?,
            points: f.get("points")?,
        }))
    }
}

#[pymethods]
impl PyMatchup {
    #[getter]
    fn a(&self) -> usize {
        self.0.a
    }
    #[getter]
    fn b(&self) -> usize {
        self.0.b
    }
    /// "rows", "foul", "both fouled", "natural" or "surrender".
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind.name()
    }
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let rows = Row::ALL
            .into_iter()
            .zip(self.0.rows)
            .map(|(row, r)| PyRowResult { row, r });
        PyTuple::new(py, rows)
    }
    /// Row values won by `a` and by `b`.
    #[getter]
    fn row_totals(&self) -> (i64, i64) {
        (self.0.row_totals[0], self.0.row_totals[1])
    }
    #[getter]
    fn majority(&self) -> i64 {
        self.0.majority
    }
    #[getter]
    fn overall(&self) -> i64 {
        self.0.overall
    }
    #[getter]
    fn base(&self) -> i64 {
        self.0.base
    }
    /// The seat that scooped the other, if any.
    #[getter]
    fn scoop(&self) -> Option<usize> {
        self.0.scoop
    }
    #[getter]
    fn after_scoop(&self) -> i64 {
        self.0.after_scoop
    }
    #[getter]
    fn sweep_multiplier(&self) -> i64 {
        self.0.sweep_multiplier
    }
    /// Final points for `a`; `b` gets the negative.
    #[getter]
    fn points(&self) -> i64 {
        self.0.points
    }
    /// The matchup's points from `seat`'s side.
    fn points_for(&self, seat: &Bound<'_, PyAny>) -> PyResult<i64> {
        let s = super::int_arg(seat, "seat", 0, 3)? as usize;
        if s == self.0.a {
            Ok(self.0.points)
        } else if s == self.0.b {
            Ok(-self.0.points)
        } else {
            Err(super::bad_arg(
                "seat",
                format!("seat {s} is not in the matchup {} v {}", self.0.a, self.0.b),
            ))
        }
    }
    /// Plain data (JSON types only).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }
    #[staticmethod]
    fn _from_dict(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::parse(data)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        to_py_reduce(slf.as_any(), slf.get().dict(slf.py())?)
    }
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "text")
    }
    /// The HTML Jupyter shows (cards with coloured suits, tables).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "html")
    }
    fn __repr__(&self) -> String {
        format!(
            "Matchup(a={}, b={}, kind='{}', points={})",
            self.0.a,
            self.0.b,
            self.0.kind.name(),
            self.0.points
        )
    }
}

/// One transfer, in dealer order: `paid` is less than `owed` only under the bankroll cap.
#[pyclass(
    name = "Payment",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq)]
pub struct PyPayment(Payment);

impl PyPayment {
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("matchup", self.0.matchup)?;
        d.set_item("payer", self.0.payer)?;
        d.set_item("payee", self.0.payee)?;
        d.set_item("owed", self.0.owed)?;
        d.set_item("paid", self.0.paid)?;
        Ok(d)
    }
    fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dict = Fields::of(obj, "Payment")?;
        let f = Fields {
            dict: &dict,
            what: "Payment",
        };
        Ok(PyPayment(Payment {
            matchup: f.get("matchup")?,
            payer: f.get("payer")?,
            payee: f.get("payee")?,
            owed: f.get("owed")?,
            paid: f.get("paid")?,
        }))
    }
}

#[pymethods]
impl PyPayment {
    /// Index into `Settlement.matchups`.
    #[getter]
    fn matchup(&self) -> usize {
        self.0.matchup
    }
    #[getter]
    fn payer(&self) -> usize {
        self.0.payer
    }
    #[getter]
    fn payee(&self) -> usize {
        self.0.payee
    }
    #[getter]
    fn owed(&self) -> i64 {
        self.0.owed
    }
    #[getter]
    fn paid(&self) -> i64 {
        self.0.paid
    }
    /// Plain data (JSON types only).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }
    #[staticmethod]
    fn _from_dict(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::parse(data)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        to_py_reduce(slf.as_any(), slf.get().dict(slf.py())?)
    }
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "text")
    }
    /// The HTML Jupyter shows (cards with coloured suits, tables).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "html")
    }
    fn __repr__(&self) -> String {
        let p = &self.0;
        format!(
            "Payment(matchup={}, payer={}, payee={}, owed={}, paid={})",
            p.matchup, p.payer, p.payee, p.owed, p.paid
        )
    }
}

/// One player's part: the setting as given (`None` for a surrender), what the decision became,
/// and what the player wins (negative: pays). `raw_total` is before the bankroll cap, `total`
/// after.
#[pyclass(
    name = "PlayerResult",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq)]
pub struct PyPlayerResult {
    seat: usize,
    p: PlayerResult,
}

impl PyPlayerResult {
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let p = &self.p;
        let d = PyDict::new(py);
        d.set_item("seat", self.seat)?;
        d.set_item("status", p.status.name())?;
        d.set_item("setting", p.setting.map(|s| s.to_string()))?;
        d.set_item("ranks", p.ranks.map(|r| r.map(|h| h.raw()).to_vec()))?;
        d.set_item("natural", p.natural.map(|(k, _)| k.name()))?;
        d.set_item("natural_value", p.natural.map(|(_, v)| v))?;
        d.set_item("auto_declared", p.auto_declared)?;
        d.set_item("foul_reason", p.foul_reason.clone())?;
        d.set_item("sweep", p.sweep)?;
        d.set_item("raw_total", p.raw_total)?;
        d.set_item("total", p.total)?;
        Ok(d)
    }
    fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dict = Fields::of(obj, "PlayerResult")?;
        let f = Fields {
            dict: &dict,
            what: "PlayerResult",
        };
        let status: String = f.get("status")?;
        let setting = match f.get::<Option<String>>("setting")? {
            Some(text) => Some(parse_setting(&f, &text)?),
            None => None,
        };
        let ranks = match f.get::<Option<[u32; 3]>>("ranks")? {
            Some(raws) => Some(parse_ranks(&f, raws)?),
            None => None,
        };
        let natural = match (
            f.get::<Option<String>>("natural")?,
            f.get::<Option<u32>>("natural_value")?,
        ) {
            (Some(k), Some(v)) => Some((parse_natural(&f, &k)?, v)),
            (None, None) => None,
            _ => return Err(f.bad("natural without natural_value")),
        };
        Ok(PyPlayerResult {
            seat: f.get("seat")?,
            p: PlayerResult {
                status: status_of(&f, &status)?,
                setting,
                ranks,
                natural,
                auto_declared: f.get("auto_declared")?,
                foul_reason: f.get("foul_reason")?,
                sweep: f.get("sweep")?,
                raw_total: f.get("raw_total")?,
                total: f.get("total")?,
            },
        })
    }
}

#[pymethods]
impl PyPlayerResult {
    #[getter]
    fn seat(&self) -> usize {
        self.seat
    }
    /// "played", "fouled", "natural" or "surrendered".
    #[getter]
    fn status(&self) -> &'static str {
        self.p.status.name()
    }
    #[getter]
    fn setting<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.p.setting.map(|s| py_setting(py, &s)).transpose()
    }
    /// Front, middle and back ranks of the setting; `None` for a surrender.
    #[getter]
    fn ranks<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        self.p
            .ranks
            .map(|r| PyTuple::new(py, r.map(PyHandRank)))
            .transpose()
    }
    /// The natural paid to this player.
    #[getter]
    fn natural(&self) -> Option<&'static str> {
        self.p.natural.map(|(k, _)| k.name())
    }
    /// What each opponent pays for the natural.
    #[getter]
    fn natural_value(&self) -> Option<u32> {
        self.p.natural.map(|(_, v)| v)
    }
    /// The natural was found by the engine (automatic declaration), not declared.
    #[getter]
    fn auto_declared(&self) -> bool {
        self.p.auto_declared
    }
    #[getter]
    fn foul_reason(&self) -> Option<&str> {
        self.p.foul_reason.as_deref()
    }
    /// Scooped every opponent at a table large enough for a sweep.
    #[getter]
    fn sweep(&self) -> bool {
        self.p.sweep
    }
    #[getter]
    fn raw_total(&self) -> i64 {
        self.p.raw_total
    }
    #[getter]
    fn total(&self) -> i64 {
        self.p.total
    }
    /// Plain data (JSON types only); ranks as their `raw` integers.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }
    #[staticmethod]
    fn _from_dict(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::parse(data)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        to_py_reduce(slf.as_any(), slf.get().dict(slf.py())?)
    }
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "text")
    }
    /// The HTML Jupyter shows (cards with coloured suits, tables).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "html")
    }
    fn __repr__(&self) -> String {
        format!(
            "PlayerResult(seat={}, status='{}', total={})",
            self.seat,
            self.p.status.name(),
            self.p.total
        )
    }
}

/// The result of `settle`: every matchup, the payments in order and the totals, which always
/// sum to zero. `explain()` prints every number with the rule behind it.
#[pyclass(
    name = "Settlement",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq)]
pub struct PySettlement(pub Arc<Settlement>);

impl PySettlement {
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &*self.0;
        let d = PyDict::new(py);
        d.set_item("dealer", s.dealer)?;
        d.set_item("totals", s.totals())?;
        let players = PyList::empty(py);
        for (seat, p) in s.players.iter().enumerate() {
            let p = PyPlayerResult { seat, p: p.clone() };
            players.append(p.dict(py)?)?;
        }
        d.set_item("players", players)?;
        let matchups = PyList::empty(py);
        for m in &s.matchups {
            matchups.append(PyMatchup(m.clone()).dict(py)?)?;
        }
        d.set_item("matchups", matchups)?;
        let payments = PyList::empty(py);
        for p in &s.payments {
            payments.append(PyPayment(*p).dict(py)?)?;
        }
        d.set_item("payments", payments)?;
        d.set_item("capped", s.capped)?;
        d.set_item("bankrolls_after", s.bankrolls_after.clone())?;
        Ok(d)
    }
    fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dict = Fields::of(obj, "Settlement")?;
        let f = Fields {
            dict: &dict,
            what: "Settlement",
        };
        let players = f
            .list("players")?
            .iter()
            .map(PyPlayerResult::parse)
            .collect::<PyResult<Vec<_>>>()?;
        if players.iter().enumerate().any(|(i, p)| p.seat != i) || !(2..=4).contains(&players.len())
        {
            return Err(f.bad("players"));
        }
        let matchups = f
            .list("matchups")?
            .iter()
            .map(|m| PyMatchup::parse(m).map(|m| m.0))
            .collect::<PyResult<Vec<_>>>()?;
        let payments = f
            .list("payments")?
            .iter()
            .map(|p| PyPayment::parse(p).map(|p| p.0))
            .collect::<PyResult<Vec<_>>>()?;
        let n = players.len();
        if matchups.len() != n * (n - 1) / 2
            || matchups.iter().any(|m| m.a >= m.b || m.b >= n)
            || payments.iter().any(|p| p.matchup >= matchups.len())
        {
            return Err(f.bad("matchups or payments do not fit the players"));
        }
        Ok(PySettlement(Arc::new(Settlement {
            dealer: f.get("dealer")?,
            players: players.into_iter().map(|p| p.p).collect(),
            matchups,
            payments,
            capped: f.get("capped")?,
            bankrolls_after: f.get("bankrolls_after")?,
        })))
    }
}

#[pymethods]
impl PySettlement {
    #[getter]
    fn dealer(&self) -> usize {
        self.0.dealer
    }
    #[getter]
    fn players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let players = self
            .0
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| PyPlayerResult { seat, p: p.clone() });
        PyTuple::new(py, players)
    }
    /// Every pair of seats `a < b`, in the order (0, 1), (0, 2), ..., (n-2, n-1).
    #[getter]
    fn matchups<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.matchups.iter().map(|m| PyMatchup(m.clone())))
    }
    /// Non-zero payments in dealer order.
    #[getter]
    fn payments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.payments.iter().map(|p| PyPayment(*p)))
    }
    /// Whether the payments were capped by bankrolls.
    #[getter]
    fn capped(&self) -> bool {
        self.0.capped
    }
    /// Bankrolls after the payments, if bankrolls were given.
    #[getter]
    fn bankrolls_after<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        self.0
            .bankrolls_after
            .as_ref()
            .map(|b| PyTuple::new(py, b))
            .transpose()
    }
    /// What each seat wins (negative: pays), after any bankroll cap.
    #[getter]
    fn totals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.players.iter().map(|p| p.total))
    }
    /// Totals before the bankroll cap.
    #[getter]
    fn raw_totals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.players.iter().map(|p| p.raw_total))
    }
    /// Seats that scooped every opponent at a table large enough for a sweep.
    #[getter]
    fn sweeps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let seats: Vec<usize> = (0..self.0.players.len())
            .filter(|&i| self.0.players[i].sweep)
            .collect();
        PyTuple::new(py, seats)
    }
    /// The matchup between two seats, in either order.
    fn matchup(&self, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<PyMatchup> {
        let n = self.0.players.len() as i128 - 1;
        let x = super::int_arg(x, "x", 0, n)? as usize;
        let y = super::int_arg(y, "y", 0, n)? as usize;
        self.0
            .matchup(x, y)
            .filter(|_| x != y)
            .map(|m| PyMatchup(m.clone()))
            .ok_or_else(|| super::bad_arg("y", format!("no matchup between seats {x} and {y}")))
    }
    /// What seat `x` wins from seat `y` (before any bankroll cap).
    fn points(&self, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<i64> {
        let m = self.matchup(x, y)?;
        m.points_for(x)
    }
    /// A readable account of every number: hands, each matchup row by row with the rule applied
    /// (bonus, doubling, scoop, sweep, foul, natural, surrender), payments, totals.
    fn explain(&self) -> String {
        self.0.explain()
    }
    /// Who played what, the matchup table and the totals; `explain()` has every rule.
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "text")
    }
    /// The HTML Jupyter shows (cards with coloured suits, tables).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "html")
    }
    fn __repr__(&self) -> String {
        let totals: Vec<String> = self.0.totals().iter().map(|t| t.to_string()).collect();
        format!(
            "Settlement(dealer={}, totals=({}{}), capped={})",
            self.0.dealer,
            totals.join(", "),
            if totals.len() == 1 { "," } else { "" },
            if self.0.capped { "True" } else { "False" }
        )
    }
    /// Plain data (JSON types only); hand ranks as their `raw` integers, settings as text.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }
    #[staticmethod]
    fn _from_dict(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::parse(data)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        to_py_reduce(slf.as_any(), slf.get().dict(slf.py())?)
    }
}

// -- solution ------------------------------------------------------------------------------

/// A candidate play: its cards (`codes`: front, middle, back), row ranks (`raw_ranks`:
/// `HandRank.raw` values) and value (`stderr` for Monte Carlo).
#[pyclass(
    name = "Alternative",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq)]
pub struct PyAlternative {
    codes: [u8; 13],
    raw_ranks: [u32; 3],
    value: f64,
    stderr: f64,
}

impl PyAlternative {
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("codes", self.codes.map(u32::from).to_vec())?;
        d.set_item("raw_ranks", self.raw_ranks.to_vec())?;
        d.set_item("value", self.value)?;
        d.set_item("stderr", self.stderr)?;
        Ok(d)
    }
    fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dict = Fields::of(obj, "Alternative")?;
        let f = Fields {
            dict: &dict,
            what: "Alternative",
        };
        let codes = parse_codes(&f, f.get("codes")?)?;
        let raws: [u32; 3] = f.get("raw_ranks")?;
        parse_ranks(&f, raws)?;
        Ok(PyAlternative {
            codes,
            raw_ranks: raws,
            value: f.get("value")?,
            stderr: f.get("stderr")?,
        })
    }
}

fn parse_codes(f: &Fields<'_, '_>, codes: [u8; 13]) -> PyResult<[u8; 13]> {
    chinese_poker::card::validate_rows(&codes, 13, "codes").map_err(|e| f.bad(e.to_string()))?;
    Ok(codes)
}

#[pymethods]
impl PyAlternative {
    /// The 13 card codes, front (3), middle (5), back (5).
    #[getter]
    fn codes(&self) -> Vec<u32> {
        self.codes.map(u32::from).to_vec()
    }
    #[getter]
    fn raw_ranks(&self) -> (u32, u32, u32) {
        (self.raw_ranks[0], self.raw_ranks[1], self.raw_ranks[2])
    }
    #[getter]
    fn value(&self) -> f64 {
        self.value
    }
    /// Standard error of `value` (Monte Carlo; 0 otherwise).
    #[getter]
    fn stderr(&self) -> f64 {
        self.stderr
    }
    #[getter]
    fn setting<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_setting(py, &setting_of_codes(&self.codes))
    }
    /// Front, middle and back ranks.
    #[getter]
    fn ranks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        ranks_tuple(py, self.raw_ranks)
    }
    /// "pair of kings, ... / ... / ...": the three rows' ranks in words.
    fn describe(&self) -> String {
        describe_ranks(self.raw_ranks)
    }
    /// Plain data (JSON types only).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }
    #[staticmethod]
    fn _from_dict(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::parse(data)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        to_py_reduce(slf.as_any(), slf.get().dict(slf.py())?)
    }
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "text")
    }
    /// The HTML Jupyter shows (cards with coloured suits, tables).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "html")
    }
    fn __repr__(&self) -> String {
        format!(
            "Alternative('{}', value={})",
            shown(&self.codes),
            self.value
        )
    }
}

fn describe_ranks(raws: [u32; 3]) -> String {
    raws.map(|r| HandRank::from_raw(r).describe()).join(" / ")
}

fn objective_name(f: &Fields<'_, '_>, name: &str) -> PyResult<&'static str> {
    ["TableEV", "RowValues", "BestResponse", "MonteCarlo"]
        .into_iter()
        .find(|n| *n == name)
        .ok_or_else(|| f.bad(format!("objective {name:?}")))
}

/// What to do with a hand under an objective.
///
/// `decision` is "play", "declare" (`natural` names it) or "surrender"; `setting` lays out the
/// 13 cards (the natural's layout when declaring); `value` is the decision's value under the
/// objective (points, except for `RowValues`), `stderr` its standard error (Monte Carlo only);
/// `alternatives` the best plays, best first.
#[pyclass(
    name = "Solution",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(Clone, PartialEq)]
pub struct PySolution {
    choice: Choice,
    codes: [u8; 13],
    raw_ranks: [u32; 3],
    value: f64,
    stderr: f64,
    play_value: f64,
    natural_held: Option<(NaturalKind, u32, f64)>,
    surrender_value: Option<f64>,
    alternatives: Vec<PyAlternative>,
    candidates: usize,
    samples: usize,
    objective: &'static str,
    players: usize,
    rules: String,
}

impl PySolution {
    pub fn new(s: Solution, players: usize, rules: String) -> PySolution {
        PySolution {
            choice: s.choice,
            codes: s.codes,
            raw_ranks: s.ranks,
            value: s.value,
            stderr: s.stderr,
            play_value: s.play_value,
            natural_held: s.natural,
            surrender_value: s.surrender_value,
            alternatives: s
                .alternatives
                .iter()
                .map(|a| PyAlternative {
                    codes: a.codes,
                    raw_ranks: a.split.ranks,
                    value: a.value,
                    stderr: a.stderr,
                })
                .collect(),
            candidates: s.candidates,
            samples: s.samples,
            objective: s.objective,
            players,
            rules,
        }
    }

    fn decision_name(&self) -> &'static str {
        match self.choice {
            Choice::Play => "play",
            Choice::Declare(_) => "declare",
            Choice::Surrender => "surrender",
        }
    }

    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("decision", self.decision_name())?;
        d.set_item("natural", self.natural())?;
        d.set_item("setting", setting_of_codes(&self.codes).to_string())?;
        d.set_item("codes", self.codes.map(u32::from).to_vec())?;
        d.set_item("raw_ranks", self.raw_ranks.to_vec())?;
        d.set_item("value", self.value)?;
        d.set_item("stderr", self.stderr())?;
        d.set_item("play_value", self.play_value)?;
        d.set_item(
            "natural_held",
            self.natural_held.map(|(k, u, v)| (k.name(), u, v)),
        )?;
        d.set_item("surrender_value", self.surrender_value)?;
        let alts = PyList::empty(py);
        for a in &self.alternatives {
            alts.append(a.dict(py)?)?;
        }
        d.set_item("alternatives", alts)?;
        d.set_item("candidates", self.candidates)?;
        d.set_item("samples", self.samples)?;
        d.set_item("objective", self.objective)?;
        d.set_item("players", self.players)?;
        d.set_item("rules", &self.rules)?;
        Ok(d)
    }

    fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let dict = Fields::of(obj, "Solution")?;
        let f = Fields {
            dict: &dict,
            what: "Solution",
        };
        let decision: String = f.get("decision")?;
        let natural: Option<String> = f.get("natural")?;
        let choice = match (decision.as_str(), natural) {
            ("play", None) => Choice::Play,
            ("surrender", None) => Choice::Surrender,
            ("declare", Some(k)) => Choice::Declare(parse_natural(&f, &k)?),
            _ => return Err(f.bad(format!("decision {decision:?}"))),
        };
        let raws: [u32; 3] = f.get("raw_ranks")?;
        parse_ranks(&f, raws)?;
        let natural_held = match f.get::<Option<(String, u32, f64)>>("natural_held")? {
            Some((k, u, v)) => Some((parse_natural(&f, &k)?, u, v)),
            None => None,
        };
        let alternatives = f
            .list("alternatives")?
            .iter()
            .map(PyAlternative::parse)
            .collect::<PyResult<Vec<_>>>()?;
        if alternatives.is_empty() {
            return Err(f.bad("no alternatives"));
        }
        let objective: String = f.get("objective")?;
        Ok(PySolution {
            choice,
            codes: parse_codes(&f, f.get("codes")?)?,
            raw_ranks: raws,
            value: f.get("value")?,
            stderr: f.get::<Option<f64>>("stderr")?.unwrap_or(0.0),
            play_value: f.get("play_value")?,
            natural_held,
            surrender_value: f.get("surrender_value")?,
            alternatives,
            candidates: f.get("candidates")?,
            samples: f.get::<Option<usize>>("samples")?.unwrap_or(0),
            objective: objective_name(&f, &objective)?,
            players: f.get("players")?,
            rules: f.get("rules")?,
        })
    }
}

/// `+1.234 points ± 0.050`, as `explain()` prints values.
fn fmt_value(v: f64, unit: &str, se: Option<f64>) -> String {
    let mut s = format!("{v:+.3}{unit}");
    if let Some(se) = se.filter(|&se| se != 0.0) {
        s.push_str(&format!(" ± {se:.3}"));
    }
    s
}

#[pymethods]
impl PySolution {
    /// "play", "declare" or "surrender".
    #[getter]
    fn decision(&self) -> &'static str {
        self.decision_name()
    }
    /// The natural declared (when `decision` is "declare").
    #[getter]
    fn natural(&self) -> Option<&'static str> {
        match self.choice {
            Choice::Declare(k) => Some(k.name()),
            _ => None,
        }
    }
    /// The 13 cards laid out: the best play, or the natural's layout when declaring.
    #[getter]
    fn setting<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_setting(py, &setting_of_codes(&self.codes))
    }
    /// `HandRank.raw` of the setting's front, middle and back.
    #[getter]
    fn raw_ranks(&self) -> (u32, u32, u32) {
        (self.raw_ranks[0], self.raw_ranks[1], self.raw_ranks[2])
    }
    /// Front, middle and back ranks of `setting`.
    #[getter]
    fn ranks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        ranks_tuple(py, self.raw_ranks)
    }
    #[getter]
    fn value(&self) -> f64 {
        self.value
    }
    /// Standard error of `value` (Monte Carlo only; `None` for the other objectives).
    #[getter]
    fn stderr(&self) -> Option<f64> {
        (self.objective == "MonteCarlo").then_some(self.stderr)
    }
    /// The best play's value.
    #[getter]
    fn play_value(&self) -> f64 {
        self.play_value
    }
    /// The natural the hand holds: (name, what each opponent pays, its value), or `None`.
    #[getter]
    fn natural_held(&self) -> Option<(&'static str, u32, f64)> {
        self.natural_held.map(|(k, u, v)| (k.name(), u, v))
    }
    /// Value of surrendering, where the rule set allows it.
    #[getter]
    fn surrender_value(&self) -> Option<f64> {
        self.surrender_value
    }
    /// The best plays, best first.
    #[getter]
    fn alternatives<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.alternatives.iter().cloned())
    }
    /// How many settings the objective compared.
    #[getter]
    fn candidates(&self) -> usize {
        self.candidates
    }
    /// Monte Carlo samples drawn (at most the budget's; 0 for the other objectives).
    #[getter]
    fn samples(&self) -> usize {
        self.samples
    }
    /// "TableEV", "RowValues", "BestResponse" or "MonteCarlo".
    #[getter]
    fn objective(&self) -> &'static str {
        self.objective
    }
    #[getter]
    fn players(&self) -> usize {
        self.players
    }
    /// The rule set's name.
    #[getter]
    fn rules(&self) -> &str {
        &self.rules
    }
    /// The decision in the form `settle` takes: a `Setting`, `Declare` or `Surrender`.
    fn as_decision<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let c = classes(py)?;
        match self.choice {
            Choice::Play => self.setting(py),
            Choice::Declare(k) => c.declare.bind(py).call1((k.name(), self.setting(py)?)),
            Choice::Surrender => c.surrender.bind(py).call0(),
        }
    }
    /// The decision and why, in plain words.
    fn explain(&self) -> String {
        let unit = if self.objective == "RowValues" {
            ""
        } else {
            " points"
        };
        let opp = self.players.saturating_sub(1);
        let s = if opp > 1 { "s" } else { "" };
        let what = match self.objective {
            "TableEV" => {
                format!("expected score against {opp} opponent{s} (trained outcome tables)")
            }
            "MonteCarlo" => format!("mean score over sampled deals to {opp} opponent{s}"),
            "BestResponse" => "exact score against the given opponents".into(),
            _ => "sum of your row values".into(),
        };
        let fmt = |v: f64, se: Option<f64>| fmt_value(v, unit, se);
        let mut lines = vec![format!(
            "Rule set {}, {} players; objective {}: {what}.",
            self.rules, self.players, self.objective
        )];
        let setting = setting_of_codes(&self.codes);
        let rows: [&[Card]; 3] = [&setting.front, &setting.middle, &setting.back];
        let layout: Vec<String> = Row::ALL
            .into_iter()
            .zip(rows)
            .zip(self.raw_ranks)
            .map(|((row, cards), raw)| {
                let shown: Vec<String> = chinese_poker::card::display_order(cards)
                    .iter()
                    .map(|c| c.pretty())
                    .collect();
                format!(
                    "  {:<7}{:<16} {}",
                    row.name(),
                    shown.join(" "),
                    HandRank::from_raw(raw).describe()
                )
            })
            .collect();
        match (self.choice, self.natural_held, self.surrender_value) {
            (Choice::Declare(_), Some((kind, units, v)), _) => lines.push(format!(
                "Declare {}: {units} from each opponent, {} (the best play is worth {}).",
                kind.label(),
                fmt(v, None),
                fmt(self.play_value, None)
            )),
            (Choice::Surrender, _, Some(v)) => lines.push(format!(
                "Surrender: {} loses less than the best play ({}).",
                fmt(v, None),
                fmt(self.play_value, None)
            )),
            _ => lines.push(format!(
                "Play, worth {}:",
                fmt(
                    self.value,
                    self.stderr().filter(|_| self.choice == Choice::Play)
                )
            )),
        }
        lines.extend(layout);
        if let (Choice::Play, Some((kind, _, v))) = (self.choice, self.natural_held) {
            lines.push(format!(
                "Holds {} ({}) but playing is worth more.",
                kind.label(),
                fmt(v, None)
            ));
        }
        if self.alternatives.len() > 1 {
            lines.push(format!(
                "Next best of {} candidate settings:",
                self.candidates
            ));
            for (i, alt) in self.alternatives.iter().enumerate().skip(1) {
                lines.push(format!(
                    "  {}. {}  {}  ({})",
                    i + 1,
                    fmt(alt.value, Some(alt.stderr)),
                    setting_of_codes(&alt.codes).pretty(),
                    describe_ranks(alt.raw_ranks)
                ));
            }
        }
        lines.join("\n")
    }
    fn __str__(&self) -> String {
        self.explain()
    }
    /// The HTML Jupyter shows (cards with coloured suits, tables).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        display(slf.as_any(), "html")
    }
    fn __repr__(&self) -> String {
        let what = match self.choice {
            Choice::Declare(k) => format!("declare {}", k.name()),
            _ => self.decision_name().to_string(),
        };
        format!(
            "Solution('{what}', '{}', value={}, objective='{}')",
            shown(&self.codes),
            self.value,
            self.objective
        )
    }
    /// Plain data (JSON types only).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }
    #[staticmethod]
    fn _from_dict(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::parse(data)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        to_py_reduce(slf.as_any(), slf.get().dict(slf.py())?)
    }
}
