//! The exhaustive setting solver (DESIGN §3): enumerate a hand's splits, keep the Pareto
//! frontier of rank triples, pick from it with an objective, decide play / natural / surrender.

pub mod classes;
pub mod enumerate;

pub use classes::Classes;
pub use enumerate::{Scratch, Split};
