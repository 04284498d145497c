//! Naturals: special 13-card hands that win at once ([rules: Naturals](https://chinese-poker.github.io/chinese-poker/rules/#naturals)).
//!
//! Detection works on the 13 cards alone. Three naturals are defined by how the cards can be
//! laid out in rows — three flushes, three straights, three straight flushes — and for those the
//! detector also returns a legal setting that displays the natural (each row a flush / straight
//! / straight flush, back ≥ middle ≥ front), because some rule sets make the rows show it.
//!
//! Definitions used (each a partition of the 13 cards):
//! - *six pairs*: six pairs and a single; a four of a kind is two pairs and a three of a kind a
//!   pair plus the single, so the test is `Σ ⌊count/2⌋ = 6`;
//! - *five pairs + trips*: exactly five pairs and one three of a kind, a four of a kind being two
//!   pairs (no single is left over);
//! - *four trips*: four three-of-a-kinds and one more card (a four of a kind holds a trips);
//! - *three quads*: three four-of-a-kinds and one more card;
//! - *twelve of one colour*: at least twelve red (♦♥) or at least twelve black (♣♠) cards, so a
//!   thirteen-of-one-colour hand holds it too (the more valuable one is declared);
//! - *twelve royals*: all thirteen cards J, Q, K or A; *all big*: all 8..A; *all small*: 2..8;
//! - rows for the three-row naturals: the front is a 3-card flush / straight, where A-2-3 and
//!   Q-K-A are straights and K-A-2 is not; a 5-card straight is A-2-3-4-5 up to 10-J-Q-K-A under
//!   either wheel option (the option only ranks straights, it never removes one); a straight
//!   flush row counts as a flush and as a straight.

use crate::card::{Card, CardSet};
use crate::eval::{Evaluator, Wheel};
use crate::hand::Hand;
use crate::rules::{NaturalKind, NaturalRule, Rules};
use crate::setting::Setting;

/// A natural the hand holds, with the rule set's value for it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct NaturalMatch {
    /// Which natural.
    pub kind: NaturalKind,
    /// What each opponent pays for it under the rule set.
    pub value: u32,
    /// For the three-row naturals, a legal setting whose rows display it; `None` for the others
    /// (no row arrangement is implied).
    pub setting: Option<Setting>,
}

const ACE: u8 = 12;

/// 13-bit rank masks of the ten 5-card straights, A-2-3-4-5 first.
const STRAIGHTS5: [u16; 10] = {
    let mut out = [0u16; 10];
    out[0] = 1 << ACE | 0b1111;
    let mut i = 1;
    while i < 10 {
        out[i] = 0b11111 << (i - 1);
        i += 1;
    }
    out
};

/// 13-bit rank masks of the twelve 3-card straights: A-2-3, 2-3-4, ..., Q-K-A (not K-A-2).
const STRAIGHTS3: [u16; 12] = {
    let mut out = [0u16; 12];
    out[0] = 1 << ACE | 0b11;
    let mut i = 1;
    while i < 12 {
        out[i] = 0b111 << (i - 1);
        i += 1;
    }
    out
};

/// Whether the kind is defined by a row layout (and so has a displaying setting).
pub fn has_rows(kind: NaturalKind) -> bool {
    matches!(
        kind,
        NaturalKind::ThreeStraightFlushes | NaturalKind::ThreeFlushes | NaturalKind::ThreeStraights
    )
}

fn rank_counts(hand: &[Card]) -> [u8; 13] {
    let mut c = [0u8; 13];
    for card in hand {
        c[card.rank() as usize] += 1;
    }
    c
}

fn suit_counts(hand: &[Card]) -> [u8; 4] {
    let mut c = [0u8; 4];
    for card in hand {
        c[card.suit() as usize] += 1;
    }
    c
}

/// Whether `hand` holds `kind`.
pub fn qualifies(hand: &Hand, kind: NaturalKind) -> bool {
    holds(&hand.cards(), kind)
}

