//! Duplicate duels: every deal is replayed with the seats rotated so that policy A holds each
//! hand once (heads-up: A then B in each seat; at 3–4 players, A in one seat and B in the
//! others). Luck of the deal cancels out of the per-deal edge, so far fewer deals resolve the
//! same difference than in plain self-play.

use super::deal::{deal_round, seat_seed};
use super::policy::{Decided, Policy};
use crate::error::{Error, Result};
use crate::parallel::{never, Stop};
use crate::rules::Rules;
use crate::score::settle;
use crate::solve::check_players;
use rayon::prelude::*;

/// Per-deal results of a duel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DuelDeals {
    /// Players at each deal's table.
    pub players: usize,
    /// A's mean points per hand over the deal's rotations (B's is the negative heads-up; at 3–4
    /// players the Bs share it).
    pub edge: Vec<f64>,
    /// How many of the deal's hands A and B set identically (same decision and rows).
    pub same: Vec<u8>,
}

/// The edge of A over B with its paired 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DuelSummary {
    /// Deals played.
    pub deals: usize,
    /// Mean points per hand A wins over B.
    pub edge: f64,
    /// Standard error of `edge` (the per-deal edges' standard deviation / √deals); NaN
    /// (undefined) for fewer than 2 deals, like the interval.
    pub stderr: f64,
    /// Low end of the 95% interval of `edge` (NaN for fewer than 2 deals).
    pub ci_low: f64,
    /// High end of the 95% interval of `edge`.
    pub ci_high: f64,
    /// Share of hands A and B set identically.
    pub same_share: f64,
    /// Deals needed for the 95% interval to exclude 0 at the observed edge and spread
    /// (infinite for an edge of exactly 0; NaN, undefined, for fewer than 2 deals).
    pub deals_needed: f64,
}

/// The normal quantile of the two-sided 95% intervals of every statistic the package reports.
pub const INTERVAL_Z: f64 = 1.959_963_984_540_054;

impl DuelDeals {
    /// The edge over every deal, with its paired interval.
    pub fn summary(&self) -> DuelSummary {
        let n = self.edge.len();
        // with fewer than 2 deals the spread, and all that follows from it, is undefined: NaN,
        // never a zero-width certainty
        let mean = if n == 0 {
            f64::NAN
        } else {
            self.edge.iter().sum::<f64>() / n as f64
        };
        let var = if n > 1 {
            self.edge.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            f64::NAN
        };
        let sd = var.sqrt();
        let stderr = sd / (n as f64).sqrt();
        let hands = (n * self.players) as f64;
        DuelSummary {
            deals: n,
            edge: mean,
            stderr,
            ci_low: mean - INTERVAL_Z * stderr,
            ci_high: mean + INTERVAL_Z * stderr,
            same_share: if n == 0 {
                f64::NAN
            } else {
                self.same.iter().map(|&s| s as f64).sum::<f64>() / hands
            },
            deals_needed: if n < 2 {
                f64::NAN
            } else if mean == 0.0 {
                f64::INFINITY
            } else {
                (INTERVAL_Z * sd / mean).powi(2).ceil()
            },
        }
    }
}

fn duel_deal(
    rules: &Rules,
    players: usize,
    a: &Policy,
    b: &Policy,
    seed: u64,
    deal: u64,
    stop: Stop,
) -> Result<(f64, u8)> {
    let (hands, round_seed) = deal_round(seed, deal, players);
    let mut da = Vec::with_capacity(players);
    let mut db = Vec::with_capacity(players);
    for (seat, &hand) in hands[..players].iter().enumerate() {
        let s = seat_seed(round_seed, seat);
        let hand = &crate::hand::Hand::trusted(hand);
        if stop() {
            return Err(Error::Interrupted);
        }
        da.push(a.decide_with_stop(rules, players, hand, s, stop)?);
        if stop() {
            return Err(Error::Interrupted);
        }
        db.push(b.decide_with_stop(rules, players, hand, s, stop)?);
    }
    duel_round(rules, &da, &db)
}

/// One deal of a duel from A's and B's decisions at every seat (`da[s]`, `db[s]`): A's mean
/// points per hand over the rotations (A at seat k, B at the others, for every k) and how many
/// hands both set identically.
fn duel_round(rules: &Rules, da: &[Decided], db: &[Decided]) -> Result<(f64, u8)> {
    let players = da.len();
    let same = da.iter().zip(db).filter(|(x, y)| x.same_play(y)).count() as u8;
    let da: Vec<_> = da.iter().map(|d| d.decision()).collect();
    let db: Vec<_> = db.iter().map(|d| d.decision()).collect();
    let mut total = 0i64;
    for k in 0..players {
        let table: Vec<_> = (0..players)
            .map(|s| if s == k { da[s].clone() } else { db[s].clone() })
            .collect();
        total += settle(&table, rules, None, 0)?.players[k].total;
    }
    Ok((total as f64 / players as f64, same))
}

/// A duel's deals from decisions made elsewhere (a policy written in Python, say): `a` and `b`
/// hold each policy's decision at every seat of every deal, deal by deal (`deals × players`),
/// for the same dealt hands. Scored exactly as [`duel_deals`] scores the built-in policies'.
pub fn duel_decided(
    rules: &Rules,
    players: usize,
    a: &[Decided],
    b: &[Decided],
) -> Result<DuelDeals> {
    check_players(players)?;
    if a.len() != b.len() || a.len() % players != 0 {
        return Err(Error::InvalidShape {
            what: "duel decisions".into(),
            expected: format!("as many of A's as of B's, {players} a deal"),
            got: format!("{} of A's, {} of B's", a.len(), b.len()),
        });
    }
    let per: Vec<(f64, u8)> = a
        .par_chunks(players)
        .zip(b.par_chunks(players))
        .with_min_len(8)
        .enumerate()
        .map(|(d, (da, db))| {
            duel_round(rules, da, db).map_err(|e| Error::InvalidArgument {
                name: format!("deal {d}"),
                reason: e.to_string(),
            })
        })
        .collect::<Result<_>>()?;
    Ok(DuelDeals {
        players,
        edge: per.iter().map(|p| p.0).collect(),
        same: per.iter().map(|p| p.1).collect(),
    })
}

/// Deals `first..first + count` of a duel seeded `seed` on the current rayon pool.
pub fn duel_deals(
    rules: &Rules,
    players: usize,
    a: &Policy,
    b: &Policy,
    seed: u64,
    first: u64,
    count: usize,
) -> Result<DuelDeals> {
    duel_deals_with_stop(rules, players, a, b, seed, first, count, &never)
}

/// [`duel_deals`] that calls `stop` before every decision (and within Monte Carlo sampling) and
/// ends with `Error::Interrupted` when it returns true.
#[allow(clippy::too_many_arguments)]
pub fn duel_deals_with_stop(
    rules: &Rules,
    players: usize,
    a: &Policy,
    b: &Policy,
    seed: u64,
    first: u64,
    count: usize,
    stop: Stop,
) -> Result<DuelDeals> {
    check_players(players)?;
    super::deal::check_round_range("deals", first, count)?;
    let per: Vec<(f64, u8)> = (0..count)
        .into_par_iter()
        .with_min_len(8)
        .map(|d| duel_deal(rules, players, a, b, seed, first + d as u64, stop))
        .collect::<Result<_>>()?;
    Ok(DuelDeals {
        players,
        edge: per.iter().map(|p| p.0).collect(),
        same: per.iter().map(|p| p.1).collect(),
    })
}
