//! A setting: 13 cards split into front (3), middle (5) and back (5).

use crate::card::{check_distinct, Card, CardSet};
use crate::error::{Error, Result};
use crate::eval::{Evaluator, HandRank, Wheel};
use crate::rules::Row;
use std::fmt;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Setting {
    pub front: [Card; 3],
    pub middle: [Card; 5],
    pub back: [Card; 5],
}

impl Setting {
    /// Checks row sizes and that the 13 cards are distinct; does not check for a foul.
    pub fn new(front: &[Card], middle: &[Card], back: &[Card]) -> Result<Setting> {
        for (row, cards) in [
            (Row::Front, front),
            (Row::Middle, middle),
            (Row::Back, back),
        ] {
            if cards.len() != row.cards() {
                return Err(Error::InvalidShape {
                    what: format!("{} row", row.name()),
                    expected: crate::error::count(row.cards(), "card"),
                    got: crate::error::count(cards.len(), "card"),
                });
            }
        }
        let all: Vec<Card> = front.iter().chain(middle).chain(back).copied().collect();
        check_distinct(&all)?;
        Ok(Setting {
            front: front.try_into().expect("checked length"),
            middle: middle.try_into().expect("checked length"),
            back: back.try_into().expect("checked length"),
        })
    }

    pub fn row(&self, row: Row) -> &[Card] {
        match row {
            Row::Front => &self.front,
            Row::Middle => &self.middle,
            Row::Back => &self.back,
        }
    }

    pub fn cards(&self) -> CardSet {
        CardSet::from_cards(&self.front)
            .union(CardSet::from_cards(&self.middle))
            .union(CardSet::from_cards(&self.back))
    }

    /// Ranks of front, middle, back.
    pub fn ranks(&self, wheel: Wheel) -> [HandRank; 3] {
        let ev = Evaluator::new(wheel);
        let codes = |cs: &[Card]| cs.iter().map(|c| c.code()).collect::<Vec<u8>>();
        [
            ev.eval_codes(&codes(&self.front)),
            ev.eval_codes(&codes(&self.middle)),
            ev.eval_codes(&codes(&self.back)),
        ]
    }

    /// Breaks back ≥ middle ≥ front (docs/rules.md, "The game"; equal rows are legal).
    pub fn is_foul(&self, wheel: Wheel) -> bool {
        let [f, m, b] = self.ranks(wheel);
        f > m || m > b
    }
}

impl Setting {
    /// The rows as people read them: each in [`crate::card::display_order`], suit symbols,
    /// `Q♠ Q♥ Q♦ / 5♠ 5♥ 5♦ K♠ K♥ / 9♠ 9♥ 9♦ 9♣ 2♠`. Display only; `Display` keeps the cards
    /// in the order they were set, as data.
    pub fn pretty(&self) -> String {
        let row = |cs: &[Card]| {
            crate::card::display_order(cs)
                .iter()
                .map(|c| c.pretty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{} / {} / {}",
            row(&self.front),
            row(&self.middle),
            row(&self.back)
        )
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |cs: &[Card]| {
            cs.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        write!(
            f,
            "{} / {} / {}",
            row(&self.front),
            row(&self.middle),
            row(&self.back)
        )
    }
}
