//! Enumeration of a 13-card hand's settings and their Pareto frontier.
//!
//! Rows are handled as 13-bit masks over the hand's positions (bit i = the i-th card as given),
//! so one table per hand indexed by the mask holds the rank of every 3- and 5-card subset
//! (their masks have different popcounts and never collide) and a split costs two loads.
//!
//! Frontier: a legal setting is dropped when another legal setting is at least as strong in all
//! three rows (`HandRank::raw` order). Among settings with identical rank triples only the first
//! found is kept: every objective here depends on the rows' ranks only (a rule set with a suit
//! order breaks row ties by suits, which the frontier does not see).
//!
//! Speed (the budget is 25 µs per hand for a table-objective solve): backs are visited strongest
//! first, so every earlier setting has a back at least as strong as the current one and "covered
//! by an earlier setting" is a 2-D question about (middle, front), answered by `best_middle`, a
//! step function over front classes. Then, cheapest first:
//! - backs come a bucket (category and top card) at a time, made from the hand's ranks where
//!   the cut is a pair or better (`back_maker`), and a bucket is sorted only when reached; a
//!   bucket (or a group of equal backs) whose strongest back is already covered, even with the
//!   best front that could sit under it, is skipped whole;
//! - a back is skipped when the best five and the best three of the other eight cards (exact,
//!   from rank/suit counts) are covered, or when every front not yet covered would need the
//!   rest's only pair or trips and leave a weaker middle (every such split fouls);
//! - otherwise only the fronts whose class is not yet covered are tried (scanned in class order
//!   when few, else through the 56 splits), without branches.
//!
//! Of the 1,287 backs of a typical hand about 130 reach the per-back bounds and about 45 get
//! their splits examined.
//!
//! The best split under a value non-decreasing in each row's class (`best_split`, the table
//! objective's path) runs the same search without keeping the frontier: it values the splits
//! as the frontier would settle them and prunes, besides what is covered, everything whose
//! value at the strongest classes it could still reach is below the best found so far — a
//! bucket, a back rank (which ends the search, as ranks only fall), a back (with the best front
//! its rest leaves and the best five of the rest under it) and the weakest of a back's fronts.
//! Two splits of the strongest back (known from the hand's counts) set the first threshold once
//! the fives are ranked, and backs that cannot reach it are never made nor stored
//! ([performance: Where the time goes: the table objective](https://chinese-poker.github.io/chinese-poker/performance/#where-the-time-goes-the-table-objective)).

use super::classes::{
    five_parts, floor_front_class, front_class, front_ranks, pack, pair_states, unpack, Classes,
    FiveClasses, FRONT_CLASSES, PAIR_ROWS,
};
use crate::eval::{Category, HandRank, Wheel, CATEGORY_SHIFT, FRONT_FLAG, NIBBLE_SHIFT};
use std::sync::OnceLock;

mod back_maker;
use back_maker::BackMaker;

/// Adds `n` to one of `Scratch::stats`' counters where the `search-stats` feature is on, and is
/// nothing where it is off (every shipped build).
macro_rules! count {
    ($scratch:expr, $field:ident, $n:expr) => {
        #[cfg(feature = "search-stats")]
        {
            $scratch.stats.$field += $n as u64;
        }
    };
}

/// Backs are bucketed by category and leading rank nibble: a raw rank shifted past the other
/// nibbles.
const BUCKET_SHIFT: u32 = NIBBLE_SHIFT[0];

/// All 13 positions of a hand.
pub const ALL13: u16 = (1 << 13) - 1;

/// Room for every five's key in `Scratch::sorted`, a power of two (a masked index needs no
/// check).
const SORTED: usize = 2048;

/// Five-card subsets of 13 cards.
const FIVES: usize = 1287;
/// Three-card subsets of 13 cards.
const FRONTS: usize = 286;

/// Front classes run high cards (286), pairs (156), trips (13), weakest first.
const FIRST_PAIR_CLASS: usize = 286;
const FIRST_TRIPS_CLASS: usize = 442;

/// The leading rank value (2..=14) of a front class: the pair's or trips' rank, or the top card.
#[inline]
fn front_value(class: usize) -> u32 {
    HandRank::nibble_of_raw(
        Classes::get(Wheel::Low).front[class.min(FRONT_CLASSES - 1)],
        0,
    )
}

/// The pruning threshold that a split of value `v` sets: a relative 1e-9 below it, so that a
/// split whose value ties with `v` up to rounding is still valued.
#[inline]
fn threshold_below(v: f64) -> f64 {
    v - 1e-9 * (1.0 + v.abs())
}

/// Longest prefix of live fronts scanned directly instead of the 56 splits of the rest.
const SCAN_LIMIT: usize = 120;

/// One setting as masks over the hand's 13 positions, with its row ranks (`raw()` values).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Split {
    /// The front's positions.
    pub front: u16,
    /// The middle's positions.
    pub middle: u16,
    /// The back's positions.
    pub back: u16,
    /// front, middle, back
    pub ranks: [u32; 3],
    /// front, middle, back rank classes (`Classes` indices)
    pub classes: [u16; 3],
}

impl Split {
    /// The codes of the cards in a row mask, in the hand's order.
    pub fn codes(hand: &[u8; 13], mask: u16) -> Vec<u8> {
        (0..13)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| hand[i])
            .collect()
    }
    /// Front (3), middle (5), back (5) codes, each row in the hand's order.
    pub fn row_codes(&self, hand: &[u8; 13]) -> [u8; 13] {
        let mut out = [0u8; 13];
        let mut k = 0;
        for m in [self.front, self.middle, self.back] {
            // the set positions, lowest first
            let mut bits = m & ALL13;
            while bits != 0 {
                out[k % 13] = hand[bits.trailing_zeros() as usize % 13];
                bits &= bits - 1;
                k += 1;
            }
        }
        out
    }
}

struct Static {
    /// Masks of the 1,287 five-card subsets of 13 positions, in increasing order.
    five: [u16; FIVES],
    /// The 56 five-of-eight patterns as 8-bit masks.
    pat56: [u8; 56],
}

fn statics() -> &'static Static {
    static S: OnceLock<Static> = OnceLock::new();
    S.get_or_init(|| {
        let five: [u16; FIVES] = (0u16..1 << 13)
            .filter(|m| m.count_ones() == 5)
            .collect::<Vec<u16>>()
            .try_into()
            .expect("C(13, 5) masks");
        let pats: Vec<u8> = (0u16..256)
            .filter(|m| m.count_ones() == 5)
            .map(|m| m as u8)
            .collect();
        Static {
            five,
            pat56: pats.try_into().expect("56 patterns"),
        }
    })
}

/// What the bounded search prunes with ([`Scratch::best_split_bounded`]): an upper bound of
/// the value at class triples (front, middle, back), and the same bound with the middle and
/// back fixed as a function of the front class, which the search asks of many fronts in turn
/// and which may answer them more cheaply. Any `Fn(&[u16; 3]) -> f64` is one, asked whole.
pub trait Bound {
    /// The bound at these classes (front, middle, back).
    fn at(&self, classes: &[u16; 3]) -> f64;
    /// [`Bound::at`] of `[front, class, class]`, up to rounding far inside the search's 1e-9
    /// margin: a back with a middle as strong, as the search bounds back ranks and buckets.
    fn at_diagonal(&self, front: u16, class: u16) -> f64 {
        self.at(&[front, class, class])
    }
    /// [`Bound::at`] of `[front, middle, back]` for each front it is given, up to rounding
    /// far inside the search's 1e-9 margin.
    fn along_fronts(&self, middle: u16, back: u16) -> impl Fn(u16) -> f64 + '_ {
        move |front| self.at(&[front, middle, back])
    }
}

impl<F: Fn(&[u16; 3]) -> f64> Bound for F {
    #[inline]
    fn at(&self, classes: &[u16; 3]) -> f64 {
        self(classes)
    }
}

