//! The solver as a service, bytes in and bytes out: a request's JSON is read, checked field by
//! field, solved or settled and answered as JSON by the core alone, with no per-hand object of
//! any other language on the way ([serve guide](https://chinese-poker.github.io/chinese-poker/guide/serve/)).
//! The HTTP front and the JSON-lines mode (`serve --stdio`) both answer through one
//! [`Service`]: its limits, its caches of rule sets and solvers, and its Monte Carlo slots.
//!
//! One job per module: [`error`] (the error answer, its codes and the naming of the field a
//! core error concerns), [`request`] (reading a request's fields, and the words messages quote
//! values in) and [`ops`] (the operations: solve, settle, naturals, rules).
//!
//! JSON is read by serde_json, which differs from Python's `json.loads` in three ways the
//! service states rather than hides: `NaN`, `Infinity` and numbers beyond a float's range
//! (`1e999`) are not JSON and are refused as `bad_json` (400); a `\ud800` escape (a lone
//! surrogate, which no UTF-8 text can hold) is refused the same way; an integer beyond 64 bits
//! reads as a float, so a field that takes a whole number refuses it as one. A key given twice
//! in one object means its last value, as in Python.

pub mod error;
pub mod limits;
pub mod ops;
pub mod request;

pub use error::{ApiError, CODES};

use crate::parallel::Stop;
use crate::rules::Rules;
use crate::solve::{Objective, TableEv};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The operations the service answers, by their names in the stdio mode's `"op"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `POST /v1/solve`: the best decision for each hand.
    Solve,
    /// `POST /v1/settle`: one round settled.
    Settle,
    /// `POST /v1/naturals`: the naturals a hand holds.
    Naturals,
    /// `GET /v1/rules` (`{}`) and `GET /v1/rules/{name}` (`{"name": ...}`).
    Rules,
}

impl Op {
    /// Every operation, in [`Op::NAMES`] order.
    pub const ALL: [Op; 4] = [Op::Solve, Op::Settle, Op::Naturals, Op::Rules];
    /// The operations' names, as the stdio mode's `"op"` gives them.
    pub const NAMES: [&'static str; 4] = ["solve", "settle", "naturals", "rules"];

    /// The operation called `name`.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Op::ALL[i])
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        Op::NAMES[self as usize]
    }
}

/// The limits the service enforces before any work (the `serve` command's options).
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceLimits {
    /// Largest request body or stdio line, in bytes (larger: 413 `too_large`).
    pub max_body: usize,
    /// Most hands in one solve request (more: 422).
    pub max_hands: usize,
    /// Most Monte Carlo samples in one request, samples × hands (more: 422).
    pub max_samples: u64,
    /// Monte Carlo requests solved at once (another one meanwhile: 429 `busy`).
    pub mc_slots: usize,
    /// Seconds a request may take; a Monte Carlo `time_limit` × hands must fit in it.
    pub timeout: f64,
}

impl Default for ServiceLimits {
    /// The `serve` command's defaults ([`limits::limits`]).
    fn default() -> Self {
        use limits::default_of;
        ServiceLimits {
            max_body: default_of("max_body") as usize,
            max_hands: default_of("max_hands") as usize,
            max_samples: default_of("max_samples") as u64,
            mc_slots: default_of("mc_slots") as usize,
            timeout: default_of("timeout"),
        }
    }
}

/// One answer: its HTTP status, its JSON body, the error code if it is an error, and the hands
/// it solved by objective (`"table"` or `"monte_carlo"`), for the metrics.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The answer, compact UTF-8 JSON.
    pub body: Vec<u8>,
    /// The error's code ([`CODES`]), `None` for an answer.
    pub code: Option<&'static str>,
    /// The hands solved and by which objective.
    pub hands: Option<(&'static str, u64)>,
}

impl Reply {
    fn error(e: &ApiError) -> Reply {
        Reply {
            status: e.status(),
            body: e.to_json(),
            code: Some(e.code),
            hands: None,
        }
    }
}

/// A rule set as a request names it, checked and compiled once (cached by [`Service`]).
#[derive(Debug)]
pub struct RuleSet {
    /// The preset's name, or the rule set's JSON with sorted keys (how it is cached).
    pub key: String,
    /// Whether `key` is a preset's name.
    pub preset: bool,
    /// Its `name` (`"custom"` where the data gives none).
    pub name: String,
    /// The compiled rules.
    pub rules: Rules,
    /// Their digest ([`Rules::digest`]).
    pub digest: String,
}

/// Where the table objective's strategy tables come from: given the rule set and the table
/// size, the compiled tables, or the error answer (named `rules`). The core's own
/// ([`Service::new`]) reads the tables built into the crate; the Python package gives its
/// `load_tables` (installed tables, shipped ones, the fallback), so that one place decides.
pub type TablesLoader = dyn Fn(&RuleSet, usize) -> Result<Arc<TableEv>, ApiError> + Send + Sync;

