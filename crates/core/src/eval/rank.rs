//! `HandRank`: one ordered integer scale for 3- and 5-card rows.
//!
//! Layout of the `u32`: bits 21..25 the category, bits 1..21 five rank nibbles (most
//! significant first; a card rank is stored as 2..=14, an unused slot as 0), bit 0 set for a
//! 3-card row. A front has fewer significant nibbles than a middle of the same category and the
//! rest are 0 while a middle's are ≥ 2, so the raw order puts a front that ties a middle's
//! leading ranks *below* it: `front.raw() <= middle.raw()` is exactly the legality test of the
//! setting rule, with no special case in the solver's hot loop.
//!
//! Straights store only their top card: 5 for a low wheel, 6..=13 for six- to king-high, 14 for
//! a wheel ranked second, 15 for the ace-high straight.

use crate::card::{RANK_NAMES, RANK_PLURALS};
use std::cmp::Ordering;
use std::fmt;

/// Hand categories, weakest first.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Category {
    /// No pair.
    HighCard = 0,
    /// One pair.
    Pair = 1,
    /// Two pairs (5-card rows only).
    TwoPair = 2,
    /// Three of a kind.
    Trips = 3,
    /// Five ranks in a row.
    Straight = 4,
    /// Five cards of one suit.
    Flush = 5,
    /// Three of a kind and a pair.
    FullHouse = 6,
    /// Four of a kind.
    Quads = 7,
    /// A straight in one suit.
    StraightFlush = 8,
}

crate::named!(Category {
    HighCard => "high_card" / "high card",
    Pair => "pair",
    TwoPair => "two_pair" / "two pair",
    Trips => "trips" / "three of a kind",
    Straight => "straight",
    Flush => "flush",
    FullHouse => "full_house" / "full house",
    Quads => "quads" / "four of a kind",
    StraightFlush => "straight_flush" / "straight flush",
});

impl Category {
    /// The categories a 3-card front can hold.
    pub const FRONT: [Category; 3] = [Category::HighCard, Category::Pair, Category::Trips];
    /// The category of this index (0..9), `None` beyond.
    pub fn from_u8(v: u8) -> Option<Category> {
        Category::ALL.get(v as usize).copied()
    }
    /// Significant rank slots of a row of this category and size.
    pub const fn slots(self, front: bool) -> usize {
        match (self, front) {
            (Category::HighCard, true) => 3,
            (Category::Pair, true) => 2,
            (Category::Trips, true) => 1,
            (Category::HighCard | Category::Flush, _) => 5,
            (Category::Pair, _) => 4,
            (Category::TwoPair | Category::Trips, _) => 3,
            (Category::FullHouse | Category::Quads, _) => 2,
            (Category::Straight | Category::StraightFlush, _) => 1,
        }
    }
}

/// Where A-2-3-4-5 ranks among straights (and straight flushes).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Wheel {
    /// The lowest straight, top card five (MacePlay, PokerClub North, Western play).
    #[default]
    Low,
    /// Second-highest straight, just under 10-J-Q-K-A (PokerClub South, Shisanshui).
    Second,
}

// The names of rule-set data and of every `wheel=` argument.
crate::named!(Wheel { Low => "low", Second => "second" });

/// The rank of a 3- or 5-card row. Higher is stronger; see the module docs for the layout.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct HandRank(pub(crate) u32);

/// Bit position of the category in a raw rank (bits 21..25).
pub const CATEGORY_SHIFT: u32 = 21;
/// Bit positions of the five rank nibbles, most significant first.
pub const NIBBLE_SHIFT: [u32; 5] = [17, 13, 9, 5, 1];
/// One rank nibble (a value 0..=15).
pub const NIBBLE_MASK: u32 = 0xF;
/// Bit 0: set for a 3-card (front) row.
pub const FRONT_FLAG: u32 = 1;

