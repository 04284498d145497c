//! The service's answers and every error path, with the field each names.

use super::*;
use serde_json::json;

const HAND: &str = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d";
const ROUND: [&str; 2] = [
    "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s",
    "Ac Kc 7d / Jc Jd 8s 6c 4d / Ah Th 6h 3h 2h",
];

fn service() -> Service {
    Service::new(ServiceLimits {
        max_samples: 30_000,
        max_hands: 8,
        timeout: 5.0,
        ..ServiceLimits::default()
    })
}

fn ask(s: &Service, op: Op, body: Value) -> (u16, Value) {
    let reply = s.answer(op, body.to_string().as_bytes(), &crate::parallel::never);
    let answer: Value = serde_json::from_slice(&reply.body).expect("JSON");
    assert_eq!(reply.code.is_some(), reply.status != 200);
    (reply.status, answer)
}

/// The error's (status, code, field, type).
fn refused(s: &Service, op: Op, body: Value) -> (u16, String, Option<String>, Option<String>) {
    let (status, answer) = ask(s, op, body.clone());
    let e = &answer["error"];
    assert!(e.is_object(), "{body}: {answer}");
    let message = e["message"].as_str().unwrap();
    if let Some(f) = e["field"].as_str() {
        if e["type"].is_null() && e["code"] == "invalid_input" {
            assert!(message.starts_with(&format!("{f}: ")), "{message}");
        }
    }
    (
        status,
        e["code"].as_str().unwrap().to_string(),
        e["field"].as_str().map(str::to_string),
        e["type"].as_str().map(str::to_string),
    )
}

fn field_of(s: &Service, op: Op, body: Value) -> Option<String> {
    let (status, _, field, _) = refused(s, op, body);
    assert_eq!(status, 422);
    field
}

#[test]
fn solve_answers_as_the_solver_does() {
    let s = service();
    let (status, answer) = ask(&s, Op::Solve, json!({"hands": [HAND], "top_k": 2}));
    assert_eq!(status, 200, "{answer}");
    let rules = Rules::maceplay();
    let Objective::TableEv(te) = s
        .solver(("maceplay".into(), 4, None), || unreachable!())
        .unwrap()
        .objective
        .clone()
    else {
        panic!()
    };
    let hand = ops_hand(HAND);
    let want = crate::solve::solve(&hand, &rules, 4, &Objective::TableEv(te.clone()), 2).unwrap();
    let solved = crate::solve::Solved::new(
        want,
        4,
        "maceplay",
        &rules.digest(),
        &Objective::TableEv(te),
    );
    let mut want = serde_json::to_value(&solved).unwrap();
    want.as_object_mut()
        .unwrap()
        .insert("hand".into(), HAND.into());
    assert_eq!(answer["solutions"][0], want);
    assert_eq!(answer["rules_digest"], rules.digest());
    assert_eq!(answer["tables"]["source"], "shipped");
    // the batch answers the same decision
    let (_, decided) = ask(
        &s,
        Op::Solve,
        json!({"hands": [HAND], "detail": "decision"}),
    );
    let d = &decided["solutions"][0];
    assert_eq!(d["decision"], answer["solutions"][0]["decision"]);
    assert_eq!(d["value"], answer["solutions"][0]["value"]);
    assert_eq!(d["setting"], answer["solutions"][0]["setting"]);
}

fn ops_hand(text: &str) -> crate::hand::Hand {
    crate::hand::Hand::from_cards(&crate::parse_cards(text).unwrap()).unwrap()
}

