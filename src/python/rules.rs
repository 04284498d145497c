//! Compiles the plain-data form of a Python `RuleSet` (`RuleSet.to_dict()`) into the core's
//! `Rules`, once; scoring calls then borrow the compiled value without touching Python objects.
//!
//! The Python side validates first and names fields in its own errors; this parser checks again
//! (the class is reachable from Python) and names the field the same way.

use crate::error::{Error, Result};
use crate::eval::{Category, Wheel};
use crate::rules::{
    BonusMode, Declaration, FoulPolicy, NaturalKind, NaturalRule, Row, Rules, Scoop, Sweep, Timeout,
};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

/// Snake-case names of the categories as rule-set files spell them.
pub fn category_key(cat: Category) -> &'static str {
    match cat {
        Category::HighCard => "high_card",
        Category::Pair => "pair",
        Category::TwoPair => "two_pair",
        Category::Trips => "trips",
        Category::Straight => "straight",
        Category::Flush => "flush",
        Category::FullHouse => "full_house",
        Category::Quads => "quads",
        Category::StraightFlush => "straight_flush",
    }
}

fn bad(field: &str, reason: impl Into<String>) -> Error {
    Error::InvalidRules {
        field: field.into(),
        reason: reason.into(),
    }
}

/// One table of the spec and its dotted path, for error messages.
struct Table<'a, 'py> {
    dict: &'a Bound<'py, PyDict>,
    path: String,
}

impl<'a, 'py> Table<'a, 'py> {
    fn field(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn check_keys(&self, allowed: &[&str]) -> PyResult<()> {
        for key in self.dict.keys() {
            let key: String = key.str()?.extract()?;
            if !allowed.contains(&key.as_str()) {
                return Err(PyErr::from(bad(&self.field(&key), "unknown field")));
            }
        }
        Ok(())
    }

    /// The value at `key`, treating a missing key and `None` alike.
    fn get(&self, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        Ok(self.dict.get_item(key)?.filter(|v| !v.is_none()))
    }

    fn text(&self, key: &str, default: &str) -> PyResult<String> {
        match self.get(key)? {
            None => Ok(default.to_string()),
            Some(v) => match v.cast::<PyString>() {
                Ok(s) => Ok(s.to_str()?.to_string()),
                Err(_) => Err(PyErr::from(bad(
                    &self.field(key),
                    format!("expected text, got {v}"),
                ))),
            },
        }
    }

    fn flag(&self, key: &str, default: bool) -> PyResult<bool> {
        match self.get(key)? {
            None => Ok(default),
            Some(v) => match v.cast::<PyBool>() {
                Ok(b) => Ok(b.is_true()),
                Err(_) => Err(PyErr::from(bad(
                    &self.field(key),
                    format!("expected true or false, got {v}"),
                ))),
            },
        }
    }

    fn units(&self, key: &str) -> PyResult<Option<u32>> {
        match self.get(key)? {
            None => Ok(None),
            Some(v) => units(&v, &self.field(key)).map(Some),
        }
    }
}

fn units(v: &Bound<'_, PyAny>, field: &str) -> PyResult<u32> {
    if v.is_instance_of::<PyBool>() {
        return Err(PyErr::from(bad(
            field,
            format!("expected a whole number, got {v}"),
        )));
    }
    match v.extract::<i64>() {
        Ok(n) => u32::try_from(n)
            .map_err(|_| {
                bad(
                    field,
                    format!("must be between 0 and {}, got {n}", u32::MAX),
                )
            })
            .map_err(PyErr::from),
        Err(_) => Err(PyErr::from(bad(
            field,
            format!("expected a whole number, got {v}"),
        ))),
    }
}

fn sub_dict<'py>(parent: &Table<'_, 'py>, key: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
    match parent.get(key)? {
        None => Ok(None),
        Some(v) => match v.cast_into::<PyDict>() {
            Ok(d) => Ok(Some(d)),
            Err(e) => Err(PyErr::from(bad(
                &parent.field(key),
                format!("expected a table, got {}", e.into_inner()),
            ))),
        },
    }
}

fn parse_wheel(s: &str, field: &str) -> Result<Wheel> {
    match s {
        "low" => Ok(Wheel::Low),
        "second" => Ok(Wheel::Second),
        _ => Err(bad(field, format!("expected 'low' or 'second', got {s:?}"))),
    }
}