/// Reusable per-thread buffers: solving a hand allocates nothing once these have grown.
pub struct Scratch {
    /// Rank and class of each 3- and 5-position mask, packed (see `CLASS_SHIFT`).
    /// (indexed by any `u16`, so that no index needs masking; only the first 8,192 entries are
    /// ever written, and the pages of the rest are never touched)
    row: Box<[u64; 1 << 16]>,
    /// The masks of the five-card subsets at least as strong as the cut they were ranked with
    /// (all 1,287 without one), in no set order, in the first `n_backs` (indexed by a `u16`
    /// count without a check; the pages past the first never touched).
    backs: Box<[u16; 1 << 16]>,
    n_backs: usize,
    /// The backs past the cut as `rank << 13 | mask` keys, bucket by bucket, in the first
    /// `n_sorted`: listed and counted into buckets (`bucket_backs`), or made a bucket at a time
    /// as the walk asks (`maker`).
    sorted: Box<[u64; SORTED]>,
    n_sorted: usize,
    /// (start, end) of each non-empty bucket of `sorted`, weakest first, where listed; and how
    /// many of them the walk has not taken yet.
    buckets: Vec<(usize, usize)>,
    buckets_left: usize,
    /// Where the backs are made bucket by bucket instead: the maker's state.
    maker: Option<BackMaker>,
    /// The 286 fronts as `class << 16 | mask`, strongest class first (sized to a power of two,
    /// so that a masked index needs no bounds check; the rest unused).
    fronts: [u32; 512],
    /// The same as `fronts`, in the order of their highest position (those below position p
    /// are the first C(p, 3)): the fronts that make each pair of positions above them five.
    fronts_by_top: [u32; 512],
    /// `fronts_from[c]`: how many of the hand's fronts have class ≥ c.
    fronts_from: [u16; 512],
    /// `best_middle[c]`: the strongest middle among kept settings whose front class is ≥ c (a
    /// non-increasing step function; 0 = none). A (middle, front class) pair is covered by an
    /// earlier setting exactly when `best_middle[front class] >= middle`.
    /// (sized to a power of two so that masked indices need no bounds checks)
    best_middle: [u32; 512],
    group: Vec<Split>,
    /// The bounded search's live-front count when each of `group` was found (see
    /// `frontier_tie`).
    group_live: Vec<u16>,
    /// Sort keys of `group` (see `flush_group`).
    group_keys: Vec<u64>,
    /// The wheel of the last loaded hand.
    wheel: Wheel,
    /// Its strongest back, the first in mask order among equals.
    top_back: u16,
    /// Whether another five has its rank.
    top_shared: bool,
    /// Positions of each suit's cards.
    suits: [u16; 4],
    /// Counts of every subset of positions 0..4, 4..8 and 8..13, for the cheap bounds.
    groups: ([Counts; 16], [Counts; 16], [Counts; 32]),
    /// The splits of the last search.
    pub frontier: Vec<Split>,
    /// How many best splits the bounded search keeps (1 but for [`Scratch::top_splits`]).
    keep: usize,
    /// With `keep` above 1: the best splits found so far, best first, the first found first
    /// among equal values (as a stable sort of the frontier by value orders them).
    kept: Vec<Best>,
    /// How many splits the last bounded search valued.
    valued: usize,
    /// What the searches on this scratch did, summed (feature `search-stats`).
    #[cfg(feature = "search-stats")]
    pub stats: super::search_stats::SearchStats,
    /// A first threshold for the next bounded search of the best split, taken by it (feature
    /// `search-stats`).
    #[cfg(feature = "search-stats")]
    pub given_threshold: Option<super::search_stats::GivenThreshold>,
    /// Whether each search keeps a copy of its bucketed backs in `last_backs` (feature
    /// `search-stats`).
    #[cfg(feature = "search-stats")]
    pub record_backs: bool,
    /// The backs of the last search, bucketed (with `record_backs`).
    #[cfg(feature = "search-stats")]
    pub last_backs: super::search_stats::BucketedBacks,
    /// Bucketed backs for the next search, which then ranks the fives without a list of backs
    /// and does not bucket them (see `give_backs`).
    #[cfg(feature = "search-stats")]
    given_backs: (bool, super::search_stats::BucketedBacks),
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            row: vec![0; 1 << 16].try_into().expect("1 << 16 entries"),
            backs: vec![0; 1 << 16].try_into().expect("1 << 16 entries"),
            n_backs: 0,
            sorted: Box::new([0; SORTED]),
            n_sorted: 0,
            buckets_left: 0,
            maker: None,
            fronts: [0; 512],
            fronts_by_top: [0; 512],
            fronts_from: [0; 512],
            buckets: Vec::with_capacity(256),
            best_middle: [0; 512],
            group: Vec::with_capacity(256),
            group_live: Vec::with_capacity(256),
            group_keys: Vec::with_capacity(256),
            wheel: Wheel::Low,
            top_back: 0,
            top_shared: false,
            suits: [0; 4],
            groups: Default::default(),
            frontier: Vec::with_capacity(256),
            keep: 1,
            kept: Vec::with_capacity(16),
            valued: 0,
            #[cfg(feature = "search-stats")]
            stats: Default::default(),
            #[cfg(feature = "search-stats")]
            given_threshold: None,
            #[cfg(feature = "search-stats")]
            record_backs: false,
            #[cfg(feature = "search-stats")]
            last_backs: Default::default(),
            #[cfg(feature = "search-stats")]
            given_backs: Default::default(),
        }
    }
}

impl Scratch {
    /// Fills the subset rank table for `hand` (13 distinct codes, unchecked), with every five
    /// in `backs`.
    fn load(&mut self, hand: &[u8; 13], wheel: Wheel) {
        self.load_hand(hand, wheel);
        self.load_fives(hand, FiveClasses::get(wheel), 0);
    }

    /// What `load` fills before the fives: the counts, the fronts, and the strongest back with
    /// its rank and class.
    fn load_hand(&mut self, hand: &[u8; 13], wheel: Wheel) {
        self.wheel = wheel;
        self.load_groups(hand);
        self.load_fronts(hand);
        self.load_top_back(hand);
    }

    /// Ranks and classes of the 1,287 fives, and those at least `cut` strong in `backs`.
    fn load_fives(&mut self, hand: &[u8; 13], fc: &FiveClasses, cut: u32) {
        // (borrowed apart, so that the stores through one do not reload the others)
        let (row, backs) = (&mut *self.row, &mut *self.backs);
        // branch-free: which fives pass the cut is data-dependent
        let mut n = 0u16;
        unsuited_fives(hand, &self.fronts_by_top, fc, |m, packed| {
            row[m as usize] = packed;
            backs[n as usize] = m;
            n += (packed as u32 >= cut) as u16;
        });
        self.n_backs = n as usize;
        self.load_flushes(hand, fc, ALL13, cut);
    }

    /// Ranks and classes of the 1,287 fives, none listed (their backs are made elsewhere).
    fn load_fives_unlisted(&mut self, hand: &[u8; 13], fc: &FiveClasses) {
        let row = &mut *self.row;
        unsuited_fives(hand, &self.fronts_by_top, fc, |m, packed| {
            row[m as usize] = packed
        });
        self.n_backs = 0;
        self.load_flushes(hand, fc, ALL13, u32::MAX);
    }

    /// Ranks and classes of the flushes inside `set` over their unsuited ones (a suit of n
    /// cards holds C(n, 5) of them). Those that this lifts from below `cut` to at least it
    /// join `backs`: a flush outranks its unsuited ranks, so the others are there already.
    fn load_flushes(&mut self, hand: &[u8; 13], fc: &FiveClasses, set: u16, cut: u32) {
        let mut n = self.n_backs as u16;
        for suit in self.suits {
            if (suit & set).count_ones() < 5 {
                continue;
            }
            for_each_five(suit & set, |m| {
                let ranks = positions(m).fold(0u16, |r, i| r | 1 << (hand[i] >> 2));
                let (was, packed) = (self.rank_of(m), fc.flush_five(ranks));
                self.row[m as usize] = packed;
                self.backs[n as usize] = m;
                n += (was < cut && packed as u32 >= cut) as u16;
            });
        }
        self.n_backs = n as usize;
    }

    /// The strongest back, the first in mask order among equal ranks, its rank and class in the
    /// tables and whether another five has its rank, before the fives are ranked: the rank is
    /// `best_five`'s (of the hand, and of each suit of five or more on its own, as `best_five`
    /// looks at one), and among the fives of that rank the one taking each of its ranks' lowest
    /// positions has the least mask.
    fn load_top_back(&mut self, hand: &[u8; 13]) {
        let wheel = self.wheel;
        let mut top = best_five(self.counts(ALL13), wheel);
        for suit in self.suits {
            if suit.count_ones() >= 5 {
                top = top.max(best_five(self.counts(suit), wheel));
            }
        }
        let mut by_rank = [0u16; 16];
        for (i, &c) in hand.iter().enumerate() {
            by_rank[(c >> 2) as usize & 15] |= 1 << i;
        }
        let (parts, flush) = five_parts(top);
        // each rank's `n` lowest positions among `within`, and whether those were all it had
        let take = |within: u16| {
            parts.iter().fold((0u16, true), |(mask, only), &(r, n)| {
                let all = by_rank[r as usize & 15] & within;
                let mut left = all;
                for _ in 0..n {
                    left &= left.wrapping_sub(1);
                }
                (mask | all ^ left, only && (n == 0 || left == 0))
            })
        };
        let (back, shared) = if flush {
            // the suits holding those ranks (two when both hold the same five ranks)
            let mut held = self
                .suits
                .map(take)
                .into_iter()
                .filter(|&(m, _)| m.count_ones() == 5);
            let first = held.next().map_or(0, |(m, _)| m);
            match held.next() {
                Some((m, _)) => (first.min(m), true),
                None => (first, false),
            }
        } else {
            let (m, only) = take(ALL13);
            (m, !only)
        };
        debug_assert_eq!(back.count_ones(), 5, "{hand:?} {top:#x}");
        self.top_back = back;
        self.top_shared = shared;
        self.row[back as usize] = pack(top, FiveClasses::get(wheel).class_of_raw(top));
    }

    /// Ranks and classes of the 286 fronts, listed by highest position (`fronts_by_top`) and
    /// by class (`fronts`).
    fn load_fronts(&mut self, hand: &[u8; 13]) {
        // one load each from a table indexed by the three ranks, as the evaluator's; in the
        // order of increasing masks, the index built up position by position
        let fr = front_ranks();
        let rk = hand.map(|c| (c >> 2) as usize);
        let rk169 = rk.map(|r| r * 169);
        let bit: [u16; 13] = std::array::from_fn(|p| 1 << p);
        // then strongest class first: a stable counting sort over the 455 classes, counted
        // into `fronts_from` one class up (`fronts_from[c + 1]`), summed from the top and
        // placed from the last front back, which leaves `fronts_from` as it is defined
        let from = &mut self.fronts_from;
        from[..=FRONT_CLASSES].fill(0);
        let found = &mut self.fronts_by_top;
        let mut at = 0usize;
        for p3 in 2..13 {
            let (i3, m3) = (rk[p3], bit[p3]);
            for p2 in 1..p3 {
                let (i2, m2) = (rk[p2] * 13 + i3, m3 | bit[p2]);
                let out = &mut found[at..at + p2];
                for ((&r1, &b1), out) in rk169[..p2].iter().zip(&bit[..p2]).zip(out) {
                    let m = m2 | b1;
                    let packed = fr[(r1 + i2) & 4095];
                    self.row[m as usize] = packed;
                    let class = unpack(packed).1 as usize;
                    from[(class + 1) & 511] += 1;
                    *out = (class as u32) << 16 | m as u32;
                }
                at += p2;
            }
        }
        debug_assert_eq!(at, FRONTS);
        let mut above = 0u16;
        for n in from[..=FRONT_CLASSES].iter_mut().rev() {
            above += *n;
            *n = above;
        }
        for &f in self.fronts_by_top[..FRONTS].iter().rev() {
            let c = (f >> 16) as usize + 1;
            from[c & 511] -= 1;
            self.fronts[from[c & 511] as usize & 511] = f;
        }
    }

