//! Dense class indices for row ranks: position of a `HandRank::raw()` among all distinct ranks
//! of its row size (455 for a front, 7,462 for a 5-card row), weakest first. Per-rank tables
//! (row values, outcome tables) are arrays indexed by these, because raw values are sparse.

use crate::eval::tables::{straight_top, tables, wheel_index, Tables, RANK_WEIGHT};
use crate::eval::{Category, HandRank, Wheel};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Distinct 3-card row ranks (classes).
pub const FRONT_CLASSES: usize = 455;
/// Distinct 5-card row ranks (classes).
pub const FIVE_CLASSES: usize = 7462;

/// The sorted distinct raw ranks of both row sizes for one wheel.
pub struct Classes {
    /// The front's raw ranks, weakest first.
    pub front: Vec<u32>,
    /// The fives' raw ranks, weakest first.
    pub five: Vec<u32>,
}

impl Classes {
    /// The classes of this wheel, built once.
    pub fn get(wheel: Wheel) -> &'static Classes {
        static C: [OnceLock<Classes>; 2] = [OnceLock::new(), OnceLock::new()];
        C[wheel_index(wheel)].get_or_init(|| build(wheel))
    }

    /// The sorted raws of a row's size (`front` = 3 cards).
    pub fn of(&self, front: bool) -> &[u32] {
        if front {
            &self.front
        } else {
            &self.five
        }
    }

    /// Class index of a raw rank this crate produced (a front raw has bit 0 set).
    #[inline]
    pub fn index(&self, raw: u32) -> usize {
        let list = self.of(HandRank::is_front_raw(raw));
        match list.binary_search(&raw) {
            Ok(i) => i,
            // Not a rank the evaluator produces: the nearest weaker class keeps order.
            Err(i) => i.saturating_sub(1),
        }
    }
}

fn build(wheel: Wheel) -> Classes {
    let t = tables();
    let w = wheel_index(wheel);
    let mut five: Vec<u32> = t.multiset5[w].clone();
    five.extend(t.flush5[w].iter().copied().filter(|&r| r != 0));
    five.sort_unstable();
    five.dedup();
    let mut front = t.rank3.clone();
    front.sort_unstable();
    front.dedup();
    debug_assert_eq!(five.len(), FIVE_CLASSES);
    debug_assert_eq!(front.len(), FRONT_CLASSES);
    Classes { front, five }
}

/// C(v − 2, 2) and C(v − 2, 3) by rank value v (2..=14), padded to 16 so that a masked nibble
/// indexes them without a bounds check or a division.
const CHOOSE2: [u16; 16] = [0, 0, 0, 0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 0];
const CHOOSE3: [u16; 16] = [0, 0, 0, 0, 0, 1, 4, 10, 20, 35, 56, 84, 120, 165, 220, 0];

/// Class index of a front raw rank (wheel-independent), computed from its category and rank
/// values: the 286 high cards in colex order of their three ranks, then the 156 pairs by pair
/// and kicker, then the 13 trips (the order of `Classes::front`). Only for raws the evaluator
/// gives a 3-card row, or `floor_front_class` builds.
#[inline]
pub(crate) fn front_class(raw: u32) -> usize {
    // rank values 2..=14; the offsets below take the 2s off
    let v = |i: usize| HandRank::nibble_of_raw(raw, i) as usize;
    let (a, b, c) = (v(0), v(1), v(2));
    match HandRank::category_index_of_raw(raw) {
        0 => (CHOOSE3[a] + CHOOSE2[b]) as usize + c - 2,
        1 => 286 - 26 + a * 12 + b - (b > a) as usize,
        _ => 442 - 2 + a,
    }
}

