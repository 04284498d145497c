//! Naturals (docs/rules.md, "Naturals"): a hand-built example and a near miss for each, the rule set's order
//! and values, displayed settings, and the three-row naturals against a brute force over every
//! split of the 13 cards.

use chinese_poker::naturals::{arrangement, displays, qualifies};
use chinese_poker::rules::NaturalKind::{self, *};
use chinese_poker::{best_natural, find_naturals, parse_cards, Card, Hand, Rules, Setting, Wheel};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn hand(s: &str) -> Hand {
    Hand::from_cards(&parse_cards(s).unwrap()).unwrap()
}

fn holds(s: &str) -> Vec<NaturalKind> {
    let h = hand(s);
    NaturalKind::ALL
        .into_iter()
        .filter(|&k| qualifies(&h, k))
        .collect()
}

#[track_caller]
fn yes(s: &str, k: NaturalKind) {
    assert!(qualifies(&hand(s), k), "{s} should hold {k:?}");
}

#[track_caller]
fn no(s: &str, k: NaturalKind) {
    assert!(!qualifies(&hand(s), k), "{s} should not hold {k:?}");
}

#[test]
fn dragons() {
    let same_suit = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah";
    yes(same_suit, SameSuitDragon);
    yes(same_suit, Dragon);
    yes(same_suit, ThreeFlushes);
    yes(same_suit, ThreeStraights);
    yes(same_suit, ThreeStraightFlushes);
    yes(same_suit, ThirteenOneColour);
    assert_eq!(
        holds(same_suit),
        [
            SameSuitDragon,
            Dragon,
            ThreeStraightFlushes,
            ThirteenOneColour,
            TwelveOneColour,
            ThreeFlushes,
            ThreeStraights
        ]
    );
    let dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ah";
    yes(dragon, Dragon);
    no(dragon, SameSuitDragon);
    // 12 ranks and a pair is not a dragon
    let near = "2c 2d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ah";
    no(near, Dragon);
    no(near, SameSuitDragon);
    // 12 hearts and a spade ace
    no("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh As", SameSuitDragon);
}

#[test]
fn rank_bands() {
    let royals = "Jc Jd Jh Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad";
    yes(royals, TwelveRoyals);
    yes(royals, AllBig);
    let with_ten = "Tc Jd Jh Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad";
    no(with_ten, TwelveRoyals);
    yes(with_ten, AllBig);
    let big = "8c 8d 9h 9s Tc Td Jh Qs Kc Kd Ah As Jc";
    yes(big, AllBig);
    no("7c 8d 9h 9s Tc Td Jh Qs Kc Kd Ah As Jc", AllBig);
    let small = "2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 7h 8s 8c";
    yes(small, AllSmall);
    no(small, AllBig);
    no("2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 7h 8s 9c", AllSmall);
}

#[test]
fn colours() {
    let red = "2d 4d 6d 8d Td Qd Ad 3h 5h 7h 9h Jh Kh";
    yes(red, ThirteenOneColour);
    yes(red, TwelveOneColour);
    let twelve_black = "2c 4c 6c 8c Tc Qc Ac 3s 5s 7s 9s Js Kh";
    yes(twelve_black, TwelveOneColour);
    no(twelve_black, ThirteenOneColour);
    no("2c 4c 6c 8c Tc Qc Ac 3s 5s 7s 9s Jd Kh", TwelveOneColour);
}

#[test]
fn groups() {
    yes("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c", ThreeQuads);
    no("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c", FourTrips);
    no("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 5s 5c", ThreeQuads);
    no("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 5s 5c", FourTrips);
    yes("2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 6c", FourTrips);
    yes("2c 2d 2h 2s 3c 3d 3h 4c 4d 4h 5c 5d 5h", FourTrips);
    no("2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 6h 6c", FourTrips);
    let fpt = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 7h";
    yes(fpt, FivePairsTrips);
    yes(fpt, SixPairs);
    // a four of a kind is two pairs
    yes("2c 2d 2h 2s 3c 3d 4c 4d 5c 5d 7c 7d 7h", FivePairsTrips);
    no("2c 2d 3c 3d 4c 4d 5c 5d 6c 7d 7c 7h 8s", FivePairsTrips);
    no("2c 2d 2h 3c 3d 3h 4c 4d 5c 5d 6c 6d 7h", FivePairsTrips);
    let six = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8h";
    yes(six, SixPairs);
    no(six, FivePairsTrips);
    yes("2c 2d 2h 2s 3c 3d 4c 4d 5c 5d 6c 6d 8h", SixPairs);
    no("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 8d 9h", SixPairs);
}

#[test]
fn three_flushes() {
    yes("2h 5h 9h 3s 7s 8s Js Ks 2c 4c 6c Tc Qc", ThreeFlushes);
    // one suit feeding two rows
    yes("2h 5h 9h Jh Kh 3h 4h 7h 3s 7s 8s Js Ks", ThreeFlushes);
    yes("2h 5h 9h Jh Kh 3h 4h 7h Th Qh 8s Js Ks", ThreeFlushes);
    no("2h 5h 9h Jh 3s 7s 8s Js 2c 4c 6c Tc Qc", ThreeFlushes);
    no("2h 5h 9h Jh Kh 3h 4h 7h Th 7s 8s Js Ks", ThreeFlushes);
}