    /// The rank and suit counts of every subset of each group of positions (see `counts`).
    fn load_groups(&mut self, hand: &[u8; 13]) {
        let one = |i: usize| {
            let (r, s) = ((hand[i] >> 2) as u32, (hand[i] & 3) as u32);
            Counts(
                1u64 << (3 * r) | 1u64 << (SUITS_SHIFT + 4 * s),
                1u64 << (16 * s + r),
            )
        };
        self.suits = [0; 4];
        for (i, &c) in hand.iter().enumerate() {
            self.suits[(c & 3) as usize] |= 1 << i;
        }
        let (g0, g1, g2) = &mut self.groups;
        for i in 1..16usize {
            let low = i.trailing_zeros() as usize;
            g0[i] = g0[i & (i - 1)].plus(one(low));
            g1[i] = g1[i & (i - 1)].plus(one(4 + low));
        }
        for i in 1..32usize {
            let low = i.trailing_zeros() as usize;
            g2[i] = g2[i & (i - 1)].plus(one(8 + low));
        }
    }

    #[inline]
    fn counts(&self, set: u16) -> Counts {
        let (g0, g1, g2) = &self.groups;
        g0[(set & 15) as usize]
            .plus(g1[(set >> 4 & 15) as usize])
            .plus(g2[(set >> 8) as usize])
    }

    /// Counting sort of `backs` (all at least `cut` strong) into `sorted` by bucket (`rank >>
    /// BUCKET_SHIFT`: category and top value), weakest bucket first, with each non-empty
    /// bucket's range in `buckets`. Buckets are sorted inside only when the search reaches them.
    fn bucket_backs(&mut self, cut: u32) {
        let top_rank = self.rank_of(self.top_back);
        let Scratch {
            row,
            backs,
            n_backs,
            sorted,
            buckets,
            ..
        } = self;
        let masks = &backs[..*n_backs];
        // (rank << 13 | mask)
        let key = |m: u16| (row[m as usize] as u32 as u64) << 13 | m as u64;
        let bucket = |k: u64| (k >> (13 + BUCKET_SHIFT)) as usize & 255;
        // the buckets from the cut's to the strongest back's
        let first = bucket((cut as u64) << 13);
        let last = bucket((top_rank as u64) << 13).max(first);
        let mut count = [0u16; 256];
        for &m in masks {
            count[bucket(key(m))] += 1;
        }
        buckets.clear();
        let mut at = 0u16;
        for c in &mut count[first..=last] {
            let n = *c;
            if n > 0 {
                buckets.push((at as usize, (at + n) as usize));
            }
            *c = at;
            at += n;
        }
        for &m in masks {
            let k = key(m);
            let b = bucket(k);
            sorted[count[b] as usize & (SORTED - 1)] = k;
            count[b] += 1;
        }
        self.n_sorted = self.n_backs;
        self.buckets_left = self.buckets.len();
        self.maker = None;
    }

    /// The range in `sorted` of the next bucket of backs the walk takes, strongest first.
    #[inline]
    fn next_bucket(&mut self) -> Option<(usize, usize)> {
        match self.maker {
            Some(_) => {
                let (start, end) = self.make_next_bucket()?;
                count!(self, buckets, 1);
                count!(self, backs_past_cut, end - start);
                Some((start, end))
            }
            None if self.buckets_left > 0 => {
                self.buckets_left -= 1;
                Some(self.buckets[self.buckets_left])
            }
            None => None,
        }
    }

    /// Hands `backs` to the next search in place of ranking them into a list and bucketing
    /// them: they must be what a search of the same hand recorded (`record_backs`).
    #[cfg(feature = "search-stats")]
    pub fn give_backs(&mut self, backs: &super::search_stats::BucketedBacks) {
        let (given, to_give) = &mut self.given_backs;
        to_give.sorted.clone_from(&backs.sorted);
        to_give.buckets.clone_from(&backs.buckets);
        *given = true;
    }

    /// Whether the next search takes its backs as given (`give_backs`), and whether it must
    /// list and bucket its own (to record them, `record_backs`): only in `search-stats` builds.
    #[inline]
    fn backs_from_outside(&mut self) -> (bool, bool) {
        #[cfg(feature = "search-stats")]
        return (self.take_given_backs(), self.record_backs);
        #[cfg(not(feature = "search-stats"))]
        (false, false)
    }

    /// Takes the given backs in, if any.
    #[cfg(feature = "search-stats")]
    fn take_given_backs(&mut self) -> bool {
        let (given, to_give) = &mut self.given_backs;
        if !*given {
            return false;
        }
        *given = false;
        let n = to_give.sorted.len();
        self.sorted[..n].copy_from_slice(&to_give.sorted);
        std::mem::swap(&mut self.buckets, &mut to_give.buckets);
        (self.n_sorted, self.buckets_left, self.maker) = (n, self.buckets.len(), None);
        true
    }

    /// Rank of a 3- or 5-position mask of the last loaded hand.
    #[inline]
    pub fn rank_of(&self, mask: u16) -> u32 {
        self.row[mask as usize] as u32
    }

    /// Class (`Classes` index) of a 3- or 5-position mask of the last loaded hand.
    #[inline]
    fn class_of(&self, mask: u16) -> u16 {
        unpack(self.row[mask as usize]).1
    }

    /// The greedy baseline: the strongest back of the 13 cards, the strongest middle of the
    /// other 8, the rest in front (first in mask order among equal ranks). Always legal: the back
    /// is the best five of all the cards, and the middle the best five of eight cards that
    /// include the front, so it ranks at least as high as any front drawn from them.
    pub fn greedy(&mut self, hand: &[u8; 13], wheel: Wheel) -> Split {
        self.load(hand, wheel);
        self.greedy_split()
    }

    /// A floor for the best value from one back of the loaded hand: the better of its split
    /// with the strongest middle (and the strongest front beside it) and its split with the
    /// strongest front (and the strongest middle beside it).
    fn best_of_back<V: Fn(&[u16; 3]) -> f64>(&self, back: u16, value: &V) -> f64 {
        let rest = ALL13 ^ back;
        let rb = self.rank_of(back);
        let cb = self.class_of(back);
        let (lo, hi) = expand_tables(rest);
        // the legal splits as (middle rank, front class, middle mask) and (front class, middle
        // rank, middle mask)
        let (mut by_middle, mut by_front) = (0u64, 0u64);
        for &p in &statics().pat56 {
            let middle = lo[(p & 15) as usize] | hi[(p >> 4) as usize];
            let front = rest ^ middle;
            let (rm, rf) = (self.rank_of(middle), self.rank_of(front));
            let fc = self.class_of(front) as u64;
            let legal = ((rf <= rm && rm <= rb) as u64).wrapping_neg();
            by_middle = by_middle.max(((rm as u64) << 32 | fc << 16 | middle as u64) & legal);
            by_front = by_front.max((fc << 48 | (rm as u64) << 16 | middle as u64) & legal);
        }
        let mut best = f64::NEG_INFINITY;
        for (front, middle) in [
            (by_middle >> 16 & 0xffff, by_middle & 0x1fff),
            (by_front >> 48, by_front & 0x1fff),
        ] {
            best = best.max(value(&[front as u16, self.class_of(middle as u16), cb]));
        }
        best
    }

    /// A floor for the `keep`-th best value of the loaded hand, where the strongest back's rank
    /// is no other back's: the `keep`-th best of that back's splits that no other of its
    /// splits beats in both middle and front, which are then frontier settings of distinct
    /// rank triples (only a back at least as strong could cover them). `None` where there are
    /// fewer or the rank is shared.
    fn kth_of_top_back<V: Fn(&[u16; 3]) -> f64>(&self, value: &V) -> Option<f64> {
        let back = self.top_back;
        let rb = self.rank_of(back);
        if self.top_shared {
            return None;
        }
        let rest = ALL13 ^ back;
        let (lo, hi) = expand_tables(rest);
        // legal splits as (middle rank, front rank, front mask), strongest middle first
        let mut splits = [(0u32, 0u32, 0u16); 56];
        let mut n = 0;
        for &p in &statics().pat56 {
            let middle = lo[(p & 15) as usize] | hi[(p >> 4) as usize];
            let front = rest ^ middle;
            let (rm, rf) = (self.rank_of(middle), self.rank_of(front));
            if rf <= rm && rm <= rb {
                splits[n] = (rm, rf, front);
                n += 1;
            }
        }
        let splits = &mut splits[..n];
        splits.sort_unstable_by(|a, b| b.cmp(a));
        let cb = self.class_of(back);
        let mut values = [0f64; 56];
        let (mut kept, mut best_front) = (0, None);
        for &(_, rf, front) in splits.iter() {
            // strongest middle first: a split is covered by an earlier one unless its front is
            // stronger than every earlier front (equal rank pairs included)
            if best_front.is_some_and(|f| rf <= f) {
                continue;
            }
            best_front = Some(rf);
            let middle = rest ^ front;
            values[kept] = value(&[self.class_of(front), self.class_of(middle), cb]);
            kept += 1;
        }
        if kept < self.keep {
            return None;
        }
        let values = &mut values[..kept];
        values.sort_unstable_by(|a, b| b.total_cmp(a));
        Some(values[self.keep - 1])
    }

