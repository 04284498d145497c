//! Cards as `u8` codes and sets of cards as `u64` masks.
//!
//! `code = rank * 4 + suit`, ranks 2..A = 0..12 and suits c, d, h, s = 0..3: the convention of
//! phevaluator and OMPEval, so arrays of codes move between those libraries and this one
//! unchanged.

use crate::error::{clip, Error, Result};
use std::fmt;

/// The rank characters, 2 to A, by rank index (0..13).
pub const RANK_CHARS: [char; 13] = [
    '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
];
/// The suit characters c d h s, by suit index (0..4).
pub const SUIT_CHARS: [char; 4] = ['c', 'd', 'h', 's'];
/// The suit symbols ♣ ♦ ♥ ♠, by suit index.
pub const SUIT_SYMBOLS: [char; 4] = ['♣', '♦', '♥', '♠'];
/// Text (U+FE0E) and emoji (U+FE0F) presentation selectors, ignored after a suit.
const VARIATION_SELECTORS: [char; 2] = ['\u{FE0E}', '\u{FE0F}'];
/// The ranks' names ("two" .. "ace"), by rank index.
pub const RANK_NAMES: [&str; 13] = [
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
    "king", "ace",
];
/// The ranks' plurals ("twos" .. "aces"), by rank index.
pub const RANK_PLURALS: [&str; 13] = [
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks",
    "queens", "kings", "aces",
];

/// One card of the 52-card deck.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Card(u8);

impl Card {
    /// A card from rank (0 = two .. 12 = ace) and suit (0..4 = c, d, h, s).
    pub const fn new(rank: u8, suit: u8) -> Card {
        debug_assert!(rank < 13 && suit < 4);
        Card(rank * 4 + suit)
    }

    /// A card from its code, checked.
    pub fn from_code(code: u8) -> Result<Card> {
        if code < 52 {
            Ok(Card(code))
        } else {
            Err(Error::InvalidCard {
                token: code.to_string(),
                position: 1,
                reason: "card codes are 0..=51".into(),
            })
        }
    }

    /// The card's code, `rank * 4 + suit` (0..52).
    pub const fn code(self) -> u8 {
        self.0
    }
    /// The rank index, 2..A = 0..12.
    pub const fn rank(self) -> u8 {
        self.0 >> 2
    }
    /// The suit index, c d h s = 0..3.
    pub const fn suit(self) -> u8 {
        self.0 & 3
    }
    /// The card's bit in a [`CardSet`] (`1 << code`).
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses one card such as `As`, `as`, `AS`, `10h`, `Th`, `A♠`, `A♠️`. `position` is only
    /// used in the error message.
    pub fn parse_token(token: &str, position: usize) -> Result<Card> {
        let bad = |reason: &str| Error::InvalidCard {
            token: clip(token),
            position,
            reason: reason.to_string(),
        };
        // Phones and chat apps type `♠` as `♠` + U+FE0F (emoji presentation), some fonts as
        // `♠` + U+FE0E (text presentation): the selector changes the glyph, not the card.
        let mut chars: Vec<char> = token
            .trim_end_matches(VARIATION_SELECTORS)
            .chars()
            .collect();
        let suit_char = chars.pop().ok_or_else(|| bad("empty card"))?;
        let suit = parse_suit(suit_char).ok_or_else(|| bad("unknown suit"))?;
        let rank_text: String = chars.into_iter().collect();
        let rank = parse_rank(&rank_text).ok_or_else(|| {
            if rank_text.is_empty() {
                bad("missing rank")
            } else {
                bad("unknown rank")
            }
        })?;
        Ok(Card::new(rank, suit))
    }

    /// Symbol form, `A♠`.
    pub fn pretty(self) -> String {
        format!(
            "{}{}",
            RANK_CHARS[self.rank() as usize],
            SUIT_SYMBOLS[self.suit() as usize]
        )
    }
}

fn parse_suit(c: char) -> Option<u8> {
    match c {
        'c' | 'C' | '♣' | '♧' => Some(0),
        'd' | 'D' | '♦' | '♢' => Some(1),
        'h' | 'H' | '♥' | '♡' => Some(2),
        's' | 'S' | '♠' | '♤' => Some(3),
        _ => None,
    }
}

