//! Monte Carlo best response: the opponents' hands are sampled from the 39 unseen cards, decided
//! by a policy exactly as it plays (its naturals and surrenders included), and every candidate
//! setting is scored exactly against the same samples (common random numbers): scoops, sweeps,
//! naturals and surrenders at the whole table, which the table objective only approximates.
//! Sample `i` is drawn from its own seed `mix(seed, i)`, the per-candidate sums are integers and
//! the racing decisions are taken at fixed sample counts, so the result does not depend on the
//! thread count or the chunking.
//!
//! # Racing ([architecture: Monte Carlo](https://chinese-poker.github.io/chinese-poker/architecture/#monte-carlo))
//!
//! Sampling every frontier play alike and playing the best mean loses to the table objective
//! it samples against: with about 70 plays (hundreds on some hands) and 1,000 samples, the best
//! mean is mostly the luckiest play, and the table's own choice is usually as good. So
//! `race` starts from the table objective's ranking: only its best `candidates` plays are
//! sampled, each scored against the table's choice (the anchor) on the same samples, so each
//! difference has a paired standard error far below the scores' own. Every `RACE_STEP`
//! samples, a play whose difference is below the leader's at the stated confidence is dropped;
//! sampling stops when only the leader (and the anchor) remain; and the anchor is replaced only
//! by a play that beats it at that confidence.
//!
//! Two guards keep the choice signal rather than noise where the plays' values lie close
//! together (flat stakes, `two_four`). A play that differs from the anchor on only a few
//! samples has a difference far from normal (three samples of +2 among 128 pass a 95% z-test),
//! so it may lead only once it has differed on [`MIN_DIFFERING`] samples. And a play that,
//! at the stated confidence, gains less than [`INDIFFERENCE`] points a hand over the anchor is
//! dropped: telling such near-ties apart is what spent most samples and gained least, and the
//! samples saved buy a higher cap (`Budget::default`: 2,000) for the plays that may matter.

use super::enumerate::{Scratch, Split};
use super::objective::{Budget, Policy};
use super::{decide_table_ev_split, with_scratch, Choice};
use crate::card::Card;
use crate::error::{Error, Result};
use crate::eval::HandRank;
use crate::hand::Hand;
use crate::rules::Rules;
use crate::score::{key_category, pair_score, row_key, row_outcome, rows_score};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::cmp::Ordering;
use std::time::Instant;

/// splitmix64: decorrelates neighbouring sample indices.
pub(crate) fn mix(seed: u64, i: u64) -> u64 {
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
    Played {
        /// The rows' keys, front, middle, back.
        keys: [u64; 3],
        /// The 13 codes front/middle/back.
        codes: [u8; 13],
    },
    /// Declared a natural worth this much; the 13 codes as dealt.
    Natural {
        /// What each opponent pays for it.
        value: u32,
        /// Which natural.
        kind: crate::rules::NaturalKind,
        /// The 13 codes as dealt.
        codes: [u8; 13],
    },
    /// Surrendered (pays the surrender cost to a player who did not); the 13 codes as dealt.
    Surrendered {
        /// The 13 codes as dealt.
        codes: [u8; 13],
    },
}

