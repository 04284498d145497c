//! Exact settlement of one round for 2–4 players ([rules: Scoring](https://chinese-poker.github.io/chinese-poker/rules/#scoring), "Fouls, naturals
//! and surrender", "Bankroll cap"; the decisions taken where sources are silent are listed
//! there).
//!
//! Every pair of players is settled separately and zero-sum; the result records every number
//! with the rule that produced it so that [`Settlement::explain`] can print a table a person can
//! check by hand. Players are numbered by seat, 0-based, in the order of the `decisions` slice.
//!
//! # One matchup, step by step
//!
//! 1. **Rows** (both players played legal settings): each row goes to the higher row key
//!    ([`row_key`]: the hand rank, then the suit-order tie-break if the rule set has one); equal
//!    keys tie and nobody scores the row. The winner scores `rules.row_value(row, category)` of
//!    its own hand; with `double_bonus`, a bonus row (value above 1) that beats a row of the
//!    same category pays its bonus twice (`replace`: 2 × value; `add`: 1 + 2 × bonus).
//! 2. **Pair total**: the row values each side won; `majority_point` goes to whoever won more
//!    rows, `overall_point` to whoever has the higher row total (2-4 scoring); the base is the
//!    difference of the two totals plus those points ("the higher total collects the
//!    difference").
//! 3. **Scoop** (all three rows won, so no ties): `Multiply(k)` multiplies the whole base
//!    (bonuses, majority and overall points included); `Add(n)` adds n to the scooper.
//! 4. **Sweep**: a player who scoops every opponent at a table of at least
//!    `sweep.min_players` has each of those matchups multiplied by `sweep.multiplier`. A fouled
//!    opponent counts as scooped if `sweep.fouled_counts`. A natural or a surrender opposite is
//!    never scooped, so it prevents the sweep.
//!
//! # Fouls, naturals and surrender
//!
//! - A **foul** is a `Play` whose setting breaks back ≥ middle ≥ front, or a `Declare` the hand
//!   does not hold (or, with `natural_must_show`, whose rows do not display it). Under
//!   `FoulPolicy::Reject` both are errors instead.
//!   - `AsScooped`: the opponent wins all three rows at its own row values (no double bonus,
//!     since no row of the same category was beaten), then majority/overall points and the
//!     scoop apply exactly as if the rows had been won.
//!   - `FlatPlusBonus(n)`: n units plus the opponent's bonuses, a bonus being what a row pays
//!     above the plain point (`row_value − 1`), so that with n = 3 the penalty equals winning
//!     all three rows; no scoop multiplier.
//!   - foul against foul: 0.
//! - A **natural** (declared, or found automatically under `Declaration::Auto` in a `Play`) is
//!   paid its value by each opponent that played or fouled, with no rows, scoop or sweep.
//!   Between two naturals the higher value is paid its own value; equal values tie (0).
//!   Under `Auto` the engine lays out the rows itself, so an automatically declared natural is
//!   never checked against `natural_must_show`, and it replaces a fouled setting.
//! - A **surrender** pays `rules.surrender` units to each opponent that did not surrender —
//!   whatever that opponent holds (a natural, a foul or a setting): the surrender happens before
//!   anything is shown. Two surrenders exchange nothing.
//!
//! # Bankroll cap
//!
//! With `rules.bankroll_cap` and `bankrolls` given, the matchup payments are made one at a
//! time in seat order starting at the player right of the dealer: with `order = [(dealer+1) %
//! n, (dealer+2) % n, ..., dealer]`, the matchups are paid `(order[0], order[1])`,
//! `(order[0], order[2])`, ..., `(order[1], order[2])`, ... Each payment is the matchup's
//! points, capped by what the payer has left (its bankroll plus what it has won so far minus
//! what it has paid) and by what the payee may still win (its bankroll minus its net winnings
//! so far). So nobody ends below 0 or wins more than their own bankroll. Without the cap (or
//! without bankrolls) every payment is made in full, in the same order.
//!
//! # Errors (nothing is settled unless everything is valid)
//!
//! Fewer than 2 or more than 4 players; a card held by two players (names both seats and the
//! card); a dealer seat or a bankroll list that does not fit the table; a bankroll outside
//! [`bankroll_range`] (negative only under the cap); a
//! surrender the rule set does not allow; declaring a natural the rule set does not recognise;
//! a fouled setting or false declaration under `FoulPolicy::Reject` (names the seat and the
//! rows). The rule set itself is valid by construction ([`Rules::validate`]). The rows of a declared natural are never
//! checked for order: a natural is not compared row by row.