/// Class index of the strongest front whose raw rank is ≤ a 5-card raw rank: every front that
/// can sit under a middle of that rank has at most this class.
#[inline]
pub(crate) fn floor_front_class(raw5: u32) -> usize {
    let nib = |i: usize| HandRank::nibble_of_raw(raw5, i);
    let (pair, trips) = (Category::Pair as u32, Category::Trips as u32);
    // a front with the same leading values sorts just below the 5-card row
    let front = |cat: u32, nibbles: [u32; 2]| HandRank::raw_from_parts(cat, nibbles, true);
    let raw = match HandRank::category_index_of_raw(raw5) {
        // high card: the same three leading ranks
        0 => front(0, [nib(0), nib(1)]) | nib(2) << crate::eval::NIBBLE_SHIFT[2],
        1 => front(pair, [nib(0), nib(1)]),
        // any two pair beats every pair front: the best pair front is aces with a king
        2 => front(pair, [14, 13]),
        3 => front(trips, [nib(0), 0]),
        _ => return FRONT_CLASSES - 1,
    };
    front_class(raw)
}

/// Raw rank and class, packed (see [`CLASS_SHIFT`]), of every 3-card row indexed like the
/// evaluator's `rank3` (r0·169 + r1·13 + r2; sized to a power of two, so that masked indices
/// need no bounds checks): a front costs one load.
pub(crate) fn front_ranks() -> &'static [u64; 4096] {
    static T: OnceLock<Box<[u64; 4096]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([0u64; 4096]);
        for (slot, &r) in t.iter_mut().zip(&tables().rank3) {
            *slot = pack(r, front_class(r) as u16);
        }
        t
    })
}

/// The rank multisets of two cards as states: `to_two[rank << 4 | rank]` (sized to a power of
/// two, so that a masked index needs no bounds check; the rest unused), with each state's rank
/// counts. A five is a pair and a front: its rank multiset is a pair's state and a front's
/// class (which is the front's rank multiset, see [`front_class`]), and its packed rank one
/// load from [`FiveClasses::by_pair`], where the evaluator sums five rank weights and looks the
/// sum up twice (a 722 KB table of multiset ids, then their ranks).
pub(crate) struct PairStates {
    /// The state after adding a rank's second card, by state and rank.
    pub to_two: Box<[u8; 256]>,
    /// Rank counts of each state.
    counts: Vec<[u8; 13]>,
}

/// The states of [`PairStates`], built once (wheel-free).
pub(crate) fn pair_states() -> &'static PairStates {
    static S: OnceLock<PairStates> = OnceLock::new();
    S.get_or_init(|| {
        let mut to_two = Box::new([0u8; 256]);
        let mut ids: HashMap<[u8; 13], u8> = HashMap::new();
        let mut counts = Vec::new();
        for a in 0..13 {
            for b in 0..13 {
                let mut c = [0u8; 13];
                c[a] += 1;
                c[b] += 1;
                let n = ids.len() as u8;
                to_two[a << 4 | b] = *ids.entry(c).or_insert_with(|| {
                    counts.push(c);
                    n
                });
            }
        }
        PairStates { to_two, counts }
    })
}

/// Pair states ([`PairStates`]) room is made for in [`FiveClasses::by_pair`]: the 91 rank
/// multisets of two cards, rounded up to a power of two so that a masked state needs no bounds
/// check.
pub(crate) const PAIR_ROWS: usize = 128;

/// Where a packed five (`raw | class << CLASS_SHIFT`, the solver's per-five lookups) holds its
/// class: above the 32 bits of the raw rank, and high enough that the solver's key (`packed <<
/// 13 | mask`) drops it without a mask (7,462 classes fit the 13 bits left).
pub(crate) const CLASS_SHIFT: u32 = 51;
const _: () = assert!(FIVE_CLASSES <= 1 << (64 - CLASS_SHIFT));

/// A raw rank and its class packed (see [`CLASS_SHIFT`]).
#[inline]
pub(crate) fn pack(raw: u32, class: u16) -> u64 {
    raw as u64 | (class as u64) << CLASS_SHIFT
}

