//! The backs at least as strong as the cut, made bucket by bucket (category and leading value,
//! strongest first) from the hand's ranks and suits when the walk asks for the next bucket,
//! instead of listed while the fives are ranked and counted into buckets: where the cut is a
//! pair or better, each category's fives have one shape of ranks (a pair and three kickers of
//! other ranks, two pairs and a kicker, …), so a bucket's fives are found without looking at
//! the others, and the buckets the walk never reaches are never made. A five's key is read
//! from the row table as the listing path reads it.

use super::{wheel_lead, Counts, Scratch, ALL13, SORTED, WHEEL13};
use crate::eval::{Category, Wheel, CATEGORY_SHIFT};

/// Where the making stands.
#[derive(Clone, Copy, Debug)]
pub(super) struct BackMaker {
    /// The cut as a key: a five is made when `rank << 13 | mask` is at least this.
    cut_key: u64,
    /// The cut's category and leading value.
    cut_category: u32,
    cut_lead: u32,
    /// The category being made, and its leading values (bit n: value n) not made yet.
    category: u32,
    leads: u16,
    /// Keys written to `sorted` so far.
    made: usize,
    /// Positions of each rank (index 0 = deuce; 16 long, so that any leading value less two
    /// indexes it).
    by_rank: [u16; 16],
    /// Each position's rank as a bit (bit r: rank r).
    rank_bit: [u16; 13],
    /// Ranks held twice or more, three times or more, four times (bit r: rank r).
    pairs: u16,
    trips: u16,
    quads: u16,
    /// Ranks held in any suit, and in each suit of five cards or more (else 0).
    present: u16,
    suit_ranks: [u16; 4],
}

/// Whether a cut is one the maker serves: a pair or stronger (every high-card five is below
/// it, and every other category's fives have one shape of ranks).
pub(super) fn serves(cut: u32) -> bool {
    cut >> CATEGORY_SHIFT >= Category::Pair as u32
}

/// The five ranks (indices, 0 = deuce) of the straight whose leading value is `lead`, if one
/// has it under `wheel`: ace-high leads with 15 and the wheel (ace to five) with 5 or 14.
fn straight_ranks(lead: u32, wheel: Wheel) -> Option<u16> {
    match lead {
        _ if lead == wheel_lead(wheel) => Some(WHEEL13),
        15 => Some(0b11111 << 8),
        6..=13 => Some(0b11111 << (lead - 6)),
        _ => None,
    }
}

/// The pairs of positions of one rank's (at most four), and how many.
#[inline(always)]
fn two_of(mask: u16) -> ([u16; 6], usize) {
    let (mut out, mut n) = ([0u16; 6], 0);
    let mut a_in = mask;
    while a_in != 0 {
        let a = a_in & a_in.wrapping_neg();
        a_in ^= a;
        let mut b_in = a_in;
        while b_in != 0 {
            let b = b_in & b_in.wrapping_neg();
            b_in ^= b;
            out[n] = a | b;
            n += 1;
        }
    }
    (out, n)
}

/// The threes of positions of one rank's (at most four), and how many: the rank's own three,
/// or each of four less one.
#[inline(always)]
fn three_of(mask: u16) -> ([u16; 4], usize) {
    let (mut out, mut n) = ([0u16; 4], 0);
    if mask.count_ones() == 3 {
        out[0] = mask;
        n = 1;
    } else if mask.count_ones() == 4 {
        let mut left = mask;
        while left != 0 {
            let b = left & left.wrapping_neg();
            left ^= b;
            out[n] = mask ^ b;
            n += 1;
        }
    }
    (out, n)
}

/// Each set bit of `mask`, lowest first, as a mask of its own (for the rare categories' nested
/// loops).
#[inline(always)]
fn each_bit(mut mask: u16, mut f: impl FnMut(u16)) {
    while mask != 0 {
        let b = mask & mask.wrapping_neg();
        f(b);
        mask ^= b;
    }
}

impl BackMaker {
    /// The maker for the loaded hand (`hand`'s codes, its suits' positions and its counts)
    /// and a cut it serves.
    pub(super) fn new(hand: &[u8; 13], suits: [u16; 4], counts: Counts, cut: u32) -> BackMaker {
        let (mut by_rank, mut rank_bit) = ([0u16; 16], [0u16; 13]);
        // the ranks seen once so far, twice, three and four times
        let (mut once, mut pairs, mut trips, mut quads) = (0u16, 0u16, 0u16, 0u16);
        for (i, &c) in hand.iter().enumerate() {
            let bit = 1u16 << (c >> 2 & 15);
            by_rank[(c >> 2) as usize & 15] |= 1 << i;
            rank_bit[i] = bit;
            quads |= trips & bit;
            trips |= pairs & bit;
            pairs |= once & bit;
            once |= bit;
        }
        // (each suit's ranks, from the counts)
        let in_suit = |s: usize| (counts.1 >> (16 * s)) as u16 & 0x1fff;
        let suit_ranks = std::array::from_fn(|s| match suits[s].count_ones() >= 5 {
            true => in_suit(s),
            false => 0,
        });
        BackMaker {
            cut_key: (cut as u64) << 13,
            cut_category: cut >> CATEGORY_SHIFT,
            cut_lead: cut >> super::BUCKET_SHIFT & 15,
            category: Category::StraightFlush as u32 + 1,
            leads: 0,
            made: 0,
            by_rank,
            rank_bit,
            pairs,
            trips,
            quads,
            present: once,
            suit_ranks,
        }
    }