fn parse_rank(text: &str) -> Option<u8> {
    if text == "10" {
        return Some(8);
    }
    let mut it = text.chars();
    let c = it.next()?;
    if it.next().is_some() {
        return None;
    }
    RANK_CHARS
        .iter()
        .position(|&r| r == c.to_ascii_uppercase())
        .map(|i| i as u8)
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            RANK_CHARS[self.rank() as usize],
            SUIT_CHARS[self.suit() as usize]
        )
    }
}

impl std::str::FromStr for Card {
    type Err = Error;
    fn from_str(s: &str) -> Result<Card> {
        Card::parse_token(s.trim(), 1)
    }
}

/// Parses cards separated by spaces and/or commas. Positions in errors are 1-based token
/// indices. Duplicates are rejected: no row, hand or deal holds a card twice.
pub fn parse_cards(text: &str) -> Result<Vec<Card>> {
    let cards = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| Card::parse_token(t, i + 1))
        .collect::<Result<Vec<Card>>>()?;
    check_distinct(&cards)?;
    Ok(cards)
}

/// Fails with `DuplicateCard` (1-based positions) if a card appears twice.
pub fn check_distinct(cards: &[Card]) -> Result<()> {
    // a mask, not a table of positions: this runs on every per-call evaluation
    let mut seen = 0u64;
    for (i, c) in cards.iter().enumerate() {
        if seen & c.bit() != 0 {
            let first = cards.iter().position(|x| x == c).unwrap_or(i) + 1;
            return Err(Error::DuplicateCard {
                card: c.to_string(),
                first,
                second: i + 1,
            });
        }
        seen |= c.bit();
    }
    Ok(())
}

/// Checks raw codes: each in 0..52 and, if `distinct`, no repeats.
pub fn cards_from_codes(codes: &[u8]) -> Result<Vec<Card>> {
    let cards = codes
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            Card::from_code(c).map_err(|_| Error::InvalidCard {
                token: c.to_string(),
                position: i + 1,
                reason: "card codes are 0..=51".into(),
            })
        })
        .collect::<Result<Vec<Card>>>()?;
    check_distinct(&cards)?;
    Ok(cards)
}

/// Checks a row-major batch of codes, `width` per row: every code < 52 and no card twice in a
/// row. The error names the row (0-based, as numpy indexes it) and the 1-based position.
pub fn validate_rows(codes: &[u8], width: usize, what: &str) -> Result<()> {
    for (row, chunk) in codes.chunks(width.max(1)).enumerate() {
        let mut seen = 0u64;
        for (i, &c) in chunk.iter().enumerate() {
            if c >= 52 {
                return Err(Error::InvalidCard {
                    token: c.to_string(),
                    position: i + 1,
                    reason: format!("{what} row {row}: card codes are 0..=51"),
                });
            }
            if seen & (1u64 << c) != 0 {
                let first = chunk.iter().position(|&x| x == c).unwrap_or(0) + 1;
                return Err(Error::DuplicateCard {
                    card: format!("{} in {what} row {row}", Card(c)),
                    first,
                    second: i + 1,
                });
            }
            seen |= 1u64 << c;
        }
    }
    Ok(())
}

/// A set of cards as a bitmask over codes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct CardSet(pub u64);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const FULL_DECK: CardSet = CardSet((1u64 << 52) - 1);

    /// The set of these cards (a card given twice is in it once).
    pub fn from_cards(cards: &[Card]) -> CardSet {
        CardSet(cards.iter().fold(0, |m, c| m | c.bit()))
    }
    /// How many cards the set holds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// Whether the set holds no card.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Whether the set holds `c`.
    pub const fn contains(self, c: Card) -> bool {
        self.0 & c.bit() != 0
    }
    /// The set with `c` added.
    pub const fn insert(self, c: Card) -> CardSet {
        CardSet(self.0 | c.bit())
    }
    /// The cards in either set.
    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }
    /// The cards of this set that are not in `o`.
    pub const fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }
    /// Whether the sets share a card.
    pub const fn intersects(self, o: CardSet) -> bool {
        self.0 & o.0 != 0
    }
    /// Cards from highest code to lowest (aces first), the order people read a hand in.
    pub fn cards_desc(self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len() as usize);
        let mut m = self.0;
        while m != 0 {
            let hi = 63 - m.leading_zeros();
            out.push(Card(hi as u8));
            m &= !(1u64 << hi);
        }
        out
    }
}

