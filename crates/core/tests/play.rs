//! The rules of play the core owns: a setting's 13 codes each way, a hand checked once, the
//! one play / declare / surrender rule and the timeout's certainly-fouled setting.

use chinese_poker::hand::Hand;
use chinese_poker::rules::Declaration;
use chinese_poker::sim::deal_round;
use chinese_poker::solve::{choose, Pick};
use chinese_poker::{parse_cards, Error, Evaluator, Rules, Setting, Wheel};

#[test]
fn setting_codes_round_trip_and_are_checked() {
    let s = Setting::new(
        &parse_cards("Qs Qh Qd").unwrap(),
        &parse_cards("5s 5h 5d Ks Kh").unwrap(),
        &parse_cards("9s 9h 9d 9c 2s").unwrap(),
    )
    .unwrap();
    let codes = s.codes();
    // front, middle, back in the order set
    assert_eq!(codes[0], s.front[0].code());
    assert_eq!(codes[3], s.middle[0].code());
    assert_eq!(codes[12], s.back[4].code());
    assert_eq!(Setting::from_codes(&codes).unwrap(), s);
    assert_eq!(s.hand().codes(), &codes);

    let mut bad = codes;
    bad[7] = 52;
    let e = Setting::from_codes(&bad).unwrap_err();
    assert!(
        matches!(&e, Error::InvalidCard { position: 8, .. }),
        "{e:?}"
    );
    let mut dup = codes;
    dup[12] = dup[2];
    let e = Setting::from_codes(&dup).unwrap_err();
    assert!(
        matches!(
            e,
            Error::DuplicateCard {
                first: 3,
                second: 13,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn a_hand_is_checked_when_built() {
    let (hands, _) = deal_round(3, 0, 2);
    let h = Hand::new(hands[0]).unwrap();
    assert_eq!(h.codes(), &hands[0]);
    assert_eq!(Hand::from_cards(&h.cards()).unwrap(), h);
    let flat: Vec<u8> = hands[..2].concat();
    assert_eq!(
        Hand::rows(&flat, "codes").unwrap(),
        vec![h, Hand::new(hands[1]).unwrap()]
    );
    let mut bad = flat.clone();
    bad[13 + 4] = bad[13];
    let e = Hand::rows(&bad, "codes").unwrap_err().to_string();
    assert!(e.contains("codes row 1"), "{e}");
    let mut bad = hands[0];
    bad[0] = 60;
    assert!(matches!(
        Hand::new(bad),
        Err(Error::InvalidCard { position: 1, .. })
    ));
}

#[test]
fn one_rule_decides_play_declare_surrender() {
    let mut rules = Rules::maceplay();
    rules.declaration = Declaration::MustDeclare;
    // a natural worth more than the play is declared, worth less is not (points only)
    assert_eq!(
        choose(&rules, 2.0, Some(3.0), None, true),
        (Pick::Declare, 3.0)
    );
    assert_eq!(
        choose(&rules, 4.0, Some(3.0), None, true),
        (Pick::Play, 4.0)
    );
    assert_eq!(
        choose(&rules, 2.0, Some(3.0), None, false),
        (Pick::Play, 2.0)
    );
    // a surrender where it loses less than the play, never over a declared natural
    assert_eq!(
        choose(&rules, -5.0, None, Some(-3.0), true),
        (Pick::Surrender, -3.0)
    );
    assert_eq!(
        choose(&rules, -2.0, Some(-1.0), Some(-1.5), true),
        (Pick::Declare, -1.0)
    );
    assert_eq!(
        choose(&rules, -2.0, Some(-4.0), Some(-1.5), true),
        (Pick::Surrender, -1.5)
    );
    assert_eq!(
        choose(&rules, -2.0, None, Some(-2.0), true),
        (Pick::Play, -2.0)
    );
    // declared automatically whatever it is worth
    rules.declaration = Declaration::Auto;
    assert_eq!(
        choose(&rules, 9.0, Some(1.0), Some(20.0), false),
        (Pick::Declare, 1.0)
    );
}

#[test]
fn the_timeout_setting_is_fouled_and_uses_the_hand() {
    for wheel in [Wheel::Low, Wheel::Second] {
        let ev = Evaluator::new(wheel);
        for round in 0..300 {
            let (hands, _) = deal_round(11, round, 1);
            let hand = Hand::new(hands[0]).unwrap();
            let s = Setting::fouled(&hand, wheel);
            assert!(s.is_foul(wheel), "{s}");
            let mut got = s.codes();
            got.sort_unstable();
            assert_eq!(got, hands[0]);
            // the middle is the strongest five of the hand
            let [_, middle, back] = s.ranks(wheel);
            let codes = hands[0];
            let mut best = ev.eval_codes(&codes[..5]);
            for a in 0..13 {
                for b in a + 1..13 {
                    for c in b + 1..13 {
                        for d in c + 1..13 {
                            for e in d + 1..13 {
                                let five = [codes[a], codes[b], codes[c], codes[d], codes[e]];
                                best = best.max(ev.eval_codes(&five));
                            }
                        }
                    }
                }
            }
            assert_eq!(middle, best);
            assert!(back < middle);
        }
    }
}

#[test]
fn seat_statistics_come_from_the_columns_in_any_chunking() {
    use chinese_poker::sim::{simulate, Policy, SeatTally};
    let rules = Rules::preset("pokerclub_south").unwrap();
    let policies = [Policy::Greedy, Policy::Random, Policy::Greedy];
    let cols = simulate(&rules, &policies, 5, 0, 400).unwrap();
    let mut whole = SeatTally::new(3);
    whole.add_columns(&cols).unwrap();
    // the same rounds in two chunks, merged
    let (a, b) = (
        simulate(&rules, &policies, 5, 0, 150).unwrap(),
        simulate(&rules, &policies, 5, 150, 250).unwrap(),
    );
    let (mut ta, mut tb) = (SeatTally::new(3), SeatTally::new(3));
    ta.add_columns(&a).unwrap();
    tb.add_columns(&b).unwrap();
    ta.merge(&tb).unwrap();
    assert_eq!(ta, whole);
    let stats = whole.summary();
    for (seat, s) in stats.iter().enumerate() {
        let pts: Vec<f64> = cols
            .points
            .iter()
            .skip(seat)
            .step_by(3)
            .map(|&p| p as f64)
            .collect();
        let n = pts.len() as f64;
        let mean = pts.iter().sum::<f64>() / n;
        let var = pts.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        assert_eq!(s.rounds, 400);
        assert!((s.mean - mean).abs() < 1e-12, "{} {mean}", s.mean);
        assert!((s.stderr - (var / n).sqrt()).abs() < 1e-12);
        assert!((s.ci_high - s.mean - 1.959_963_984_540_054 * s.stderr).abs() < 1e-12);
        let rate = |f: &dyn Fn(usize) -> bool| {
            (0..400).filter(|&r| f(r * 3 + seat)).count() as f64 / 400.0
        };
        assert_eq!(s.scoop_rate, rate(&|i| cols.scoops[i] > 0));
        assert_eq!(s.sweep_rate, rate(&|i| cols.sweep[i]));
        assert_eq!(s.foul_rate, rate(&|i| cols.status[i] == 1));
    }
    assert!(SeatTally::new(2).merge(&whole).is_err());
    assert!(whole.add(&[1, 2], &[0], &[false, false], &[0, 0]).is_err());
    // no rounds: every figure undefined (NaN), not a made-up zero
    let empty = SeatTally::new(2).summary();
    assert!(empty.iter().all(|s| s.mean.is_nan()
        && s.stderr.is_nan()
        && s.ci_low.is_nan()
        && s.foul_rate.is_nan()
        && s.rounds == 0));
    // one round: a mean, but no spread, so no standard error and no interval
    let mut one = SeatTally::new(2);
    one.add(&[3, -3], &[1, 0], &[false, false], &[0, 0])
        .unwrap();
    let one = one.summary();
    assert_eq!((one[0].mean, one[1].mean), (3.0, -3.0));
    assert!(one
        .iter()
        .all(|s| s.stderr.is_nan() && s.ci_low.is_nan() && s.ci_high.is_nan()));
}

#[test]
fn settled_rounds_record_the_dealt_hand_of_a_surrender() {
    use chinese_poker::sim::settle_rounds;
    let rules = Rules::preset("pokerfever_western").unwrap();
    assert!(rules.surrender.is_some());
    let (hands, _) = deal_round(9, 0, 2);
    let play = Setting::fouled(&Hand::new(hands[0]).unwrap(), rules.wheel).codes();
    let settings: Vec<u8> = [play, [0; 13]].concat();
    let dealt: Vec<u8> = hands[..2].concat();
    let with = settle_rounds(&rules, 2, &settings, &[0, 2], &[255, 255], Some(&dealt)).unwrap();
    assert_eq!(with.hand, dealt);
    assert_eq!(
        &with.setting[13..],
        &hands[1],
        "a surrender's setting is its hand"
    );
    let without = settle_rounds(&rules, 2, &settings, &[0, 2], &[255, 255], None).unwrap();
    assert_eq!(&without.setting[13..], &[0; 13]);
    assert_eq!(with.points, without.points);
    let e = settle_rounds(&rules, 2, &settings, &[0, 3], &[255, 255], None).unwrap_err();
    assert!(
        e.to_string()
            .contains("unknown decision code 3 (0 play, 1 declare, 2 surrender)"),
        "{e}"
    );
}