/// Row keys of a split of `hand` under `rules`.
pub(crate) fn split_keys(rules: &Rules, hand: &[u8; 13], s: &Split) -> [u64; 3] {
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

/// Decides one hand as the policy plays it ([`decide_table_ev_split`]: its natural and
/// surrender decisions included), so that the sampled opponents are the opponents met.
pub(crate) fn policy_decision(
    rules: &Rules,
    policy: &Policy,
    hand: &Hand,
    scratch: &mut Scratch,
) -> Opponent {
    let Policy::TableEv(te) = policy;
    let (choice, s, _, _) = decide_table_ev_split(te, rules, hand, scratch);
    let hand = hand.codes();
    match choice {
        Choice::Play => Opponent::Played {
            keys: split_keys(rules, hand, &s),
            codes: s.row_codes(hand),
        },
        Choice::Declare(kind) => Opponent::Natural {
            value: rules.natural_value(kind).unwrap_or(0),
            kind,
            codes: *hand,
        },
        Choice::Surrender => Opponent::Surrendered { codes: *hand },
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
    // (on the stack, and each hand sorted through a mask of its codes: this runs every sample)
    let mine = hand.iter().fold(0u64, |m, &c| m | 1 << c);
    let mut unseen = [0u8; 39];
    let mut left = !mine & ((1 << 52) - 1);
    for u in unseen.iter_mut() {
        *u = left.trailing_zeros() as u8;
        left &= left - 1;
    }
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(mix(seed, i));
    let need = 13 * (players - 1);
    for k in 0..need {
        let j = rng.random_range(k..unseen.len());
        unseen.swap(k, j);
    }
    unseen[..need]
        .chunks_exact(13)
        .map(|dealt| {
            let mut codes = dealt.iter().fold(0u64, |m, &c| m | 1 << c);
            let h: [u8; 13] = std::array::from_fn(|_| {
                let c = codes.trailing_zeros() as u8;
                codes &= codes - 1;
                c
            });
            policy_decision(rules, policy, &Hand::trusted(h), scratch)
        })
        .collect()
}

/// For each opponent: whether it scoops every other opponent (so that scooping us too makes a
/// sweep).
pub(crate) fn opponent_sweeps(rules: &Rules, opps: &[Opponent]) -> Vec<bool> {
    (0..opps.len())
        .map(|j| {
            let Opponent::Played { keys: kj, .. } = &opps[j] else {
                return false;
            };
            opps.iter().enumerate().all(|(k, o)| match o {
                _ if k == j => true,
                Opponent::Played { keys: kk, .. } => pair_score(rules, kj, kk).a_scoops,
                Opponent::Natural { .. } | Opponent::Surrendered { .. } => false,
            })
        })
        .collect()
}

/// [`rows_score`]'s points as a table, read off it: for each total of the three rows' won
/// codes (−3 to 3, stored +3) the points are affine in the row units' difference on either side
/// of 0 (the overall point takes its sign, a scoop multiplies or adds), so a slope and an offset
/// for a negative, zero or positive difference give them exactly without branches.
/// (Sized to powers of two, so that the masked codes and sides index them without a check.)
struct PointsTable {
    slope: [i64; 8],
    offset: [[i64; 4]; 8],
}

impl PointsTable {
    fn new(rules: &Rules) -> Self {
        let mut t = PointsTable {
            slope: [0; 8],
            offset: [[0; 4]; 8],
        };
        for code in 0..7 {
            let f = |diff: i64| rows_score(rules, diff, code as i32 - 3).points;
            let slope = f(2) - f(1);
            t.slope[code] = slope;
            t.offset[code] = [f(-1) + slope, f(0), f(1) - slope, 0];
        }
        t
    }

    /// The points of a matchup from its packed rows (see [`pack`]), and its won code + 3 (6:
    /// the candidate scooped, 0: it was scooped).
    #[inline(always)]
    fn points(&self, packed: i64) -> (i64, usize) {
        let code = (packed & 7) as usize;
        let diff = packed >> 3;
        let side = (diff.signum() + 1) as usize & 3;
        (self.slope[code] * diff + self.offset[code][side], code)
    }
}

/// Row categories ([`key_category`]: high card to straight flush).
const CATEGORIES: usize = 9;

/// One row's [`row_outcome`] packed so that three of them add up: the units moved times 8, plus
/// the won code + 1 (0 to 2, so three sum to at most 6 and never carry).
#[inline]
fn pack((units, won): (i64, i32)) -> i64 {
    (units << 3) + (won + 1) as i64
}

/// The candidates' rows with each distinct row key once, so that a sample compares a row with
/// an opponent's once however many candidates share it (about 150 distinct rows among 120
/// frontier plays, against 360 row comparisons), and a candidate's matchup is then three
/// lookups, two additions and a `PointsTable` read. Scores exactly as one `pair_score` a
/// matchup with the table's sweeps would (tested against that).
pub(crate) struct CandidateScorer<'a> {
    rules: &'a Rules,
    table: PointsTable,
    /// Distinct keys of each row (front, middle, back), ascending, and their categories.
    keys: [Vec<u64>; 3],
    cats: [Vec<u8>; 3],
    /// Per row, the packed [`row_outcome`] of a row of category `a` that beats one of category
    /// `b` (`won[r][a][b]`), and of one that loses to it (`lost[r][a][b]`).
    won: [[[i64; CATEGORIES]; CATEGORIES]; 3],
    lost: [[[i64; CATEGORIES]; CATEGORIES]; 3],
    /// Per candidate, where each of its rows' outcomes sits in an opponent's part of
    /// `outcomes`: row r's key at position i of `keys[r]` at i plus the keys of the rows before.
    index: Vec<[u32; 3]>,
    /// Per played opponent of the current sample: each distinct key's packed [`row_outcome`]
    /// against the opponent's row, the front's keys, then the middle's, then the back's (one
    /// block of `width` entries an opponent, so that a candidate's three reads share a base).
    outcomes: Vec<i64>,
    /// The distinct keys of the three rows.
    width: usize,
    /// Per played opponent: whether it scoops every other opponent ([`opponent_sweeps`]).
    sweeps: Vec<bool>,
    /// What the opponents who did not play take or pay, whatever the candidate.
    fixed: i64,
    /// Whether a sweep counts at this table.
    sweep_on: bool,
    /// Whether every opponent played (so that the candidate can sweep).
    all_played: bool,
}

impl<'a> CandidateScorer<'a> {
    /// A scorer of `candidates` (row keys) under `rules`.
    pub fn new(rules: &'a Rules, candidates: &[[u64; 3]]) -> Self {
        let keys: [Vec<u64>; 3] = std::array::from_fn(|r| {
            let mut k: Vec<u64> = candidates.iter().map(|c| c[r]).collect();
            k.sort_unstable();
            k.dedup();
            k
        });
        let before = [0, keys[0].len(), keys[0].len() + keys[1].len()];
        let index = candidates
            .iter()
            .map(|c| {
                std::array::from_fn(|r| {
                    (before[r] + keys[r].binary_search(&c[r]).expect("a candidate's row")) as u32
                })
            })
            .collect();
        let width = keys.iter().map(Vec::len).sum();
        let cats = keys
            .each_ref()
            .map(|k| k.iter().map(|&x| key_category(x) as u8).collect());
        let mut won = [[[0; CATEGORIES]; CATEGORIES]; 3];
        let mut lost = won;
        for r in 0..3 {
            for a in 0..CATEGORIES {
                for b in 0..CATEGORIES {
                    won[r][a][b] = pack(row_outcome(rules, r, Ordering::Greater, a, b));
                    lost[r][a][b] = pack(row_outcome(rules, r, Ordering::Less, a, b));
                }
            }
        }
        CandidateScorer {
            rules,
            table: PointsTable::new(rules),
            keys,
            cats,
            won,
            lost,
            index,
            outcomes: Vec::new(),
            width,
            sweeps: Vec::new(),
            fixed: 0,
            sweep_on: false,
            all_played: true,
        }
    }

    /// Compares every distinct row with each played opponent's (`sweeps` as
    /// [`opponent_sweeps`] gives for `opps`).
    pub fn load(&mut self, opps: &[Opponent], sweeps: &[bool]) {
        let rules = self.rules;
        self.outcomes.clear();
        self.sweeps.clear();
        self.fixed = 0;
        self.all_played = true;
        self.sweep_on = opps.len() + 1 >= rules.sweep.min_players && rules.sweep.multiplier > 1;
        for (o, &sweeps) in opps.iter().zip(sweeps) {
            match o {
                Opponent::Played { keys, .. } => {
                    // the distinct keys are sorted: those below the opponent's lose to it,
                    // those above win, and only the categories set the units
                    let out = &mut self.outcomes;
                    for (r, &kb) in keys.iter().enumerate() {
                        let cb = key_category(kb);
                        let (mine, cats) = (&self.keys[r], &self.cats[r]);
                        let below = mine.partition_point(|&ka| ka < kb);
                        let tie = usize::from(mine.get(below) == Some(&kb));
                        let (lost, won) = (&self.lost[r], &self.won[r]);
                        out.extend(cats[..below].iter().map(|&ca| lost[ca as usize][cb]));
                        out.extend(std::iter::repeat_n(pack((0, 0)), tie));
                        out.extend(cats[below + tie..].iter().map(|&ca| won[ca as usize][cb]));
                    }
                    self.sweeps.push(sweeps);
                }
                Opponent::Natural { value, .. } => {
                    self.fixed -= *value as i64;
                    self.all_played = false;
                }
                Opponent::Surrendered { .. } => {
                    self.fixed += rules.surrender.unwrap_or(0) as i64;
                    self.all_played = false;
                }
            }
        }
    }

    /// Exact points of candidate `c` against the opponents [`CandidateScorer::load`]ed.
    #[inline(always)]
    pub fn score(&self, c: usize) -> i64 {
        if self.heads_up() {
            return self.score_heads_up(self.index[c]);
        }
        self.score_table(c)
    }

    /// `add(sums of c, points of c)` for every candidate `c`, in order, the points as
    /// [`CandidateScorer::score`] gives them. (Not inlined: the loop gets registers of its own.)
    #[inline(never)]
    fn add_scores(&self, sums: &mut [WordSums], add: impl Fn(&mut WordSums, i64)) {
        if !self.heads_up() {
            sums.iter_mut()
                .enumerate()
                .for_each(|(c, s)| add(s, self.score_table(c)));
            return;
        }
        for (s, &i) in sums.iter_mut().zip(&self.index) {
            add(s, self.score_heads_up(i));
        }
    }

    /// Whether one opponent played and nobody can sweep (heads-up): one matchup a candidate.
    #[inline(always)]
    fn heads_up(&self) -> bool {
        self.sweeps.len() == 1 && !self.sweep_on
    }

    /// The points of the candidate whose rows' outcomes sit at `index`, heads-up.
    #[inline(always)]
    fn score_heads_up(&self, [i0, i1, i2]: [u32; 3]) -> i64 {
        let o = &self.outcomes;
        self.fixed
            + (self.table)
                .points(o[i0 as usize] + o[i1 as usize] + o[i2 as usize])
                .0
    }

    /// [`CandidateScorer::score`] against every played opponent, sweeps included.
    #[inline(never)]
    fn score_table(&self, c: usize) -> i64 {
        let mult = self.rules.sweep.multiplier as i64;
        let [i0, i1, i2] = self.index[c].map(|i| i as usize);
        let (mut total, mut all) = (self.fixed, self.all_played);
        for (&sweeps, o) in self
            .sweeps
            .iter()
            .zip(self.outcomes.chunks_exact(self.width))
        {
            let packed = o[i0] + o[i1] + o[i2];
            let (points, code) = self.table.points(packed);
            all &= code == 6;
            total += if self.sweep_on && code == 0 && sweeps {
                points * mult
            } else {
                points
            };
        }
        if self.sweep_on && all {
            total * mult
        } else {
            total
        }
    }
}

/// An exact sum of squared points. A square reaches 2^126 (one sample's points stay below 2^63,
/// see `score::MAX_MATCHUP_UNITS`), so 10^7 of them need more than 128 bits: the carry goes to
/// `hi`. Integer sums also keep the result independent of thread count and chunking.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SquareSum {
    lo: u128,
    hi: u64,
}