    /// [`Scratch::greedy`] of the loaded hand.
    fn greedy_split(&self) -> Split {
        let back = self.top_back;
        let rest = ALL13 ^ back;
        let (lo, hi) = expand_tables(rest);
        let (mut middle, mut rm) = (0u16, 0u32);
        for &p in &statics().pat56 {
            let m = lo[(p & 15) as usize] | hi[(p >> 4) as usize];
            let r = self.rank_of(m);
            if middle == 0 || r > rm {
                (middle, rm) = (m, r);
            }
        }
        let front = rest ^ middle;
        debug_assert!(self.rank_of(front) <= rm && rm <= self.rank_of(back));
        self.split(front, middle, back)
    }

    /// The split of the last loaded hand with these row masks, its ranks and classes read from
    /// the tables.
    #[inline]
    fn split(&self, front: u16, middle: u16, back: u16) -> Split {
        Split {
            front,
            middle,
            back,
            ranks: [
                self.rank_of(front),
                self.rank_of(middle),
                self.rank_of(back),
            ],
            classes: [
                self.class_of(front),
                self.class_of(middle),
                self.class_of(back),
            ],
        }
    }

    /// Every legal setting of `hand` (72,072 splits, fouls dropped), in no particular order.
    pub fn legal_settings(&mut self, hand: &[u8; 13], wheel: Wheel, out: &mut Vec<Split>) {
        self.load(hand, wheel);
        let st = statics();
        out.clear();
        for &back in &st.five {
            let rb = self.rank_of(back);
            let rest = ALL13 ^ back;
            let (lo, hi) = expand_tables(rest);
            for &p in &st.pat56 {
                let middle = lo[(p & 15) as usize] | hi[(p >> 4) as usize];
                let rm = self.rank_of(middle);
                let front = rest ^ middle;
                let rf = self.rank_of(front);
                if rf <= rm && rm <= rb {
                    out.push(self.split(front, middle, back));
                }
            }
        }
    }

    /// The Pareto frontier of `hand`'s legal settings into `self.frontier`, strongest back
    /// first.
    pub fn frontier(&mut self, hand: &[u8; 13], wheel: Wheel) {
        self.frontier.clear();
        let none = |_: &[u16; 3]| 0.0;
        self.search::<false, _, _>(hand, wheel, &none, &none);
    }

    /// The best legal setting of `hand` under `value` (of the rows' classes: front, middle,
    /// back), and its value, without building the whole frontier: the same split as "the
    /// frontier, then its first split with the strictly largest value" (ties within a relative
    /// 1e-9 aside), for a `value` non-decreasing in each row's class. The frontier search,
    /// pruned by the value at the strongest classes a bucket, a back rank or a back could
    /// still give.
    pub fn best_split<V: Fn(&[u16; 3]) -> f64>(
        &mut self,
        hand: &[u8; 13],
        wheel: Wheel,
        value: V,
    ) -> (Split, f64) {
        self.best_split_bounded(hand, wheel, &value, &value)
    }

    /// [`Scratch::best_split`] for any `value`, pruned by `bound` instead: `bound` must be
    /// non-decreasing in each row's class and, at any classes, at least `value` at those classes
    /// and at every weaker ones (an envelope), so that whatever it prunes could not have beaten
    /// the best found. The result is still the frontier's best split under `value`.
    pub fn best_split_bounded<V: Fn(&[u16; 3]) -> f64, B: Bound>(
        &mut self,
        hand: &[u8; 13],
        wheel: Wheel,
        value: &V,
        bound: &B,
    ) -> (Split, f64) {
        let found = self.search::<true, _, _>(hand, wheel, value, bound);
        (self.frontier_tie(found), found.value)
    }

    /// The `k` best splits under `value`, best first, with their values, as
    /// [`Scratch::best_split_bounded`] finds the best: the first `k` of the frontier sorted by
    /// value (a stable sort, so that equal values keep the frontier's order; ties within a
    /// relative 1e-9 aside), or fewer when the frontier is smaller. The search prunes by the
    /// `k`-th best found instead of the best, from the start (no first threshold). Also returns
    /// how many splits it valued.
    pub fn top_splits<V: Fn(&[u16; 3]) -> f64, B: Bound>(
        &mut self,
        hand: &[u8; 13],
        wheel: Wheel,
        value: &V,
        bound: &B,
        k: usize,
    ) -> (Vec<(Split, f64)>, usize) {
        if k <= 1 {
            let best = self.best_split_bounded(hand, wheel, value, bound);
            return (vec![best], self.valued);
        }
        self.keep = k;
        self.kept.clear();
        self.search::<true, _, _>(hand, wheel, value, bound);
        self.keep = 1;
        let top = self
            .kept
            .iter()
            .map(|&b| (self.frontier_tie(b), b.value))
            .collect();
        (top, self.valued)
    }

