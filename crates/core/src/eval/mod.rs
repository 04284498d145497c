//! Row evaluation: 5-card and 3-card rows onto one ordered [`HandRank`] scale.
//!
//! [`Evaluator`] is the fast path (table lookups on raw `u8` codes, no validation);
//! [`evaluate`] is the checked entry point for cards of any origin.

mod rank;
pub(crate) mod tables;

pub use rank::{Category, HandRank, Wheel, CATEGORY_SHIFT, FRONT_FLAG, NIBBLE_MASK, NIBBLE_SHIFT};

use crate::card::Card;
use crate::error::{Error, Result};
use std::sync::OnceLock;
use tables::{tables, wheel_index, Tables};

/// A fast evaluator bound to one wheel option. Cheap to copy; build one per thread or batch.
#[derive(Copy, Clone)]
pub struct Evaluator {
    t: &'static Tables,
    w: usize,
}

impl Evaluator {
    /// An evaluator for this wheel.
    pub fn new(wheel: Wheel) -> Evaluator {
        Evaluator {
            t: tables(),
            w: wheel_index(wheel),
        }
    }

    /// Rank of 5 distinct card codes (each < 52). Unchecked beyond debug assertions.
    #[inline]
    pub fn eval5(&self, c: [u8; 5]) -> HandRank {
        debug_assert!(c.iter().all(|&x| x < 52));
        let t = self.t;
        let suit_diff = (c[0] ^ c[1]) | (c[0] ^ c[2]) | (c[0] ^ c[3]) | (c[0] ^ c[4]);
        if suit_diff & 3 == 0 {
            let mask = c.iter().fold(0usize, |m, &x| m | 1 << (x >> 2));
            return HandRank(t.flush5[self.w][mask]);
        }
        let key = c.iter().map(|&x| t.card_weight[x as usize]).sum::<u32>();
        let id = t.key5[key as usize];
        HandRank(t.multiset5[self.w][id as usize])
    }

    /// Rank of 3 distinct card codes (each < 52) as a front row. Unchecked.
    #[inline]
    pub fn eval3(&self, c: [u8; 3]) -> HandRank {
        debug_assert!(c.iter().all(|&x| x < 52));
        let i = (c[0] >> 2) as usize * 169 + (c[1] >> 2) as usize * 13 + (c[2] >> 2) as usize;
        HandRank(self.t.rank3[i])
    }

    /// Rank of a 3- or 5-card row given as codes; the caller guarantees validity.
    #[inline]
    pub fn eval_codes(&self, codes: &[u8]) -> HandRank {
        match *codes {
            [a, b, c] => self.eval3([a, b, c]),
            [a, b, c, d, e] => self.eval5([a, b, c, d, e]),
            _ => panic!("rows have 3 or 5 cards"),
        }
    }
}

impl HandRank {
    /// Rebuilds a rank from an untrusted `raw()` value: `None` unless some 3- or 5-card row has
    /// this rank under some wheel option. Every other method assumes such a value (`describe`
    /// indexes rank names by the stored values).
    pub fn checked_from_raw(raw: u32) -> Option<HandRank> {
        static VALID: OnceLock<Vec<u32>> = OnceLock::new();
        let valid = VALID.get_or_init(|| {
            let t = tables();
            let mut all: Vec<u32> = t.multiset5.iter().flatten().copied().collect();
            // flush5 is indexed by any 13-bit mask; only 5-bit masks hold a rank, the rest are 0
            all.extend(t.flush5.iter().flatten().filter(|&&r| r != 0));
            all.extend(&t.rank3);
            all.sort_unstable();
            all.dedup();
            all
        });
        valid.binary_search(&raw).is_ok().then_some(HandRank(raw))
    }
}