    /// The leading values of `category` that some five of the hand may have (bit n: value n).
    fn leads_of(&self, category: u32, wheel: Wheel) -> u16 {
        // the leading values of the straights in a rank mask: a run of five from its lowest
        // rank leads with that rank's value + 4 (the ace's 15), the wheel with 5 or 14
        let straights = |ranks: u16| {
            let runs = ranks & ranks >> 1 & ranks >> 2 & ranks >> 3 & ranks >> 4;
            let leads = (runs as u32) << 6;
            let leads = leads & !(1 << 14) | (leads >> 14 & 1) << 15;
            (leads | ((ranks & WHEEL13 == WHEEL13) as u32) << wheel_lead(wheel)) as u16
        };
        match category {
            c if c == Category::StraightFlush as u32 => {
                self.suit_ranks.iter().fold(0, |m, &r| m | straights(r))
            }
            c if c == Category::Quads as u32 => self.quads << 2,
            c if c == Category::FullHouse as u32 && self.pairs.count_ones() >= 2 => self.trips << 2,
            c if c == Category::Flush as u32 => self.suit_ranks.iter().fold(0, |m, &r| m | r) << 2,
            c if c == Category::Straight as u32 => straights(self.present),
            c if c == Category::Trips as u32 => self.trips << 2,
            // the top pair of two: every pair but the lowest
            c if c == Category::TwoPair as u32 => (self.pairs & self.pairs.wrapping_sub(1)) << 2,
            c if c == Category::Pair as u32 => self.pairs << 2,
            _ => 0,
        }
    }
}

impl Scratch {
    /// The range in `sorted` of the next non-empty bucket the maker makes, strongest first, or
    /// `None` after the cut's (or without a maker).
    pub(super) fn make_next_bucket(&mut self) -> Option<(usize, usize)> {
        let wheel = self.wheel;
        let Scratch {
            maker,
            row,
            sorted,
            suits,
            n_sorted,
            ..
        } = self;
        let mk = maker.as_mut()?;
        loop {
            while mk.leads == 0 {
                if mk.category <= mk.cut_category {
                    return None;
                }
                mk.category -= 1;
                mk.leads = mk.leads_of(mk.category, wheel);
                if mk.category == mk.cut_category {
                    mk.leads &= !((1u16 << mk.cut_lead) - 1);
                }
            }
            let lead = 15 - mk.leads.leading_zeros();
            mk.leads &= !(1 << lead);
            let start = mk.made;
            mk.made = mk.make_bucket(lead, wheel, row, sorted, *suits);
            *n_sorted = mk.made;
            if mk.made > start {
                return Some((start, mk.made));
            }
        }
    }
}