    /// The frontier search, or with `BOUNDED` the search for the best split under `value`,
    /// pruned by `bound` (see [`Scratch::best_split_bounded`]).
    fn search<const BOUNDED: bool, V: Fn(&[u16; 3]) -> f64, B: Bound>(
        &mut self,
        hand: &[u8; 13],
        wheel: Wheel,
        value: &V,
        bound: &B,
    ) -> Best {
        self.load_hand(hand, wheel);
        let fc = FiveClasses::get(wheel);
        let st = statics();
        let five_classes = &Classes::get(wheel).five;
        let best_front_all = front_class(best_front(self.counts(ALL13)));
        let mut best = Best::default();
        self.valued = 0;
        let back = self.top_back;
        // The best split of the strongest back is a floor for the best (the k-th best of its
        // frontier splits, for the k best), so it prunes from the start, and no back whose best
        // conceivable setting is below it needs sorting, nor a place in `backs`: the fives are
        // ranked first (the backs are made from their ranks where the cut is a pair or better,
        // nearly always; a cut below lists them again as it ranks them).
        let floor = match BOUNDED {
            false => None,
            true => {
                self.load_fives_unlisted(hand, fc);
                match self.keep {
                    1 => Some(self.best_of_back(back, value)),
                    _ => self.kth_of_top_back(value),
                }
            }
        };
        #[cfg(feature = "search-stats")]
        let (floor, given) = {
            use super::search_stats::GivenThreshold;
            match (self.keep, self.given_threshold.take()) {
                (1, Some(GivenThreshold::Everywhere(v))) => (Some(v), None),
                (1, Some(GivenThreshold::WalkOnly(v))) => (floor, Some(v)),
                _ => (floor, None),
            }
        };
        let cut = floor.map_or(0, |v| {
            best.threshold = threshold_below(v);
            let reach = |c: usize| {
                let f = best_front_all.min(fc.floor_front(c as u16));
                bound.at_diagonal(f as u16, c as u16) >= best.threshold
            };
            // reach is monotone and holds at the strongest back's class; every class below lo
            // fails it, so a few halvings give a cut that is safe if not the tightest
            let (mut lo, mut hi) = (0usize, self.class_of(back) as usize);
            for _ in 0..7 {
                let mid = (lo + hi) / 2;
                if reach(mid) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            five_classes[lo]
        });
        let (given_backs, listed) = self.backs_from_outside();
        if given_backs {
            if !BOUNDED {
                self.load_fives_unlisted(hand, fc);
            }
        } else if BOUNDED && !listed && back_maker::serves(cut) {
            self.n_sorted = 0;
            self.maker = Some(BackMaker::new(hand, self.suits, self.counts(ALL13), cut));
        } else {
            self.load_fives(hand, fc, cut);
            self.bucket_backs(cut);
        }
        #[cfg(feature = "search-stats")]
        if self.record_backs {
            self.last_backs.sorted.clear();
            (self.last_backs.sorted).extend_from_slice(&self.sorted[..self.n_sorted]);
            self.last_backs.buckets.clone_from(&self.buckets);
        }
        #[cfg(feature = "search-stats")]
        if let Some(v) = given {
            best.threshold = best.threshold.max(threshold_below(v));
        }
        count!(self, searches, 1);
        // (the maker counts its own as it makes them)
        if self.maker.is_none() {
            count!(self, backs_past_cut, self.n_sorted);
            count!(self, buckets, self.buckets.len());
        }
        self.best_middle[..FRONT_CLASSES].fill(0);
        self.group.clear();
        self.group_live.clear();
        let mut group_rank = u32::MAX;
        let mut group_skip = false;
        let mut learnt = Learnt::default();
        let mut group_cap;
        let mut group_fb = 0;
        let mut group_b5 = u32::MAX;
        // whether a back of this group whose rest can make no flush has been looked at
        let mut group_flushless = false;
        // this group's rest's best five, and the fronts its backs try (None: none)
        let mut plan: (u32, Option<Plan>) = (u32::MAX, None);
        // a back's candidate fronts, and with few live fronts those inside its rest (only the
        // first ones written for a back are read: made once, not zeroed for every back)
        // (256 long, so that a u8 count indexes them without a check: there are at most 56)
        let (mut hits, mut inside) = ([0u16; 256], [0u32; 256]);
        let mut floor_rb = 0;
        'buckets: while let Some((start, end)) = self.next_bucket() {
            let top = self.sorted[start..end].iter().copied().max().unwrap_or(0);
            let (top_rank, top_class) = ((top >> 13) as u32, self.class_of((top & 0x1fff) as u16));
            // Nothing weaker can beat a kept setting that already has a middle as strong as
            // this back and the hand's best possible front.
            if self.best_middle[best_front_all] >= top_rank {
                break;
            }
            let floor_top = fc.floor_front(top_class);
            // Nor can anything reach a better value than this bucket's strongest back with
            // the best front of the hand and a middle as strong: buckets come strongest first.
            if BOUNDED
                && bound.at_diagonal(best_front_all.min(floor_top) as u16, top_class)
                    < best.threshold
            {
                break;
            }
            // A whole bucket is covered when its strongest back is (see the group test below):
            // such buckets are never sorted.
            if self.best_middle[floor_top] >= top_rank {
                continue;
            }
            // (ascending, walked from the end: the keys are distinct)
            self.sorted[start..end].sort_unstable();
            count!(self, buckets_sorted, 1);
            count!(self, backs_sorted, end - start);
            for bi in (start..end).rev() {
                let key = self.sorted[bi];
                count!(self, backs_reached, 1);
                let back = (key & 0x1fff) as u16;
                let rb = (key >> 13) as u32;
                let cb = self.class_of(back);
                if rb != group_rank {
                    if !self.group.is_empty() {
                        self.flush_group::<BOUNDED, V>(value, &mut best);
                    }
                    group_rank = rb;
                    if self.best_middle[best_front_all] >= rb {
                        break 'buckets;
                    }
                    // Every split of a back of this rank has middle ≤ rb and front ≤ floor(rb);
                    // best_middle is non-increasing and only changes between groups, so this
                    // one look settles the whole group when it is covered.
                    floor_rb = fc.floor_front(cb);
                    group_cap = best_front_all.min(floor_rb);
                    if BOUNDED && group_cap as i32 <= learnt.dead_front {
                        break 'buckets;
                    }
                    // Backs of one rank hold the same ranks, so their rests do too: the best
                    // front they leave, fb, is the group's.
                    group_fb = front_class(best_front(self.counts(ALL13 ^ back)));
                    group_b5 = u32::MAX;
                    group_flushless = false;
                    plan.0 = u32::MAX;
                    group_skip = self.best_middle[group_fb.min(floor_rb)] >= rb;
                    // The value with that front and middle = back; at the group's cap it bounds
                    // the whole rest of the search, so failing there ends it.
                    let cap = group_fb.min(group_cap);
                    if BOUNDED && !group_skip {
                        group_skip = cap as i32 <= learnt.dead_front || {
                            let dead = bound.at_diagonal(cap as u16, cb) < best.threshold;
                            if dead {
                                learnt.dead_front = learnt.dead_front.max(cap as i32);
                            }
                            dead
                        };
                        if group_skip && cap == group_cap {
                            break 'buckets;
                        }
                    }
                }
                if group_skip {
                    continue;
                }
                let rest = ALL13 ^ back;
                let counts = self.counts(rest);
                // Backs of one rank leave rests of the same ranks: where a rest can make no
                // flush, its splits' rank triples are those of the ranks alone, so the first
                // such back of the group has them all, found first (as the frontier keeps
                // them). Every later back's splits whose middle is not a flush have one of
                // those triples (legal alike): only its flush middles can be new, and none is
                // legal under a back below a flush.
                let suits5 = suits_of_five(counts);
                let flushless = suits5 == 0;
                let flush_only = group_flushless;
                if flush_only && (flushless || rb < cat(Category::Flush)) {
                    continue;
                }
                group_flushless |= flushless;
                count!(self, backs_walked, 1);
                // With this back's own cards: middle ≤ mb, front ≤ min(fb, mb).
                let fb = group_fb;
                // (without a flush the best five of the rest is the group's, its ranks being
                // the group's)
                let b5 = if !flushless {
                    best_five(counts, wheel)
                } else {
                    if group_b5 == u32::MAX {
                        group_b5 = best_five(counts, wheel);
                    }
                    group_b5
                };
                // Everything up to which fronts to try depends on the back only through the
                // rest's best five (its ranks are the group's): backs of a group share it.
                if plan.0 != b5 {
                    count!(self, plans, 1);
                    let back = Back {
                        rb,
                        cb,
                        floor_rb,
                        fb,
                        b5,
                        counts,
                    };
                    plan = (
                        b5,
                        self.plan::<BOUNDED, B>(&back, bound, &mut learnt, best.threshold),
                    );
                }
                let Some(Plan {
                    start,
                    live,
                    need,
                    live_frontier,
                }) = plan.1
                else {
                    continue;
                };
                count!(self, backs_with_fronts, 1);
                // Branch-free filtering into a small buffer: the tests are data-dependent and
                // mostly fail, which a branch would mispredict.
                let mut n = 0u8;
                let mut keep = |front: u16, fc: u16, ok: bool, s: &Self| {
                    let middle = rest ^ front;
                    let covered = s.best_middle[(fc & 511) as usize];
                    let rm = s.rank_of(middle);
                    let rf = s.rank_of(front);
                    hits[n as usize] = front;
                    n += (ok & (rm <= rb) & (rf <= rm) & (covered < rm)) as u8;
                };
                if flush_only {
                    // each five of the flush's suit in the rest as the middle (at most 56, in
                    // rare hands: each is kept if legal and not covered, the plan's weakest
                    // front being a saving rather than a condition)
                    let suit = suits5.trailing_zeros() / 4;
                    for_each_five(self.suits[suit as usize & 3] & rest, |middle| {
                        let front = rest ^ middle;
                        keep(front, self.class_of(front), true, self);
                    });
                } else if live - start <= SCAN_LIMIT {
                    count!(self, fronts_scanned, live - start);
                    // first the fronts inside the rest (at most 56), by masks alone; then their
                    // ranks, so that only these pay for the scattered loads
                    let mut k = 0u8;
                    for &f in &self.fronts[start..live] {
                        inside[k as usize] = f;
                        k += (f as u16 & back == 0) as u8;
                    }
                    for &f in &inside[..k as usize] {
                        keep(f as u16, (f >> 16) as u16, true, self);
                    }
                } else {
                    count!(self, rests_split, 1);
                    let (lo, hi) = expand_tables(rest);
                    for &p in &st.pat56 {
                        let p = !p;
                        let front = lo[(p & 15) as usize] | hi[(p >> 4) as usize];
                        let fc = self.class_of(front);
                        keep(front, fc, fc >= need, self);
                    }
                }
                count!(self, candidates, n);
                for &front in &hits[..n as usize] {
                    self.push_candidate(front, rest ^ front, back, rb);
                    if BOUNDED {
                        self.group_live.push(live_frontier as u16);
                    }
                }
            }
        }
        self.flush_group::<BOUNDED, V>(value, &mut best);
        count!(self, valued, self.valued);
        #[cfg(feature = "search-stats")]
        if let Some(v) = floor {
            let top_rank = self.rank_of(self.top_back);
            count!(self, first_was_best, best.value <= v);
            count!(self, best_on_strongest, best.split.ranks[2] == top_rank);
        }
        best
    }

    /// Which of the hand's fronts the splits of a back may take, or `None` when none can lead
    /// anywhere: everything covered, every split a foul, or (bounded) nothing able to reach
    /// the threshold.
    #[inline(always)]
    fn plan<const BOUNDED: bool, B: Bound>(
        &self,
        b: &Back,
        bound: &B,
        learnt: &mut Learnt,
        threshold: f64,
    ) -> Option<Plan> {
        let Back {
            rb,
            cb,
            floor_rb,
            fb,
            b5,
            counts,
        } = *b;
        let mb = rb.min(b5);
        let floor_mb = if mb == rb {
            floor_rb
        } else {
            floor_front_class(mb)
        };
        if self.best_middle[fb.min(floor_mb)] >= mb {
            return None;
        }
        // b5 is the rank of a five of the rest, so it has a class
        let mb_class = if mb == rb || !BOUNDED {
            cb
        } else {
            FiveClasses::get(self.wheel).class_of_raw(mb)
        };
        // (backs of one group often share the middle cap: what one front cut learnt about the
        // hand's fronts serves the next)
        let key = (mb_class, cb, threshold.to_bits());
        // (made when first asked: many backs never get that far)
        let mut line = None;
        let mut along =
            |front: u16| line.get_or_insert_with(|| bound.along_fronts(mb_class, cb))(front);
        if BOUNDED && learnt.cut.0 != key {
            learnt.cut = (key, 0, usize::MAX);
        }
        if BOUNDED && mb < rb {
            // the strongest of the hand's fronts under the cap
            let at = self.fronts_from[(fb.min(floor_mb) + 1) & 511] as usize;
            let front = (self.fronts[at.min(FRONTS - 1)] >> 16) as i32;
            if at >= FRONTS
                || at >= learnt.cut.2
                || front <= learnt.dead_front
                || along(front as u16) < threshold
            {
                return None;
            }
            learnt.cut.1 = learnt.cut.1.max(at + 1);
        }
        // Only fronts of a class not yet covered up to mb can lead anywhere. They form a prefix
        // of the fronts sorted by class (best_middle is non-increasing in class): when it is
        // short, scan it for fronts inside this back's rest; otherwise go through the rest's 56
        // splits.
        let first_live = self.best_middle[..FRONT_CLASSES].partition_point(|&m| m >= mb);
        // When every live front needs a pair (or trips) and the rest cannot leave the middle a
        // group at least as strong, every such split fouls:
        // - pair fronts, no trips, straight or flush in the rest: the middle needs two other
        //   pairs, or one pair above the front's; with two pairs in all that means the front
        //   takes the lower one, which must then be live;
        // - trips fronts: the middle needs another trips (or better) besides the front's.
        let [_, c2, c3, _] = counts.multiplicities();
        let b5_cat = HandRank::category_index_of_raw(b5);
        let pairs = c2.count_ones();
        let lowest_pair = c2.trailing_zeros() / 3 + 2;
        let pair_fouls = first_live >= FIRST_PAIR_CLASS
            && c3 == 0
            && b5_cat <= Category::TwoPair as usize
            && (pairs <= 1 || pairs == 2 && lowest_pair < front_value(first_live));
        let trips_fouls = first_live >= FIRST_TRIPS_CLASS
            && c3.count_ones() <= 1
            && b5_cat <= Category::Trips as usize;
        if pair_fouls || trips_fouls {
            return None;
        }
        let live = self.fronts_from[first_live & 511] as usize;
        let mut plan = Plan {
            start: 0,
            live,
            need: 0,
            live_frontier: live,
        };
        if BOUNDED {
            // Fronts above the cap are not in the rest or would foul, and the weakest live
            // ones cannot reach the threshold even with the strongest middle left: the value
            // falls along the fronts (strongest class first).
            let start = self.fronts_from[(fb.min(floor_mb) + 1) & 511] as usize;
            let mut live = live;
            if learnt.dead_front >= 0 {
                live = live.min(self.fronts_from[(learnt.dead_front + 1) as usize & 511] as usize);
            }
            let cut = &mut learnt.cut;
            let (mut lo, mut hi) = (cut.1.clamp(start, live), cut.2.clamp(start, live));
            // Nearly half the searches end with every front passing: the weakest is looked at
            // first (and where it fails, the search goes on as it would have, below it).
            let mut first = true;
            while lo < hi {
                let mid = if first { hi - 1 } else { (lo + hi) / 2 };
                first = false;
                let f = (self.fronts[mid] >> 16) as u16;
                if along(f) >= threshold {
                    lo = mid + 1;
                } else {
                    hi = mid;
                    if mb_class == cb {
                        learnt.dead_front = learnt.dead_front.max(f as i32);
                    }
                }
            }
            let cut = &mut learnt.cut;
            if lo > start {
                cut.1 = cut.1.max(lo);
            }
            if lo < live {
                cut.2 = cut.2.min(lo);
            }
            if lo <= start {
                return None;
            }
            plan.start = start;
            plan.live = lo;
            plan.need = (self.fronts[lo - 1] >> 16) as u16;
        }
        Some(plan)
    }

