//! Rule sets for Python: the compiled `Rules` and the names, defaults and presets of the core's
//! schema, exported so that the Python layer derives from them (docs/architecture.md, "One rule
//! schema"). A rule set crosses the boundary as JSON text and is parsed and validated once, by
//! the core.

use crate::errors::py_err;
use chinese_poker::error::Error;
use chinese_poker::eval::Category;
use chinese_poker::presets::{self, PRESET_NAMES};
use chinese_poker::rules::{schema, NaturalKind, Row, Rules, MAX_MULTIPLIER, MAX_UNITS};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

fn bad(field: &str, reason: String) -> PyErr {
    py_err(Error::InvalidRules {
        field: field.into(),
        reason,
    })
}

/// A compiled, validated rule set (private: built by `chinese_poker.RuleSet`, read by scoring
/// and solving).
#[pyclass(
    name = "Rules",
    module = "chinese_poker._core",
    frozen,
    eq,
    skip_from_py_object
)]
#[derive(PartialEq)]
pub struct PyRules(pub Rules, pub String);

impl PyRules {
    /// The rule set with its digest, worked out once: every result names it.
    pub fn new(rules: Rules) -> PyRules {
        let digest = rules.digest();
        PyRules(rules, digest)
    }
}

#[pymethods]
impl PyRules {
    /// Parses and validates the JSON data form (`json.dumps(RuleSet.to_dict())`).
    #[new]
    fn parse(py: Python<'_>, spec: &str) -> PyResult<Self> {
        // a long text parses without the GIL
        py.detach(|| Rules::from_json(spec).map(PyRules::new))
            .map_err(py_err)
    }

    /// The data form of the rule fields as JSON text (no name, description or source).
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// The canonical form of the rule fields (every object's keys sorted, compact JSON).
    fn canonical_json(&self) -> String {
        self.0.canonical_json()
    }

    /// SHA-256 of the canonical form, 64 hex digits: the rule set's identity.
    #[getter]
    fn digest(&self) -> &str {
        &self.1
    }

    fn __hash__(&self) -> u64 {
        u64::from_str_radix(&self.1[..16], 16).unwrap_or(0)
    }

    /// Units `row` pays when won with `category` (a snake-case category name).
    fn row_value(&self, row: &str, category: &str) -> PyResult<u32> {
        let (row, cat) = row_category(row, category)?;
        Ok(self.0.row_value(row, cat))
    }

    /// Recognised naturals in ranking order (the most valuable first), with their values.
    fn naturals(&self) -> Vec<(&'static str, u32)> {
        self.0
            .ranked_naturals()
            .iter()
            .map(|n| (n.kind.name(), n.value))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!("Rules({})", self.0.to_json())
    }
}

fn row_category(row: &str, category: &str) -> PyResult<(Row, Category)> {
    let row = Row::from_name(row).ok_or_else(|| bad("row", format!("unknown row {row:?}")))?;
    let cat = Category::from_name(category)
        .ok_or_else(|| bad("category", format!("unknown hand category {category:?}")))?;
    Ok((row, cat))
}

/// The default rule set with one part (`"bonus"`, `"scoop"`, ...) read from its JSON data form.
fn with_part(py: Python<'_>, name: &str, spec: &str) -> PyResult<Rules> {
    py.detach(|| Rules::with_part_json(name, spec))
        .map_err(py_err)
}

/// Checks one part of a rule set given alone (its JSON data form), with the messages it would
/// have within a rule set: the check of `BonusTable(...)`, `Scoop(...)`, ... built alone.
#[pyfunction]
pub fn check_rules_part(py: Python<'_>, name: &str, spec: &str) -> PyResult<()> {
    with_part(py, name, spec).map(drop)
}

/// Units `row` pays when won with `category` under a bonus table (its JSON data form) alone.
#[pyfunction]
pub fn bonus_row_value(py: Python<'_>, spec: &str, row: &str, category: &str) -> PyResult<u32> {
    let (row, cat) = row_category(row, category)?;
    Ok(with_part(py, "bonus", spec)?.row_value(row, cat))
}

/// The data form of a shipped preset (with its name, description and source) as JSON text.
#[pyfunction]
pub fn preset_json(name: &Bound<'_, PyString>) -> PyResult<String> {
    match presets::find(name.to_str()?) {
        Some(p) => Ok(p.data().to_string()),
        None => Err(bad(
            "preset",
            presets::unknown_preset_message(name.repr()?.to_str()?, None),
        )),
    }
}

