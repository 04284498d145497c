//! The names of every rule value and the plain-data form of a rule set ([rules](https://chinese-poker.github.io/chinese-poker/rules/), "Rule
//! fields"; [architecture: One rule schema](https://chinese-poker.github.io/chinese-poker/architecture/#one-rule-schema)).
//!
//! The data form is a JSON object whose keys are the field paths users see (`wheel`,
//! `bonus.middle.full_house`, `sweep.multiplier`, ...): the Python `RuleSet.to_dict()`, JSON and
//! TOML files, and the presets shipped to Python all use it. [`Rules::from_data`] reads it and
//! checks shapes and names; the bounds are [`Rules::validate`]'s, called at the end. Every error
//! is `Error::InvalidRules` naming the field path.

use super::{
    BonusMode, Declaration, FoulPolicy, NaturalKind, NaturalRule, Row, Rules, Scoop, Sweep,
    Timeout, MAX_MULTIPLIER, MAX_UNITS,
};
use crate::error::{Error, Result};
use crate::eval::{Category, Wheel};
use crate::named::Named;
use serde_json::{Map, Value};

crate::named!(Row { Front => "front", Middle => "middle", Back => "back" });
crate::named!(BonusMode { Replace => "replace", Add => "add" });
crate::named!(Declaration { Auto => "auto", MustDeclare => "must_declare" });
crate::named!(Timeout { Foul => "foul", Auto => "auto" });
crate::named!(NaturalKind {
    SameSuitDragon => "same_suit_dragon" / "same suit dragon",
    Dragon => "dragon",
    TwelveRoyals => "twelve_royals" / "twelve royals",
    ThreeStraightFlushes => "three_straight_flushes" / "three straight flushes",
    ThreeQuads => "three_quads" / "three quads",
    AllBig => "all_big" / "all big",
    AllSmall => "all_small" / "all small",
    ThirteenOneColour => "thirteen_one_colour" / "thirteen one colour",
    TwelveOneColour => "twelve_one_colour" / "twelve one colour",
    FourTrips => "four_trips" / "four trips",
    FivePairsTrips => "five_pairs_trips" / "five pairs trips",
    SixPairs => "six_pairs" / "six pairs",
    ThreeFlushes => "three_flushes" / "three flushes",
    ThreeStraights => "three_straights" / "three straights",
});

/// The kinds of [`Scoop`], as `scoop.kind` names them.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ScoopKind {
    /// [`Scoop::None`].
    None,
    /// [`Scoop::Multiply`].
    Multiply,
    /// [`Scoop::Add`].
    Add,
}
crate::named!(ScoopKind { None => "none", Multiply => "multiply", Add => "add" });

/// The kinds of [`FoulPolicy`], as `foul.kind` names them.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FoulKind {
    /// [`FoulPolicy::AsScooped`].
    AsScooped,
    /// [`FoulPolicy::FlatPlusBonus`].
    FlatPlusBonus,
    /// [`FoulPolicy::Reject`].
    Reject,
}
crate::named!(FoulKind {
    AsScooped => "as_scooped",
    FlatPlusBonus => "flat_plus_bonus",
    Reject => "reject",
});

impl Scoop {
    /// The scoop's kind.
    pub const fn kind(self) -> ScoopKind {
        match self {
            Scoop::None => ScoopKind::None,
            Scoop::Multiply(_) => ScoopKind::Multiply,
            Scoop::Add(_) => ScoopKind::Add,
        }
    }
    /// The multiplier or the units added; 0 for `None`.
    pub const fn amount(self) -> u32 {
        match self {
            Scoop::None => 0,
            Scoop::Multiply(n) | Scoop::Add(n) => n,
        }
    }
}

impl FoulPolicy {
    /// The foul policy's kind.
    pub const fn kind(self) -> FoulKind {
        match self {
            FoulPolicy::AsScooped => FoulKind::AsScooped,
            FoulPolicy::FlatPlusBonus(_) => FoulKind::FlatPlusBonus,
            FoulPolicy::Reject => FoulKind::Reject,
        }
    }
    /// The flat units of `FlatPlusBonus`; 0 otherwise.
    pub const fn amount(self) -> u32 {
        match self {
            FoulPolicy::FlatPlusBonus(n) => n,
            _ => 0,
        }
    }
}

