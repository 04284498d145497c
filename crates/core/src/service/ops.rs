//! The operations: each reads its request (the models below), calls the core and writes its
//! answer with serde. The core checks everything it owns (cards, rule sets, table sizes,
//! budgets, decisions) and its errors become a 422 naming the request field
//! ([`super::error::blame`]); only the request's shape and the service's own limits are
//! checked here, in the order the Python service checked them, so each answer is the same.

use super::error::{blame, invalid, ApiError, Met};
use super::request::{int_arg, is_int, json_type, number_arg, py_g, py_repr, Model, Object};
use super::{Op, RuleSet, Service, Solver};
use crate::card::parse_cards;
use crate::error::{count, Error};
use crate::hand::Hand;
use crate::naturals::find_naturals;
use crate::parallel::Stop;
use crate::presets::{unknown_preset_message, PRESETS};
use crate::rules::{unknown_natural_message, NaturalKind};
use crate::score::{self, Decision, Settlement, MAX_PLAYERS, MIN_PLAYERS};
use crate::setting::Setting;
use crate::solve::{
    self, Budget, Choice, Objective, Policy, Solved, TablesId, MAX_SAMPLES, MAX_TOP_K, MIN_SAMPLES,
};
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::Arc;

/// `"table"`: the table objective (expected score from the strategy tables).
pub const TABLE: &str = "table";
/// `{"monte_carlo": {...}}`: Monte Carlo.
pub const MONTE_CARLO: &str = "monte_carlo";
/// `detail`: `Solution.to_dict()` and the hand, per hand.
pub const DETAIL_FULL: &str = "full";
/// `detail`: the decision and its value (the table objective solves the hands as one batch).
pub const DETAIL_DECISION: &str = "decision";

/// The solve request.
pub const SOLVE: Model = Model {
    fields: &["hands", "rules", "players", "objective", "top_k", "detail"],
    required: &["hands"],
};
/// Monte Carlo's options (`objective.monte_carlo`).
pub const MONTE_CARLO_OPTIONS: Model = Model {
    fields: &["samples", "seed", "time_limit"],
    required: &[],
};
/// The settle request.
pub const SETTLE: Model = Model {
    fields: &["decisions", "rules", "bankrolls", "dealer", "explain"],
    required: &["decisions"],
};
/// The naturals request.
pub const NATURALS: Model = Model {
    fields: &["hand", "rules"],
    required: &["hand"],
};

/// The request fields an argument of the library names, by the argument's name (a
/// `players` error names `players`, a `samples` error the Monte Carlo option).
const SOLVE_NAMES: &[(&str, &str)] = &[
    ("hands", "hands"),
    ("rules", "rules"),
    ("players", "players"),
    ("objective", "objective"),
    ("top_k", "top_k"),
    ("detail", "detail"),
];
const MC_WHERE: &str = "objective.monte_carlo";
const MC_NAMES: &[(&str, &str)] = &[
    ("samples", "objective.monte_carlo.samples"),
    ("seed", "objective.monte_carlo.seed"),
    ("time_limit", "objective.monte_carlo.time_limit"),
];
const SETTLE_NAMES: &[(&str, &str)] = &[
    ("decisions", "decisions"),
    ("rules", "rules"),
    ("bankrolls", "bankrolls"),
    ("dealer", "dealer"),
    ("explain", "explain"),
];

/// Hands of a batch solved between two looks at the stop check.
const BATCH_CHUNK: usize = 8192;

type Answer = (Vec<u8>, Option<(&'static str, u64)>);

fn field<'a>(request: &'a Object, name: &str) -> Option<&'a Value> {
    request.get(name)
}

/// The answer of `op` to the decoded request `data`.
pub fn run(service: &Service, op: Op, data: &Value, stop: Stop<'_>) -> Result<Answer, ApiError> {
    match op {
        Op::Solve => solve(service, data, stop),
        Op::Settle => settle(service, data).map(|b| (b, None)),
        Op::Naturals => naturals(service, data).map(|b| (b, None)),
        Op::Rules => rules(data).map(|b| (b, None)),
    }
}

fn to_json(value: &impl Serialize) -> Result<Vec<u8>, ApiError> {
    serde_json::to_vec(value).map_err(|e| ApiError::new("internal", format!("internal error: {e}")))
}

/// The error answer of work stopped by the stop check.
pub fn stopped() -> ApiError {
    ApiError::new("timeout", "the request was stopped before it finished")
}