/// [`qualifies`] on the 13 cards of a hand.
fn holds(hand: &[Card; 13], kind: NaturalKind) -> bool {
    let ranks = rank_counts(hand);
    let suits = suit_counts(hand);
    let all_ranks = |f: fn(u8) -> bool| hand.iter().all(|c| f(c.rank()));
    let red = suits[1] + suits[2];
    let black = suits[0] + suits[3];
    match kind {
        NaturalKind::SameSuitDragon => ranks.iter().all(|&c| c == 1) && suits.contains(&13),
        NaturalKind::Dragon => ranks.iter().all(|&c| c == 1),
        NaturalKind::TwelveRoyals => all_ranks(|r| r >= 9),
        NaturalKind::AllBig => all_ranks(|r| r >= 6),
        NaturalKind::AllSmall => all_ranks(|r| r <= 6),
        NaturalKind::ThirteenOneColour => red == 13 || black == 13,
        NaturalKind::TwelveOneColour => red >= 12 || black >= 12,
        NaturalKind::ThreeQuads => ranks.iter().filter(|&&c| c == 4).count() == 3,
        NaturalKind::FourTrips => ranks.iter().filter(|&&c| c >= 3).count() == 4,
        NaturalKind::FivePairsTrips => {
            ranks.iter().all(|&c| c != 1) && ranks.iter().filter(|&&c| c == 3).count() == 1
        }
        NaturalKind::SixPairs => ranks.iter().map(|&c| c / 2).sum::<u8>() == 6,
        NaturalKind::ThreeStraightFlushes
        | NaturalKind::ThreeFlushes
        | NaturalKind::ThreeStraights => layout(hand, kind, Wheel::Low).is_some(),
    }
}

/// Cards of `set` whose rank is in `ranks` and whose suit is `suit`, or any suit if `None`, one
/// card per rank (the highest suit code among those present). Caller ensures presence.
fn take_ranks(set: CardSet, ranks: u16, suit: Option<u8>) -> Vec<Card> {
    (0..13u8)
        .rev()
        .filter(|r| ranks >> r & 1 == 1)
        .filter_map(|r| {
            (0..4u8)
                .rev()
                .filter(|&s| suit.is_none_or(|want| want == s))
                .map(|s| Card::new(r, s))
                .find(|&c| set.contains(c))
        })
        .collect()
}

/// Orders two 5-card rows so that back ≥ middle and builds the setting.
fn legal_setting(front: &[Card], x: &[Card], y: &[Card], wheel: Wheel) -> Option<Setting> {
    let ev = Evaluator::new(wheel);
    let rank = |cs: &[Card]| ev.eval_codes(&cs.iter().map(|c| c.code()).collect::<Vec<u8>>());
    let (middle, back) = if rank(x) <= rank(y) { (x, y) } else { (y, x) };
    let s = Setting::new(front, middle, back).ok()?;
    debug_assert!(!s.is_foul(wheel), "a displayed natural is a legal setting");
    Some(s)
}

/// A legal setting displaying a three-row natural, if the hand has one.
pub fn arrangement(hand: &Hand, kind: NaturalKind, wheel: Wheel) -> Option<Setting> {
    layout(&hand.cards(), kind, wheel)
}

/// [`arrangement`] on the 13 cards of a hand.
fn layout(hand: &[Card; 13], kind: NaturalKind, wheel: Wheel) -> Option<Setting> {
    let set = CardSet::from_cards(hand);
    match kind {
        NaturalKind::ThreeFlushes => three_flushes(set, wheel),
        NaturalKind::ThreeStraights => three_straights(hand, wheel),
        NaturalKind::ThreeStraightFlushes => three_straight_flushes(set, wheel),
        _ => None,
    }
}

fn suit_cards(set: CardSet, suit: u8) -> Vec<Card> {
    set.cards_desc()
        .into_iter()
        .filter(|c| c.suit() == suit)
        .collect()
}