/// Free-text fields of the data form: carried by the Python `RuleSet` and the presets, checked
/// to be text here, not part of the compiled rules.
pub const TEXT_FIELDS: [&str; 3] = ["name", "description", "source"];
/// Top-level rule fields of the data form, in the order `to_data` writes them.
pub const RULE_FIELDS: [&str; 13] = [
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
];
/// The suits as `suit_order` spells them, in suit-index order (c d h s = 0..3).
pub const SUIT_LETTERS: [char; 4] = ['c', 'd', 'h', 's'];

/// Every field that takes one of a fixed set of names, with those names: the choices of the
/// Python API come from here.
pub fn choices() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("wheel", Wheel::ALL.map(Wheel::name).to_vec()),
        ("bonus.mode", BonusMode::ALL.map(BonusMode::name).to_vec()),
        ("scoop.kind", ScoopKind::ALL.map(ScoopKind::name).to_vec()),
        ("foul.kind", FoulKind::ALL.map(FoulKind::name).to_vec()),
        (
            "naturals.declaration",
            Declaration::ALL.map(Declaration::name).to_vec(),
        ),
        ("timeout", Timeout::ALL.map(Timeout::name).to_vec()),
    ]
}

fn bad(field: &str, reason: impl Into<String>) -> Error {
    Error::InvalidRules {
        field: field.into(),
        reason: reason.into(),
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A short rendering of a bad value for an error message (a hostile value can be huge).
fn show(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 40 {
        let head: String = text.chars().take(37).collect();
        format!("{head}...")
    } else {
        text
    }
}

/// One object of the data form with its path, for error messages.
struct Table<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Table<'a> {
    fn new(value: &'a Value, path: &str, allowed: &[&str]) -> Result<Table<'a>> {
        let map = value.as_object().ok_or_else(|| {
            let what = if path.is_empty() { "rule set" } else { path };
            bad(
                if path.is_empty() { "rule set" } else { path },
                format!("expected a table for {what}, got {}", show(value)),
            )
        })?;
        for key in map.keys() {
            if !allowed.contains(&key.as_str()) {
                return Err(bad(
                    &join(path, key),
                    format!("unknown field; expected one of {}", allowed.join(", ")),
                ));
            }
        }
        Ok(Table {
            map,
            path: path.to_string(),
        })
    }

    fn field(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// The value at `key`, if given. `null` is a value like any other here (refused where a
    /// field has no "none"); only the optional fields read it as "not set" (see [`Table::opt`]).
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    /// An optional field's value: a missing key and `null` both mean "not set".
    fn opt(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn flag(&self, key: &str, default: bool) -> Result<bool> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(bad(
                &self.field(key),
                format!("expected true or false, got {}", show(v)),
            )),
        }
    }

    fn text(&self, key: &str) -> Result<Option<&'a str>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(bad(
                &self.field(key),
                format!("expected text, got {}", show(v)),
            )),
        }
    }

    fn units(&self, key: &str, high: u32) -> Result<Option<u32>> {
        self.get(key)
            .map(|v| units(v, &self.field(key), high))
            .transpose()
    }

    /// A field that takes one of the names of `T`.
    fn choice<T: Named>(&self, key: &str, default: T) -> Result<T> {
        match self.text(key)? {
            None => Ok(default),
            Some(s) => T::from_name(s).ok_or_else(|| {
                let options: Vec<String> = T::names().iter().map(|n| format!("'{n}'")).collect();
                bad(
                    &self.field(key),
                    format!(
                        "expected one of {}, got {}",
                        options.join(", "),
                        show(&Value::from(s))
                    ),
                )
            }),
        }
    }
}

/// A whole number of units that fits the engine; the field's own bounds are
/// [`Rules::validate`]'s (`high` only words the message for values that cannot be stored).
fn units(v: &Value, field: &str, high: u32) -> Result<u32> {
    let out_of_range = || {
        bad(
            field,
            format!("must be between 0 and {high}, got {}", show(v)),
        )
    };
    match v {
        Value::Number(n) if n.is_u64() => {
            u32::try_from(n.as_u64().unwrap_or(u64::MAX)).map_err(|_| out_of_range())
        }
        Value::Number(n) if n.is_i64() => Err(out_of_range()),
        _ => Err(bad(
            field,
            format!("expected a whole number, got {}", show(v)),
        )),
    }
}

