//! What "best" means: the objectives a setting is chosen by.

use super::check_samples;
use super::classes::{Classes, FIVE_CLASSES, FRONT_CLASSES};
use super::table_ev::TableEv;
use super::tables_id::TablesId;
use crate::error::{Error, Result};
use crate::eval::Wheel;
use crate::score::Decision;
use std::sync::Arc;
use std::time::Duration;

/// Largest magnitude of a row value: three of them still sum to a finite `f64`.
pub const MAX_ROW_VALUE: f64 = 1e300;

/// User-supplied value of each row rank; a setting's value is the sum of its three rows'.
#[derive(Clone, Debug, PartialEq)]
pub struct RowValues {
    /// The wheel the ranks are of.
    pub wheel: Wheel,
    /// front (455), middle (7,462), back (7,462), indexed by class (`Classes`), weakest first.
    pub values: [Vec<f64>; 3],
    /// Every row's values are non-decreasing in rank, so the frontier holds a best setting;
    /// otherwise every legal setting is searched.
    pub monotone: bool,
}

impl RowValues {
    /// Row values, checked: one per class of each row, finite and at most [`MAX_ROW_VALUE`].
    pub fn new(wheel: Wheel, values: [Vec<f64>; 3]) -> Result<RowValues> {
        for (r, name) in ["front", "middle", "back"].iter().enumerate() {
            let want = if r == 0 { FRONT_CLASSES } else { FIVE_CLASSES };
            if values[r].len() != want {
                return Err(Error::InvalidShape {
                    what: format!("RowValues {name}"),
                    expected: format!("{want} values (one per {name} rank class)"),
                    got: crate::error::count(values[r].len(), "value"),
                });
            }
            // bounded so that the sum of three rows stays finite
            if let Some(i) = values[r]
                .iter()
                .position(|v| !v.is_finite() || v.abs() > MAX_ROW_VALUE)
            {
                return Err(Error::InvalidShape {
                    what: format!("RowValues {name}"),
                    expected: format!("finite values of magnitude at most {MAX_ROW_VALUE:e}"),
                    got: format!("{} at class {i}", values[r][i]),
                });
            }
        }
        let monotone = values.iter().all(|v| v.windows(2).all(|p| p[0] <= p[1]));
        Ok(RowValues {
            wheel,
            values,
            monotone,
        })
    }

    #[inline]
    /// A setting's value: the sum of its rows' values (`ranks` are raw ranks).
    pub fn value(&self, ranks: &[u32; 3]) -> f64 {
        let c = Classes::get(self.wheel);
        (0..3).map(|r| self.values[r][c.index(ranks[r])]).sum()
    }
}

/// Opponents' policy in Monte Carlo sampling.
#[derive(Clone)]
pub enum Policy {
    /// The table objective's decisions.
    TableEv(Arc<TableEv>),
}

/// An objective: what the solver maximises over the frontier.
#[derive(Clone)]
pub enum Objective {
    /// Expected score against the table from per-row outcome tables (the default).
    TableEv(Arc<TableEv>),
    /// Sum of user-supplied per-row values.
    RowValues(Arc<RowValues>),
    /// Exact score under the full rule set against these opponents' decisions (seats 1..n; the
    /// solved hand is seat 0).
    BestResponse(Vec<Decision>),
    /// Mean score over sampled opponents (common random numbers), with its standard error,
    /// raced over the table objective's best plays (`monte_carlo::race`).
    MonteCarlo {
        /// How many samples, or how long.
        budget: Budget,
        /// Seed of the sampled deals.
        seed: u64,
        /// How the sampled opponents decide.
        policy: Policy,
        /// Threads (`None`: all).
        threads: Option<usize>,
    },
}

/// How a Monte Carlo solve spends its samples (`monte_carlo::race`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Budget {
    /// Most samples drawn (deals of the unseen cards to the opponents).
    pub samples: usize,
    /// Confidence of the racing tests: a play is dropped, and the table objective's choice
    /// replaced, only when the samples show it at this confidence; sampling stops as soon as
    /// one play is left standing. 0: no racing (every candidate gets every sample and the best
    /// mean is played).
    pub confidence: f64,
    /// How many of the table objective's best plays are raced (0: the whole frontier).
    pub candidates: usize,
    /// Wall-clock budget of one solve: sampling stops at the first racing step (every
    /// `RACE_STEP` samples) that ends past it, so the result
    /// depends on the machine's speed; `None`: only `samples` bounds the run (deterministic).
    pub time_limit: Option<Duration>,
}

