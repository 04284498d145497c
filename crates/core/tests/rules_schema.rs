//! The rule schema (docs/rules.md, "Rule fields"): the data form round-trips every preset,
//! every bound is refused at construction naming the field path, and no valid rule set can
//! make a matchup overflow.

use chinese_poker::named::Named;
use chinese_poker::presets::{PRESETS, PRESET_NAMES};
use chinese_poker::rules::schema::{choices, FoulKind, ScoopKind, RULE_FIELDS};
use chinese_poker::rules::{
    BonusMode, Declaration, Row, Rules, Scoop, Timeout, MAX_MATCHUP_UNITS, MAX_MULTIPLIER,
    MAX_UNITS,
};
use chinese_poker::score::{MatchupKind, Status};
use chinese_poker::{Category, Error, NaturalKind, Wheel};
use serde_json::{json, Value};

fn field_of(err: Error) -> String {
    match err {
        Error::InvalidRules { field, .. } => field,
        other => panic!("expected InvalidRules, got {other}"),
    }
}

fn refused(data: Value) -> String {
    field_of(Rules::from_data(&data).expect_err(&data.to_string()))
}

#[test]
fn defaults_and_presets_round_trip() {
    let default = Rules::default();
    assert_eq!(Rules::from_json("{}").unwrap(), default);
    assert_eq!(Rules::from_data(&default.to_data()).unwrap(), default);
    let data = default.to_data();
    let keys: Vec<&str> = data
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, RULE_FIELDS);
    for p in PRESETS {
        let rules = p.rules();
        assert_eq!(Rules::from_json(&p.data().to_string()).unwrap(), rules);
        assert_eq!(Rules::preset(p.name), Some(rules));
    }
    assert_eq!(PRESET_NAMES.len(), PRESETS.len());
}

/// Every value's data id reads back as that value, and no two values share an id or a label.
fn round_trips<T: Named + PartialEq + std::fmt::Debug>() {
    for &v in T::VALUES {
        assert_eq!(T::from_name(v.name()), Some(v));
    }
    assert_eq!(T::from_name("no such name"), None);
    for names in [T::names(), T::labels()] {
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
    }
}

#[test]
fn names_come_from_one_place() {
    round_trips::<Category>();
    round_trips::<Wheel>();
    round_trips::<NaturalKind>();
    round_trips::<Row>();
    round_trips::<BonusMode>();
    round_trips::<Declaration>();
    round_trips::<Timeout>();
    round_trips::<ScoopKind>();
    round_trips::<FoulKind>();
    round_trips::<Status>();
    round_trips::<MatchupKind>();
    // name() is the data id, label() the words
    assert_eq!(Category::FullHouse.name(), "full_house");
    assert_eq!(Category::FullHouse.label(), "full house");
    assert_eq!(Category::Trips.label(), "three of a kind");
    assert_eq!(Row::Front.label(), "front");
    let fields: Vec<&str> = choices().iter().map(|(f, _)| *f).collect();
    assert!(fields.contains(&"scoop.kind") && fields.contains(&"timeout"));
    let scoop = &choices()[fields.iter().position(|f| *f == "scoop.kind").unwrap()].1;
    assert_eq!(scoop, &ScoopKind::names());
}

