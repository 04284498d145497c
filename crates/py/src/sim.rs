//! Simulation for Python: seeded deals, self-play chunks and duel chunks (GIL released), and
//! batch settlement over numpy arrays. `chinese_poker.simulate` drives the chunks (progress,
//! Ctrl-C, Parquet streaming); each call here is one chunk of rounds.
//!
//! Policies arrive as specs built by `chinese_poker.policies`: `("table", TableEv)`,
//! `("monte_carlo", Objective)` (a compiled `MonteCarlo` objective, which carries its tables
//! and budget), `("greedy",)` or `("random",)`.

use super::rules::PyRules;
use super::solve::{PyObjective, PyTableEv};
use crate::args;
use crate::errors::{py_err, OrPyErr};
use crate::interrupt::interruptible;
use chinese_poker::error::Error;
use chinese_poker::sim::{self, Policy, RoundColumns, SeatTally};
use chinese_poker::solve::Objective;
use numpy::{
    PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

type Arr1<'py, T> = Bound<'py, PyArray1<T>>;
/// (settings (N, 13), choices (N,), naturals (N,), values (N,))
type SeatDecisions<'py> = (
    Bound<'py, numpy::PyArray2<u8>>,
    Arr1<'py, u8>,
    Arr1<'py, u8>,
    Arr1<'py, f64>,
);

fn policy_spec(seat: usize, spec: &Bound<'_, PyAny>) -> PyResult<Policy> {
    let bad = |reason: String| {
        py_err(Error::InvalidArgument {
            name: format!("policies[{seat}]"),
            reason,
        })
    };
    let t = spec
        .cast::<PyTuple>()
        .map_err(|_| bad(format!("expected a policy spec tuple, got {spec}")))?;
    let tag: String = t.get_item(0)?.extract()?;
    let table = || -> PyResult<std::sync::Arc<chinese_poker::solve::TableEv>> {
        Ok(t.get_item(1)?.cast::<PyTableEv>()?.get().0.clone())
    };
    Ok(match tag.as_str() {
        "table" => Policy::TableEv(table()?),
        // the objective the Python layer compiled, so that its budget is read in one place
        "monte_carlo" => match &t.get_item(1)?.cast::<PyObjective>()?.get().0 {
            Objective::MonteCarlo {
                budget,
                policy: chinese_poker::solve::Policy::TableEv(table),
                ..
            } => Policy::MonteCarlo {
                table: table.clone(),
                budget: *budget,
            },
            other => {
                return Err(bad(format!(
                    "expected a MonteCarlo objective, got {}",
                    other.name()
                )))
            }
        },
        "greedy" => Policy::Greedy,
        "random" => Policy::Random,
        other => return Err(bad(format!("unknown policy {other:?}"))),
    })
}

/// Rounds `first..first + rounds` of a run seeded `seed`: a `(rounds, players, 13)` uint8 array
/// of hands, each sorted ascending.
#[pyfunction]
#[pyo3(signature = (rounds, players, seed, first = None))]
pub fn deal<'py>(
    py: Python<'py>,
    rounds: &Bound<'py, PyAny>,
    players: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    first: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
    // every size checked before the array is made: `deal(2**40, 4)` is an error, not an abort
    let rounds = args::dealt_rounds_arg(rounds, "rounds")?;
    let players = args::players_arg(players, "players")?;
    let seed = args::seed_arg(seed, "seed")?;
    let first = first.map_or(Ok(0), |f| args::seed_arg(f, "first"))?;
    // Ctrl-C stops the largest deal (about a second of work) within milliseconds
    let flat = crate::interrupt::interruptible(py, |stop| {
        sim::deal::deal_until(seed, first, rounds, players, stop)
    })?
    .py()?;
    PyArray1::from_vec(py, flat).reshape([rounds, players, 13])
}

