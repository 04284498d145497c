#![warn(missing_docs)]
// The crate's page (its README) is its documentation, and its example a doctest.
#![doc = include_str!("../README.md")]

pub mod card;
pub mod data;
pub mod digest;
pub mod error;
pub mod eval;
pub mod hand;
pub mod named;
pub mod naturals;
pub mod parallel;
pub mod presets;
pub mod rules;
pub mod score;
pub mod service;
pub mod setting;
pub mod sim;
pub mod solve;

pub use card::{parse_cards, Card, CardSet};
pub use error::{Error, Result};
pub use eval::{evaluate, Category, Evaluator, HandRank, Wheel};
pub use hand::Hand;
pub use naturals::{best_natural, find_naturals, NaturalMatch};
pub use rules::NaturalKind;
pub use rules::{Row, Rules};
pub use score::{pair_score, row_key, settle, Decision, PairScore, Settlement};
pub use setting::Setting;