/// The 422 for a preset name the core does not know (the library's `RuleSet.preset` words).
pub fn unknown_preset(name: &str) -> ApiError {
    let shown = super::request::py_str(name);
    let shown = if shown.chars().count() <= 40 {
        shown
    } else {
        format!("{}...", shown.chars().take(37).collect::<String>())
    };
    ApiError {
        code: "invalid_input",
        message: unknown_preset_message(&shown, None),
        field: Some("rules".into()),
        kind: Some("InvalidRulesError".into()),
    }
}

/// Monte Carlo options read and checked against the server's limits.
struct McOptions {
    samples: u64,
    seed: u64,
    time_limit: Option<f64>,
}

/// The Monte Carlo options of a solve request, or `None` for the table objective.
fn monte_carlo(objective: Option<&Value>) -> Result<Option<&Object>, ApiError> {
    let Some(objective) = objective else {
        return Ok(None); // not given: the default
    };
    match objective {
        Value::String(s) if s == TABLE => return Ok(None),
        Value::Object(map) if map.len() == 1 && map.contains_key(MONTE_CARLO) => {
            return MONTE_CARLO_OPTIONS
                .read(&map[MONTE_CARLO], Some(MC_WHERE))
                .map(Some)
        }
        _ => {}
    }
    Err(invalid(
        Some("objective"),
        format!(
            "expected '{TABLE}' or {{'{MONTE_CARLO}': {{...}}}}, got {}",
            py_repr(objective)
        ),
    ))
}

/// A Monte Carlo request's cost, bounded before any work: samples × hands within the
/// server's `max_samples` and, with a `time_limit` (seconds of sampling per hand, as in the
/// library), time_limit × hands within its `timeout`; then the library's own checks.
fn check_monte_carlo(service: &Service, mc: &Object, hands: usize) -> Result<McOptions, ApiError> {
    let limits = service.limits();
    let whole = |name: &str, default: Value| -> Result<Value, ApiError> {
        let v = mc.get(name).cloned().unwrap_or(default);
        if !is_int(&v) {
            return Err(invalid(
                Some(&format!("{MC_WHERE}.{name}")),
                format!(
                    "expected a whole number, got {} {}",
                    json_type(&v),
                    py_repr(&v)
                ),
            ));
        }
        Ok(v)
    };
    let samples = whole("samples", Budget::default().samples.into())?;
    let seed = whole("seed", 0.into())?;
    let asked_samples = samples.as_i64().map_or(i128::MAX, i128::from);
    if asked_samples.saturating_mul(hands as i128) > limits.max_samples as i128 {
        return Err(invalid(
            Some(&format!("{MC_WHERE}.samples")),
            format!(
                "{} samples for each of {hands} hands is more than this server's limit of {} \
                 samples per request",
                py_repr(&samples),
                limits.max_samples
            ),
        ));
    }
    let time_limit = match mc.get("time_limit").filter(|v| !v.is_null()) {
        None => None,
        Some(asked) => {
            let seconds = asked.as_f64().filter(|s| *s > 0.0);
            let Some(seconds) = seconds.filter(|_| !asked.is_boolean()) else {
                return Err(invalid(
                    Some(&format!("{MC_WHERE}.time_limit")),
                    format!("expected seconds > 0, got {}", py_repr(asked)),
                ));
            };
            if seconds * hands as f64 > limits.timeout {
                return Err(invalid(
                    Some(&format!("{MC_WHERE}.time_limit")),
                    format!(
                        "{} s of sampling for each of {hands} hands is more than this server's \
                         request timeout of {} s",
                        py_g(seconds),
                        py_g(limits.timeout)
                    ),
                ));
            }
            Some(seconds)
        }
    };
    // the library's checks, in the order `MonteCarlo(...)` makes them
    let mc_err = |e: Error| blame(e, Some(MC_WHERE), MC_NAMES);
    if let Some(t) = mc.get("time_limit").filter(|v| !v.is_null()) {
        let seconds = number_arg(t, "time_limit").map_err(mc_err)?;
        Budget::check_time_limit(seconds).map_err(mc_err)?;
    }
    let samples = int_arg(
        &samples,
        "samples",
        MIN_SAMPLES as i128,
        MAX_SAMPLES as i128,
    )
    .map_err(mc_err)? as u64;
    let seed = int_arg(&seed, "seed", 0, crate::sim::MAX_SEED as i128).map_err(mc_err)? as u64;
    Ok(McOptions {
        samples,
        seed,
        time_limit,
    })
}

