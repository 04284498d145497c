//! The result classes of `settle` and `solve`: frozen `#[pyclass]`es that hold the core's value,
//! shared, never copied: a `Settlement` or `Solution` holds the core result in an `Arc`, and a
//! part of it (a player, matchup, payment, row or alternative) holds that `Arc` and where the
//! part is ([`Part`]). Python values (settings, ranks, tuples) are built only when an attribute
//! is read, and the texts (`explain()`) are the core's.
//!
//! `to_dict()` is serde on the core types (`pythonize`); `_from_dict()` is serde back followed
//! by the core's one check (`chinese_poker::data::rebuild`), so that a damaged pickle or dict
//! raises `InvalidShapeError` rather than building a result that never came from the core.
//! Each class pickles as `Class._from_dict(obj.to_dict())`. The methods every class shares are
//! written once, in [`result_class!`].

use super::eval::PyHandRank;
use super::py_objects::{classes, display, py_setting};
use crate::errors::{py_err, OrPyErr};
use chinese_poker::card::{display_order, Card};
use chinese_poker::data::{rebuild, Record};
use chinese_poker::eval::HandRank;
use chinese_poker::score::{Matchup, Payment, PlayerResult, RowOutcome, Settlement};
use chinese_poker::setting::Setting;
use chinese_poker::solve::{Alternative, Choice, Solved, TablesId, TablesSource};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::{Arc, OnceLock};

// -- shared holding ------------------------------------------------------------------------

/// A value that holds parts of type `T`, found by index.
trait Owner<T>: Send + Sync {
    fn part(&self, index: usize) -> &T;
}

/// A value rebuilt on its own (`_from_dict`) is its own owner.
impl<T: Send + Sync> Owner<T> for T {
    fn part(&self, _: usize) -> &T {
        self
    }
}

impl Owner<PlayerResult> for Settlement {
    fn part(&self, index: usize) -> &PlayerResult {
        &self.players[index]
    }
}

impl Owner<Matchup> for Settlement {
    fn part(&self, index: usize) -> &Matchup {
        &self.matchups[index]
    }
}

impl Owner<Payment> for Settlement {
    fn part(&self, index: usize) -> &Payment {
        &self.payments[index]
    }
}

impl Owner<Alternative> for Solved {
    fn part(&self, index: usize) -> &Alternative {
        &self.solution.alternatives[index]
    }
}

/// The rows of a matchup, wherever the matchup is held.
struct RowsOf(Part<Matchup>);

impl Owner<RowOutcome> for RowsOf {
    fn part(&self, index: usize) -> &RowOutcome {
        &self.0.get().rows[index]
    }
}

/// Part `index` of a shared core result.
pub struct Part<T: 'static> {
    owner: Arc<dyn Owner<T>>,
    index: usize,
}

impl<T> Clone for Part<T> {
    fn clone(&self) -> Self {
        Part {
            owner: self.owner.clone(),
            index: self.index,
        }
    }
}

impl<T> Part<T> {
    fn get(&self) -> &T {
        (*self.owner).part(self.index)
    }
    fn of(owner: Arc<dyn Owner<T>>, index: usize) -> Part<T> {
        Part { owner, index }
    }
    /// Every part of `owner`, as Python objects made by `class`.
    fn all<'py, C: IntoPyObject<'py>>(
        py: Python<'py>,
        owner: Arc<dyn Owner<T>>,
        count: usize,
        class: fn(Part<T>) -> C,
    ) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, (0..count).map(|i| class(Part::of(owner.clone(), i))))
    }
}

/// How a class holds its core value: an `Arc` of a whole result, or a [`Part`] of one.
trait Holder: Sized {
    type Value: Record + PartialEq + Send + Sync + 'static;
    fn value(&self) -> &Self::Value;
    /// Holds a value rebuilt from data.
    fn hold(value: Self::Value) -> Self;
}

impl<T: Record + PartialEq + Send + Sync + 'static> Holder for Arc<T> {
    type Value = T;
    fn value(&self) -> &T {
        self
    }
    fn hold(value: T) -> Self {
        Arc::new(value)
    }
}

impl<T: Record + PartialEq + Send + Sync + 'static> Holder for Part<T> {
    type Value = T;
    fn value(&self) -> &T {
        self.get()
    }
    fn hold(value: T) -> Self {
        Part::of(Arc::new(value), 0)
    }
}

/// `to_dict()`: the core value as plain data.
fn to_data<'py, T: Record>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value)
        .map_err(|e| py_err(chinese_poker::data::damaged(T::WHAT, e.to_string())))
}

