//! Lookup tables behind the fast evaluator, built once on first use (a few milliseconds).
//!
//! A 5-card row that is not a flush is identified by its rank multiset. Each rank has a weight
//! chosen (greedily, smallest first) so that the sums of any five ranks with at most four of a
//! kind are all distinct: the sum indexes a `u16` table of multiset ids (722 KB, wheel-free) and
//! the id indexes a small per-wheel `u32` rank table. A flush is identified by its 13-bit rank
//! mask. A 3-card row is indexed directly by its three ranks.

use super::rank::{Category, HandRank, Wheel};
use std::sync::OnceLock;

pub(crate) const RANK_WEIGHT: [u32; 13] = [
    0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415,
];
const MAX_KEY5: usize = 4 * 79415 + 43258;
const NO_ID: u16 = u16::MAX;

pub(crate) struct Tables {
    /// weight sum of a 5-card multiset → multiset id
    pub key5: Vec<u16>,
    /// multiset id → rank, per wheel (index by `Wheel as usize`)
    pub multiset5: [Vec<u32>; 2],
    /// 13-bit rank mask of a flush → rank, per wheel
    pub flush5: [Vec<u32>; 2],
    /// r0 * 169 + r1 * 13 + r2 → rank of a 3-card row
    pub rank3: Vec<u32>,
    /// card code → weight of its rank, for the hot loop
    pub card_weight: [u32; 52],
}

pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

pub(crate) const fn wheel_index(w: Wheel) -> usize {
    match w {
        Wheel::Low => 0,
        Wheel::Second => 1,
    }
}

fn build() -> Tables {
    let mut key5 = vec![NO_ID; MAX_KEY5 + 1];
    let mut multiset5 = [Vec::new(), Vec::new()];
    let mut counts = [0u8; 13];
    for_each_multiset(&mut counts, 0, 5, &mut |counts| {
        let key: u32 = (0..13).map(|r| RANK_WEIGHT[r] * counts[r] as u32).sum();
        assert_eq!(key5[key as usize], NO_ID, "rank weights collide");
        key5[key as usize] = multiset5[0].len() as u16;
        for w in [Wheel::Low, Wheel::Second] {
            multiset5[wheel_index(w)].push(rank_of_counts(counts, false, w).0);
        }
    });
    let mut flush5 = [vec![0u32; 1 << 13], vec![0u32; 1 << 13]];
    for mask in 0u32..(1 << 13) {
        if mask.count_ones() == 5 {
            let mut c = [0u8; 13];
            (0..13).for_each(|r| c[r] = ((mask >> r) & 1) as u8);
            for w in [Wheel::Low, Wheel::Second] {
                flush5[wheel_index(w)][mask as usize] = rank_of_counts(&c, true, w).0;
            }
        }
    }
    let mut rank3 = vec![0u32; 13 * 13 * 13];
    for i in 0..13 * 13 * 13 {
        let mut c = [0u8; 13];
        c[i / 169] += 1;
        c[i / 13 % 13] += 1;
        c[i % 13] += 1;
        rank3[i] = rank_of_counts(&c, false, Wheel::Low).0;
    }
    let card_weight = std::array::from_fn(|code| RANK_WEIGHT[code / 4]);
    Tables {
        key5,
        multiset5,
        flush5,
        rank3,
        card_weight,
    }
}

/// Calls `f` on every rank-count vector with `left` more cards to place at ranks ≥ `from`,
/// at most four of a rank.
fn for_each_multiset(counts: &mut [u8; 13], from: usize, left: u8, f: &mut impl FnMut(&[u8; 13])) {
    if left == 0 {
        return f(counts);
    }
    for r in from..13 {
        if counts[r] < 4 {
            counts[r] += 1;
            for_each_multiset(counts, r, left - 1, f);
            counts[r] -= 1;
        }
    }
}

/// The rank of a row from its rank counts (3 or 5 cards in all) and whether it is a flush.
/// Only used to fill the tables; the reference evaluator in the tests is written separately.
pub(crate) fn rank_of_counts(counts: &[u8; 13], flush: bool, wheel: Wheel) -> HandRank {
    let n: u8 = counts.iter().sum();
    let front = n == 3;
    // Groups of equal rank, largest group first, then higher rank first.
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .rev()
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (counts[r as usize], r))
        .collect();
    groups.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let values: Vec<u8> = groups.iter().map(|g| g.1 + 2).collect();
    if front {
        let cat = match shape.as_slice() {
            [3] => Category::Trips,
            [2, 1] => Category::Pair,
            _ => Category::HighCard,
        };
        return HandRank::from_parts(cat, &values, true);
    }
    let straight_top = straight_top(counts, wheel);
    let cat = match (shape.as_slice(), straight_top.is_some(), flush) {
        (_, true, true) => Category::StraightFlush,
        ([4, 1], _, _) => Category::Quads,
        ([3, 2], _, _) => Category::FullHouse,
        (_, _, true) => Category::Flush,
        (_, true, false) => Category::Straight,
        ([3, 1, 1], _, _) => Category::Trips,
        ([2, 2, 1], _, _) => Category::TwoPair,
        ([2, 1, 1, 1], _, _) => Category::Pair,
        _ => Category::HighCard,
    };
    match straight_top {
        Some(top) if matches!(cat, Category::Straight | Category::StraightFlush) => {
            HandRank::from_parts(cat, &[top], false)
        }
        _ => HandRank::from_parts(cat, &values, false),
    }
}

/// Top value of a 5-card straight in the `HandRank` encoding, if the ranks form one.
pub(crate) fn straight_top(counts: &[u8; 13], wheel: Wheel) -> Option<u8> {
    let mask: u32 = (0..13)
        .filter(|&r| counts[r] == 1)
        .fold(0, |m, r| m | 1 << r);
    if mask.count_ones() != 5 {
        return None;
    }
    if mask == 0b1_0000_0000_1111 {
        return Some(match wheel {
            Wheel::Low => 5,
            Wheel::Second => 14,
        });
    }
    let low = mask.trailing_zeros();
    if mask >> low != 0b11111 {
        return None;
    }
    // top rank index low + 4; ace-high is 15 so that 14 stays free for a wheel ranked second
    Some(if low + 4 == 12 {
        15
    } else {
        (low + 4 + 2) as u8
    })
}
