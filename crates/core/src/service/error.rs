//! The service's one error answer, `{"error": {"code", "message", "field", "type"}}` with its
//! HTTP status, and the naming of the request field a core error concerns (the exception's
//! attributes in Python: a rule-set field, a batch line, a seat, a row, an argument). No
//! panic, no traceback, ever reaches an answer.

use crate::error::Error;
use crate::rules::Row;
use serde::Serialize;

/// Every error code an answer may carry, with its HTTP status (the stdio mode sends the code).
pub const CODES: &[(&str, u16)] = &[
    ("bad_json", 400),
    ("unauthorized", 401),
    ("not_found", 404),
    ("method_not_allowed", 405),
    ("too_large", 413),
    ("invalid_input", 422),
    ("busy", 429),
    ("client_closed", 499),
    ("internal", 500),
    ("timeout", 504),
];

/// An answer that is an error: `code` (one of [`CODES`]), the message, the request field it
/// names (`"hands[2]"`, `"rules.scoop.kind"`; `None` for the whole request) and, where the
/// library refused it, the package's exception class (`kind`, the answer's `type`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// One of [`CODES`].
    pub code: &'static str,
    /// What was wrong, in the library's words where the library refused it.
    pub message: String,
    /// The request field the error concerns, as a path.
    pub field: Option<String>,
    /// The exception class of `chinese_poker.exceptions` ([`Error::class_name`]).
    pub kind: Option<String>,
}

#[derive(Serialize)]
struct Body<'a> {
    code: &'a str,
    message: &'a str,
    field: Option<&'a str>,
    #[serde(rename = "type")]
    kind: Option<&'a str>,
}

impl ApiError {
    /// An error answer of `code` (one of [`CODES`]; an unknown code answers as `internal`).
    pub fn new(code: &str, message: impl Into<String>) -> ApiError {
        let code = CODES
            .iter()
            .find(|(c, _)| *c == code)
            .map_or("internal", |(c, _)| *c);
        ApiError {
            code,
            message: message.into(),
            field: None,
            kind: None,
        }
    }

    /// The same error naming `field`.
    pub fn at(mut self, field: impl Into<String>) -> ApiError {
        self.field = Some(field.into());
        self
    }

    /// Its HTTP status ([`CODES`]).
    pub fn status(&self) -> u16 {
        CODES
            .iter()
            .find(|(c, _)| *c == self.code)
            .map_or(500, |(_, s)| *s)
    }

    /// The answer's JSON object, `{"error": {...}}`, as data.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::json!({ "error": self.body() })
    }

    fn body(&self) -> Body<'_> {
        Body {
            code: self.code,
            message: &self.message,
            field: self.field.as_deref(),
            kind: self.kind.as_deref(),
        }
    }

    /// The answer's body: `{"error":{"code":...,"message":...,"field":...,"type":...}}`,
    /// compact UTF-8 JSON.
    pub fn to_json(&self) -> Vec<u8> {
        #[derive(Serialize)]
        struct Wrapped<'a> {
            error: Body<'a>,
        }
        serde_json::to_vec(&Wrapped { error: self.body() }).unwrap_or_default()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.code, self.status(), self.message)
    }
}

impl std::error::Error for ApiError {}

/// A request the service itself refuses (its shape or its limits), naming `field`: the
/// message starts with the field's name.
pub fn invalid(field: Option<&str>, message: impl std::fmt::Display) -> ApiError {
    match field {
        Some(f) => ApiError::new("invalid_input", format!("{f}: {message}")).at(f),
        None => ApiError::new("invalid_input", message.to_string()),
    }
}

/// A core error where the service met it: what the Python exception says beyond the error's
/// own fields (the batch `line`, the `player`, the setting's `row`) and the `context` its
/// message is prefixed with (`"line 3"`, `"back row"`).
#[derive(Clone, Debug)]
pub struct Met {
    /// The core's error.
    pub error: Error,
    /// Text in front of its message (`context: message`).
    pub context: Option<String>,
    /// The 0-based line of a batch of hands.
    pub line: Option<usize>,
    /// The seat (when the error itself names none).
    pub player: Option<usize>,
    /// The row of a setting.
    pub row: Option<Row>,
}

impl From<Error> for Met {
    fn from(error: Error) -> Met {
        Met {
            error,
            context: None,
            line: None,
            player: None,
            row: None,
        }
    }
}

impl From<crate::setting::SettingError> for Met {
    fn from(e: crate::setting::SettingError) -> Met {
        Met {
            context: e.row.map(|r| format!("{} row", r.name())),
            row: e.row,
            ..Met::from(e.error)
        }
    }
}

impl Met {
    /// The error met at line `line` of a batch, its message prefixed with it.
    pub fn in_line(error: Error, line: usize) -> Met {
        Met {
            context: Some(format!("line {line}")),
            line: Some(line),
            ..Met::from(error)
        }
    }

