//! The one conversion from Python decisions to the core's [`Decision`], used by `settle` and by
//! the `BestResponse` objective alike.
//!
//! `Setting`, `Declare` and `Surrender` stay Python classes (`chinese_poker.scoring`): they are
//! small frozen values users build and compare, and keeping them in Python keeps their typing
//! (`NaturalName` literals) and their flexible constructors. They are recognised here by
//! `isinstance` against the classes, looked up once, and read attribute by attribute; a plain
//! `(front, middle, back)` tuple or list is a play. Every error names the player (0-based seat)
//! and, for card problems, the row.

use super::cards::{extract_cards, PyCard};
use super::py_objects::classes;
use crate::errors::{in_context, py_err, py_err_at, OrPyErr, Place};
use chinese_poker::card::Card;
use chinese_poker::error::Error;
use chinese_poker::rules::{unknown_natural_message, NaturalKind, Row};
use chinese_poker::score::Decision;
use chinese_poker::setting::Setting;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

/// The setting of three row-like objects, read by the one card reader; errors name the row,
/// and the seat where there is one.
fn setting_from_rows(
    py: Python<'_>,
    player: Option<usize>,
    rows: [Bound<'_, PyAny>; 3],
) -> PyResult<Setting> {
    let seat = |what: String| match player {
        Some(p) if what.is_empty() => format!("player {p}"),
        Some(p) => format!("player {p}, {what}"),
        None => what,
    };
    let mut cards: [Vec<Card>; 3] = Default::default();
    for ((slot, row), obj) in cards.iter_mut().zip(Row::ALL).zip(rows) {
        *slot = extract_cards(&obj).map_err(|e| {
            let place = Place {
                player,
                row: Some(row),
                ..Place::default()
            };
            in_context(py, e, &seat(format!("{} row", row.name())), place)
        })?;
    }
    let setting = Setting::new(&cards[0], &cards[1], &cards[2]).map_err(py_err);
    match player {
        Some(_) => setting.map_err(|e| {
            let place = Place {
                player,
                ..Place::default()
            };
            in_context(py, e, &seat(String::new()), place)
        }),
        None => setting,
    }
}

/// A `Setting`'s rows from row-like input (a card string, cards or codes, a `CardSet`): each
/// row read by the one card reader and checked for size, and the 13 cards for repeats; errors
/// name the row. Fouls are not judged here.
#[pyfunction]
pub fn setting_rows<'py>(
    py: Python<'py>,
    front: Bound<'py, PyAny>,
    middle: Bound<'py, PyAny>,
    back: Bound<'py, PyAny>,
) -> PyResult<(
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
)> {
    let s = setting_from_rows(py, None, [front, middle, back])?;
    let row = |cards: &[Card]| PyTuple::new(py, cards.iter().map(|&c| PyCard(c)));
    Ok((row(&s.front)?, row(&s.middle)?, row(&s.back)?))
}

/// The Python exception for a setting's text refused by the core: a row's error prefixed with
/// the row and its `row` set, as `Setting(front, middle, back)` raises it.
fn setting_text_err(py: Python<'_>, e: chinese_poker::setting::SettingError) -> PyErr {
    match e.row {
        Some(row) => {
            let place = Place {
                row: Some(row),
                ..Place::default()
            };
            in_context(py, py_err(e.error), &format!("{} row", row.name()), place)
        }
        None => py_err(e.error),
    }
}

/// A setting's rows from its text, `"front / middle / back"` (`Setting.parse`): the core's
/// one reader of that form.
#[pyfunction]
pub fn parse_setting<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyString>,
) -> PyResult<(
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
)> {
    let text = super::cards::str_text(text, 1).py()?;
    let s = Setting::parse(&text).map_err(|e| setting_text_err(py, e))?;
    let row = |cards: &[Card]| PyTuple::new(py, cards.iter().map(|&c| PyCard(c)));
    Ok((row(&s.front)?, row(&s.middle)?, row(&s.back)?))
}

/// A decision as text (`"front / middle / back"`, `"surrender"` or `"NATURAL: front / middle /
/// back"`) as a `Setting`, `Declare` or `Surrender`: the core's one reader of that grammar
/// (the command line's `settle`, the service's decisions).
#[pyfunction]
pub fn parse_decision<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyString>,
) -> PyResult<Bound<'py, PyAny>> {
    let text = super::cards::str_text(text, 1).py()?;
    let decided = Decision::parse(&text).map_err(|e| setting_text_err(py, e))?;
    let c = classes(py)?;
    match decided {
        Decision::Play(s) => super::py_objects::py_setting(py, &s),
        Decision::Declare { natural, setting } => c
            .declare
            .bind(py)
            .call1((natural.name(), super::py_objects::py_setting(py, &setting)?)),
        Decision::Surrender => c.surrender.bind(py).call0(),
    }
}

/// Whether a `Setting` (or `(front, middle, back)`) breaks back ≥ middle ≥ front under the
/// wheel: the core's foul test.
#[pyfunction]
#[pyo3(signature = (setting, wheel = None), text_signature = "(setting, wheel='low')")]
pub fn is_foul(setting: &Bound<'_, PyAny>, wheel: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let wheel = super::eval::wheel_arg(wheel)?;
    let s = match extract_decision(0, setting)? {
        Decision::Play(s) | Decision::Declare { setting: s, .. } => s,
        Decision::Surrender => {
            return Err(py_err(Error::InvalidDecision {
                player: 0,
                reason: "a surrender has no rows to foul".into(),
            }))
        }
    };
    Ok(s.is_foul(wheel))
}