#[test]
fn naturals_are_written_in_ranking_order() {
    let r =
        Rules::from_json(r#"{"naturals": {"values": {"six_pairs": 3, "dragon": 13}}}"#).unwrap();
    assert_eq!(r.naturals[0].kind, NaturalKind::Dragon);
    let back = r.to_data();
    let names: Vec<&String> = back["naturals"]["values"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(names, ["dragon", "six_pairs"]);
}

#[test]
fn every_bad_value_names_its_field() {
    let cases: Vec<(Value, &str)> = vec![
        (json!({"surrender": 2_000_000}), "surrender"),
        (json!({"surrender": -1}), "surrender"),
        (json!({"majority_point": 1.5}), "majority_point"),
        (json!({"overall_point": MAX_UNITS + 1}), "overall_point"),
        (json!({"double_bonus": 1}), "double_bonus"),
        (json!({"wheel": "high"}), "wheel"),
        (json!({"wheel": 3}), "wheel"),
        (json!({"timeout": "never"}), "timeout"),
        (json!({"colour": "red"}), "colour"),
        (json!({"name": 7}), "name"),
        (json!({"bonus": {"mode": "multiply"}}), "bonus.mode"),
        (
            json!({"bonus": {"middle": {"full_house": 0}}}),
            "bonus.middle.full_house",
        ),
        (
            json!({"bonus": {"middle": {"fullhouse": 2}}}),
            "bonus.middle.fullhouse",
        ),
        (
            json!({"bonus": {"front": {"flush": 2}}}),
            "bonus.front.flush",
        ),
        (json!({"bonus": {"front": {}}}), "bonus.front"),
        (json!({"bonus": {"side": {}}}), "bonus.side"),
        (json!({"scoop": 2}), "scoop"),
        (
            json!({"scoop": {"kind": "multiply", "amount": 0}}),
            "scoop.amount",
        ),
        (
            json!({"scoop": {"kind": "multiply", "amount": MAX_MULTIPLIER + 1}}),
            "scoop.amount",
        ),
        (
            json!({"scoop": {"kind": "none", "amount": 2}}),
            "scoop.amount",
        ),
        (json!({"sweep": {"multiplier": 0}}), "sweep.multiplier"),
        (json!({"sweep": {"min_players": 7}}), "sweep.min_players"),
        (json!({"sweep": {"min_players": 1}}), "sweep.min_players"),
        (
            json!({"foul": {"kind": "reject", "amount": 3}}),
            "foul.amount",
        ),
        (
            json!({"naturals": {"values": {"dragoon": 2}}}),
            "naturals.values.dragoon",
        ),
        (
            json!({"naturals": {"values": {"dragon": 0}}}),
            "naturals.values.dragon",
        ),
        (
            json!({"naturals": {"values": [["dragon", 13], ["dragon", 12]]}}),
            "naturals.values.dragon",
        ),
        (json!({"naturals": {"x": 1}}), "naturals.x"),
        (json!({"suit_order": "sshd"}), "suit_order"),
        (json!({"suit_order": "shd"}), "suit_order"),
        (json!([1, 2]), "rule set"),
    ];
    for (data, field) in cases {
        assert_eq!(refused(data.clone()), field, "{data}");
    }
}

#[test]
fn hostile_text_is_an_error() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    assert_eq!(field_of(Rules::from_json(&deep).unwrap_err()), "rule set");
    let digits = format!("{{\"surrender\": {}}}", "9".repeat(5000));
    assert!(Rules::from_json(&digits).is_err());
    assert!(Rules::from_json("{").is_err());
}

#[test]
fn the_largest_valid_rule_set_cannot_overflow() {
    let mut r = Rules {
        bonus_mode: chinese_poker::rules::BonusMode::Add,
        bonus: [[MAX_UNITS; 9]; 3],
        double_bonus: true,
        majority_point: MAX_UNITS,
        overall_point: MAX_UNITS,
        scoop: Scoop::Multiply(MAX_MULTIPLIER),
        ..Rules::default()
    };
    // a front only ever wins with these three; the others stay at the unlisted value
    for c in Category::ALL
        .into_iter()
        .filter(|c| !Category::FRONT.contains(c))
    {
        r.bonus[0][c as usize] = 0;
    }
    r.sweep.multiplier = MAX_MULTIPLIER;
    r.sweep.min_players = 2;
    r.validate().unwrap();
    assert!(r.max_matchup_units() < MAX_MATCHUP_UNITS);
    // and the struct-literal path refuses what the data path refuses
    r.surrender = Some(MAX_UNITS + 1);
    assert_eq!(field_of(r.validate().unwrap_err()), "surrender");
}

#[test]
fn a_part_alone_is_checked_as_within_a_rule_set() {
    use chinese_poker::rules::schema::PARTS;
    let bad = [
        json!({"mode": "replace", "middle": {"quads": 0}}),
        json!({"kind": "multiply", "amount": 0}),
        json!({"min_players": 5}),
        json!({"kind": "reject", "amount": 3}),
        json!({"values": {"dragon": 0}}),
    ];
    for (part, data) in PARTS.into_iter().zip(bad) {
        let alone = Rules::with_part(part, &data).expect_err(part).to_string();
        let within = Rules::from_data(&json!({ part: data })).expect_err(part);
        assert_eq!(alone, within.to_string());
        // a good part alone is the default rule set with that part
        let good = Rules::default().to_data()[part].clone();
        assert_eq!(Rules::with_part(part, &good).unwrap(), Rules::default());
        let text = good.to_string();
        assert_eq!(
            Rules::with_part_json(part, &text).unwrap(),
            Rules::default()
        );
    }
    let sweep = Rules::with_part("sweep", &json!({"min_players": 3})).unwrap();
    assert_eq!(sweep.sweep.min_players, 3);
    assert_eq!(
        field_of(Rules::with_part("wheel", &json!("low")).unwrap_err()),
        "part"
    );
}

/// Every object of `v` with its keys in reverse order (the order a JSON or TOML reader might
/// give them in).
fn reversed(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.reverse();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), reversed(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(reversed).collect()),
        other => other.clone(),
    }
}