impl Rules {
    /// Parses and validates a rule set from its JSON data form (see the module docs). Text that
    /// is not JSON, nesting deeper than serde_json's limit, unknown fields, wrong types and
    /// out-of-range values are all `Error::InvalidRules`.
    pub fn from_json(text: &str) -> Result<Rules> {
        let data: Value = serde_json::from_str(text)
            .map_err(|e| bad("rule set", format!("JSON does not parse: {e}")))?;
        Rules::from_data(&data)
    }

    /// Parses and validates a rule set from its data form. Missing fields take the values of
    /// [`Rules::default`]; `null` means "not set" for the optional `surrender` and
    /// `suit_order` and is refused elsewhere.
    pub fn from_data(data: &Value) -> Result<Rules> {
        let allowed: Vec<&str> = TEXT_FIELDS.iter().chain(&RULE_FIELDS).copied().collect();
        let top = Table::new(data, "", &allowed)?;
        for key in TEXT_FIELDS {
            top.text(key)?;
        }
        // a name is one line: it heads listings and TOML comments, where a line break or
        // another control character would break the layout (or the file)
        if let Some(name) = top.text("name")? {
            if let Some(c) = name.chars().find(|c| c.is_control()) {
                return Err(bad(
                    "name",
                    format!("a name is one line of text, without control characters; got {c:?}"),
                ));
            }
        }
        let default = Rules::default();
        let mut rules = Rules {
            wheel: top.choice("wheel", default.wheel)?,
            double_bonus: top.flag("double_bonus", default.double_bonus)?,
            majority_point: top
                .units("majority_point", MAX_UNITS)?
                .unwrap_or(default.majority_point),
            overall_point: top
                .units("overall_point", MAX_UNITS)?
                .unwrap_or(default.overall_point),
            surrender: match top.opt("surrender") {
                None => default.surrender,
                Some(v) => Some(units(v, "surrender", MAX_UNITS)?),
            },
            bankroll_cap: top.flag("bankroll_cap", default.bankroll_cap)?,
            timeout: top.choice("timeout", default.timeout)?,
            ..default.clone()
        };
        for part in PARTS {
            if let Some(v) = top.get(part) {
                parse_part(part, v, &mut rules)?;
            }
        }
        if top.opt("suit_order").is_some() {
            let text = top.text("suit_order")?.unwrap_or_default();
            rules.suit_order = Some(parse_suit_order(text)?);
        }
        rules.validate()?;
        Ok(rules)
    }

    /// The data form of the rule fields (no text fields): what [`Rules::from_data`] reads back
    /// into an equal rule set. Bonus rows list only the categories that differ from the
    /// unlisted value (1 under `replace`, 0 under `add`); rows without entries are left out.
    pub fn to_data(&self) -> Value {
        let mut bonus = Map::new();
        bonus.insert("mode".into(), self.bonus_mode.name().into());
        let unlisted = unlisted_bonus(self.bonus_mode);
        for row in Row::ALL {
            let entries: Map<String, Value> = Category::ALL
                .into_iter()
                .filter(|&c| self.bonus[row as usize][c as usize] != unlisted)
                .map(|c| {
                    (
                        c.name().to_string(),
                        self.bonus[row as usize][c as usize].into(),
                    )
                })
                .collect();
            if !entries.is_empty() {
                bonus.insert(row.name().into(), entries.into());
            }
        }
        let values: Map<String, Value> = self
            .ranked_naturals()
            .iter()
            .map(|n| (n.kind.name().to_string(), n.value.into()))
            .collect();
        let suit_order = self.suit_order.map(|order| {
            order
                .iter()
                .map(|&s| SUIT_LETTERS[(s & 3) as usize])
                .collect::<String>()
        });
        serde_json::json!({
            "wheel": self.wheel.name(),
            "bonus": bonus,
            "double_bonus": self.double_bonus,
            "majority_point": self.majority_point,
            "overall_point": self.overall_point,
            "scoop": {"kind": self.scoop.kind().name(), "amount": self.scoop.amount()},
            "sweep": {
                "multiplier": self.sweep.multiplier,
                "min_players": self.sweep.min_players,
                "fouled_counts": self.sweep.fouled_counts,
            },
            "foul": {"kind": self.foul.kind().name(), "amount": self.foul.amount()},
            "naturals": {
                "declaration": self.declaration.name(),
                "must_show": self.natural_must_show,
                "values": values,
            },
            "surrender": self.surrender,
            "suit_order": suit_order,
            "bankroll_cap": self.bankroll_cap,
            "timeout": self.timeout.name(),
        })
    }

