"""The rule sets shipped with the package (RULES.md §4–6), each with its source.

Every preset is an ordinary :class:`~chinese_poker.rules.RuleSet`: derive house rules from one
with ``.replace(...)``. ``PRESETS`` maps each name to its rule set, in the order of RULES.md §4.
Where a source is silent, the value chosen is said in the preset's ``source`` text.
"""

from __future__ import annotations

from types import MappingProxyType

from .rules import STANDARD_BONUS, BonusTable, Foul, Naturals, RuleSet, Scoop, Sweep

__all__ = [
    "MACEPLAY",
    "ONE_SIX",
    "POKERCLUB_NORTH",
    "POKERCLUB_SOUTH",
    "POKERFEVER_EASTERN",
    "POKERFEVER_WESTERN",
    "PRESETS",
    "SHISANSHUI",
    "SHISANSHUI_SUIT_ORDER",
    "TWO_FOUR",
]

SHISANSHUI_SUIT_ORDER = "shcd"
"""The optional Shisanshui suit order ♠ > ♥ > ♣ > ♦, for ``suit_order=``."""

MACEPLAY = RuleSet(
    name="maceplay",
    description='MacePlay "Thirteen": Asian row bonuses, scoop x2, sweep x4 at four players, '
    "fouled settings refused, five auto-declared naturals.",
    source="seed 001 (MacePlay Thirteen rules page); complete in the seed, nothing reconstructed.",
    wheel="low",
    bonus=STANDARD_BONUS,
    scoop=Scoop.multiply(2),
    sweep=Sweep(multiplier=2, min_players=4, fouled_counts=True),
    foul=Foul.reject(),
    naturals=Naturals(
        values={
            "same_suit_dragon": 26,
            "dragon": 13,
            "six_pairs": 3,
            "three_flushes": 3,
            "three_straights": 3,
        },
        declaration="auto",
        must_show=False,
    ),
    timeout="auto",
)

_MAU_BINH_NATURALS = Naturals(
    values={
        "same_suit_dragon": 24,
        "dragon": 12,
        "five_pairs_trips": 6,
        "six_pairs": 3,
        "three_flushes": 3,
        "three_straights": 3,
    },
    declaration="must_declare",
    must_show=True,
)

POKERCLUB_SOUTH = RuleSet(
    name="pokerclub_south",
    description="PokerClub Mau Binh, South: A-2-3-4-5 second-highest straight, Asian row "
    "bonuses, scoop x2, x4 for scooping all three opponents, fouls pay as scooped, declared "
    "naturals shown in the rows.",
    source="seed 000 (PokerClub Chinese Poker / Mau Binh page). Its row-bonus and instant-win "
    "tables are missing from the page: reconstructed with the values most Mau Binh sources use "
    "(rows 3/2/8/10/4/5 replace; naturals 24/12/6/3/3/3; thirteen of one colour off). Foul as "
    "scooped from 'usually pays the scoop bonus as well'; a fouled opponent counts for the "
    "sweep (RULES.md §6). For the doubled row table use bonus=DOUBLED_BONUS.",
    wheel="second",
    bonus=STANDARD_BONUS,
    scoop=Scoop.multiply(2),
    sweep=Sweep(multiplier=2, min_players=4, fouled_counts=True),
    foul=Foul.as_scooped(),
    naturals=_MAU_BINH_NATURALS,
    timeout="foul",
)

POKERCLUB_NORTH = POKERCLUB_SOUTH.replace(
    name="pokerclub_north",
    wheel="low",
    description="PokerClub Mau Binh, North: as South, but A-2-3-4-5 is the lowest straight.",
    source="seed 000 (the North ranks A-2-3-4-5 lowest); every other value as pokerclub_south, "
    "reconstructed the same way.",
)

_CLEAN_SWEEPS = Naturals(
    values={
        "dragon": 13,
        "thirteen_one_colour": 13,
        "twelve_one_colour": 3,
        "six_pairs": 3,
        "three_flushes": 3,
        "three_straights": 3,
    },
    declaration="must_declare",
    must_show=False,
)