#[test]
fn three_straights() {
    // A-2-3 front
    yes("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc", ThreeStraights);
    // Q-K-A front, overlapping ranks elsewhere
    yes("Qc Kd Ah 2s 3c 4d 5h 6s 5c 6d 7h 8s 9c", ThreeStraights);
    // K-A-2 is not a 3-card straight, and nothing else fits
    no("Kc Ad 2h 3s 4c 5d 6h 7s 6c 7d 8h 9s Tc", ThreeStraights);
    // a wheel in a 5-card row counts under either wheel option
    let wheel = "Ac 2d 3h 4s 5c 9d Th Js Qc Kd 6h 7s 8c";
    yes(wheel, ThreeStraights);
    let s = arrangement(&hand(wheel), ThreeStraights, Wheel::Second).unwrap();
    assert!(!s.is_foul(Wheel::Second));
    assert!(displays(&s, ThreeStraights));
}

#[test]
fn three_straight_flushes() {
    let h = "2h 3h 4h 5h 6h 7s 8s 9s Ts Js Qc Kc Ac";
    yes(h, ThreeStraightFlushes);
    yes(h, ThreeFlushes);
    yes(h, ThreeStraights);
    // K-A-2 suited front
    no(
        "Kc Ac 2c 3h 4h 5h 6h 7h 7s 8s 9s Ts Js",
        ThreeStraightFlushes,
    );
    // three straights and three flushes, but not the same rows
    let mixed = "2h 3h 4h 5h 6s 7s 8s 9s Ts Jh Qc Kc Ac";
    no(mixed, ThreeStraightFlushes);
}

#[test]
fn find_naturals_follows_the_rule_set() {
    let mace = Rules::maceplay();
    let same_suit = hand("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah");
    let found = find_naturals(&same_suit, &mace);
    let kinds: Vec<_> = found.iter().map(|m| (m.kind, m.value)).collect();
    assert_eq!(
        kinds,
        vec![
            (SameSuitDragon, 26),
            (Dragon, 13),
            (ThreeFlushes, 3),
            (ThreeStraights, 3)
        ]
    );
    for m in &found {
        assert_eq!(
            m.setting.is_some(),
            matches!(m.kind, ThreeFlushes | ThreeStraights)
        );
        if let Some(s) = m.setting {
            assert!(displays(&s, m.kind));
            assert!(!s.is_foul(mace.wheel));
        }
    }
    assert_eq!(
        best_natural(&same_suit, &mace).unwrap().kind,
        SameSuitDragon
    );

    let shi = Rules::shisanshui();
    let best = best_natural(&same_suit, &shi).unwrap();
    assert_eq!((best.kind, best.value), (SameSuitDragon, 108));
    let sf = hand("2h 3h 4h 5h 6h 5s 6s 7s 8s 9s Qc Kc Ac");
    let best = best_natural(&sf, &shi).unwrap();
    assert_eq!((best.kind, best.value), (ThreeStraightFlushes, 22));
    let s = best.setting.unwrap();
    assert!(displays(&s, ThreeStraightFlushes) && !s.is_foul(shi.wheel));
    // PokerClub has no three straight flushes: the same hand is three flushes there
    let club = Rules::pokerclub_south();
    assert_eq!(best_natural(&sf, &club).unwrap().kind, ThreeFlushes);

    let nothing = hand("2c 2d 9h Js Kc 3d 7h 8s Tc Qd 4h 9s Ac");
    assert!(find_naturals(&nothing, &mace).is_empty());
    assert!(best_natural(&nothing, &mace).is_none());
    // a hand is checked once, where it is built
    let cards = nothing.cards();
    let short = Hand::from_cards(&cards[..12]).unwrap_err();
    assert!(
        short
            .to_string()
            .contains("expected 13 cards, got 12 cards"),
        "{short}"
    );
    let mut dup = cards;
    dup[12] = dup[0];
    assert!(matches!(
        Hand::from_cards(&dup),
        Err(chinese_poker::Error::DuplicateCard {
            first: 1,
            second: 13,
            ..
        })
    ));
    let mut codes = *nothing.codes();
    assert_eq!(Hand::new(codes).unwrap(), nothing);
    codes[4] = 52;
    assert!(Hand::new(codes).is_err());
}

#[test]
fn displays_checks_the_rows() {
    let c = |s: &str| parse_cards(s).unwrap();
    let shown = Setting::new(&c("2h 5h 9h"), &c("3s 7s 8s Js Ks"), &c("2c 4c 6c Tc Qc")).unwrap();
    assert!(displays(&shown, ThreeFlushes));
    let hidden = Setting::new(&c("2h 5h 2c"), &c("3s 7s 8s Js Ks"), &c("9h 4c 6c Tc Qc")).unwrap();
    assert!(!displays(&hidden, ThreeFlushes));
    assert!(
        displays(&hidden, SixPairs)
            == qualifies(&hand("2h 5h 2c 3s 7s 8s Js Ks 9h 4c 6c Tc Qc"), SixPairs)
    );
}

