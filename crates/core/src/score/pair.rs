//! Row keys and the fast pair scorer: the solver's hot path and the rows step of `settle`.

use super::*;
use std::cmp::Ordering;

/// Where a row key keeps the rank's `raw()` (the suit tie-break takes the low bits).
pub(super) const KEY_SHIFT: u32 = 32;

/// A comparable key for one row: `rank.raw()` in bits 32..64 and, when the rule set has a suit
/// order, a suit tie-break in the low bits. Keys of two rows of the same size compare like the
/// rows do under the rule set; equal keys are a tie.
///
/// The tie-break (used only between rows of identical ranks): the cards are read in order of
/// significance — larger rank groups first (quads, trips, pairs, singles), higher rank first
/// within a size, the ace last in an A-2-3-4-5 straight — and, within one rank, the stronger
/// suit first; the row whose suit sequence is stronger at the first difference wins. Two
/// different rows with identical ranks always differ, so under a suit order rows never tie.
///
/// `cards` must be the row `rank` was computed from (3 or 5 distinct cards).
pub fn row_key(rules: &Rules, cards: &[Card], rank: HandRank) -> u64 {
    let base = (rank.raw() as u64) << KEY_SHIFT;
    let Some(order) = rules.suit_order else {
        return base;
    };
    let mut strength = [0u8; 4];
    for (i, &s) in order.iter().enumerate() {
        strength[(s & 3) as usize] = 3 - i as u8;
    }
    let mut count = [0u8; 13];
    for c in cards {
        count[c.rank() as usize] += 1;
    }
    let cat = rank.category();
    let wheel = matches!(cat, Category::Straight | Category::StraightFlush)
        && count[12] > 0
        && count[0] > 0;
    let order_rank = |r: u8| if wheel && r == 12 { 0 } else { r as u32 + 1 };
    let mut sorted: [(u32, u32, u8); 5] = [(0, 0, 0); 5];
    for (slot, c) in sorted.iter_mut().zip(cards) {
        *slot = (
            count[c.rank() as usize] as u32,
            order_rank(c.rank()),
            strength[c.suit() as usize],
        );
    }
    let used = &mut sorted[..cards.len().min(5)];
    used.sort_unstable_by(|x, y| y.cmp(x));
    let mut bits = 0u64;
    for (i, &(_, _, s)) in used.iter().enumerate() {
        bits |= (s as u64) << (2 * (4 - i));
    }
    base | bits
}

/// Result of [`pair_score`], from `a`'s side.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct PairScore {
    /// Points for `a` (negative: `a` pays), scoop included, before any sweep multiplier.
    pub points: i64,
    /// `a` won all three rows.
    pub a_scoops: bool,
    /// `b` won all three rows.
    pub b_scoops: bool,
}

/// The category index of a row key's rank.
#[inline]
pub fn key_category(key: u64) -> usize {
    HandRank::category_index_of_raw((key >> KEY_SHIFT) as u32)
}

/// Steps 2–3 of the module docs, from `a`'s side: `diff` is `a`'s row units minus `b`'s and
/// `won` the rows `a` won minus the rows `b` won (so ±3 is a scoop). Returns (majority,
/// overall, base, after_scoop) for `a`.
#[inline]
pub(super) fn combine(rules: &Rules, diff: i64, won: i32) -> (i64, i64, i64, i64) {
    let majority = rules.majority_point as i64 * won.signum() as i64;
    let overall = rules.overall_point as i64 * diff.signum();
    let base = diff + majority + overall;
    let after = match rules.scoop {
        Scoop::Multiply(k) if won.abs() == 3 => base * k as i64,
        Scoop::Add(n) if won == 3 => base + n as i64,
        Scoop::Add(n) if won == -3 => base - n as i64,
        _ => base,
    };
    (majority, overall, base, after)
}

/// One row from `a`'s side, given how `a`'s key compares with `b`'s and both rows' categories:
/// the units it moves (positive when `a` wins, the winner's row value with its bonus and
/// doubling) and +1, 0 or −1 for who won.
#[inline]
pub fn row_outcome(rules: &Rules, row: usize, order: Ordering, ca: usize, cb: usize) -> (i64, i32) {
    match order {
        Ordering::Greater => (rules.win_value(row, ca, cb).0 as i64, 1),
        Ordering::Less => (-(rules.win_value(row, cb, ca).0 as i64), -1),
        Ordering::Equal => (0, 0),
    }
}

/// A matchup's points from the sums of its three [`row_outcome`]s, scoop included, before any
/// sweep multiplier.
#[inline]
pub fn rows_score(rules: &Rules, diff: i64, won: i32) -> PairScore {
    PairScore {
        points: combine(rules, diff, won).3,
        a_scoops: won == 3,
        b_scoops: won == -3,
    }
}

/// Scores two legal settings against each other from their row keys (front, middle, back) made
/// by [`row_key`]: rows, bonuses (with doubling), majority and overall points and the scoop,
/// exactly as [`settle`] scores a `Rows` matchup, without the sweep (which needs the whole
/// table) and without allocating.
///
/// Assumes both settings are legal and that no natural, foul or surrender is involved: the
/// caller handles those (or calls [`settle`]). Assumes a validated rule set
/// ([`Rules::validate`]; otherwise huge values could overflow).
#[inline]
pub fn pair_score(rules: &Rules, a: &[u64; 3], b: &[u64; 3]) -> PairScore {
    let (mut diff, mut won) = (0i64, 0i32);
    for row in 0..3 {
        let (ka, kb) = (a[row], b[row]);
        let (d, w) = row_outcome(rules, row, ka.cmp(&kb), key_category(ka), key_category(kb));
        diff += d;
        won += w;
    }
    rows_score(rules, diff, won)
}