fn columns_dict<'py>(py: Python<'py>, c: RoundColumns) -> PyResult<Bound<'py, PyDict>> {
    let n = c.rows();
    let d = PyDict::new(py);
    d.set_item("round", PyArray1::from_vec(py, c.round))?;
    d.set_item("seat", PyArray1::from_vec(py, c.seat))?;
    d.set_item("hand", PyArray1::from_vec(py, c.hand).reshape([n, 13])?)?;
    d.set_item("choice", PyArray1::from_vec(py, c.choice))?;
    d.set_item(
        "setting",
        PyArray1::from_vec(py, c.setting).reshape([n, 13])?,
    )?;
    d.set_item("status", PyArray1::from_vec(py, c.status))?;
    d.set_item("declared", PyArray1::from_vec(py, c.natural))?;
    d.set_item("ranks", PyArray1::from_vec(py, c.ranks).reshape([n, 3])?)?;
    d.set_item("scoops", PyArray1::from_vec(py, c.scoops))?;
    d.set_item("sweep", PyArray1::from_vec(py, c.sweep))?;
    d.set_item("points", PyArray1::from_vec(py, c.points))?;
    d.set_item("value", PyArray1::from_vec(py, c.value))?;
    Ok(d)
}

/// Plays rounds `first..first + count` (one chunk) with `policies[s]` at seat `s`; returns the
/// columns as numpy arrays, one row per (round, seat).
#[pyfunction]
#[pyo3(signature = (rules, policies, seed, first, count, threads = None))]
pub fn simulate_chunk<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    policies: Vec<Bound<'py, PyAny>>,
    seed: u64,
    first: u64,
    count: usize,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = crate::args::threads_arg(threads)?;
    let policies = policies
        .iter()
        .enumerate()
        .map(|(s, p)| policy_spec(s, p))
        .collect::<PyResult<Vec<_>>>()?;
    let r = &rules.get().0;
    let cols = interruptible(py, |stop| {
        chinese_poker::parallel::with_threads(threads, || {
            sim::simulate_with_stop(r, &policies, seed, first, count, stop)
        })
    })?
    .py()?;
    columns_dict(py, cols)
}

/// Duplicate-duel deals `first..first + count` (one chunk): per-deal edge of A over B (float64)
/// and how many hands they set identically (uint8).
#[pyfunction]
#[pyo3(signature = (rules, players, a, b, seed, first, count, threads = None))]
#[allow(clippy::too_many_arguments)]
pub fn duel_chunk<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    players: usize,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    seed: u64,
    first: u64,
    count: usize,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Arr1<'py, f64>, Arr1<'py, u8>)> {
    let threads = crate::args::threads_arg(threads)?;
    let (a, b) = (policy_spec(0, a)?, policy_spec(1, b)?);
    let r = &rules.get().0;
    let deals = interruptible(py, |stop| {
        chinese_poker::parallel::with_threads(threads, || {
            sim::duel_deals_with_stop(r, players, &a, &b, seed, first, count, stop)
        })
    })?
    .py()?;
    Ok((
        PyArray1::from_vec(py, deals.edge),
        PyArray1::from_vec(py, deals.same),
    ))
}

/// One policy's decisions at every seat of a chunk of deals, as `decide_seat` and
/// `decision_codes` give them: settings (D, P, 13), choices and naturals (D, P), uint8.
type DecisionArrays<'py> = (
    PyReadonlyArray3<'py, u8>,
    PyReadonlyArray2<'py, u8>,
    PyReadonlyArray2<'py, u8>,
);

