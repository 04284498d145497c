//! The one error type of the core. Every variant names what was wrong (the token, the card, the
//! player, the row or the field) so that the Python layer can map it to a specific exception
//! without rewording it. [`Error::class_name`] names the exception class of each, the one table
//! both the Python bindings (`crates/py/src/errors.rs`) and the service's error answers
//! (`service::error`, their `type`) read.

use std::fmt;

/// Every way an input to the core can be rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A card token that does not parse, or a numeric code outside 0..52.
    InvalidCard {
        /// The token as given.
        token: String,
        /// Its position among the cards (from 0).
        position: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The same card appears twice where cards must be distinct.
    DuplicateCard {
        /// The repeated card.
        card: String,
        /// Its first position (from 0).
        first: usize,
        /// Its second position.
        second: usize,
    },
    /// The same card in two players' hands.
    DuplicateCardPlayers {
        /// The card both players hold.
        card: String,
        /// The first player holding it (from 0).
        first: usize,
        /// The second player holding it.
        second: usize,
    },
    /// A row, hand or batch of the wrong size or shape.
    InvalidShape {
        /// What has the wrong shape ("front", "hand", ...).
        what: String,
        /// The shape expected.
        expected: String,
        /// The shape given.
        got: String,
    },
    /// A rule-set field with a value the engine cannot use.
    InvalidRules {
        /// The field, as a path (`bonus.middle.quads`).
        field: String,
        /// What is wrong with its value.
        reason: String,
    },
    /// A player's decision that cannot be settled (fouled under `reject`, false natural, ...).
    InvalidDecision {
        /// The player (from 0).
        player: usize,
        /// What is wrong with the decision.
        reason: String,
    },
    /// The computation was interrupted (Ctrl-C) before it finished.
    Interrupted,
    /// A call argument outside what it accepts (e.g. `threads=0`). Names the argument.
    InvalidArgument {
        /// The argument's name.
        name: String,
        /// What it accepts.
        reason: String,
    },
    /// A call argument of the wrong type (a `bool` or a float where a whole number goes, text
    /// where a number goes). Worded as [`Error::InvalidArgument`]; only its class differs
    /// (`InvalidTypeError`, also a `TypeError` in Python).
    InvalidType {
        /// The argument's name.
        name: String,
        /// What it accepts, and the type it got.
        reason: String,
    },
    /// A strategy-tables file (or its index) that cannot be used: missing, damaged, not a
    /// tables file, or trained for another wheel. Names the file.
    InvalidTables {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidCard {
                token,
                position,
                reason,
            } => {
                write!(f, "invalid card '{token}' at position {position}: {reason}")
            }
            Error::DuplicateCard {
                card,
                first,
                second,
            } => {
                write!(f, "duplicate card {card} at positions {first} and {second}")
            }
            Error::DuplicateCardPlayers {
                card,
                first,
                second,
            } => {
                write!(
                    f,
                    "card {card} is held by player {first} and player {second}"
                )
            }
            Error::InvalidShape {
                what,
                expected,
                got,
            } => {
                write!(f, "{what}: expected {expected}, got {got}")
            }
            Error::InvalidRules { field, reason } => {
                write!(f, "rule set field {field:?}: {reason}")
            }
            Error::InvalidDecision { player, reason } => write!(f, "player {player}: {reason}"),
            Error::Interrupted => write!(f, "interrupted"),
            Error::InvalidArgument { name, reason } | Error::InvalidType { name, reason } => {
                write!(f, "argument {name:?}: {reason}")
            }
            // The wording of `strategy_tables.py`'s own errors for the same files.
            Error::InvalidTables { path, reason } => write!(f, "tables file '{path}': {reason}"),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// The exception class of `chinese_poker.exceptions` this error is raised as in Python,
    /// and named as in the service's error answers (`type`); `Interrupted` is Python's own
    /// `KeyboardInterrupt`.
    pub fn class_name(&self) -> &'static str {
        match self {
            Error::InvalidCard { .. } => "InvalidCardError",
            Error::DuplicateCard { .. } | Error::DuplicateCardPlayers { .. } => {
                "DuplicateCardError"
            }
            Error::InvalidShape { .. } => "InvalidShapeError",
            Error::InvalidRules { .. } => "InvalidRulesError",
            Error::InvalidDecision { .. } => "InvalidDecisionError",
            Error::InvalidArgument { .. } => "InvalidArgumentError",
            Error::InvalidType { .. } => "InvalidTypeError",
            Error::InvalidTables { .. } => "InvalidTablesError",
            Error::Interrupted => "KeyboardInterrupt",
        }
    }
}

/// A result whose error is the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// `"1 card"`, `"2 cards"`: every count a message prints goes through here, so none says
/// "got 1 cards".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if noun.ends_with('s') || noun.ends_with('x') || noun.ends_with("ch") {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// Longest piece of user text a message repeats: a bad 10 MB token must not come back whole.
pub const CLIP_CHARS: usize = 20;

/// `text` cut to `CLIP_CHARS` characters, with `…` where it was cut.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(CLIP_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(1, "card"), "1 card");
        assert_eq!(count(0, "card"), "0 cards");
        assert_eq!(count(2, "class"), "2 classes");
        assert_eq!(count(12, "row"), "12 rows");
    }

    #[test]
    fn clip_keeps_short_text_and_cuts_long_text_on_a_char_boundary() {
        assert_eq!(clip("As"), "As");
        assert_eq!(clip(&"x".repeat(20)), "x".repeat(20));
        assert_eq!(clip(&"♠".repeat(10_000)), format!("{}…", "♠".repeat(20)));
    }
}