#[test]
fn every_shape_error_names_its_field() {
    let s = service();
    let cases = [
        (json!({"hands": [HAND], "color": "red"}), Some("color")),
        (json!({}), Some("hands")),
        (json!({"hands": HAND}), Some("hands")),
        (json!({"hands": []}), Some("hands")),
        (json!({"hands": vec![HAND; 9]}), Some("hands")),
        (json!({"hands": [HAND, 5]}), Some("hands[1]")),
        (json!({"hands": [HAND, "As Ks"]}), Some("hands[1]")),
        (
            json!({"hands": [HAND, "As Ks"], "detail": "decision"}),
            Some("hands[1]"),
        ),
        (
            json!({"hands": [HAND, "As Xx"], "detail": "decision"}),
            Some("hands[1]"),
        ),
        (
            json!({"hands": [HAND], "objective": "fast"}),
            Some("objective"),
        ),
        (
            json!({"hands": [HAND], "objective": null}),
            Some("objective"),
        ),
        (
            json!({"hands": [HAND], "objective": {"monte_carlo": {"sample": 5}}}),
            Some("objective.monte_carlo.sample"),
        ),
        (
            json!({"hands": [HAND], "objective": {"monte_carlo": 5}}),
            Some("objective.monte_carlo"),
        ),
        (
            json!({"hands": [HAND], "objective": {"monte_carlo": {"time_limit": -1}}}),
            Some("objective.monte_carlo.time_limit"),
        ),
        (
            json!({"hands": [HAND], "objective": {"monte_carlo": {"time_limit": true}}}),
            Some("objective.monte_carlo.time_limit"),
        ),
        (
            json!({"hands": [HAND, HAND], "objective": {"monte_carlo": {"time_limit": 3}}}),
            Some("objective.monte_carlo.time_limit"),
        ),
        (
            json!({"hands": [HAND], "objective": {"monte_carlo": {"samples": 1000.0}}}),
            Some("objective.monte_carlo.samples"),
        ),
        (
            json!({"hands": [HAND], "objective": {"monte_carlo": {"samples": true}}}),
            Some("objective.monte_carlo.samples"),
        ),
        (
            json!({"hands": [HAND], "objective": {"monte_carlo": {"samples": 1}}}),
            Some("objective.monte_carlo.samples"),
        ),
        (
            json!({"hands": [HAND, HAND], "objective": {"monte_carlo": {"samples": 20000}}}),
            Some("objective.monte_carlo.samples"),
        ),
        (
            json!({"hands": [HAND], "objective": {"monte_carlo": {"seed": -1}}}),
            Some("objective.monte_carlo.seed"),
        ),
        (json!({"hands": [HAND], "rules": 5}), Some("rules")),
        (json!({"hands": [HAND], "rules": "nope"}), Some("rules")),
        (
            json!({"hands": [HAND], "rules": {"scoop": {"kind": "x"}}}),
            Some("rules.scoop.kind"),
        ),
        (json!({"hands": [HAND], "players": 7}), Some("players")),
        (json!({"hands": [HAND], "players": true}), Some("players")),
        (json!({"hands": [HAND], "players": "4"}), Some("players")),
        (json!({"hands": [HAND], "top_k": 0}), Some("top_k")),
        (json!({"hands": [HAND], "top_k": 2.0}), Some("top_k")),
        (json!({"hands": [HAND], "detail": "all"}), Some("detail")),
        (json!([HAND]), None),
    ];
    for (body, want) in cases {
        assert_eq!(
            field_of(&s, Op::Solve, body.clone()).as_deref(),
            want,
            "{body}"
        );
    }
}