use crate::card::Card;
use crate::data::{by_name, damaged, Record};
use crate::error::{Error, Result};
use crate::eval::{Category, Evaluator, HandRank};
use crate::naturals::{best_natural, displays, qualifies};
use crate::rules::{Declaration, FoulPolicy, NaturalKind, Row, Rules, Scoop};
use crate::setting::Setting;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// What one player does with their 13 cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Set the cards and compare rows.
    Play(Setting),
    /// Declare a natural; the setting gives the 13 cards (and, where the rule set requires it,
    /// rows that display the natural).
    Declare {
        /// The natural declared.
        natural: NaturalKind,
        /// The 13 cards, as rows.
        setting: Setting,
    },
    /// Give up before the showdown (only where the rule set allows it).
    Surrender,
}

impl Decision {
    /// A decision as text: `"front / middle / back"` (a play), `"surrender"` or
    /// `"NATURAL: front / middle / back"` (declaring a natural by its name, any case): the one
    /// reader of that grammar (the command line's `settle` and the service's decisions).
    pub fn parse(text: &str) -> std::result::Result<Decision, crate::setting::SettingError> {
        let stripped = text.trim();
        if stripped.eq_ignore_ascii_case("surrender") {
            return Ok(Decision::Surrender);
        }
        if let Some((head, rest)) = stripped.split_once(':') {
            if let Some(natural) = NaturalKind::from_name(&head.trim().to_lowercase()) {
                let setting = Setting::parse(rest)?;
                return Ok(Decision::Declare { natural, setting });
            }
        }
        Ok(Decision::Play(Setting::parse(stripped)?))
    }

    /// The setting of a play or a declaration; `None` for a surrender.
    pub fn setting(&self) -> Option<&Setting> {
        match self {
            Decision::Play(s) | Decision::Declare { setting: s, .. } => Some(s),
            Decision::Surrender => None,
        }
    }

    /// Checks that the decision of `player` sets exactly the cards of the `dealt` hand (a
    /// surrender sets none): a decision made elsewhere (a person, a Python policy) may name
    /// any 13 cards, and only the table knows which were dealt. The error names the seat and
    /// the cards it played but was not dealt.
    pub fn check_dealt(&self, player: usize, dealt: &crate::hand::Hand) -> Result<()> {
        let Some(s) = self.setting() else {
            return Ok(());
        };
        let hand = crate::card::CardSet::from_cards(&dealt.cards());
        let foreign = s.cards().minus(hand);
        if foreign.is_empty() {
            return Ok(());
        }
        let names: Vec<String> = foreign.cards_desc().iter().map(|c| c.to_string()).collect();
        Err(Error::InvalidDecision {
            player,
            reason: format!(
                "the setting plays {}, not dealt to seat {player}",
                names.join(" ")
            ),
        })
    }
}

/// What a player's decision became once checked against the rule set.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Status {
    /// A legal setting, compared row by row.
    Played,
    /// A fouled setting or a false declaration.
    Fouled,
    /// A natural, declared or found automatically.
    Natural,
    /// Gave up before the showdown.
    Surrendered,
}

crate::named!(Status {
    Played => "played",
    Fouled => "fouled",
    Natural => "natural",
    Surrendered => "surrendered",
});

by_name!(Status, "status", Status::ALL, Status::name);

/// One player's part of a settlement.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlayerResult {
    /// The player's seat (0-based), their index in [`Settlement::players`].
    pub seat: usize,
    /// How the player's hand was settled.
    pub status: Status,
    /// The setting as given (`None` for a surrender).
    pub setting: Option<Setting>,
    /// Row ranks (front, middle, back) of the setting; `None` for a surrender.
    #[serde(with = "crate::data::opt_list")]
    pub ranks: Option<[HandRank; 3]>,
    /// The natural paid to this player, with its value (data: `natural`, `natural_value`).
    #[serde(flatten, with = "natural_paid")]
    pub natural: Option<(NaturalKind, u32)>,
    /// The natural was found by the engine (`Declaration::Auto`), not declared.
    pub auto_declared: bool,
    /// Why the hand fouled, in words.
    pub foul_reason: Option<String>,
    /// This player scooped every opponent at a table large enough for a sweep.
    pub sweep: bool,
    /// Sum of this player's matchup points before any bankroll cap.
    pub raw_total: i64,
    /// What the player actually wins (negative: pays), after the bankroll cap.
    pub total: i64,
}