/// The solver of a request (cached by the rule set's key, the table size and the Monte Carlo
/// options, all read as their exact types first).
fn solver(
    service: &Service,
    rules: Arc<RuleSet>,
    players: &Value,
    mc: Option<&McOptions>,
) -> Result<Arc<Solver>, ApiError> {
    let n = int_arg(players, "players", MIN_PLAYERS as i128, MAX_PLAYERS as i128)
        .map_err(|e| blame(e, Some("rules"), SOLVE_NAMES))? as usize;
    let key = (
        rules.key.clone(),
        n,
        mc.map(|m| (m.samples, m.seed, m.time_limit.map(f64::to_bits))),
    );
    service.solver(key, || {
        let table = service.tables(&rules, n)?;
        let objective = match mc {
            None => Objective::TableEv(table),
            Some(m) => {
                let time_limit = m.time_limit.map(std::time::Duration::from_secs_f64);
                let budget = Budget {
                    samples: m.samples as usize,
                    time_limit,
                    ..Budget::default()
                };
                budget
                    .check()
                    .map_err(|e| blame(e, Some(MC_WHERE), MC_NAMES))?;
                Objective::MonteCarlo {
                    budget,
                    seed: m.seed,
                    policy: Policy::TableEv(table),
                    // one thread each: the slots bound the cores Monte Carlo takes
                    threads: Some(1),
                }
            }
        };
        Ok(Solver {
            rules,
            players: n,
            objective,
        })
    })
}

/// A decision as `Setting`/`Declare`/`Surrender.to_dict()` give it, with the hand first and
/// the value last.
#[derive(Serialize)]
struct Decided<'a> {
    hand: &'a str,
    decision: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    setting: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    codes: Option<[u8; 13]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    natural: Option<&'static str>,
    value: f64,
}

impl<'a> Decided<'a> {
    fn new(hand: &'a str, choice: Choice, codes: &[u8; 13], value: f64) -> Decided<'a> {
        let setting = match choice {
            Choice::Surrender => None,
            _ => Setting::from_codes(codes).ok(),
        };
        Decided {
            hand,
            decision: choice.name(),
            codes: setting.map(|s| s.codes()),
            setting: setting.map(|s| s.to_string()),
            natural: match choice {
                Choice::Declare(k) => Some(k.name()),
                _ => None,
            },
            value,
        }
    }
}

#[derive(Serialize)]
struct Full<'a> {
    hand: &'a str,
    #[serde(flatten)]
    solved: &'a Solved,
}

#[derive(Serialize)]
/// A solve answer: what made it (the rule set's digest, the tables) and one solution per hand.
struct Solutions<'a, T> {
    rules_digest: &'a str,
    tables: Option<&'a TablesId>,
    solutions: Vec<T>,
}

/// A solve answer's JSON: what made it and one solution per hand.
fn answer<T: Serialize>(
    solver: &Solver,
    solutions: impl IntoIterator<Item = T>,
) -> Result<Vec<u8>, ApiError> {
    to_json(&Solutions {
        rules_digest: &solver.rules.digest,
        tables: solver.objective.tables(),
        solutions: solutions.into_iter().collect(),
    })
}

fn read_hand(text: &str) -> crate::Result<Hand> {
    Hand::from_cards(&parse_cards(text)?)
}

/// The 13 cards of `text`, or the error answer naming the request field `field` (the naturals
/// request's `hand`, a line of `solve --jsonl`).
pub fn hand_at(text: &str, field: &str) -> Result<Hand, ApiError> {
    read_hand(text).map_err(|e| blame(e, Some(field), &[]))
}