#[test]
fn library_errors_carry_their_message_and_class() {
    let s = service();
    let (_, answer) = ask(&s, Op::Solve, json!({"hands": [HAND], "players": 7}));
    assert_eq!(
        answer["error"]["message"],
        "argument \"players\": expected an int from 2 to 4, got 7"
    );
    assert_eq!(answer["error"]["type"], "InvalidArgumentError");
    let (_, answer) = ask(&s, Op::Solve, json!({"hands": [HAND], "players": 4.0}));
    assert_eq!(answer["error"]["type"], "InvalidTypeError");
    let (_, answer) = ask(&s, Op::Solve, json!({"hands": ["As Ks"]}));
    assert_eq!(
        answer["error"]["message"],
        "hand: expected 13 cards, got 2 cards"
    );
    assert_eq!(answer["error"]["type"], "InvalidShapeError");
    let (_, answer) = ask(&s, Op::Solve, json!({"hands": [HAND], "rules": "nope"}));
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("unknown preset 'nope'; expected one of maceplay, "));
    let (_, answer) = ask(
        &s,
        Op::Solve,
        json!({"hands": [HAND, "As Ks"], "detail": "decision"}),
    );
    assert_eq!(
        answer["error"]["message"],
        "line 1: expected 13 cards, got 2 cards"
    );
    let mc = json!({"monte_carlo": {"samples": 100, "time_limit": 20.0}});
    let (_, answer) = ask(&s, Op::Solve, json!({"hands": [HAND], "objective": mc}));
    assert_eq!(
        answer["error"]["message"],
        "objective.monte_carlo.time_limit: 20 s of sampling for each of 1 hands is more than \
         this server's request timeout of 5 s"
    );
}

#[test]
fn settle_and_naturals_name_the_field() {
    let s = service();
    let bad_card = json!([ROUND[0], ROUND[1].replace("2h", "2Q")]);
    let (_, answer) = ask(&s, Op::Settle, json!({"decisions": bad_card}));
    assert_eq!(answer["error"]["field"], "decisions[1].back");
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("back row: invalid card '2Q'"));
    let cases = [
        (json!({"decisions": ROUND, "dealer": 5}), "dealer"),
        (json!({"decisions": ROUND, "dealer": true}), "dealer"),
        (json!({"decisions": ROUND, "bankrolls": [1]}), "bankrolls"),
        (json!({"decisions": ROUND, "bankrolls": "1,2"}), "bankrolls"),
        (
            json!({"decisions": ROUND, "bankrolls": [1, 2.5]}),
            "bankrolls[1]",
        ),
        (json!({"decisions": ROUND, "explain": 1}), "explain"),
        (
            json!({"decisions": [{"decision": "fold"}]}),
            "decisions[0].decision",
        ),
        (
            json!({"decisions": [{"decision": "play"}]}),
            "decisions[0].setting",
        ),
        (
            json!({"decisions": [{"decision": "declare", "setting": ROUND[0], "natural": "x"}]}),
            "decisions[0]",
        ),
        (json!({"decisions": [5, ROUND[1]]}), "decisions[0]"),
        (json!({"decisions": ["a / b", ROUND[1]]}), "decisions[0]"),
        (
            json!({"decisions": [ROUND[0], "surrender"]}),
            "decisions[1]",
        ),
        (json!({"decisions": [ROUND[0], ROUND[0]]}), "decisions[1]"),
        (json!({"decisions": 5}), "decisions"),
        (json!({"decisions": vec![ROUND[0]; 6]}), "decisions"),
        (json!({"hand": "As Ks"}), "hand"),
    ];
    for (body, want) in cases {
        assert_eq!(
            field_of(&s, Op::Settle, body.clone()).as_deref(),
            Some(want),
            "{body}"
        );
    }
    assert_eq!(
        field_of(&s, Op::Naturals, json!({"hand": "As Ks"})).as_deref(),
        Some("hand")
    );
    assert_eq!(
        field_of(&s, Op::Naturals, json!({"hand": 5})).as_deref(),
        Some("hand")
    );
    assert_eq!(
        field_of(&s, Op::Naturals, json!({})).as_deref(),
        Some("hand")
    );
    let (status, answer) = ask(&s, Op::Settle, json!({"decisions": ROUND, "explain": true}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["totals"], json!([18, -18]));
    assert_eq!(answer["rules"], "maceplay");
    assert!(answer["explanation"].as_str().unwrap().len() > 100);
    let (_, short) = ask(&s, Op::Settle, json!({"decisions": ROUND}));
    assert!(short.get("explanation").is_none());
}

