//! Batch self-play: deal, decide, settle, and record every seat of every round as columns.

use super::deal::{deal_round, seat_seed};
use super::policy::{Decided, Policy};
use crate::error::{Error, Result};
use crate::hand::Hand;
use crate::parallel::{never, Stop};
use crate::rules::{NaturalKind, Rules};
use crate::score::{settle, Status};
use crate::solve::{check_players, Choice};
use rayon::prelude::*;

/// The `status` column's code of a settled seat.
pub fn status_code(s: Status) -> u8 {
    match s {
        Status::Played => 0,
        Status::Fouled => 1,
        Status::Natural => 2,
        Status::Surrendered => 3,
    }
}

/// The `natural` column's code: [`NaturalKind::index`], or [`NO_NATURAL`].
pub const NO_NATURAL: u8 = crate::solve::BATCH_NO_NATURAL;

fn natural_code(kind: Option<NaturalKind>) -> u8 {
    kind.map_or(NO_NATURAL, NaturalKind::index)
}

/// Results of a run, one row per (round, seat), rounds in order and seats in order within a
/// round. Multi-value columns are flattened row-major (`hands[row * 13 + i]`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundColumns {
    /// Players at each round's table.
    pub players: usize,
    /// Round index of each row (the run's `first` + position).
    pub round: Vec<u64>,
    /// Seat of each row.
    pub seat: Vec<u8>,
    /// The 13 dealt codes, ascending.
    pub hand: Vec<u8>,
    /// [`crate::solve::Choice::code`] of the decision made.
    pub choice: Vec<u8>,
    /// The 13 codes front/middle/back as set (as dealt for a surrender).
    pub setting: Vec<u8>,
    /// [`status_code`] after settling (a fouled setting or a false declaration is `fouled`).
    pub status: Vec<u8>,
    /// The natural paid to the seat ([`NaturalKind::ALL`](crate::rules::NaturalKind::ALL) index) or [`NO_NATURAL`].
    pub natural: Vec<u8>,
    /// `HandRank::raw()` of front, middle, back (0 for a surrender).
    pub ranks: Vec<u32>,
    /// How many opponents the seat scooped.
    pub scoops: Vec<u8>,
    /// The seat swept the table.
    pub sweep: Vec<bool>,
    /// What the seat won (negative: paid).
    pub points: Vec<i64>,
    /// The policy's own estimate of its decision's points (NaN where it has none): predicted
    /// against realised `points` is the calibration of the policy.
    pub value: Vec<f64>,
}

impl RoundColumns {
    /// How many rows (rounds × players).
    pub fn rows(&self) -> usize {
        self.points.len()
    }
    /// The columns of consecutive rounds starting at round index `first`.
    pub(super) fn from_rounds(players: usize, first: u64, rounds: Vec<Vec<SeatRow>>) -> Self {
        let mut out = RoundColumns::reserve(players, rounds.len());
        for (r, seats) in rounds.into_iter().enumerate() {
            for (seat, row) in seats.into_iter().enumerate() {
                out.round.push(first + r as u64);
                out.seat.push(seat as u8);
                out.hand.extend_from_slice(&row.hand);
                out.choice.push(row.choice);
                out.setting.extend_from_slice(&row.setting);
                out.status.push(row.status);
                out.natural.push(row.natural);
                out.ranks.extend_from_slice(&row.ranks);
                out.scoops.push(row.scoops);
                out.sweep.push(row.sweep);
                out.points.push(row.points);
                out.value.push(row.value);
            }
        }
        out
    }

    fn reserve(players: usize, rounds: usize) -> RoundColumns {
        let n = players * rounds;
        RoundColumns {
            players,
            round: Vec::with_capacity(n),
            seat: Vec::with_capacity(n),
            hand: Vec::with_capacity(13 * n),
            choice: Vec::with_capacity(n),
            setting: Vec::with_capacity(13 * n),
            status: Vec::with_capacity(n),
            natural: Vec::with_capacity(n),
            ranks: Vec::with_capacity(3 * n),
            scoops: Vec::with_capacity(n),
            sweep: Vec::with_capacity(n),
            points: Vec::with_capacity(n),
            value: Vec::with_capacity(n),
        }
    }
}

/// One seat of one played round.
pub(super) struct SeatRow {
    value: f64,
    hand: [u8; 13],
    choice: u8,
    setting: [u8; 13],
    status: u8,
    natural: u8,
    ranks: [u32; 3],
    scoops: u8,
    sweep: bool,
    points: i64,
}

