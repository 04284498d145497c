//! A hand: the 13 distinct cards one seat is dealt, checked once when built.
//!
//! Everything that reads a whole hand (the solver, natural detection, the policies) takes a
//! [`Hand`], so that its cards are checked where it enters the core (the Python boundary, a
//! caller's codes) and trusted after; dealt hands are valid by construction.

use crate::card::{check_distinct, validate_rows, Card};
use crate::error::{count, Error, Result};

/// 13 distinct card codes (each below 52), in the order given.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Hand([u8; 13]);

impl Hand {
    /// Checks 13 codes: each a card code and no card twice (errors name the 1-based position).
    pub fn new(codes: [u8; 13]) -> Result<Hand> {
        validate_rows(&codes, 13, "hand")?;
        Ok(Hand(codes))
    }

    /// Checks that `cards` are 13 distinct cards.
    pub fn from_cards(cards: &[Card]) -> Result<Hand> {
        let codes: [u8; 13] = cards
            .iter()
            .map(|c| c.code())
            .collect::<Vec<u8>>()
            .try_into()
            .map_err(|_| Error::InvalidShape {
                what: "hand".into(),
                expected: "13 cards".into(),
                got: count(cards.len(), "card"),
            })?;
        check_distinct(cards)?;
        Ok(Hand(codes))
    }

    /// The hands of a flat row-major array of 13 codes a row (a batch); errors name the
    /// argument `what`, the 0-based row and the 1-based position.
    pub fn rows(flat: &[u8], what: &str) -> Result<Vec<Hand>> {
        validate_rows(flat, 13, what)?;
        Ok(flat
            .chunks_exact(13)
            .map(|c| Hand(c.try_into().expect("13 codes")))
            .collect())
    }

    /// Codes the core itself made valid (a deal, a setting's cards): not checked again.
    pub(crate) fn trusted(codes: [u8; 13]) -> Hand {
        debug_assert!(Hand::new(codes).is_ok(), "a valid hand: {codes:?}");
        Hand(codes)
    }

    /// The 13 codes, ascending.
    pub fn codes(&self) -> &[u8; 13] {
        &self.0
    }

    /// The 13 cards, ascending.
    pub fn cards(&self) -> [Card; 13] {
        // checked when built: no second check of each code
        self.0.map(|c| Card::new(c >> 2, c & 3))
    }
}

impl TryFrom<[u8; 13]> for Hand {
    type Error = Error;
    fn try_from(codes: [u8; 13]) -> Result<Hand> {
        Hand::new(codes)
    }
}

impl TryFrom<&[Card]> for Hand {
    type Error = Error;
    fn try_from(cards: &[Card]) -> Result<Hand> {
        Hand::from_cards(cards)
    }
}