/// The one order every row is printed in (display only: settings keep the order they were
/// given in as data). Cards of a rank held more often come first (quads, trips, pairs), then
/// higher ranks; a wheel straight (A 2 3 4 5) reads from its five (5 4 3 2 A), since that is
/// how it ranks; within a rank, suits from spades down. So a row reads the way its rank is
/// described: "Q♠ Q♥ 5♠ 5♦ A♣" is two pair, queens and fives, ace kicker.
pub fn display_order(cards: &[Card]) -> Vec<Card> {
    let mut counts = [0u8; 13];
    for c in cards {
        counts[c.rank() as usize] += 1;
    }
    let distinct = counts.iter().filter(|&&n| n > 0).count();
    let wheel =
        cards.len() == 5 && distinct == 5 && [12usize, 0, 1, 2, 3].iter().all(|&r| counts[r] == 1);
    let key = |c: &Card| {
        let rank = if wheel && c.rank() == 12 {
            0
        } else {
            c.rank() + 1
        };
        (counts[c.rank() as usize], rank, c.suit())
    };
    let mut out = cards.to_vec();
    out.sort_by_key(|c| std::cmp::Reverse(key(c)));
    out
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.cards_desc().iter().map(|c| c.to_string()).collect();
        write!(f, "{}", parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(text: &str) -> String {
        let cards = parse_cards(text).unwrap();
        let shown: Vec<String> = display_order(&cards)
            .iter()
            .map(|c| c.to_string())
            .collect();
        shown.join(" ")
    }

    #[test]
    fn rows_display_by_significance() {
        assert_eq!(order("5s Kh 5h Ks 5d"), "5s 5h 5d Ks Kh");
        assert_eq!(order("2c Qs 5d Qh 5s"), "Qs Qh 5s 5d 2c");
        assert_eq!(order("Ah 3c 5d 4s 2h"), "5d 4s 3c 2h Ah");
        assert_eq!(order("Th Ah Jh Qh Kh"), "Ah Kh Qh Jh Th");
        assert_eq!(order("2c Ac Kc"), "Ac Kc 2c");
        assert_eq!(order("Kc Ah Kd"), "Kd Kc Ah");
        assert_eq!(order("9c 2s 9s 9h 9d"), "9s 9h 9d 9c 2s");
    }

    #[test]
    fn every_spelling_round_trips() {
        for code in 0..52u8 {
            let c = Card::from_code(code).unwrap();
            let r = RANK_CHARS[c.rank() as usize];
            let s = SUIT_CHARS[c.suit() as usize];
            let mut spellings = vec![
                format!("{r}{s}"),
                format!("{}{}", r.to_ascii_lowercase(), s),
                format!("{r}{}", s.to_ascii_uppercase()),
                c.pretty(),
            ];
            if r == 'T' {
                spellings.push(format!("10{s}"));
            }
            for sp in spellings {
                assert_eq!(sp.parse::<Card>().unwrap(), c, "{sp}");
            }
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
    }

    #[test]
    fn codes_follow_phevaluator_convention() {
        assert_eq!("2c".parse::<Card>().unwrap().code(), 0);
        assert_eq!("2s".parse::<Card>().unwrap().code(), 3);
        assert_eq!("As".parse::<Card>().unwrap().code(), 51);
    }

    #[test]
    fn errors_name_token_and_position() {
        let e = parse_cards("As Kd Xh").unwrap_err();
        assert!(matches!(e, Error::InvalidCard { ref token, position: 3, .. } if token == "Xh"));
        let e = parse_cards("As, Kd, as").unwrap_err();
        assert!(matches!(
            e,
            Error::DuplicateCard {
                first: 1,
                second: 3,
                ..
            }
        ));
        assert!(parse_cards("1h").is_err());
        assert!(parse_cards("Ax").is_err());
        assert!(parse_cards("11h").is_err());
    }

    #[test]
    fn emoji_suits_parse() {
        let want = vec![Card::new(12, 3), Card::new(11, 2)];
        assert_eq!(parse_cards("A♠\u{FE0F} K♥\u{FE0E}").unwrap(), want);
        assert_eq!(parse_cards("A♠\u{FE0F},K♥").unwrap(), want);
        assert!(parse_cards("\u{FE0F}").is_err());
        assert!(parse_cards("A\u{FE0F}").is_err());
    }

    #[test]
    fn a_huge_token_is_not_echoed_whole() {
        let text = format!("As {}", "x".repeat(10_000_000));
        let message = parse_cards(&text).unwrap_err().to_string();
        assert!(message.len() < 200, "{}", &message[..200]);
        assert!(
            message.contains("'xxxxxxxxxxxxxxxxxxxx…' at position 2"),
            "{message}"
        );
    }
}
