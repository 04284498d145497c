//! Monte Carlo best response: the opponents' hands are sampled from the 39 unseen cards, set by
//! a policy, and every candidate setting is scored exactly against the same samples (common
//! random numbers). Sample `i` is drawn from its own seed `mix(seed, i)`, and the per-candidate
//! sums are integers, so the result does not depend on the thread count or the chunking.

use super::enumerate::{Scratch, Split};
use super::objective::Policy;
use super::{best_table_ev, hand_cards, with_scratch};
use crate::card::Card;
use crate::error::{Error, Result};
use crate::eval::HandRank;
use crate::naturals::best_natural;
use crate::rules::Rules;
use crate::score::{pair_score, row_key};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// splitmix64: decorrelates neighbouring sample indices.
pub fn mix(seed: u64, i: u64) -> u64 {
    let mut z = seed
        ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0x632B_E59B_D9B5_E7A5);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One sampled opponent, as the scorer sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum Opponent {
    /// Played a legal setting: row keys, and the 13 codes front/middle/back.
    Played { keys: [u64; 3], codes: [u8; 13] },
    /// Declared a natural worth this much; the 13 codes as dealt.
    Natural {
        value: u32,
        kind: crate::rules::NaturalKind,
        codes: [u8; 13],
    },
}

/// Row keys of a split of `hand` under `rules`.
pub fn split_keys(rules: &Rules, hand: &[u8; 13], s: &Split) -> [u64; 3] {
    let mut keys = [0u64; 3];
    for (r, mask) in [s.front, s.middle, s.back].into_iter().enumerate() {
        if rules.suit_order.is_some() {
            let cards: Vec<Card> = Split::codes(hand, mask)
                .into_iter()
                .map(|c| Card::from_code(c).expect("valid code"))
                .collect();
            keys[r] = row_key(rules, &cards, HandRank::from_raw(s.ranks[r]));
        } else {
            keys[r] = (s.ranks[r] as u64) << 32;
        }
    }
    keys
}

/// Sets one hand with the policy: the natural it would declare, or its best split.
pub fn policy_decision(
    rules: &Rules,
    policy: &Policy,
    hand: &[u8; 13],
    scratch: &mut Scratch,
) -> Opponent {
    if !rules.naturals.is_empty() {
        if let Some(nm) = best_natural(&hand_cards(hand), rules) {
            return Opponent::Natural {
                value: nm.value,
                kind: nm.kind,
                codes: *hand,
            };
        }
    }
    let Policy::TableEv(te) = policy;
    let (s, _) = best_table_ev(te, hand, scratch);
    Opponent::Played {
        keys: split_keys(rules, hand, &s),
        codes: s.row_codes(hand),
    }
}

/// The opponents of sample `i` (seats 1..players) for `hand`.
pub fn sample_opponents(
    rules: &Rules,
    players: usize,
    policy: &Policy,
    hand: &[u8; 13],
    seed: u64,
    i: u64,
    scratch: &mut Scratch,
) -> Vec<Opponent> {
    let mine = hand.iter().fold(0u64, |m, &c| m | 1 << c);
    let mut unseen: Vec<u8> = (0..52u8).filter(|c| mine >> c & 1 == 0).collect();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(mix(seed, i));
    let need = 13 * (players - 1);
    for k in 0..need {
        let j = rng.random_range(k..unseen.len());
        unseen.swap(k, j);
    }
    (0..players - 1)
        .map(|p| {
            let mut h: [u8; 13] = unseen[13 * p..13 * p + 13].try_into().expect("13");
            h.sort_unstable();
            policy_decision(rules, policy, &h, scratch)
        })
        .collect()
}

/// Exact points of a setting with row keys `mine` against these opponents, sweeps included.
pub fn score_against(rules: &Rules, mine: &[u64; 3], opps: &[Opponent], sweeps: &[bool]) -> i64 {
    let n = opps.len() + 1;
    let sweep_on = n >= rules.sweep.min_players && rules.sweep.multiplier > 1;
    let mult = rules.sweep.multiplier as i64;
    let mut pts = [0i64; 3];
    let mut all = true;
    for (j, o) in opps.iter().enumerate() {
        match o {
            Opponent::Natural { value, .. } => {
                pts[j] = -(*value as i64);
                all = false;
            }
            Opponent::Played { keys, .. } => {
                let ps = pair_score(rules, mine, keys);
                pts[j] = ps.points;
                all &= ps.a_scoops;
                if sweep_on && ps.b_scoops && sweeps[j] {
                    pts[j] *= mult;
                }
            }
        }
    }
    if sweep_on && all {
        pts.iter_mut().for_each(|p| *p *= mult);
    }
    pts[..opps.len()].iter().sum()
}