impl SquareSum {
    #[inline]
    /// Adds another sum.
    pub fn add(&mut self, other: SquareSum) {
        let (lo, carry) = self.lo.overflowing_add(other.lo);
        self.lo = lo;
        self.hi += other.hi + carry as u64;
    }
    /// The sum as a float.
    pub fn to_f64(self) -> f64 {
        self.hi as f64 * 2f64.powi(128) + self.lo as f64
    }
}

/// Mean and standard error of the mean from exact sums over `n ≥ 2` samples.
pub(crate) fn mean_stderr(sum: i128, sq: SquareSum, n: usize) -> (f64, f64) {
    let nf = n as f64;
    let mean = sum as f64 / nf;
    // Σ(p − mean)² = Σp² − sum²/n; f64 keeps 53 bits of both terms, enough for a standard error
    let centered = (sq.to_f64() - (sum as f64) * (sum as f64) / nf).max(0.0);
    let var = centered / (nf - 1.0);
    (mean, (var / nf).sqrt())
}

/// Samples between two racing decisions (and at most between two calls of `stop`, which
/// Ctrl-C waits for). Fixed, so that the decisions do not depend on the thread count.
pub(crate) const RACE_STEP: usize = 128;

/// Fewest samples on which a play must differ from the anchor before it may lead the race (and
/// so replace the anchor): below it the normal approximation of a sparse difference is far off.
/// On 300 heads-up and 150 four-player `two_four` hands, each play's value known from 20,000
/// samples (the test `racing_rule_gain`), it halved the replacements of the anchor by a worse
/// play (0.6% to 0.3% of hands heads-up) at no loss of gain (docs/quality.md).
pub const MIN_DIFFERING: u64 = 10;

