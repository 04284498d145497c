//! The fast table evaluator against a slow reference written from the definitions of docs/rules.md ("Hand ranks"),
//! on millions of seeded random rows: same category, same order within a row size, and the same
//! front-vs-middle verdict across sizes.
//!
//! The reference shares nothing with `src/eval/tables.rs`: it sorts the ranks, counts equal
//! ranks, tests flush and straight by definition and builds the textbook comparison key
//! (category, then the significant ranks high to low), with straights ranked by their position
//! in an explicit list of the ten straights.

use chinese_poker::{Evaluator, HandRank, Wheel};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::cmp::Ordering;

const HANDS: usize = 1_000_000;

// Categories, weakest first, numbered as the public `Category` enum documents them.
const HIGH_CARD: u8 = 0;
const PAIR: u8 = 1;
const TWO_PAIR: u8 = 2;
const TRIPS: u8 = 3;
const STRAIGHT: u8 = 4;
const FLUSH: u8 = 5;
const FULL_HOUSE: u8 = 6;
const QUADS: u8 = 7;
const STRAIGHT_FLUSH: u8 = 8;

/// A row's comparison key. The derived order (category, then `vals` lexicographically) is the
/// comparison between two rows of the same size.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RefRank {
    cat: u8,
    /// Card ranks 2..=14 in comparison order; for a straight, its index in `straights()`.
    vals: Vec<u8>,
}

/// The ten straights as descending rank lists, weakest first, with the wheel placed by option.
fn straights(wheel: Wheel) -> Vec<Vec<u8>> {
    let mut list: Vec<Vec<u8>> = (6..=14u8)
        .map(|top| (0..5).map(|i| top - i).collect())
        .collect();
    let wheel_ranks = vec![14, 5, 4, 3, 2];
    match wheel {
        Wheel::Low => list.insert(0, wheel_ranks),
        Wheel::Second => {
            let ace_high = list.len() - 1;
            list.insert(ace_high, wheel_ranks)
        }
    }
    list
}

fn reference(cards: &[u8], wheel: Wheel) -> RefRank {
    let mut ranks: Vec<u8> = cards.iter().map(|c| c / 4 + 2).collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    // (how many, rank) for each distinct rank; bigger groups first, then higher ranks.
    let mut groups: Vec<(usize, u8)> = Vec::new();
    for &r in &ranks {
        match groups.iter_mut().find(|g| g.1 == r) {
            Some(g) => g.0 += 1,
            None => groups.push((1, r)),
        }
    }
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let shape: Vec<usize> = groups.iter().map(|g| g.0).collect();
    let by_group: Vec<u8> = groups.iter().map(|g| g.1).collect();

    if cards.len() == 3 {
        let cat = match shape.as_slice() {
            [3] => TRIPS,
            [2, 1] => PAIR,
            _ => HIGH_CARD,
        };
        return RefRank {
            cat,
            vals: by_group,
        };
    }
    assert_eq!(cards.len(), 5);
    let flush = cards.iter().all(|c| c % 4 == cards[0] % 4);
    let straight = straights(wheel)
        .iter()
        .position(|s| *s == ranks)
        .map(|i| i as u8);
    let (cat, vals) = match (straight, flush, shape.as_slice()) {
        (Some(i), true, _) => (STRAIGHT_FLUSH, vec![i]),
        (_, _, [4, 1]) => (QUADS, by_group),
        (_, _, [3, 2]) => (FULL_HOUSE, by_group),
        (_, true, _) => (FLUSH, ranks),
        (Some(i), false, _) => (STRAIGHT, vec![i]),
        (_, _, [3, 1, 1]) => (TRIPS, by_group),
        (_, _, [2, 2, 1]) => (TWO_PAIR, by_group),
        (_, _, [2, 1, 1, 1]) => (PAIR, by_group),
        _ => (HIGH_CARD, ranks),
    };
    RefRank { cat, vals }
}

