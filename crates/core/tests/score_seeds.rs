//! The worked examples of the public rule pages (docs/rules.md, "Presets"), scored exactly, plus the rules the examples
//! leave to docs/rules.md (fouls, naturals, surrender, bankroll cap) and every input error.

use chinese_poker::rules::{FoulPolicy, NaturalKind, Scoop};
use chinese_poker::score::{MatchupKind, Status};
use chinese_poker::{parse_cards, settle, Decision, Error, Rules, Setting, Settlement};

fn s(front: &str, middle: &str, back: &str) -> Setting {
    let c = |x: &str| parse_cards(x).unwrap();
    Setting::new(&c(front), &c(middle), &c(back)).unwrap()
}

fn play(front: &str, middle: &str, back: &str) -> Decision {
    Decision::Play(s(front, middle, back))
}

fn run(d: &[Decision], rules: &Rules) -> Settlement {
    let out = settle(d, rules, None, 0).unwrap_or_else(|e| panic!("{e}"));
    let totals = out.totals();
    assert_eq!(totals.iter().sum::<i64>(), 0, "zero-sum\n{}", out.explain());
    assert_eq!(totals, out.raw_totals());
    out
}

// MacePlay example 1: trips / full house / quads against high card / pair / flush.
fn mace_winner() -> Decision {
    play("Qc Qd Qh", "5c 5d 5h Kc Kd", "9c 9d 9h 9s 2c")
}
fn mace_loser() -> Decision {
    play("As Ks 7c", "Jc Jd 8c 6c 4c", "Ah Th 6h 3h 2h")
}
// Two more hands from the remaining cards that lose every row to the winner.
fn mace_third() -> Decision {
    play("Ac Ad 2d", "3c 3d 3s 4d 4h", "7d 7h 7s 8d 8h")
}
fn mace_fourth() -> Decision {
    play("Jh Qs Kh", "2s 4s 5s 8s Js", "Tc Td Ts 6d 6s")
}

#[test]
fn maceplay_scoop_is_18_and_sweep_36() {
    let rules = Rules::maceplay();
    let out = run(&[mace_winner(), mace_loser()], &rules);
    let m = &out.matchups[0];
    assert_eq!(m.kind, MatchupKind::Rows);
    let values: Vec<u64> = m.rows.iter().map(|r| r.value).collect();
    assert_eq!(values, [3, 2, 4]);
    assert!(m.rows.iter().all(|r| r.winner == Some(0) && r.bonus));
    assert_eq!(m.base, 9);
    assert_eq!(m.scoop, Some(0));
    assert_eq!(m.after_scoop, 18);
    assert_eq!(m.points, 18, "no sweep at two players");
    assert_eq!(out.totals(), [18, -18]);

    let out = run(
        &[mace_winner(), mace_loser(), mace_third(), mace_fourth()],
        &rules,
    );
    assert!(out.players[0].sweep);
    for q in 1..4 {
        let m = out.matchup(0, q).unwrap();
        assert_eq!(
            (m.base, m.after_scoop, m.sweep_multiplier, m.points),
            (9, 18, 2, 36)
        );
    }
    assert_eq!(out.totals()[0], 108);
    // At three players MacePlay has no sweep.
    let out = run(&[mace_winner(), mace_loser(), mace_third()], &rules);
    assert!(!out.players[0].sweep);
    assert_eq!(out.totals()[0], 36);
}

// MacePlay example 2: pair / two pair / straight against high card / trips / flush.
fn ex2_me() -> Decision {
    play("Kc Kh 8c", "Ac Ad 5c 5d 2c", "7d 8d 9s Ts Js")
}
fn ex2_opp() -> Decision {
    play("As Jc 4c", "3c 3d 3h Ks 7c", "Qh Th 9h 6h 2h")
}

#[test]
fn maceplay_some_up_some_down_is_minus_one() {
    let rules = Rules::maceplay();
    let out = run(&[ex2_me(), ex2_opp()], &rules);
    let m = &out.matchups[0];
    let winners: Vec<_> = m.rows.iter().map(|r| r.winner).collect();
    assert_eq!(winners, [Some(0), Some(1), Some(1)]);
    assert_eq!((m.scoop, m.points), (None, -1));
    assert_eq!(out.totals(), [-1, 1]);
}