/// Points a hand below which a gain over the anchor is not worth sampling for: a play whose
/// difference from the anchor cannot, at the racing confidence, reach it is dropped.
/// Points are whole numbers under every rule set, so 0.02 is a small share of the least a
/// single hand can move. On the hands of [`MIN_DIFFERING`], with it a 1,000-sample cap spent
/// 20–27% fewer samples for the same gain, and a 2,000-sample cap as many as before (1.13× at 4
/// players) for more of it.
pub const INDIFFERENCE: f64 = 0.02;

/// The racing rule's guards ([`MIN_DIFFERING`], [`INDIFFERENCE`]); one value, so that the
/// tests can replay the race without them, as it was before.
#[derive(Clone, Copy, Debug)]
struct Guards {
    min_differing: u64,
    indifference: f64,
}

const GUARDS: Guards = Guards {
    min_differing: MIN_DIFFERING,
    indifference: INDIFFERENCE,
};

/// Without racing, samples between two calls of `stop` (about 0.1 s heads-up on one core).
const BLOCK: usize = 4096;

/// Per-candidate sums over the samples it was scored on: its points, and (when racing, the only
/// use) its points minus the anchor's on the same samples. Integers, so that merging chunks in
/// any order gives the same.
#[derive(Clone, Debug, Default)]
struct Sums {
    n: u64,
    /// Samples on which the play's points differed from the anchor's.
    differ: u64,
    sum: i128,
    sq: SquareSum,
    diff: i128,
    diff_sq: SquareSum,
}

impl Sums {
    fn add(&mut self, o: &Sums) {
        self.n += o.n;
        self.differ += o.differ;
        self.sum += o.sum;
        self.sq.add(o.sq);
        self.diff += o.diff;
        self.diff_sq.add(o.diff_sq);
    }
    /// Mean difference from the anchor and its standard error.
    fn diff_stats(&self) -> (f64, f64) {
        mean_stderr(self.diff, self.diff_sq, self.n.max(2) as usize)
    }
}

/// [`Sums`] over a few samples in machine words (cheaper than the exact sums in the inner loop),
/// moved into them before they could overflow (see [`race`]).
#[derive(Clone, Copy, Debug, Default)]
struct WordSums {
    differ: u64,
    sum: i64,
    sq: u128,
    diff: i64,
    diff_sq: u128,
}

impl WordSums {
    #[inline]
    fn add(&mut self, p: i64, diff: i64) {
        self.add_points(p);
        self.differ += u64::from(diff != 0);
        self.diff += diff;
        self.diff_sq += diff.unsigned_abs() as u128 * diff.unsigned_abs() as u128;
    }

    #[inline]
    fn add_points(&mut self, p: i64) {
        self.sum += p;
        self.sq += p.unsigned_abs() as u128 * p.unsigned_abs() as u128;
    }

    /// Adds these `n` samples to `into` and starts again from zero.
    fn flush(&mut self, n: u64, into: &mut Sums) {
        into.n += n;
        into.differ += self.differ;
        into.sum += self.sum as i128;
        into.sq.add(SquareSum { lo: self.sq, hi: 0 });
        into.diff += self.diff as i128;
        into.diff_sq.add(SquareSum {
            lo: self.diff_sq,
            hi: 0,
        });
        *self = WordSums::default();
    }
}

/// The outcome of [`race`], candidates in the order given.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Raced {
    /// The candidate to play.
    pub chosen: usize,
    /// Mean points and its standard error over the samples each candidate was scored on.
    pub mean: Vec<f64>,
    /// Standard error of each `mean`.
    pub stderr: Vec<f64>,
    /// Samples each candidate was scored on (fewer for those dropped early).
    pub samples: Vec<usize>,
    /// Samples drawn in all.
    pub drawn: usize,
}