/// A solver the service built: the rule set, the table size and the compiled objective.
pub struct Solver {
    /// The rule set.
    pub rules: Arc<RuleSet>,
    /// The table size.
    pub players: usize,
    /// The objective (the table's, or Monte Carlo on one thread).
    pub objective: Objective,
}

/// A bounded map: the oldest entry goes first once full.
struct Cache<K, V> {
    map: HashMap<K, Arc<V>>,
    order: VecDeque<K>,
    capacity: usize,
}

impl<K: Hash + Eq + Clone, V> Cache<K, V> {
    fn new(capacity: usize) -> Self {
        Cache {
            map: HashMap::new(),
            order: VecDeque::new(),
            capacity,
        }
    }

    fn get(&self, key: &K) -> Option<Arc<V>> {
        self.map.get(key).cloned()
    }

    fn insert(&mut self, key: K, value: Arc<V>) {
        if self.map.contains_key(&key) {
            return;
        }
        while self.map.len() >= self.capacity {
            match self.order.pop_front() {
                Some(old) => {
                    self.map.remove(&old);
                }
                None => break,
            }
        }
        self.order.push_back(key.clone());
        self.map.insert(key, value);
    }
}

/// Rule sets, solvers and tables each service keeps (inline rule sets are keyed by their
/// JSON: a bound on what clients can make it hold).
pub const CACHE_SIZE: usize = 64;

/// A solver's cache key: the rule set's key, the table size and the Monte Carlo options
/// (samples, seed, the time limit's bits): only values already read as their exact types.
type SolverKey = (String, usize, Option<(u64, u64, Option<u64>)>);

/// The service: its limits, caches and Monte Carlo slots, shared by every thread that answers
/// (it is `Send + Sync`).
pub struct Service {
    limits: ServiceLimits,
    free_slots: AtomicUsize,
    rule_sets: Mutex<Cache<String, RuleSet>>,
    solvers: Mutex<Cache<SolverKey, Solver>>,
    tables: Mutex<Cache<(String, usize), TableEv>>,
    loader: Box<TablesLoader>,
}

