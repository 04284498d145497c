//! The extension module `chinese_poker._core`: conversions, errors and GIL handling around the
//! `chinese_poker` crate, and nothing else.

mod args;
mod arrays;
mod cards;
mod decision;
mod errors;
mod eval;
mod http;
mod interrupt;
mod py_objects;
mod results;
mod rules;
mod score;
mod service;
mod sim;
mod solve;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

#[pymodule]
mod _core {
    #[pymodule_export]
    use super::args::read_int_arg;
    #[pymodule_export]
    use super::arrays::parse_hands;
    #[pymodule_export]
    use super::cards::{display_order, parse_cards, PyCard, PyCardSet};
    #[pymodule_export]
    use super::decision::{
        decision_of_codes, is_foul, parse_decision, parse_setting, setting_rows,
    };
    #[pymodule_export]
    use super::eval::{evaluate, evaluate_batch, PyHandRank};
    #[pymodule_export]
    use super::http::{bearer_matches, token_matches, PyHttpServer};
    #[pymodule_export]
    use super::results::{
        PyAlternative, PyMatchup, PyPayment, PyPlayerResult, PyRowResult, PySettlement, PySolution,
        PyTablesId,
    };
    #[pymodule_export]
    use super::rules::{
        bonus_row_value, check_rules_part, default_rules_json, preset_json, standard_bonus_json,
        unknown_natural_message, unknown_preset_message, PyRules,
    };
    #[pymodule_export]
    use super::score::{find_naturals, fouled_setting, read_bankrolls, settle};
    #[pymodule_export]
    use super::service::{hand_error, PyService};
    #[pymodule_export]
    use super::sim::{
        deal, decide_seat, decision_codes, duel_chunk, duel_decided, duel_summary, settle_rounds,
        simulate_chunk, PySeatTally,
    };
    #[pymodule_export]
    use super::solve::{
        canonical_tables_key, check_budget, frontier, legal_settings, load_tables, rank_classes,
        solve, solve_batch, tables_key, train_tables, PyObjective, PyRowValues, PyTableEv,
    };

    /// Hooks for the package's own tests and benchmarks, kept out of the module's namespace
    /// (`chinese_poker._testing` types them): the Rust-side baselines of `make bench` and the
    /// opponents a Monte Carlo sample deals.
    #[pyo3::pymodule]
    mod _testing {
        #[pymodule_export]
        use super::super::score::settle_seconds;
        #[pymodule_export]
        use super::super::solve::{monte_carlo_opponents, solve_seconds};
    }