/// Longest Monte Carlo time budget, in seconds: a day; a longer one is a typo.
pub const MAX_TIME_LIMIT: f64 = 86_400.0;

/// Most plays a Monte Carlo solve may race: far above any hand's count of legal settings
/// (72,072), so a larger value is a typo.
pub const MAX_CANDIDATES: usize = 1_000_000;

impl Budget {
    /// Checks every part of the budget: the samples ([`check_samples`]), the confidence
    /// ([`Budget::check_confidence`]) and at most [`MAX_CANDIDATES`] candidates.
    pub fn check(&self) -> Result<()> {
        check_samples(self.samples)?;
        Budget::check_confidence(self.confidence)?;
        if let Some(t) = self.time_limit {
            Budget::check_time_limit(t.as_secs_f64())?;
        }
        if self.candidates > MAX_CANDIDATES {
            return Err(Error::InvalidArgument {
                name: "candidates".into(),
                reason: format!(
                    "expected 0 (the whole frontier) to {MAX_CANDIDATES} candidates, got {}",
                    self.candidates
                ),
            });
        }
        Ok(())
    }

    /// Checks a racing confidence: 0 (no racing), or 0.5 to below 1 (a test below even odds
    /// would drop the better play).
    pub fn check_confidence(confidence: f64) -> Result<()> {
        if confidence == 0.0 || (0.5..1.0).contains(&confidence) {
            Ok(())
        } else {
            Err(Error::InvalidArgument {
                name: "confidence".into(),
                reason: format!("expected 0 (no racing) or 0.5 to below 1, got {confidence}"),
            })
        }
    }

    /// Checks a time budget in seconds: above 0, at most [`MAX_TIME_LIMIT`].
    pub fn check_time_limit(seconds: f64) -> Result<()> {
        if seconds > 0.0 && seconds <= MAX_TIME_LIMIT {
            Ok(())
        } else {
            Err(Error::InvalidArgument {
                name: "time_limit".into(),
                reason: format!(
                    "expected a number of seconds above 0 and at most {MAX_TIME_LIMIT}, got \
                     {seconds}"
                ),
            })
        }
    }

    /// The default sample cap: [`Budget::default`]'s without a time budget, the largest
    /// ([`MAX_SAMPLES`](super::MAX_SAMPLES)) with one, so that the clock decides.
    pub fn default_samples(time_limit: Option<Duration>) -> usize {
        match time_limit {
            Some(_) => super::MAX_SAMPLES,
            None => Budget::default().samples,
        }
    }

    /// The default budget with this many samples at most.
    pub fn samples(samples: usize) -> Budget {
        Budget {
            samples,
            ..Budget::default()
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            samples: 2000,
            confidence: 0.95,
            candidates: 16,
            time_limit: None,
        }
    }
}

impl Objective {
    /// Every objective's name, as results and the Python classes name it (Monte Carlo last).
    pub const NAMES: [&'static str; 4] = ["TableEV", "RowValues", "BestResponse", "MonteCarlo"];

    /// The strategy tables this objective plays with: the table objective's, or those that
    /// decide Monte Carlo's opponents; `None` for row values and best response.
    pub fn tables(&self) -> Option<&TablesId> {
        match self {
            Objective::TableEv(t) => Some(&t.id),
            Objective::MonteCarlo {
                policy: Policy::TableEv(t),
                ..
            } => Some(&t.id),
            Objective::RowValues(_) | Objective::BestResponse(_) => None,
        }
    }

    /// The objective's name (one of [`Objective::NAMES`]).
    pub fn name(&self) -> &'static str {
        Objective::NAMES[match self {
            Objective::TableEv(_) => 0,
            Objective::RowValues(_) => 1,
            Objective::BestResponse(_) => 2,
            Objective::MonteCarlo { .. } => 3,
        }]
    }
}