    /// [`Rules::to_data`] as JSON text.
    pub fn to_json(&self) -> String {
        self.to_data().to_string()
    }

    /// The canonical form of the rule fields: [`Rules::to_data`] with every object's keys in
    /// sorted order, as compact JSON text. Equal rule sets (`==`) have the same canonical form
    /// whatever the order their data was written in, and unequal ones differ: it is what the
    /// [`Rules::digest`], and through it every cache and every result's provenance, rest on.
    /// Names, descriptions and sources are not rule fields and are not part of it.
    pub fn canonical_json(&self) -> String {
        crate::digest::sorted_keys(&self.to_data()).to_string()
    }

    /// SHA-256 of [`Rules::canonical_json`], 64 hex digits: the rule set's identity.
    pub fn digest(&self) -> String {
        crate::digest::sha256_hex(self.canonical_json().as_bytes())
    }

    /// The default rule set with one part (one of [`PARTS`]) read from its data form and the
    /// whole validated: how a part given alone is checked, by the same code and with the same
    /// messages as within a rule set, without a rule set's data to read.
    pub fn with_part(name: &str, data: &Value) -> Result<Rules> {
        let mut rules = Rules::default();
        parse_part(name, data, &mut rules)?;
        rules.validate()?;
        Ok(rules)
    }

    /// [`Rules::with_part`] from the part's JSON text.
    pub fn with_part_json(name: &str, text: &str) -> Result<Rules> {
        let data: Value = serde_json::from_str(text)
            .map_err(|e| bad(name, format!("JSON does not parse: {e}")))?;
        Rules::with_part(name, &data)
    }
}

/// The parts of a rule set that are tables of their own in the data form, in the order they are
/// read: what Python builds alone as `BonusTable`, `Scoop`, `Sweep`, `Foul` and `Naturals`.
pub const PARTS: [&str; 5] = ["bonus", "scoop", "sweep", "foul", "naturals"];

/// Reads the part `name` of a rule set's data form into `rules` (shapes, names and the bounds of
/// values that cannot be stored; the rest are [`Rules::validate`]'s).
fn parse_part(name: &str, v: &Value, rules: &mut Rules) -> Result<()> {
    let default = Rules::default();
    match name {
        "bonus" => parse_bonus(
            &Table::new(v, "bonus", &["mode", "front", "middle", "back"])?,
            rules,
        ),
        "scoop" => {
            let t = Table::new(v, "scoop", &["kind", "amount"])?;
            let kind = t.choice("kind", default.scoop.kind())?;
            let high = if kind == ScoopKind::Multiply {
                MAX_MULTIPLIER
            } else {
                MAX_UNITS
            };
            let amount = t.units("amount", high)?.unwrap_or(0);
            rules.scoop = match kind {
                ScoopKind::Multiply => Scoop::Multiply(amount),
                ScoopKind::Add => Scoop::Add(amount),
                ScoopKind::None if amount != 0 => {
                    return Err(bad("scoop.amount", "only multiply and add take an amount"))
                }
                ScoopKind::None => Scoop::None,
            };
            Ok(())
        }
        "sweep" => {
            let t = Table::new(v, "sweep", &["multiplier", "min_players", "fouled_counts"])?;
            let d = default.sweep;
            rules.sweep = Sweep {
                multiplier: t
                    .units("multiplier", MAX_MULTIPLIER)?
                    .unwrap_or(d.multiplier),
                min_players: t
                    .units("min_players", 4)?
                    .map_or(d.min_players, |n| n as usize),
                fouled_counts: t.flag("fouled_counts", d.fouled_counts)?,
            };
            Ok(())
        }
        "foul" => {
            let t = Table::new(v, "foul", &["kind", "amount"])?;
            let kind = t.choice("kind", default.foul.kind())?;
            let amount = t.units("amount", MAX_UNITS)?.unwrap_or(0);
            rules.foul = match kind {
                FoulKind::FlatPlusBonus => FoulPolicy::FlatPlusBonus(amount),
                _ if amount != 0 => {
                    return Err(bad("foul.amount", "only flat_plus_bonus takes an amount"))
                }
                FoulKind::Reject => FoulPolicy::Reject,
                FoulKind::AsScooped => FoulPolicy::AsScooped,
            };
            Ok(())
        }
        "naturals" => parse_naturals(
            &Table::new(v, "naturals", &["values", "declaration", "must_show"])?,
            rules,
        ),
        _ => Err(bad(
            "part",
            format!(
                "unknown rule set part {name:?}; expected one of {}",
                PARTS.join(", ")
            ),
        )),
    }
}

