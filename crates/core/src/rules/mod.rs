//! Rule sets: the one definition of every rule field ([rules: Rule fields](https://chinese-poker.github.io/chinese-poker/rules/#rule-fields)).
//!
//! Nothing about any particular house's rules is hard-coded in the engine: every value a preset
//! sets lives in a field here. This module owns the fields, their defaults ([`Rules::default`]),
//! their bounds and error messages ([`Rules::validate`]); [`schema`] owns their names and the
//! plain-data form (JSON) that the Python `RuleSet` and rule-set files use. A `Rules` built by
//! [`Rules::from_json`], [`Rules::from_data`] or a preset constructor is validated once; scoring
//! and solving take it as valid and never check it again ([architecture](https://chinese-poker.github.io/chinese-poker/architecture/), "Validated
//! once").

pub mod schema;

use crate::error::{Error, Result};
use crate::eval::{Category, Wheel};

/// Largest unit value of any field (row value, natural, surrender, flat foul, point).
pub const MAX_UNITS: u32 = 1_000_000;
/// Largest scoop or sweep multiplier.
pub const MAX_MULTIPLIER: u32 = 1_000;
/// Largest number of units one matchup may reach. The bounds above keep every rule set far
/// below it (about 10^15), so that totals and bankroll arithmetic can never overflow `i64`.
pub const MAX_MATCHUP_UNITS: u128 = 1 << 60;

/// The three rows of a setting.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Row {
    /// The 3-card row.
    Front = 0,
    /// The middle 5-card row.
    Middle = 1,
    /// The back 5-card row, the strongest.
    Back = 2,
}

impl Row {
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
    /// A scoop pays nothing extra.
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
    /// The unset hand fouls.
    Foul,
    /// The best legal setting (and any natural) is chosen for the player.
    Auto,
}

/// Every natural (instant-win 13-card hand) of every family ([rules: Naturals](https://chinese-poker.github.io/chinese-poker/rules/#naturals)).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum NaturalKind {
    /// A to K of one suit.
    SameSuitDragon,
    /// A to K, mixed suits.
    Dragon,
    /// Twelve royal cards (J, Q, K) and one other.
    TwelveRoyals,
    /// Three straight flushes, one per row.
    ThreeStraightFlushes,
    /// Three fours of a kind.
    ThreeQuads,
    /// Every card 8 or higher.
    AllBig,
    /// Every card 8 or lower.
    AllSmall,
    /// Thirteen cards of one colour.
    ThirteenOneColour,
    /// Twelve cards of one colour.
    TwelveOneColour,
    /// Four threes of a kind.
    FourTrips,
    /// Five pairs and three of a kind.
    FivePairsTrips,
    /// Six pairs.
    SixPairs,
    /// A flush in every row.
    ThreeFlushes,
    /// A straight in every row.
    ThreeStraights,
}

impl NaturalKind {
    /// The natural's position in [`NaturalKind::ALL`] (and in the Python `NATURAL_NAMES`): how
    /// batch and simulation results name a natural in a `uint8` column.
    pub fn index(self) -> u8 {
        self as u8
    }
}

/// The words for a natural's name the core does not know, the one text of every surface (the
/// library's `Declare`, a rule set's `naturals`, the server's decisions): `shown` is the name
/// as the caller quotes it (`'nope'`), or `None` where the message's field already names it (a
/// rule set's `naturals.nope`).
///
/// `unknown natural 'nope'; expected one of same_suit_dragon, dragon, ...`
pub fn unknown_natural_message(shown: Option<&str>) -> String {
    let shown = shown.map(|s| format!(" {s}")).unwrap_or_default();
    format!(
        "unknown natural{shown}; expected one of {}",
        NaturalKind::ALL.map(NaturalKind::name).join(", ")
    )
}

/// One natural a rule set recognises and what each opponent pays for it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct NaturalRule {
    /// Which natural.
    pub kind: NaturalKind,
    /// What each opponent pays for it.
    pub value: u32,
}

impl NaturalRule {
    /// The natural's place in the ranking ([rules: Naturals](https://chinese-poker.github.io/chinese-poker/rules/#naturals)): the more valuable
    /// first, and among equal values the one earlier in [`NaturalKind::ALL`]. The ranking is
    /// the core's, never the order a rule set's data happens to list its naturals in, so that a
    /// rule set means the same whatever the order of its JSON or TOML keys.
    pub fn ranking(&self) -> (std::cmp::Reverse<u32>, NaturalKind) {
        (std::cmp::Reverse(self.value), self.kind)
    }
}

/// Puts naturals in their ranking order ([`NaturalRule::ranking`]).
pub fn rank_naturals(naturals: &mut [NaturalRule]) {
    naturals.sort_by_key(NaturalRule::ranking);
}