/// Settles one round of decided seats (`decided[s]`: the choice and the 13 codes
/// front/middle/back) and records each seat's row.
pub(super) fn record_round(
    rules: &Rules,
    hands: &[[u8; 13]],
    decided: &[Decided],
) -> Result<Vec<SeatRow>> {
    let n = decided.len();
    let decisions: Vec<_> = decided.iter().map(Decided::decision).collect();
    let result = settle(&decisions, rules, None, 0)?;
    Ok((0..n)
        .map(|seat| {
            let p = &result.players[seat];
            let Decided {
                choice,
                codes,
                value,
            } = decided[seat];
            SeatRow {
                value,
                hand: hands[seat],
                choice: choice.code(),
                setting: if choice == Choice::Surrender {
                    hands[seat]
                } else {
                    codes
                },
                status: status_code(p.status),
                natural: natural_code(p.natural.map(|(k, _)| k)),
                ranks: p.ranks.map_or([0; 3], |r| r.map(|x| x.raw())),
                scoops: result
                    .matchups
                    .iter()
                    .filter(|m| m.scoop == Some(seat))
                    .count() as u8,
                sweep: p.sweep,
                points: p.total,
            }
        })
        .collect())
}

/// Plays round `round` of a run seeded `seed`, `policies[s]` at seat `s`.
fn play_round(
    rules: &Rules,
    policies: &[Policy],
    seed: u64,
    round: u64,
    stop: Stop,
) -> Result<Vec<SeatRow>> {
    let n = policies.len();
    let (hands, round_seed) = deal_round(seed, round, n);
    let mut decided = Vec::with_capacity(n);
    for (seat, policy) in policies.iter().enumerate() {
        if stop() {
            return Err(Error::Interrupted);
        }
        let s = seat_seed(round_seed, seat);
        decided.push(policy.decide_with_stop(rules, n, &Hand::trusted(hands[seat]), s, stop)?);
    }
    record_round(rules, &hands[..n], &decided)
}

/// Plays rounds `first..first + count` of a run seeded `seed` on the current rayon pool (one
/// policy per seat, 2–4 seats). The result depends only on the arguments, never on the pool.
pub fn simulate(
    rules: &Rules,
    policies: &[Policy],
    seed: u64,
    first: u64,
    count: usize,
) -> Result<RoundColumns> {
    simulate_with_stop(rules, policies, seed, first, count, &never)
}

/// [`simulate`] that calls `stop` before every seat's decision (and within a Monte Carlo
/// seat's sampling) and ends with `Error::Interrupted` when it returns true.
pub fn simulate_with_stop(
    rules: &Rules,
    policies: &[Policy],
    seed: u64,
    first: u64,
    count: usize,
    stop: Stop,
) -> Result<RoundColumns> {
    let players = policies.len();
    check_players(players)?;
    super::deal::check_round_range("rounds", first, count)?;
    let rounds: Vec<Vec<SeatRow>> = (0..count)
        .into_par_iter()
        .with_min_len(16)
        .map(|r| play_round(rules, policies, seed, first + r as u64, stop))
        .collect::<Result<_>>()?;
    Ok(RoundColumns::from_rounds(players, first, rounds))
}

/// The decisions `policy` makes at `seat` in rounds `first..first + count` of a run seeded
/// `seed` (the same decisions [`simulate`] makes there), for runs that mix built-in policies
/// with policies decided elsewhere.
pub fn decide_seat(
    rules: &Rules,
    players: usize,
    policy: &Policy,
    seed: u64,
    first: u64,
    count: usize,
    seat: usize,
) -> Result<Vec<Decided>> {
    decide_seat_with_stop(rules, players, policy, seed, first, count, seat, &never)
}

/// [`decide_seat`] that calls `stop` before every decision (and within Monte Carlo sampling)
/// and ends with `Error::Interrupted` when it returns true.
#[allow(clippy::too_many_arguments)]
pub fn decide_seat_with_stop(
    rules: &Rules,
    players: usize,
    policy: &Policy,
    seed: u64,
    first: u64,
    count: usize,
    seat: usize,
    stop: Stop,
) -> Result<Vec<Decided>> {
    check_players(players)?;
    if seat >= players {
        return Err(Error::InvalidArgument {
            name: "seat".into(),
            reason: format!("expected 0..{players}, got {seat}"),
        });
    }
    super::deal::check_round_range("rounds", first, count)?;
    (0..count)
        .into_par_iter()
        .with_min_len(16)
        .map(|r| {
            if stop() {
                return Err(Error::Interrupted);
            }
            let (hands, round_seed) = deal_round(seed, first + r as u64, players);
            let s = seat_seed(round_seed, seat);
            policy.decide_with_stop(rules, players, &Hand::trusted(hands[seat]), s, stop)
        })
        .collect()
}