    #[pymodule_init]
    fn init(m: &super::Bound<'_, super::PyModule>) -> super::PyResult<()> {
        use super::PyModuleMethods;
        super::arrays::set_up_numpy(m.py())?;
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        m.add("MAX_THREADS", chinese_poker::parallel::MAX_THREADS)?;
        m.add("MIN_SAMPLES", chinese_poker::solve::MIN_SAMPLES)?;
        m.add("MAX_SAMPLES", chinese_poker::solve::MAX_SAMPLES)?;
        m.add("MAX_CANDIDATES", chinese_poker::solve::MAX_CANDIDATES)?;
        m.add("MAX_TOP_K", chinese_poker::solve::MAX_TOP_K)?;
        m.add("MAX_TIME_LIMIT", chinese_poker::solve::MAX_TIME_LIMIT)?;
        let budget = chinese_poker::solve::Budget::default();
        m.add("MC_SAMPLES", budget.samples)?;
        m.add("MC_CONFIDENCE", budget.confidence)?;
        m.add("MC_CANDIDATES", budget.candidates)?;
        let train = chinese_poker::solve::train::TrainConfig::default();
        m.add(
            "CALIBRATION_HANDS_PER_DEAL",
            chinese_poker::solve::train::CALIBRATION_HANDS_PER_DEAL,
        )?;
        m.add("CALIBRATION_STEPS", train.calibration_iters)?;
        // the `naturals` code of batch and simulation results for "no natural"
        m.add("NO_NATURAL", chinese_poker::solve::BATCH_NO_NATURAL)?;
        m.add("FRONT_CLASSES", chinese_poker::solve::FRONT_CLASSES)?;
        m.add("FIVE_CLASSES", chinese_poker::solve::FIVE_CLASSES)?;
        m.add(
            "MAX_ROW_VALUE",
            chinese_poker::solve::objective::MAX_ROW_VALUE,
        )?;
        m.add("MAX_BANKROLL", chinese_poker::score::MAX_BANKROLL)?;
        m.add("MIN_PLAYERS", chinese_poker::score::MIN_PLAYERS)?;
        m.add("MAX_PLAYERS", chinese_poker::score::MAX_PLAYERS)?;
        m.add("DEFAULT_PLAYERS", chinese_poker::score::DEFAULT_PLAYERS)?;
        m.add("MAX_SEED", chinese_poker::sim::MAX_SEED)?;
        m.add("MAX_ROUNDS", chinese_poker::sim::MAX_ROUNDS)?;
        m.add("MAX_DEALT_ROUNDS", chinese_poker::sim::MAX_DEALT_ROUNDS)?;
        m.add("INTERVAL_Z", chinese_poker::sim::duel::INTERVAL_Z)?;
        m.add("TRAIN_DEFAULTS", super::train_defaults(m.py())?)?;
        let phases = chinese_poker::solve::train::Phase::ALL.map(|p| p.name());
        m.add(
            "TRAINING_PHASES",
            pyo3::types::PyTuple::new(m.py(), phases)?,
        )?;
        super::add_codes(m)?;
        m.add("ERROR_CODES", super::service::error_codes(m.py())?)?;
        m.add(
            "SERVICE_OPS",
            pyo3::types::PyTuple::new(m.py(), chinese_poker::service::Op::NAMES)?,
        )?;
        m.add(
            "TABLES_INDEX",
            chinese_poker::solve::tables_file::TABLES_INDEX,
        )?;
        let sources = chinese_poker::solve::TablesSource::ALL.map(|s| s.name());
        m.add(
            "TABLES_SOURCES",
            pyo3::types::PyTuple::new(m.py(), sources)?,
        )?;
        m.add("TOKEN_COOKIE", chinese_poker_server::TOKEN_COOKIE)?;
        m.add("SERVER_LIBRARIES", chinese_poker_server::LIBRARIES)?;
        let limits = chinese_poker::service::limits::limits()
            .map(|l| (l.name, l.default, l.low, l.high, l.whole, l.help));
        m.add("SERVICE_LIMITS", pyo3::types::PyTuple::new(m.py(), limits)?)?;
        super::rules::add_names(m)
    }
}

/// Training's defaults and limits, keyed by the keyword of `train_tables` they apply to
/// (`max_`: the largest value accepted).
fn train_defaults(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    use chinese_poker::solve::{improve, train};
    let d = PyDict::new(py);
    d.set_item("deals", train::DEFAULT_DEALS)?;
    d.set_item("max_deals", train::MAX_DEALS)?;
    d.set_item("min_iters", train::MIN_ITERATIONS)?;
    d.set_item("max_iters", train::MAX_ITERATIONS)?;
    d.set_item("tol", train::TOLERANCE)?;
    d.set_item("calibration_iters", train::CALIBRATION_STEPS)?;
    d.set_item("max_calibration_iters", train::MAX_CALIBRATION_STEPS)?;
    d.set_item(
        "calibration_hands_per_deal",
        train::CALIBRATION_HANDS_PER_DEAL,
    )?;
    d.set_item("max_calibration_hands", train::MAX_CALIBRATION_HANDS)?;
    d.set_item("improve_hands", improve::DEFAULT_HANDS)?;
    d.set_item("max_improve_hands", improve::MAX_HANDS)?;
    d.set_item("improve_samples", improve::DEFAULT_SAMPLES)?;
    d.set_item("improve_candidates", improve::CANDIDATES)?;
    Ok(d)
}

/// The names of the `status` and `choice` column codes, each tuple indexed by the code.
fn add_codes(m: &Bound<'_, PyModule>) -> PyResult<()> {
    use chinese_poker::rules::NaturalKind;
    use chinese_poker::score::Status;
    use chinese_poker::sim::run::status_code;
    use chinese_poker::solve::Choice;
    let mut names = vec![""; Status::ALL.len()];
    for s in Status::ALL {
        names[status_code(s) as usize] = s.name();
    }
    m.add("STATUS_NAMES", PyTuple::new(m.py(), names)?)?;
    let choices = [
        Choice::Play,
        Choice::Declare(NaturalKind::ALL[0]),
        Choice::Surrender,
    ];
    let mut names = vec![""; choices.len()];
    for c in choices {
        names[c.code() as usize] = c.name();
    }
    m.add("CHOICE_NAMES", PyTuple::new(m.py(), names)?)
}