// ---- brute force over every split -----------------------------------------------------------

fn is_flush(cs: &[Card]) -> bool {
    cs.iter().all(|c| c.suit() == cs[0].suit())
}

fn is_straight(cs: &[Card]) -> bool {
    let mut r: Vec<u8> = cs.iter().map(|c| c.rank()).collect();
    r.sort_unstable();
    let run = |r: &[u8]| r.windows(2).all(|w| w[1] == w[0] + 1);
    if run(&r) {
        return true;
    }
    // ace low: A-2-3 / A-2-3-4-5
    if r.last() == Some(&12) && r[0] == 0 {
        let mut low = vec![0u8];
        low.extend(r[..r.len() - 1].iter().map(|x| x + 1));
        low.sort_unstable();
        return run(&low);
    }
    false
}

fn brute(h: &[Card], kind: NaturalKind) -> bool {
    let ok = |cs: &[Card]| match kind {
        ThreeFlushes => is_flush(cs),
        ThreeStraights => is_straight(cs),
        _ => is_flush(cs) && is_straight(cs),
    };
    let n = h.len();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                let front = [h[a], h[b], h[c]];
                if !ok(&front) {
                    continue;
                }
                let rest: Vec<Card> = (0..n)
                    .filter(|&i| i != a && i != b && i != c)
                    .map(|i| h[i])
                    .collect();
                // choose the middle; the back is what is left
                for mask in 0u32..(1 << 10) {
                    if mask.count_ones() != 5 || mask & 1 == 0 {
                        continue; // fix rest[0] in the middle: middle/back are symmetric
                    }
                    let (m, bk): (Vec<Card>, Vec<Card>) =
                        (0..10)
                            .map(|i| (i, rest[i]))
                            .fold((vec![], vec![]), |mut acc, (i, x)| {
                                if mask >> i & 1 == 1 {
                                    acc.0.push(x)
                                } else {
                                    acc.1.push(x)
                                }
                                acc
                            });
                    if ok(&m) && ok(&bk) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// A random hand made of three random rows of the requested shape (often with duplicate cards,
/// in which case it is redrawn) or, with some probability, a plain random hand.
fn candidate(rng: &mut Xoshiro256PlusPlus, kind: NaturalKind) -> Vec<Card> {
    let deck: Vec<Card> = (0..52).map(|c| Card::from_code(c).unwrap()).collect();
    loop {
        if rng.random_bool(0.2) {
            let mut d = deck.clone();
            d.shuffle(rng);
            return d[..13].to_vec();
        }
        let mut out = Vec::new();
        for len in [3usize, 5, 5] {
            let suited = kind != ThreeStraights || rng.random_bool(0.3);
            let straight = kind != ThreeFlushes || rng.random_bool(0.3);
            let suit = rng.random_range(0..4u8);
            let ranks: Vec<u8> = if straight {
                // start -1 means the ace played low
                let start = rng.random_range(-1i32..=(13 - len as i32));
                (0..len as i32)
                    .map(|i| ((start + i).rem_euclid(13)) as u8)
                    .collect()
            } else {
                let mut r: Vec<u8> = (0..13).collect();
                r.shuffle(rng);
                r[..len].to_vec()
            };
            for r in ranks {
                let s = if suited {
                    suit
                } else {
                    rng.random_range(0..4u8)
                };
                out.push(Card::new(r, s));
            }
        }
        // near misses: swap one card for a random one
        if rng.random_bool(0.3) {
            let i = rng.random_range(0..13);
            out[i] = deck[rng.random_range(0..52)];
        }
        let mut seen = 0u64;
        if out.iter().all(|c| {
            let fresh = seen & c.bit() == 0;
            seen |= c.bit();
            fresh
        }) {
            out.shuffle(rng);
            return out;
        }
    }
}

#[test]
fn three_row_naturals_match_brute_force() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for kind in [ThreeFlushes, ThreeStraights, ThreeStraightFlushes] {
        let mut positives = 0;
        for _ in 0..150 {
            let h = candidate(&mut rng, kind);
            let expect = brute(&h, kind);
            let held = Hand::from_cards(&h).unwrap();
            assert_eq!(qualifies(&held, kind), expect, "{kind:?} {h:?}");
            if let Some(s) = arrangement(&held, kind, Wheel::Low) {
                assert!(displays(&s, kind) && !s.is_foul(Wheel::Low));
                let mut got: Vec<Card> = s
                    .front
                    .iter()
                    .chain(&s.middle)
                    .chain(&s.back)
                    .copied()
                    .collect();
                let mut want = h.clone();
                got.sort();
                want.sort();
                assert_eq!(got, want);
            }
            positives += expect as usize;
        }
        assert!(positives > 50, "{kind:?}: only {positives} positive cases");
    }
}