fn solve(service: &Service, data: &Value, stop: Stop<'_>) -> Result<Answer, ApiError> {
    let request = SOLVE.read(data, None)?;
    let limits = service.limits();
    let hands_value = &request["hands"];
    let hands: Vec<&str> = match hands_value {
        Value::Array(items) if (1..=limits.max_hands).contains(&items.len()) => items
            .iter()
            .enumerate()
            .map(|(i, h)| {
                h.as_str().ok_or_else(|| {
                    invalid(
                        Some(&format!("hands[{i}]")),
                        format!("expected 13 cards as text, got {}", json_type(h)),
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        other => {
            let got = match other {
                Value::Array(items) => format!("{} hands", items.len()),
                v => json_type(v).to_string(),
            };
            return Err(invalid(
                Some("hands"),
                format!(
                    "expected a list of 1 to {} hands, got {got}",
                    limits.max_hands
                ),
            ));
        }
    };
    let mc = match monte_carlo(field(request, "objective"))? {
        Some(options) => Some(check_monte_carlo(service, options, hands.len())?),
        None => None,
    };
    let default_rules = Value::from(crate::presets::DEFAULT_PRESET);
    let rules = service.rule_set(field(request, "rules").unwrap_or(&default_rules))?;
    let default_players = Value::from(score::DEFAULT_PLAYERS);
    let players = field(request, "players").unwrap_or(&default_players);
    let solver = solver(service, rules, players, mc.as_ref())?;
    let detail = field(request, "detail");
    let detail = detail.map_or(Some(DETAIL_FULL), Value::as_str);
    let objective = if mc.is_some() { MONTE_CARLO } else { TABLE };
    let solved_count = Some((objective, hands.len() as u64));
    let full = detail == Some(DETAIL_FULL);
    if full || (detail == Some(DETAIL_DECISION) && mc.is_some()) {
        // Monte Carlo holds one of the service's slots while it samples
        let _slot = if mc.is_some() {
            Some(service.slot()?)
        } else {
            None
        };
        // `null` is the library's default, as `top_k=None` is
        let default_top_k = Value::from(solve::DEFAULT_TOP_K);
        let top_k = field(request, "top_k").filter(|v| !v.is_null());
        let top_k = top_k.unwrap_or(&default_top_k);
        let mut solved = Vec::with_capacity(hands.len());
        for (i, text) in hands.iter().enumerate() {
            let at = format!("hands[{i}]");
            let hand = read_hand(text).map_err(|e| blame(e, Some(&at), SOLVE_NAMES))?;
            let top_k = if full {
                int_arg(top_k, "top_k", 1, MAX_TOP_K as i128)
                    .map_err(|e| blame(e, Some(&at), SOLVE_NAMES))? as usize
            } else {
                1
            };
            let s = &solver;
            let solution =
                solve::solve_with_stop(&hand, &s.rules.rules, s.players, &s.objective, top_k, stop);
            let solution = match solution {
                Err(Error::Interrupted) => return Err(stopped()),
                other => other.map_err(|e| blame(e, Some(&at), SOLVE_NAMES))?,
            };
            let rules = &s.rules;
            solved.push(Solved::new(
                solution,
                s.players,
                &rules.name,
                &rules.digest,
                &s.objective,
            ));
        }
        let pairs = hands.iter().zip(&solved);
        let body = if full {
            answer(&solver, pairs.map(|(hand, solved)| Full { hand, solved }))?
        } else {
            answer(
                &solver,
                pairs.map(|(hand, s)| {
                    let sol = &s.solution;
                    Decided::new(hand, sol.choice, &sol.codes, sol.value)
                }),
            )?
        };
        return Ok((body, solved_count));
    }
    if detail != Some(DETAIL_DECISION) {
        let got = py_repr(field(request, "detail").unwrap_or(&Value::Null));
        return Err(invalid(
            Some("detail"),
            format!("expected '{DETAIL_FULL}' or '{DETAIL_DECISION}', got {got}"),
        ));
    }
    // detail "decision", the table objective: the hands read as one batch, solved as one
    let mut batch = Vec::with_capacity(hands.len());
    for (i, text) in hands.iter().enumerate() {
        let at = |e: Met| blame(e, Some("hands"), &[]);
        let cards = parse_cards(text).map_err(|e| at(Met::in_line(e, i)))?;
        if cards.len() != 13 {
            return Err(at(Met {
                line: Some(i),
                ..Met::from(Error::InvalidShape {
                    what: format!("line {i}"),
                    expected: "13 cards".into(),
                    got: count(cards.len(), "card"),
                })
            }));
        }
        batch.push(Hand::from_cards(&cards).map_err(|e| at(Met::in_line(e, i)))?);
    }
    let Objective::TableEv(te) = &solver.objective else {
        return Err(ApiError::new(
            "internal",
            "internal error: not the table objective",
        ));
    };
    let n = batch.len();
    let mut codes = vec![[0u8; 13]; n];
    let mut values = vec![0f64; n];
    let mut choices = vec![0u8; n];
    let mut naturals = vec![0u8; n];
    let mut start = 0;
    while start < n {
        if stop() {
            return Err(stopped());
        }
        let end = (start + BATCH_CHUNK).min(n);
        solve::solve_batch_table_ev(
            None,
            te,
            &solver.rules.rules,
            &batch[start..end],
            &mut codes[start..end],
            &mut values[start..end],
            &mut choices[start..end],
            &mut naturals[start..end],
        );
        start = end;
    }
    let mut solutions = Vec::with_capacity(n);
    for i in 0..n {
        let choice = Choice::from_codes(choices[i], naturals[i])
            .map_err(|e| ApiError::new("internal", format!("internal error: {e}")))?;
        solutions.push(Decided::new(hands[i], choice, &codes[i], values[i]));
    }
    Ok((answer(&solver, solutions)?, solved_count))
}

/// A seat's decision: the command line's text ([`Decision::parse`]), or a decision as
/// `/v1/solve` answers it (`decision`, `setting`, `natural`).
fn decision(value: &Value, i: usize) -> Result<Decision, ApiError> {
    let at = format!("decisions[{i}]");
    let map = match value {
        Value::String(text) => {
            return Decision::parse(text).map_err(|e| blame(e, Some(&at), &[]));
        }
        Value::Object(map) => map,
        other => {
            return Err(invalid(
                Some(&at),
                format!("expected text or an object, got {}", json_type(other)),
            ))
        }
    };
    let names = [
        Choice::Play.name(),
        Choice::Declare(NaturalKind::ALL[0]).name(),
        Choice::Surrender.name(),
    ];
    let kind = map.get("decision").unwrap_or(&Value::Null);
    let Some(kind) = kind.as_str().filter(|k| names.contains(k)) else {
        return Err(invalid(
            Some(&format!("{at}.decision")),
            format!(
                "expected one of {}, got {}",
                names.join(", "),
                py_repr(kind)
            ),
        ));
    };
    if kind == Choice::Surrender.name() {
        return Ok(Decision::Surrender);
    }
    let setting = map.get("setting").unwrap_or(&Value::Null);
    let Some(text) = setting.as_str() else {
        return Err(invalid(
            Some(&format!("{at}.setting")),
            format!("expected 'front / middle / back', got {}", py_repr(setting)),
        ));
    };
    let setting = Setting::parse(text).map_err(|e| blame(e, Some(&at), &[]))?;
    if kind == Choice::Play.name() {
        return Ok(Decision::Play(setting));
    }
    let natural = map.get("natural").unwrap_or(&Value::Null);
    match natural.as_str().and_then(NaturalKind::from_name) {
        Some(natural) => Ok(Decision::Declare { natural, setting }),
        None => {
            // the library's `Declare` words (it names no seat: the field does)
            let e = Error::InvalidDecision {
                player: i,
                reason: String::new(),
            };
            Err(ApiError {
                code: "invalid_input",
                message: unknown_natural_message(Some(&py_repr(natural))),
                field: Some(at),
                kind: Some(e.class_name().into()),
            })
        }
    }
}

/// `bankrolls`: `null`, or a list of whole numbers, one per seat, each in the rule set's
/// bankroll range (the bindings' `bankrolls_arg`, read from JSON).
fn bankrolls(value: Option<&Value>, rules: &RuleSet) -> Result<Option<Vec<i64>>, Error> {
    let items = match value {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(other) => {
            let got = match other {
                Value::String(_) => "a string",
                v => super::request::py_type(v),
            };
            return Err(Error::InvalidType {
                name: "bankrolls".into(),
                reason: format!("expected a sequence of ints, one per player, got {got}"),
            });
        }
    };
    let (low, high) = score::bankroll_range(&rules.rules);
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if i >= MAX_PLAYERS {
            return Err(Error::InvalidShape {
                what: "bankrolls".into(),
                expected: format!("at most {MAX_PLAYERS} values (one per player)"),
                got: "more".into(),
            });
        }
        out.push(int_arg(item, &format!("bankrolls[{i}]"), low as i128, high as i128)? as i64);
    }
    Ok(Some(out))
}

#[derive(Serialize)]
struct Settled<'a> {
    rules: &'a str,
    rules_digest: &'a str,
    #[serde(flatten)]
    settlement: &'a Settlement,
    #[serde(skip_serializing_if = "Option::is_none")]
    explanation: Option<String>,
}

fn settle(service: &Service, data: &Value) -> Result<Vec<u8>, ApiError> {
    let request = SETTLE.read(data, None)?;
    let Value::Array(items) = &request["decisions"] else {
        return Err(invalid(
            Some("decisions"),
            format!(
                "expected a list of decisions, got {}",
                json_type(&request["decisions"])
            ),
        ));
    };
    let default_rules = Value::from(crate::presets::DEFAULT_PRESET);
    let rules = service.rule_set(field(request, "rules").unwrap_or(&default_rules))?;
    let seats = items
        .iter()
        .enumerate()
        .map(|(i, d)| decision(d, i))
        .collect::<Result<Vec<_>, _>>()?;
    let explain = match field(request, "explain") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(invalid(
                Some("explain"),
                format!("expected true or false, got {}", json_type(other)),
            ))
        }
    };
    let at = |e: Error| blame(e, Some("decisions"), SETTLE_NAMES);
    // a table has at most 4 seats: the bindings stop reading a longer list at its sixth
    if seats.len() > MAX_PLAYERS + 1 {
        return Err(at(Error::InvalidShape {
            what: "decisions".into(),
            expected: format!("at most {MAX_PLAYERS} players"),
            got: "more".into(),
        }));
    }
    let zero = Value::from(0);
    // `null` is the library's default, as `dealer=None` is
    let dealer = field(request, "dealer").filter(|v| !v.is_null());
    let dealer = dealer.unwrap_or(&zero);
    let dealer = int_arg(dealer, "dealer", 0, seats.len().max(1) as i128 - 1).map_err(at)?;
    let bankrolls = bankrolls(field(request, "bankrolls"), &rules).map_err(at)?;
    let result =
        score::settle(&seats, &rules.rules, bankrolls.as_deref(), dealer as usize).map_err(at)?;
    to_json(&Settled {
        rules: &rules.name,
        rules_digest: &rules.digest,
        settlement: &result,
        // about 3 KB of text: only for a client that asks
        explanation: explain.then(|| result.explain()),
    })
}

#[derive(Serialize)]
struct Natural {
    natural: &'static str,
    value: u32,
    setting: Option<String>,
}

#[derive(Serialize)]
struct Naturals<'a> {
    hand: &'a str,
    rules: &'a str,
    rules_digest: &'a str,
    naturals: Vec<Natural>,
}