#[test]
fn maceplay_foul_examples() {
    let rules = Rules::maceplay();
    let fouled = play("Kc Kd Ah", "Ks Kh Qc Jd Th", "2c 2d 2h 3c 3d");
    let other = play("4c 5d 7h", "6c 6d 8h 9s Js", "Ac Qd Qs 9c 9d");
    let err = settle(&[other.clone(), fouled], &rules, None, 0).unwrap_err();
    match &err {
        Error::InvalidDecision { player, reason } => {
            assert_eq!(*player, 1);
            assert!(
                reason.contains("front") && reason.contains("middle"),
                "{reason}"
            );
        }
        e => panic!("{e:?}"),
    }
    let legal = play("Kc Kd Qh", "Ks Kh Ac Jd Th", "2c 2d 2h 3c 3d");
    let other = play("4c 5d 7h", "6c 6d 8h 9s Js", "As Qd Qs 9c 9d");
    let out = run(&[other, legal], &rules);
    assert_eq!(out.players[1].status, Status::Played);
}

#[test]
fn pokerclub_plus_two_minus_one_and_scoop_six() {
    for rules in [Rules::pokerclub_south(), Rules::pokerclub_north()] {
        // player 1 wins middle and back, player 0 the front
        let out = run(&[ex2_me(), ex2_opp()], &rules);
        assert_eq!(out.totals(), [-1, 1]);

        let a = play("Kc Kd 8c", "Ac Ad 5c 5d 2c", "7d 8d 9s Ts Js");
        let b = play("Qs Jc 4c", "3c 3d 4h Kh 7c", "6c 6h 6s 2d 3h");
        let out = run(&[a, b], &rules);
        let m = &out.matchups[0];
        assert_eq!((m.base, m.scoop, m.points), (3, Some(0), 6));
    }
}

#[test]
fn pokerclub_foul_pays_as_scooped_and_sweep_counts_it() {
    let rules = Rules::pokerclub_south();
    let fouled = play("Kc Kd Ah", "Ks Kh Qc Jd Th", "2c 2d 2h 3c 3d");
    // front trips (3), middle full house (2), back plain (1)
    let other = play("4c 4d 4h", "6c 6d 6h 9s 9h", "As Ad Ac 7c 7d");
    let out = run(&[other, fouled], &rules);
    let m = &out.matchups[0];
    assert_eq!(m.kind, MatchupKind::Foul);
    assert_eq!(out.players[1].status, Status::Fouled);
    assert_eq!((m.base, m.scoop, m.points), (6, Some(0), 12));
}

// PokerFever's four-player tally: A wins 6 rows and loses 3 (+3), B 1 and 8 (−7), C 7 and 2
// (+5), D 4 and 5 (−1). Rows by strength: fronts and middles A > C > D > B, backs C > D > B > A.
fn fever_table() -> Vec<Decision> {
    vec![
        play("As Ad 2s", "Ac 2c 3d 4h 5s", "6c 7d 8h 9s Tc"),
        play("Td 8c 7c", "5d 5c 8d 3s 2d", "Ks Js 8s 6s 4s"),
        play("Kc Kd 3c", "Qd Qs Jc Jd 4c", "9c 9d 9h 6d 6h"),
        play("Qc Qh 3h", "Th Ts 7h 7s 4d", "Ah Kh Jh 5h 2h"),
    ]
}

#[test]
fn pokerfever_four_player_tally() {
    let out = run(&fever_table(), &Rules::pokerfever_eastern());
    assert_eq!(out.matchups.len(), 6);
    let mut won = [0; 4];
    let mut lost = [0; 4];
    for m in &out.matchups {
        for r in &m.rows {
            let w = r.winner.unwrap();
            let l = if w == m.a { m.b } else { m.a };
            won[w] += 1;
            lost[l] += 1;
        }
    }
    assert_eq!(won, [6, 1, 7, 4]);
    assert_eq!(lost, [3, 8, 2, 5]);
    assert_eq!(out.totals(), [3, -7, 5, -1]);
    // Western adds a majority point per matchup won 2-1 or 3-0.
    let out = run(&fever_table(), &Rules::pokerfever_western());
    // A: +2 v B, +2 v C, +2 v D; B: -2, -4 v C, -4 v D; C: -2 v A; D: +4 v B, -2 v A, -4 v C
    assert_eq!(out.totals(), [6, -10, 6, -2]);
}