impl HandRank {
    /// Builds a rank from its category and significant values (2..=14, or 5..=15 for a
    /// straight's top card).
    pub fn from_parts(category: Category, values: &[u8], front: bool) -> HandRank {
        debug_assert!(values.len() <= 5);
        let mut v = (category as u32) << CATEGORY_SHIFT | if front { FRONT_FLAG } else { 0 };
        for (i, &x) in values.iter().enumerate() {
            v |= (x as u32) << NIBBLE_SHIFT[i];
        }
        HandRank(v)
    }
    /// The raw value: a total order consistent with the setting rule (see module docs).
    pub const fn raw(self) -> u32 {
        self.0
    }
    /// Rebuilds a rank from `raw()`. No validation: meant for values this crate produced.
    pub const fn from_raw(raw: u32) -> HandRank {
        HandRank(raw)
    }
    /// The rank's category.
    pub fn category(self) -> Category {
        Category::ALL[HandRank::category_index_of_raw(self.0)]
    }
    /// The category index (0..=8) of a raw rank, without building a `HandRank`: the hot
    /// loops of scoring and the solver work on raw values. Clamped, so any `u32` is safe.
    #[inline]
    pub const fn category_index_of_raw(raw: u32) -> usize {
        let c = (raw >> CATEGORY_SHIFT) as usize;
        if c > Category::StraightFlush as usize {
            Category::StraightFlush as usize
        } else {
            c
        }
    }
    /// Whether a raw rank is a 3-card row's.
    #[inline]
    pub const fn is_front_raw(raw: u32) -> bool {
        raw & FRONT_FLAG == FRONT_FLAG
    }
    /// Rank nibble `i` (0 = most significant) of a raw rank: a card rank 2..=14, a straight's
    /// top 5..=15, or 0 for an unused slot.
    #[inline]
    pub const fn nibble_of_raw(raw: u32, i: usize) -> u32 {
        (raw >> NIBBLE_SHIFT[i]) & NIBBLE_MASK
    }
    /// The raw rank of a category with the given leading nibbles (the others 0), for building
    /// bounds and class boundaries; `front` sets the 3-card flag.
    #[inline]
    pub const fn raw_from_parts(category: u32, nibbles: [u32; 2], front: bool) -> u32 {
        category << CATEGORY_SHIFT
            | nibbles[0] << NIBBLE_SHIFT[0]
            | nibbles[1] << NIBBLE_SHIFT[1]
            | front as u32
    }
    /// Whether this is the front row (3 cards).
    pub const fn is_front(self) -> bool {
        HandRank::is_front_raw(self.0)
    }
    /// The row's number of cards: 3 for the front, 5 for the others.
    pub const fn size(self) -> usize {
        if self.is_front() {
            3
        } else {
            5
        }
    }
    /// The significant values, most significant first (2..=14; straights' top 5..=15).
    pub fn values(self) -> Vec<u8> {
        let n = self.category().slots(self.is_front());
        NIBBLE_SHIFT[..n]
            .iter()
            .map(|s| ((self.0 >> s) & NIBBLE_MASK) as u8)
            .collect()
    }

    /// Row comparison ([rules: Comparing rows](https://chinese-poker.github.io/chinese-poker/rules/#comparing-rows)): category, then significant ranks, comparing only as many
    /// as the shorter row has when a front meets a 5-card row of the same category, so that
    /// front K K Q equals middle K K Q J 10.
    pub fn row_cmp(self, other: HandRank) -> Ordering {
        let (a, b) = (self.category(), other.category());
        if a != b || self.is_front() == other.is_front() {
            return (self.0 >> 1).cmp(&(other.0 >> 1));
        }
        let n = a.slots(true);
        let mask: u32 = NIBBLE_SHIFT[..n]
            .iter()
            .fold(NIBBLE_MASK << CATEGORY_SHIFT, |m, s| m | NIBBLE_MASK << s);
        (self.0 & mask).cmp(&(other.0 & mask))
    }

    /// "pair of kings, ace kicker", "king-high straight", "queens full of fives", ...
    pub fn describe(self) -> String {
        let v = self.values();
        let name = |x: u8| RANK_NAMES[(x - 2) as usize];
        let plural = |x: u8| RANK_PLURALS[(x - 2) as usize];
        let straight_top = |x: u8| match x {
            15 => "ace",
            14 => "five",
            x => name(x),
        };
        let list = |ks: &[u8]| ks.iter().map(|&k| name(k)).collect::<Vec<_>>().join(", ");
        let kickers = |ks: &[u8]| -> String {
            match ks.len() {
                0 => String::new(),
                1 => format!(", {} kicker", name(ks[0])),
                _ => format!(", kickers {}", list(ks)),
            }
        };
        match self.category() {
            Category::HighCard => format!("{}-high{}", name(v[0]), kickers(&v[1..])),
            Category::Pair => format!("pair of {}{}", plural(v[0]), kickers(&v[1..])),
            Category::TwoPair => format!(
                "two pair, {} and {}{}",
                plural(v[0]),
                plural(v[1]),
                kickers(&v[2..])
            ),
            Category::Trips => format!("three {}{}", plural(v[0]), kickers(&v[1..])),
            Category::Straight if v[0] == 15 => "ace-high straight".to_string(),
            Category::Straight => format!("{}-high straight", straight_top(v[0])),
            Category::Flush => format!("{}-high flush, then {}", name(v[0]), list(&v[1..])),
            Category::FullHouse => format!("{} full of {}", plural(v[0]), plural(v[1])),
            Category::Quads => format!("four {}{}", plural(v[0]), kickers(&v[1..])),
            Category::StraightFlush if v[0] == 15 => "royal flush".to_string(),
            Category::StraightFlush => format!("{}-high straight flush", straight_top(v[0])),
        }
    }
}

impl fmt::Display for HandRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}