/// `_from_dict()`: serde, then the core's one check.
fn from_data<T: Record>(data: &Bound<'_, PyAny>) -> PyResult<T> {
    rebuild(pythonize::depythonize::<T>(data)).py()
}

/// The methods every result class shares (equality of the core values, `to_dict`,
/// `_from_dict`, pickling, the HTML layout and, with `text`, the text layout of
/// `chinese_poker.display`), around the class's own `methods`.
macro_rules! result_class {
    ($class:ident, text, { $($methods:tt)* }) => {
        result_class!($class, {
            $($methods)*
            fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
                display(slf.as_any(), "text")
            }
        });
    };
    ($class:ident, { $($methods:tt)* }) => {
        impl PartialEq for $class {
            fn eq(&self, other: &Self) -> bool {
                self.0.value() == other.0.value()
            }
        }

        #[pymethods]
        impl $class {
            $($methods)*
            /// Plain data (JSON types only): hand ranks as their `raw` integers, settings as
            /// text, cards as codes.
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                to_data(py, self.0.value())
            }
            /// The object `to_dict()` data describes; `InvalidShapeError` if it is damaged.
            #[staticmethod]
            fn _from_dict(data: &Bound<'_, PyAny>) -> PyResult<Self> {
                from_data(data).map(|v| $class(Holder::hold(v)))
            }
            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
                let data = slf.get().to_dict(slf.py())?;
                Ok((slf.get_type().getattr("_from_dict")?, (data,)))
            }
            /// The HTML Jupyter shows (cards with coloured suits, tables).
            fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
                display(slf.as_any(), "html")
            }
        }
    };
}

// -- shared helpers ------------------------------------------------------------------------

fn setting_of_codes(codes: &[u8; 13]) -> Setting {
    let cards = codes.map(|c| Card::from_code(c).expect("the core's codes are valid"));
    Setting::new(&cards[..3], &cards[3..8], &cards[8..]).expect("the core's codes are distinct")
}

/// A setting's text for reprs that cannot be evaluated: rows in the one display order, plain
/// letters.
fn shown(codes: &[u8; 13]) -> String {
    let s = setting_of_codes(codes);
    [&s.front[..], &s.middle[..], &s.back[..]]
        .map(|row| {
            display_order(row)
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .join(" / ")
}

fn ranks_tuple<'py>(py: Python<'py>, raws: [u32; 3]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, raws.map(|r| PyHandRank(HandRank::from_raw(r))))
}

// -- settlement ----------------------------------------------------------------------------

/// One row of a matchup: who won it and for how many units (after doubling).
#[pyclass(
    name = "RowResult",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
pub struct PyRowResult(Part<RowOutcome>);

result_class!(PyRowResult, text, {
    #[getter]
    fn row(&self) -> &'static str {
        self.0.get().row.name()
    }
    /// The seat that won the row; `None` for a tie (or no row comparison).
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.0.get().winner
    }
    /// Units the winner scores for the row (after doubling), 0 for a tie.
    #[getter]
    fn value(&self) -> u64 {
        self.0.get().value
    }
    /// The winning hand pays a row bonus (value above the plain point).
    #[getter]
    fn bonus(&self) -> bool {
        self.0.get().bonus
    }
    /// The bonus was doubled (bonus row over a row of the same category).
    #[getter]
    fn doubled(&self) -> bool {
        self.0.get().doubled
    }
    /// The ranks were equal and the suit order decided the row.
    #[getter]
    fn suit_break(&self) -> bool {
        self.0.get().suit_break
    }
    fn __repr__(&self) -> String {
        let r = self.0.get();
        let winner = r.winner.map_or("None".into(), |w| w.to_string());
        format!(
            "RowResult(row='{}', winner={winner}, value={})",
            r.row.name(),
            r.value
        )
    }
});

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
pub struct PyMatchup(Part<Matchup>);