fn setting_attrs(py: Python<'_>, player: usize, obj: &Bound<'_, PyAny>) -> PyResult<Setting> {
    let rows = [
        obj.getattr("front")?,
        obj.getattr("middle")?,
        obj.getattr("back")?,
    ];
    setting_from_rows(py, Some(player), rows)
}

/// Seat `player`'s decision: a `Setting`, `Declare`, `Surrender` or `(front, middle, back)`.
pub fn extract_decision(player: usize, obj: &Bound<'_, PyAny>) -> PyResult<Decision> {
    let py = obj.py();
    let c = classes(py)?;
    if obj.is_instance(c.setting.bind(py))? {
        return Ok(Decision::Play(setting_attrs(py, player, obj)?));
    }
    if obj.is_instance(c.declare.bind(py))? {
        let key = obj.getattr("natural")?;
        let key = key
            .cast::<PyString>()
            .map_err(|_| Error::InvalidDecision {
                player,
                reason: format!(
                    "natural: expected a natural's name, got {}",
                    key.repr().map(|r| r.to_string()).unwrap_or_default()
                ),
            })
            .py()?;
        let Some(natural) = NaturalKind::from_name(key.to_str()?) else {
            return Err(py_err(Error::InvalidDecision {
                player,
                reason: unknown_natural_message(Some(key.repr()?.to_str()?)),
            }));
        };
        let setting = setting_attrs(py, player, &obj.getattr("setting")?)?;
        return Ok(Decision::Declare { natural, setting });
    }
    if obj.is_instance(c.surrender.bind(py))? {
        return Ok(Decision::Surrender);
    }
    let rows: Option<Vec<Bound<'_, PyAny>>> = if let Ok(t) = obj.cast::<PyTuple>() {
        Some(t.iter().collect())
    } else if let Ok(l) = obj.cast::<PyList>() {
        Some(l.iter().collect())
    } else {
        None
    };
    match rows {
        Some(rows) => match <[Bound<'_, PyAny>; 3]>::try_from(rows) {
            Ok(rows) => Ok(Decision::Play(setting_from_rows(py, Some(player), rows)?)),
            Err(rows) => Err(py_err_at(
                Error::InvalidShape {
                    what: format!("player {player}"),
                    expected: "3 rows (front, middle, back)".into(),
                    got: chinese_poker::error::count(rows.len(), "row"),
                },
                Place {
                    player: Some(player),
                    ..Place::default()
                },
            )),
        },
        None => {
            let what = if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
                "a string (give a Setting, or a (front, middle, back) tuple of rows)".to_string()
            } else {
                obj.get_type().name()?.to_string()
            };
            Err(py_err(Error::InvalidDecision {
                player,
                reason: format!(
                    "expected a Setting, Declare, Surrender or (front, middle, back), got {what}"
                ),
            }))
        }
    }
}

/// Every seat's decision, numbering seats from `first_seat`.
pub fn extract_decisions(
    obj: &Bound<'_, PyAny>,
    what: &str,
    first_seat: usize,
) -> PyResult<Vec<Decision>> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(py_err(Error::InvalidShape {
            what: what.into(),
            expected: "a sequence of player decisions".into(),
            got: "a string".into(),
        }));
    }
    let iter = obj
        .try_iter()
        .map_err(|_| Error::InvalidShape {
            what: what.into(),
            expected: "a sequence of player decisions".into(),
            got: obj
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default(),
        })
        .py()?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        // a table has at most 4 seats: stop reading an endless iterable early
        if out.len() > 4 {
            return Err(py_err(Error::InvalidShape {
                what: what.into(),
                expected: "at most 4 players".into(),
                got: "more".into(),
            }));
        }
        out.push(extract_decision(first_seat + i, &item?)?);
    }
    Ok(out)
}

/// The Python decision (`Setting`, `Declare` or `Surrender`) of a result's columns: 13 codes
/// front/middle/back (not read for a surrender), the decision code and the natural code. The
/// inverse of `decision_codes`, through the core's readings of both codes.
#[pyfunction]
pub fn decision_of_codes<'py>(
    py: Python<'py>,
    codes: [u8; 13],
    choice: u8,
    natural: u8,
) -> PyResult<Bound<'py, PyAny>> {
    use chinese_poker::solve::Choice;
    let choice = Choice::from_codes(choice, natural)
        .map_err(|reason| Error::InvalidArgument {
            name: "choice".into(),
            reason,
        })
        .py()?;
    let c = classes(py)?;
    let setting = || -> PyResult<Bound<'py, PyAny>> {
        super::py_objects::py_setting(py, &Setting::from_codes(&codes).py()?)
    };
    match choice {
        Choice::Play => setting(),
        Choice::Declare(kind) => c.declare.bind(py).call1((kind.name(), setting()?)),
        Choice::Surrender => c.surrender.bind(py).call0(),
    }
}