/// (raw rank, class) of a packed five (see [`CLASS_SHIFT`]).
#[inline]
pub(crate) fn unpack(packed: u64) -> (u32, u16) {
    (packed as u32, (packed >> CLASS_SHIFT) as u16)
}

/// What a 5-card raw rank (of either wheel) is made of: its distinct ranks (0 = deuce) with
/// their copies, in the rank's own order (most copies first, then the higher rank; a
/// straight's from its top; `(0, 0)` after the last), and whether its cards are one suit.
#[inline(always)]
pub(crate) fn five_parts(raw: u32) -> ([(u32, u32); 5], bool) {
    let r = |i: usize| HandRank::nibble_of_raw(raw, i).saturating_sub(2);
    // the five ranks of a straight by its top value (a wheel's is 5 or, second-highest, 14):
    // four down from the highest, then the lowest (a wheel's ace)
    let run = |top: u32| {
        let (high, low) = match top {
            5 | 14 => (3, 12),
            15 => (12, 8),
            t => (t.clamp(6, 13) - 2, t.clamp(6, 13) - 6),
        };
        std::array::from_fn(|i| (if i < 4 { high - i as u32 } else { low }, 1))
    };
    let z = (0, 0);
    let singles = [(r(0), 1), (r(1), 1), (r(2), 1), (r(3), 1), (r(4), 1)];
    match HandRank::category_index_of_raw(raw) {
        0 => (singles, false),
        1 => ([(r(0), 2), (r(1), 1), (r(2), 1), (r(3), 1), z], false),
        2 => ([(r(0), 2), (r(1), 2), (r(2), 1), z, z], false),
        3 => ([(r(0), 3), (r(1), 1), (r(2), 1), z, z], false),
        4 => (run(HandRank::nibble_of_raw(raw, 0)), false),
        5 => (singles, true),
        6 => ([(r(0), 3), (r(1), 2), z, z, z], false),
        7 => ([(r(0), 4), (r(1), 1), z, z, z], false),
        _ => (run(HandRank::nibble_of_raw(raw, 0)), true),
    }
}

/// The evaluator's 5-card lookup returning the class index along with the raw rank, so the
/// solver gets both for the price of one evaluation.
pub struct FiveClasses {
    t: &'static Tables,
    w: usize,
    /// multiset id → class
    multiset: Vec<u16>,
    /// 13-bit rank mask of a flush → class
    flush: Vec<u16>,
    /// Packed fives (see [`CLASS_SHIFT`]) by a flush's rank mask, at an index that needs no
    /// bounds check.
    packed_flush: Box<[u64; 1 << 13]>,
    /// Packed fives (see [`CLASS_SHIFT`]) by a pair's state ([`PairStates`]) and a front's
    /// class, at `[state][class]` (0 for five of a kind, which no hand holds; sized to powers
    /// of two, so that masked indices need no bounds checks).
    by_pair: Box<[[u64; 512]; PAIR_ROWS]>,
    /// Each 13-bit rank mask's position among the masks with as many ranks, in increasing
    /// order, the ten straights left out of the five-rank masks (see [`FiveClasses::class_of_raw`]).
    rank_index: Box<[u16; 1 << 13]>,
    /// The class of each category's weakest five.
    base: [u16; 9],
    /// [`floor_front_class`] of each class's five, at an index that needs no bounds check.
    floor_front: Box<[u16; 1 << 13]>,
    /// A straight's position among the wheel's ten straights, by its top value.
    straights: [u16; 16],
}

/// `FiveClasses::rank_index`: a position counter per number of ranks, walked up the masks,
/// that skips what the evaluator calls a straight (the same masks for either wheel).
fn rank_index() -> Box<[u16; 1 << 13]> {
    let mut out = Box::new([0u16; 1 << 13]);
    let mut next = [0u16; 14];
    for (mask, slot) in out.iter_mut().enumerate() {
        let n = mask.count_ones() as usize;
        let counts = std::array::from_fn(|r| (mask >> r & 1) as u8);
        *slot = next[n];
        next[n] += straight_top(&counts, Wheel::Low).is_none() as u16;
    }
    out
}