impl BackMaker {
    /// Writes the keys of the fives of `self.category` leading with `lead` and at least the cut
    /// from `self.made` on in `sorted`; returns where they end.
    fn make_bucket(
        &self,
        lead: u32,
        wheel: Wheel,
        row: &[u64; 1 << 16],
        sorted: &mut [u64; SORTED],
        suits: [u16; 4],
    ) -> usize {
        let (by_rank, cut) = (&self.by_rank, self.cut_key);
        // (the write position in a register: every loop below is plain, no closure holds it)
        let mut at = self.made;
        let r = (lead as usize).wrapping_sub(2) & 15;
        let category = self.category;
        if category == Category::Pair as u32 {
            // two of the pair's cards and three of the others, of three different ranks: the
            // others listed rank by rank, so that each loop starts past the rank before it
            // (`above[i]`: where the ranks above `pos[i]`'s start) and makes only fives
            let (mut pos, mut above, mut k) = ([0u16; 16], [0usize; 16], 0usize);
            let mut ranks = self.present & !(1 << r);
            while ranks != 0 {
                let (q, start) = (ranks.trailing_zeros() as usize, k);
                ranks &= ranks - 1;
                each_bit(by_rank[q & 15], |b| {
                    pos[k & 15] = b;
                    k += 1;
                });
                above[start..k].fill(k);
            }
            let (pairs, n_pairs) = two_of(by_rank[r]);
            for &pair in &pairs[..n_pairs] {
                for i in 0..k {
                    for j in above[i]..k {
                        let m = pair | pos[i] | pos[j];
                        for &c in &pos[above[j]..k] {
                            at = put(row, sorted, at, cut, m | c, true);
                        }
                    }
                }
            }
        } else if category == Category::TwoPair as u32 {
            // the lower pair any held twice below, the kicker any card of a third rank
            let (highs, n_highs) = two_of(by_rank[r]);
            let mut below = self.pairs & ((1u16 << r) - 1);
            while below != 0 {
                let q = below.trailing_zeros() as usize;
                below &= below - 1;
                let kickers = ALL13 & !by_rank[r] & !by_rank[q];
                let (lows, n_lows) = two_of(by_rank[q]);
                for &high in &highs[..n_highs] {
                    for &low in &lows[..n_lows] {
                        let mut ks = kickers;
                        while ks != 0 {
                            let k = ks & ks.wrapping_neg();
                            ks ^= k;
                            at = put(row, sorted, at, cut, high | low | k, true);
                        }
                    }
                }
            }
        } else if category == Category::Trips as u32 {
            // two kickers of two other ranks
            let others = ALL13 & !by_rank[r];
            let (threes, n_threes) = three_of(by_rank[r]);
            for &three in &threes[..n_threes] {
                let mut a_in = others;
                while a_in != 0 {
                    let a = a_in & a_in.wrapping_neg();
                    a_in ^= a;
                    let rank_a = self.rank_bit[a.trailing_zeros() as usize % 13].trailing_zeros();
                    let mut b_in = a_in & !by_rank[rank_a as usize & 15];
                    while b_in != 0 {
                        let b = b_in & b_in.wrapping_neg();
                        b_in ^= b;
                        at = put(row, sorted, at, cut, three | a | b, true);
                    }
                }
            }
        } else if category == Category::Straight as u32 {
            // one card of each of the five ranks, not all of one suit (a straight flush)
            let w = straight_ranks(lead, wheel).unwrap_or(0);
            let mut ranks = [0u16; 5];
            let (mut n, mut left) = (0, w);
            while left != 0 {
                ranks[n] = by_rank[left.trailing_zeros() as usize];
                left &= left - 1;
                n += 1;
            }
            let one_suit = |m: u16| suits.iter().any(|&s| m & !s == 0);
            each_bit(ranks[0], |a| {
                each_bit(ranks[1], |b| {
                    each_bit(ranks[2], |c| {
                        each_bit(ranks[3], |d| {
                            each_bit(ranks[4], |e| {
                                let m = a | b | c | d | e;
                                at = put(row, sorted, at, cut, m, !one_suit(m));
                            })
                        })
                    })
                })
            });
        } else if category == Category::Flush as u32 {
            // the top card and four lower ones of its suit, but for straight flushes
            for s in suits {
                let top = by_rank[r] & s;
                if s.count_ones() < 5 || top == 0 {
                    continue;
                }
                let lower = by_rank[..r].iter().fold(0u16, |m, &p| m | p) & s;
                each_bit(lower, |a| {
                    each_bit(lower & !(a | (a - 1)), |b| {
                        each_bit(lower & !(b | (b - 1)), |c| {
                            each_bit(lower & !(c | (c - 1)), |d| {
                                let m = top | a | b | c | d;
                                let flush = row[m as usize] as u32 >> CATEGORY_SHIFT
                                    == Category::Flush as u32;
                                at = put(row, sorted, at, cut, m, flush);
                            })
                        })
                    })
                });
            }
        } else if category == Category::FullHouse as u32 {
            let (threes, n_threes) = three_of(by_rank[r]);
            let mut pairs = self.pairs & !(1 << r);
            while pairs != 0 {
                let q = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let (twos, n_twos) = two_of(by_rank[q]);
                for &three in &threes[..n_threes] {
                    for &two in &twos[..n_twos] {
                        at = put(row, sorted, at, cut, three | two, true);
                    }
                }
            }
        } else if category == Category::Quads as u32 {
            let four = by_rank[r];
            let mut ks = ALL13 & !four;
            while ks != 0 {
                let k = ks & ks.wrapping_neg();
                ks ^= k;
                at = put(row, sorted, at, cut, four | k, true);
            }
        } else if category == Category::StraightFlush as u32 {
            let w = straight_ranks(lead, wheel).unwrap_or(0);
            for s in suits {
                let (mut m, mut all, mut left) = (0u16, true, w);
                while left != 0 {
                    let card = by_rank[left.trailing_zeros() as usize] & s;
                    left &= left - 1;
                    all &= card != 0;
                    m |= card;
                }
                if all {
                    at = put(row, sorted, at, cut, m, true);
                }
            }
        }
        at
    }
}

/// Writes five `m`'s key at `at` and returns the next write position: past it when `keep` and
/// the key is at least `cut` (without a branch).
#[inline(always)]
fn put(
    row: &[u64; 1 << 16],
    sorted: &mut [u64; SORTED],
    at: usize,
    cut: u64,
    m: u16,
    keep: bool,
) -> usize {
    let key = (row[m as usize] as u32 as u64) << 13 | m as u64;
    sorted[at & (SORTED - 1)] = key;
    at + (keep & (key >= cut)) as usize
}
