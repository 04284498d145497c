//! The shipped rule sets, defined once ([rules: Presets](https://chinese-poker.github.io/chinese-poker/rules/#presets)): each entry has its name, a
//! description, the public rules it follows with what was reconstructed where they are silent,
//! and its values. The Python `chinese_poker.presets` module is built from [`PRESETS`] through
//! the data form ([`Preset::data`]); nothing else lists them.

use crate::eval::Wheel;
use crate::rules::{
    standard_bonus_table, BonusMode, Declaration, FoulPolicy, NaturalKind, NaturalRule, Rules,
    Scoop, Sweep, Timeout,
};
use serde_json::Value;

/// One shipped rule set.
#[derive(Copy, Clone)]
pub struct Preset {
    /// The preset's name (`maceplay`, ...).
    pub name: &'static str,
    /// What the rule set pays, in a sentence.
    pub description: &'static str,
    /// The public rules it follows, and what was reconstructed where they are silent.
    pub source: &'static str,
    build: fn() -> Rules,
}

impl Preset {
    /// The compiled rules (valid by construction: see the `presets_are_valid` test).
    pub fn rules(&self) -> Rules {
        (self.build)()
    }
    /// The data form with the text fields: what `RuleSet.from_dict` reads.
    pub fn data(&self) -> Value {
        let mut data = self.rules().to_data();
        if let Value::Object(map) = &mut data {
            for (key, text) in [
                ("name", self.name),
                ("description", self.description),
                ("source", self.source),
            ] {
                map.insert(key.into(), text.into());
            }
        }
        data
    }
}

/// Every shipped preset, in the order users see them.
pub const PRESETS: [Preset; 8] = [
    Preset {
        name: "maceplay",
        description: "MacePlay \"Thirteen\": Asian row bonuses, scoop x2, sweep x4 at four \
                      players, fouled settings refused, five naturals declared automatically.",
        source: "MacePlay 'Thirteen' rules page. Every value is stated there; nothing \
                 reconstructed. The page says an unset hand is set automatically when time runs \
                 out (timeout = auto); no timer is implemented yet.",
        build: Rules::maceplay,
    },
    Preset {
        name: "pokerclub_south",
        description: "PokerClub Mau Binh, South: A-2-3-4-5 the second-highest straight, Asian row \
                      bonuses, scoop x2, x4 for scooping all three opponents, fouls pay as \
                      scooped, declared naturals shown in the rows.",
        source: "PokerClub Mau Binh rules page. The page lacks its row-bonus and instant-win \
                 tables; reconstructed with the values most Mau Binh write-ups give (rows \
                 3/2/8/10/4/5 replacing the row point; naturals 24/12/6/3/3/3; thirteen of one \
                 colour not counted). A foul pays as a scoop ('usually pays the scoop bonus as \
                 well') and a fouled opponent counts toward the sweep. Timeout not stated: foul. \
                 For the doubled row table use bonus=DOUBLED_BONUS.",
        build: Rules::pokerclub_south,
    },
    Preset {
        name: "pokerclub_north",
        description: "PokerClub Mau Binh, North: as South, but A-2-3-4-5 is the lowest straight.",
        source: "PokerClub Mau Binh rules page (the North variant ranks A-2-3-4-5 lowest); every \
                 other value as pokerclub_south, reconstructed the same way.",
        build: Rules::pokerclub_north,
    },
    Preset {
        name: "pokerfever_western",
        description: "PokerFever Western: 1 a row plus a majority point, no bonuses or scoop, a \
                      foul pays 3 plus bonuses, declared clean sweeps, surrender 3, bankroll cap.",
        source: "PokerFever Chinese Poker rules page. Clean-sweep values not listed: a dragon \
                 and thirteen of one colour 13, the others 3, a same-suit dragon paid as a \
                 dragon. Timeout not stated: foul.",
        build: Rules::pokerfever_western,
    },
    Preset {
        name: "pokerfever_eastern",
        description: "PokerFever Eastern: Asian row bonuses paid instead of the row point, double \
                      bonus against the same category, no scoop, a foul pays 3 plus bonuses, \
                      declared clean sweeps, surrender 3, bankroll cap.",
        source: "PokerFever Chinese Poker rules page. Its bonus table is missing: the \
                 3/2/8/10/4/5 table is used, which its worked example ('= 7') needs (back \
                 straight flush 5). The bankroll cap and dealer order are stated for the whole \
                 site. Clean sweeps as pokerfever_western. Timeout not stated: foul.",
        build: Rules::pokerfever_eastern,
    },
    Preset {
        name: "two_four",
        description: "2-4 scoring: 1 a row plus an overall point to the higher pair total; win 2 \
                      of 3 rows = 2, all 3 = 4. No bonuses by default (set \
                      bonus=BonusTable(mode='add', ...)).",
        source: "2-4 scoring as commonly played. Bonuses, naturals and the foul are not part of \
                 the system: no bonus table, no naturals, a foul loses every row (as scooped, \
                 so 4).",
        build: Rules::two_four,
    },
    Preset {
        name: "one_six",
        description: "1-6 scoring: 1 a row, 3 more for winning all three (6 in all).",
        source: "1-6 scoring as commonly played in American card rooms. A foul loses every row \
                 and the scoop; no naturals.",
        build: Rules::one_six,
    },
    Preset {
        name: "shisanshui",
        description: "Shisanshui (十三水): A-2-3-4-5 second-highest, Asian row bonuses, scoop x2 \
                      (打枪), x4 for sweeping three opponents (全垒打), fouls as scooped (倒水), \
                      thirteen naturals from 至尊清龙 108 down to 三顺子 3.",
        source: "Shisanshui (十三水) as commonly played. Declaration not fixed by custom: \
                 naturals are declared automatically and need not be shown in the rows; a \
                 timed-out hand is set automatically. Suit order off; the optional ♠ > ♥ > ♣ > ♦ \
                 is suit_order='shcd'.",
        build: Rules::shisanshui,
    },
];