/// For each opponent: whether it scoops every other opponent (so that scooping us too makes a
/// sweep).
pub fn opponent_sweeps(rules: &Rules, opps: &[Opponent]) -> Vec<bool> {
    (0..opps.len())
        .map(|j| {
            let Opponent::Played { keys: kj, .. } = &opps[j] else {
                return false;
            };
            opps.iter().enumerate().all(|(k, o)| match o {
                _ if k == j => true,
                Opponent::Played { keys: kk, .. } => pair_score(rules, kj, kk).a_scoops,
                Opponent::Natural { .. } => false,
            })
        })
        .collect()
}

/// An exact sum of squared points. A square reaches 2^126 (one sample's points stay below 2^63,
/// see `score::MAX_MATCHUP_UNITS`), so 10^7 of them need more than 128 bits: the carry goes to
/// `hi`. Integer sums also keep the result independent of thread count and chunking.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SquareSum {
    lo: u128,
    hi: u64,
}

impl SquareSum {
    #[inline]
    pub fn add_square(&mut self, p: i64) {
        let sq = (p.unsigned_abs() as u128) * (p.unsigned_abs() as u128);
        self.add(SquareSum { lo: sq, hi: 0 });
    }
    #[inline]
    pub fn add(&mut self, other: SquareSum) {
        let (lo, carry) = self.lo.overflowing_add(other.lo);
        self.lo = lo;
        self.hi += other.hi + carry as u64;
    }
    pub fn to_f64(self) -> f64 {
        self.hi as f64 * 2f64.powi(128) + self.lo as f64
    }
}

/// Mean and standard error of the mean from exact sums over `n ≥ 2` samples.
pub fn mean_stderr(sum: i128, sq: SquareSum, n: usize) -> (f64, f64) {
    let nf = n as f64;
    let mean = sum as f64 / nf;
    // Σ(p − mean)² = Σp² − sum²/n; f64 keeps 53 bits of both terms, enough for a standard error
    let centered = (sq.to_f64() - (sum as f64) * (sum as f64) / nf).max(0.0);
    let var = centered / (nf - 1.0);
    (mean, (var / nf).sqrt())
}

/// Samples run between two calls of `stop` (about 0.1 s heads-up on one core): how long Ctrl-C
/// may wait.
const BLOCK: usize = 4096;

/// Sums and exact sums of squares of every candidate's points over `samples` samples, on a pool
/// of `threads` (see `crate::parallel::with_threads`). `stop` is called between blocks of
/// samples on the calling thread (so that it may poll Python's signals, which only the main
/// thread sees); when it returns true the run ends with `Error::Interrupted`.
#[allow(clippy::too_many_arguments)]
pub fn run(
    rules: &Rules,
    players: usize,
    policy: &Policy,
    hand: &[u8; 13],
    candidates: &[[u64; 3]],
    samples: usize,
    seed: u64,
    threads: Option<usize>,
    stop: &dyn Fn() -> bool,
) -> Result<(Vec<i128>, Vec<SquareSum>)> {
    const CHUNK: usize = 32;
    let zero = || {
        (
            vec![0i128; candidates.len()],
            vec![SquareSum::default(); candidates.len()],
        )
    };
    let merge = |(mut a, mut b): (Vec<i128>, Vec<SquareSum>),
                 (c, d): (Vec<i128>, Vec<SquareSum>)| {
        a.iter_mut().zip(c).for_each(|(x, y)| *x += y);
        b.iter_mut().zip(d).for_each(|(x, y)| x.add(y));
        (a, b)
    };
    let mut total = zero();
    let mut start = 0;
    while start < samples {
        if stop() {
            return Err(Error::Interrupted);
        }
        let end = (start + BLOCK).min(samples);
        let block = crate::parallel::with_threads(threads, || {
            (start.div_ceil(CHUNK)..end.div_ceil(CHUNK))
                .into_par_iter()
                .map(|chunk| {
                    let (mut sum, mut sq) = zero();
                    with_scratch(|scratch| {
                        for i in (chunk * CHUNK).max(start)..((chunk + 1) * CHUNK).min(end) {
                            let opps = sample_opponents(
                                rules, players, policy, hand, seed, i as u64, scratch,
                            );
                            let sweeps = opponent_sweeps(rules, &opps);
                            for (c, mine) in candidates.iter().enumerate() {
                                let p = score_against(rules, mine, &opps, &sweeps);
                                sum[c] += p as i128;
                                sq[c].add_square(p);
                            }
                        }
                    });
                    (sum, sq)
                })
                .reduce(zero, merge)
        });
        total = merge(total, block);
        start = end;
    }
    Ok(total)
}