/// The decisions of one side of a duel (`name`: "a" or "b") as the core's, checked.
fn duel_side(name: &str, arrays: &DecisionArrays<'_>) -> PyResult<(Vec<sim::Decided>, [usize; 2])> {
    let (settings, choices, naturals) = arrays;
    let shape = settings.shape();
    let (deals, players) = (shape[0], shape[1]);
    if shape[2] != 13 || choices.shape() != [deals, players] || naturals.shape() != [deals, players]
    {
        return Err(py_err(Error::InvalidShape {
            what: format!("duel decisions of {name}"),
            expected: "settings (D, P, 13), choices and naturals (D, P)".into(),
            got: format!(
                "settings {:?}, choices {:?}, naturals {:?}",
                shape,
                choices.shape(),
                naturals.shape()
            ),
        }));
    }
    let codes = settings.as_array().iter().copied().collect::<Vec<u8>>();
    let decided = choices
        .as_array()
        .iter()
        .zip(naturals.as_array().iter())
        .enumerate()
        .map(|(i, (&c, &n))| {
            let choice = chinese_poker::solve::Choice::from_codes(c, n).map_err(|reason| {
                py_err(Error::InvalidDecision {
                    player: i % players,
                    reason: format!("{name}, deal {}: {reason}", i / players),
                })
            })?;
            Ok(sim::Decided {
                choice,
                codes: codes[13 * i..13 * i + 13].try_into().expect("13"),
                value: f64::NAN,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((decided, [deals, players]))
}

/// A duel's deals from decisions made elsewhere (a Python policy's, and a built-in one's from
/// `decide_seat`): each side's (settings, choices, naturals) at every seat of the same dealt
/// deals. The per-deal edge of A over B and the hands set identically, as `duel_chunk`.
#[pyfunction]
#[pyo3(signature = (rules, a, b, threads = None))]
pub fn duel_decided<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    a: DecisionArrays<'py>,
    b: DecisionArrays<'py>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Arr1<'py, f64>, Arr1<'py, u8>)> {
    let threads = crate::args::threads_arg(threads)?;
    let (da, shape_a) = duel_side("a", &a)?;
    let (db, shape_b) = duel_side("b", &b)?;
    if shape_a != shape_b {
        return Err(py_err(Error::InvalidShape {
            what: "duel decisions".into(),
            expected: format!("b shaped as a, {shape_a:?}"),
            got: format!("{shape_b:?}"),
        }));
    }
    let r = &rules.get().0;
    let deals = py
        .detach(|| {
            chinese_poker::parallel::with_threads(threads, || {
                sim::duel_decided(r, shape_a[1], &da, &db)
            })
        })
        .py()?;
    Ok((
        PyArray1::from_vec(py, deals.edge),
        PyArray1::from_vec(py, deals.same),
    ))
}

/// Settles rounds given as arrays: `settings` (R, P, 13) uint8 front/middle/back codes,
/// `choices` and `naturals` (R, P) uint8, and optionally the dealt `hands` (R, P, 13): the
/// `hand` column, and a surrender's `setting`, as a simulation records them. Returns the
/// simulation columns (one row per round and seat).
#[pyfunction]
#[pyo3(signature = (rules, settings, choices, naturals, threads = None, hands = None))]
pub fn settle_rounds<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    settings: PyReadonlyArray3<'py, u8>,
    choices: PyReadonlyArray2<'py, u8>,
    naturals: PyReadonlyArray2<'py, u8>,
    threads: Option<&Bound<'py, PyAny>>,
    hands: Option<PyReadonlyArray3<'py, u8>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = crate::args::threads_arg(threads)?;
    let shape = settings.shape().to_vec();
    let (rounds, players) = (shape[0], shape[1]);
    if shape[2] != 13
        || choices.shape() != [rounds, players]
        || naturals.shape() != [rounds, players]
        || hands.as_ref().is_some_and(|h| h.shape() != shape)
    {
        return Err(py_err(Error::InvalidShape {
            what: "settle_rounds".into(),
            expected: format!(
                "settings (R, P, 13), choices and naturals (R, P){}",
                if hands.is_some() {
                    ", hands as settings"
                } else {
                    ""
                }
            ),
            got: format!(
                "settings {:?}, choices {:?}, naturals {:?}{}",
                shape,
                choices.shape(),
                naturals.shape(),
                hands
                    .as_ref()
                    .map_or(String::new(), |h| format!(", hands {:?}", h.shape()))
            ),
        }));
    }
    let dealt = hands.map(|h| h.as_array().iter().copied().collect::<Vec<u8>>());
    // One copy each into owned buffers: the arrays stay Python's, and the work runs without the
    // GIL, where another thread could otherwise write to them.
    let s = settings.as_array().iter().copied().collect::<Vec<u8>>();
    let c = choices.as_array().iter().copied().collect::<Vec<u8>>();
    let n = naturals.as_array().iter().copied().collect::<Vec<u8>>();
    let r = &rules.get().0;
    let cols = py
        .detach(|| {
            chinese_poker::parallel::with_threads(threads, || {
                sim::settle_rounds(r, players, &s, &c, &n, dealt.as_deref())
            })
        })
        .py()?;
    columns_dict(py, cols)
}

/// The decisions a built-in policy makes at `seat` in rounds `first..first + count` of a run
/// seeded `seed`: (settings (count, 13) uint8, choices (count,) uint8, naturals (count,) uint8,
/// the policy's estimated values (count,) float64).
#[pyfunction]
#[pyo3(signature = (rules, players, policy, seed, first, count, seat, threads = None))]
#[allow(clippy::too_many_arguments)]
pub fn decide_seat<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyRules>,
    players: usize,
    policy: &Bound<'py, PyAny>,
    seed: u64,
    first: u64,
    count: usize,
    seat: usize,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<SeatDecisions<'py>> {
    let threads = crate::args::threads_arg(threads)?;
    let p = policy_spec(seat, policy)?;
    let r = &rules.get().0;
    let decided = interruptible(py, |stop| {
        chinese_poker::parallel::with_threads(threads, || {
            sim::decide_seat_with_stop(r, players, &p, seed, first, count, seat, stop)
        })
    })?
    .py()?;
    let codes: Vec<u8> = decided.iter().flat_map(|d| d.codes).collect();
    let choices: Vec<u8> = decided.iter().map(|d| d.choice.code()).collect();
    let naturals: Vec<u8> = decided.iter().map(|d| d.choice.natural_code()).collect();
    let values: Vec<f64> = decided.iter().map(|d| d.value).collect();
    Ok((
        PyArray1::from_vec(py, codes).reshape([count, 13])?,
        PyArray1::from_vec(py, choices),
        PyArray1::from_vec(py, naturals),
        PyArray1::from_vec(py, values),
    ))
}

/// The duel's summary from its per-deal edges and identical-setting counts: a dict with
/// `edge`, `stderr`, `ci_low`, `ci_high`, `same_share` and `deals_needed`.
#[pyfunction]
pub fn duel_summary<'py>(
    py: Python<'py>,
    edge: numpy::PyReadonlyArray1<'py, f64>,
    same: numpy::PyReadonlyArray1<'py, u8>,
    players: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let deals = sim::DuelDeals {
        players,
        edge: edge.as_array().to_vec(),
        same: same.as_array().to_vec(),
    };
    let s = deals.summary();
    let d = PyDict::new(py);
    d.set_item("edge", s.edge)?;
    d.set_item("stderr", s.stderr)?;
    d.set_item("ci_low", s.ci_low)?;
    d.set_item("ci_high", s.ci_high)?;
    d.set_item("same_share", s.same_share)?;
    d.set_item("deals_needed", s.deals_needed)?;
    Ok(d)
}