/// The preset names, in [`PRESETS`] order.
pub const PRESET_NAMES: [&str; PRESETS.len()] = {
    let mut out = [""; PRESETS.len()];
    let mut i = 0;
    while i < PRESETS.len() {
        out[i] = PRESETS[i].name;
        i += 1;
    }
    out
};

/// The rule set every surface plays when none is named (the Python API's `rules=None`, the
/// CLI's `--rules` default, the server's): the first preset, the fullest of the common systems.
pub const DEFAULT_PRESET: &str = PRESETS[0].name;

/// The preset called `name`.
pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// The words for a preset name the core does not know, the one text of every surface (the
/// library's `RuleSet.preset`, the CLI's `--rules`, the server's `rules` and `presets`):
/// `shown` is the name as the caller quotes it (`'nope'`, shortened or not), `other` anything
/// else the surface takes in its place (the CLI's `"a rule set file (.json, .toml)"`).
///
/// `unknown preset 'nope'; expected one of maceplay, pokerclub_south, ...`
pub fn unknown_preset_message(shown: &str, other: Option<&str>) -> String {
    let other = other.map(|o| format!("{o} or ")).unwrap_or_default();
    format!(
        "unknown preset {shown}; expected {other}one of {}",
        PRESET_NAMES.join(", ")
    )
}

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
        find(name).map(Preset::rules)
    }

    /// MacePlay "Thirteen": bonus table, scoop ×2, sweep ×2 more at four players,
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

    /// PokerClub Mau Binh, South (tables reconstructed, see [`PRESETS`]): wheel second,
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

    /// PokerFever Western: one unit a row plus a majority point, fouls pay 3,
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

    /// PokerFever Eastern: the bonus table with double bonus, fouls pay 3 plus the
    /// opponent's bonuses, surrender 3, bankroll cap in dealer order.
    pub fn pokerfever_eastern() -> Rules {
        Rules {
            bonus: standard_bonus_table(),
            double_bonus: true,
            majority_point: 0,
            ..Rules::pokerfever_western()
        }
    }

    /// 2-4 scoring: one unit a row, bonuses (none by default) added to each side,
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
    /// players, 倒水 as scooped, the thirteen Shisanshui naturals found automatically. The suit order
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid_and_round_trip_through_data() {
        for p in PRESETS {
            let rules = p.rules();
            rules
                .validate()
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert_eq!(Rules::from_data(&p.data()).unwrap(), rules, "{}", p.name);
            assert_eq!(Rules::from_json(&rules.to_json()).unwrap(), rules);
            assert!(!p.source.contains("seed") && !p.source.contains("RULES"));
        }
        let mut names = PRESET_NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PRESETS.len());
        assert!(Rules::preset("nope").is_none());
    }

    #[test]
    fn the_unknown_preset_message_lists_every_preset() {
        let all = PRESET_NAMES.join(", ");
        assert_eq!(
            unknown_preset_message("'nope'", None),
            format!("unknown preset 'nope'; expected one of {all}")
        );
        assert_eq!(
            unknown_preset_message("'x'", Some("a file")),
            format!("unknown preset 'x'; expected a file or one of {all}")
        );
    }
}
