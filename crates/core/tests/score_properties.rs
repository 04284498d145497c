//! Properties of settlement on many seeded random deals, for every preset and a few variants:
//! zero-sum, mirror symmetry under a swap of seats, scoops and ties, fouls, and the fast pair
//! scorer against both `settle` and a slow reference written from docs/rules.md ("Scoring").

// Seat-indexed matrices read more plainly with index loops.
#![allow(clippy::needless_range_loop)]

use chinese_poker::presets::{PRESET_NAMES, SHISANSHUI_SUIT_ORDER};
use chinese_poker::rules::{BonusMode, FoulPolicy, Scoop};
use chinese_poker::score::{MatchupKind, Status};
use chinese_poker::{
    best_natural, pair_score, row_key, settle, Card, Decision, Evaluator, Hand, HandRank, Rules,
    Setting,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::cmp::Ordering;

type R = Xoshiro256PlusPlus;

fn rule_sets() -> Vec<(String, Rules)> {
    let mut out: Vec<(String, Rules)> = PRESET_NAMES
        .iter()
        .map(|n| (n.to_string(), Rules::preset(n).unwrap()))
        .collect();
    let mut suited = Rules::shisanshui();
    suited.suit_order = Some(SHISANSHUI_SUIT_ORDER);
    out.push(("shisanshui+suits".into(), suited));
    let mut two_four_bonus = Rules::two_four();
    two_four_bonus.bonus = chinese_poker::rules::standard_bonus_table();
    for row in two_four_bonus.bonus.iter_mut() {
        for v in row.iter_mut() {
            *v -= 1; // the same table as extras on top of the row point
        }
    }
    out.push(("two_four+bonus".into(), two_four_bonus));
    let mut everything = Rules::pokerfever_eastern();
    everything.majority_point = 1;
    everything.overall_point = 2;
    everything.scoop = Scoop::Add(3);
    everything.sweep.multiplier = 3;
    everything.sweep.min_players = 3;
    everything.sweep.fouled_counts = false;
    out.push(("everything".into(), everything));
    let mut sweep_two = Rules::one_six();
    sweep_two.sweep.multiplier = 2;
    sweep_two.sweep.min_players = 2;
    sweep_two.bonus_mode = BonusMode::Add;
    sweep_two.bonus = [[0; 9]; 3];
    sweep_two.bonus[2][7] = 3;
    sweep_two.double_bonus = true;
    out.push(("sweep_two".into(), sweep_two));
    out
}

fn deal(rng: &mut R, n: usize) -> Vec<Vec<Card>> {
    let mut deck: Vec<Card> = (0..52).map(|c| Card::from_code(c).unwrap()).collect();
    deck.shuffle(rng);
    (0..n).map(|p| deck[13 * p..13 * p + 13].to_vec()).collect()
}

/// Two hands with the same ranks: the first from clubs and hearts, the second its image in
/// diamonds and spades.
fn mirrored_pair(rng: &mut R) -> [Vec<Card>; 2] {
    let mut pool: Vec<Card> = (0..13u8)
        .flat_map(|r| [Card::new(r, 0), Card::new(r, 2)])
        .collect();
    pool.shuffle(rng);
    let first = pool[..13].to_vec();
    let second = first.iter().map(|&c| mirror(c)).collect();
    [first, second]
}

fn mirror(c: Card) -> Card {
    Card::new(c.rank(), c.suit() ^ 1)
}

fn mirror_setting(s: &Setting) -> Setting {
    let m = |cs: &[Card]| cs.iter().map(|&c| mirror(c)).collect::<Vec<_>>();
    Setting::new(&m(&s.front), &m(&s.middle), &m(&s.back)).unwrap()
}

fn split(h: &[Card]) -> Setting {
    Setting::new(&h[..3], &h[3..8], &h[8..]).unwrap()
}

fn random_setting(rng: &mut R, hand: &[Card], legal: bool, rules: &Rules) -> Setting {
    let mut h = hand.to_vec();
    for _ in 0..10_000 {
        h.shuffle(rng);
        let mut s = split(&h);
        let ev = Evaluator::new(rules.wheel);
        let r = |cs: &[Card]| ev.eval_codes(&cs.iter().map(|c| c.code()).collect::<Vec<_>>());
        if r(&s.middle) > r(&s.back) && legal {
            std::mem::swap(&mut s.middle, &mut s.back);
        }
        if s.is_foul(rules.wheel) != legal {
            return s;
        }
    }
    // 13 cards always have a legal setting; a foul is found long before this.
    panic!("no setting found for {hand:?}");
}

/// `n` players' random decisions on freshly dealt hands.
fn random_round(rng: &mut R, n: usize, rules: &Rules) -> Vec<Decision> {
    let hands = deal(rng, n);
    hands
        .iter()
        .map(|h| random_decision(rng, h, rules))
        .collect()
}

/// A random decision: mostly legal play, sometimes a foul, a surrender, a natural declared or
/// a false declaration, within what the rule set allows.
fn random_decision(rng: &mut R, hand: &[Card], rules: &Rules) -> Decision {
    let x: f64 = rng.random();
    let can_foul = rules.foul != FoulPolicy::Reject;
    if x < 0.1 && rules.surrender.is_some() {
        return Decision::Surrender;
    }
    if x < 0.2 && can_foul {
        return Decision::Play(random_setting(rng, hand, false, rules));
    }
    if let Some(m) = best_natural(&Hand::from_cards(hand).unwrap(), rules) {
        if rng.random_bool(0.6) {
            let setting = m
                .setting
                .unwrap_or_else(|| random_setting(rng, hand, true, rules));
            return Decision::Declare {
                natural: m.kind,
                setting,
            };
        }
    }
    if x < 0.3 && can_foul && !rules.naturals.is_empty() {
        let k = rules.naturals[rng.random_range(0..rules.naturals.len())].kind;
        return Decision::Declare {
            natural: k,
            setting: random_setting(rng, hand, true, rules),
        };
    }
    Decision::Play(random_setting(rng, hand, true, rules))
}

fn keys(rules: &Rules, s: &Setting) -> [u64; 3] {
    let ranks = s.ranks(rules.wheel);
    [
        row_key(rules, &s.front, ranks[0]),
        row_key(rules, &s.middle, ranks[1]),
        row_key(rules, &s.back, ranks[2]),
    ]
}

#[test]
fn zero_sum_and_mirror_symmetry() {
    let mut rng = R::seed_from_u64(11);
    for (name, rules) in rule_sets() {
        let mut kinds = std::collections::HashSet::new();
        for i in 0..1500 {
            let n = 2 + i % 3;
            let d = random_round(&mut rng, n, &rules);
            let dealer = rng.random_range(0..n);
            let bankrolls: Vec<i64> = (0..n).map(|_| rng.random_range(0..40)).collect();
            let out = settle(&d, &rules, Some(&bankrolls), dealer).unwrap();
            let ctx = || format!("{name} deal {i}\n{}", out.explain());
            assert_eq!(out.raw_totals().iter().sum::<i64>(), 0, "{}", ctx());
            assert_eq!(out.totals().iter().sum::<i64>(), 0, "{}", ctx());
            if let Some(after) = &out.bankrolls_after {
                for p in 0..n {
                    assert_eq!(after[p] - bankrolls[p], out.totals()[p], "{}", ctx());
                    if out.capped {
                        assert!(after[p] >= 0, "{}", ctx());
                        assert!(out.totals()[p] <= bankrolls[p], "{}", ctx());
                    }
                }
            }
            if !out.capped {
                assert_eq!(out.totals(), out.raw_totals(), "{}", ctx());
            }
            for m in &out.matchups {
                kinds.insert(m.kind.name());
            }

            // swap two seats: the result is the mirror image (before any bankroll cap, whose
            // payment order depends on the seats)
            let (x, y) = (rng.random_range(0..n), rng.random_range(0..n));
            let mut swapped = d.clone();
            swapped.swap(x, y);
            let out2 = settle(&swapped, &rules, None, 0).unwrap();
            let seat = |p: usize| {
                if p == x {
                    y
                } else if p == y {
                    x
                } else {
                    p
                }
            };
            for p in 0..n {
                assert_eq!(out.raw_totals()[p], out2.raw_totals()[seat(p)], "{}", ctx());
                assert_eq!(out.players[p].status, out2.players[seat(p)].status);
                assert_eq!(out.players[p].sweep, out2.players[seat(p)].sweep);
            }
            for m in &out.matchups {
                let m2 = out2.matchup(seat(m.a), seat(m.b)).unwrap();
                let sign = if seat(m.a) == m2.a { 1 } else { -1 };
                assert_eq!(m.points, sign * m2.points, "{}", ctx());
                assert_eq!(m.kind, m2.kind);
            }
        }
        assert_eq!(
            kinds.contains("natural"),
            !rules.naturals.is_empty(),
            "{name}: {kinds:?}"
        );
        let allowed = rules.foul != FoulPolicy::Reject;
        assert!(kinds.contains("rows"), "{name}");
        assert_eq!(kinds.contains("foul"), allowed, "{name}: {kinds:?}");
        assert_eq!(
            kinds.contains("surrender"),
            rules.surrender.is_some(),
            "{name}"
        );
    }
}

#[test]
fn scoops_ties_and_fouls() {
    let mut rng = R::seed_from_u64(12);
    for (name, rules) in rule_sets() {
        let mut scoops = 0;
        let mut ties = 0;
        for i in 0..1500 {
            let n = 2 + i % 3;
            let mut hands = deal(&mut rng, n);
            if i % 4 == 0 {
                // the second player holds the first one's ranks in other suits: rows tie often
                let [x, y] = mirrored_pair(&mut rng);
                let used: Vec<Card> = x.iter().chain(&y).copied().collect();
                let mut rest: Vec<Card> = (0..52)
                    .map(|c| Card::from_code(c).unwrap())
                    .filter(|c| !used.contains(c))
                    .collect();
                rest.shuffle(&mut rng);
                hands[0] = x;
                hands[1] = y;
                for p in 2..n {
                    hands[p] = rest[13 * (p - 2)..13 * (p - 1)].to_vec();
                }
            }
            let mut d: Vec<Decision> = hands
                .iter()
                .map(|h| random_decision(&mut rng, h, &rules))
                .collect();
            if i % 4 == 0 && rng.random_bool(0.5) {
                if let Decision::Play(s) = &d[0] {
                    d[1] = Decision::Play(mirror_setting(s));
                }
            }
            let out = settle(&d, &rules, None, 0).unwrap();
            let ctx = || format!("{name} deal {i}\n{}", out.explain());
            for m in &out.matchups {
                let tied = m.rows.iter().any(|r| r.winner.is_none());
                if m.kind == MatchupKind::Rows && tied {
                    ties += 1;
                    assert_eq!(m.scoop, None, "a tie never scoops\n{}", ctx());
                    if rules.suit_order.is_some() {
                        panic!("no row ties under a suit order\n{}", ctx());
                    }
                }
                if let Some(p) = m.scoop {
                    scoops += 1;
                    let mine = if p == m.a { m.points } else { -m.points };
                    assert!(mine > 0, "the scooper wins\n{}", ctx());
                }
                if m.kind == MatchupKind::Rows {
                    // whoever wins every row wins the matchup; so does whoever wins more row
                    // value without losing the majority
                    for (p, sign) in [(m.a, 1), (m.b, -1)] {
                        if m.rows.iter().all(|r| r.winner == Some(p)) {
                            assert!(sign * m.points > 0, "{}", ctx());
                        }
                    }
                }
                if m.kind == MatchupKind::Foul {
                    let fouled = if out.players[m.a].status == Status::Fouled {
                        m.a
                    } else {
                        m.b
                    };
                    let mine = if fouled == m.a { m.points } else { -m.points };
                    assert!(mine < 0, "a foul loses\n{}", ctx());
                }
            }
            // a player who wins every row of every matchup never loses
            for p in 0..n {
                let all_rows = out
                    .matchups
                    .iter()
                    .filter(|m| m.a == p || m.b == p)
                    .all(|m| {
                        m.kind == MatchupKind::Rows && m.rows.iter().all(|r| r.winner == Some(p))
                    });
                if all_rows {
                    assert!(out.players[p].raw_total > 0, "{}", ctx());
                }
            }
        }
        assert!(scoops > 20, "{name}: {scoops} scoops");
        if rules.suit_order.is_none() {
            assert!(ties > 50, "{name}: {ties} matchups with ties");
        }
    }
}

/// The slow reference: one matchup between two legal settings from docs/rules.md ("Scoring"), on hand ranks
/// (no suit order), with values read from the rule set's table.
fn reference(rules: &Rules, a: &[HandRank; 3], b: &[HandRank; 3]) -> (i64, bool, bool) {
    let order = [0, 1, 2].map(|i| a[i].cmp(&b[i]));
    reference_rows(rules, a, b, order)
}

/// As [`reference`], with the row outcomes given (`order[row]`: `a` against `b`).
fn reference_rows(
    rules: &Rules,
    a: &[HandRank; 3],
    b: &[HandRank; 3],
    order: [Ordering; 3],
) -> (i64, bool, bool) {
    let value = |row: usize, win: HandRank, lose: HandRank| -> i64 {
        let raw = rules.bonus[row][win.category() as usize] as i64;
        let (plain, bonus) = match rules.bonus_mode {
            BonusMode::Replace => (raw, raw - 1),
            BonusMode::Add => (1 + raw, raw),
        };
        if rules.double_bonus && bonus > 0 && win.category() == lose.category() {
            plain
                + bonus
                + if rules.bonus_mode == BonusMode::Replace {
                    1
                } else {
                    0
                }
        } else {
            plain
        }
    };
    let (mut ta, mut tb, mut wa, mut wb) = (0i64, 0i64, 0, 0);
    for row in 0..3 {
        match order[row] {
            Ordering::Greater => {
                ta += value(row, a[row], b[row]);
                wa += 1;
            }
            Ordering::Less => {
                tb += value(row, b[row], a[row]);
                wb += 1;
            }
            Ordering::Equal => {}
        }
    }
    let mut pts = ta - tb;
    if wa > wb {
        pts += rules.majority_point as i64;
    } else if wb > wa {
        pts -= rules.majority_point as i64;
    }
    if ta > tb {
        pts += rules.overall_point as i64;
    } else if tb > ta {
        pts -= rules.overall_point as i64;
    }
    match rules.scoop {
        Scoop::Multiply(k) if wa == 3 || wb == 3 => pts *= k as i64,
        Scoop::Add(k) if wa == 3 => pts += k as i64,
        Scoop::Add(k) if wb == 3 => pts -= k as i64,
        _ => {}
    }
    (pts, wa == 3, wb == 3)
}

#[test]
fn pair_score_agrees_with_settle_and_the_reference() {
    let mut rng = R::seed_from_u64(13);
    for (name, rules) in rule_sets() {
        let mut plain = rules.clone();
        plain.naturals.clear(); // no automatic naturals: both hands are compared on rows
        for i in 0..3000 {
            let mirrored = i % 5 == 0;
            // mirrored ranks: many ties (and, under a suit order, suit breaks)
            let hands = if mirrored {
                mirrored_pair(&mut rng).to_vec()
            } else {
                deal(&mut rng, 2)
            };
            let sa = random_setting(&mut rng, &hands[0], true, &rules);
            let sb = if mirrored && rng.random_bool(0.5) {
                mirror_setting(&sa)
            } else {
                random_setting(&mut rng, &hands[1], true, &rules)
            };
            let (ka, kb) = (keys(&rules, &sa), keys(&rules, &sb));
            let fast = pair_score(&rules, &ka, &kb);
            let back = pair_score(&rules, &kb, &ka);
            assert_eq!(fast.points, -back.points);
            assert_eq!(
                (fast.a_scoops, fast.b_scoops),
                (back.b_scoops, back.a_scoops)
            );
            let out = settle(&[Decision::Play(sa), Decision::Play(sb)], &plain, None, 0).unwrap();
            let m = &out.matchups[0];
            assert_eq!(fast.points, m.after_scoop, "{name} {i}\n{}", out.explain());
            assert_eq!(fast.a_scoops, m.scoop == Some(0));
            assert_eq!(fast.b_scoops, m.scoop == Some(1));
            if rules.suit_order.is_none() {
                let r = reference(&rules, &sa.ranks(rules.wheel), &sb.ranks(rules.wheel));
                assert_eq!(r, (fast.points, fast.a_scoops, fast.b_scoops), "{name} {i}");
            }
        }
    }
}

#[test]
fn suit_order_refines_the_rank_order() {
    let mut rng = R::seed_from_u64(14);
    let mut rules = Rules::shisanshui();
    rules.suit_order = Some(SHISANSHUI_SUIT_ORDER);
    let ev = Evaluator::new(rules.wheel);
    for i in 0..200_000 {
        let len = if i % 2 == 0 { 3 } else { 5 };
        let hands = deal(&mut rng, 2);
        let mut a = hands[0][..len].to_vec();
        let mut b = hands[1][..len].to_vec();
        if i % 3 == 0 {
            // same ranks, other suits
            b = a
                .iter()
                .map(|c| Card::new(c.rank(), (c.suit() + 1 + (i as u8 % 3)) % 4))
                .collect();
            if (0..len).any(|j| b[..j].contains(&b[j])) {
                continue;
            }
        }
        a.shuffle(&mut rng);
        let r = |cs: &[Card]| ev.eval_codes(&cs.iter().map(|c| c.code()).collect::<Vec<_>>());
        let (ra, rb) = (r(&a), r(&b));
        let (ka, kb) = (row_key(&rules, &a, ra), row_key(&rules, &b, rb));
        if ra != rb {
            assert_eq!(ka.cmp(&kb), ra.cmp(&rb));
        } else {
            let same_cards = {
                let mut x = a.clone();
                let mut y = b.clone();
                x.sort();
                y.sort();
                x == y
            };
            assert_eq!(ka == kb, same_cards, "{a:?} {b:?}");
        }
    }
}

/// A player's hand in the reference table settlement.
enum RefHand {
    Played([HandRank; 3], [u64; 3]),
    Fouled,
    Natural(i64),
    Surrendered,
}

/// The slow reference for a whole table, written from docs/rules.md ("Scoring", "Fouls, naturals and surrender") and the decisions in the
/// `score` module docs: returns every matchup's points (pairs in order) and the raw totals.
fn reference_table(rules: &Rules, d: &[Decision]) -> (Vec<i64>, Vec<i64>) {
    use chinese_poker::naturals::{displays, qualifies};
    use chinese_poker::rules::Declaration;
    let cards =
        |s: &Setting| Hand::from_cards(&[&s.front[..], &s.middle, &s.back].concat()).unwrap();
    let hands: Vec<RefHand> = d
        .iter()
        .map(|x| match x {
            Decision::Surrender => RefHand::Surrendered,
            Decision::Declare { natural, setting } => {
                let value = rules.natural_value(*natural).unwrap() as i64;
                let shown = !rules.natural_must_show || displays(setting, *natural);
                if qualifies(&cards(setting), *natural) && shown {
                    RefHand::Natural(value)
                } else {
                    RefHand::Fouled
                }
            }
            Decision::Play(s) => {
                let auto = (rules.declaration == Declaration::Auto)
                    .then(|| best_natural(&cards(s), rules))
                    .flatten();
                let r = s.ranks(rules.wheel);
                if let Some(m) = auto {
                    RefHand::Natural(m.value as i64)
                } else if r[0] > r[1] || r[1] > r[2] {
                    RefHand::Fouled
                } else {
                    RefHand::Played(r, keys(rules, s))
                }
            }
        })
        .collect();
    let n = d.len();
    let mut pts = vec![vec![0i64; n]; n];
    let mut scooped = vec![vec![false; n]; n];
    let surrender = rules.surrender.unwrap_or(0) as i64;
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            pts[a][b] = match (&hands[a], &hands[b]) {
                (RefHand::Surrendered, RefHand::Surrendered) => 0,
                (RefHand::Surrendered, _) => -surrender,
                (_, RefHand::Surrendered) => surrender,
                (RefHand::Natural(x), RefHand::Natural(y)) => match x.cmp(y) {
                    Ordering::Greater => *x,
                    Ordering::Less => -*y,
                    Ordering::Equal => 0,
                },
                (RefHand::Natural(x), _) => *x,
                (_, RefHand::Natural(y)) => -*y,
                (RefHand::Fouled, RefHand::Fouled) => 0,
                (RefHand::Played(r, _), RefHand::Fouled) => {
                    scooped[a][b] = rules.sweep.fouled_counts;
                    let values: i64 = (0..3)
                        .map(|row| {
                            rules.row_value(chinese_poker::Row::ALL[row], r[row].category()) as i64
                        })
                        .sum();
                    match rules.foul {
                        FoulPolicy::FlatPlusBonus(k) => k as i64 + values - 3,
                        _ => {
                            // the fouled hand loses every row: compare against rows that lose
                            let lowest = [HandRank::default(); 3];
                            reference_rows(rules, r, &lowest, [Ordering::Greater; 3]).0
                        }
                    }
                }
                (RefHand::Fouled, RefHand::Played(..)) => 0, // filled from the other side
                (RefHand::Played(ra, ka), RefHand::Played(rb, kb)) => {
                    let order = [0, 1, 2].map(|i| ka[i].cmp(&kb[i]));
                    let (p, sa, _) = reference_rows(rules, ra, rb, order);
                    scooped[a][b] = sa;
                    p
                }
            };
        }
    }
    for a in 0..n {
        for b in 0..n {
            if matches!(
                (&hands[a], &hands[b]),
                (RefHand::Fouled, RefHand::Played(..))
            ) {
                pts[a][b] = -pts[b][a];
            }
        }
    }
    if n >= rules.sweep.min_players {
        for p in 0..n {
            if (0..n).all(|q| q == p || scooped[p][q]) {
                for q in 0..n {
                    pts[p][q] *= rules.sweep.multiplier as i64;
                    pts[q][p] *= rules.sweep.multiplier as i64;
                }
            }
        }
    }
    let mut matchups = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            assert_eq!(pts[a][b], -pts[b][a]);
            matchups.push(pts[a][b]);
        }
    }
    let totals = (0..n).map(|p| pts[p].iter().sum()).collect();
    (matchups, totals)
}

#[test]
fn settle_agrees_with_the_reference_table() {
    let mut rng = R::seed_from_u64(15);
    for (name, rules) in rule_sets() {
        for i in 0..1500 {
            let n = 2 + i % 3;
            let d = random_round(&mut rng, n, &rules);
            let out = settle(&d, &rules, None, 0).unwrap();
            let (matchups, totals) = reference_table(&rules, &d);
            let got: Vec<i64> = out.matchups.iter().map(|m| m.points).collect();
            assert_eq!(got, matchups, "{name} deal {i}\n{}", out.explain());
            assert_eq!(out.raw_totals(), totals, "{name} deal {i}");
        }
    }
}
