//! A setting: 13 cards split into front (3), middle (5) and back (5).

use crate::card::{cards_from_codes, check_distinct, Card, CardSet};
use crate::error::{Error, Result};
use crate::eval::{Evaluator, HandRank, Wheel};
use crate::hand::Hand;
use crate::rules::Row;
use std::fmt;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
/// 13 cards set as three rows: front (3), middle (5), back (5).
pub struct Setting {
    /// The 3-card front row.
    pub front: [Card; 3],
    /// The 5-card middle row.
    pub middle: [Card; 5],
    /// The 5-card back row.
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

    /// The setting from 13 codes front (3), middle (5), back (5): the one reading of that
    /// layout (results, batch and simulation columns). Checks each code and that no card is
    /// there twice (errors name the 1-based position among the 13).
    pub fn from_codes(codes: &[u8; 13]) -> Result<Setting> {
        let c = cards_from_codes(codes)?;
        Ok(Setting {
            front: c[..3].try_into().expect("3 cards"),
            middle: c[3..8].try_into().expect("5 cards"),
            back: c[8..].try_into().expect("5 cards"),
        })
    }

    /// The 13 codes front, middle, back: the inverse of [`Setting::from_codes`].
    pub fn codes(&self) -> [u8; 13] {
        let mut out = [0u8; 13];
        for (slot, c) in out
            .iter_mut()
            .zip(self.front.iter().chain(&self.middle).chain(&self.back))
        {
            *slot = c.code();
        }
        out
    }

    /// The 13 cards as a hand, front, middle, back (distinct: [`Setting::new`] and
    /// [`Setting::from_codes`] check them).
    pub fn hand(&self) -> Hand {
        Hand::trusted(self.codes())
    }

    /// A setting of `hand` that is certainly fouled, for a seat that did not act under a rule
    /// set whose timeout fouls it: the strongest five of the 13 cards in the middle, the weakest
    /// five of the other eight in the back, the last three in front (the first such fives in
    /// the order of the hand's cards). The back is always strictly weaker than the middle:
    /// the eight cards' 56 fives cannot all share the strongest five's ranks.
    pub fn fouled(hand: &Hand, wheel: Wheel) -> Setting {
        let ev = Evaluator::new(wheel);
        let codes = hand.codes();
        // the first five (in combination order of `pool`) whose rank `better` prefers
        let pick = |pool: &[u8], better: &dyn Fn(HandRank, HandRank) -> bool| -> [u8; 5] {
            let mut best: Option<([u8; 5], HandRank)> = None;
            let n = pool.len();
            for a in 0..n {
                for b in a + 1..n {
                    for c in b + 1..n {
                        for d in c + 1..n {
                            for e in d + 1..n {
                                let five = [pool[a], pool[b], pool[c], pool[d], pool[e]];
                                let r = ev.eval5(five);
                                if best.is_none_or(|(_, br)| better(r, br)) {
                                    best = Some((five, r));
                                }
                            }
                        }
                    }
                }
            }
            best.expect("at least five cards").0
        };
        let middle = pick(codes, &|r, best| r > best);
        let rest: Vec<u8> = codes
            .iter()
            .copied()
            .filter(|c| !middle.contains(c))
            .collect();
        let back = pick(&rest, &|r, best| r < best);
        let front: Vec<u8> = rest.iter().copied().filter(|c| !back.contains(c)).collect();
        let mut out = [0u8; 13];
        out[..3].copy_from_slice(&front);
        out[3..8].copy_from_slice(&middle);
        out[8..].copy_from_slice(&back);
        let s = Setting::from_codes(&out).expect("the hand's own cards");
        debug_assert!(s.is_foul(wheel), "a fouled setting: {s}");
        s
    }

    /// A setting from text, front, middle and back separated by slashes
    /// (`"Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s"`): the one reader of that form (Python's
    /// `Setting.parse`, the command line's and the service's decisions). Each row is read by
    /// [`crate::card::parse_cards`]; an error there names its row.
    pub fn parse(text: &str) -> std::result::Result<Setting, SettingError> {
        let parts: Vec<&str> = text.split('/').collect();
        let [front, middle, back] = parts[..] else {
            return Err(Error::InvalidShape {
                what: "setting".into(),
                expected: "'front / middle / back'".into(),
                got: format!("{} part(s)", parts.len()),
            }
            .into());
        };
        let mut rows: [Vec<Card>; 3] = Default::default();
        for ((slot, row), text) in rows.iter_mut().zip(Row::ALL).zip([front, middle, back]) {
            *slot = crate::card::parse_cards(text).map_err(|error| SettingError {
                row: Some(row),
                error,
            })?;
        }
        Ok(Setting::new(&rows[0], &rows[1], &rows[2])?)
    }

    /// The cards of one row.
    pub fn row(&self, row: Row) -> &[Card] {
        match row {
            Row::Front => &self.front,
            Row::Middle => &self.middle,
            Row::Back => &self.back,
        }
    }

    /// All 13 cards.
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

    /// Breaks back ≥ middle ≥ front ([rules: The game](https://chinese-poker.github.io/chinese-poker/rules/#the-game); equal rows are legal).
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

/// Why a setting's text was refused: the core's error and the row it concerns (`None`: the
/// setting as a whole: its parts, its sizes, a card in two rows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingError {
    /// The row whose text was refused.
    pub row: Option<Row>,
    /// What was wrong.
    pub error: Error,
}

impl From<Error> for SettingError {
    fn from(error: Error) -> SettingError {
        SettingError { row: None, error }
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.row {
            Some(row) => write!(f, "{} row: {}", row.name(), self.error),
            None => self.error.fmt(f),
        }
    }
}

impl std::error::Error for SettingError {}

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