/// docs/rules.md, "Comparing rows", front against a 5-card row: category first (so any 5-card category above trips
/// wins), then the significant ranks, only as many as the front has; an equal prefix is equal.
fn reference_front_vs_five(front: &RefRank, five: &RefRank) -> Ordering {
    front.cat.cmp(&five.cat).then_with(|| {
        let n = front.vals.len();
        front.vals[..].cmp(&five.vals[..n])
    })
}

/// Draws `k` distinct cards from `deck` (partial Fisher–Yates; `deck` is reordered in place).
fn draw(rng: &mut Xoshiro256PlusPlus, deck: &mut [u8], k: usize) -> Vec<u8> {
    for i in 0..k {
        let j = rng.random_range(i..deck.len());
        deck.swap(i, j);
    }
    deck[..k].to_vec()
}

/// Random rows of `k` cards. Every second row comes from a deck of only four ranks, so that
/// equal ranks, ties and same-category comparisons are common rather than rare.
fn random_rows(seed: u64, k: usize, n: usize) -> Vec<Vec<u8>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut full: Vec<u8> = (0..52).collect();
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                draw(&mut rng, &mut full, k)
            } else {
                let mut ranks: Vec<u8> = (0..13).collect();
                let four = draw(&mut rng, &mut ranks, 4);
                let mut small: Vec<u8> = four
                    .iter()
                    .flat_map(|r| (0..4).map(move |s| r * 4 + s))
                    .collect();
                draw(&mut rng, &mut small, k)
            }
        })
        .collect()
}

fn fast(ev: &Evaluator, row: &[u8]) -> HandRank {
    match *row {
        [a, b, c] => ev.eval3([a, b, c]),
        [a, b, c, d, e] => ev.eval5([a, b, c, d, e]),
        _ => unreachable!(),
    }
}

/// Category, significant values and order of one row size against the reference.
fn check_size(k: usize, seed: u64, wheel: Wheel) {
    let ev = Evaluator::new(wheel);
    let rows = random_rows(seed, k, HANDS);
    let fast_ranks: Vec<HandRank> = rows.iter().map(|r| fast(&ev, r)).collect();
    let ref_ranks: Vec<RefRank> = rows.iter().map(|r| reference(r, wheel)).collect();

    for (i, (f, r)) in fast_ranks.iter().zip(&ref_ranks).enumerate() {
        assert_eq!(f.category() as u8, r.cat, "{wheel:?} row {:?}", rows[i]);
        assert_eq!(f.size(), k);
        assert_eq!(fast(&ev, &rows[i]), ev.eval_codes(&rows[i]));
        if r.cat != STRAIGHT && r.cat != STRAIGHT_FLUSH {
            assert_eq!(f.values(), r.vals, "{wheel:?} row {:?}", rows[i]);
        }
    }

    // Neighbouring pairs: the sign of every comparison agrees.
    for i in 1..rows.len() {
        let (a, b) = (i - 1, i);
        let want = ref_ranks[a].cmp(&ref_ranks[b]);
        assert_eq!(
            fast_ranks[a].cmp(&fast_ranks[b]),
            want,
            "{wheel:?} {:?} vs {:?}",
            rows[a],
            rows[b]
        );
        assert_eq!(fast_ranks[a].row_cmp(fast_ranks[b]), want);
    }

    // The whole sample in reference order: the fast ranks rise exactly where the reference's do,
    // so the two orders are the same total preorder on these rows.
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| ref_ranks[a].cmp(&ref_ranks[b]));
    for w in order.windows(2) {
        let want = ref_ranks[w[0]].cmp(&ref_ranks[w[1]]);
        assert_eq!(
            fast_ranks[w[0]].raw().cmp(&fast_ranks[w[1]].raw()),
            want,
            "{wheel:?} {:?} vs {:?}",
            rows[w[0]],
            rows[w[1]]
        );
    }
}

#[test]
fn five_card_rows_agree_with_reference_wheel_low() {
    check_size(5, 1, Wheel::Low);
}

#[test]
fn five_card_rows_agree_with_reference_wheel_second() {
    check_size(5, 2, Wheel::Second);
}

#[test]
fn three_card_rows_agree_with_reference_wheel_low() {
    check_size(3, 3, Wheel::Low);
}