result_class!(PyMatchup, text, {
    #[getter]
    fn a(&self) -> usize {
        self.0.get().a
    }
    #[getter]
    fn b(&self) -> usize {
        self.0.get().b
    }
    /// "rows", "foul", "both fouled", "natural" or "surrender".
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.get().kind.name()
    }
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        Part::all(py, Arc::new(RowsOf(self.0.clone())), 3, PyRowResult)
    }
    /// Row values won by `a` and by `b`.
    #[getter]
    fn row_totals(&self) -> (i64, i64) {
        let [a, b] = self.0.get().row_totals;
        (a, b)
    }
    #[getter]
    fn majority(&self) -> i64 {
        self.0.get().majority
    }
    #[getter]
    fn overall(&self) -> i64 {
        self.0.get().overall
    }
    #[getter]
    fn base(&self) -> i64 {
        self.0.get().base
    }
    /// The seat that scooped the other, if any.
    #[getter]
    fn scoop(&self) -> Option<usize> {
        self.0.get().scoop
    }
    #[getter]
    fn after_scoop(&self) -> i64 {
        self.0.get().after_scoop
    }
    #[getter]
    fn sweep_multiplier(&self) -> i64 {
        self.0.get().sweep_multiplier
    }
    /// Final points for `a`; `b` gets the negative.
    #[getter]
    fn points(&self) -> i64 {
        self.0.get().points
    }
    /// The matchup's points from one seat's side.
    ///
    /// Args:
    ///     seat: `a` or `b`.
    ///
    /// Returns:
    ///     The points that seat wins (negative: pays).
    ///
    /// Raises:
    ///     InvalidArgumentError: A seat not in the matchup.
    fn points_for(&self, seat: &Bound<'_, PyAny>) -> PyResult<i64> {
        let m = self.0.get();
        let s = crate::args::int_arg(seat, "seat", 0, 3)? as usize;
        if s == m.a {
            Ok(m.points)
        } else if s == m.b {
            Ok(-m.points)
        } else {
            Err(crate::args::bad_arg(
                "seat",
                format!("seat {s} is not in the matchup {} v {}", m.a, m.b),
            ))
        }
    }
    fn __repr__(&self) -> String {
        let m = self.0.get();
        format!(
            "Matchup(a={}, b={}, kind='{}', points={})",
            m.a,
            m.b,
            m.kind.name(),
            m.points
        )
    }
});

/// One transfer, in dealer order: `paid` is less than `owed` only under the bankroll cap.
#[pyclass(
    name = "Payment",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
pub struct PyPayment(Part<Payment>);

result_class!(PyPayment, text, {
    /// Index into `Settlement.matchups`.
    #[getter]
    fn matchup(&self) -> usize {
        self.0.get().matchup
    }
    #[getter]
    fn payer(&self) -> usize {
        self.0.get().payer
    }
    #[getter]
    fn payee(&self) -> usize {
        self.0.get().payee
    }
    #[getter]
    fn owed(&self) -> i64 {
        self.0.get().owed
    }
    #[getter]
    fn paid(&self) -> i64 {
        self.0.get().paid
    }
    fn __repr__(&self) -> String {
        let p = self.0.get();
        format!(
            "Payment(matchup={}, payer={}, payee={}, owed={}, paid={})",
            p.matchup, p.payer, p.payee, p.owed, p.paid
        )
    }
});

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
pub struct PyPlayerResult(Part<PlayerResult>);

result_class!(PyPlayerResult, text, {
    #[getter]
    fn seat(&self) -> usize {
        self.0.get().seat
    }
    /// "played", "fouled", "natural" or "surrendered".
    #[getter]
    fn status(&self) -> &'static str {
        self.0.get().status.name()
    }
    #[getter]
    fn setting<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.0.get().setting.map(|s| py_setting(py, &s)).transpose()
    }
    /// Front, middle and back ranks of the setting; `None` for a surrender.
    #[getter]
    fn ranks<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let ranks = self.0.get().ranks;
        ranks
            .map(|r| PyTuple::new(py, r.map(PyHandRank)))
            .transpose()
    }
    /// The natural paid to this player.
    #[getter]
    fn natural(&self) -> Option<&'static str> {
        self.0.get().natural.map(|(k, _)| k.name())
    }
    /// What each opponent pays for the natural.
    #[getter]
    fn natural_value(&self) -> Option<u32> {
        self.0.get().natural.map(|(_, v)| v)
    }
    /// The natural was found by the engine (automatic declaration), not declared.
    #[getter]
    fn auto_declared(&self) -> bool {
        self.0.get().auto_declared
    }
    #[getter]
    fn foul_reason(&self) -> Option<&str> {
        self.0.get().foul_reason.as_deref()
    }
    /// Scooped every opponent at a table large enough for a sweep.
    #[getter]
    fn sweep(&self) -> bool {
        self.0.get().sweep
    }
    #[getter]
    fn raw_total(&self) -> i64 {
        self.0.get().raw_total
    }
    #[getter]
    fn total(&self) -> i64 {
        self.0.get().total
    }
    fn __repr__(&self) -> String {
        let p = self.0.get();
        format!(
            "PlayerResult(seat={}, status='{}', total={})",
            p.seat,
            p.status.name(),
            p.total
        )
    }
});

