//! The one error type of the core. Every variant names what was wrong (the token, the card, the
//! player, the row or the field) so that the Python layer can map it to a specific exception
//! without rewording it. The mapping lives in `src/python/errors.rs`.

use std::fmt;

/// Every way an input to the core can be rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A card token that does not parse, or a numeric code outside 0..52.
    InvalidCard {
        token: String,
        position: usize,
        reason: String,
    },
    /// The same card appears twice where cards must be distinct.
    DuplicateCard {
        card: String,
        first: usize,
        second: usize,
    },
    /// The same card in two players' hands.
    DuplicateCardPlayers {
        card: String,
        first: usize,
        second: usize,
    },
    /// A row, hand or batch of the wrong size or shape.
    InvalidShape {
        what: String,
        expected: String,
        got: String,
    },
    /// A rule-set field with a value the engine cannot use.
    InvalidRules { field: String, reason: String },
    /// A player's decision that cannot be settled (fouled under `reject`, false natural, ...).
    InvalidDecision { player: usize, reason: String },
    /// The computation was interrupted (Ctrl-C) before it finished.
    Interrupted,
    /// A call argument outside what it accepts (e.g. `threads=0`). Names the argument.
    InvalidArgument { name: String, reason: String },
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
            Error::InvalidArgument { name, reason } => write!(f, "argument {name:?}: {reason}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