/// Cards per suit of a set (a card's code is rank * 4 + suit).
fn suit_counts_of(set: CardSet) -> [u8; 4] {
    const SUIT0: u64 = 0x0001_1111_1111_1111;
    std::array::from_fn(|s| (set.0 & SUIT0 << s).count_ones() as u8)
}

/// Whether the suit counts could feed three single-suit rows of 3, 5 and 5 cards: each suit
/// holds a sum of some of them. Most hands fail this, before any row is tried.
fn rows_by_suit_possible(count: [u8; 4]) -> bool {
    count.iter().all(|c| matches!(c, 0 | 3 | 5 | 8 | 10 | 13))
}

fn three_flushes(set: CardSet, wheel: Wheel) -> Option<Setting> {
    let count = suit_counts_of(set);
    if !rows_by_suit_possible(count) {
        return None;
    }
    // Every row takes one suit; a suit may feed several rows if it has the cards for them.
    for f in 0..4u8 {
        for m in 0..4u8 {
            for b in m..4u8 {
                let mut need = [0u8; 4];
                need[f as usize] += 3;
                need[m as usize] += 5;
                need[b as usize] += 5;
                if need != count {
                    continue;
                }
                // Within a shared suit, the highest cards go to the 5-card rows (any split
                // displays the natural; this one reads best).
                let mut pools: Vec<Vec<Card>> = (0..4u8).map(|s| suit_cards(set, s)).collect();
                let mut take = |s: u8, n: usize| -> Vec<Card> {
                    pools[s as usize].drain(..n).collect::<Vec<Card>>()
                };
                let back = take(b, 5);
                let middle = take(m, 5);
                let front = take(f, 3);
                return legal_setting(&front, &middle, &back, wheel);
            }
        }
    }
    None
}

/// Rank masks spread to one 4-bit count per rank (rank r at bit 4r).
const fn spread_all<const N: usize>(masks: [u16; N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        let mut r = 0;
        while r < 13 {
            out[i] |= (((masks[i] >> r) & 1) as u64) << (4 * r);
            r += 1;
        }
        i += 1;
    }
    out
}

fn three_straights(hand: &[Card], wheel: Wheel) -> Option<Setting> {
    // rank counts packed 4 bits a rank, so that taking a straight out is one subtraction
    let counts = hand
        .iter()
        .fold(0u64, |c, card| c + (1u64 << (4 * card.rank())));
    // every rank of the straight is there: with 8 added to each count first, no count drops
    // below 8 (its bit 3 stays set) and no subtraction borrows across counts
    const EIGHTS: u64 = 0x0008_8888_8888_8888;
    const SPREAD5: [u64; 10] = spread_all(STRAIGHTS5);
    const SPREAD3: [u64; 12] = spread_all(STRAIGHTS3);
    let has = |c: u64, s: u64| (c + EIGHTS - s) & EIGHTS == EIGHTS;
    for i in 0..STRAIGHTS5.len() {
        if !has(counts, SPREAD5[i]) {
            continue;
        }
        let c1 = counts - SPREAD5[i];
        for j in i..STRAIGHTS5.len() {
            if !has(c1, SPREAD5[j]) {
                continue;
            }
            let c2 = c1 - SPREAD5[j];
            // the short straight takes exactly the cards left
            if let Some(k) = SPREAD3.iter().position(|&s3| s3 == c2) {
                let mut left = CardSet::from_cards(hand);
                let mut take = |mask: u16| {
                    let cards = take_ranks(left, mask, None);
                    left = left.minus(CardSet::from_cards(&cards));
                    cards
                };
                let x = take(STRAIGHTS5[i]);
                let y = take(STRAIGHTS5[j]);
                let front = take(STRAIGHTS3[k]);
                return legal_setting(&front, &x, &y, wheel);
            }
        }
    }
    None
}

