//! The named rule sets of RULES.md §4–5 as compiled [`Rules`].
//!
//! The Python `RuleSet` presets are the user-facing definitions (data, documented with their
//! sources); these constructors exist so that Rust tests and benchmarks can use the same rules
//! and so that both sides can be checked against each other.

use crate::eval::Wheel;
use crate::rules::{
    standard_bonus_table, BonusMode, Declaration, FoulPolicy, NaturalKind, NaturalRule, Rules,
    Scoop, Sweep, Timeout,
};

/// The names accepted by [`Rules::preset`].
pub const PRESET_NAMES: [&str; 8] = [
    "maceplay",
    "pokerclub_south",
    "pokerclub_north",
    "pokerfever_western",
    "pokerfever_eastern",
    "two_four",
    "one_six",
    "shisanshui",
];

/// Suit order ♠ > ♥ > ♣ > ♦ (as suit indices c d h s = 0..3), Shisanshui's optional tie-break.
pub const SHISANSHUI_SUIT_ORDER: [u8; 4] = [3, 2, 0, 1];

fn naturals(list: &[(NaturalKind, u32)]) -> Vec<NaturalRule> {
    list.iter()
        .map(|&(kind, value)| NaturalRule { kind, value })
        .collect()
}

const SWEEP_AT_FOUR: Sweep = Sweep {
    multiplier: 2,
    min_players: 4,
    fouled_counts: true,
};

impl Rules {
    /// A preset by name (see [`PRESET_NAMES`]).
    pub fn preset(name: &str) -> Option<Rules> {
        Some(match name {
            "maceplay" => Rules::maceplay(),
            "pokerclub_south" => Rules::pokerclub_south(),
            "pokerclub_north" => Rules::pokerclub_north(),
            "pokerfever_western" => Rules::pokerfever_western(),
            "pokerfever_eastern" => Rules::pokerfever_eastern(),
            "two_four" => Rules::two_four(),
            "one_six" => Rules::one_six(),
            "shisanshui" => Rules::shisanshui(),
            _ => return None,
        })
    }

    /// MacePlay "Thirteen" (seed 001): bonus table, scoop ×2, sweep ×2 more at four players,
    /// fouls refused, five naturals declared automatically.
    pub fn maceplay() -> Rules {
        use NaturalKind::*;
        Rules {
            wheel: Wheel::Low,
            bonus: standard_bonus_table(),
            bonus_mode: BonusMode::Replace,
            scoop: Scoop::Multiply(2),
            sweep: SWEEP_AT_FOUR,
            foul: FoulPolicy::Reject,
            naturals: naturals(&[
                (SameSuitDragon, 26),
                (Dragon, 13),
                (SixPairs, 3),
                (ThreeFlushes, 3),
                (ThreeStraights, 3),
            ]),
            declaration: Declaration::Auto,
            timeout: Timeout::Auto,
            ..Rules::default()
        }
    }

    /// PokerClub Mau Binh, South (seed 000; tables reconstructed per RULES.md §6): wheel second,
    /// fouls pay as scooped, naturals must be declared and shown in the rows.
    pub fn pokerclub_south() -> Rules {
        use NaturalKind::*;
        Rules {
            wheel: Wheel::Second,
            bonus: standard_bonus_table(),
            bonus_mode: BonusMode::Replace,
            scoop: Scoop::Multiply(2),
            sweep: SWEEP_AT_FOUR,
            foul: FoulPolicy::AsScooped,
            naturals: naturals(&[
                (SameSuitDragon, 24),
                (Dragon, 12),
                (FivePairsTrips, 6),
                (SixPairs, 3),
                (ThreeFlushes, 3),
                (ThreeStraights, 3),
            ]),
            declaration: Declaration::MustDeclare,
            natural_must_show: true,
            timeout: Timeout::Foul,
            ..Rules::default()
        }
    }

    /// PokerClub Mau Binh, North: the South rules with the wheel as the lowest straight.
    pub fn pokerclub_north() -> Rules {
        Rules {
            wheel: Wheel::Low,
            ..Rules::pokerclub_south()
        }
    }

    fn pokerfever_naturals() -> Vec<NaturalRule> {
        use NaturalKind::*;
        naturals(&[
            (Dragon, 13),
            (ThirteenOneColour, 13),
            (TwelveOneColour, 3),
            (SixPairs, 3),
            (ThreeFlushes, 3),
            (ThreeStraights, 3),
        ])
    }

    /// PokerFever Western (seed 002): one unit a row plus a majority point, fouls pay 3,
    /// surrender 3, clean sweeps must be declared, bankroll cap in dealer order.
    pub fn pokerfever_western() -> Rules {
        Rules {
            wheel: Wheel::Low,
            majority_point: 1,
            foul: FoulPolicy::FlatPlusBonus(3),
            naturals: Rules::pokerfever_naturals(),
            declaration: Declaration::MustDeclare,
            surrender: Some(3),
            bankroll_cap: true,
            ..Rules::default()
        }
    }

    /// PokerFever Eastern (seed 002): the bonus table with double bonus, fouls pay 3 plus the
    /// opponent's bonuses, surrender 3, bankroll cap in dealer order.
    pub fn pokerfever_eastern() -> Rules {
        Rules {
            bonus: standard_bonus_table(),
            double_bonus: true,
            majority_point: 0,
            ..Rules::pokerfever_western()
        }
    }

    /// 2-4 scoring (seed 003): one unit a row, bonuses (none by default) added to each side,
    /// the higher total gets the overall point and collects the difference.
    pub fn two_four() -> Rules {
        Rules {
            bonus: [[0; 9]; 3],
            bonus_mode: BonusMode::Add,
            overall_point: 1,
            ..Rules::default()
        }
    }

    /// 1-6: one unit a row, +3 for a scoop.
    pub fn one_six() -> Rules {
        Rules {
            scoop: Scoop::Add(3),
            ..Rules::default()
        }
    }

    /// Shisanshui (十三水): wheel second, bonus table, 打枪 ×2, 全垒打 ×2 more at four
    /// players, 倒水 as scooped, the §5 Shisanshui naturals found automatically. The suit order
    /// is off; set `suit_order: Some(SHISANSHUI_SUIT_ORDER)` to turn it on.
    pub fn shisanshui() -> Rules {
        use NaturalKind::*;
        Rules {
            wheel: Wheel::Second,
            bonus: standard_bonus_table(),
            bonus_mode: BonusMode::Replace,
            scoop: Scoop::Multiply(2),
            sweep: SWEEP_AT_FOUR,
            foul: FoulPolicy::AsScooped,
            naturals: naturals(&[
                (SameSuitDragon, 108),
                (Dragon, 36),
                (TwelveRoyals, 24),
                (ThreeStraightFlushes, 22),
                (ThreeQuads, 20),
                (AllBig, 15),
                (AllSmall, 12),
                (ThirteenOneColour, 10),
                (FourTrips, 6),
                (FivePairsTrips, 5),
                (SixPairs, 4),
                (ThreeFlushes, 3),
                (ThreeStraights, 3),
            ]),
            declaration: Declaration::Auto,
            timeout: Timeout::Auto,
            ..Rules::default()
        }
    }
}
