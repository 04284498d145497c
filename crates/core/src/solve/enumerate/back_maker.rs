//! The backs at least as strong as the cut, made bucket by bucket (category and leading value,
//! strongest first) from the hand's ranks and suits when the walk asks for the next bucket,
//! instead of listed while the fives are ranked and counted into buckets: where the cut is a
//! pair or better, each category's fives have one shape of ranks (a pair and three kickers of
//! other ranks, two pairs and a kicker, …), so a bucket's fives are found without looking at
//! the others, and the buckets the walk never reaches are never made. A five's key is read
//! from the row table as the listing path reads it.

use super::{Counts, Scratch, ALL13, SORTED};
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
    const WHEEL: u16 = 1 << 12 | 0b1111;
    match (lead, wheel) {
        (15, _) => Some(0b11111 << 8),
        (6..=13, _) => Some(0b11111 << (lead - 6)),
        (14, Wheel::Second) | (5, Wheel::Low) => Some(WHEEL),
        _ => None,
    }
}

/// Each k-subset of the positions in `mask`, for masks of at most four positions (one rank's).
#[inline(always)]
fn subsets(mask: u16, k: u32, mut f: impl FnMut(u16)) {
    match mask.count_ones().cmp(&k) {
        std::cmp::Ordering::Less => {}
        std::cmp::Ordering::Equal => f(mask),
        std::cmp::Ordering::Greater => {
            // k = n − 1: leave one out; otherwise (two of three or four) pairs of positions
            if k + 1 == mask.count_ones() {
                bits(mask, |b| f(mask ^ b));
            } else {
                bits(mask, |a| bits(mask & !(a | (a - 1)), |b| f(a | b)));
            }
        }
    }
}