/// The result of `settle`: every matchup, the payments in order and the totals, which always
/// sum to zero. `explain()` prints every number with the rule behind it.
#[pyclass(
    name = "Settlement",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
pub struct PySettlement(Arc<Settlement>);

impl PySettlement {
    pub fn new(s: Settlement) -> PySettlement {
        PySettlement(Arc::new(s))
    }
}

result_class!(PySettlement, text, {
    #[getter]
    fn dealer(&self) -> usize {
        self.0.dealer
    }
    #[getter]
    fn players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        Part::all(py, self.0.clone(), self.0.players.len(), PyPlayerResult)
    }
    /// Every pair of seats `a < b`, in the order (0, 1), (0, 2), ..., (n-2, n-1).
    #[getter]
    fn matchups<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        Part::all(py, self.0.clone(), self.0.matchups.len(), PyMatchup)
    }
    /// Non-zero payments in dealer order.
    #[getter]
    fn payments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        Part::all(py, self.0.clone(), self.0.payments.len(), PyPayment)
    }
    /// Whether the bankroll cap applied (the rule set caps payments and bankrolls were given);
    /// what it took is each payment's `owed` above its `paid`.
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
        let seats: Vec<usize> = self
            .0
            .players
            .iter()
            .filter(|p| p.sweep)
            .map(|p| p.seat)
            .collect();
        PyTuple::new(py, seats)
    }
    /// The matchup between two seats, in either order.
    ///
    /// Args:
    ///     x: One seat.
    ///     y: The other seat.
    ///
    /// Returns:
    ///     Their matchup.
    ///
    /// Raises:
    ///     InvalidArgumentError: A seat out of range, or the same seat twice.
    fn matchup(&self, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<PyMatchup> {
        let n = self.0.players.len() as i128 - 1;
        let x = crate::args::int_arg(x, "x", 0, n)? as usize;
        let y = crate::args::int_arg(y, "y", 0, n)? as usize;
        self.0
            .matchup_index(x, y)
            .filter(|_| x != y)
            .map(|i| PyMatchup(Part::of(self.0.clone(), i)))
            .ok_or_else(|| {
                crate::args::bad_arg("y", format!("no matchup between seats {x} and {y}"))
            })
    }
    /// What one seat wins from another (before any bankroll cap).
    ///
    /// Args:
    ///     x: The seat whose winnings are given.
    ///     y: The other seat.
    ///
    /// Returns:
    ///     The points `x` wins from `y` (negative: pays).
    ///
    /// Raises:
    ///     InvalidArgumentError: A seat out of range, or the same seat twice.
    fn points(&self, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<i64> {
        self.matchup(x, y)?.points_for(x)
    }
    /// A readable account of every number: hands, each matchup row by row with the rule applied
    /// (bonus, doubling, scoop, sweep, foul, natural, surrender), payments, totals.
    fn explain(&self) -> String {
        self.0.explain()
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
});

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
pub struct PyAlternative(Part<Alternative>);

result_class!(PyAlternative, text, {
    /// The 13 card codes, front (3), middle (5), back (5).
    #[getter]
    fn codes(&self) -> Vec<u32> {
        self.0.get().codes.map(u32::from).to_vec()
    }
    #[getter]
    fn raw_ranks(&self) -> (u32, u32, u32) {
        let [f, m, b] = self.0.get().ranks;
        (f, m, b)
    }
    #[getter]
    fn value(&self) -> f64 {
        self.0.get().value
    }
    /// Standard error of `value` (Monte Carlo; 0 otherwise).
    #[getter]
    fn stderr(&self) -> f64 {
        self.0.get().stderr
    }
    #[getter]
    fn setting<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_setting(py, &setting_of_codes(&self.0.get().codes))
    }
    /// Front, middle and back ranks.
    #[getter]
    fn ranks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        ranks_tuple(py, self.0.get().ranks)
    }
    /// "pair of kings, ... / ... / ...": the three rows' ranks in words.
    fn describe(&self) -> String {
        self.0.get().describe()
    }
    fn __repr__(&self) -> String {
        let a = self.0.get();
        format!("Alternative('{}', value={})", shown(&a.codes), a.value)
    }
});

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
pub struct PySolution(LazySolved);

