//! Every 5-card and 3-card hand, counted by category and by distinct rank (docs/rules.md, "Hand ranks").

use chinese_poker::{Category, Evaluator, Wheel};
use std::collections::{BTreeMap, HashSet};

#[test]
fn all_five_card_hands_for_both_wheels() {
    let hands = [
        40u64, 624, 3744, 5108, 10200, 54912, 123552, 1098240, 1302540,
    ];
    let classes = [10usize, 156, 156, 1277, 10, 858, 858, 2860, 1277];
    for wheel in [Wheel::Low, Wheel::Second] {
        let ev = Evaluator::new(wheel);
        let mut by_cat: BTreeMap<Category, (u64, HashSet<u32>)> = BTreeMap::new();
        let mut total = 0u64;
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            let r = ev.eval5([a, b, c, d, e]);
                            let slot = by_cat.entry(r.category()).or_default();
                            slot.0 += 1;
                            slot.1.insert(r.raw());
                            total += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(total, 2_598_960);
        let distinct: usize = by_cat.values().map(|s| s.1.len()).sum();
        assert_eq!(distinct, 7462, "{wheel:?}");
        // high to low as listed in docs/rules.md, "Hand ranks"
        for (i, cat) in Category::ALL.iter().rev().enumerate() {
            let (n, set) = &by_cat[cat];
            assert_eq!(*n, hands[i], "{wheel:?} {cat:?} hands");
            assert_eq!(set.len(), classes[i], "{wheel:?} {cat:?} classes");
        }
    }
}

#[test]
fn all_three_card_hands() {
    let ev = Evaluator::new(Wheel::Low);
    let mut by_cat: BTreeMap<Category, (u64, HashSet<u32>)> = BTreeMap::new();
    for a in 0..52u8 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                // every order of the same cards gives the same rank
                let r = ev.eval3([a, b, c]);
                assert_eq!(r, ev.eval3([c, a, b]));
                assert_eq!(r, ev.eval3([b, c, a]));
                let slot = by_cat.entry(r.category()).or_default();
                slot.0 += 1;
                slot.1.insert(r.raw());
            }
        }
    }
    let got: Vec<(Category, u64, usize)> =
        by_cat.iter().map(|(c, (n, s))| (*c, *n, s.len())).collect();
    assert_eq!(
        got,
        vec![
            (Category::HighCard, 18304, 286),
            (Category::Pair, 3744, 156),
            (Category::Trips, 52, 13)
        ]
    );
}