impl FiveClasses {
    /// The five classes of this wheel, built once.
    pub fn get(wheel: Wheel) -> &'static FiveClasses {
        static C: [OnceLock<FiveClasses>; 2] = [OnceLock::new(), OnceLock::new()];
        C[wheel_index(wheel)].get_or_init(|| {
            let t = tables();
            let w = wheel_index(wheel);
            let classes = Classes::get(wheel);
            let class = |raw: u32| classes.five.binary_search(&raw).unwrap_or(0) as u16;
            let packed = |raws: &[u32]| {
                let mut out = Box::new([0u64; 1 << 13]);
                for (slot, &r) in out.iter_mut().zip(raws) {
                    *slot = pack(r, class(r));
                }
                out
            };
            assert!(t.multiset5[w].len() <= 1 << 13);
            let packed_multiset = packed(&t.multiset5[w]);
            let pairs = &pair_states().counts;
            assert!(pairs.len() <= PAIR_ROWS);
            // each front class's rank counts (fronts are indexed by any order of their ranks)
            let mut fronts = vec![[0u8; 13]; FRONT_CLASSES];
            for (i, &packed) in front_ranks()[..13 * 169].iter().enumerate() {
                let c = &mut fronts[unpack(packed).1 as usize];
                *c = [0; 13];
                for r in [i / 169, i / 13 % 13, i % 13] {
                    c[r] += 1;
                }
            }
            let mut by_pair: Box<[[u64; 512]; PAIR_ROWS]> = vec![[0u64; 512]; PAIR_ROWS]
                .into_boxed_slice()
                .try_into()
                .expect("PAIR_ROWS states");
            for (s2, two) in pairs.iter().enumerate() {
                for (class, three) in fronts.iter().enumerate() {
                    let counts: [u8; 13] = std::array::from_fn(|r| two[r] + three[r]);
                    if counts.iter().all(|&n| n <= 4) {
                        let weight: u32 = (0..13).map(|r| RANK_WEIGHT[r] * counts[r] as u32).sum();
                        let id = t.key5[weight as usize];
                        by_pair[s2][class] = packed_multiset[id as usize];
                    }
                }
            }
            let mut base = [u16::MAX; 9];
            let mut straights = [0u16; 16];
            for (i, &raw) in classes.five.iter().enumerate() {
                let cat = HandRank::category_index_of_raw(raw);
                base[cat] = base[cat].min(i as u16);
                if cat == Category::Straight as usize {
                    straights[HandRank::nibble_of_raw(raw, 0) as usize] = i as u16 - base[cat];
                }
            }
            FiveClasses {
                rank_index: rank_index(),
                base,
                straights,
                t,
                w,
                multiset: t.multiset5[w].iter().map(|&r| class(r)).collect(),
                flush: t.flush5[w].iter().map(|&r| class(r)).collect(),
                by_pair,
                packed_flush: packed(&t.flush5[w]),
                floor_front: {
                    let mut out = Box::new([0u16; 1 << 13]);
                    for (slot, &raw) in out.iter_mut().zip(&classes.five) {
                        *slot = floor_front_class(raw) as u16;
                    }
                    out
                },
            }
        })
    }

    /// Packed fives (see [`CLASS_SHIFT`]) of a pair's state (see [`PairStates`]) by the class
    /// of the front that makes them five.
    #[inline]
    pub(crate) fn by_pair(&self) -> &[[u64; 512]; PAIR_ROWS] {
        &self.by_pair
    }

    /// [`floor_front_class`] of the five of a class: one load.
    #[inline]
    pub(crate) fn floor_front(&self, class: u16) -> usize {
        self.floor_front[class as usize & 0x1fff] as usize
    }

    /// A flush's raw rank and class, packed (see [`CLASS_SHIFT`]), from its 13-bit rank mask.
    #[inline]
    pub(crate) fn flush_five(&self, rank_mask: u16) -> u64 {
        self.packed_flush[(rank_mask & 0x1fff) as usize]
    }

    /// Class of a 5-card raw rank of this wheel, worked out from its category and ranks: the
    /// category's first class, then the rank's place inside it (rank sets by their masks'
    /// places in `FiveClasses::rank_index`, a pair or trips' kickers among the other twelve
    /// ranks). One load from a 16 KB table, where the evaluator's lookup reads its 722 KB one.
    #[inline]
    pub(crate) fn class_of_raw(&self, raw: u32) -> u16 {
        let cat = HandRank::category_index_of_raw(raw);
        // rank nibble i as a rank 0..=12 (deuce 0) and as a bit
        let r = |i: usize| HandRank::nibble_of_raw(raw, i).wrapping_sub(2) & 15;
        let bit = |i: usize| 1u16 << r(i);
        let at = |mask: u16| self.rank_index[mask as usize & 0x1fff];
        // a mask of the ranks other than `skip`, as a mask over twelve ranks
        let squeeze = |mask: u16, skip: u32| mask & ((1 << skip) - 1) | mask >> (skip + 1) << skip;
        // a rank's place among the twelve others than `skip`
        let other = |rank: u32, skip: u32| (rank - (rank > skip) as u32) as u16;
        let within = match cat {
            // high card, flush
            0 | 5 => at(bit(0) | bit(1) | bit(2) | bit(3) | bit(4)),
            1 => r(0) as u16 * 220 + at(squeeze(bit(1) | bit(2) | bit(3), r(0))),
            2 => at(bit(0) | bit(1)) * 11 + other(other(r(2), r(0)) as u32, r(1)),
            3 => r(0) as u16 * 66 + at(squeeze(bit(1) | bit(2), r(0))),
            // straight, straight flush: by the top card
            4 | 8 => self.straights[HandRank::nibble_of_raw(raw, 0) as usize & 15],
            // full house, quads
            _ => r(0) as u16 * 12 + other(r(1), r(0)),
        };
        self.base[cat] + within
    }

    /// (raw rank, class) of 5 distinct codes; the same lookups as `Evaluator::eval5`.
    #[inline]
    pub fn eval5(&self, c: [u8; 5]) -> (u32, u16) {
        let t = self.t;
        let suit_diff = (c[0] ^ c[1]) | (c[0] ^ c[2]) | (c[0] ^ c[3]) | (c[0] ^ c[4]);
        if suit_diff & 3 == 0 {
            let mask = c.iter().fold(0usize, |m, &x| m | 1 << (x >> 2));
            return (t.flush5[self.w][mask], self.flush[mask]);
        }
        let key = c.iter().map(|&x| t.card_weight[x as usize]).sum::<u32>();
        let id = t.key5[key as usize] as usize;
        (t.multiset5[self.w][id], self.multiset[id])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_of_raw_is_the_position_among_five_card_ranks() {
        for wheel in [Wheel::Low, Wheel::Second] {
            let fc = FiveClasses::get(wheel);
            for (i, &raw) in Classes::get(wheel).five.iter().enumerate() {
                assert_eq!(fc.class_of_raw(raw) as usize, i, "{wheel:?} {raw:#x}");
            }
        }
    }

    #[test]
    fn front_class_is_the_position_among_front_ranks() {
        let front = &Classes::get(Wheel::Low).front;
        assert_eq!(front, &Classes::get(Wheel::Second).front);
        for (i, &raw) in front.iter().enumerate() {
            assert_eq!(front_class(raw), i, "{raw:#x}");
        }
        // the floor of every 5-card rank is the strongest front not above it
        for &raw5 in &Classes::get(Wheel::Low).five {
            let want = front.partition_point(|&f| f <= raw5);
            assert_eq!(floor_front_class(raw5), want.max(1) - 1, "{raw5:#x}");
        }
    }
}