/// How a matchup was settled.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MatchupKind {
    /// Both played legal settings: rows compared.
    Rows,
    /// One side fouled, the other played.
    Foul,
    /// Both fouled: nothing changes hands.
    BothFouled,
    /// At least one side has a natural (and neither surrendered).
    Natural,
    /// At least one side surrendered.
    Surrender,
}

// "both fouled" is a data id with a space: results and their dictionaries have always said so.
crate::named!(MatchupKind {
    Rows => "rows",
    Foul => "foul",
    BothFouled => "both fouled",
    Natural => "natural",
    Surrender => "surrender",
});

by_name!(MatchupKind, "kind", MatchupKind::ALL, MatchupKind::name);

/// One row of a matchup.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RowOutcome {
    /// The row compared.
    pub row: Row,
    /// The seat that won the row; `None` for a tie (or no row comparison).
    pub winner: Option<usize>,
    /// Units the winner scores for the row (after doubling), 0 for a tie.
    pub value: u64,
    /// The winning hand pays a row bonus (value above the plain point).
    pub bonus: bool,
    /// The bonus was doubled (bonus row over a row of the same category).
    pub doubled: bool,
    /// The ranks were equal and the suit order decided the row.
    pub suit_break: bool,
}

impl RowOutcome {
    /// A row nobody won.
    pub fn tie(row: Row) -> RowOutcome {
        RowOutcome {
            row,
            winner: None,
            value: 0,
            bonus: false,
            doubled: false,
            suit_break: false,
        }
    }
}

/// The settlement between seats `a < b`. Every amount is from `a`'s side: positive means `b`
/// pays `a`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Matchup {
    /// The first player (the lower index).
    pub a: usize,
    /// The second player.
    pub b: usize,
    /// How the matchup was settled.
    pub kind: MatchupKind,
    /// Rows (for `Rows`, and for `Foul` where the non-fouled side wins every row; all ties for
    /// the other kinds), front to back.
    #[serde(with = "crate::data::list")]
    pub rows: [RowOutcome; 3],
    /// Row values won by `a` and by `b`.
    #[serde(with = "crate::data::list")]
    pub row_totals: [i64; 2],
    /// Majority point (signed, for `a`).
    pub majority: i64,
    /// Overall point (signed, for `a`).
    pub overall: i64,
    /// Points for `a` before scoop and sweep: row difference plus majority and overall points,
    /// or the foul penalty, natural value or surrender cost.
    pub base: i64,
    /// The seat that scooped the other (won every row, or the opponent fouled under
    /// `AsScooped`).
    pub scoop: Option<usize>,
    /// Points for `a` after the scoop.
    pub after_scoop: i64,
    /// Sweep multiplier applied (1 = none).
    pub sweep_multiplier: i64,
    /// Final points for `a`; `b` gets the negative.
    pub points: i64,
}

/// One transfer of the bankroll step, in the order made.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Payment {
    /// Index into `Settlement::matchups`.
    pub matchup: usize,
    /// The player who pays.
    pub payer: usize,
    /// The player paid.
    pub payee: usize,
    /// The matchup's points.
    pub owed: i64,
    /// What was actually transferred (less than `owed` only under the bankroll cap).
    pub paid: i64,
}

/// The full result of [`settle`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Settlement {
    /// The dealer's seat: payments are made in order from the dealer's right.
    pub dealer: usize,
    /// Data: `totals` (written, never read back) before `players`.
    #[serde(flatten, with = "totals_and_players")]
    pub players: Vec<PlayerResult>,
    /// Every pair `a < b`, in the order (0,1), (0,2), ..., (n-2, n-1).
    pub matchups: Vec<Matchup>,
    /// Non-zero matchup payments in dealer order (see the module docs).
    pub payments: Vec<Payment>,
    /// Whether the bankroll cap applied (the rule set caps payments and bankrolls were given);
    /// what it took is each payment's `owed` above its `paid`.
    pub capped: bool,
    /// Bankrolls after the payments, if bankrolls were given.
    pub bankrolls_after: Option<Vec<i64>>,
}

