//! A solution with the table it was solved for (seats, rule set name): what a person reads
//! (`explain`) and what is stored as data (serde, the shape of the Python `to_dict()`).

use super::{Alternative, Choice, Objective, Solution, TablesId};
use crate::card::validate_rows;
use crate::data::{damaged, Record};
use crate::error::Result;
use crate::eval::HandRank;
use crate::rules::NaturalKind;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// [`Solution`] and what made it: the table it answers for and the strategy tables it played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solved {
    #[serde(flatten)]
    /// The best setting, its value and the runners-up.
    pub solution: Solution,
    /// Seats at the table, the solver's included.
    pub players: usize,
    /// The rule set's name.
    pub rules: String,
    /// The rule set's identity ([`crate::rules::Rules::digest`]); empty in data saved before
    /// results named it.
    #[serde(default)]
    pub rules_digest: String,
    /// The strategy tables the objective played ([`Objective::tables`]): the table
    /// objective's own, Monte Carlo's opponents'; `None` for objectives that use none.
    #[serde(default)]
    pub tables: Option<TablesId>,
}

impl Solved {
    /// `solution`, solved for `players` seats under the rule set named `rules` whose digest is
    /// `rules_digest`, by `objective`.
    pub fn new(
        solution: Solution,
        players: usize,
        rules: &str,
        rules_digest: &str,
        objective: &Objective,
    ) -> Solved {
        Solved {
            solution,
            players,
            rules: rules.to_string(),
            rules_digest: rules_digest.to_string(),
            tables: objective.tables().cloned(),
        }
    }

    /// The decision and why, in plain words ([`Solution::explain`]).
    pub fn explain(&self) -> String {
        self.solution.explain(self.players, &self.rules)
    }

    /// What the value measures at this table ([`Solution::heading`]).
    pub fn heading(&self) -> String {
        self.solution.heading(self.players, &self.rules)
    }
}

/// A choice as data: `decision` and the `natural` declared (else `None`).
pub(super) mod choice_data {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Data {
        decision: String,
        natural: Option<NaturalKind>,
    }

    pub fn serialize<S: Serializer>(c: &Choice, s: S) -> std::result::Result<S::Ok, S::Error> {
        let natural = match c {
            Choice::Declare(k) => Some(*k),
            _ => None,
        };
        Data {
            decision: c.name().into(),
            natural,
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Choice, D::Error> {
        let data = Data::deserialize(d)?;
        // a natural is declared; without one the name tells a surrender from a play
        let choice = match data.natural {
            Some(k) => Choice::Declare(k),
            None if data.decision == Choice::Surrender.name() => Choice::Surrender,
            None => Choice::Play,
        };
        if choice.name() == data.decision {
            Ok(choice)
        } else {
            Err(serde::de::Error::custom(format!(
                "decision {:?}",
                data.decision
            )))
        }
    }
}

/// A solution's codes as data: the `setting` text (for readers; written, never read back)
/// and the `codes`.
pub(super) mod codes_data {
    use super::*;

    #[derive(Serialize)]
    struct Written<'a> {
        setting: String,
        codes: &'a [u8],
    }

    #[derive(Deserialize)]
    struct Read {
        #[serde(with = "crate::data::list")]
        codes: [u8; 13],
    }

    pub fn serialize<S: Serializer>(
        codes: &[u8; 13],
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        Written {
            setting: super::super::setting_of(codes).to_string(),
            codes,
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<[u8; 13], D::Error> {
        Ok(Read::deserialize(d)?.codes)
    }
}

/// `&'static str` under another name: serde takes a plain `&str` field for text borrowed from
/// the input, which a name read back into the solver's own constant is not.
pub type StaticName = &'static str;

/// An objective's name read back as the one `&'static str` the solver gives.
pub(super) fn objective_name<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<&'static str, D::Error> {
    let name = String::deserialize(d)?;
    Objective::NAMES
        .into_iter()
        .find(|n| *n == name)
        .ok_or_else(|| serde::de::Error::custom(format!("objective {name:?}")))
}

/// 13 distinct valid codes and three valid ranks.
fn check_play(what: &str, codes: &[u8; 13], ranks: &[u32; 3]) -> Result<()> {
    validate_rows(codes, 13, "codes").map_err(|e| damaged(what, e.to_string()))?;
    match ranks
        .iter()
        .find(|&&r| HandRank::checked_from_raw(r).is_none())
    {
        Some(r) => Err(damaged(what, format!("rank {r}"))),
        None => Ok(()),
    }
}

impl Record for Alternative {
    const WHAT: &'static str = "Alternative";
    fn validate(&self) -> Result<()> {
        check_play(Self::WHAT, &self.codes, &self.ranks)
    }
}

impl Record for Solved {
    const WHAT: &'static str = "Solution";
    /// Valid cards and ranks, at least one alternative, 2 to 4 seats, and a standard error
    /// exactly when the objective is Monte Carlo.
    fn validate(&self) -> Result<()> {
        let s = &self.solution;
        check_play(Self::WHAT, &s.codes, &s.ranks)?;
        if s.alternatives.is_empty() {
            return Err(damaged(Self::WHAT, "no alternatives"));
        }
        for a in &s.alternatives {
            check_play(Self::WHAT, &a.codes, &a.ranks)?;
        }
        super::check_players(self.players).map_err(|e| damaged(Self::WHAT, e.to_string()))?;
        if !self.rules_digest.is_empty() && !crate::digest::is_hex_digest(&self.rules_digest) {
            return Err(damaged(Self::WHAT, "rules_digest is not 64 hex digits"));
        }
        if let Some(t) = &self.tables {
            t.validate()
                .map_err(|e| damaged(Self::WHAT, format!("tables: {e}")))?;
        }
        if s.stderr.is_some() != (s.objective == Objective::NAMES[3]) {
            return Err(damaged(Self::WHAT, "stderr"));
        }
        Ok(())
    }
}
