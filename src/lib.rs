//! # chinese-poker
//!
//! Exact, fast 13-card Chinese Poker. Data flows one way: cards → evaluation → settings →
//! scores → simulations. This crate has no Python in it; the bindings in `python/` are
//! compiled only with the `python` feature.

pub mod card;
pub mod error;
pub mod eval;
pub mod parallel;
pub mod rules;
pub mod setting;

#[cfg(feature = "python")]
mod python;

pub use card::{parse_cards, Card, CardSet};
pub use error::{Error, Result};
pub use eval::{evaluate, Category, Evaluator, HandRank, Wheel};
pub use rules::{Row, Rules};
pub use setting::Setting;