/// One-sided standard normal quantile (Acklam's rational approximation, relative error below
/// 1.2e-9): the z of a racing test at `confidence`.
#[allow(clippy::excessive_precision)]
pub(crate) fn normal_quantile(confidence: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.383577518672690e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let p = confidence.clamp(1e-12, 1.0 - 1e-12);
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// Races `candidates` (row keys; the first is the anchor, the table objective's choice, and the
/// rest should follow its ranking) over at most `budget.samples` samples, on a pool of `threads`
/// (see `crate::parallel::with_threads`). `stop` is called between steps and between chunks of
/// 32 samples, from any thread; when it returns true the run ends with `Error::Interrupted`.
/// With `budget.confidence` 0 every candidate gets every sample and the best mean is chosen.
/// With `budget.time_limit` sampling also ends after the first step past it (at least one
/// step is always drawn, so every mean has samples).
#[allow(clippy::too_many_arguments)]
pub(crate) fn race(
    rules: &Rules,
    players: usize,
    policy: &Policy,
    hand: &[u8; 13],
    candidates: &[[u64; 3]],
    budget: &Budget,
    seed: u64,
    threads: Option<usize>,
    stop: crate::parallel::Stop,
) -> Result<Raced> {
    const CHUNK: usize = 32;
    let k = candidates.len();
    let racing = budget.confidence > 0.0;
    let z = if racing {
        normal_quantile(budget.confidence)
    } else {
        0.0
    };
    let mut alive = vec![true; k];
    let mut sums = vec![Sums::default(); k];
    let merge = |mut a: Vec<Sums>, b: Vec<Sums>| {
        a.iter_mut().zip(&b).for_each(|(x, y)| x.add(y));
        a
    };
    // a time budget is checked between steps: racing-sized ones, so that it is not overrun by
    // a whole block
    let deadline = budget.time_limit.map(|t| Instant::now() + t);
    let step = if racing || deadline.is_some() {
        RACE_STEP
    } else {
        BLOCK
    };
    // a chunk's sums fit machine words when a sample's points (and differences, twice that)
    // stay below 2^57: every preset's by far; other rule sets move their sums every sample
    let bound = rules.max_matchup_units() * (players as u128 - 1);
    let flush_every = if bound < 1 << 57 { CHUNK as u64 } else { 1 };
    // the samples of one chunk: drawn, their opponents set, every live candidate scored, the
    // sums moved out in machine words every `flush_every` samples
    let run_chunk = |scorer: &mut CandidateScorer,
                     samples: std::ops::Range<usize>,
                     live: &[usize]| {
        let mut out = vec![Sums::default(); k];
        let mut local = vec![WordSums::default(); k];
        let mut pending = 0;
        // (`live` holds increasing candidates, so all of them exactly when as many; without
        // racing it always does)
        let all = live.len() == k;
        if stop() {
            return out; // the step ends with `Error::Interrupted`: these sums are not used
        }
        with_scratch(|scratch| {
            for i in samples.clone() {
                let opps = sample_opponents(rules, players, policy, hand, seed, i as u64, scratch);
                scorer.load(&opps, &opponent_sweeps(rules, &opps));
                if !racing {
                    // only the means decide: no differences to keep
                    scorer.add_scores(&mut local, WordSums::add_points);
                } else {
                    let anchor = scorer.score(0);
                    match all {
                        true => scorer.add_scores(&mut local, |s, p| s.add(p, p - anchor)),
                        false => live.iter().for_each(|&c| {
                            let p = scorer.score(c);
                            local[c].add(p, p - anchor)
                        }),
                    }
                }
                pending += 1;
                if pending == flush_every {
                    live.iter()
                        .for_each(|&c| local[c].flush(pending, &mut out[c]));
                    pending = 0;
                }
            }
        });
        live.iter()
            .for_each(|&c| local[c].flush(pending, &mut out[c]));
        out
    };
    // With one thread the chunks run here, in order, on one scorer: a pool of one would be
    // woken (two context switches) at every step for nothing. The sums are integers, so the
    // result is the same either way.
    let one_thread = crate::parallel::on_caller(threads);
    let mut inline_scorer = one_thread.then(|| CandidateScorer::new(rules, candidates));
    let mut start = 0;
    while start < budget.samples {
        if stop() {
            return Err(Error::Interrupted);
        }
        let end = (start + step).min(budget.samples);
        let live: Vec<usize> = (0..k).filter(|&c| alive[c]).collect();
        // the step's samples in chunks of at most CHUNK, as many as a multiple of the threads
        // so that each thread gets as many samples
        let chunks = |threads: usize| {
            let n = (end - start).div_ceil(CHUNK).next_multiple_of(threads);
            let size = (end - start).div_ceil(n);
            (start..end)
                .step_by(size)
                .map(move |s| s..(s + size).min(end))
        };
        let run = |scorer: &mut CandidateScorer, chunk| run_chunk(scorer, chunk, &live);
        let block = match inline_scorer.as_mut() {
            Some(scorer) => chunks(1)
                .map(|chunk| run(scorer, chunk))
                .fold(vec![Sums::default(); k], merge),
            None => crate::parallel::with_threads(threads, || {
                let chunks: Vec<_> = chunks(rayon::current_num_threads()).collect();
                chunks
                    .into_par_iter()
                    .map_init(|| CandidateScorer::new(rules, candidates), run)
                    .reduce(|| vec![Sums::default(); k], merge)
            }),
        };
        if stop() {
            return Err(Error::Interrupted);
        }
        sums = merge(sums, block);
        start = end;
        if racing && drop_beaten(&sums, &mut alive, z, GUARDS) {
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    let stats: Vec<(f64, f64)> = sums
        .iter()
        .map(|s| {
            if s.n >= 2 {
                mean_stderr(s.sum, s.sq, s.n as usize)
            } else {
                (f64::NAN, f64::NAN)
            }
        })
        .collect();
    let chosen = if racing {
        // the anchor stands unless a play beats it at the confidence asked for
        let (leader, lower) = leader(&sums, &alive, z, GUARDS);
        if lower > 0.0 {
            leader
        } else {
            0
        }
    } else {
        (0..k)
            .max_by(|&a, &b| stats[a].0.total_cmp(&stats[b].0).then(b.cmp(&a)))
            .unwrap_or(0)
    };
    Ok(Raced {
        chosen,
        mean: stats.iter().map(|s| s.0).collect(),
        stderr: stats.iter().map(|s| s.1).collect(),
        samples: sums.iter().map(|s| s.n as usize).collect(),
        drawn: start,
    })
}

/// The live play with the highest lower bound on its difference from the anchor, and that
/// bound (the anchor's is 0); only a play that differed from the anchor on [`MIN_DIFFERING`]
/// samples may lead.
fn leader(sums: &[Sums], alive: &[bool], z: f64, g: Guards) -> (usize, f64) {
    let mut best = (0, 0.0);
    for (c, s) in sums.iter().enumerate().skip(1) {
        if alive[c] && s.differ >= g.min_differing {
            let (d, se) = s.diff_stats();
            if d - z * se > best.1 {
                best = (c, d - z * se);
            }
        }
    }
    best
}

/// Drops every live play whose difference from the anchor is, at the confidence of `z`, below
/// the leader's or that cannot gain [`INDIFFERENCE`] over the anchor; returns whether the race is decided
/// (at most the leader and the anchor left, and the leader, if it is not the anchor, beats it).
fn drop_beaten(sums: &[Sums], alive: &mut [bool], z: f64, g: Guards) -> bool {
    let (leader, lower) = leader(sums, alive, z, g);
    let bar = lower.max(g.indifference);
    let mut left = 0;
    for c in 1..sums.len() {
        if !alive[c] || c == leader {
            continue;
        }
        let (d, se) = sums[c].diff_stats();
        // `<=`: a play that never differs from the anchor cannot beat it
        if d + z * se <= bar {
            alive[c] = false;
        } else {
            left += 1;
        }
    }
    left == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference scorer [`CandidateScorer`] is tested against: exact points of a setting
    /// with row keys `mine` against these opponents, sweeps included, one `pair_score` a
    /// matchup.
    fn score_against(rules: &Rules, mine: &[u64; 3], opps: &[Opponent], sweeps: &[bool]) -> i64 {
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
                Opponent::Surrendered { .. } => {
                    pts[j] = rules.surrender.unwrap_or(0) as i64;
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

    /// Sums of a play over `n` samples on which it differed from the anchor by the given
    /// amounts (every other sample equal), its own points left out (the race reads only the
    /// differences).
    fn differing(n: u64, diffs: &[i64]) -> Sums {
        let sq: u128 = diffs.iter().map(|d| (d * d) as u128).sum();
        Sums {
            n,
            differ: diffs.iter().filter(|&&d| d != 0).count() as u64,
            diff: diffs.iter().sum::<i64>() as i128,
            diff_sq: SquareSum { lo: sq, hi: 0 },
            ..Sums::default()
        }
    }

    /// Three samples of +2 among 128 pass a one-sided 95% z-test (t = 1.73) though a fair
    /// coin gives them one time in eight: such a play may not lead, and the anchor stands.
    #[test]
    fn a_play_that_differed_on_few_samples_does_not_replace_the_anchor() {
        let z = normal_quantile(0.95);
        let few = differing(128, &[2, 2, 2]);
        let (d, se) = few.diff_stats();
        assert!(d - z * se > 0.0, "the z-test alone would take it: {d} {se}");
        let sums = [Sums::default(), few];
        assert_eq!(leader(&sums, &[true, true], z, GUARDS), (0, 0.0));
        assert_eq!(leader(&sums, &[true, true], z, UNGUARDED).0, 1, "as it was");
        // on MIN_DIFFERING samples the same evidence per sample may lead
        let many = differing(
            128 * MIN_DIFFERING.div_ceil(3),
            &vec![2; MIN_DIFFERING as usize],
        );
        let (d, se) = many.diff_stats();
        let sums = [Sums::default(), many];
        assert_eq!(leader(&sums, &[true, true], z, GUARDS), (1, d - z * se));
    }

    /// A play whose gain over the anchor is, at the confidence, below INDIFFERENCE is dropped
    /// though it is not below the anchor, so the race ends; one that may still gain more stays.
    #[test]
    fn a_play_that_cannot_gain_the_indifference_is_dropped() {
        let z = normal_quantile(0.95);
        // 4,000 samples, 20 of them +2 and 12 of them −2: a mean of +0.004 ± 0.0028
        let mut diffs = vec![2; 20];
        diffs.extend([-2; 12]);
        let tiny = differing(4000, &diffs);
        let (d, se) = tiny.diff_stats();
        assert!(d > 0.0 && d + z * se < INDIFFERENCE, "{d} {se}");
        let mut alive = [true, true];
        assert!(drop_beaten(
            &[Sums::default(), tiny.clone()],
            &mut alive,
            z,
            GUARDS
        ));
        assert_eq!(alive, [true, false]);
        // the same mean over 400 samples may still gain INDIFFERENCE: it races on
        let open = differing(400, &[2, 2, 2, 2, -2, -2, 2, 2, 2, -2, 2, -2]);
        let (d, se) = open.diff_stats();
        assert!(d + z * se > INDIFFERENCE, "{d} {se}");
        let mut alive = [true, true];
        assert!(!drop_beaten(
            &[Sums::default(), open],
            &mut alive,
            z,
            GUARDS
        ));
        assert_eq!(alive, [true, true]);
    }

    /// The race as it was before its guards.
    const UNGUARDED: Guards = Guards {
        min_differing: 0,
        indifference: 0.0,
    };

    /// The race's decisions ([`drop_beaten`] and [`leader`], step by step as [`race`] takes
    /// them) replayed over given samples' points (a row a sample, the anchor first): the play
    /// chosen and the samples drawn.
    fn replay(rows: &[Vec<i64>], cap: usize, z: f64, g: Guards) -> (usize, usize) {
        let k = rows[0].len();
        let (mut alive, mut sums) = (vec![true; k], vec![Sums::default(); k]);
        let mut start = 0;
        while start < cap.min(rows.len()) {
            let end = (start + RACE_STEP).min(cap).min(rows.len());
            for c in (0..k).filter(|&c| alive[c]) {
                let mut w = WordSums::default();
                rows[start..end]
                    .iter()
                    .for_each(|r| w.add(r[c], r[c] - r[0]));
                w.flush((end - start) as u64, &mut sums[c]);
            }
            start = end;
            if drop_beaten(&sums, &mut alive, z, g) {
                break;
            }
        }
        let (lead, lower) = leader(&sums, &alive, z, g);
        (if lower > 0.0 { lead } else { 0 }, start)
    }

    /// What the racing rule gains over the table's play, measured where each play's value is
    /// known: on dealt hands the table objective's 16 best plays are valued on `LAB_TRUTH`
    /// samples (20,000), then the race is replayed `LAB_REPS` times (6) on other samples and
    /// the chosen play's known gain over the table's averaged, with the share of hands where it
    /// replaced the table's play, of those where that lost, and the samples drawn. The figures
    /// of docs/architecture.md (Monte Carlo) came from it, at `LAB_HANDS` 300 heads-up and 150
    /// at `LAB_PLAYERS=4`:
    /// `cargo test --release -p chinese-poker --lib racing_rule_gain -- --ignored --nocapture`
    #[test]
    #[ignore = "minutes; a measurement, not a check"]
    fn racing_rule_gain() {
        use super::super::{load_bundled, top_table_ev, with_scratch};
        use rayon::prelude::*;
        use std::sync::Arc;
        let env = |name: &str, default: usize| {
            std::env::var(name)
                .ok()
                .map_or(default, |v| v.parse().expect("a count"))
        };
        let preset = std::env::var("LAB_PRESET").unwrap_or("two_four".into());
        let (players, hands) = (env("LAB_PLAYERS", 2), env("LAB_HANDS", 300));
        let (truth_n, reps) = (env("LAB_TRUTH", 20_000), env("LAB_REPS", 6));
        let rules = Rules::preset(&preset).unwrap();
        let te = Arc::new(load_bundled(&rules, players).unwrap());
        let policy = Policy::TableEv(te.clone());
        let z = normal_quantile(Budget::default().confidence);
        let variants = [
            ("before: 1,000, unguarded", 1000, UNGUARDED),
            ("1,000, guarded", 1000, GUARDS),
            ("now: 2,000, guarded", Budget::default().samples, GUARDS),
            ("4,000, guarded", 4000, GUARDS),
        ];
        let longest = variants.iter().map(|v| v.1).max().unwrap();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        let dealt: Vec<[u8; 13]> = (0..hands)
            .map(|_| {
                let mut deck: Vec<u8> = (0..52).collect();
                let mut h: [u8; 13] = std::array::from_fn(|i| {
                    deck.swap(i, rng.random_range(i..52));
                    deck[i]
                });
                h.sort_unstable();
                h
            })
            .collect();
        // per hand: the best play's known gain, and per variant (gain, replaced, lost, drawn)
        type Tally = (f64, usize, usize, usize);
        let per_hand: Vec<(f64, Vec<Tally>)> = dealt
            .par_iter()
            .enumerate()
            .map(|(h, hand)| {
                with_scratch(|scratch| {
                    let (top, _) = top_table_ev(&te, hand, scratch, 16);
                    let keys: Vec<[u64; 3]> = top
                        .iter()
                        .map(|(s, _)| split_keys(&rules, hand, s))
                        .collect();
                    let mut scorer = CandidateScorer::new(&rules, &keys);
                    let mut rows = |from: usize, n: usize| -> Vec<Vec<i64>> {
                        (from..from + n)
                            .map(|i| {
                                let opps = sample_opponents(
                                    &rules, players, &policy, hand, h as u64, i as u64, scratch,
                                );
                                scorer.load(&opps, &opponent_sweeps(&rules, &opps));
                                (0..keys.len()).map(|c| scorer.score(c)).collect()
                            })
                            .collect()
                    };
                    let known = rows(0, truth_n);
                    let gain: Vec<f64> = (0..keys.len())
                        .map(|c| known.iter().map(|r| (r[c] - r[0]) as f64).sum::<f64>())
                        .map(|d| d / truth_n as f64)
                        .collect();
                    let mut out = vec![(0.0, 0, 0, 0); variants.len()];
                    for rep in 0..reps {
                        let fresh = rows(truth_n + rep * longest, longest);
                        for (o, &(_, cap, g)) in out.iter_mut().zip(&variants) {
                            let (c, drawn) = replay(&fresh, cap, z, g);
                            o.0 += gain[c];
                            o.1 += usize::from(c != 0);
                            o.2 += usize::from(c != 0 && gain[c] < 0.0);
                            o.3 += drawn;
                        }
                    }
                    (gain.iter().cloned().fold(0.0, f64::max), out)
                })
            })
            .collect();
        let runs = (hands * reps) as f64;
        let best = per_hand.iter().map(|p| p.0).sum::<f64>() / hands as f64;
        println!(
            "{preset} at {players}: {hands} hands, {truth_n} samples known, {reps} races each; \
             the best play gains {best:+.4} a hand"
        );
        for (v, (name, ..)) in variants.iter().enumerate() {
            let gains: Vec<f64> = per_hand.iter().map(|p| p.1[v].0 / reps as f64).collect();
            let mean = gains.iter().sum::<f64>() / hands as f64;
            let var = gains.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (hands - 1) as f64;
            let sum = |f: fn(&Tally) -> usize| {
                per_hand.iter().map(|p| f(&p.1[v])).sum::<usize>() as f64 / runs
            };
            println!(
                "{name:>26}: gains {mean:+.4} ± {:.4}, replaces {:.1}%, of which lose {:.1}%, \
                 {:.0} samples",
                (var / hands as f64).sqrt(),
                100.0 * sum(|o| o.1),
                100.0 * sum(|o| o.2),
                sum(|o| o.3)
            );
        }
    }

    #[test]
    fn normal_quantile_matches_known_values() {
        for (p, z) in [
            (0.5, 0.0),
            (0.95, 1.644_853_6),
            (0.975, 1.959_964),
            (0.01, -2.326_348),
        ] {
            assert!((normal_quantile(p) - z).abs() < 1e-6, "{p}");
        }
    }

    #[test]
    fn a_surrendered_opponent_pays_and_blocks_the_sweep() {
        let mut rules = Rules::preset("maceplay").unwrap();
        rules.surrender = Some(2);
        assert_eq!((rules.sweep.min_players, rules.sweep.multiplier), (4, 2));
        let weak = [1u64 << 32, 2u64 << 32, 3u64 << 32];
        let strong = [9u64 << 40, 9u64 << 41, 9u64 << 42];
        let played = Opponent::Played {
            keys: weak,
            codes: [0; 13],
        };
        let gone = Opponent::Surrendered { codes: [0; 13] };
        let score = |opps: &[Opponent]| {
            score_against(&rules, &strong, opps, &opponent_sweeps(&rules, opps))
        };
        let base = score(std::slice::from_ref(&played));
        assert!(base > 0);
        // three scoops at four players sweep; a surrender pays its cost and prevents it
        assert_eq!(
            score(&[played.clone(), played.clone(), played.clone()]),
            6 * base
        );
        assert_eq!(score(&[played.clone(), played, gone]), 2 * base + 2);
    }

    /// The shared-row scorer gives exactly [`score_against`] for every candidate, whatever the
    /// opponents did, under every preset at every table size.
    #[test]
    fn candidate_scorer_matches_score_against() {
        use crate::presets::PRESET_NAMES;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let mut scratch = Scratch::default();
        let deal = |rng: &mut rand_xoshiro::Xoshiro256PlusPlus| {
            let mut deck: Vec<u8> = (0..52).collect();
            for i in 0..13 {
                let j = rng.random_range(i..52);
                deck.swap(i, j);
            }
            let mut h: [u8; 13] = deck[..13].try_into().unwrap();
            h.sort_unstable();
            h
        };
        let mut checked = 0;
        for name in PRESET_NAMES {
            let mut rules = Rules::preset(name).unwrap();
            if rules.surrender.is_none() {
                rules.surrender = Some(3);
            }
            for players in 2..=4 {
                for _ in 0..40 {
                    let hand = deal(&mut rng);
                    scratch.frontier(&hand, rules.wheel);
                    let splits = scratch.frontier.clone();
                    let candidates: Vec<[u64; 3]> = splits
                        .iter()
                        .map(|s| split_keys(&rules, &hand, s))
                        .collect();
                    let opps: Vec<Opponent> = (1..players)
                        .map(|_| {
                            let h = deal(&mut rng);
                            match rng.random_range(0..8) {
                                0 => Opponent::Natural {
                                    value: rng.random_range(1..20),
                                    kind: crate::rules::NaturalKind::SixPairs,
                                    codes: h,
                                },
                                1 => Opponent::Surrendered { codes: h },
                                _ => {
                                    scratch.frontier(&h, rules.wheel);
                                    let f = &scratch.frontier;
                                    let s = f[rng.random_range(0..f.len())];
                                    Opponent::Played {
                                        keys: split_keys(&rules, &h, &s),
                                        codes: s.row_codes(&h),
                                    }
                                }
                            }
                        })
                        .collect();
                    let sweeps = opponent_sweeps(&rules, &opps);
                    let mut scorer = CandidateScorer::new(&rules, &candidates);
                    scorer.load(&opps, &sweeps);
                    // the race's loop over every candidate, once with and once without the
                    // differences from the anchor
                    let (mut sums, anchor) = (vec![WordSums::default(); candidates.len()], 5);
                    scorer.add_scores(&mut sums, WordSums::add_points);
                    scorer.add_scores(&mut sums, |s, p| s.add(p, p - anchor));
                    for (c, keys) in candidates.iter().enumerate() {
                        let points = score_against(&rules, keys, &opps, &sweeps);
                        let about = format!("{name} at {players}: candidate {c} against {opps:?}");
                        assert_eq!(scorer.score(c), points, "{about}");
                        let square = (points as i128 * points as i128) as u128;
                        let s = sums[c];
                        assert_eq!((s.sum, s.sq), (2 * points, 2 * square), "{about}");
                        assert_eq!(s.diff, points - anchor, "{about}");
                        assert_eq!(s.differ, u64::from(points != anchor), "{about}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// The points table gives `rows_score` for every won code and row-unit difference, under
    /// every preset (majority and overall points, scoops that multiply or add).
    #[test]
    fn points_table_is_rows_score() {
        for name in crate::presets::PRESET_NAMES {
            let rules = Rules::preset(name).unwrap();
            let table = PointsTable::new(&rules);
            for won in -3..=3 {
                for diff in -200..=200 {
                    let packed = (diff << 3) + (won + 3) as i64;
                    let (points, code) = table.points(packed);
                    assert_eq!(code as i32, won + 3);
                    assert_eq!(
                        points,
                        rows_score(&rules, diff, won).points,
                        "{name} {won} {diff}"
                    );
                }
            }
        }
    }
}
