//! `settle` and `find_naturals` for Python. The typed result classes live in
//! `chinese_poker.scoring`; this layer takes normalised decisions and returns plain data.
//!
//! Decisions arrive as tuples built by `chinese_poker.scoring`: `("play", front, middle, back)`,
//! `("declare", natural, front, middle, back)` or `("surrender",)`, each row anything
//! `extract_cards` accepts. Every error raised here names the player (0-based seat) and, for
//! card problems, the row.

use super::cards::{extract_cards, PyCard};
use super::eval::PyHandRank;
use super::rules::PyRules;
use crate::card::Card;
use crate::error::Error;
use crate::naturals;
use crate::rules::{NaturalKind, Row};
use crate::score::{self, Decision, Settlement};
use crate::setting::Setting;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// The same exception class with `context: ` in front of its message.
fn with_context(py: Python<'_>, err: PyErr, context: &str) -> PyErr {
    let message = format!("{context}: {}", err.value(py));
    PyErr::from_type(err.get_type(py), message)
}

fn extract_setting(
    py: Python<'_>,
    player: usize,
    rows: &Bound<'_, PyTuple>,
    start: usize,
) -> PyResult<Setting> {
    let got = rows.len().saturating_sub(start);
    if got != 3 {
        return Err(PyErr::from(Error::InvalidShape {
            what: format!("player {player}"),
            expected: "3 rows (front, middle, back)".into(),
            got: format!("{got} rows"),
        }));
    }
    let mut cards: [Vec<Card>; 3] = Default::default();
    for (slot, row) in cards.iter_mut().zip(Row::ALL) {
        let obj = rows.get_item(start + row as usize)?;
        *slot = extract_cards(&obj)
            .map_err(|e| with_context(py, e, &format!("player {player}, {} row", row.name())))?;
    }
    Setting::new(&cards[0], &cards[1], &cards[2])
        .map_err(PyErr::from)
        .map_err(|e| with_context(py, e, &format!("player {player}")))
}

fn extract_decision(py: Python<'_>, player: usize, item: &Bound<'_, PyAny>) -> PyResult<Decision> {
    let t = item.cast::<PyTuple>()?;
    let tag: String = t.get_item(0)?.extract()?;
    match tag.as_str() {
        "surrender" => Ok(Decision::Surrender),
        "play" => Ok(Decision::Play(extract_setting(py, player, t, 1)?)),
        "declare" => {
            let key: String = t.get_item(1)?.extract()?;
            let natural = NaturalKind::from_key(&key).map_err(|_| Error::InvalidDecision {
                player,
                reason: format!("unknown natural {key:?}"),
            })?;
            let setting = extract_setting(py, player, t, 2)?;
            Ok(Decision::Declare { natural, setting })
        }
        other => Err(PyErr::from(Error::InvalidDecision {
            player,
            reason: format!("unknown decision {other:?}"),
        })),
    }
}

fn cards_list<'py>(py: Python<'py>, cards: &[Card]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, cards.iter().map(|&c| PyCard(c)))
}

fn setting_tuple<'py>(py: Python<'py>, s: &Setting) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(
        py,
        [
            cards_list(py, &s.front)?,
            cards_list(py, &s.middle)?,
            cards_list(py, &s.back)?,
        ],
    )
}

fn settlement_dict<'py>(py: Python<'py>, s: &Settlement) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("dealer", s.dealer)?;
    out.set_item("capped", s.capped)?;
    out.set_item("bankrolls_after", s.bankrolls_after.clone())?;
    let players = PyList::empty(py);
    for p in &s.players {
        let d = PyDict::new(py);
        d.set_item("status", p.status.name())?;
        let setting = match &p.setting {
            Some(s) => Some(setting_tuple(py, s)?),
            None => None,
        };
        d.set_item("setting", setting)?;
        let ranks = match p.ranks {
            Some(r) => Some(PyTuple::new(py, r.map(PyHandRank))?),
            None => None,
        };
        d.set_item("ranks", ranks)?;
        d.set_item("natural", p.natural.map(|(k, v)| (k.key(), v)))?;
        d.set_item("auto_declared", p.auto_declared)?;
        d.set_item("foul_reason", p.foul_reason.clone())?;
        d.set_item("sweep", p.sweep)?;
        d.set_item("raw_total", p.raw_total)?;
        d.set_item("total", p.total)?;
        players.append(d)?;
    }
    out.set_item("players", players)?;
    let matchups = PyList::empty(py);
    for m in &s.matchups {
        let d = PyDict::new(py);
        d.set_item("a", m.a)?;
        d.set_item("b", m.b)?;
        d.set_item("kind", m.kind.name())?;
        let rows = PyList::empty(py);
        for r in &m.rows {
            rows.append((r.winner, r.value, r.bonus, r.doubled, r.suit_break))?;
        }
        d.set_item("rows", rows)?;
        d.set_item("row_totals", (m.row_totals[0], m.row_totals[1]))?;
        d.set_item("majority", m.majority)?;
        d.set_item("overall", m.overall)?;
        d.set_item("base", m.base)?;
        d.set_item("scoop", m.scoop)?;
        d.set_item("after_scoop", m.after_scoop)?;
        d.set_item("sweep_multiplier", m.sweep_multiplier)?;
        d.set_item("points", m.points)?;
        matchups.append(d)?;
    }
    out.set_item("matchups", matchups)?;
    let payments = PyList::empty(py);
    for p in &s.payments {
        payments.append((p.matchup, p.payer, p.payee, p.owed, p.paid))?;
    }
    out.set_item("payments", payments)?;
    out.set_item("explain", s.explain())?;
    Ok(out)
}

/// Settles one round; returns plain data for `chinese_poker.scoring.Settlement`.
#[pyfunction]
#[pyo3(signature = (decisions, rules, bankrolls = None, dealer = 0))]
pub fn settle<'py>(
    py: Python<'py>,
    decisions: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
    bankrolls: Option<Vec<i64>>,
    dealer: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let mut parsed = Vec::new();
    for (player, item) in decisions.try_iter()?.enumerate() {
        parsed.push(extract_decision(py, player, &item?)?);
    }
    // One round is microseconds of work: not worth releasing the GIL.
    let result = score::settle(&parsed, &rules.get().0, bankrolls.as_deref(), dealer)?;
    settlement_dict(py, &result)
}

/// Naturals a 13-card hand holds under the rule set, highest first:
/// `(name, value, (front, middle, back) or None)`.
#[pyfunction]
pub fn find_naturals<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyRules>,
) -> PyResult<Bound<'py, PyList>> {
    let cards = extract_cards(hand)?;
    let found = naturals::find_naturals(&cards, &rules.get().0)?;
    let out = PyList::empty(py);
    for m in found {
        let setting = match &m.setting {
            Some(s) => Some(setting_tuple(py, s)?),
            None => None,
        };
        out.append((m.kind.key(), m.value, setting))?;
    }
    Ok(out)
}