#[test]
fn three_card_rows_agree_with_reference_wheel_second() {
    check_size(3, 4, Wheel::Second);
}

/// Front against middle, drawn from one deck as in a real setting.
fn check_front_vs_middle(seed: u64, wheel: Wheel) {
    let ev = Evaluator::new(wheel);
    let mut seen = [0usize; 3];
    for cards in random_rows(seed, 8, HANDS) {
        let (front_cards, middle_cards) = cards.split_at(3);
        let (f, m) = (fast(&ev, front_cards), fast(&ev, middle_cards));
        let (rf, rm) = (
            reference(front_cards, wheel),
            reference(middle_cards, wheel),
        );
        let want = reference_front_vs_five(&rf, &rm);
        seen[match want {
            Ordering::Less => 0,
            Ordering::Equal => 1,
            Ordering::Greater => 2,
        }] += 1;
        assert_eq!(
            f.row_cmp(m),
            want,
            "{wheel:?} front {front_cards:?} vs {middle_cards:?}"
        );
        assert_eq!(m.row_cmp(f), want.reverse());
        // The raw order is the legality test: front ≤ middle.
        assert_eq!(
            f.raw() <= m.raw(),
            want != Ordering::Greater,
            "{wheel:?} front {front_cards:?} vs {middle_cards:?}"
        );
        assert_eq!(f.category() as u8, rf.cat);
        assert_eq!(m.category() as u8, rm.cat);
    }
    // The sample really exercises fouls, equal rows and legal rows.
    assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
}

#[test]
fn front_against_middle_agrees_with_reference_wheel_low() {
    check_front_vs_middle(5, Wheel::Low);
}

#[test]
fn front_against_middle_agrees_with_reference_wheel_second() {
    check_front_vs_middle(6, Wheel::Second);
}

/// The reference itself, on the examples docs/rules.md ("Comparing rows") spells out.
#[test]
fn reference_follows_the_rules_examples() {
    let codes = |s: &str| -> Vec<u8> {
        chinese_poker::parse_cards(s)
            .unwrap()
            .iter()
            .map(|c| c.code())
            .collect()
    };
    let r = |s: &str, w: Wheel| reference(&codes(s), w);
    let front_vs = |f: &str, m: &str| reference_front_vs_five(&r(f, Wheel::Low), &r(m, Wheel::Low));
    assert_eq!(front_vs("Kc Kd Ah", "Ks Kh Qc Jd Th"), Ordering::Greater);
    assert_eq!(front_vs("Kc Kd Qh", "Ks Kh Ac Jd Th"), Ordering::Less);
    assert_eq!(front_vs("Kc Kd Qh", "Ks Kh Qc Jd Th"), Ordering::Equal);
    assert_eq!(front_vs("Ac Ad Ah", "2c 3d 4h 5s 6c"), Ordering::Less);
    assert_eq!(front_vs("Ac Ad Ah", "Kc Kd Kh Qs Jc"), Ordering::Greater);
    assert_eq!(front_vs("Qc Qd Qh", "Qs 2d 2h 3s 3c"), Ordering::Greater);

    let wheel = "Ac 2d 3h 4s 5c";
    assert!(r(wheel, Wheel::Low) < r("2c 3d 4h 5s 6c", Wheel::Low));
    assert!(r(wheel, Wheel::Second) > r("9c Td Jh Qs Kc", Wheel::Second));
    assert!(r(wheel, Wheel::Second) < r("Tc Jd Qh Ks Ac", Wheel::Second));
    assert_eq!(r("Jc Qd Kh As 2c", Wheel::Low).cat, HIGH_CARD);
    assert_eq!(r("Ah 2h 3h 4h 5h", Wheel::Second).cat, STRAIGHT_FLUSH);
    assert!(r("Ah 2h 3h 4h 5h", Wheel::Low) < r("2d 3d 4d 5d 6d", Wheel::Low));
    assert_eq!(r("Qc Qd 5h 5s Qs", Wheel::Low).vals, vec![12, 5]);
    assert_eq!(r("9c 2d 9h 2s 3c", Wheel::Low).vals, vec![9, 2, 3]);
}