#[test]
fn two_four_two_of_three_is_two_and_three_is_four() {
    let rules = Rules::two_four();
    let out = run(&fever_table(), &rules);
    for (a, b, pts) in [
        (0, 1, 2),
        (0, 2, 2),
        (0, 3, 2),
        (1, 2, -4),
        (1, 3, -4),
        (2, 3, 4),
    ] {
        let m = out.matchup(a, b).unwrap();
        assert_eq!(m.points, pts, "{a} v {b}\n{}", out.explain());
    }
    assert_eq!(out.totals(), [6, -10, 6, -2]);
    // one player winning every row against three others: 12, the most without bonuses
    let out = run(
        &[mace_winner(), mace_loser(), mace_third(), mace_fourth()],
        &rules,
    );
    assert_eq!(out.totals()[0], 12);
    for q in 1..4 {
        let m = out.matchup(0, q).unwrap();
        assert_eq!((m.row_totals, m.overall, m.points), ([3, 0], 1, 4));
    }
}

#[test]
fn two_four_bonuses_are_added_then_the_difference_collected() {
    let mut rules = Rules::two_four();
    rules.bonus[0][3] = 2; // front trips: 1 + 2
                           // player 0: front trips wins (3); player 1 wins middle and back (1 + 1)
    let a = play("4c 4d 4h", "5c 6d 7h 8s 9s", "Ts Js Qs Ks 2s");
    let b = play("2c 3d 5h", "Kh Jh 9h 6h 3h", "Ac Ad Ah 8c 8d");
    let out = run(&[a, b], &rules);
    let m = &out.matchups[0];
    assert_eq!((m.row_totals, m.overall, m.points), ([3, 2], 1, 2));
}

#[test]
fn pokerfever_eastern_sweep_with_straight_flush_back_is_seven() {
    let me = play("Qc Qd 3h", "4c 5d 6h 7s 8c", "9h Th Jh Qh Kh");
    let opp = play("Jc Jd 2h", "2c 2d 3c 3d 4d", "As Ks 9s 5s 2s");
    let out = run(&[me, opp], &Rules::pokerfever_eastern());
    let m = &out.matchups[0];
    let values: Vec<u64> = m.rows.iter().map(|r| r.value).collect();
    assert_eq!(values, [1, 1, 5]);
    assert_eq!(
        (m.scoop, m.points),
        (Some(0), 7),
        "no scoop bonus in Eastern"
    );
}

#[test]
fn pokerfever_double_bonus_quads_over_quads_is_eight() {
    // fronts and middles tie (same ranks), backs: four kings over four nines
    let me = play("2c 3d 5h", "6c 6d 7h 8s Ts", "Kc Ks Kd Kh 5c");
    let opp = play("2d 3c 5s", "6h 6s 7c 8c Tc", "9c 9h 9s 9d 3h");
    let out = run(&[me.clone(), opp.clone()], &Rules::pokerfever_eastern());
    let m = &out.matchups[0];
    assert_eq!((m.rows[0].winner, m.rows[1].winner), (None, None));
    assert!(m.rows[2].doubled);
    assert_eq!((m.rows[2].value, m.points), (8, 8));
    let mut plain = Rules::pokerfever_eastern();
    plain.double_bonus = false;
    assert_eq!(run(&[me, opp], &plain).totals(), [4, -4]);
}

#[test]
fn ties_break_the_scoop() {
    // player 0 wins middle and back, the fronts tie: no scoop under MacePlay
    let a = play("2c 3d 5h", "6c 6d 7h 8s Ts", "Kc Ks Kd Kh 5c");
    let b = play("2d 3c 5s", "4c 4d 7c 8c Tc", "9c 9h 9s 9d 3h");
    let out = run(&[a, b], &Rules::maceplay());
    let m = &out.matchups[0];
    assert_eq!((m.scoop, m.points), (None, 5));
}

