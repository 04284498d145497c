//! Compiled rule sets: the immutable mirror of the Python `RuleSet` (RULES.md §3–5).
//!
//! Nothing about any particular house's rules is hard-coded in the engine: every value a preset
//! sets lives in a field here. The Python layer validates user input and builds a `Rules` once;
//! scoring and solving only read it.

use crate::error::{Error, Result};
use crate::eval::{Category, Wheel};

/// The three rows of a setting.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Row {
    Front = 0,
    Middle = 1,
    Back = 2,
}

impl Row {
    pub const ALL: [Row; 3] = [Row::Front, Row::Middle, Row::Back];
    pub fn name(self) -> &'static str {
        match self {
            Row::Front => "front",
            Row::Middle => "middle",
            Row::Back => "back",
        }
    }
    /// Cards in this row.
    pub const fn cards(self) -> usize {
        match self {
            Row::Front => 3,
            _ => 5,
        }
    }
}

/// How a row bonus combines with the row point.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BonusMode {
    /// The bonus is the row's whole value (front trips = 3).
    Replace,
    /// The row pays 1 plus the bonus.
    Add,
}

/// What winning all three rows against one opponent pays.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Scoop {
    None,
    /// The pair total (bonuses included) is multiplied.
    Multiply(u32),
    /// A flat number of units is added.
    Add(u32),
}

/// Scooping every opponent at the table.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Sweep {
    /// Further multiplier on each matchup of the sweeping player (1 = off).
    pub multiplier: u32,
    /// Smallest table size at which a sweep counts (4 = only at four players).
    pub min_players: usize,
    /// Whether a fouled opponent counts as scooped for the sweep.
    pub fouled_counts: bool,
}

/// What a fouled hand pays to each non-fouled opponent.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FoulPolicy {
    /// The opponent wins every row at its own row values, then the scoop applies.
    AsScooped,
    /// A flat number of units plus the opponent's row bonuses (PokerFever).
    FlatPlusBonus(u32),
    /// A fouled setting is refused: settling it is an error (MacePlay).
    Reject,
}

/// When a natural is declared.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Declaration {
    /// The engine declares the best natural a hand holds (MacePlay).
    Auto,
    /// The player must declare; an undeclared natural plays as a normal hand.
    MustDeclare,
}

/// An unset hand when the clock runs out.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Timeout {
    Foul,
    /// The best legal setting (and any natural) is chosen for the player.
    Auto,
}

/// Every natural (instant-win 13-card hand) of every family in RULES.md §5.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum NaturalKind {
    SameSuitDragon,
    Dragon,
    TwelveRoyals,
    ThreeStraightFlushes,
    ThreeQuads,
    AllBig,
    AllSmall,
    ThirteenOneColour,
    TwelveOneColour,
    FourTrips,
    FivePairsTrips,
    SixPairs,
    ThreeFlushes,
    ThreeStraights,
}

impl NaturalKind {
    pub const ALL: [NaturalKind; 14] = [
        NaturalKind::SameSuitDragon,
        NaturalKind::Dragon,
        NaturalKind::TwelveRoyals,
        NaturalKind::ThreeStraightFlushes,
        NaturalKind::ThreeQuads,
        NaturalKind::AllBig,
        NaturalKind::AllSmall,
        NaturalKind::ThirteenOneColour,
        NaturalKind::TwelveOneColour,
        NaturalKind::FourTrips,
        NaturalKind::FivePairsTrips,
        NaturalKind::SixPairs,
        NaturalKind::ThreeFlushes,
        NaturalKind::ThreeStraights,
    ];
    /// The snake_case name used in rule-set files and the Python API.
    pub fn key(self) -> &'static str {
        match self {
            NaturalKind::SameSuitDragon => "same_suit_dragon",
            NaturalKind::Dragon => "dragon",
            NaturalKind::TwelveRoyals => "twelve_royals",
            NaturalKind::ThreeStraightFlushes => "three_straight_flushes",
            NaturalKind::ThreeQuads => "three_quads",
            NaturalKind::AllBig => "all_big",
            NaturalKind::AllSmall => "all_small",
            NaturalKind::ThirteenOneColour => "thirteen_one_colour",
            NaturalKind::TwelveOneColour => "twelve_one_colour",
            NaturalKind::FourTrips => "four_trips",
            NaturalKind::FivePairsTrips => "five_pairs_trips",
            NaturalKind::SixPairs => "six_pairs",
            NaturalKind::ThreeFlushes => "three_flushes",
            NaturalKind::ThreeStraights => "three_straights",
        }
    }
    pub fn from_key(key: &str) -> Result<NaturalKind> {
        NaturalKind::ALL
            .iter()
            .copied()
            .find(|k| k.key() == key)
            .ok_or_else(|| Error::InvalidRules {
                field: "naturals".into(),
                reason: format!("unknown natural {key:?}"),
            })
    }
}

/// One natural a rule set recognises and what each opponent pays for it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct NaturalRule {
    pub kind: NaturalKind,
    pub value: u32,
}

