//! `Settlement::explain`: every number of a settlement in a table a person can check.

use super::*;

fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

impl Settlement {
    /// A plain-text account of every number: each player's hand, each matchup row by row with
    /// the rule applied, the payments in order, and the totals.
    pub fn explain(&self) -> String {
        let mut out = String::new();
        let n = self.players.len();
        let _ = writeln!(out, "{n} players, dealer {}", player_label(self.dealer));
        for (i, p) in self.players.iter().enumerate() {
            let mut line = format!("{}: {}", player_label(i), p.status.name());
            if let Some(s) = &p.setting {
                let _ = write!(line, " [{}]", s.pretty());
            }
            if let Some((kind, value)) = p.natural {
                let how = if p.auto_declared {
                    ", found automatically"
                } else {
                    ""
                };
                let _ = write!(line, " {} worth {value}{how}", kind.name());
            }
            if let Some(r) = &p.foul_reason {
                let _ = write!(line, " ({r})");
            }
            if let (Some(ranks), Status::Played | Status::Fouled) = (p.ranks, p.status) {
                let _ = write!(
                    line,
                    "; front {}; middle {}; back {}",
                    ranks[0].describe(),
                    ranks[1].describe(),
                    ranks[2].describe()
                );
            }
            if p.sweep {
                line.push_str("; sweeps the table");
            }
            let _ = writeln!(out, "{line}");
        }
        for m in &self.matchups {
            let (pa, pb) = (player_label(m.a), player_label(m.b));
            let _ = writeln!(out, "{pa} v {pb} ({}), points for {pa}:", m.kind.name());
            match m.kind {
                MatchupKind::Rows | MatchupKind::Foul => {
                    let ranks = |p: usize| self.players[p].ranks;
                    for (i, (row, r)) in Row::ALL.iter().zip(&m.rows).enumerate() {
                        let hands = match (ranks(m.a), ranks(m.b), m.kind) {
                            (Some(x), Some(y), MatchupKind::Rows) => {
                                format!("{} v {}", x[i].describe(), y[i].describe())
                            }
                            (Some(x), _, MatchupKind::Foul) if r.winner == Some(m.a) => {
                                format!("{} v fouled hand", x[i].describe())
                            }
                            (_, Some(y), MatchupKind::Foul) => {
                                format!("fouled hand v {}", y[i].describe())
                            }
                            _ => String::new(),
                        };
                        let what = match r.winner {
                            None => "tie".to_string(),
                            Some(w) => {
                                let mut s = format!("{} wins {}", player_label(w), r.value);
                                if r.doubled {
                                    s.push_str(" (bonus doubled)");
                                } else if r.bonus {
                                    s.push_str(" (bonus)");
                                }
                                if r.suit_break {
                                    s.push_str(" (on suits)");
                                }
                                s
                            }
                        };
                        let _ = writeln!(out, "  {:<6} {hands}: {what}", row.name());
                    }
                    if m.kind == MatchupKind::Foul && m.scoop.is_none() {
                        let _ = writeln!(
                            out,
                            "  foul penalty, flat units plus the bonuses above the row point: {}",
                            signed(m.base)
                        );
                    } else {
                        let mut line = format!(
                            "  rows {} - {} = {}",
                            m.row_totals[0],
                            m.row_totals[1],
                            signed(m.row_totals[0] - m.row_totals[1]),
                        );
                        if m.majority != 0 {
                            let _ = write!(line, ", majority point {}", signed(m.majority));
                        }
                        if m.overall != 0 {
                            let _ = write!(line, ", overall point {}", signed(m.overall));
                        }
                        if m.majority != 0 || m.overall != 0 {
                            let _ = write!(line, " -> {}", signed(m.base));
                        }
                        let _ = writeln!(out, "{line}");
                    }
                }
                MatchupKind::BothFouled => {
                    let _ = writeln!(out, "  both fouled: 0");
                }
                MatchupKind::Natural => {
                    let side = |p: usize| match self.players[p].natural {
                        Some((kind, value)) => {
                            format!("{} {} ({value})", player_label(p), kind.name())
                        }
                        None => format!("{} {}", player_label(p), self.players[p].status.name()),
                    };
                    let _ = writeln!(
                        out,
                        "  natural: {} v {}: {}",
                        side(m.a),
                        side(m.b),
                        signed(m.base)
                    );
                }
                MatchupKind::Surrender => {
                    let who: Vec<String> = [m.a, m.b]
                        .iter()
                        .filter(|&&p| self.players[p].status == Status::Surrendered)
                        .map(|&p| player_label(p))
                        .collect();
                    let _ = writeln!(
                        out,
                        "  {} surrendered: {}",
                        who.join(" and "),
                        signed(m.base)
                    );
                }
            }
            if let Some(s) = m.scoop {
                if m.after_scoop != m.base {
                    let _ = writeln!(
                        out,
                        "  scoop by {}: {} -> {}",
                        player_label(s),
                        signed(m.base),
                        signed(m.after_scoop)
                    );
                } else {
                    let _ = writeln!(out, "  scoop by {} (no scoop bonus)", player_label(s));
                }
            }
            if m.sweep_multiplier != 1 {
                let _ = writeln!(
                    out,
                    "  sweep x{}: {} -> {}",
                    m.sweep_multiplier,
                    signed(m.after_scoop),
                    signed(m.points)
                );
            }
            let _ = writeln!(
                out,
                "  = {} for {pa}, {} for {pb}",
                signed(m.points),
                signed(-m.points)
            );
        }
        // the cap is named only where it took something: a capped rule set whose bankrolls
        // covered every debt paid in full
        let _ = writeln!(
            out,
            "payments in order, starting with {} (right of the dealer){}:",
            player_label((self.dealer + 1) % n),
            if self.payments.iter().any(|p| p.paid != p.owed) {
                ", capped by bankrolls"
            } else {
                ""
            }
        );
        for p in &self.payments {
            let capped = if p.paid != p.owed {
                format!(" (owed {})", p.owed)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "  {} pays {} {}{capped}",
                player_label(p.payer),
                player_label(p.payee),
                p.paid
            );
        }
        let totals: Vec<String> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{} {}", player_label(i), signed(p.total)))
            .collect();
        let _ = writeln!(out, "totals: {}", totals.join(", "));
        if let Some(b) = &self.bankrolls_after {
            let s: Vec<String> = b
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{} {v}", player_label(i)))
                .collect();
            let _ = writeln!(out, "bankrolls after: {}", s.join(", "));
        }
        out
    }
}