#[test]
fn pokerfever_surrender_pays_three_to_each() {
    let rules = Rules::pokerfever_western();
    let d = vec![Decision::Surrender, ex2_me(), ex2_opp()];
    let out = run(&d, &rules);
    assert_eq!(out.players[0].status, Status::Surrendered);
    assert_eq!(out.matchup(0, 1).unwrap().points, -3);
    assert_eq!(out.matchup(0, 2).unwrap().points, -3);
    // player 2 wins middle and back: 2 - 1 + majority 1
    assert_eq!(out.matchup(1, 2).unwrap().points, -2);
    assert_eq!(out.totals(), [-6, 1, 5]);
    // two surrenders exchange nothing
    let d = vec![Decision::Surrender, Decision::Surrender, ex2_opp()];
    let out = run(&d, &rules);
    assert_eq!(out.matchup(0, 1).unwrap().points, 0);
    assert_eq!(out.totals(), [-3, -3, 6]);
    // not allowed elsewhere
    let err = settle(&d, &Rules::maceplay(), None, 0).unwrap_err();
    assert!(
        matches!(&err, Error::InvalidDecision { player: 0, reason } if reason.contains("surrender"))
    );
}

#[test]
fn pokerfever_foul_pays_three_plus_bonus() {
    let fouled = play("Kc Kd Ah", "Ks Kh Qc Jd Th", "2c 2d 2h 3c 3d");
    // back straight flush: bonus 5, i.e. 4 above the row point
    let other = play("As Qs 4h", "9c 9d 9h Ts 7c", "4s 5s 6s 7s 8s");
    let out = run(
        &[fouled.clone(), other.clone()],
        &Rules::pokerfever_eastern(),
    );
    assert_eq!(out.totals(), [-7, 7]);
    let out = run(
        &[fouled.clone(), other.clone()],
        &Rules::pokerfever_western(),
    );
    assert_eq!(out.totals(), [-3, 3]);
    // foul against foul: nothing
    let fouled2 = play("Qs Qd As", "Qh 9c Jc Js Tc", "4c 4d 4h 5c 5d");
    let out = run(&[fouled, fouled2], &Rules::pokerfever_eastern());
    assert_eq!(out.matchups[0].kind, MatchupKind::BothFouled);
    assert_eq!(out.totals(), [0, 0]);
}

#[test]
fn naturals_are_paid_their_value() {
    let dragon = play("2s 3d 4s", "5d 6s 7d 8s 9d", "Ts Jd Qs Kd As");
    let rules = Rules::maceplay();
    // MacePlay declares automatically
    let other = play("Ac Jc 4c", "3c 3h 3s Kh 7c", "Qh Th 9h 6h 2h");
    let out = run(&[dragon.clone(), other.clone()], &rules);
    assert_eq!(out.players[0].status, Status::Natural);
    assert!(out.players[0].auto_declared);
    assert_eq!(out.players[0].natural, Some((NaturalKind::Dragon, 13)));
    assert_eq!(out.matchups[0].kind, MatchupKind::Natural);
    assert_eq!(out.totals(), [13, -13]);

    // Western: an undeclared natural plays as a normal hand; declared, it is paid 13
    let western = Rules::pokerfever_western();
    let out = run(&[dragon.clone(), other.clone()], &western);
    assert_eq!(out.players[0].status, Status::Played);
    let Decision::Play(ds) = dragon.clone() else {
        unreachable!()
    };
    let declared = Decision::Declare {
        natural: NaturalKind::Dragon,
        setting: ds,
    };
    let out = run(&[declared.clone(), other.clone()], &western);
    assert_eq!(out.totals(), [13, -13]);

    // a natural against a fouled hand is paid its value, not the foul penalty
    let fouled = play("Ac Ah 7s", "Jc Jh 8c 5c 4c", "Kh Td 6h 3h 2h");
    let out = run(&[declared.clone(), fouled], &western);
    assert_eq!(out.totals(), [13, -13]);

    // the other players still settle their rows; a surrender pays its cost even to a natural
    let out = run(
        &[
            declared.clone(),
            other.clone(),
            Decision::Surrender,
            play("Kc Ks 8c", "Ad Ah 5c 5h 2c", "7h 8d 9c Td Jh"),
        ],
        &western,
    );
    let pts: Vec<i64> = out.matchups.iter().map(|m| m.points).collect();
    // (0,1) natural, (0,2) surrender, (0,3) natural, (1,2) surrender, (1,3) rows, (2,3) surrender
    assert_eq!(pts, [13, 3, 13, 3, 2, -3]);
}