/// A compiled rule set. Build with struct syntax from [`Rules::default`] (plain 1-6 style rows,
/// no bonuses) or from the Python presets; call [`Rules::validate`] before use.
#[derive(Clone, PartialEq, Debug)]
pub struct Rules {
    pub wheel: Wheel,
    /// `bonus[row][category]`: with `Replace`, the row's whole value when it wins with that
    /// category (1 = no bonus); with `Add`, the extra units on top of the row point (0 = none).
    pub bonus: [[u32; 9]; 3],
    pub bonus_mode: BonusMode,
    /// A bonus row that beats a row of the same category pays its bonus twice (PokerFever).
    pub double_bonus: bool,
    /// Units to whoever wins more of the three rows (Western); 0 = off.
    pub majority_point: u32,
    /// Units to whoever has the higher pair total after bonuses (2-4 scoring); 0 = off.
    pub overall_point: u32,
    pub scoop: Scoop,
    pub sweep: Sweep,
    pub foul: FoulPolicy,
    /// Recognised naturals, highest first; a hand declares the most valuable it holds.
    pub naturals: Vec<NaturalRule>,
    pub declaration: Declaration,
    /// The rows must display a declared natural (three flushes laid out as three flushes).
    pub natural_must_show: bool,
    /// Units a surrendering player pays each opponent; `None` = surrender not allowed.
    pub surrender: Option<u32>,
    /// Suit order for breaking ties between rows of identical ranks, as suit indices
    /// (0..4 = c d h s) from strongest to weakest; `None` = ties stand.
    pub suit_order: Option<[u8; 4]>,
    /// Nobody wins or loses more than their bankroll; payments in dealer order.
    pub bankroll_cap: bool,
    pub timeout: Timeout,
}

/// The Asian row-bonus table of RULES.md §3 (row's whole value, `Replace`).
pub fn standard_bonus_table() -> [[u32; 9]; 3] {
    let mut t = [[1u32; 9]; 3];
    t[Row::Front as usize][Category::Trips as usize] = 3;
    t[Row::Middle as usize][Category::FullHouse as usize] = 2;
    t[Row::Middle as usize][Category::Quads as usize] = 8;
    t[Row::Middle as usize][Category::StraightFlush as usize] = 10;
    t[Row::Back as usize][Category::Quads as usize] = 4;
    t[Row::Back as usize][Category::StraightFlush as usize] = 5;
    t
}

impl Default for Rules {
    /// One unit a row, no bonuses, no scoop, fouls lose as scooped, no naturals.
    fn default() -> Rules {
        Rules {
            wheel: Wheel::Low,
            bonus: [[1; 9]; 3],
            bonus_mode: BonusMode::Replace,
            double_bonus: false,
            majority_point: 0,
            overall_point: 0,
            scoop: Scoop::None,
            sweep: Sweep {
                multiplier: 1,
                min_players: 4,
                fouled_counts: true,
            },
            foul: FoulPolicy::AsScooped,
            naturals: Vec::new(),
            declaration: Declaration::MustDeclare,
            natural_must_show: false,
            surrender: None,
            suit_order: None,
            bankroll_cap: false,
            timeout: Timeout::Foul,
        }
    }
}

impl Rules {
    /// Units a row pays when won with `category` (before scoop, sweep and doubling).
    pub fn row_value(&self, row: Row, category: Category) -> u32 {
        let b = self.bonus[row as usize][category as usize];
        match self.bonus_mode {
            BonusMode::Replace => b,
            BonusMode::Add => 1 + b,
        }
    }

    /// Whether winning `row` with `category` pays more than the plain row point.
    pub fn is_bonus(&self, row: Row, category: Category) -> bool {
        self.row_value(row, category) > 1
    }

    /// The value of a recognised natural, if this rule set has it.
    pub fn natural_value(&self, kind: NaturalKind) -> Option<u32> {
        self.naturals
            .iter()
            .find(|n| n.kind == kind)
            .map(|n| n.value)
    }

    /// Rejects values the engine cannot use, naming the field.
    pub fn validate(&self) -> Result<()> {
        let bad = |field: &str, reason: String| {
            Err(Error::InvalidRules {
                field: field.into(),
                reason,
            })
        };
        if self.bonus_mode == BonusMode::Replace {
            for row in Row::ALL {
                for cat in Category::ALL {
                    if self.bonus[row as usize][cat as usize] == 0 {
                        return bad(
                            "bonus",
                            format!(
                                "{} {}: a row value of 0 under 'replace'",
                                row.name(),
                                cat.name()
                            ),
                        );
                    }
                }
            }
        }
        match self.scoop {
            Scoop::Multiply(0) => return bad("scoop", "multiplier must be at least 1".into()),
            Scoop::Add(_) | Scoop::None | Scoop::Multiply(_) => {}
        }
        if self.sweep.multiplier == 0 {
            return bad("sweep.multiplier", "must be at least 1".into());
        }
        if !(2..=4).contains(&self.sweep.min_players) {
            return bad(
                "sweep.min_players",
                format!("must be 2..=4, got {}", self.sweep.min_players),
            );
        }
        for (i, n) in self.naturals.iter().enumerate() {
            if self.naturals[..i].iter().any(|m| m.kind == n.kind) {
                return bad("naturals", format!("{} listed twice", n.kind.key()));
            }
        }
        if let Some(order) = self.suit_order {
            let mut seen = [false; 4];
            for s in order {
                if s > 3 || seen[s as usize] {
                    return bad(
                        "suit_order",
                        format!("must list each suit once, got {order:?}"),
                    );
                }
                seen[s as usize] = true;
            }
        }
        Ok(())
    }
}