/// Each set bit of `mask`, lowest first, as a mask of its own.
#[inline(always)]
fn bits(mut mask: u16, mut f: impl FnMut(u16)) {
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
        let mut by_rank = [0u16; 16];
        for (i, &c) in hand.iter().enumerate() {
            by_rank[(c >> 2) as usize & 15] |= 1 << i;
        }
        let rank_bit = hand.map(|c| 1u16 << (c >> 2 & 15));
        let (mut pairs, mut trips, mut quads) = (0u16, 0u16, 0u16);
        for (r, &p) in by_rank[..13].iter().enumerate() {
            let n = p.count_ones();
            pairs |= ((n >= 2) as u16) << r;
            trips |= ((n >= 3) as u16) << r;
            quads |= ((n == 4) as u16) << r;
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
            present: (0..4).fold(0, |m, s| m | in_suit(s)),
            suit_ranks,
        }
    }

    /// The leading values of `category` that some five of the hand may have (bit n: value n).
    fn leads_of(&self, category: u32, wheel: Wheel) -> u16 {
        // the leading values of the straights in a rank mask: a run of five from its lowest
        // rank leads with that rank's value + 4 (the ace's 15), the wheel with 5 or 14
        let straights = |ranks: u16| {
            const WHEEL: u16 = 1 << 12 | 0b1111;
            let runs = ranks & ranks >> 1 & ranks >> 2 & ranks >> 3 & ranks >> 4;
            let leads = (runs as u32) << 6;
            let leads = leads & !(1 << 14) | (leads >> 14 & 1) << 15;
            let wheel_lead = match wheel {
                Wheel::Low => 5,
                Wheel::Second => 14,
            };
            (leads | ((ranks & WHEEL == WHEEL) as u32) << wheel_lead) as u16
        };
        let flush_suits = self.suit_ranks.iter().fold(0, |m, &r| m | r);
        match category {
            c if c == Category::StraightFlush as u32 => {
                self.suit_ranks.iter().fold(0, |m, &r| m | straights(r))
            }
            c if c == Category::Quads as u32 => self.quads << 2,
            c if c == Category::FullHouse as u32 && self.pairs.count_ones() >= 2 => self.trips << 2,
            c if c == Category::Flush as u32 => flush_suits << 2,
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
    /// `None` after the cut's.
    pub(super) fn make_next_bucket(&mut self, mut mk: BackMaker) -> Option<(usize, usize)> {
        loop {
            while mk.leads == 0 {
                if mk.category <= mk.cut_category {
                    self.maker = Some(mk);
                    return None;
                }
                mk.category -= 1;
                mk.leads = mk.leads_of(mk.category, self.wheel);
                if mk.category == mk.cut_category {
                    mk.leads &= !((1u16 << mk.cut_lead) - 1);
                }
            }
            let lead = 15 - mk.leads.leading_zeros();
            mk.leads &= !(1 << lead);
            let start = mk.made;
            mk.made = self.make_bucket(&mk, lead);
            self.n_sorted = mk.made;
            if mk.made > start {
                count!(self, buckets, 1);
                count!(self, backs_past_cut, mk.made - start);
                self.maker = Some(mk);
                return Some((start, mk.made));
            }
        }
    }

    /// Writes the keys of the fives of `mk.category` leading with `lead` and at least the cut
    /// from `mk.made` on in `sorted`; returns where they end.
    fn make_bucket(&mut self, mk: &BackMaker, lead: u32) -> usize {
        let wheel = self.wheel;
        let Scratch {
            row, sorted, suits, ..
        } = self;
        let suits = *suits;
        let by_rank = &mk.by_rank;
        let mut out = Out {
            row,
            sorted,
            at: mk.made,
            cut_key: mk.cut_key,
        };
        let mut emit = |m: u16, keep: bool| out.push(m, keep);
        let one_suit = |m: u16| suits.iter().any(|&s| m & !s == 0);
        let r = (lead as usize).wrapping_sub(2) & 15;
        let category = mk.category;
        if category == Category::Pair as u32 {
            // two of the pair's cards and three of the others, of three different ranks
            let others = ALL13 & !by_rank[r];
            let (mut pos, mut rank_bit, mut k) = ([0u16; 16], [0u16; 16], 0usize);
            bits(others, |b| {
                pos[k] = b;
                rank_bit[k] = mk.rank_bit[b.trailing_zeros() as usize % 13];
                k += 1;
            });
            subsets(by_rank[r], 2, |pair| {
                for i in 0..k {
                    for j in i + 1..k {
                        if rank_bit[i] & rank_bit[j] != 0 {
                            continue;
                        }
                        let (m, seen) = (pair | pos[i] | pos[j], rank_bit[i] | rank_bit[j]);
                        for l in j + 1..k {
                            emit(m | pos[l], seen & rank_bit[l] == 0);
                        }
                    }
                }
            });
        } else if category == Category::TwoPair as u32 {
            // the lower pair any held twice below, the kicker any card of a third rank
            let below = mk.pairs & ((1u16 << r) - 1);
            bits(below, |q| {
                let q = q.trailing_zeros() as usize;
                let kickers = ALL13 & !by_rank[r] & !by_rank[q];
                subsets(by_rank[r], 2, |high| {
                    subsets(by_rank[q], 2, |low| {
                        bits(kickers, |k| emit(high | low | k, true))
                    })
                });
            });
        } else if category == Category::Trips as u32 {
            // two kickers of two other ranks
            let others = ALL13 & !by_rank[r];
            subsets(by_rank[r], 3, |three| {
                bits(others, |a| {
                    let rank_a = mk.rank_bit[a.trailing_zeros() as usize % 13].trailing_zeros();
                    let b_in = others & !(a | (a - 1)) & !by_rank[rank_a as usize & 15];
                    bits(b_in, |b| emit(three | a | b, true))
                })
            });
        } else if category == Category::Straight as u32 {
            // one card of each of the five ranks, not all of one suit (a straight flush)
            let w = straight_ranks(lead, wheel).unwrap_or(0);
            let mut ranks = [0u16; 5];
            let mut n = 0;
            bits(w, |b| {
                ranks[n] = by_rank[b.trailing_zeros() as usize];
                n += 1;
            });
            bits(ranks[0], |a| {
                bits(ranks[1], |b| {
                    bits(ranks[2], |c| {
                        bits(ranks[3], |d| {
                            bits(ranks[4], |e| {
                                let m = a | b | c | d | e;
                                emit(m, !one_suit(m))
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
                bits(lower, |a| {
                    bits(lower & !(a | (a - 1)), |b| {
                        bits(lower & !(b | (b - 1)), |c| {
                            bits(lower & !(c | (c - 1)), |d| {
                                let m = top | a | b | c | d;
                                let flush = row[m as usize] as u32 >> CATEGORY_SHIFT
                                    == Category::Flush as u32;
                                emit(m, flush)
                            })
                        })
                    })
                });
            }
        } else if category == Category::FullHouse as u32 {
            let pairs = mk.pairs & !(1 << r);
            subsets(by_rank[r], 3, |three| {
                bits(pairs, |q| {
                    subsets(by_rank[q.trailing_zeros() as usize], 2, |two| {
                        emit(three | two, true)
                    })
                })
            });
        } else if category == Category::Quads as u32 {
            let four = by_rank[r];
            bits(ALL13 & !four, |k| emit(four | k, true));
        } else if category == Category::StraightFlush as u32 {
            let w = straight_ranks(lead, wheel).unwrap_or(0);
            for s in suits {
                let mut m = 0u16;
                let mut all = true;
                bits(w, |b| {
                    let card = by_rank[b.trailing_zeros() as usize] & s;
                    all &= card != 0;
                    m |= card;
                });
                if all {
                    emit(m, true);
                }
            }
        }
        out.at
    }
}

/// Where a bucket's keys go.
struct Out<'a> {
    row: &'a [u64; 1 << 16],
    sorted: &'a mut [u64; SORTED],
    at: usize,
    cut_key: u64,
}

impl Out<'_> {
    /// Writes the key of five `m`, kept when `keep` and at least the cut (without a branch).
    #[inline(always)]
    fn push(&mut self, m: u16, keep: bool) {
        let key = (self.row[m as usize] as u32 as u64) << 13 | m as u64;
        self.sorted[self.at & (SORTED - 1)] = key;
        self.at += (keep & (key >= self.cut_key)) as usize;
    }
}