#[test]
fn rules_list_and_presets() {
    let s = service();
    let (_, list) = ask(&s, Op::Rules, json!({}));
    assert_eq!(list["presets"].as_array().unwrap().len(), PRESETS_LEN);
    let (_, two) = ask(&s, Op::Rules, json!({"name": "two_four"}));
    assert_eq!(two["name"], "two_four");
    assert_eq!(
        Rules::from_data(&two).unwrap(),
        Rules::preset("two_four").unwrap()
    );
    let (status, code, field, _) = refused(&s, Op::Rules, json!({"name": "x"}));
    assert_eq!(
        (status, code.as_str(), field.as_deref()),
        (404, "not_found", Some("name"))
    );
    assert_eq!(
        field_of(&s, Op::Rules, json!({"name": 5})).as_deref(),
        Some("name")
    );
}

const PRESETS_LEN: usize = crate::presets::PRESETS.len();

#[test]
fn bad_json_too_large_and_odd_numbers_are_answered() {
    let s = service();
    let never = &crate::parallel::never;
    for body in [
        &b"{bad"[..],
        b"",
        b"\xff\xfe",
        b"NaN",
        b"{\"hands\": [1e999]}",
        b"\"\\ud800\"",
    ] {
        let r = s.answer(Op::Solve, body, never);
        assert_eq!((r.status, r.code), (400, Some("bad_json")), "{body:?}");
    }
    let deep = "[".repeat(100_000);
    assert_eq!(s.answer(Op::Solve, deep.as_bytes(), never).status, 400);
    let big = vec![b' '; (1 << 20) + 1];
    assert_eq!(s.answer(Op::Solve, &big, never).code, Some("too_large"));
    for players in [
        "-0",
        "1e2",
        "18446744073709551616",
        "-9223372036854775809",
        "4.0",
    ] {
        let body = format!("{{\"hands\": [\"{HAND}\"], \"players\": {players}}}");
        let r = s.answer(Op::Solve, body.as_bytes(), never);
        assert_eq!(r.status, 422, "{players}");
    }
    // a key twice: the last value, as Python reads it
    let body = format!("{{\"hands\": [\"{HAND}\"], \"players\": 9, \"players\": 2}}");
    let r = s.answer(Op::Solve, body.as_bytes(), never);
    assert_eq!(r.status, 200);
    assert_eq!(r.hands, Some(("table", 1)));
    // non-ASCII text comes back as it went
    let hand = "A♠ K♠ Q♠ J♠ 9♥ 9♦ 7♣ 6♣ 5♦ 4♥ 3♠ 2♠ 2♦";
    let (status, answer) = ask(&s, Op::Solve, json!({"hands": [hand]}));
    assert_eq!(status, 200);
    assert_eq!(answer["solutions"][0]["hand"], hand);
}

