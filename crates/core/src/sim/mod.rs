//! Self-play simulation: seeded deals, built-in policies, settlement and columnar results, and
//! duplicate duels between two policies.
//!
//! Determinism: round `r` of a run with seed `s` is dealt from its own seed `mix(s, r)`, and every
//! random choice a policy makes for a hand is seeded from that round seed and the seat, so a
//! round's result depends only on (seed, round index, rules, policies): not on the thread count,
//! the chunking or the machine that played it. A run can therefore be split into shards of round
//! ranges (threads here, processes or a cluster elsewhere) and the shards' rows concatenated.

pub mod deal;
pub mod duel;
pub mod policy;
pub mod run;
pub mod settle_rounds;
pub mod summary;

pub use deal::{
    check_round_range, deal, deal_round, seat_seed, MAX_DEALT_ROUNDS, MAX_ROUNDS, MAX_SEED,
};
pub use duel::{duel_deals, duel_deals_with_stop, duel_decided, DuelDeals, DuelSummary};
pub use policy::{Decided, Policy};
pub use run::{
    decide_seat, decide_seat_with_stop, simulate, simulate_with_stop, RoundColumns, NO_NATURAL,
};
pub use settle_rounds::settle_rounds;
pub use summary::{SeatStats, SeatTally};