/// A Monte Carlo slot, given back when dropped (on every path: an answer, an error, a panic).
pub struct Slot<'a>(&'a AtomicUsize);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // a panic while holding a cache leaves it whole (inserts are single steps)
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Service {
    /// A service with `limits`, its table objective's tables from the core's own
    /// ([`crate::solve::load_bundled`], with the `bundled-tables` feature).
    pub fn new(limits: ServiceLimits) -> Service {
        Service::with_tables(limits, Box::new(bundled_loader))
    }

    /// A service whose tables come from `loader` (called once per rule set and table size,
    /// then cached).
    pub fn with_tables(limits: ServiceLimits, loader: Box<TablesLoader>) -> Service {
        Service {
            free_slots: AtomicUsize::new(limits.mc_slots),
            limits,
            rule_sets: Mutex::new(Cache::new(CACHE_SIZE)),
            solvers: Mutex::new(Cache::new(CACHE_SIZE)),
            tables: Mutex::new(Cache::new(CACHE_SIZE)),
            loader,
        }
    }

    /// Its limits.
    pub fn limits(&self) -> &ServiceLimits {
        &self.limits
    }

    /// Monte Carlo slots free now.
    pub fn free_slots(&self) -> usize {
        self.free_slots.load(Ordering::Acquire)
    }

    /// A Monte Carlo slot, or the `busy` answer (429) when all are taken: a Monte Carlo
    /// request is refused, not queued.
    pub fn slot(&self) -> Result<Slot<'_>, ApiError> {
        let taken = self
            .free_slots
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        match taken {
            Ok(_) => Ok(Slot(&self.free_slots)),
            Err(_) => Err(ApiError::new(
                "busy",
                format!(
                    "all {} Monte Carlo slots are busy; retry later",
                    self.limits.mc_slots
                ),
            )),
        }
    }

    /// One HTTP-style request of `op` (its JSON body) and its answer. `stop` is polled by a
    /// Monte Carlo solve between blocks of samples (and by a long batch between chunks): once
    /// it returns true the answer is a `timeout` error (504), which a front that stopped the
    /// work for another reason (its client left) replaces.
    pub fn answer(&self, op: Op, body: &[u8], stop: Stop<'_>) -> Reply {
        if body.len() > self.limits.max_body {
            let e = ApiError::new(
                "too_large",
                format!(
                    "the request body is larger than {} bytes",
                    self.limits.max_body
                ),
            );
            return Reply::error(&e);
        }
        let data: Value = match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => {
                let e = ApiError::new("bad_json", format!("the request body is not JSON: {e}"));
                return Reply::error(&e);
            }
        };
        self.reply(op, &data, stop)
    }

    fn reply(&self, op: Op, data: &Value, stop: Stop<'_>) -> Reply {
        match ops::run(self, op, data, stop) {
            Ok((body, hands)) => Reply {
                status: 200,
                body,
                code: None,
                hands,
            },
            Err(e) => Reply::error(&e),
        }
    }

    /// One line of the stdio mode (a request of the HTTP shape plus `"op"`, a key of
    /// [`Op::NAMES`], and an optional `"id"` echoed back first) and its answer line, without
    /// the newline; a bad line is answered with an error line.
    pub fn answer_line(&self, line: &[u8], stop: Stop<'_>) -> Vec<u8> {
        let line = line.trim_ascii();
        if line.len() > self.limits.max_body {
            let e = ApiError::new(
                "too_large",
                format!(
                    "the request line is longer than {} bytes",
                    self.limits.max_body
                ),
            );
            return e.to_json();
        }
        let mut data: Value = match serde_json::from_slice(line) {
            Ok(v) => v,
            Err(e) => {
                let e = ApiError::new("bad_json", format!("the request line is not JSON: {e}"));
                return e.to_json();
            }
        };
        let Value::Object(map) = &mut data else {
            let got = request::json_type(&data);
            return error::invalid(None, format!("expected a JSON object, got {got}")).to_json();
        };
        let ident = map.shift_remove("id").filter(|v| !v.is_null());
        let op = map.shift_remove("op");
        let body = match op.as_ref().and_then(Value::as_str).and_then(Op::from_name) {
            Some(op) => self.reply(op, &data, stop).body,
            None => {
                let got = request::py_repr(op.as_ref().unwrap_or(&Value::Null));
                let e = error::invalid(
                    Some("op"),
                    format!("expected one of {}, got {got}", Op::NAMES.join(", ")),
                );
                e.to_json()
            }
        };
        match ident {
            // every answer is a non-empty object: the id goes first, as the stdio mode has
            // always answered it
            Some(id) if body.len() > 2 => {
                let mut out = b"{\"id\":".to_vec();
                out.extend(serde_json::to_vec(&id).unwrap_or_else(|_| b"null".to_vec()));
                out.push(b',');
                out.extend_from_slice(&body[1..]);
                out
            }
            _ => body,
        }
    }

    /// The rule set a request names (`value`: a preset name or a rule set object), read once
    /// and cached by the preset's name or the object's JSON with sorted keys (the text tells
    /// `1` from `1.0` and `true`, which the core refuses where they do not belong).
    pub fn rule_set(&self, value: &Value) -> Result<Arc<RuleSet>, ApiError> {
        let (key, preset) = match value {
            Value::String(name) => (name.clone(), true),
            Value::Object(_) => (crate::digest::sorted_keys(value).to_string(), false),
            other => {
                return Err(error::invalid(
                    Some("rules"),
                    format!(
                        "expected a preset name or a rule set object, got {}",
                        request::json_type(other)
                    ),
                ))
            }
        };
        if let Some(hit) = lock(&self.rule_sets).get(&key) {
            return Ok(hit);
        }
        let (rules, name) = if preset {
            let Some(p) = crate::presets::find(&key) else {
                return Err(ops::unknown_preset(&key));
            };
            (p.rules(), p.name.to_string())
        } else {
            let rules = Rules::from_data(value).map_err(|e| error::blame(e, Some("rules"), &[]))?;
            let name = value
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("custom");
            (rules, name.to_string())
        };
        let digest = rules.digest();
        let built = Arc::new(RuleSet {
            key: key.clone(),
            preset,
            name,
            rules,
            digest,
        });
        lock(&self.rule_sets).insert(key, built.clone());
        Ok(built)
    }

    /// The table objective's tables for a rule set and table size (cached).
    pub fn tables(&self, rules: &RuleSet, players: usize) -> Result<Arc<TableEv>, ApiError> {
        let key = (rules.key.clone(), players);
        if let Some(hit) = lock(&self.tables).get(&key) {
            return Ok(hit);
        }
        let loaded = (self.loader)(rules, players)?;
        lock(&self.tables).insert(key, loaded.clone());
        Ok(loaded)
    }

    fn solver(
        &self,
        key: SolverKey,
        build: impl FnOnce() -> Result<Solver, ApiError>,
    ) -> Result<Arc<Solver>, ApiError> {
        if let Some(hit) = lock(&self.solvers).get(&key) {
            return Ok(hit);
        }
        let built = Arc::new(build()?);
        lock(&self.solvers).insert(key, built.clone());
        Ok(built)
    }
}

/// The tables built into the crate, or an error saying there are none.
fn bundled_loader(rules: &RuleSet, players: usize) -> Result<Arc<TableEv>, ApiError> {
    #[cfg(feature = "bundled-tables")]
    let loaded = crate::solve::load_bundled(&rules.rules, players)
        .map(|t| Arc::new(t.with_source(crate::solve::TablesSource::Shipped)));
    #[cfg(not(feature = "bundled-tables"))]
    let loaded: crate::Result<Arc<TableEv>> = Err(crate::Error::InvalidTables {
        path: "bundled".into(),
        reason: format!(
            "this build has no tables built in (the bundled-tables feature) for rule set {:?} \
             at {players} players",
            rules.name
        ),
    });
    loaded.map_err(|e| error::blame(e, Some("rules"), &[]))
}

#[cfg(test)]
mod tests;