    /// Keeps a split found legal and not covered as a candidate of the current back group.
    #[inline]
    fn push_candidate(&mut self, front: u16, middle: u16, back: u16, rb: u32) {
        let fc = self.class_of(front);
        let rm = self.rank_of(middle);
        let rf = self.rank_of(front);
        debug_assert!(rf <= rm && rm <= rb && self.best_middle[(fc & 511) as usize] < rm);
        self.group.push(Split {
            front,
            middle,
            back,
            ranks: [rf, rm, rb],
            classes: [fc, self.class_of(middle), self.class_of(back)],
        });
    }

    /// Settles the candidates of one back rank: strongest (middle, front) first, so a later
    /// candidate can only be dominated by an earlier one, never the reverse. The frontier keeps
    /// them; the bounded search values them instead, in the frontier's order, so that the
    /// first of equal values wins as it would there.
    fn flush_group<const BOUNDED: bool, V: Fn(&[u16; 3]) -> f64>(
        &mut self,
        value: &V,
        best: &mut Best,
    ) {
        if self.group.is_empty() {
            return;
        }
        // Sorting u64 keys (middle raw < 2^25 at bit 39, front raw < 2^23 at bit 16, then the
        // complemented index so that among equal rank pairs the first found is kept) is cheaper
        // than sorting the splits. A group holds at most 3^5 equal backs' 56 splits < 2^16.
        debug_assert!(self.group.len() <= 0xFFFF);
        self.group_keys.clear();
        for (i, s) in self.group.iter().enumerate() {
            self.group_keys
                .push((s.ranks[1] as u64) << 39 | (s.ranks[0] as u64) << 16 | (0xFFFF - i) as u64);
        }
        // (ascending, walked from the end: the keys are distinct)
        self.group_keys.sort_unstable();
        // the class after the last one raised (none yet)
        let mut raised = usize::MAX;
        for k in (0..self.group_keys.len()).rev() {
            let i = 0xFFFF - (self.group_keys[k] & 0xFFFF) as usize;
            let s = self.group[i];
            let (m, fc) = (s.ranks[1], self.class_of(s.front) as usize);
            if self.best_middle[fc] >= m {
                continue;
            }
            // best_middle is non-increasing: the classes it raises are those after its prefix
            // of values ≥ m. After the first raise of a group, a later candidate (a weaker
            // middle, so a stronger front) starts past the classes raised before, whose values
            // are at least m: that prefix ends at or after them, found by stepping up. The
            // first is found by galloping down from fc (most steps are short).
            let from = if raised <= fc {
                let mut from = raised;
                while self.best_middle[from & 511] >= m {
                    from += 1;
                }
                from
            } else {
                let mut from = fc;
                let mut step = 1;
                while from > 0 && self.best_middle[(from - 1) & 511] < m {
                    let next = from.saturating_sub(step);
                    if self.best_middle[next & 511] < m {
                        from = next;
                        step *= 2;
                    } else {
                        from -= 1;
                        step = 1;
                    }
                }
                from
            };
            self.best_middle[from..=fc].fill(m);
            raised = fc + 1;
            if BOUNDED {
                let v = value(&s.classes);
                self.valued += 1;
                // (made only where it is kept: most values do not beat the best)
                let found = |live: &[u16]| Best {
                    split: s,
                    value: v,
                    threshold: threshold_below(v),
                    live: live[i],
                };
                if self.keep == 1 {
                    if v > best.value {
                        *best = found(&self.group_live);
                    }
                } else {
                    self.keep_top(found(&self.group_live), best);
                }
            } else {
                self.frontier.push(s);
            }
        }
        self.group.clear();
        self.group_live.clear();
    }

    /// Keeps `found` among the `keep` best so far (after every kept split of a value at least
    /// its own, which were found first) and prunes by the `keep`-th best once there are as many.
    fn keep_top(&mut self, found: Best, best: &mut Best) {
        let full = self.kept.len() >= self.keep;
        if full && found.value <= self.kept[self.keep - 1].value {
            return;
        }
        let at = self.kept.partition_point(|b| b.value >= found.value);
        self.kept.insert(at, found);
        self.kept.truncate(self.keep);
        if self.kept.len() == self.keep {
            // (never below a floor the search started from)
            best.threshold = best.threshold.max(self.kept[self.keep - 1].threshold);
        }
        best.value = self.kept[0].value;
    }

    /// The bounded search's best split, as the frontier would have picked it among the splits of
    /// its back with the same rank triple: the frontier keeps the first it found, and finds them
    /// in a back's 56 splits (strongest front mask first) or, when few fronts are still live,
    /// among the fronts by class (weakest mask first). Which of the two it used depends on what
    /// stronger backs it had kept, so that is reconstructed here, only when the choice matters.
    fn frontier_tie(&self, best: Best) -> Split {
        let s = best.split;
        // Another front of the same class holds the same ranks, so it swaps a card with the
        // middle for one of the same rank: none when the two rows share no rank.
        let ranks = |mask: u16| self.counts(mask).multiplicities()[0];
        if ranks(s.front) & ranks(s.middle) == 0 {
            return s;
        }
        let rest = ALL13 ^ s.back;
        let (lo, hi) = expand_tables(rest);
        let (mut lowest, mut highest, mut twins) = (u16::MAX, 0u16, 0);
        for &p in &statics().pat56 {
            let p = !p;
            let front = lo[(p & 15) as usize] | hi[(p >> 4) as usize];
            if self.class_of(front) == s.classes[0] && self.rank_of(rest ^ front) == s.ranks[1] {
                lowest = lowest.min(front);
                highest = highest.max(front);
                twins += 1;
            }
        }
        if twins < 2 {
            return s;
        }
        let rb = s.ranks[2];
        let mb = rb.min(best_five(self.counts(rest), self.wheel));
        // The frontier scanned the live fronts when the ones of class ≥ c* − 1 were covered up
        // to mb by stronger backs (c*: the weakest class whose prefix is short enough). The
        // bounded search covers less than the frontier, so a short prefix here settles it.
        let scan = best.live as usize <= SCAN_LIMIT || {
            let c_star =
                self.fronts_from[..FRONT_CLASSES].partition_point(|&n| n as usize > SCAN_LIMIT);
            self.stronger_split_covers(rb, mb, c_star.max(1) - 1)
        };
        let front = if scan { lowest } else { highest };
        self.split(front, rest ^ front, s.back)
    }

    /// Whether some legal split with a back stronger than `rb` has a middle ≥ `mb` and a front
    /// of class ≥ `class`.
    fn stronger_split_covers(&self, rb: u32, mb: u32, class: usize) -> bool {
        let st = statics();
        for &key in &self.sorted[..self.n_sorted] {
            let (back, rk) = ((key & 0x1fff) as u16, (key >> 13) as u32);
            if rk <= rb {
                continue;
            }
            let rest = ALL13 ^ back;
            let counts = self.counts(rest);
            let top_middle = rk.min(best_five(counts, self.wheel));
            if top_middle < mb
                || front_class(best_front(counts)).min(floor_front_class(top_middle)) < class
            {
                continue;
            }
            let (lo, hi) = expand_tables(rest);
            for &p in &st.pat56 {
                let middle = lo[(p & 15) as usize] | hi[(p >> 4) as usize];
                let front = rest ^ middle;
                let (rm, rf) = (self.rank_of(middle), self.rank_of(front));
                if rm >= mb && rm <= rk && rf <= rm && self.class_of(front) as usize >= class {
                    return true;
                }
            }
        }
        false
    }
}

/// `f(mask, packed)` of every five of the hand as if it were not a flush, in no set order (no
/// caller needs one): each five is a pair of positions and a front below both, and `by_top`
/// lists the fronts as `class << 16 | mask` by their highest position (those below position p
/// are the first C(p, 3)), so that each five costs one load from its pair's row of
/// [`FiveClasses::by_pair`], at its front's class.
#[inline(always)]
fn unsuited_fives(
    hand: &[u8; 13],
    by_top: &[u32; 512],
    fc: &FiveClasses,
    mut f: impl FnMut(u16, u64),
) {
    /// C(p, 3): the fronts below position p.
    const BELOW: [usize; 13] = [0, 0, 0, 1, 4, 10, 20, 35, 56, 84, 120, 165, 220];
    let to_two = &*pair_states().to_two;
    let by_pair = fc.by_pair();
    let rk = hand.map(|c| (c >> 2) as usize & 15);
    for p5 in 4..13 {
        for p4 in 3..p5 {
            let of_pair = &by_pair[to_two[rk[p5] << 4 | rk[p4]] as usize % PAIR_ROWS];
            let pair = 1 << p5 | 1 << p4;
            for &t in &by_top[..BELOW[p4]] {
                f(pair | t as u16, of_pair[(t >> 16) as usize & 511]);
            }
        }
    }
}