fn parse_bonus(t: &Table<'_, '_>, rules: &mut Rules) -> PyResult<()> {
    t.check_keys(&["mode", "front", "middle", "back"])?;
    rules.bonus_mode = match t.text("mode", "replace")?.as_str() {
        "replace" => BonusMode::Replace,
        "add" => BonusMode::Add,
        other => {
            return Err(PyErr::from(bad(
                &t.field("mode"),
                format!("expected 'replace' or 'add', got {other:?}"),
            )))
        }
    };
    let unlisted = match rules.bonus_mode {
        BonusMode::Replace => 1,
        BonusMode::Add => 0,
    };
    rules.bonus = [[unlisted; 9]; 3];
    for row in Row::ALL {
        let Some(dict) = sub_dict(t, row.name())? else {
            continue;
        };
        let row_table = Table {
            dict: &dict,
            path: t.field(row.name()),
        };
        for (key, value) in dict.iter() {
            let key: String = key.str()?.extract()?;
            let field = row_table.field(&key);
            let cat = Category::ALL
                .into_iter()
                .find(|c| category_key(*c) == key)
                .ok_or_else(|| bad(&field, "unknown hand category"))?;
            if row == Row::Front
                && !matches!(cat, Category::HighCard | Category::Pair | Category::Trips)
            {
                return Err(PyErr::from(bad(
                    &field,
                    "a 3-card front is only high_card, pair or trips",
                )));
            }
            rules.bonus[row as usize][cat as usize] = units(&value, &field)?;
        }
    }
    Ok(())
}

fn parse_kind_amount<'s>(
    t: &Table<'_, '_>,
    kinds: &[&'s str],
    default: &'s str,
) -> PyResult<(&'s str, u32)> {
    t.check_keys(&["kind", "amount"])?;
    let kind = t.text("kind", default)?;
    let kind = kinds.iter().copied().find(|k| *k == kind).ok_or_else(|| {
        bad(
            &t.field("kind"),
            format!("expected one of {kinds:?}, got {kind:?}"),
        )
    })?;
    Ok((kind, t.units("amount")?.unwrap_or(0)))
}

fn parse_naturals(t: &Table<'_, '_>, rules: &mut Rules) -> PyResult<()> {
    t.check_keys(&["values", "declaration", "must_show"])?;
    rules.declaration = match t.text("declaration", "must_declare")?.as_str() {
        "auto" => Declaration::Auto,
        "must_declare" => Declaration::MustDeclare,
        other => {
            return Err(PyErr::from(bad(
                &t.field("declaration"),
                format!("expected 'auto' or 'must_declare', got {other:?}"),
            )))
        }
    };
    rules.natural_must_show = t.flag("must_show", false)?;
    rules.naturals.clear();
    if let Some(values) = sub_dict(t, "values")? {
        let path = t.field("values");
        for (key, value) in values.iter() {
            let key: String = key.str()?.extract()?;
            let field = format!("{path}.{key}");
            let kind = NaturalKind::from_key(&key).map_err(|_| bad(&field, "unknown natural"))?;
            rules.naturals.push(NaturalRule {
                kind,
                value: units(&value, &field)?,
            });
        }
    }
    Ok(())
}