fn naturals(service: &Service, data: &Value) -> Result<Vec<u8>, ApiError> {
    let request = NATURALS.read(data, None)?;
    let default_rules = Value::from(crate::presets::DEFAULT_PRESET);
    let rules = service.rule_set(field(request, "rules").unwrap_or(&default_rules))?;
    let hand = &request["hand"];
    let Some(text) = hand.as_str() else {
        return Err(invalid(
            Some("hand"),
            format!("expected 13 cards as text, got {}", json_type(hand)),
        ));
    };
    let parsed = hand_at(text, "hand")?;
    let found = find_naturals(&parsed, &rules.rules)
        .into_iter()
        .map(|m| Natural {
            natural: m.kind.name(),
            value: m.value,
            setting: m.setting.map(|s| s.to_string()),
        })
        .collect();
    to_json(&Naturals {
        hand: text,
        rules: &rules.name,
        rules_digest: &rules.digest,
        naturals: found,
    })
}

/// A preset's rule set as `RuleSet.to_dict()` gives it: its name, the rule fields, its
/// description and source.
pub fn preset_data(name: &str) -> Option<Value> {
    let p = crate::presets::find(name)?;
    let mut out = Map::new();
    out.insert("name".into(), p.name.into());
    if let Value::Object(fields) = p.rules().to_data() {
        out.extend(fields);
    }
    out.insert("description".into(), p.description.into());
    out.insert("source".into(), p.source.into());
    Some(Value::Object(out))
}

/// `{}`: the presets listed; `{"name": ...}`: that preset's rule set (404 if there is none).
fn rules(data: &Value) -> Result<Vec<u8>, ApiError> {
    let Value::Object(map) = data else {
        return Err(invalid(
            Some("name"),
            "expected only a preset's name (or nothing, for the list)",
        ));
    };
    if map.is_empty() {
        let presets: Vec<Value> = PRESETS
            .iter()
            .map(|p| {
                serde_json::json!({
                    "name": p.name,
                    "description": p.description,
                    "source": p.source,
                })
            })
            .collect();
        return to_json(&serde_json::json!({ "presets": presets }));
    }
    let name = match map.get("name") {
        Some(Value::String(name)) if map.len() == 1 => name,
        _ => {
            return Err(invalid(
                Some("name"),
                "expected only a preset's name (or nothing, for the list)",
            ))
        }
    };
    match preset_data(name) {
        Some(data) => to_json(&data),
        None => {
            let shown: String = name.chars().take(40).collect();
            Err(ApiError::new(
                "not_found",
                unknown_preset_message(&super::request::py_str(&shown), None),
            )
            .at("name"))
        }
    }
}