#[test]
fn key_order_carries_no_meaning() {
    use chinese_poker::digest::sorted_keys;
    use chinese_poker::solve::{canonical_tables_key, tables_key};
    let mut digests = Vec::new();
    for p in PRESETS {
        let rules = p.rules();
        for data in [sorted_keys(&rules.to_data()), reversed(&rules.to_data())] {
            let again = Rules::from_data(&data).unwrap();
            assert_eq!(again, rules, "{}", p.name);
            assert_eq!(again.naturals, rules.naturals, "{}: ranked alike", p.name);
            assert_eq!(again.canonical_json(), rules.canonical_json());
            assert_eq!(again.digest(), rules.digest());
            for n in 2..=4 {
                assert_eq!(tables_key(&again, n), tables_key(&rules, n));
            }
        }
        assert_eq!(rules.digest().len(), 64);
        digests.push(rules.digest());
    }
    digests.sort();
    digests.dedup();
    assert_eq!(
        digests.len(),
        PRESETS.len(),
        "every preset has its own digest"
    );
    // equal values rank in the core's order whatever the data lists first
    let tie = |order: &[(&str, u32)]| {
        let values: serde_json::Map<String, Value> = order
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect();
        Rules::from_data(&json!({"naturals": {"values": values}})).unwrap()
    };
    let a = tie(&[
        ("thirteen_one_colour", 13),
        ("dragon", 13),
        ("six_pairs", 3),
    ]);
    let b = tie(&[
        ("six_pairs", 3),
        ("dragon", 13),
        ("thirteen_one_colour", 13),
    ]);
    assert_eq!(a, b);
    let kinds: Vec<NaturalKind> = a.naturals.iter().map(|n| n.kind).collect();
    assert_eq!(
        kinds,
        [
            NaturalKind::Dragon,
            NaturalKind::ThirteenOneColour,
            NaturalKind::SixPairs
        ]
    );
    // struct syntax in another order is the same rule set
    let mut c = a.clone();
    c.naturals.reverse();
    assert_eq!(c, a);
    assert_eq!(c.digest(), a.digest());
    assert_ne!(tie(&[("dragon", 12), ("six_pairs", 3)]), a);
    // a key written before the naturals were ranked by the core still finds its tables
    let maceplay = Rules::preset("maceplay").unwrap();
    let key = tables_key(&maceplay, 4);
    let old = key.replace(
        r#""same_suit_dragon":26,"dragon":13"#,
        r#""dragon":13,"same_suit_dragon":26"#,
    );
    assert_ne!(old, key);
    assert_eq!(canonical_tables_key(&old), key);
    assert_eq!(canonical_tables_key(&key), key);
    assert_eq!(canonical_tables_key("not a key"), "not a key");
}