#[test]
fn natural_against_natural() {
    let rules = Rules::pokerclub_south();
    let dragon = Decision::Declare {
        natural: NaturalKind::Dragon,
        setting: s("2c 3d 4h", "5s 6c 7d 8h 9s", "Tc Jd Qh Ks Ah"),
    };
    let flushes = Decision::Declare {
        natural: NaturalKind::ThreeFlushes,
        setting: s("2h 5h 9h", "3s 7s 8s Js Qs", "2d 4d 6d Td Qd"),
    };
    let out = run(&[dragon.clone(), flushes.clone()], &rules);
    assert_eq!(out.totals(), [12, -12]);
    // equal naturals tie
    let straights = Decision::Declare {
        natural: NaturalKind::ThreeStraights,
        setting: s("Ac Kc Qc", "2c 3c 4h 5c 6c", "3h 4c 5s 6h 7h"),
    };
    let out = run(&[straights, flushes], &rules);
    assert_eq!(out.totals(), [0, 0]);
    assert_eq!(out.matchups[0].kind, MatchupKind::Natural);
}

#[test]
fn false_or_hidden_natural_is_a_foul() {
    let rules = Rules::pokerclub_south();
    let other = play("4s 4d 4h", "6s 6d 6h 9d 9h", "Ad Ah As 7h 7d");
    // does not hold three flushes
    let fake = Decision::Declare {
        natural: NaturalKind::ThreeFlushes,
        setting: s("2h 5h 9c", "3s 7s 8s Js Ks", "2c 4c 6c Tc Qc"),
    };
    let out = run(&[fake, other.clone()], &rules);
    assert_eq!(out.players[0].status, Status::Fouled);
    assert!(out.players[0]
        .foul_reason
        .as_ref()
        .unwrap()
        .contains("does not hold"));
    assert_eq!(out.totals(), [-12, 12]);
    // holds three flushes but the rows do not show them: PokerClub requires it
    let hidden = Decision::Declare {
        natural: NaturalKind::ThreeFlushes,
        setting: s("2h 5h 2c", "3s 7s 8s Js Ks", "3h 4c 6c Tc Qc"),
    };
    let out = run(&[hidden.clone(), other.clone()], &rules);
    assert_eq!(out.players[0].status, Status::Fouled);
    let mut lax = rules.clone();
    lax.natural_must_show = false;
    let out = run(&[hidden.clone(), other.clone()], &lax);
    assert_eq!(out.totals(), [3, -3]);
    // under a rejecting rule set a false declaration is an error naming the player
    let mut strict = rules.clone();
    strict.foul = FoulPolicy::Reject;
    let err = settle(&[other.clone(), hidden], &strict, None, 0).unwrap_err();
    assert!(
        matches!(err, Error::InvalidDecision { player: 1, .. }),
        "{err}"
    );
    // a natural the rule set does not know is an error
    let unknown = Decision::Declare {
        natural: NaturalKind::AllSmall,
        setting: s("2c 2d 3h", "3s 4c 5c 5d 5h", "2h 3c 6c 7c 8c"),
    };
    let err = settle(&[unknown, other], &rules, None, 0).unwrap_err();
    assert!(err.to_string().contains("all_small"), "{err}");
}

#[test]
fn bankroll_cap_in_dealer_order() {
    let rules = Rules::pokerfever_western();
    // the tally table under Western: A +2 v B, +2 v C, +2 v D; C +4 v B, +4 v D; D +4 v B
    let d = fever_table();
    let uncapped = settle(&d, &rules, None, 0).unwrap();
    assert_eq!(uncapped.totals(), [6, -10, 6, -2]);
    // dealer seat 3: payments start with seat 0, then 1, 2, 3
    let out = settle(&d, &rules, Some(&[100, 5, 100, 3]), 3).unwrap();
    assert!(out.capped);
    let pays: Vec<(usize, usize, i64, i64)> = out
        .payments
        .iter()
        .map(|p| (p.payer, p.payee, p.owed, p.paid))
        .collect();
    // (0,1): B pays A 2 (B 5 -> 3); (0,2): C pays A 2; (0,3): D pays A 2 (D 3 -> 1);
    // (1,2): B pays C 4, has 3; (1,3): B pays D 4, has 0; (2,3): D pays C 4, has 1
    assert_eq!(
        pays,
        [
            (1, 0, 2, 2),
            (2, 0, 2, 2),
            (3, 0, 2, 2),
            (1, 2, 4, 3),
            (1, 3, 4, 0),
            (3, 2, 4, 1)
        ]
    );
    assert_eq!(out.totals(), [6, -5, 2, -3]);
    assert_eq!(out.bankrolls_after, Some(vec![106, 0, 102, 0]));
    assert_eq!(out.raw_totals(), [6, -10, 6, -2]);
    // a winner never wins more than its own bankroll
    let out = settle(&d, &rules, Some(&[3, 100, 100, 100]), 3).unwrap();
    assert_eq!(out.totals()[0], 3);
    assert_eq!(out.totals().iter().sum::<i64>(), 0);
    // dealer seat 1: order 2, 3, 0, 1 -> (2,3), (2,0), (2,1), (3,0), (3,1), (0,1)
    let out = settle(&d, &rules, Some(&[100, 100, 100, 100]), 1).unwrap();
    let order: Vec<usize> = out.payments.iter().map(|p| p.matchup).collect();
    let pairs: Vec<(usize, usize)> = order
        .iter()
        .map(|&i| (out.matchups[i].a, out.matchups[i].b))
        .collect();
    assert_eq!(pairs, [(2, 3), (0, 2), (1, 2), (0, 3), (1, 3), (0, 1)]);
    assert!(out
        .explain()
        .contains("payments in order, starting with P2 (right of the dealer):\n"));
}