/// A Python decision (anything `settle` takes for a seat) in the columns' form: (13 codes
/// front/middle/back, zeros for a surrender; the decision code; the natural code). Through the
/// one decision extractor, so a Python policy's answer is read exactly as `settle` reads it.
/// With `hand` (the 13 codes dealt to `seat`), a decision that sets other cards is refused
/// (`InvalidDecisionError` naming the seat and the cards): how a table and a simulation check
/// what a person or a Python policy answers.
#[pyfunction]
#[pyo3(signature = (decision, seat, hand = None))]
pub fn decision_codes<'py>(
    decision: &Bound<'py, PyAny>,
    seat: usize,
    hand: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, pyo3::types::PyList>, u8, u8)> {
    use chinese_poker::score::Decision;
    use chinese_poker::solve::Choice;
    let decided = super::decision::extract_decision(seat, decision)?;
    if let Some(h) = hand {
        let dealt = super::solve::extract_hand(h)?;
        decided.check_dealt(seat, &dealt).py()?;
    }
    let (choice, setting) = match decided {
        Decision::Play(s) => (Choice::Play, Some(s)),
        Decision::Declare { natural, setting } => (Choice::Declare(natural), Some(setting)),
        Decision::Surrender => (Choice::Surrender, None),
    };
    let codes = setting.map_or([0u8; 13], |s| s.codes());
    // a list, not the `bytes` PyO3 makes of a `[u8; N]`: callers store it in numpy rows
    let codes = pyo3::types::PyList::new(decision.py(), codes)?;
    Ok((codes, choice.code(), choice.natural_code()))
}

/// One seat's sums in a pickle: points, squares, scoops, sweeps, fouls, naturals, surrenders.
type SeatState = (i128, i128, u64, u64, u64, u64, u64);
/// What pickle calls to rebuild a tally: the class, its `players` and `__setstate__`'s state.
type TallyReduce<'py> = (Bound<'py, PyAny>, (usize,), (u64, Vec<SeatState>));