impl Settlement {
    /// Final per-player totals (after the bankroll cap); they sum to zero.
    pub fn totals(&self) -> Vec<i64> {
        self.players.iter().map(|p| p.total).collect()
    }
    /// Per-player totals before the bankroll cap; they sum to zero.
    pub fn raw_totals(&self) -> Vec<i64> {
        self.players.iter().map(|p| p.raw_total).collect()
    }
    /// The matchup between two seats (in either order).
    pub fn matchup(&self, x: usize, y: usize) -> Option<&Matchup> {
        self.matchup_index(x, y).map(|i| &self.matchups[i])
    }
    /// Where the matchup between two seats (in either order) is in `matchups`.
    pub fn matchup_index(&self, x: usize, y: usize) -> Option<usize> {
        let (a, b) = (x.min(y), x.max(y));
        self.matchups.iter().position(|m| m.a == a && m.b == b)
    }
}

/// `natural` and `natural_value` of a player's data: both or neither.
mod natural_paid {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Paid {
        natural: Option<NaturalKind>,
        natural_value: Option<u32>,
    }

    pub fn serialize<S: serde::Serializer>(
        v: &Option<(NaturalKind, u32)>,
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        Paid {
            natural: v.map(|(k, _)| k),
            natural_value: v.map(|(_, u)| u),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<Option<(NaturalKind, u32)>, D::Error> {
        match Paid::deserialize(d)? {
            Paid {
                natural: Some(k),
                natural_value: Some(u),
            } => Ok(Some((k, u))),
            Paid {
                natural: None,
                natural_value: None,
            } => Ok(None),
            _ => Err(serde::de::Error::custom("natural without natural_value")),
        }
    }
}

/// A settlement's data carries the totals (for readers of the data) ahead of the players; they
/// are the players' totals, so reading the data back takes the players only.
mod totals_and_players {
    use super::*;

    #[derive(Serialize)]
    struct Written<'a> {
        totals: Vec<i64>,
        players: &'a [PlayerResult],
    }

    #[derive(Deserialize)]
    struct Read {
        players: Vec<PlayerResult>,
    }

    pub fn serialize<S: serde::Serializer>(
        players: &[PlayerResult],
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        Written {
            totals: players.iter().map(|p| p.total).collect(),
            players,
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<Vec<PlayerResult>, D::Error> {
        Ok(Read::deserialize(d)?.players)
    }
}

impl Record for RowOutcome {
    const WHAT: &'static str = "RowResult";
}

impl Record for Payment {
    const WHAT: &'static str = "Payment";
}

impl Record for PlayerResult {
    const WHAT: &'static str = "PlayerResult";
}

impl Record for Matchup {
    const WHAT: &'static str = "Matchup";
    /// The rows are front, middle, back, and `a < b`.
    fn validate(&self) -> Result<()> {
        if self.rows.iter().zip(Row::ALL).any(|(r, row)| r.row != row) {
            return Err(damaged(Self::WHAT, "rows out of order"));
        }
        if self.a >= self.b {
            return Err(damaged(
                Self::WHAT,
                format!("seats {} v {}", self.a, self.b),
            ));
        }
        Ok(())
    }
}

impl Record for Settlement {
    const WHAT: &'static str = "Settlement";
    /// Two to four players in seat order, a dealer among them, every pair of seats once in
    /// order, payments between the seats of existing matchups, a bankroll for every seat.
    fn validate(&self) -> Result<()> {
        let bad = |reason: &str| Err(damaged(Self::WHAT, reason));
        let n = self.players.len();
        if !(2..=4).contains(&n) || self.players.iter().enumerate().any(|(i, p)| p.seat != i) {
            return bad("players");
        }
        if self.dealer >= n {
            return bad("dealer");
        }
        let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
        if !self.matchups.iter().map(|m| (m.a, m.b)).eq(pairs) {
            return bad("matchups or payments do not fit the players");
        }
        for m in &self.matchups {
            m.validate()
                .map_err(|_| damaged(Self::WHAT, "rows out of order"))?;
        }
        let fits = |p: &Payment| {
            self.matchups.get(p.matchup).is_some_and(|m| {
                (p.payer, p.payee) == (m.a, m.b) || (p.payer, p.payee) == (m.b, m.a)
            })
        };
        if !self.payments.iter().all(fits) {
            return bad("matchups or payments do not fit the players");
        }
        if self.bankrolls_after.as_ref().is_some_and(|b| b.len() != n) {
            return bad("bankrolls_after");
        }
        Ok(())
    }
}

mod explain;
mod pair;

use pair::*;
pub use pair::{key_category, pair_score, row_key, row_outcome, rows_score, PairScore};

/// A decision checked against the rule set.
#[derive(Clone, Debug)]
enum Hand {
    Played {
        keys: [u64; 3],
        ranks: [HandRank; 3],
    },
    Fouled,
    Natural {
        value: u32,
    },
    Surrendered,
}

fn player_label(i: usize) -> String {
    format!("P{i}")
}

/// The fewest and the most players at a table.
pub const MIN_PLAYERS: usize = 2;
/// Most players at a table.
pub const MAX_PLAYERS: usize = 4;
/// The table size every command, service request and simulation assumes where none is given.
pub const DEFAULT_PLAYERS: usize = 4;

/// The bankrolls `settle` accepts under `rules`, lowest and highest: a rule set that caps
/// payments by bankroll needs bankrolls of 0 or more (nobody can pay from less than nothing);
/// without the cap a bankroll is only kept, so a seat may be in debt, down to
/// `-MAX_BANKROLL`.
pub fn bankroll_range(rules: &Rules) -> (i64, i64) {
    let low = if rules.bankroll_cap { 0 } else { -MAX_BANKROLL };
    (low, MAX_BANKROLL)
}

/// Checks `players` bankrolls for a table under `rules`: one per seat, each in
/// [`bankroll_range`]. The errors name the seat.
pub fn check_bankrolls(rules: &Rules, players: usize, b: &[i64]) -> Result<()> {
    if b.len() != players {
        return Err(Error::InvalidShape {
            what: "bankrolls".into(),
            expected: format!("{players} values (one per player)"),
            got: crate::error::count(b.len(), "value"),
        });
    }
    let (low, high) = bankroll_range(rules);
    if let Some((i, v)) = b.iter().enumerate().find(|(_, &v)| v < low && low == 0) {
        return Err(Error::InvalidDecision {
            player: i,
            reason: format!(
                "bankroll {v} is negative, and this rule set caps payments by bankroll"
            ),
        });
    }
    if let Some((i, v)) = b
        .iter()
        .enumerate()
        .find(|(_, &v)| !(low..=high).contains(&v))
    {
        return Err(Error::InvalidDecision {
            player: i,
            reason: format!("bankroll {v} is outside the limits {low} to {high}"),
        });
    }
    Ok(())
}

fn check_table(
    decisions: &[Decision],
    rules: &Rules,
    bankrolls: Option<&[i64]>,
    dealer: usize,
) -> Result<()> {
    let n = decisions.len();
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
        return Err(Error::InvalidShape {
            what: "decisions".into(),
            expected: format!("{MIN_PLAYERS} to {MAX_PLAYERS} players"),
            got: format!("{n} player{}", if n == 1 { "" } else { "s" }),
        });
    }
    if dealer >= n {
        return Err(Error::InvalidShape {
            what: "dealer".into(),
            expected: format!("a seat 0..={}", n - 1),
            got: dealer.to_string(),
        });
    }
    if let Some(b) = bankrolls {
        check_bankrolls(rules, n, b)?;
    }
    let mut owner: [Option<usize>; 52] = [None; 52];
    for (p, d) in decisions.iter().enumerate() {
        let Some(s) = d.setting() else { continue };
        for c in s.cards().cards_desc() {
            let slot = &mut owner[c.code() as usize];
            if let Some(first) = *slot {
                return Err(Error::DuplicateCardPlayers {
                    card: c.to_string(),
                    first,
                    second: p,
                });
            }
            *slot = Some(p);
        }
    }
    Ok(())
}

fn foul_reason(ranks: &[HandRank; 3]) -> String {
    let [f, m, b] = *ranks;
    let mut parts = Vec::new();
    if f > m {
        parts.push(format!(
            "front ({}) beats middle ({})",
            f.describe(),
            m.describe()
        ));
    }
    if m > b {
        parts.push(format!(
            "middle ({}) beats back ({})",
            m.describe(),
            b.describe()
        ));
    }
    parts.join(" and ")
}

/// Checks one decision. Returns the hand and the player's result skeleton.
fn classify(
    rules: &Rules,
    ev: &Evaluator,
    player: usize,
    d: &Decision,
) -> Result<(Hand, PlayerResult)> {
    let mut res = PlayerResult {
        seat: player,
        status: Status::Played,
        setting: d.setting().copied(),
        ranks: None,
        natural: None,
        auto_declared: false,
        foul_reason: None,
        sweep: false,
        raw_total: 0,
        total: 0,
    };
    let rank_of =
        |cards: &[Card]| ev.eval_codes(&cards.iter().map(|c| c.code()).collect::<Vec<_>>());
    let ranks_of = |s: &Setting| [rank_of(&s.front), rank_of(&s.middle), rank_of(&s.back)];
    let foul = |mut res: PlayerResult, ranks: Option<[HandRank; 3]>, reason: String| {
        if rules.foul == FoulPolicy::Reject {
            return Err(Error::InvalidDecision {
                player,
                reason: format!("{reason} (the rule set rejects fouled hands)"),
            });
        }
        res.status = Status::Fouled;
        res.ranks = ranks;
        res.foul_reason = Some(reason);
        Ok((Hand::Fouled, res))
    };
    match d {
        Decision::Surrender => {
            if rules.surrender.is_none() {
                return Err(Error::InvalidDecision {
                    player,
                    reason: "surrender is not allowed by the rule set".into(),
                });
            }
            res.status = Status::Surrendered;
            Ok((Hand::Surrendered, res))
        }
        Decision::Declare { natural, setting } => {
            let ranks = ranks_of(setting);
            res.ranks = Some(ranks);
            let Some(value) = rules.natural_value(*natural) else {
                return Err(Error::InvalidDecision {
                    player,
                    reason: format!(
                        "declared natural {} is not recognised by the rule set",
                        natural.name()
                    ),
                });
            };
            if !qualifies(&setting.hand(), *natural) {
                let reason = format!("declared {} but the hand does not hold it", natural.name());
                return foul(res, Some(ranks), reason);
            }
            if rules.natural_must_show && !displays(setting, *natural) {
                let reason = format!(
                    "declared {} but the rows do not show it (the rule set requires it)",
                    natural.name()
                );
                return foul(res, Some(ranks), reason);
            }
            res.status = Status::Natural;
            res.natural = Some((*natural, value));
            Ok((Hand::Natural { value }, res))
        }
        Decision::Play(setting) => {
            let ranks = ranks_of(setting);
            res.ranks = Some(ranks);
            if rules.declaration == Declaration::Auto {
                if let Some(m) = best_natural(&setting.hand(), rules) {
                    res.status = Status::Natural;
                    res.natural = Some((m.kind, m.value));
                    res.auto_declared = true;
                    return Ok((Hand::Natural { value: m.value }, res));
                }
            }
            if ranks[0] > ranks[1] || ranks[1] > ranks[2] {
                return foul(
                    res,
                    Some(ranks),
                    format!("fouled setting: {}", foul_reason(&ranks)),
                );
            }
            let keys = [
                row_key(rules, &setting.front, ranks[0]),
                row_key(rules, &setting.middle, ranks[1]),
                row_key(rules, &setting.back, ranks[2]),
            ];
            Ok((Hand::Played { keys, ranks }, res))
        }
    }
}

fn empty_matchup(a: usize, b: usize, kind: MatchupKind, base: i64) -> Matchup {
    Matchup {
        a,
        b,
        kind,
        rows: Row::ALL.map(RowOutcome::tie),
        row_totals: [0, 0],
        majority: 0,
        overall: 0,
        base,
        scoop: None,
        after_scoop: base,
        sweep_multiplier: 1,
        points: base,
    }
}

/// Rows compared between two legal settings.
fn rows_matchup(rules: &Rules, a: usize, b: usize, ka: &[u64; 3], kb: &[u64; 3]) -> Matchup {
    let mut m = empty_matchup(a, b, MatchupKind::Rows, 0);
    let mut wins = [0u32; 2];
    for row in 0..3 {
        let (x, y) = (ka[row], kb[row]);
        let (cx, cy) = (key_category(x), key_category(y));
        let suit_break = x >> KEY_SHIFT == y >> KEY_SHIFT && x != y;
        let (side, winner, value) = if x > y {
            (0, a, rules.win_value(row, cx, cy))
        } else if y > x {
            (1, b, rules.win_value(row, cy, cx))
        } else {
            continue;
        };
        m.row_totals[side] += value.0 as i64;
        wins[side] += 1;
        m.rows[row] = RowOutcome {
            row: Row::ALL[row],
            winner: Some(winner),
            value: value.0,
            bonus: value.1,
            doubled: value.2,
            suit_break,
        };
    }
    finish(rules, &mut m, wins);
    m
}

fn finish(rules: &Rules, m: &mut Matchup, wins: [u32; 2]) {
    let diff = m.row_totals[0] - m.row_totals[1];
    let (majority, overall, base, after) = combine(rules, diff, wins[0] as i32 - wins[1] as i32);
    m.majority = majority;
    m.overall = overall;
    m.base = base;
    m.after_scoop = after;
    m.points = after;
    m.scoop = if wins[0] == 3 {
        Some(m.a)
    } else if wins[1] == 3 {
        Some(m.b)
    } else {
        None
    };
}

/// `winner` played legally, `loser` fouled.
fn foul_matchup(
    rules: &Rules,
    a: usize,
    b: usize,
    winner: usize,
    ranks: &[HandRank; 3],
) -> Matchup {
    let side = usize::from(winner == b);
    let sign = if side == 0 { 1 } else { -1 };
    let mut m = empty_matchup(a, b, MatchupKind::Foul, 0);
    let mut extra = 0i64;
    for (row, r) in ranks.iter().enumerate() {
        let cat = r.category() as usize;
        // No row of the fouled hand is compared, so nothing is doubled.
        let (value, bonus, _) = rules.win_value(row, cat, usize::MAX);
        m.rows[row] = RowOutcome {
            row: Row::ALL[row],
            winner: Some(winner),
            value,
            bonus,
            doubled: false,
            suit_break: false,
        };
        m.row_totals[side] += value as i64;
        extra += value as i64 - 1;
    }
    match rules.foul {
        FoulPolicy::FlatPlusBonus(n) => {
            m.base = sign * (n as i64 + extra);
            m.after_scoop = m.base;
            m.points = m.base;
        }
        FoulPolicy::AsScooped | FoulPolicy::Reject => {
            let wins = if side == 0 { [3, 0] } else { [0, 3] };
            finish(rules, &mut m, wins);
        }
    }
    m
}

/// Largest bankroll accepted, so that bankroll arithmetic can never overflow `i64` (matchups
/// stay below [`crate::rules::MAX_MATCHUP_UNITS`] by the rule-set bounds).
pub const MAX_BANKROLL: i64 = 1 << 60;

/// Settles one round. `decisions[i]` is seat i's decision; `dealer` is the dealer's seat;
/// `bankrolls` (one per seat, within [`bankroll_range`]) are used when the rule set caps payments by bankroll. See
/// the module docs for every rule. Nothing is returned unless everything is valid.
///
/// `rules` must be a validated rule set (built from data or a preset, or checked with
/// [`Rules::validate`]): it is not checked again here.
pub fn settle(
    decisions: &[Decision],
    rules: &Rules,
    bankrolls: Option<&[i64]>,
    dealer: usize,
) -> Result<Settlement> {
    check_table(decisions, rules, bankrolls, dealer)?;
    let n = decisions.len();
    let ev = Evaluator::new(rules.wheel);
    let mut hands = Vec::with_capacity(n);
    let mut players = Vec::with_capacity(n);
    for (p, d) in decisions.iter().enumerate() {
        let (h, r) = classify(rules, &ev, p, d)?;
        hands.push(h);
        players.push(r);
    }

    let mut matchups = Vec::with_capacity(n * (n - 1) / 2);
    // scooped[p][q]: p counts as having scooped q for the sweep
    let mut scooped = [[false; 4]; 4];
    for a in 0..n {
        for b in a + 1..n {
            let m = match (&hands[a], &hands[b]) {
                (Hand::Surrendered, Hand::Surrendered) => {
                    empty_matchup(a, b, MatchupKind::Surrender, 0)
                }
                (Hand::Surrendered, _) | (_, Hand::Surrendered) => {
                    let cost = rules.surrender.unwrap_or(0) as i64;
                    let base = if matches!(hands[a], Hand::Surrendered) {
                        -cost
                    } else {
                        cost
                    };
                    empty_matchup(a, b, MatchupKind::Surrender, base)
                }
                (Hand::Natural { value: x }, Hand::Natural { value: y }) => {
                    let base = match x.cmp(y) {
                        std::cmp::Ordering::Greater => *x as i64,
                        std::cmp::Ordering::Less => -(*y as i64),
                        std::cmp::Ordering::Equal => 0,
                    };
                    empty_matchup(a, b, MatchupKind::Natural, base)
                }
                (Hand::Natural { value }, _) => {
                    empty_matchup(a, b, MatchupKind::Natural, *value as i64)
                }
                (_, Hand::Natural { value }) => {
                    empty_matchup(a, b, MatchupKind::Natural, -(*value as i64))
                }
                (Hand::Fouled, Hand::Fouled) => empty_matchup(a, b, MatchupKind::BothFouled, 0),
                (Hand::Played { ranks, .. }, Hand::Fouled) => {
                    scooped[a][b] = rules.sweep.fouled_counts;
                    foul_matchup(rules, a, b, a, ranks)
                }
                (Hand::Fouled, Hand::Played { ranks, .. }) => {
                    scooped[b][a] = rules.sweep.fouled_counts;
                    foul_matchup(rules, a, b, b, ranks)
                }
                (Hand::Played { keys: ka, .. }, Hand::Played { keys: kb, .. }) => {
                    let m = rows_matchup(rules, a, b, ka, kb);
                    if m.scoop == Some(a) {
                        scooped[a][b] = true;
                    } else if m.scoop == Some(b) {
                        scooped[b][a] = true;
                    }
                    m
                }
            };
            matchups.push(m);
        }
    }

    if n >= rules.sweep.min_players && rules.sweep.multiplier > 1 {
        for p in 0..n {
            if (0..n).all(|q| q == p || scooped[p][q]) {
                players[p].sweep = true;
                for m in matchups.iter_mut().filter(|m| m.a == p || m.b == p) {
                    m.sweep_multiplier = rules.sweep.multiplier as i64;
                    m.points = m.after_scoop * m.sweep_multiplier;
                }
            }
        }
    } else if n >= rules.sweep.min_players {
        for p in 0..n {
            players[p].sweep = (0..n).all(|q| q == p || scooped[p][q]);
        }
    }

    for m in &matchups {
        players[m.a].raw_total += m.points;
        players[m.b].raw_total -= m.points;
    }

    let capped = rules.bankroll_cap && bankrolls.is_some();
    let mut balance: Option<Vec<i64>> = bankrolls.map(|b| b.to_vec());
    let mut net = vec![0i64; n];
    let mut payments = Vec::new();
    let order: Vec<usize> = (1..=n).map(|k| (dealer + k) % n).collect();
    for i in 0..n {
        for j in i + 1..n {
            let (x, y) = (order[i], order[j]);
            let idx = matchups
                .iter()
                .position(|m| m.a == x.min(y) && m.b == x.max(y))
                .expect("every pair has a matchup");
            let pts = matchups[idx].points;
            if pts == 0 {
                continue;
            }
            let (payee, payer) = if pts > 0 {
                (matchups[idx].a, matchups[idx].b)
            } else {
                (matchups[idx].b, matchups[idx].a)
            };
            let owed = pts.abs();
            let paid = match (&balance, capped) {
                (Some(bal), true) => {
                    let start = bankrolls.expect("capped implies bankrolls")[payee];
                    owed.min(bal[payer]).min((start - net[payee]).max(0))
                }
                _ => owed,
            };
            if let Some(bal) = balance.as_mut() {
                bal[payer] -= paid;
                bal[payee] += paid;
            }
            net[payer] -= paid;
            net[payee] += paid;
            payments.push(Payment {
                matchup: idx,
                payer,
                payee,
                owed,
                paid,
            });
        }
    }
    for (p, r) in players.iter_mut().enumerate() {
        r.total = net[p];
    }
    Ok(Settlement {
        dealer,
        players,
        matchups,
        payments,
        capped,
        bankrolls_after: balance,
    })
}