/// The core's words for an unknown preset name (`shown` as the caller quotes it; `other` what
/// else the caller takes in its place).
#[pyfunction]
#[pyo3(signature = (shown, other=None))]
pub fn unknown_preset_message(shown: &str, other: Option<&str>) -> String {
    presets::unknown_preset_message(shown, other)
}

/// The core's words for an unknown natural's name (`shown` as the caller quotes it, or `None`
/// where the field names it).
#[pyfunction]
#[pyo3(signature = (shown=None))]
pub fn unknown_natural_message(shown: Option<&str>) -> String {
    chinese_poker::rules::unknown_natural_message(shown)
}

/// The data form of the standard Asian row-bonus table (`bonus` of the data form) as JSON text.
#[pyfunction]
pub fn standard_bonus_json() -> String {
    let rules = Rules {
        bonus: chinese_poker::rules::standard_bonus_table(),
        ..Rules::default()
    };
    rules.to_data()["bonus"].to_string()
}

/// The data form of the default rule set (every field present) as JSON text.
#[pyfunction]
pub fn default_rules_json() -> String {
    Rules::default().to_json()
}

/// The plain-words name of a category (`Category.FULL_HOUSE.label == "full house"`).
#[pyfunction]
fn category_label(category: u8) -> PyResult<&'static str> {
    Category::from_u8(category)
        .map(Category::label)
        .ok_or_else(|| bad("category", format!("no hand category {category}")))
}

/// `chinese_poker.Category`: an `IntEnum` (ordered, int-valued, iterable, picklable) whose
/// members are made here from the core's categories, so that Python has no list of its own.
fn category_enum<'py>(m: &Bound<'py, PyModule>) -> PyResult<Bound<'py, PyAny>> {
    let py = m.py();
    let members: Vec<(String, u8)> = Category::ALL
        .iter()
        .map(|&c| (c.name().to_uppercase(), c as u8))
        .collect();
    let kwargs = PyDict::new(py);
    // pickles and reprs as the public chinese_poker.Category
    kwargs.set_item("module", "chinese_poker")?;
    kwargs.set_item("qualname", "Category")?;
    let cls = py
        .import("enum")?
        .getattr("IntEnum")?
        .call(("Category", members), Some(&kwargs))?;
    let fget = wrap_pyfunction!(category_label, m)?;
    let label = py.import("builtins")?.getattr("property")?.call1((fget,))?;
    cls.setattr("label", label)?;
    cls.setattr(
        "__doc__",
        "Hand categories, weakest first. A front row is only HIGH_CARD, PAIR or TRIPS.",
    )?;
    Ok(cls)
}

/// Adds the schema's names and limits to the module: the one source of these lists for Python.
pub fn add_names(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Category", category_enum(m)?)?;
    let shisanshui: String = presets::SHISANSHUI_SUIT_ORDER
        .iter()
        .map(|&s| schema::SUIT_LETTERS[s as usize])
        .collect();
    m.add("SHISANSHUI_SUIT_ORDER", shisanshui)?;
    let tuple = |items: Vec<&'static str>| PyTuple::new(py, items);
    m.add(
        "CATEGORY_NAMES",
        tuple(Category::ALL.map(Category::name).to_vec())?,
    )?;
    m.add(
        "CATEGORY_LABELS",
        tuple(Category::ALL.map(Category::label).to_vec())?,
    )?;
    m.add(
        "FRONT_CATEGORY_NAMES",
        tuple(Category::FRONT.map(Category::name).to_vec())?,
    )?;
    m.add(
        "NATURAL_NAMES",
        tuple(NaturalKind::ALL.map(NaturalKind::name).to_vec())?,
    )?;
    m.add("ROW_NAMES", tuple(Row::ALL.map(Row::name).to_vec())?)?;
    m.add("PRESET_NAMES", tuple(PRESET_NAMES.to_vec())?)?;
    m.add("DEFAULT_PRESET", presets::DEFAULT_PRESET)?;
    m.add("RULE_FIELDS", tuple(schema::RULE_FIELDS.to_vec())?)?;
    m.add("TEXT_FIELDS", tuple(schema::TEXT_FIELDS.to_vec())?)?;
    let choices = PyDict::new(py);
    for (field, names) in schema::choices() {
        choices.set_item(field, tuple(names)?)?;
    }
    m.add("CHOICES", choices)?;
    m.add("MAX_UNITS", MAX_UNITS)?;
    m.add("MAX_MULTIPLIER", MAX_MULTIPLIER)?;
    Ok(())
}