/// A compiled rule set. Build one from data ([`Rules::from_json`], [`Rules::from_data`]), from a
/// preset ([`Rules::preset`]) or with struct syntax from [`Rules::default`] (one unit a row, no
/// bonuses); a rule set built with struct syntax must pass [`Rules::validate`] before it is
/// given to `settle` or `solve`, which do not check it again.
///
/// Two rule sets are equal when they score and solve alike: `==` compares the naturals as a
/// set (their ranking is the core's, [`NaturalRule::ranking`]), so it agrees with
/// [`Rules::canonical_json`] and [`Rules::digest`].
#[derive(Clone, Debug)]
pub struct Rules {
    /// Where the wheel A-2-3-4-5 ranks among straights.
    pub wheel: Wheel,
    /// `bonus[row][category]`: with `Replace`, the row's whole value when it wins with that
    /// category (1 = no bonus); with `Add`, the extra units on top of the row point (0 = none).
    pub bonus: [[u32; 9]; 3],
    /// How `bonus` values are paid: the row's whole value, or on top of the row point.
    pub bonus_mode: BonusMode,
    /// A bonus row that beats a row of the same category pays its bonus twice (PokerFever).
    pub double_bonus: bool,
    /// Units to whoever wins more of the three rows (Western); 0 = off.
    pub majority_point: u32,
    /// Units to whoever has the higher pair total after bonuses (2-4 scoring); 0 = off.
    pub overall_point: u32,
    /// What winning all three rows against one opponent pays.
    pub scoop: Scoop,
    /// What winning all three rows against every opponent pays.
    pub sweep: Sweep,
    /// How a fouled setting is settled.
    pub foul: FoulPolicy,
    /// Recognised naturals. Their order carries no meaning: a hand declares the one it holds
    /// that ranks first ([`NaturalRule::ranking`]: the most valuable, ties broken by the core's
    /// order of naturals). Rule sets read from data and presets keep them in ranking order.
    pub naturals: Vec<NaturalRule>,
    /// How naturals are declared.
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
    /// What happens to a hand not set when the clock runs out.
    pub timeout: Timeout,
}

/// The Asian row-bonus table ([rules: Row bonuses](https://chinese-poker.github.io/chinese-poker/rules/)): the row's whole value, `Replace`.
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

impl Rules {
    /// The naturals in ranking order ([`NaturalRule::ranking`]).
    pub fn ranked_naturals(&self) -> Vec<NaturalRule> {
        let mut ranked = self.naturals.clone();
        rank_naturals(&mut ranked);
        ranked
    }
}

impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        // Destructured so that a new field cannot be left out of the comparison.
        let Rules {
            wheel,
            bonus,
            bonus_mode,
            double_bonus,
            majority_point,
            overall_point,
            scoop,
            sweep,
            foul,
            naturals: _,
            declaration,
            natural_must_show,
            surrender,
            suit_order,
            bankroll_cap,
            timeout,
        } = self;
        *wheel == other.wheel
            && *bonus == other.bonus
            && *bonus_mode == other.bonus_mode
            && *double_bonus == other.double_bonus
            && *majority_point == other.majority_point
            && *overall_point == other.overall_point
            && *scoop == other.scoop
            && *sweep == other.sweep
            && *foul == other.foul
            && self.ranked_naturals() == other.ranked_naturals()
            && *declaration == other.declaration
            && *natural_must_show == other.natural_must_show
            && *surrender == other.surrender
            && *suit_order == other.suit_order
            && *bankroll_cap == other.bankroll_cap
            && *timeout == other.timeout
    }
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

    /// The value of a recognised natural, if this rule set has it.
    pub fn natural_value(&self, kind: NaturalKind) -> Option<u32> {
        self.naturals
            .iter()
            .find(|n| n.kind == kind)
            .map(|n| n.value)
    }

    /// Units for winning `row` with category `win` over category `lose`, and whether the row
    /// pays a bonus and whether that bonus was doubled (a bonus row beating a row of the same
    /// category under `double_bonus`). The one row-value function of scoring and of the table
    /// objective. In `u64` so that no table value can overflow the doubling.
    #[inline]
    pub fn win_value(&self, row: usize, win: usize, lose: usize) -> (u64, bool, bool) {
        let b = self.bonus[row][win] as u64;
        let (value, bonus) = match self.bonus_mode {
            BonusMode::Replace => (b, b > 1),
            BonusMode::Add => (1 + b, b > 0),
        };
        if self.double_bonus && bonus && win == lose {
            let doubled = match self.bonus_mode {
                BonusMode::Replace => 2 * b,
                BonusMode::Add => 1 + 2 * b,
            };
            (doubled, true, true)
        } else {
            (value, bonus, false)
        }
    }

    /// The most units one matchup can reach under this rule set (rows with doubled bonuses,
    /// majority and overall points, the foul penalty, scoop and sweep; or a natural; or a
    /// surrender), computed without overflow.
    pub fn max_matchup_units(&self) -> u128 {
        let max_bonus = self.bonus.iter().flatten().copied().max().unwrap_or(0) as u128;
        let row = match self.bonus_mode {
            BonusMode::Replace => 2 * max_bonus,
            BonusMode::Add => 1 + 2 * max_bonus,
        };
        let rows = 3 * row + self.majority_point as u128 + self.overall_point as u128;
        let penalty = match self.foul {
            FoulPolicy::FlatPlusBonus(n) => n as u128 + 3 * row,
            _ => 0,
        };
        let scooped = match self.scoop {
            Scoop::Multiply(k) => rows.max(penalty) * k as u128,
            Scoop::Add(n) => rows.max(penalty) + n as u128,
            Scoop::None => rows.max(penalty),
        };
        let swept = scooped * self.sweep.multiplier as u128;
        let natural = self.naturals.iter().map(|n| n.value).max().unwrap_or(0) as u128;
        let surrender = self.surrender.unwrap_or(0) as u128;
        swept.max(natural).max(surrender)
    }

    /// Rejects values the engine cannot use, naming the field by its data path
    /// (`"bonus.middle.full_house"`). The one definition of every bound: the data parser and
    /// the presets call it; so must anyone who builds a `Rules` with struct syntax.
    pub fn validate(&self) -> Result<()> {
        fn bad(field: impl Into<String>, reason: String) -> Result<()> {
            Err(Error::InvalidRules {
                field: field.into(),
                reason,
            })
        }
        fn within(field: &str, value: u32, low: u32, high: u32) -> Result<()> {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                bad(
                    field,
                    format!("must be between {low} and {high}, got {value}"),
                )
            }
        }
        let low = match self.bonus_mode {
            // a row value of 0 would make winning a row worth nothing
            BonusMode::Replace => 1,
            BonusMode::Add => 0,
        };
        for row in Row::ALL {
            for cat in Category::ALL {
                let v = self.bonus[row as usize][cat as usize];
                let path = format!("bonus.{}.{}", row.name(), cat.name());
                if row == Row::Front && !Category::FRONT.contains(&cat) {
                    // a 3-card front never holds these: only the unlisted value is allowed
                    if v != low {
                        return bad(
                            path,
                            "a 3-card front is only high_card, pair or trips".into(),
                        );
                    }
                    continue;
                }
                within(&path, v, low, MAX_UNITS)?;
            }
        }
        within("majority_point", self.majority_point, 0, MAX_UNITS)?;
        within("overall_point", self.overall_point, 0, MAX_UNITS)?;
        match self.scoop {
            Scoop::None => {}
            Scoop::Multiply(k) => within("scoop.amount", k, 1, MAX_MULTIPLIER)?,
            Scoop::Add(n) => within("scoop.amount", n, 0, MAX_UNITS)?,
        }
        within("sweep.multiplier", self.sweep.multiplier, 1, MAX_MULTIPLIER)?;
        if !(2..=4).contains(&self.sweep.min_players) {
            return bad(
                "sweep.min_players",
                format!("must be between 2 and 4, got {}", self.sweep.min_players),
            );
        }
        if let FoulPolicy::FlatPlusBonus(n) = self.foul {
            within("foul.amount", n, 0, MAX_UNITS)?;
        }
        for (i, n) in self.naturals.iter().enumerate() {
            let path = format!("naturals.values.{}", n.kind.name());
            if self.naturals[..i].iter().any(|m| m.kind == n.kind) {
                return bad(path, "natural listed twice".into());
            }
            within(&path, n.value, 1, MAX_UNITS)?;
        }
        if let Some(s) = self.surrender {
            within("surrender", s, 0, MAX_UNITS)?;
        }
        if let Some(order) = self.suit_order {
            let mut seen = [false; 4];
            for s in order {
                if s > 3 || seen[s as usize] {
                    return bad(
                        "suit_order",
                        "expected the four suits c, d, h, s once each, strongest first".into(),
                    );
                }
                seen[s as usize] = true;
            }
        }
        // Implied by the bounds above; kept so that a future field cannot break it unnoticed.
        let worst = self.max_matchup_units();
        if worst > MAX_MATCHUP_UNITS {
            return bad(
                "bonus, scoop, sweep",
                format!(
                    "values so large that one matchup could reach {worst} units (at most 2^60)"
                ),
            );
        }
        Ok(())
    }
}
