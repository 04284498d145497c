//! Self-play training of the table objective's outcome tables (fictitious-play style).
//!
//! Start from rows distributed like random 5- and 3-card hands. Each iteration deals `deals`
//! heads-up deals (two hands each, so `2 × deals` hands), sets every hand with the table
//! objective built from the current tables, and counts the classes of the rows played and how
//! often a hand scoops its opponent. The counts are smoothed across neighbouring classes (a
//! triangular kernel: the tables are a distribution over ordered ranks, so the win rates derived
//! from them stay monotone and sparse classes borrow from their neighbours) and blended into the
//! current tables. Training stops when no row's cumulative distribution moved by more than `tol`
//! (after `min_iters`), or after `max_iters`.
//!
//! Deal `d` of iteration `t` is drawn from its own seed, and counts are integers, so the result
//! depends only on the seed and the sizes, never on the thread count.

use super::classes::{FIVE_CLASSES, FRONT_CLASSES};
use super::monte_carlo::mix;
use super::table_ev::{OutcomeTables, TableEv};
use super::{best_table_ev, check_players, with_scratch};
use crate::error::{Error, Result};
use crate::rules::Rules;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub players: usize,
    pub seed: u64,
    /// Heads-up deals per iteration.
    pub deals: usize,
    pub min_iters: usize,
    pub max_iters: usize,
    /// Largest move of any row's cumulative distribution that counts as "stopped moving".
    pub tol: f64,
    /// Weight of the new measurement when blending.
    pub blend: f64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            players: 4,
            seed: 0,
            deals: 20_000,
            min_iters: 3,
            max_iters: 12,
            tol: 0.01,
            blend: 0.5,
        }
    }
}

#[derive(Clone, Debug)]
pub struct TrainReport {
    pub tables: OutcomeTables,
    pub iterations: usize,
    /// The largest cumulative-distribution move of each iteration.
    pub deltas: Vec<f64>,
}

const SMOOTH_FRONT: usize = 1;
const SMOOTH_FIVE: usize = 3;

/// Trains the tables for `rules` at `cfg.players`. `progress(iteration, delta)` is called after
/// each iteration; returning `false` stops with `Error::Interrupted`. `rules` must be validated.
pub fn train(
    rules: &Rules,
    cfg: &TrainConfig,
    progress: &mut dyn FnMut(usize, f64) -> bool,
) -> Result<TrainReport> {
    check_players(cfg.players)?;
    if cfg.deals == 0 || cfg.max_iters == 0 || !(0.0..=1.0).contains(&cfg.blend) {
        return Err(Error::InvalidShape {
            what: "training settings".into(),
            expected: "deals ≥ 1, max_iters ≥ 1, 0 ≤ blend ≤ 1".into(),
            got: format!(
                "deals {}, max_iters {}, blend {}",
                cfg.deals, cfg.max_iters, cfg.blend
            ),
        });
    }
    let mut tables = OutcomeTables::random_rows(rules.wheel);
    let mut deltas = Vec::new();
    for iter in 0..cfg.max_iters {
        let te = TableEv::new(rules, cfg.players, tables.clone())?;
        let (hist, scoops) = measure(&te, cfg, iter as u64);
        let hands = (2 * cfg.deals) as f64;
        let alpha = if iter == 0 { 1.0 } else { cfg.blend };
        let mut dist: [Vec<f64>; 3] = Default::default();
        for r in 0..3 {
            let radius = if r == 0 { SMOOTH_FRONT } else { SMOOTH_FIVE };
            let measured = smooth(&hist[r], radius);
            dist[r] = tables.dist[r]
                .iter()
                .zip(&measured)
                .map(|(&old, &new)| (1.0 - alpha) * old + alpha * new)
                .collect();
        }
        let rate = scoops as f64 / hands;
        let scoop_rate = (1.0 - alpha) * tables.scoop_rate + alpha * rate;
        let next = OutcomeTables::new(rules.wheel, dist, scoop_rate)?;
        let delta = (0..3)
            .map(|r| cdf_distance(&tables.dist[r], &next.dist[r]))
            .fold(0.0, f64::max);
        tables = next;
        deltas.push(delta);
        if !progress(iter + 1, delta) {
            return Err(Error::Interrupted);
        }
        if iter + 1 >= cfg.min_iters && delta < cfg.tol {
            break;
        }
    }
    Ok(TrainReport {
        tables,
        iterations: deltas.len(),
        deltas,
    })
}

/// Row-class counts of the settings played in one iteration, and the number of scoops.
fn measure(te: &TableEv, cfg: &TrainConfig, iter: u64) -> ([Vec<u64>; 3], u64) {
    const CHUNK: usize = 256;
    let empty = || {
        (
            [
                vec![0u64; FRONT_CLASSES],
                vec![0u64; FIVE_CLASSES],
                vec![0u64; FIVE_CLASSES],
            ],
            0u64,
        )
    };
    let iter_seed = mix(cfg.seed, iter.wrapping_add(0x5EED_0000));
    (0..cfg.deals.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let (mut hist, mut scoops) = empty();
            with_scratch(|scratch| {
                for d in chunk * CHUNK..((chunk + 1) * CHUNK).min(cfg.deals) {
                    let mut rng =
                        rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(mix(iter_seed, d as u64));
                    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
                    for k in 0..26 {
                        let j = rng.random_range(k..52);
                        deck.swap(k, j);
                    }
                    let mut ranks = [[0u32; 3]; 2];
                    for (p, r) in ranks.iter_mut().enumerate() {
                        let hand: [u8; 13] = deck[13 * p..13 * p + 13].try_into().expect("13");
                        let (split, _) = best_table_ev(te, &hand, scratch);
                        *r = split.ranks;
                        for row in 0..3 {
                            hist[row][split.classes[row] as usize] += 1;
                        }
                    }
                    let beats = |a: &[u32; 3], b: &[u32; 3]| (0..3).all(|i| a[i] > b[i]);
                    scoops +=
                        beats(&ranks[0], &ranks[1]) as u64 + beats(&ranks[1], &ranks[0]) as u64;
                }
            });
            (hist, scoops)
        })
        .reduce(empty, |(mut a, sa), (b, sb)| {
            for r in 0..3 {
                a[r].iter_mut().zip(&b[r]).for_each(|(x, y)| *x += y);
            }
            (a, sa + sb)
        })
}

/// Triangular-kernel smoothing over neighbouring classes, normalised to sum 1.
fn smooth(counts: &[u64], radius: usize) -> Vec<f64> {
    let n = counts.len();
    let mut out = vec![0f64; n];
    for (i, o) in out.iter_mut().enumerate() {
        let (mut acc, mut wsum) = (0.0, 0.0);
        let lo = i.saturating_sub(radius);
        for (j, &c) in counts
            .iter()
            .enumerate()
            .take((i + radius + 1).min(n))
            .skip(lo)
        {
            let w = (radius + 1 - i.abs_diff(j)) as f64;
            acc += w * c as f64;
            wsum += w;
        }
        *o = acc / wsum;
    }
    let total: f64 = out.iter().sum();
    if total > 0.0 {
        out.iter_mut().for_each(|x| *x /= total);
    }
    out
}

/// Largest difference between two distributions' cumulative sums.
fn cdf_distance(a: &[f64], b: &[f64]) -> f64 {
    let (mut ca, mut cb, mut worst) = (0.0, 0.0, 0f64);
    for (x, y) in a.iter().zip(b) {
        ca += x;
        cb += y;
        worst = worst.max((ca - cb).abs());
    }
    worst
}