/// Checked evaluation of one row of 3 or 5 distinct cards.
pub fn evaluate(cards: &[Card], wheel: Wheel) -> Result<HandRank> {
    if cards.len() != 3 && cards.len() != 5 {
        return Err(Error::InvalidShape {
            what: "row".into(),
            expected: "3 or 5 cards".into(),
            got: crate::error::count(cards.len(), "card"),
        });
    }
    crate::card::check_distinct(cards)?;
    let codes: Vec<u8> = cards.iter().map(|c| c.code()).collect();
    Ok(Evaluator::new(wheel).eval_codes(&codes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;
    use std::cmp::Ordering;

    fn ev(s: &str, w: Wheel) -> HandRank {
        evaluate(&parse_cards(s).unwrap(), w).unwrap()
    }

    #[test]
    fn front_against_middle_follows_the_prefix_rule() {
        let w = Wheel::Low;
        // K K A in front beats K K Q J 10 in the middle: a foul.
        let (f, m) = (ev("Kc Kd Ah", w), ev("Ks Kh Qc Jd Th", w));
        assert_eq!(f.row_cmp(m), Ordering::Greater);
        assert!(f.raw() > m.raw());
        // swapped: legal
        let (f, m) = (ev("Kc Kd Qh", w), ev("Ks Kh Ac Jd Th", w));
        assert_eq!(f.row_cmp(m), Ordering::Less);
        assert!(f.raw() < m.raw());
        // equal leading ranks: the rows are equal, and equality is legal
        let (f, m) = (ev("Kc Kd Qh", w), ev("Ks Kh Qc Jd Th", w));
        assert_eq!(f.row_cmp(m), Ordering::Equal);
        assert!(f.raw() < m.raw());
        // any 5-card category above trips beats any front
        assert!(ev("Ac Ad Ah", w) < ev("2c 3d 4h 5s 6c", w));
    }

    #[test]
    fn wheel_option_moves_the_wheel() {
        for (w, expect_below_six_high) in [(Wheel::Low, true), (Wheel::Second, false)] {
            let wheel = ev("Ac 2d 3h 4s 5c", w);
            let six = ev("2c 3d 4h 5s 6c", w);
            let broadway = ev("Tc Jd Qh Ks Ac", w);
            assert_eq!(wheel < six, expect_below_six_high);
            assert!(wheel < broadway);
            assert_eq!(wheel.category(), Category::Straight);
        }
        assert_eq!(
            ev("Jc Qd Kh As 2c", Wheel::Low).category(),
            Category::HighCard
        );
        assert_eq!(
            ev("Ah 2h 3h 4h 5h", Wheel::Second).describe(),
            "five-high straight flush"
        );
        assert_eq!(ev("Ah Kh Qh Jh Th", Wheel::Low).describe(), "royal flush");
    }

    #[test]
    fn checked_from_raw_accepts_exactly_the_ranks_rows_have() {
        for s in [
            "Kc Kd Ah",
            "Ac 2d 3h 4s 5c",
            "Ah Kh Qh Jh Th",
            "2c 3d 4h 5s 7c",
        ] {
            for w in [Wheel::Low, Wheel::Second] {
                let r = ev(s, w);
                assert_eq!(HandRank::checked_from_raw(r.raw()), Some(r));
            }
        }
        // a high card led by 15, a value only an ace-high straight stores: no row has it
        let bogus = [15, 14, 13, 12, 11]
            .iter()
            .zip(NIBBLE_SHIFT)
            .fold(0u32, |raw, (&v, shift)| raw | v << shift);
        assert_eq!(HandRank::checked_from_raw(bogus), None);
        assert_eq!(HandRank::checked_from_raw(0), None);
        assert_eq!(HandRank::checked_from_raw(u32::MAX), None);
    }

    #[test]
    fn descriptions() {
        let w = Wheel::Low;
        assert_eq!(ev("Kc Kd Ah", w).describe(), "pair of kings, ace kicker");
        assert_eq!(ev("Qc Qd Qh 5s 5c", w).describe(), "queens full of fives");
        assert_eq!(ev("9c 9d 9h 9s 2c", w).describe(), "four nines, two kicker");
    }
}