/// The value of a category a bonus row does not list.
const fn unlisted_bonus(mode: BonusMode) -> u32 {
    match mode {
        BonusMode::Replace => 1,
        BonusMode::Add => 0,
    }
}

fn parse_bonus(t: &Table<'_>, rules: &mut Rules) -> Result<()> {
    rules.bonus_mode = t.choice("mode", Rules::default().bonus_mode)?;
    rules.bonus = [[unlisted_bonus(rules.bonus_mode); 9]; 3];
    let keys = Category::ALL.map(Category::name);
    for row in Row::ALL {
        let Some(v) = t.get(row.name()) else {
            continue;
        };
        let path = t.field(row.name());
        let map = v.as_object().ok_or_else(|| {
            bad(
                &path,
                format!(
                    "expected a table of hand category to units, got {}",
                    show(v)
                ),
            )
        })?;
        if map.is_empty() {
            // an explicitly empty row is almost always a table whose entries went missing
            return Err(bad(
                &path,
                "empty bonus row; leave the row out for no bonuses",
            ));
        }
        for (key, value) in map {
            let field = join(&path, key);
            let cat = Category::from_name(key).ok_or_else(|| {
                bad(
                    &field,
                    format!("unknown hand category; expected one of {}", keys.join(", ")),
                )
            })?;
            if row == Row::Front && !Category::FRONT.contains(&cat) {
                return Err(bad(
                    &field,
                    "a 3-card front is only high_card, pair or trips",
                ));
            }
            rules.bonus[row as usize][cat as usize] = units(value, &field, MAX_UNITS)?;
        }
    }
    Ok(())
}

fn parse_naturals(t: &Table<'_>, rules: &mut Rules) -> Result<()> {
    let default = Rules::default();
    rules.declaration = t.choice("declaration", default.declaration)?;
    rules.natural_must_show = t.flag("must_show", default.natural_must_show)?;
    rules.naturals = default.naturals;
    let Some(values) = t.get("values") else {
        return Ok(());
    };
    let path = t.field("values");
    // The order listed is not the ranking (the core's: `NaturalRule::ranking`). A list of
    // [name, units] pairs is accepted too, so that a name listed twice is seen and refused
    // rather than silently merged.
    let pairs: Vec<(Value, &Value)> = match values {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| (Value::from(k.as_str()), v))
            .collect(),
        Value::Array(items) => items
            .iter()
            .map(|item| match item.as_array().map(Vec::as_slice) {
                Some([k, v]) => Ok((k.clone(), v)),
                _ => Err(bad(
                    &path,
                    format!("expected [name, units] pairs, got {}", show(item)),
                )),
            })
            .collect::<Result<_>>()?,
        v => {
            return Err(bad(
                &path,
                format!("expected a table of natural to units, got {}", show(v)),
            ))
        }
    };
    for (key, value) in pairs {
        let name = key.as_str().ok_or_else(|| {
            bad(
                &path,
                format!("expected a natural's name, got {}", show(&key)),
            )
        })?;
        let field = join(&path, name);
        let kind = NaturalKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| bad(&field, super::unknown_natural_message(None)))?;
        rules.naturals.push(NaturalRule {
            kind,
            value: units(value, &field, MAX_UNITS)?,
        });
    }
    super::rank_naturals(&mut rules.naturals);
    Ok(())
}

fn parse_suit_order(text: &str) -> Result<[u8; 4]> {
    let err = || {
        bad(
            "suit_order",
            format!(
                "expected the four suits c, d, h, s once each, strongest first, got {}",
                show(&Value::from(text))
            ),
        )
    };
    let lower = text.to_lowercase();
    let chars: Vec<char> = lower.chars().collect();
    if chars.len() != 4 {
        return Err(err());
    }
    let mut order = [0u8; 4];
    for (slot, ch) in order.iter_mut().zip(&chars) {
        *slot = SUIT_LETTERS.iter().position(|s| s == ch).ok_or_else(err)? as u8;
    }
    let mut seen = [false; 4];
    for s in order {
        if std::mem::replace(&mut seen[s as usize], true) {
            return Err(err());
        }
    }
    Ok(order)
}