#[test]
fn stdio_lines_echo_their_id() {
    let s = service();
    let never = &crate::parallel::never;
    let line = json!({"op": "settle", "id": "a1", "decisions": ROUND}).to_string();
    let out = s.answer_line(line.as_bytes(), never);
    assert!(
        out.starts_with(b"{\"id\":\"a1\",\"rules\":\"maceplay\""),
        "{}",
        String::from_utf8_lossy(&out)
    );
    let out: Value =
        serde_json::from_slice(&s.answer_line(br#"{"op": "fold", "id": 2}"#, never)).unwrap();
    assert_eq!(
        (out["id"].clone(), out["error"]["field"].clone()),
        (json!(2), json!("op"))
    );
    let out: Value = serde_json::from_slice(&s.answer_line(b"[1]", never)).unwrap();
    assert_eq!(out["error"]["code"], "invalid_input");
    let out: Value = serde_json::from_slice(&s.answer_line(b"{bad", never)).unwrap();
    assert_eq!(out["error"]["code"], "bad_json");
    let out: Value =
        serde_json::from_slice(&s.answer_line(br#"{"op": "rules", "id": null}"#, never)).unwrap();
    assert!(out.get("id").is_none() && out["presets"].is_array());
}

#[test]
fn caches_are_strict_and_bounded() {
    let s = service();
    let mc = |samples: Value| json!({"hands": [HAND], "objective": {"monte_carlo": {"samples": samples}}});
    assert_eq!(ask(&s, Op::Solve, mc(json!(50))).0, 200);
    // the float never shares the int's solver
    assert_eq!(
        field_of(&s, Op::Solve, mc(json!(50.0))).as_deref(),
        Some("objective.monte_carlo.samples")
    );
    // an inline rule set means the same however its keys are ordered, and its name is kept
    let mut a = ops::preset_data("two_four").unwrap();
    a["name"] = "house".into();
    let b = crate::digest::sorted_keys(&a);
    assert_ne!(a.to_string(), b.to_string());
    let (_, x) = ask(&s, Op::Solve, json!({"hands": [HAND], "rules": a}));
    let (_, y) = ask(&s, Op::Solve, json!({"hands": [HAND], "rules": b}));
    assert_eq!(x, y);
    assert_eq!(x["solutions"][0]["rules"], "house", "{x}");
    for i in 0..(CACHE_SIZE + 10) {
        let rules = json!({"name": format!("r{i}")});
        assert_eq!(
            ask(&s, Op::Naturals, json!({"hand": HAND, "rules": rules})).0,
            200
        );
    }
    assert!(lock(&s.rule_sets).map.len() <= CACHE_SIZE);
}

#[test]
fn monte_carlo_slots_are_bounded_and_given_back() {
    let s = Service::new(ServiceLimits {
        mc_slots: 1,
        ..ServiceLimits::default()
    });
    let held = s.slot().unwrap();
    let mc = json!({"hands": [HAND], "objective": {"monte_carlo": {"samples": 50}}});
    let (status, code, _, _) = refused(&s, Op::Solve, mc.clone());
    assert_eq!((status, code.as_str()), (429, "busy"));
    // the table objective needs no slot
    assert_eq!(ask(&s, Op::Solve, json!({"hands": [HAND]})).0, 200);
    drop(held);
    assert_eq!(ask(&s, Op::Solve, mc.clone()).0, 200);
    assert_eq!(s.free_slots(), 1);
    // an error after the slot was taken gives it back too
    let bad = json!({"hands": [HAND, "As Ks"], "objective": {"monte_carlo": {"samples": 50}}});
    assert_eq!(ask(&s, Op::Solve, bad).0, 422);
    assert_eq!(s.free_slots(), 1);
    // a stopped solve answers `timeout` and frees its slot
    let stop = || true;
    let long = json!({"hands": [HAND], "objective": {"monte_carlo": {"samples": 90000}}});
    let r = s.answer(Op::Solve, long.to_string().as_bytes(), &stop);
    assert_eq!((r.status, r.code), (504, Some("timeout")));
    assert_eq!(s.free_slots(), 1);
}

#[test]
fn decisions_as_text_read_one_way() {
    use crate::score::Decision;
    assert_eq!(Decision::parse(" Surrender "), Ok(Decision::Surrender));
    assert!(matches!(
        Decision::parse(&format!("Dragon: {}", ROUND[0])),
        Ok(Decision::Declare { .. })
    ));
    assert!(matches!(Decision::parse(ROUND[0]), Ok(Decision::Play(_))));
    let e = Decision::parse("As Ks").unwrap_err();
    assert_eq!(
        e.to_string(),
        "setting: expected 'front / middle / back', got 1 part(s)"
    );
    let e = Decision::parse(&ROUND[1].replace("2h", "2Q")).unwrap_err();
    assert_eq!(e.row, Some(crate::rules::Row::Back));
}