POKERFEVER_WESTERN = RuleSet(
    name="pokerfever_western",
    description="PokerFever Western: 1 a row plus a majority point, no bonuses or scoop, a "
    "foul pays 3 plus bonuses, declared clean sweeps, surrender 3, bankroll cap.",
    source="seed 002 (PokerFever Chinese Poker page). Clean-sweep values from RULES.md §5 (a "
    "same-suit dragon pays as a dragon); timeout not stated, set to foul.",
    wheel="low",
    majority_point=1,
    foul=Foul.flat_plus_bonus(3),
    naturals=_CLEAN_SWEEPS,
    surrender=3,
    bankroll_cap=True,
    timeout="foul",
)

POKERFEVER_EASTERN = RuleSet(
    name="pokerfever_eastern",
    description="PokerFever Eastern: Asian row bonuses paid instead of the row point, double "
    "bonus against the same category, no scoop, a foul pays 3 plus bonuses, declared clean "
    "sweeps, surrender 3, bankroll cap.",
    source="seed 002 (PokerFever Chinese Poker page). Its bonus table is missing: the "
    "3/2/8/10/4/5 table is used (its '= 7' example needs back straight flush = 5). The "
    "bankroll cap and dealer order are stated for the whole site. Timeout not stated: foul.",
    wheel="low",
    bonus=STANDARD_BONUS,
    double_bonus=True,
    foul=Foul.flat_plus_bonus(3),
    naturals=_CLEAN_SWEEPS,
    surrender=3,
    bankroll_cap=True,
    timeout="foul",
)

TWO_FOUR = RuleSet(
    name="two_four",
    description="2-4 scoring: 1 a row plus an overall point to the higher pair total; win 2 "
    "of 3 rows = 2, all 3 = 4. No bonuses by default (set bonus=BonusTable(mode='add', ...)).",
    source="seed 003 (2-4 scoring page). Bonuses, naturals and the foul are unstated: no "
    "bonus table, no naturals, fouls lose every row (as scooped, so 4).",
    wheel="low",
    bonus=BonusTable(mode="add"),
    overall_point=1,
    foul=Foul.as_scooped(),
    timeout="foul",
)

ONE_SIX = RuleSet(
    name="one_six",
    description="1-6 scoring: 1 a row, 3 more for winning all three (6 in all).",
    source="RULES.md §4 (the common American system; no seed page). Fouls lose every row "
    "and the scoop; no naturals.",
    wheel="low",
    scoop=Scoop.add(3),
    foul=Foul.as_scooped(),
    timeout="foul",
)

SHISANSHUI = RuleSet(
    name="shisanshui",
    description="Shisanshui (十三水): A-2-3-4-5 second-highest, Asian row bonuses, scoop x2 "
    "(打枪), x4 for sweeping three opponents (全垒打), fouls as scooped (倒水), thirteen "
    "naturals from 至尊清龙 108 down to 三顺子 3.",
    source="RULES.md §4–5 (no seed page). Declaration not stated: naturals are declared "
    "automatically and need not be shown in the rows; a timed-out hand is set automatically. "
    "Suit order off; the optional "
    f"♠ > ♥ > ♣ > ♦ is suit_order={SHISANSHUI_SUIT_ORDER!r}.",
    wheel="second",
    bonus=STANDARD_BONUS,
    scoop=Scoop.multiply(2),
    sweep=Sweep(multiplier=2, min_players=4, fouled_counts=True),
    foul=Foul.as_scooped(),
    naturals=Naturals(
        values={
            "same_suit_dragon": 108,
            "dragon": 36,
            "twelve_royals": 24,
            "three_straight_flushes": 22,
            "three_quads": 20,
            "all_big": 15,
            "all_small": 12,
            "thirteen_one_colour": 10,
            "four_trips": 6,
            "five_pairs_trips": 5,
            "six_pairs": 4,
            "three_flushes": 3,
            "three_straights": 3,
        },
        declaration="auto",
        must_show=False,
    ),
    timeout="auto",
)

PRESETS: MappingProxyType[str, RuleSet] = MappingProxyType(
    {
        r.name: r
        for r in (
            MACEPLAY,
            POKERCLUB_SOUTH,
            POKERCLUB_NORTH,
            POKERFEVER_WESTERN,
            POKERFEVER_EASTERN,
            TWO_FOUR,
            ONE_SIX,
            SHISANSHUI,
        )
    }
)
