//! The built-in policies a simulated seat can play. Each decides from its own hand only (the
//! deal is hidden information), entirely in Rust, deterministic for the seed it is given.

use crate::error::Result;
use crate::hand::Hand;
use crate::rules::Rules;
use crate::score::Decision;
use crate::solve::{self, with_scratch, Choice, Objective, TableEv};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

/// A policy's decision for one hand.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Decided {
    /// Play, declare or surrender.
    pub choice: Choice,
    /// The 13 codes front/middle/back (the natural's layout when declaring).
    pub codes: [u8; 13],
    /// The policy's own estimate of the decision's points (NaN for policies without one).
    pub value: f64,
}

impl Decided {
    /// Same decision and the same cards in each row, in whatever order each row lists them (a
    /// surrender's codes are not compared, nor the estimates).
    pub fn same_play(&self, other: &Decided) -> bool {
        self.choice == other.choice
            && (self.choice == Choice::Surrender
                || rows_sorted(&self.codes) == rows_sorted(&other.codes))
    }
    /// The decision as [`settle`](crate::settle) takes it.
    pub fn decision(&self) -> Decision {
        decision_of(self.choice, &self.codes)
    }
}

/// The codes with each row's cards in ascending order.
fn rows_sorted(codes: &[u8; 13]) -> [u8; 13] {
    let mut out = *codes;
    for row in [0..3, 3..8, 8..13] {
        out[row].sort_unstable();
    }
    out
}

/// How a seat sets its hand.
#[derive(Clone)]
pub enum Policy {
    /// The table objective, with its natural and surrender decisions (as `solve_batch`).
    TableEv(Arc<TableEv>),
    /// The Monte Carlo objective with this budget, opponents decided by the table objective.
    MonteCarlo {
        /// The table objective that decides the sampled opponents.
        table: Arc<TableEv>,
        /// How many samples, or how long.
        budget: solve::Budget,
    },
    /// Strongest back, then strongest middle of the rest, the rest in front. Never declares or
    /// surrenders (a rule set that declares naturals automatically still pays them).
    Greedy,
    /// A uniformly random legal setting (every legal split equally likely).
    Random,
}

impl Policy {
    /// The policy's name in results (`table`, `mc`, `greedy`, `random`).
    pub fn name(&self) -> &'static str {
        match self {
            Policy::TableEv(_) => "TableEV",
            Policy::MonteCarlo { .. } => "MonteCarlo",
            Policy::Greedy => "Greedy",
            Policy::Random => "Random",
        }
    }

    /// The decision for a sorted `hand` at a table of `players`. `seed` seeds any
    /// randomness of the policy. Uses this thread's solver scratch, so it must not be called
    /// while the caller holds it (`with_scratch`).
    pub fn decide(&self, rules: &Rules, players: usize, hand: &Hand, seed: u64) -> Result<Decided> {
        self.decide_with_stop(rules, players, hand, seed, &crate::parallel::never)
    }

    /// [`Policy::decide`] that calls `stop` within a Monte Carlo seat's sampling and ends with
    /// `Error::Interrupted` when it returns true (the other policies decide in microseconds).
    pub fn decide_with_stop(
        &self,
        rules: &Rules,
        players: usize,
        hand: &Hand,
        seed: u64,
        stop: crate::parallel::Stop,
    ) -> Result<Decided> {
        let codes = hand.codes();
        let (choice, codes, value) = match self {
            Policy::TableEv(te) => {
                with_scratch(|scratch| solve::decide_table_ev(te, rules, hand, scratch))
            }
            Policy::MonteCarlo { table, budget } => {
                let objective = Objective::MonteCarlo {
                    budget: *budget,
                    seed,
                    policy: solve::Policy::TableEv(table.clone()),
                    threads: None,
                };
                let sol = solve::solve_with_stop(hand, rules, players, &objective, 1, stop)?;
                (sol.choice, sol.codes, sol.value)
            }
            Policy::Greedy => {
                let split = with_scratch(|scratch| scratch.greedy(codes, rules.wheel));
                (Choice::Play, split.row_codes(codes), f64::NAN)
            }
            Policy::Random => {
                // A baseline, not a hot path: the legal list is built afresh each time.
                let mut legal = Vec::new();
                with_scratch(|scratch| scratch.legal_settings(codes, rules.wheel, &mut legal));
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let pick = legal[rng.random_range(0..legal.len())];
                (Choice::Play, pick.row_codes(codes), f64::NAN)
            }
        };
        Ok(Decided {
            choice,
            codes,
            value,
        })
    }
}

pub use crate::solve::decision_of;