/// The positions set in `mask`, lowest first.
fn positions(mask: u16) -> impl Iterator<Item = usize> {
    let mut bits = mask & ALL13;
    std::iter::from_fn(move || {
        let i = bits.trailing_zeros() as usize;
        bits &= bits.wrapping_sub(1);
        (i < 13).then_some(i)
    })
}

/// `f` of the mask of each five-position subset of `set`.
fn for_each_five(set: u16, mut f: impl FnMut(u16)) {
    let mut pos = [0u16; 13];
    let mut n = 0;
    for i in positions(set) {
        pos[n] = 1 << i;
        n += 1;
    }
    for e in 4..n {
        for d in 3..e {
            for c in 2..d {
                for b in 1..c {
                    for a in 0..b {
                        f(pos[a] | pos[b] | pos[c] | pos[d] | pos[e]);
                    }
                }
            }
        }
    }
}

/// What the bounded search learnt about values, kept while the back classes fall and the
/// threshold rises.
struct Learnt {
    /// (middle class, back class, threshold) of the last front cut, and the fronts' positions
    /// known to pass it (below .1) and to fail it (from .2)
    cut: ((u16, u16, u64), usize, usize),
    /// V(f, c, c) is below the threshold for every front class f ≤ dead_front and every back
    /// class c from the current one down.
    dead_front: i32,
}

impl Default for Learnt {
    fn default() -> Self {
        Learnt {
            cut: ((u16::MAX, u16::MAX, 0), 0, usize::MAX),
            dead_front: -1,
        }
    }
}

/// One back as the search sees it: its rank and class, the floor of fronts under it, the best
/// front and five its rest leaves, the rest's counts.
#[derive(Copy, Clone)]
struct Back {
    rb: u32,
    cb: u16,
    floor_rb: usize,
    fb: usize,
    b5: u32,
    counts: Counts,
}

/// Which of the hand's fronts (positions in `Scratch::fronts`) a back's splits may take: the
/// live ones from `start` (the rest below the cap) to `live`, and with the pat56 path those of
/// class ≥ `need`; `live_frontier` is the frontier's live count (see `frontier_tie`).
#[derive(Copy, Clone)]
struct Plan {
    start: usize,
    live: usize,
    need: u16,
    live_frontier: usize,
}

/// The bounded search's best split so far.
#[derive(Copy, Clone)]
struct Best {
    split: Split,
    value: f64,
    /// Bounds below this cannot beat `value`: a relative 1e-9 below it, so that rounding in
    /// the value never prunes the true best.
    threshold: f64,
    /// The live-front count when `split` was found.
    live: u16,
}

impl Default for Best {
    fn default() -> Self {
        Best {
            split: Split {
                front: 0,
                middle: 0,
                back: 0,
                ranks: [0; 3],
                classes: [0; 3],
            },
            value: f64::NEG_INFINITY,
            threshold: f64::NEG_INFINITY,
            live: 0,
        }
    }
}

/// Masks of the subsets of the first four and last four positions of `rest` (8 positions), so
/// that an 8-bit pattern maps to a 13-bit mask with two loads and an OR.
#[inline]
fn expand_tables(rest: u16) -> ([u16; 16], [u16; 16]) {
    let mut pos = [0u16; 8];
    let mut bits = rest;
    for p in pos.iter_mut() {
        *p = bits & bits.wrapping_neg();
        bits &= bits - 1;
    }
    let mut lo = [0u16; 16];
    let mut hi = [0u16; 16];
    for i in 1..16usize {
        let low = i.trailing_zeros() as usize;
        lo[i] = lo[i & (i - 1)] | pos[low];
        hi[i] = hi[i & (i - 1)] | pos[4 + low];
    }
    (lo, hi)
}

/// Packed counts of a set of positions: 3 bits per card rank (at bit 3r) and 4 bits per suit
/// (at bit 48 + 4s). Counts of disjoint sets add without carries (≤ 4 per rank, ≤ 13 per suit),
/// so a set's counts are the sum of three per-hand table entries. The second word holds each suit's 13-bit rank mask at bit 16s (sums of disjoint sets are
/// ORs).
#[derive(Copy, Clone, Default)]
struct Counts(u64, u64);

const FIELD_LOW: u64 = 0o1_111_111_111_111; // bit 3r for r in 0..13
const SUITS_SHIFT: u32 = 48;

impl Counts {
    #[inline]
    fn plus(self, o: Counts) -> Counts {
        Counts(self.0 + o.0, self.1 | o.1)
    }
    /// Multiplicity masks (bit 3r set when rank r occurs at least k+1 times).
    #[inline]
    fn multiplicities(self) -> [u64; 4] {
        let x = self.0;
        let b0 = x & FIELD_LOW;
        let b1 = (x >> 1) & FIELD_LOW;
        let b2 = (x >> 2) & FIELD_LOW;
        [b0 | b1 | b2, b1 | b2, (b0 & b1) | b2, b2]
    }
}

/// Rank index of the highest rank set in a multiplicity mask.
#[inline]
fn top(mask: u64) -> u32 {
    (63 - mask.leading_zeros()) / 3
}

#[inline]
fn without(mask: u64, rank: u32) -> u64 {
    mask & !(1u64 << (3 * rank))
}

// The `HandRank` layout (src/eval/rank.rs), spelled with its named parts: the leading rank
// nibbles and each category already shifted into place.
const N0: u32 = NIBBLE_SHIFT[0];
const N1: u32 = NIBBLE_SHIFT[1];
const N2: u32 = NIBBLE_SHIFT[2];
const fn cat(c: Category) -> u32 {
    (c as u32) << CATEGORY_SHIFT
}

/// The best front (exact raw rank) among the 3-card subsets of a set with these counts.
#[inline]
fn best_front(c: Counts) -> u32 {
    let [c1, c2, c3, _] = c.multiplicities();
    if c3 != 0 {
        return cat(Category::Trips) | (top(c3) + 2) << N0 | FRONT_FLAG;
    }
    if c2 != 0 {
        let p = top(c2);
        return cat(Category::Pair) | (p + 2) << N0 | (top(without(c1, p)) + 2) << N1 | FRONT_FLAG;
    }
    let a = top(c1);
    let r1 = without(c1, a);
    let b = top(r1);
    let c = top(without(r1, b));
    (a + 2) << N0 | (b + 2) << N1 | (c + 2) << N2 | FRONT_FLAG
}

/// The ranks of the wheel (ace to five) in a 13-bit rank mask.
const WHEEL13: u16 = 1 << 12 | 0b1111;

/// The wheel's leading value (`HandRank` encoding): the lowest straight, or the second.
fn wheel_lead(wheel: Wheel) -> u32 {
    match wheel {
        Wheel::Low => 5,
        Wheel::Second => 14,
    }
}

/// Top card value (`HandRank` encoding) of the best straight in a 13-bit rank mask, if any.
#[inline]
fn straight_top(ranks: u16, wheel: Wheel) -> Option<u32> {
    let runs = ranks & (ranks >> 1) & (ranks >> 2) & (ranks >> 3) & (ranks >> 4);
    let mut t = None;
    if runs != 0 {
        let low = 15 - runs.leading_zeros();
        t = Some(if low + 4 == 12 { 15 } else { low + 6 });
    }
    if ranks & WHEEL13 == WHEEL13 {
        let w = wheel_lead(wheel);
        t = Some(t.map_or(w, |x: u32| x.max(w)));
    }
    t
}

/// The suits of five cards or more in a set, as the low bit of each suit's nibble: a 4-bit
/// count is at least 5 when its 8 is set, or its 4 with its 2 or 1.
#[inline]
fn suits_of_five(c: Counts) -> u16 {
    let n = (c.0 >> SUITS_SHIFT) as u16;
    (n & 0x8888) >> 3 | (n & 0x4444) >> 2 & ((n & 0x2222) >> 1 | n & 0x1111)
}