    /// The message the library gives (the Python exception's `str()`).
    pub fn message(&self) -> String {
        match &self.context {
            Some(c) => format!("{c}: {}", self.error),
            None => self.error.to_string(),
        }
    }
}

fn join(base: Option<&str>, name: &str) -> String {
    match base {
        Some(b) if name.starts_with('[') => format!("{b}{name}"),
        Some(b) => format!("{b}.{name}"),
        None => name.to_string(),
    }
}

/// The library's error `met` for the request field `base`, as a 422 with the library's own
/// message, naming the part of `base` it concerns: its rule-set `field`, the `line` of a batch,
/// the `player` (and `row`) of a round, the call `argument` (one of the request's field
/// `names`, as `(argument, path)`, or a part of `base`). Where the error names none, a message
/// that starts with one of `names` (`"dealer: expected ..."`) names that field.
pub fn blame(met: impl Into<Met>, base: Option<&str>, names: &[(&str, &str)]) -> ApiError {
    let met = met.into();
    let message = met.message();
    let (mut field_attr, mut player, mut argument) = (None, None, None);
    match &met.error {
        Error::InvalidRules { field, .. } => field_attr = Some(field.as_str()),
        Error::DuplicateCardPlayers { second, .. } => player = Some(*second),
        Error::InvalidDecision { player: p, .. } => player = Some(*p),
        Error::InvalidArgument { name, .. } | Error::InvalidType { name, .. } => {
            argument = Some(name.as_str())
        }
        _ => {}
    }
    let player = player.or(met.player);
    let lookup = |head: &str| names.iter().find(|(n, _)| *n == head).map(|(_, p)| *p);
    let field = if let Some(f) = field_attr {
        Some(join(base, f))
    } else if let Some(line) = met.line {
        Some(join(base, &format!("[{line}]")))
    } else if player.is_some() || met.row.is_some() {
        let mut f = match player {
            Some(p) => join(base, &format!("[{p}]")),
            None => base.unwrap_or_default().to_string(),
        };
        if let Some(row) = met.row {
            f = join(
                Some(&f).filter(|f| !f.is_empty()).map(|s| s.as_str()),
                row.name(),
            );
        }
        Some(f)
    } else if let Some(arg) = argument {
        let head = arg.split(['[', '.']).next().unwrap_or(arg);
        match lookup(head) {
            Some(path) => Some(format!("{path}{}", &arg[head.len()..])),
            None => Some(join(base, arg)),
        }
    } else {
        let head = message.split(':').next().unwrap_or("").trim();
        lookup(head)
            .map(str::to_string)
            .or(base.map(str::to_string))
    };
    ApiError {
        code: "invalid_input",
        message,
        field,
        kind: Some(met.error.class_name().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_status_and_the_json_shape() {
        let e = ApiError::new("busy", "retry").at("x");
        assert_eq!(e.status(), 429);
        assert_eq!(
            String::from_utf8(e.to_json()).unwrap(),
            r#"{"error":{"code":"busy","message":"retry","field":"x","type":null}}"#
        );
        assert_eq!(ApiError::new("nope", "m").code, "internal");
    }

    #[test]
    fn blame_names_the_field_as_the_python_layer_did() {
        let rules = Error::InvalidRules {
            field: "scoop.kind".into(),
            reason: "r".into(),
        };
        assert_eq!(
            blame(rules, Some("rules"), &[]).field.as_deref(),
            Some("rules.scoop.kind")
        );
        let arg = Error::InvalidArgument {
            name: "bankrolls[1]".into(),
            reason: "r".into(),
        };
        let names = [
            ("bankrolls", "bankrolls"),
            ("samples", "objective.monte_carlo.samples"),
        ];
        assert_eq!(
            blame(arg, Some("decisions"), &names).field.as_deref(),
            Some("bankrolls[1]")
        );
        let shape = Error::InvalidShape {
            what: "bankrolls".into(),
            expected: "2".into(),
            got: "1".into(),
        };
        assert_eq!(
            blame(shape, Some("decisions"), &names).field.as_deref(),
            Some("bankrolls")
        );
        let card = Error::InvalidCard {
            token: "2Q".into(),
            position: 5,
            reason: "r".into(),
        };
        let met = Met {
            row: Some(Row::Back),
            context: Some("back row".into()),
            ..Met::from(card)
        };
        let e = blame(met, Some("decisions[1]"), &[]);
        assert_eq!(e.field.as_deref(), Some("decisions[1].back"));
        assert!(e.message.starts_with("back row: invalid card '2Q'"));
        assert_eq!(e.kind.as_deref(), Some("InvalidCardError"));
        let line = Met::in_line(card_error(), 3);
        assert_eq!(
            blame(line, Some("hands"), &[]).field.as_deref(),
            Some("hands[3]")
        );
    }

    fn card_error() -> Error {
        Error::InvalidCard {
            token: "Xx".into(),
            position: 1,
            reason: "r".into(),
        }
    }
}