/// Running per-seat sums of a run (`chinese_poker.simulate` adds each chunk's columns and
/// merges ranges played elsewhere); `summary()` is every seat statistic, computed in the core.
#[pyclass(name = "SeatTally", module = "chinese_poker._core")]
pub struct PySeatTally(SeatTally);

#[pymethods]
impl PySeatTally {
    #[new]
    fn new(players: &Bound<'_, PyAny>) -> PyResult<Self> {
        // its seats are allocated from this count: checked first
        Ok(PySeatTally(SeatTally::new(args::players_arg(
            players, "players",
        )?)))
    }
    #[getter]
    fn players(&self) -> usize {
        self.0.players()
    }
    #[getter]
    fn rounds(&self) -> u64 {
        self.0.rounds
    }
    /// Adds rounds from the columns `points`, `scoops`, `sweep` and `status`.
    fn add(
        &mut self,
        points: PyReadonlyArray1<'_, i64>,
        scoops: PyReadonlyArray1<'_, u8>,
        sweep: PyReadonlyArray1<'_, bool>,
        status: PyReadonlyArray1<'_, u8>,
    ) -> PyResult<()> {
        let (p, sc, sw, st) = (
            points.as_array(),
            scoops.as_array(),
            sweep.as_array(),
            status.as_array(),
        );
        let slices = (p.as_slice(), sc.as_slice(), sw.as_slice(), st.as_slice());
        match slices {
            (Some(p), Some(sc), Some(sw), Some(st)) => self.0.add(p, sc, sw, st),
            // a strided view: one copy
            _ => self
                .0
                .add(&p.to_vec(), &sc.to_vec(), &sw.to_vec(), &st.to_vec()),
        }
        .py()
    }
    /// Adds the rounds of another tally of the same table size.
    fn merge(&mut self, other: &Bound<'_, PySeatTally>) -> PyResult<()> {
        let other = other.try_borrow()?.0.clone();
        self.0.merge(&other).py()
    }
    /// Per seat, a dict of `rounds`, `mean`, `stderr` (ddof = 1), `ci_low`, `ci_high` (95%,
    /// `INTERVAL_Z`) and the `scoop_rate`, `sweep_rate`, `foul_rate`, `natural_rate` and
    /// `surrender_rate` per round.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.0
            .summary()
            .into_iter()
            .map(|s| {
                let d = PyDict::new(py);
                d.set_item("seat", s.seat)?;
                d.set_item("rounds", s.rounds)?;
                d.set_item("mean", s.mean)?;
                d.set_item("stderr", s.stderr)?;
                d.set_item("ci_low", s.ci_low)?;
                d.set_item("ci_high", s.ci_high)?;
                d.set_item("scoop_rate", s.scoop_rate)?;
                d.set_item("sweep_rate", s.sweep_rate)?;
                d.set_item("foul_rate", s.foul_rate)?;
                d.set_item("natural_rate", s.natural_rate)?;
                d.set_item("surrender_rate", s.surrender_rate)?;
                Ok(d)
            })
            .collect()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<TallyReduce<'py>> {
        let t = &slf.borrow().0;
        let seats = t
            .seats
            .iter()
            .map(|s| {
                (
                    s.points,
                    s.squares,
                    s.scoops,
                    s.sweeps,
                    s.fouls,
                    s.naturals,
                    s.surrenders,
                )
            })
            .collect();
        Ok((slf.get_type().into_any(), (t.players(),), (t.rounds, seats)))
    }
    fn __setstate__(&mut self, state: (u64, Vec<SeatState>)) -> PyResult<()> {
        let (rounds, seats) = state;
        if seats.len() != self.0.players() {
            return Err(py_err(Error::InvalidShape {
                what: "SeatTally state".into(),
                expected: format!("{} seats", self.0.players()),
                got: format!("{} seats", seats.len()),
            }));
        }
        self.0.rounds = rounds;
        for (slot, (points, squares, scoops, sweeps, fouls, naturals, surrenders)) in
            self.0.seats.iter_mut().zip(seats)
        {
            *slot = sim::summary::SeatSums {
                points,
                squares,
                scoops,
                sweeps,
                fouls,
                naturals,
                surrenders,
            };
        }
        Ok(())
    }
    fn __repr__(&self) -> String {
        format!(
            "SeatTally(players={}, rounds={})",
            self.0.players(),
            self.0.rounds
        )
    }
}