#[test]
fn bad_input_is_a_clear_error() {
    let rules = Rules::maceplay();
    let a = mace_winner();
    let b = mace_loser();
    // players
    let err = settle(std::slice::from_ref(&a), &rules, None, 0).unwrap_err();
    assert!(matches!(err, Error::InvalidShape { .. }), "{err}");
    let five = vec![Decision::Surrender; 5];
    assert!(settle(&five, &Rules::pokerfever_western(), None, 0).is_err());
    // a card twice across players
    let clash = play("Qc 3c 4c", "Tc Td Ts 2d 2s", "Jh Js Kh Ac Ad");
    let err = settle(&[a.clone(), b.clone(), clash], &rules, None, 0).unwrap_err();
    assert_eq!(
        err,
        Error::DuplicateCardPlayers {
            card: "Qc".into(),
            first: 0,
            second: 2
        }
    );
    assert!(err.to_string().contains("Qc") && err.to_string().contains("player 2"));
    // dealer and bankrolls
    assert!(matches!(
        settle(&[a.clone(), b.clone()], &rules, None, 2),
        Err(Error::InvalidShape { .. })
    ));
    assert!(matches!(
        settle(&[a.clone(), b.clone()], &rules, Some(&[1, 2, 3]), 0),
        Err(Error::InvalidShape { .. })
    ));
    // a negative bankroll: refused under a bankroll cap, a debt without one
    let capped = Rules {
        bankroll_cap: true,
        ..rules.clone()
    };
    assert!(matches!(
        settle(&[a.clone(), b.clone()], &capped, Some(&[1, -2]), 0),
        Err(Error::InvalidDecision { player: 1, .. })
    ));
    let uncapped = Rules {
        bankroll_cap: false,
        ..rules.clone()
    };
    let debt = settle(&[a.clone(), b.clone()], &uncapped, Some(&[1, -2]), 0).unwrap();
    let after = debt.bankrolls_after.unwrap();
    assert_eq!(after[0] + after[1], -1);
    assert!(matches!(
        settle(&[a.clone(), b.clone()], &uncapped, Some(&[1, i64::MIN]), 0),
        Err(Error::InvalidDecision { player: 1, .. })
    ));
    assert!(matches!(
        settle(&[a.clone(), b.clone()], &rules, Some(&[1, i64::MAX]), 0),
        Err(Error::InvalidDecision { player: 1, .. })
    ));
    // A rule set is checked when it is built, not by `settle`: values so large that a matchup
    // could overflow, and invalid values, are refused by `Rules::validate`.
    let mut huge = rules.clone();
    huge.scoop = Scoop::Multiply(u32::MAX);
    huge.sweep.multiplier = u32::MAX;
    let err = huge.validate().unwrap_err();
    assert!(
        matches!(&err, Error::InvalidRules { field, .. } if field == "scoop.amount"),
        "{err}"
    );
    let mut bad = rules.clone();
    bad.scoop = Scoop::Multiply(0);
    assert!(matches!(bad.validate(), Err(Error::InvalidRules { .. })));
    let _ = (a, b);
}