/// Builds and validates `Rules` from `RuleSet.to_dict()` data.
pub fn rules_from_dict(spec: &Bound<'_, PyDict>) -> PyResult<Rules> {
    let top = Table {
        dict: spec,
        path: String::new(),
    };
    top.check_keys(&[
        "name",
        "description",
        "source",
        "wheel",
        "bonus",
        "double_bonus",
        "majority_point",
        "overall_point",
        "scoop",
        "sweep",
        "foul",
        "naturals",
        "surrender",
        "suit_order",
        "bankroll_cap",
        "timeout",
    ])?;
    let mut rules = Rules {
        wheel: parse_wheel(&top.text("wheel", "low")?, "wheel")?,
        double_bonus: top.flag("double_bonus", false)?,
        majority_point: top.units("majority_point")?.unwrap_or(0),
        overall_point: top.units("overall_point")?.unwrap_or(0),
        surrender: top.units("surrender")?,
        bankroll_cap: top.flag("bankroll_cap", false)?,
        ..Rules::default()
    };
    if let Some(d) = sub_dict(&top, "bonus")? {
        parse_bonus(
            &Table {
                dict: &d,
                path: "bonus".into(),
            },
            &mut rules,
        )?;
    }
    if let Some(d) = sub_dict(&top, "scoop")? {
        let t = Table {
            dict: &d,
            path: "scoop".into(),
        };
        rules.scoop = match parse_kind_amount(&t, &["none", "multiply", "add"], "none")? {
            ("multiply", k) => Scoop::Multiply(k),
            ("add", n) => Scoop::Add(n),
            _ => Scoop::None,
        };
    }
    if let Some(d) = sub_dict(&top, "sweep")? {
        let t = Table {
            dict: &d,
            path: "sweep".into(),
        };
        t.check_keys(&["multiplier", "min_players", "fouled_counts"])?;
        let default = rules.sweep;
        rules.sweep = Sweep {
            multiplier: t.units("multiplier")?.unwrap_or(default.multiplier),
            min_players: t
                .units("min_players")?
                .map_or(default.min_players, |n| n as usize),
            fouled_counts: t.flag("fouled_counts", default.fouled_counts)?,
        };
    }
    if let Some(d) = sub_dict(&top, "foul")? {
        let t = Table {
            dict: &d,
            path: "foul".into(),
        };
        rules.foul = match parse_kind_amount(
            &t,
            &["as_scooped", "flat_plus_bonus", "reject"],
            "as_scooped",
        )? {
            ("flat_plus_bonus", n) => FoulPolicy::FlatPlusBonus(n),
            ("reject", _) => FoulPolicy::Reject,
            _ => FoulPolicy::AsScooped,
        };
    }
    if let Some(d) = sub_dict(&top, "naturals")? {
        parse_naturals(
            &Table {
                dict: &d,
                path: "naturals".into(),
            },
            &mut rules,
        )?;
    }
    if let Some(order) = top.get("suit_order")? {
        let text: String = match order.cast::<PyString>() {
            Ok(s) => s.to_str()?.to_lowercase(),
            Err(_) => {
                return Err(PyErr::from(bad(
                    "suit_order",
                    format!("expected text, got {order}"),
                )))
            }
        };
        let mut suits = [0u8; 4];
        if text.chars().count() != 4 {
            return Err(PyErr::from(bad(
                "suit_order",
                format!("expected four suits, got {text:?}"),
            )));
        }
        for (slot, ch) in suits.iter_mut().zip(text.chars()) {
            *slot = match ch {
                'c' => 0,
                'd' => 1,
                'h' => 2,
                's' => 3,
                _ => {
                    return Err(PyErr::from(bad(
                        "suit_order",
                        format!("unknown suit {ch:?} in {text:?}"),
                    )))
                }
            };
        }
        rules.suit_order = Some(suits);
    }
    rules.timeout = match top.text("timeout", "foul")?.as_str() {
        "foul" => Timeout::Foul,
        "auto" => Timeout::Auto,
        other => {
            return Err(PyErr::from(bad(
                "timeout",
                format!("expected 'foul' or 'auto', got {other:?}"),
            )))
        }
    };
    rules.validate()?;
    Ok(rules)
}

/// A compiled rule set (private: built by `chinese_poker.RuleSet`, read by scoring).
#[pyclass(
    name = "Rules",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(PartialEq)]
pub struct PyRules(pub Rules);

#[pymethods]
impl PyRules {
    #[new]
    fn new(spec: &Bound<'_, PyDict>) -> PyResult<Self> {
        rules_from_dict(spec).map(PyRules)
    }

    /// The core's own copy of a shipped preset (to check the Python presets against).
    #[staticmethod]
    fn preset(name: &str) -> Option<Self> {
        Rules::preset(name).map(PyRules)
    }

    /// Units `row` pays when won with `category` (a snake-case category name).
    fn row_value(&self, row: &str, category: &str) -> PyResult<u32> {
        let row = Row::ALL
            .into_iter()
            .find(|r| r.name() == row)
            .ok_or_else(|| bad("row", format!("unknown row {row:?}")))?;
        let cat = Category::ALL
            .into_iter()
            .find(|c| category_key(*c) == category)
            .ok_or_else(|| bad("category", format!("unknown hand category {category:?}")))?;
        Ok(self.0.row_value(row, cat))
    }

    /// Recognised naturals, highest first, with their values.
    fn naturals(&self) -> Vec<(&'static str, u32)> {
        self.0
            .naturals
            .iter()
            .map(|n| (n.kind.key(), n.value))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!("{:?}", self.0)
    }
}