/// A solution whose next best plays are listed when first read. Its best play comes from the
/// search `solve_batch` runs; listing `top_k` plays makes that search about a third longer
/// (the performance page, "What a hand costs"), which a bot that reads only the decision should not pay.
/// The best play, its value and every figure of it are the same either way (the tests compare
/// them on every preset); the listing runs once, on the first read of `alternatives`,
/// `candidates`, `explain()`, `to_dict()`, equality, printing or pickling.
pub struct LazySolved {
    best: Arc<Solved>,
    full: OnceLock<Arc<Solved>>,
    list: Option<Box<dyn Fn() -> Option<Solved> + Send + Sync>>,
}

impl LazySolved {
    /// The solution with what it lists: nothing left to do.
    fn eager(s: Solved) -> LazySolved {
        let best = Arc::new(s);
        LazySolved {
            full: OnceLock::from(best.clone()),
            best,
            list: None,
        }
    }
    /// The best play now, the `top_k` listing from `list` when first read.
    fn best(&self) -> &Solved {
        &self.best
    }
    fn full(&self) -> &Arc<Solved> {
        self.full.get_or_init(|| {
            // the listing is the same search with more kept: it cannot fail where the best did
            // not; were it to, the best alone is still the answer
            let listed = self.list.as_ref().and_then(|list| list());
            listed.map_or_else(|| self.best.clone(), Arc::new)
        })
    }
}

impl Holder for LazySolved {
    type Value = Solved;
    fn value(&self) -> &Solved {
        self.full()
    }
    fn hold(value: Solved) -> Self {
        LazySolved::eager(value)
    }
}

impl PySolution {
    pub fn new(s: Solved) -> PySolution {
        PySolution(LazySolved::eager(s))
    }
    /// A solution whose best play is `best`, its listing made by `list` when first read.
    pub fn listed_later(
        best: Solved,
        list: impl Fn() -> Option<Solved> + Send + Sync + 'static,
    ) -> PySolution {
        PySolution(LazySolved {
            best: Arc::new(best),
            full: OnceLock::new(),
            list: Some(Box::new(list)),
        })
    }
}