#[test]
fn explain_shows_every_number() {
    let out = run(
        &[mace_winner(), mace_loser(), mace_third(), mace_fourth()],
        &Rules::maceplay(),
    );
    let text = out.explain();
    println!("{text}");
    for needle in [
        "P0 v P1",
        "P0 wins 3 (bonus)",
        "rows 9 - 0 = +9",
        "scoop by P0: +9 -> +18",
        "sweep x2: +18 -> +36",
        "totals: P0 +108",
    ] {
        assert!(text.contains(needle), "{needle:?} missing in\n{text}");
    }
}

#[test]
fn sweep_counts_a_fouled_opponent_where_the_rule_set_says_so() {
    // the fourth player's cards laid out with the middle flush above the back pair
    let fouled = play("Tc Td Ts", "2s 4s 5s 8s Js", "Jh Qs Kh 6d 6s");
    let d = [mace_winner(), mace_loser(), mace_third(), fouled];
    let rules = Rules::pokerclub_south();
    let out = run(&d, &rules);
    assert_eq!(out.players[3].status, Status::Fouled);
    assert!(out.players[0].sweep);
    for q in 1..4 {
        assert_eq!(out.matchup(0, q).unwrap().points, 36);
    }
    let mut strict = rules.clone();
    strict.sweep.fouled_counts = false;
    let out = run(&d, &strict);
    assert!(!out.players[0].sweep);
    assert_eq!(out.totals()[0], 54);
}

#[test]
fn suit_order_breaks_ties() {
    let a = play("Ks Kh 2c", "As 2h 3c 4d 5d", "Qh Jh 9h 7h 6h");
    let b = play("Kd Kc 2d", "Ad 2s 3h 4c 5s", "Qc Jc 9c 7c 6c");
    let plain = Rules::shisanshui();
    let out = run(&[a.clone(), b.clone()], &plain);
    assert!(out.matchups[0].rows.iter().all(|r| r.winner.is_none()));
    assert_eq!(out.totals(), [0, 0]);
    let mut suited = plain.clone();
    suited.suit_order = Some(chinese_poker::presets::SHISANSHUI_SUIT_ORDER);
    let out = run(&[a, b], &suited);
    let m = &out.matchups[0];
    // kings: the spade king leads; wheels: the five is the top card, 5♠ over 5♦; flushes: ♥ > ♣
    let winners: Vec<_> = m.rows.iter().map(|r| r.winner).collect();
    assert_eq!(winners, [Some(0), Some(1), Some(0)]);
    assert!(m.rows.iter().all(|r| r.suit_break));
    assert_eq!(out.totals(), [1, -1]);
    assert!(out.explain().contains("(on suits)"));
}

#[test]
fn an_automatic_natural_replaces_a_fouled_layout() {
    // a dragon laid out as a foul (ace-high front over a seven-high middle)
    let dragon = play("Qs Kd As", "2s 3d 4s 5d 7d", "6s 8s 9d Ts Jd");
    let other = play("Ac Jc 4c", "3c 3h 3s Kh 7c", "Qh Th 9h 6h 2h");
    let out = run(&[dragon.clone(), other.clone()], &Rules::maceplay());
    assert_eq!(out.players[0].natural, Some((NaturalKind::Dragon, 13)));
    assert_eq!(out.totals(), [13, -13]);
    // where naturals must be declared, the same layout is a foul
    let out = run(&[dragon, other], &Rules::pokerclub_north());
    assert_eq!(out.players[0].status, Status::Fouled);
}

#[test]
fn explain_names_fouls_naturals_and_surrenders() {
    let rules = Rules::pokerfever_eastern();
    let dragon = Decision::Declare {
        natural: NaturalKind::Dragon,
        setting: s("2s 3d 4s", "5d 6s 7d 8s 9d", "Ts Jd Qs Kd As"),
    };
    let fouled = play("Ac Ah 7s", "Jc Jh 8c 5c 4c", "Kh Td 6h 3h 2h");
    let other = play("4h 5h 7h", "9c 9h 9s 3c 3s", "Qc Qh Qd 2c 2d");
    let out = run(&[dragon, fouled, Decision::Surrender, other], &rules);
    let text = out.explain();
    println!("{text}");
    for needle in [
        "P1: fouled",
        "front (pair of aces, seven kicker) beats middle",
        "natural: P0 dragon (13) v P1 fouled: +13",
        "P2 surrendered: +3",
        "foul penalty, flat units plus the bonuses above the row point: -4",
    ] {
        assert!(text.contains(needle), "{needle:?} missing in\n{text}");
    }
}