/// The best 5-card rank (exact raw) among the subsets of a set of at least 5 positions.
#[inline]
fn best_five(c: Counts, wheel: Wheel) -> u32 {
    let [c1, c2, c3, c4] = c.multiplicities();
    let five_up = suits_of_five(c);
    let flush_suit = (five_up != 0).then(|| five_up.trailing_zeros() / 4);
    let suit_ranks = |s: u32| ((c.1 >> (16 * s)) & 0x1fff) as u16;
    if let Some(s) = flush_suit {
        if let Some(t) = straight_top(suit_ranks(s), wheel) {
            return cat(Category::StraightFlush) | t << N0;
        }
    }
    if c4 != 0 {
        let t = top(c4);
        return cat(Category::Quads) | (t + 2) << N0 | (top(without(c1, t)) + 2) << N1;
    }
    if c3 != 0 && without(c2, top(c3)) != 0 {
        let t = top(c3);
        return cat(Category::FullHouse) | (t + 2) << N0 | (top(without(c2, t)) + 2) << N1;
    }
    if let Some(s) = flush_suit {
        let mut m = suit_ranks(s);
        let mut v = cat(Category::Flush);
        for k in 0..5 {
            let t = 15 - m.leading_zeros();
            v |= (t + 2) << (N0 - 4 * k);
            m &= !(1 << t);
        }
        return v;
    }
    // the ranks present: the union of the four suits' rank masks
    let ranks = (c.1 | c.1 >> 16 | c.1 >> 32 | c.1 >> 48) as u16 & 0x1fff;
    if let Some(t) = straight_top(ranks, wheel) {
        return cat(Category::Straight) | t << N0;
    }
    // `n` highest ranks of `m` as nibbles from the second nibble down
    let kick = |m: u64, n: u32| -> u32 {
        let mut m = m;
        let mut v = 0u32;
        for k in 0..n {
            let t = top(m);
            v |= (t + 2) << (N1 - 4 * k);
            m = without(m, t);
        }
        v
    };
    if c3 != 0 {
        let t = top(c3);
        return cat(Category::Trips) | (t + 2) << N0 | kick(without(c1, t), 2);
    }
    if c2.count_ones() >= 2 {
        let p = top(c2);
        let q = top(without(c2, p));
        return cat(Category::TwoPair)
            | (p + 2) << N0
            | (q + 2) << N1
            | kick(without(without(c1, p), q), 1) >> 4;
    }
    if c2 != 0 {
        let p = top(c2);
        return cat(Category::Pair) | (p + 2) << N0 | kick(without(c1, p), 3);
    }
    let a = top(c1);
    (a + 2) << N0 | kick(without(c1, a), 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 13 distinct card codes, dealt at random.
    fn random_hand(rng: &mut impl rand::RngCore) -> [u8; 13] {
        let mut deck: Vec<u8> = (0..52).collect();
        for i in 0..13 {
            let j = i + (rng.next_u64() % (52 - i as u64)) as usize;
            deck.swap(i, j);
        }
        deck[..13].try_into().unwrap()
    }

    /// `n` hands dealt at random from `seed`.
    fn random_hands(seed: u64, n: usize) -> Vec<[u8; 13]> {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..n).map(|_| random_hand(&mut rng)).collect()
    }

    #[test]
    fn load_ranks_every_row_as_the_evaluator_does() {
        // random hands, and hands with one or two suits of five or more (up to all 13)
        let mut hands: Vec<[u8; 13]> = vec![
            std::array::from_fn(|i| (i * 4) as u8),
            std::array::from_fn(|i| {
                if i < 7 {
                    (i * 4 + 1) as u8
                } else {
                    ((i - 7) * 4 + 2) as u8
                }
            }),
            std::array::from_fn(|i| [0, 8, 12, 16, 48, 1, 5, 9, 13, 17, 2, 3, 7][i]),
            // two suits holding the same five ranks; a wheel beside three pairs
            [2, 10, 18, 26, 34, 1, 9, 17, 25, 33, 48, 44, 40],
            [48, 1, 6, 11, 12, 21, 26, 31, 36, 45, 2, 23, 28],
        ];
        hands.extend(random_hands(11, 400));
        for wheel in [Wheel::Low, Wheel::Second] {
            let fc = FiveClasses::get(wheel);
            let mut s = Scratch::default();
            for hand in &hands {
                s.load(hand, wheel);
                let mut top = (0, 0u16);
                let mut keys = Vec::new();
                for &m in &statics().five {
                    let cards: Vec<u8> = (0..13)
                        .filter(|i| m >> i & 1 == 1)
                        .map(|i| hand[i])
                        .collect();
                    let (r, class) = fc.eval5(cards.try_into().unwrap());
                    keys.push((r as u64) << 13 | m as u64);
                    assert_eq!((s.rank_of(m), s.class_of(m)), (r, class));
                    if r > top.0 {
                        top = (r, m);
                    }
                }
                assert_eq!(s.top_back, top.1, "{hand:?}");
                let tops = keys.iter().filter(|&&k| (k >> 13) as u32 == top.0).count();
                assert_eq!(s.top_shared, tops > 1, "{hand:?}");
                // every five in `backs`, and with a cut those at least as strong
                keys.sort_unstable();
                for cut in [0, keys[700] >> 13, top.0 as u64] {
                    s.load_hand(hand, wheel);
                    s.load_fives(hand, fc, cut as u32);
                    let mut got: Vec<u64> = s.backs[..s.n_backs]
                        .iter()
                        .map(|&m| (s.rank_of(m) as u64) << 13 | m as u64)
                        .collect();
                    got.sort_unstable();
                    let want: Vec<u64> = keys.iter().copied().filter(|&k| k >> 13 >= cut).collect();
                    assert_eq!(got, want, "{hand:?} cut {cut:#x}");
                }
                // the fronts: ranked as the evaluator, strongest class first, then by mask
                let threes: Vec<u16> = (0u16..1 << 13).filter(|m| m.count_ones() == 3).collect();
                let mut want: Vec<(u16, u16)> = Vec::new();
                for &m in &threes {
                    let r: Vec<usize> = (0..13)
                        .filter(|i| m >> i & 1 == 1)
                        .map(|i| (hand[i] >> 2) as usize)
                        .collect();
                    let (raw, class) = unpack(front_ranks()[r[0] * 169 + r[1] * 13 + r[2]]);
                    assert_eq!((s.rank_of(m), s.class_of(m)), (raw, class));
                    want.push((class, m));
                }
                want.sort_by_key(|&(c, m)| (std::cmp::Reverse(c), m));
                let got: Vec<(u16, u16)> = s.fronts[..FRONTS]
                    .iter()
                    .map(|&f| ((f >> 16) as u16, f as u16))
                    .collect();
                assert_eq!(got, want, "{hand:?}");
                for c in 0..FRONT_CLASSES {
                    let n = want.iter().filter(|&&(fc, _)| fc as usize >= c).count();
                    assert_eq!(s.fronts_from[c] as usize, n);
                }
            }
        }
    }

    /// The backs made bucket by bucket (`back_maker`) are the listed ones, bucket for bucket,
    /// for every cut the maker serves: random hands and hands built for each category (quads,
    /// full houses, one and two suits of five or more, straight flushes, wheels).
    #[test]
    fn made_backs_are_the_listed_ones() {
        let code = |rank: u8, suit: u8| rank * 4 + suit;
        let mut hands: Vec<[u8; 13]> = vec![
            // quads and trips and pairs
            [0, 1, 2, 3, 4, 5, 6, 8, 9, 12, 16, 20, 24],
            // a straight flush to the ace beside a wheel and a flush of seven
            std::array::from_fn(|i| {
                if i < 9 {
                    code(12 - i as u8, 0)
                } else {
                    code(i as u8 - 9, 1)
                }
            }),
            // the wheel in one suit, the rest spread
            [48, 0, 4, 8, 12, 17, 21, 26, 30, 35, 39, 43, 47],
            // two suits of five or more holding the same ranks
            [2, 10, 18, 26, 34, 1, 9, 17, 25, 33, 48, 44, 40],
            // thirteen of one suit
            std::array::from_fn(|i| code(i as u8, 3)),
            // four trips and a card
            [0, 1, 2, 20, 21, 22, 36, 37, 38, 44, 45, 46, 51],
        ];
        hands.extend(random_hands(23, 1500));
        for wheel in [Wheel::Low, Wheel::Second] {
            let fc = FiveClasses::get(wheel);
            let mut s = Scratch::default();
            for hand in &hands {
                s.load(hand, wheel);
                let mut ranks: Vec<u32> = statics().five.iter().map(|&m| s.rank_of(m)).collect();
                ranks.sort_unstable();
                // category floors, ranks of the hand's own fives, and just above the strongest
                let mut cuts: Vec<u32> = (1..=8).map(|c| c << CATEGORY_SHIFT).collect();
                cuts.extend([700, 1000, 1200, 1250, 1286].map(|k| ranks[k]));
                cuts.push(ranks[1286] + 1);
                for cut in cuts.into_iter().filter(|&c| back_maker::serves(c)) {
                    let buckets_of = |s: &mut Scratch| {
                        let mut all = Vec::new();
                        while let Some((start, end)) = s.next_bucket() {
                            let mut b = s.sorted[start..end].to_vec();
                            b.sort_unstable();
                            all.push(b);
                        }
                        all
                    };
                    s.load_hand(hand, wheel);
                    s.load_fives(hand, fc, cut);
                    s.bucket_backs(cut);
                    let listed = buckets_of(&mut s);
                    s.load_hand(hand, wheel);
                    s.load_fives_unlisted(hand, fc);
                    s.n_sorted = 0;
                    s.maker = Some(BackMaker::new(hand, s.suits, s.counts(ALL13), cut));
                    let made = buckets_of(&mut s);
                    assert_eq!(made, listed, "{hand:?} {wheel:?} cut {cut:#x}");
                    let n: usize = made.iter().map(Vec::len).sum();
                    assert_eq!(s.n_sorted, n, "{hand:?} {wheel:?} cut {cut:#x}");
                }
            }
        }
    }

    #[test]
    fn bounds_hold_on_random_sets() {
        use rand::{RngCore, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for wheel in [Wheel::Low, Wheel::Second] {
            let mut s = Scratch::default();
            for _ in 0..3000 {
                let hand = random_hand(&mut rng);
                s.load(&hand, wheel);
                let set = ALL13 ^ statics().five[(rng.next_u64() % 1287) as usize];
                // the strongest row among `masks` inside `set`, by looking at every one
                let strongest = |masks: &[u16]| {
                    masks
                        .iter()
                        .filter(|&&m| m & set == m)
                        .map(|&m| s.rank_of(m))
                        .max()
                        .unwrap()
                };
                let exact5 = strongest(&statics().five);
                let exact3 = strongest(
                    &(0u16..1 << 13)
                        .filter(|m| m.count_ones() == 3)
                        .collect::<Vec<_>>(),
                );
                assert_eq!(best_front(s.counts(set)), exact3);
                let b = best_five(s.counts(set), wheel);
                assert_eq!(b, exact5, "{hand:?} {set:b}");
            }
        }
    }
}

#[cfg(test)]
mod class_layout {
    use super::*;
    use crate::solve::Classes;

    #[test]
    fn front_class_boundaries() {
        let f = &Classes::get(Wheel::Low).front;
        let category = |raw: u32| HandRank::category_index_of_raw(raw);
        assert_eq!(category(f[FIRST_PAIR_CLASS - 1]), 0);
        assert_eq!(category(f[FIRST_PAIR_CLASS]), 1);
        assert_eq!(category(f[FIRST_TRIPS_CLASS - 1]), 1);
        assert_eq!(category(f[FIRST_TRIPS_CLASS]), 3);
    }
}