result_class!(PySolution, {
    /// "play", "declare" or "surrender".
    #[getter]
    fn decision(&self) -> &'static str {
        self.0.best().solution.choice.name()
    }
    /// The natural declared (when `decision` is "declare").
    #[getter]
    fn natural(&self) -> Option<&'static str> {
        match self.0.best().solution.choice {
            Choice::Declare(k) => Some(k.name()),
            _ => None,
        }
    }
    /// The 13 cards laid out: the best play, or the natural's layout when declaring.
    #[getter]
    fn setting<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_setting(py, &setting_of_codes(&self.0.best().solution.codes))
    }
    /// `HandRank.raw` of the setting's front, middle and back.
    #[getter]
    fn raw_ranks(&self) -> (u32, u32, u32) {
        let [f, m, b] = self.0.best().solution.ranks;
        (f, m, b)
    }
    /// Front, middle and back ranks of `setting`.
    #[getter]
    fn ranks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        ranks_tuple(py, self.0.best().solution.ranks)
    }
    #[getter]
    fn value(&self) -> f64 {
        self.0.best().solution.value
    }
    /// Standard error of `value` (Monte Carlo only; `None` for the other objectives).
    #[getter]
    fn stderr(&self) -> Option<f64> {
        self.0.best().solution.stderr
    }
    /// The best play's value.
    #[getter]
    fn play_value(&self) -> f64 {
        self.0.best().solution.play_value
    }
    /// The natural the hand holds: (name, what each opponent pays, its value), or `None`.
    #[getter]
    fn natural_held(&self) -> Option<(&'static str, u32, f64)> {
        self.0
            .best()
            .solution
            .natural
            .map(|(k, u, v)| (k.name(), u, v))
    }
    /// Value of surrendering, where the rule set allows it.
    #[getter]
    fn surrender_value(&self) -> Option<f64> {
        self.0.best().solution.surrender_value
    }
    /// The best plays, best first.
    #[getter]
    fn alternatives<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let full = self.0.full();
        Part::all(
            py,
            full.clone(),
            full.solution.alternatives.len(),
            PyAlternative,
        )
    }
    /// How many settings the objective compared.
    #[getter]
    fn candidates(&self) -> usize {
        self.0.full().solution.candidates
    }
    /// Monte Carlo samples drawn (at most the budget's; 0 for the other objectives).
    #[getter]
    fn samples(&self) -> usize {
        self.0.best().solution.samples
    }
    /// The rule set's digest (`RuleSet.digest`): which rules this answers for.
    #[getter]
    fn rules_digest(&self) -> &str {
        &self.0.best().rules_digest
    }
    /// The strategy tables the objective played (`TablesId`), `None` for objectives without.
    #[getter]
    fn tables(&self) -> Option<PyTablesId> {
        self.0.best().tables.clone().map(PyTablesId)
    }
    /// "TableEV", "RowValues", "BestResponse" or "MonteCarlo".
    #[getter]
    fn objective(&self) -> &'static str {
        self.0.best().solution.objective
    }
    #[getter]
    fn players(&self) -> usize {
        self.0.best().players
    }
    /// The rule set's name.
    #[getter]
    fn rules(&self) -> &str {
        &self.0.best().rules
    }
    /// The decision in the form `settle` takes: a `Setting`, `Declare` or `Surrender`.
    fn as_decision<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let c = classes(py)?;
        match self.0.best().solution.choice {
            Choice::Play => self.setting(py),
            Choice::Declare(k) => c.declare.bind(py).call1((k.name(), self.setting(py)?)),
            Choice::Surrender => c.surrender.bind(py).call0(),
        }
    }
    /// The decision and why, in plain words: `heading()`, then the decision (`verdict()`),
    /// the rows and the next best plays.
    ///
    /// Args:
    ///     heading: Include the first line (`heading()`).
    ///
    /// Returns:
    ///     The text.
    #[pyo3(signature = (heading = true))]
    fn explain(&self, heading: bool) -> String {
        if heading {
            self.0.full().explain()
        } else {
            self.0.full().solution.details()
        }
    }
    /// The first line of `explain()`: the rule set, the table size and what the value measures.
    fn heading(&self) -> String {
        self.0.best().heading()
    }
    /// The second line of `explain()`: the decision and its value.
    fn verdict(&self) -> String {
        self.0.best().solution.verdict()
    }
    fn __str__(&self) -> String {
        self.0.full().explain()
    }
    fn __repr__(&self) -> String {
        let s = &self.0.best().solution;
        let what = match s.choice {
            Choice::Declare(k) => format!("declare {}", k.name()),
            _ => self.decision().to_string(),
        };
        format!(
            "Solution('{what}', '{}', value={}, objective='{}')",
            shown(&s.codes),
            s.value,
            s.objective
        )
    }
});

/// The tables source called `name` ("file", "installed", "shipped", "fallback"), or
/// `InvalidArgumentError` naming the argument `source`.
pub fn tables_source(name: &str) -> PyResult<TablesSource> {
    TablesSource::from_name(name).ok_or_else(|| {
        crate::errors::InvalidArgumentError::new_err(format!(
            "source: expected one of {}, got {name:?}",
            TablesSource::ALL.map(TablesSource::name).join(", ")
        ))
    })
}

/// Which strategy tables made a result: where they came from (`source`: "file", "installed",
/// "shipped" or "fallback", the plain tables standing in for a rule set none were trained for)
/// and the SHA-256 of their content (`digest`). Equal digests play identically.
#[pyclass(
    name = "TablesId",
    module = "chinese_poker._core",
    frozen,
    eq,
    hash,
    skip_from_py_object
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyTablesId(pub TablesId);

#[pymethods]
impl PyTablesId {
    #[new]
    fn new(source: &str, digest: &str) -> PyResult<Self> {
        let id = TablesId {
            source: tables_source(source)?,
            digest: digest.to_string(),
        };
        id.validate().py()?;
        Ok(PyTablesId(id))
    }
    #[getter]
    fn source(&self) -> &'static str {
        self.0.source.name()
    }
    #[getter]
    fn digest(&self) -> &str {
        &self.0.digest
    }
    /// The digest's first 12 hex digits.
    #[getter]
    fn short(&self) -> &str {
        self.0.short()
    }
    /// `{"source": ..., "digest": ...}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_data(py, &self.0)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        let id = &slf.get().0;
        Ok((
            slf.get_type().into_any(),
            (id.source.name(), id.digest.clone()),
        ))
    }
    fn __repr__(&self) -> String {
        format!(
            "TablesId(source={:?}, digest={:?})",
            self.0.source.name(),
            self.0.digest
        )
    }
    fn __str__(&self) -> String {
        format!("{} {}", self.0.source.name(), self.0.short())
    }
}
