//! The only PyO3 code of the crate: conversions, errors and GIL handling around the core.

mod arrays;
mod cards;
mod errors;
mod eval;
mod rules;
mod score;
mod sim;
mod solve;

use pyo3::prelude::*;

/// Checks a `threads=` argument: `None` (all cores) or a positive count.
fn threads_arg(threads: Option<i64>) -> PyResult<Option<usize>> {
    match threads {
        None => Ok(None),
        Some(n) if n >= 1 => Ok(usize::try_from(n).ok()),
        Some(n) => Err(PyErr::from(crate::error::Error::InvalidArgument {
            name: "threads".into(),
            reason: format!("expected None (all cores) or a positive number of threads, got {n}"),
        })),
    }
}

#[pymodule]
mod _core {
    #[pymodule_export]
    use super::cards::{parse_cards, PyCard, PyCardSet};
    #[pymodule_export]
    use super::eval::{evaluate, evaluate_batch, PyHandRank};
    #[pymodule_export]
    use super::rules::PyRules;
    #[pymodule_export]
    use super::score::{find_naturals, settle};
    #[pymodule_export]
    use super::sim::{deal, decide_seat, duel_chunk, duel_summary, settle_rounds, simulate_chunk};
    #[pymodule_export]
    use super::solve::{
        frontier, legal_settings, monte_carlo_opponents, rank_classes, solve_batch,
        solve_best_response, solve_monte_carlo, solve_row_values, solve_table_ev, tables_key,
        train_tables, PyRowValues, PyTableEv,
    };

    #[pymodule_init]
    fn init(m: &super::Bound<'_, super::PyModule>) -> super::PyResult<()> {
        use super::PyModuleMethods;
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
