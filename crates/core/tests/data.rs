//! Results as data: the serde shape (the one the Python `to_dict()` gives), a round trip back to
//! an equal value, and the one check on rebuild refusing damaged data with `InvalidShape`.

use chinese_poker::data::{rebuild, Record};
use chinese_poker::solve::{solve, Objective, OutcomeTables, Solved, TableEv};
use chinese_poker::{settle, Decision, Error, Hand, Rules, Settlement};
use serde_json::{json, Value};
use std::sync::Arc;

/// Four hands of a deck dealt in a fixed shuffled order (7 is prime to 52).
fn hands() -> [[u8; 13]; 4] {
    std::array::from_fn(|p| std::array::from_fn(|j| ((13 * p + j) * 7 % 52) as u8))
}

fn rules() -> Rules {
    Rules::preset("maceplay").unwrap()
}

fn solved(hand: &[u8; 13]) -> Solved {
    let rules = rules();
    let te = TableEv::new(&rules, 4, OutcomeTables::random_rows(rules.wheel)).unwrap();
    let objective = Objective::TableEv(Arc::new(te));
    let solution = solve(&Hand::new(*hand).unwrap(), &rules, 4, &objective, 3).unwrap();
    Solved::new(solution, 4, "maceplay", &rules.digest(), &objective)
}

fn settlement() -> Settlement {
    let decisions: Vec<Decision> = hands()
        .iter()
        .map(|h| solved(h).solution.codes)
        .map(|c| {
            let cards = c.map(|x| chinese_poker::Card::from_code(x).unwrap());
            Decision::Play(
                chinese_poker::Setting::new(&cards[..3], &cards[3..8], &cards[8..]).unwrap(),
            )
        })
        .collect();
    settle(&decisions, &rules(), None, 1).unwrap()
}

fn back<T: Record>(data: Value) -> chinese_poker::Result<T> {
    rebuild(serde_json::from_value::<T>(data))
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn a_settlement_has_the_shape_of_to_dict_and_comes_back_equal() {
    let s = settlement();
    let data = serde_json::to_value(&s).unwrap();
    assert_eq!(
        keys(&data),
        [
            "dealer",
            "totals",
            "players",
            "matchups",
            "payments",
            "capped",
            "bankrolls_after"
        ]
    );
    assert_eq!(data["totals"], json!(s.totals()));
    let player = &data["players"][2];
    assert_eq!(
        keys(player),
        [
            "seat",
            "status",
            "setting",
            "ranks",
            "natural",
            "natural_value",
            "auto_declared",
            "foul_reason",
            "sweep",
            "raw_total",
            "total"
        ]
    );
    assert_eq!(player["seat"], json!(2));
    assert_eq!(
        player["setting"],
        json!(s.players[2].setting.unwrap().to_string())
    );
    assert!(player["ranks"].is_array());
    let row = &data["matchups"][0]["rows"][1];
    assert_eq!(row["row"], json!("middle"));
    assert_eq!(back::<Settlement>(data).unwrap(), s);
}

/// A change that spoils data.
type Damage = fn(&mut Value);

#[test]
fn damaged_settlement_data_is_an_invalid_shape_naming_what_is_wrong() {
    let data = serde_json::to_value(settlement()).unwrap();
    let cases: [(Damage, &str); 6] = [
        (
            |d| d["players"][0]["status"] = json!("winning"),
            "status \"winning\"",
        ),
        (|d| d["players"][1]["seat"] = json!(3), "players"),
        (
            |d| d["matchups"][0]["rows"][0]["row"] = json!("back"),
            "rows",
        ),
        (|d| d["players"][0]["ranks"] = json!([1, 2, 3]), "rank"),
        (
            |d| d["players"][0]["natural_value"] = json!(3),
            "natural without",
        ),
        (|d| d["payments"][0]["matchup"] = json!(99), "payments"),
    ];
    for (damage, says) in cases {
        let mut d = data.clone();
        damage(&mut d);
        match back::<Settlement>(d) {
            Err(e @ Error::InvalidShape { .. }) => {
                let text = e.to_string();
                assert!(text.starts_with("Settlement data: "), "{text}");
                assert!(text.contains(says), "{text} should say {says}");
            }
            other => panic!("{says}: {other:?}"),
        }
    }
}

#[test]
fn a_solution_has_the_shape_of_to_dict_and_comes_back_equal() {
    let s = solved(&hands()[0]);
    let data = serde_json::to_value(&s).unwrap();
    assert_eq!(
        keys(&data),
        [
            "decision",
            "natural",
            "setting",
            "codes",
            "raw_ranks",
            "value",
            "stderr",
            "play_value",
            "natural_held",
            "surrender_value",
            "alternatives",
            "candidates",
            "samples",
            "objective",
            "players",
            "rules",
            "rules_digest",
            "tables"
        ]
    );
    assert_eq!(data["decision"], json!("play"));
    assert_eq!(data["rules_digest"], json!(rules().digest()));
    assert_eq!(data["tables"]["source"], json!("file"));
    assert_eq!(data["tables"]["digest"].as_str().map(str::len), Some(64));
    assert_eq!(
        data["stderr"],
        Value::Null,
        "a standard error for Monte Carlo only"
    );
    assert_eq!(
        keys(&data["alternatives"][0]),
        ["codes", "raw_ranks", "value", "stderr"]
    );
    assert_eq!(back::<Solved>(data.clone()).unwrap(), s);
    // data saved before results named their rules and tables still reads
    let mut older = data.clone();
    older.as_object_mut().unwrap().remove("rules_digest");
    older.as_object_mut().unwrap().remove("tables");
    let old = back::<Solved>(older).unwrap();
    assert!(old.rules_digest.is_empty() && old.tables.is_none());
    for (damage, says) in [
        (json!({"source": "file", "digest": "xyz"}), "digest"),
        (
            json!({"source": "cloud", "digest": "0".repeat(64)}),
            "tables source",
        ),
    ] {
        let mut d = data.clone();
        d["tables"] = damage;
        let e = back::<Solved>(d).unwrap_err();
        assert!(e.to_string().contains(says), "{e} should say {says}");
    }
    let mut d = data.clone();
    d["rules_digest"] = json!("not hex");
    assert!(back::<Solved>(d)
        .unwrap_err()
        .to_string()
        .contains("rules_digest"));
    let mut damaged = data;
    damaged["codes"][0] = damaged["codes"][1].clone();
    let e = back::<Solved>(damaged).unwrap_err();
    assert!(e.to_string().starts_with("Solution data: "), "{e}");
}

#[test]
fn solution_explain_names_the_table_and_every_alternative() {
    let s = solved(&hands()[0]);
    let text = s.explain();
    assert!(text.starts_with("Rule set maceplay, 4 players; objective TableEV: "));
    assert!(text.contains("Next best of "));
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("  2. ") || l.starts_with("  3. "))
            .count(),
        2
    );
}
