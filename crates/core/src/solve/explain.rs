//! `Solution::explain`: the decision and why, in plain words (as `Settlement::explain` is for a
//! settlement).

use super::{setting_of, Alternative, Choice, Solution};
use crate::card::display_order;
use crate::eval::HandRank;
use crate::rules::Row;

/// `+1.234 points ± 0.050`: a value, its unit and, when there is one, its standard error.
fn fmt_value(v: f64, unit: &str, se: Option<f64>) -> String {
    let mut s = format!("{v:+.3}{unit}");
    if let Some(se) = se.filter(|&se| se != 0.0) {
        s.push_str(&format!(" ± {se:.3}"));
    }
    s
}

impl Alternative {
    /// "pair of kings, ... / ... / ...": the three rows' ranks in words.
    pub fn describe(&self) -> String {
        self.ranks
            .map(|r| HandRank::from_raw(r).describe())
            .join(" / ")
    }
}

impl Solution {
    fn unit(&self) -> &'static str {
        if self.objective == "RowValues" {
            ""
        } else {
            " points"
        }
    }

    /// "Rule set maceplay, 4 players; objective TableEV: ...": what the value measures, for the
    /// table it was solved for (`players`, `rules`); the first line of `explain`.
    pub fn heading(&self, players: usize, rules: &str) -> String {
        let opp = players.saturating_sub(1);
        let s = if opp > 1 { "s" } else { "" };
        let what = match self.objective {
            "TableEV" => {
                format!("expected score against {opp} opponent{s} (trained outcome tables)")
            }
            "MonteCarlo" => format!("mean score over sampled deals to {opp} opponent{s}"),
            "BestResponse" => "exact score against the given opponents".into(),
            _ => "sum of your row values".into(),
        };
        format!(
            "Rule set {rules}, {players} players; objective {}: {what}.",
            self.objective
        )
    }

    /// "Play, worth +1.234 points:", "Declare ...", "Surrender: ...": the decision and its
    /// value; the second line of `explain`.
    pub fn verdict(&self) -> String {
        let unit = self.unit();
        let fmt = |v: f64, se: Option<f64>| fmt_value(v, unit, se);
        match (self.choice, self.natural, self.surrender_value) {
            (Choice::Declare(_), Some((kind, units, v)), _) => format!(
                "Declare {}: {units} from each opponent, {} (the best play is worth {}).",
                kind.label(),
                fmt(v, None),
                fmt(self.play_value, None)
            ),
            (Choice::Surrender, _, Some(v)) => format!(
                "Surrender: {} loses less than the best play ({}).",
                fmt(v, None),
                fmt(self.play_value, None)
            ),
            _ => format!(
                "Play, worth {}:",
                fmt(
                    self.value,
                    self.stderr.filter(|_| self.choice == Choice::Play)
                )
            ),
        }
    }

    /// The decision and why, in plain words: `heading`, then `details`.
    pub fn explain(&self, players: usize, rules: &str) -> String {
        format!("{}\n{}", self.heading(players, rules), self.details())
    }

    /// `explain` without its heading: `verdict`, the rows laid out with their ranks, a natural
    /// held but not declared, the next best plays.
    pub fn details(&self) -> String {
        let unit = self.unit();
        let fmt = |v: f64, se: Option<f64>| fmt_value(v, unit, se);
        let mut lines = vec![self.verdict()];
        let setting = setting_of(&self.codes);
        lines.extend(Row::ALL.into_iter().zip(self.ranks).map(|(row, raw)| {
            let shown: Vec<String> = display_order(setting.row(row))
                .iter()
                .map(|c| c.pretty())
                .collect();
            format!(
                "  {:<7}{:<16} {}",
                row.name(),
                shown.join(" "),
                HandRank::from_raw(raw).describe()
            )
        }));
        if let (Choice::Play, Some((kind, _, v))) = (self.choice, self.natural) {
            lines.push(format!(
                "Holds {} ({}) but playing is worth more.",
                kind.label(),
                fmt(v, None)
            ));
        }
        if self.alternatives.len() > 1 {
            lines.push(format!(
                "Next best of {} candidate settings:",
                self.candidates
            ));
            for (i, alt) in self.alternatives.iter().enumerate().skip(1) {
                lines.push(format!(
                    "  {}. {}  {}  ({})",
                    i + 1,
                    fmt(alt.value, Some(alt.stderr)),
                    setting_of(&alt.codes).pretty(),
                    alt.describe()
                ));
            }
        }
        lines.join("\n")
    }
}
