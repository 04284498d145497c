//! Reading a request: its JSON object checked field by field against its model (an unknown or
//! a missing field refused, naming it; defaults filled in from the core's own constants), and
//! the words messages use for the values they quote, as the Python service wrote them (a
//! value's JSON type, its Python type name and `repr`, numbers as `%g`), so that the answers
//! are the same whichever layer reads them.

use super::error::{invalid, ApiError};
use crate::error::{clip, Error};
use serde_json::{Map, Value};

/// A decoded request's fields.
pub type Object = Map<String, Value>;

/// The JSON name of a value's type, for messages (`"number"`, `"array"`, ...).
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The Python type a value decodes to (`json.loads`), as the library's messages name types.
pub fn py_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int",
        Value::Number(_) => "float",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// Python's `repr()` of a float: the shortest text that reads back the same, in fixed
/// notation for decimal exponents -4 to 15 and scientific (`1e+16`, `1.5e-05`) outside.
pub fn py_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let sci = format!("{x:e}"); // shortest digits: "-1.5e-5"
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    if (-4..16).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        let text = if point <= 0 {
            format!("0.{}{digits}", "0".repeat((-point) as usize))
        } else if point as usize >= digits.len() {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        } else {
            format!(
                "{}.{}",
                &digits[..point as usize],
                &digits[point as usize..]
            )
        };
        format!("{sign}{text}")
    } else {
        let sign_e = if exp < 0 { '-' } else { '+' };
        format!("{sign}{mantissa}e{sign_e}{:02}", exp.abs())
    }
}

/// Python's `format(x, "g")`: 6 significant digits, trailing zeros dropped, scientific
/// notation for decimal exponents below -4 or from 6.
pub fn py_g(x: f64) -> String {
    if !x.is_finite() {
        return py_float(x);
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let sci = format!("{x:.5e}"); // rounded to 6 digits: "1.50000e-5"
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |t: String| -> String {
        if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            t
        }
    };
    if (-4..6).contains(&exp) {
        trim(format!("{x:.*}", (5 - exp) as usize))
    } else {
        let sign_e = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign_e}{:02}", trim(mantissa.to_string()), exp.abs())
    }
}

/// Python's `repr()` of text: single quotes unless it holds one and no double quote, control
/// characters escaped.
pub fn py_str(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || (0x7f..0xa0).contains(&(c as u32)) => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Python's `repr()` of the value `json.loads` gives for `value`.
pub fn py_repr(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => py_float(f),
            _ => n.to_string(),
        },
        Value::String(s) => py_str(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(py_repr).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", py_str(k), py_repr(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// A request object's model: its field names, which are required, and where it sits in the
/// request (`objective.monte_carlo`), for the names of its fields in messages.
pub struct Model {
    /// The fields, in the order the documentation lists them.
    pub fields: &'static [&'static str],
    /// The fields a request must give.
    pub required: &'static [&'static str],
}

fn path(where_: Option<&str>, key: &str) -> String {
    match where_ {
        Some(w) => format!("{w}.{key}"),
        None => key.to_string(),
    }
}

impl Model {
    /// `data` as an object of this model: an object is required, an unknown field (the first
    /// one, in the request's order) or a missing one is refused naming it.
    pub fn read<'a>(&self, data: &'a Value, where_: Option<&str>) -> Result<&'a Object, ApiError> {
        let Value::Object(map) = data else {
            return Err(invalid(
                where_,
                format!("expected a JSON object, got {}", json_type(data)),
            ));
        };
        if let Some(key) = map.keys().find(|k| !self.fields.contains(&k.as_str())) {
            return Err(invalid(
                Some(&path(where_, key)),
                format!("unknown field; expected one of {}", self.fields.join(", ")),
            ));
        }
        if let Some(f) = self.required.iter().find(|f| !map.contains_key(**f)) {
            return Err(invalid(Some(&path(where_, f)), "required"));
        }
        Ok(map)
    }
}

/// An integer argument as the library reads one (`crates/py/src/args.rs`, `int_arg`): a JSON
/// integer in `lo..=hi`; a boolean, a float or anything else is an `InvalidType` naming
/// `name`, a number out of range an `InvalidArgument` stating the range.
pub fn int_arg(value: &Value, name: &str, lo: i128, hi: i128) -> Result<i128, Error> {
    let expected = format!("expected an int from {lo} to {hi}");
    let got = match value {
        Value::Number(n) if n.is_i64() || n.is_u64() => {
            let v = n
                .as_i64()
                .map(i128::from)
                .or_else(|| n.as_u64().map(i128::from))
                .unwrap_or_default();
            if (lo..=hi).contains(&v) {
                return Ok(v);
            }
            return Err(Error::InvalidArgument {
                name: name.into(),
                reason: format!("{expected}, got {}", clip(&v.to_string())),
            });
        }
        other => py_type(other),
    };
    Err(Error::InvalidType {
        name: name.into(),
        reason: format!("{expected}, got {got}"),
    })
}

/// A number argument (`number_arg` of the bindings): a JSON number, never a boolean.
pub fn number_arg(value: &Value, name: &str) -> Result<f64, Error> {
    match value {
        Value::Number(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
        other => Err(Error::InvalidType {
            name: name.into(),
            reason: format!("expected a number, got {}", py_type(other)),
        }),
    }
}

/// Whether `value` is a JSON integer (what Python's `int` is after `json.loads`).
pub fn is_int(value: &Value) -> bool {
    matches!(value, Value::Number(n) if n.is_i64() || n.is_u64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn floats_read_as_python_writes_them() {
        for (x, text) in [
            (1.0, "1.0"),
            (0.5, "0.5"),
            (1e16, "1e+16"),
            (1.5e-5, "1.5e-05"),
            (123456.789, "123456.789"),
            (-2.5e300, "-2.5e+300"),
            (0.0001, "0.0001"),
            (1e15, "1000000000000000.0"),
            (-0.0, "-0.0"),
        ] {
            assert_eq!(py_float(x), text, "{x}");
        }
        for (x, text) in [
            (20.0, "20"),
            (0.05, "0.05"),
            (30.0, "30"),
            (1e6, "1e+06"),
            (123456.7, "123457"),
            (1.5e-5, "1.5e-05"),
            (3600.0, "3600"),
        ] {
            assert_eq!(py_g(x), text, "{x}");
        }
    }

    #[test]
    fn values_read_as_python_reprs_them() {
        let v = json!({"a": [1, 2.5, true, null, "it's"], "b": "x"});
        assert_eq!(
            py_repr(&v),
            r#"{'a': [1, 2.5, True, None, "it's"], 'b': 'x'}"#
        );
        assert_eq!(py_type(&json!(1000.0)), "float");
        assert_eq!(py_type(&json!(1000)), "int");
    }

    #[test]
    fn int_args_are_strict() {
        assert_eq!(int_arg(&json!(3), "players", 2, 4), Ok(3));
        let e = int_arg(&json!(true), "players", 2, 4).unwrap_err();
        assert_eq!(e.class_name(), "InvalidTypeError");
        assert_eq!(
            e.to_string(),
            "argument \"players\": expected an int from 2 to 4, got bool"
        );
        let e = int_arg(&json!(7), "players", 2, 4).unwrap_err();
        assert_eq!(
            e.to_string(),
            "argument \"players\": expected an int from 2 to 4, got 7"
        );
        assert_eq!(
            int_arg(&json!(4.0), "players", 2, 4)
                .unwrap_err()
                .class_name(),
            "InvalidTypeError"
        );
    }
}