fn suited(mask: u16, suit: u8) -> CardSet {
    CardSet(
        (0..13u8)
            .filter(|r| mask >> r & 1 == 1)
            .fold(0u64, |m, r| m | Card::new(r, suit).bit()),
    )
}

fn three_straight_flushes(set: CardSet, wheel: Wheel) -> Option<Setting> {
    if !rows_by_suit_possible(suit_counts_of(set)) {
        return None;
    }
    let fives: Vec<CardSet> = (0..4u8)
        .flat_map(|s| STRAIGHTS5.iter().map(move |&m| suited(m, s)))
        .filter(|&w| set.minus(w).len() == set.len() - 5)
        .collect();
    for (i, &x) in fives.iter().enumerate() {
        for &y in &fives[i + 1..] {
            if x.intersects(y) {
                continue;
            }
            let rest = set.minus(x).minus(y);
            let front_ok = (0..4u8).any(|s| STRAIGHTS3.iter().any(|&m| suited(m, s) == rest));
            if front_ok {
                return legal_setting(&rest.cards_desc(), &x.cards_desc(), &y.cards_desc(), wheel);
            }
        }
    }
    None
}

fn is_flush(cards: &[Card]) -> bool {
    cards.iter().all(|c| c.suit() == cards[0].suit())
}

fn is_straight(cards: &[Card]) -> bool {
    let mask = cards.iter().fold(0u16, |m, c| m | 1 << c.rank());
    match cards.len() {
        3 => STRAIGHTS3.contains(&mask),
        5 => STRAIGHTS5.contains(&mask),
        _ => false,
    }
}

/// Whether the rows of `setting` display `kind`: for the three-row naturals every row is a
/// flush / straight / straight flush (front as a 3-card one); for the others, whether the 13
/// cards hold it (no layout is implied). The order of the rows is not part of the display.
pub fn displays(setting: &Setting, kind: NaturalKind) -> bool {
    let rows = [&setting.front[..], &setting.middle[..], &setting.back[..]];
    match kind {
        NaturalKind::ThreeFlushes => rows.iter().all(|r| is_flush(r)),
        NaturalKind::ThreeStraights => rows.iter().all(|r| is_straight(r)),
        NaturalKind::ThreeStraightFlushes => rows.iter().all(|r| is_flush(r) && is_straight(r)),
        _ => qualifies(&setting.hand(), kind),
    }
}

/// The naturals of the rule set that the hand holds, in the rule set's order.
fn held<'a>(hand: &'a Hand, rules: &'a Rules) -> impl Iterator<Item = NaturalMatch> + 'a {
    let cards = hand.cards();
    rules.naturals.iter().filter_map(move |n| {
        let (held, setting) = if has_rows(n.kind) {
            let setting = layout(&cards, n.kind, rules.wheel);
            (setting.is_some(), setting)
        } else {
            (holds(&cards, n.kind), None)
        };
        held.then_some(NaturalMatch {
            kind: n.kind,
            value: n.value,
            setting,
        })
    })
}

/// Naturals the rule set recognises that the hand holds, in ranking order
/// ([`NaturalRule::ranking`]: the most valuable first), each with its value and, for the
/// three-row naturals, a legal setting displaying it.
pub fn find_naturals(hand: &Hand, rules: &Rules) -> Vec<NaturalMatch> {
    let mut found: Vec<NaturalMatch> = held(hand, rules).collect();
    found.sort_by_key(ranking);
    found
}

fn ranking(m: &NaturalMatch) -> (std::cmp::Reverse<u32>, NaturalKind) {
    NaturalRule {
        kind: m.kind,
        value: m.value,
    }
    .ranking()
}

/// The natural a hand declares: the one it holds that ranks first ([`NaturalRule::ranking`]:
/// the most valuable, and among equal values the core's order, whatever order the rule set
/// lists them in). `None` if it holds none.
pub fn best_natural(hand: &Hand, rules: &Rules) -> Option<NaturalMatch> {
    held(hand, rules).min_by_key(ranking)
}
