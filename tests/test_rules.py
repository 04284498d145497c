"""RuleSet: presets carry the values of docs/rules.md ("Presets"), derivation, JSON/TOML round
trips, validation naming the field (by the core, for every entry point), hostile input, the
compiled Rust form, pickling."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import chinese_poker as cp
import pytest
from chinese_poker import presets
from chinese_poker.exceptions import InvalidRulesError
from chinese_poker.rules import Foul, Naturals, RuleSet, Scoop, Sweep

PRESET_NAMES = [
    "maceplay",
    "pokerclub_south",
    "pokerclub_north",
    "pokerfever_western",
    "pokerfever_eastern",
    "two_four",
    "one_six",
    "shisanshui",
]
ALL_CATEGORIES = [c.name.lower() for c in cp.Category]


def test_preset_names_and_access() -> None:
    assert RuleSet.presets() == tuple(PRESET_NAMES)
    assert RuleSet.preset("maceplay") is presets.MACEPLAY
    for name in PRESET_NAMES:
        rules = RuleSet.preset(name)
        assert rules.name == name
        assert rules.source and rules.description
    with pytest.raises(InvalidRulesError, match="unknown preset 'macplay'"):
        RuleSet.preset("macplay")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_round_trips(name: str) -> None:
    rules = RuleSet.preset(name)
    assert RuleSet.from_json(rules.to_json()) == rules
    assert RuleSet.from_toml(rules.to_toml()) == rules
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    # Order of naturals is their ranking and must survive.
    back = RuleSet.from_toml(rules.to_toml())
    assert list(back.naturals.values) == list(rules.naturals.values)
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert copy.deepcopy(rules) == rules
    assert hash(RuleSet.from_json(rules.to_json())) == hash(rules)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_compiled_form_matches(name: str) -> None:
    rules = RuleSet.preset(name)
    for row in ("front", "middle", "back"):
        for cat, value in getattr(rules.bonus, row).items():
            expect = value if rules.bonus.mode == "replace" else 1 + value
            assert rules.compiled.row_value(row, cat) == expect
    assert rules.compiled.naturals() == list(rules.naturals.values.items())
    # the core's data form reads back to the same rule set
    text = {k: getattr(rules, k) for k in ("name", "description", "source")}
    assert RuleSet.from_dict({**json.loads(rules.compiled.to_json()), **text}) == rules
    unpickled = pickle.loads(pickle.dumps(rules))
    assert repr(unpickled.compiled) == repr(rules.compiled)


def test_maceplay_values() -> None:
    r = presets.MACEPLAY
    assert r.wheel == "low"
    assert r.bonus == cp.STANDARD_BONUS
    assert [r.row_value("front", "trips"), r.row_value("middle", "full_house")] == [3, 2]
    assert [r.row_value("middle", "quads"), r.row_value("middle", "straight_flush")] == [8, 10]
    assert [r.row_value("back", "quads"), r.row_value("back", "straight_flush")] == [4, 5]
    assert r.row_value("back", "full_house") == 1
    assert r.row_value("front", cp.Category.PAIR) == 1
    assert r.scoop == Scoop.multiply(2)
    assert r.sweep == Sweep(multiplier=2, min_players=4, fouled_counts=True)
    assert r.foul == Foul.reject()
    assert r.timeout == "auto"
    assert dict(r.naturals.values) == {
        "same_suit_dragon": 26,
        "dragon": 13,
        "six_pairs": 3,
        "three_flushes": 3,
        "three_straights": 3,
    }
    assert r.naturals.declaration == "auto"
    assert r.surrender is None and not r.bankroll_cap


def test_pokerclub_values() -> None:
    south, north = presets.POKERCLUB_SOUTH, presets.POKERCLUB_NORTH
    assert south.wheel == "second" and north.wheel == "low"
    assert south.replace(name="x", wheel="low", description="", source="") == north.replace(
        name="x", description="", source=""
    )
    assert south.bonus == cp.STANDARD_BONUS and south.foul == Foul.as_scooped()
    assert south.scoop == Scoop.multiply(2) and south.sweep.multiplier == 2
    assert south.naturals.must_show and south.naturals.declaration == "must_declare"
    assert list(south.naturals.values.items()) == [
        ("same_suit_dragon", 24),
        ("dragon", 12),
        ("five_pairs_trips", 6),
        ("six_pairs", 3),
        ("three_flushes", 3),
        ("three_straights", 3),
    ]
    assert south.timeout == "foul"


def test_pokerfever_values() -> None:
    west, east = presets.POKERFEVER_WESTERN, presets.POKERFEVER_EASTERN
    assert west.bonus == cp.NO_BONUS and west.majority_point == 1 and not west.double_bonus
    assert east.bonus == cp.STANDARD_BONUS and east.majority_point == 0 and east.double_bonus
    for r in (west, east):
        assert r.scoop == Scoop.none() and r.sweep.multiplier == 1
        assert r.foul == Foul.flat_plus_bonus(3)
        assert r.surrender == 3 and r.bankroll_cap
        assert r.naturals.declaration == "must_declare"
        assert r.naturals.value("dragon") == 13
        assert r.naturals.value("thirteen_one_colour") == 13
        assert r.naturals.value("twelve_one_colour") == 3
        assert r.naturals.value("same_suit_dragon") is None


def test_two_four_one_six_shisanshui_values() -> None:
    assert presets.TWO_FOUR.overall_point == 1 and presets.TWO_FOUR.scoop == Scoop.none()
    assert presets.TWO_FOUR.bonus.mode == "add" or presets.TWO_FOUR.bonus == cp.NO_BONUS
    assert presets.ONE_SIX.scoop == Scoop.add(3) and presets.ONE_SIX.bonus == cp.NO_BONUS
    s = presets.SHISANSHUI
    assert s.wheel == "second" and s.suit_order is None
    assert list(s.naturals.values.values()) == [108, 36, 24, 22, 20, 15, 12, 10, 6, 5, 4, 3, 3]
    assert s.replace(suit_order=presets.SHISANSHUI_SUIT_ORDER).suit_order == "shcd"


def test_doubled_bonus_table() -> None:
    r = presets.POKERCLUB_SOUTH.replace(bonus=cp.DOUBLED_BONUS)
    got = [
        r.row_value("front", "trips"),
        r.row_value("middle", "full_house"),
        r.row_value("back", "quads"),
        r.row_value("middle", "quads"),
        r.row_value("back", "straight_flush"),
        r.row_value("middle", "straight_flush"),
    ]
    assert got == [6, 4, 8, 16, 10, 20]
    assert r.compiled.row_value("middle", "straight_flush") == 20


def test_add_mode() -> None:
    table = cp.BonusTable(mode="add", front={"trips": 2}, back={cp.Category.QUADS: 3})
    assert table.back == {"quads": 3}
    r = RuleSet(bonus=table, overall_point=1)
    assert r.row_value("front", "trips") == 3
    assert r.row_value("back", "quads") == 4
    assert r.row_value("middle", "quads") == 1
    assert r.compiled.row_value("back", "quads") == 4
    assert r.compiled.row_value("middle", "pair") == 1


def test_defaults_are_plain_rows() -> None:
    r = RuleSet()
    assert r.row_value("back", "straight_flush") == 1
    assert r.scoop == Scoop.none() and r.sweep == Sweep.off() and r.foul == Foul.as_scooped()
    assert r.naturals == Naturals() and r.surrender is None
    assert RuleSet.from_dict({}) == r
    assert RuleSet.from_toml("") == r


def test_replace() -> None:
    base = presets.MACEPLAY
    r = base.replace(scoop=Scoop.multiply(3))
    assert r.scoop.amount == 3 and base.scoop.amount == 2
    assert r.bonus is base.bonus
    r = base.replace(sweep={"min_players": 3})
    assert r.sweep == Sweep(multiplier=2, min_players=3, fouled_counts=True)
    r = base.replace(naturals__declaration="must_declare", naturals__must_show=True)
    assert r.naturals.declaration == "must_declare" and r.naturals.must_show
    assert r.naturals.values == base.naturals.values
    r = base.replace(bonus={"middle": {"full_house": 3}})
    assert r.row_value("middle", "full_house") == 3 and r.row_value("front", "trips") == 3
    assert r.row_value("middle", "quads") == 1  # a row given whole replaces that row
    r = base.replace(surrender=2, suit_order="SHCD")
    assert r.surrender == 2 and r.suit_order == "shcd"
    assert base.replace() == base
    with pytest.raises(InvalidRulesError, match='"scop"'):
        base.replace(scop=Scoop.none())
    with pytest.raises(InvalidRulesError, match='"sweep.multiplyer"'):
        base.replace(sweep__multiplyer=2)
    with pytest.raises(InvalidRulesError, match='"sweep.min_players"'):
        base.replace(sweep={"min_players": 5})
    with pytest.raises(InvalidRulesError, match='"wheel__x"'):
        base.replace(wheel__x=1)


def test_frozen() -> None:
    r = presets.MACEPLAY
    with pytest.raises(AttributeError):
        r.wheel = "second"  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.bonus.front["trips"] = 5  # type: ignore[index]
    with pytest.raises(AttributeError):
        r.scoop.amount = 4  # type: ignore[misc]


def _with(path: str, value: Any) -> dict[str, Any]:
    data = presets.MACEPLAY.to_dict()
    node = data
    *heads, last = path.split(".")
    for head in heads:
        node = node.setdefault(head, {})
    node[last] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("majority_point", -1, "majority_point"),
        ("overall_point", 1.5, "overall_point"),
        ("surrender", -3, "surrender"),
        ("double_bonus", 1, "double_bonus"),
        ("wheel", "high", "wheel"),
        ("timeout", "never", "timeout"),
        ("bankroll_cap", "yes", "bankroll_cap"),
        ("bonus.mode", "multiply", "bonus.mode"),
        ("bonus.middle.full_house", -2, "bonus.middle.full_house"),
        ("bonus.middle.full_house", 0, "bonus.middle.full_house"),
        ("bonus.middle.full_house", True, "bonus.middle.full_house"),
        ("bonus.middle.fullhouse", 2, "bonus.middle.fullhouse"),
        ("bonus.front.flush", 2, "bonus.front.flush"),
        ("bonus.front", {}, "bonus.front"),
        ("bonus.front", [3], "bonus.front"),
        ("bonus.side", {"trips": 3}, "bonus.side"),
        ("scoop.kind", "double", "scoop.kind"),
        ("scoop.amount", 0, "scoop.amount"),
        ("scoop.amount", -2, "scoop.amount"),
        ("sweep.multiplier", 0, "sweep.multiplier"),
        ("sweep.min_players", 1, "sweep.min_players"),
        ("sweep.min_players", 5, "sweep.min_players"),
        ("sweep.fouled_counts", None, "sweep.fouled_counts"),
        ("foul.kind", "flat", "foul.kind"),
        ("foul.amount", 3, "foul.amount"),
        ("naturals.values.dragoon", 13, "naturals.values.dragoon"),
        ("naturals.values.dragon", -13, "naturals.values.dragon"),
        ("naturals.values.dragon", 0, "naturals.values.dragon"),
        ("naturals.declaration", "manual", "naturals.declaration"),
        ("naturals.values", [["dragon", 13], ["dragon", 12]], "naturals.values.dragon"),
        ("suit_order", "shdx", "suit_order"),
        ("suit_order", "shd", "suit_order"),
        ("suit_order", "sshd", "suit_order"),
        ("colour", "red", "colour"),
        ("name", 7, "name"),
        ("scoop", 2, "scoop"),
    ],
)
def test_validation_names_field(path: str, value: Any, field: str) -> None:
    data = _with(path, value)
    with pytest.raises(InvalidRulesError, match=f'field "{field}"'):
        RuleSet.from_dict(data)


def test_flat_foul_amount_and_big_values() -> None:
    assert presets.MACEPLAY.replace(foul=Foul.flat_plus_bonus(5)).foul.amount == 5
    with pytest.raises(InvalidRulesError, match='"surrender"'):
        RuleSet(surrender=10**12)
    with pytest.raises(InvalidRulesError, match='"scoop.amount"'):
        Scoop.multiply(10**6)


def test_constructor_validation() -> None:
    with pytest.raises(InvalidRulesError, match='"naturals.values.rainbow"'):
        Naturals(values={"dragon": 13, "rainbow": 2})  # type: ignore[dict-item]
    with pytest.raises(InvalidRulesError, match='"bonus.middle.full_house"'):
        cp.BonusTable(middle={"full_house": -1})
    with pytest.raises(InvalidRulesError, match='"sweep.min_players"'):
        Sweep(min_players=0)
    with pytest.raises(InvalidRulesError, match='"bonus"'):
        RuleSet(bonus={"front": {"trips": 3}})  # type: ignore[arg-type]
    assert issubclass(InvalidRulesError, ValueError)


def test_json_and_toml_errors() -> None:
    with pytest.raises(InvalidRulesError, match="does not parse"):
        RuleSet.from_json("{")
    with pytest.raises(InvalidRulesError, match="does not parse"):
        RuleSet.from_toml("wheel = ")
    with pytest.raises(InvalidRulesError, match="'dragon' appears twice"):
        RuleSet.from_json('{"naturals": {"values": {"dragon": 13, "dragon": 12}}}')
    with pytest.raises(InvalidRulesError, match="does not parse"):
        RuleSet.from_toml("[naturals.values]\ndragon = 13\ndragon = 12\n")


def test_hand_written_toml() -> None:
    text = """
name = "house"
wheel = "second"
overall_point = 1
surrender = 2

[bonus]
mode = "add"
back = { quads = 3 }

[scoop]
kind = "add"
amount = 3

[naturals]
declaration = "auto"
values = { dragon = 20, six_pairs = 2 }
"""
    r = RuleSet.from_toml(text)
    assert r.name == "house" and r.wheel == "second" and r.surrender == 2
    assert r.row_value("back", "quads") == 4 and r.scoop == Scoop.add(3)
    assert list(r.naturals.values.items()) == [("dragon", 20), ("six_pairs", 2)]
    assert r.compiled.naturals() == [("dragon", 20), ("six_pairs", 2)]
    assert RuleSet.from_toml(r.to_toml()) == r


def test_compiled_rules_reject_exactly_what_rule_set_rejects() -> None:
    from chinese_poker import _core

    cases: list[tuple[dict[str, Any], str]] = [
        ({"surrender": 2_000_000}, "surrender"),
        ({"sweep": {"min_players": 7}}, "sweep.min_players"),
        ({"bonus": {"middle": {"fullhouse": 2}}}, "bonus.middle.fullhouse"),
        ({"naturals": {"values": {"dragoon": 2}}}, "naturals.values.dragoon"),
        ({"surrender": -1}, "surrender"),
        ({"double_bonus": 1}, "double_bonus"),
        ({"suit_order": "sshd"}, "suit_order"),
        ({"wheel": 3}, "wheel"),
        ({"naturals": {"values": {"dragon": 2, "six_pairs": 1}, "x": 1}}, "naturals.x"),
        ({"scoop": {"kind": "multiply", "amount": 1001}}, "scoop.amount"),
    ]
    for data, path in cases:
        with pytest.raises(InvalidRulesError, match=f'"{path}"'):
            _core.Rules(json.dumps(data))
        with pytest.raises(InvalidRulesError, match=f'"{path}"'):
            RuleSet.from_dict(data)
    with pytest.raises(InvalidRulesError, match="does not parse"):
        _core.Rules("{")


def test_names_and_defaults_come_from_the_core() -> None:
    from chinese_poker import _core, rules

    assert rules.CATEGORIES == _core.CATEGORY_NAMES == tuple(c.name.lower() for c in cp.Category)
    assert [c.label for c in cp.Category][3] == "three of a kind"
    assert rules.NATURALS == _core.NATURAL_NAMES and len(rules.NATURALS) == 14
    assert RuleSet.presets() == _core.PRESET_NAMES
    assert RuleSet().to_dict() | {"name": "", "description": "", "source": ""} == json.loads(
        _core.default_rules_json()
    ) | {"name": "", "description": "", "source": ""}
    with pytest.raises(InvalidRulesError, match='"wheel"'):
        cp.evaluate("As Ks Qs", wheel="sideways")


def test_hostile_rule_set_text() -> None:
    with pytest.raises(InvalidRulesError, match="nested too deeply"):
        RuleSet.from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InvalidRulesError, match="nested too deeply"):
        RuleSet.from_toml("x = " + "[" * 100_000 + "]" * 100_000)
    with pytest.raises(InvalidRulesError, match="not valid UTF-8"):
        RuleSet.from_json(b'{"name": "\xff"}')
    with pytest.raises(InvalidRulesError, match="^rule set TOML is not valid UTF-8"):
        RuleSet.from_toml(b'name = "\xff"')
    with pytest.raises(InvalidRulesError, match="a number is too long"):
        RuleSet.from_json('{"surrender": ' + "9" * 5000 + "}")
    with pytest.raises(InvalidRulesError, match="a number is too long"):
        RuleSet.from_toml("surrender = " + "9" * 5000)
    with pytest.raises(InvalidRulesError, match="^rule set JSON: key 'x' appears twice"):
        RuleSet.from_json('{"x": 1, "x": 2}')
    with pytest.raises(InvalidRulesError, match="must be an object"):
        RuleSet.from_json("[1, 2]")
    with pytest.raises(InvalidRulesError, match="must be text"):
        RuleSet.from_toml(7)  # type: ignore[arg-type]
    assert RuleSet.from_toml(b'surrender = 2\nname = "house"').surrender == 2


def test_hostile_python_values_name_the_field() -> None:
    for value in (10**5000, -(10**30), float("nan"), 1e308, 2.0, complex(1, 2), [1], "3"):
        with pytest.raises(InvalidRulesError, match='"surrender"'):
            RuleSet(surrender=value)  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError, match="nested too deeply"):
        deep: Any = 1
        for _ in range(1000):
            deep = {"a": deep}
        RuleSet.from_dict({"bonus": deep})
    with pytest.raises(InvalidRulesError, match='"sweep.fouled_counts"'):
        Sweep(fouled_counts=None)  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError, match='"foul.amount"'):
        Foul("reject", 3)


def test_renamed_rule_set_drops_the_presets_texts() -> None:
    house = presets.MACEPLAY.replace(name="house", scoop=Scoop.add(3))
    assert house.description == "" and house.source == ""
    assert "MacePlay" not in house.to_toml()
    kept = presets.MACEPLAY.replace(name="house", source="ours")
    assert kept.source == "ours" and kept.description == ""
    same = presets.MACEPLAY.replace(scoop=Scoop.add(3))
    assert same.source == presets.MACEPLAY.source


def test_preset_sources_name_public_rules() -> None:
    for rules in presets.PRESETS.values():
        assert "seed" not in rules.source and "RULES" not in rules.source
        assert "rules" in rules.source or "played" in rules.source


def test_mapping_equality() -> None:
    # Bonus rows and naturals compare like dicts: the order naturals are listed in carries no
    # meaning (the ranking is the core's), so it is not part of the value.
    assert cp.STANDARD_BONUS.middle == {"straight_flush": 10, "quads": 8, "full_house": 2}
    reordered = Naturals(values={"six_pairs": 3, "dragon": 13})
    assert reordered.values == {"dragon": 13, "six_pairs": 3}
    assert reordered == Naturals(values={"dragon": 13, "six_pairs": 3})
    a = RuleSet(naturals=reordered)
    b = RuleSet(naturals=Naturals(values={"dragon": 13, "six_pairs": 3}))
    assert a == b and hash(a) == hash(b) and a.digest == b.digest
    assert a.canonical_json() == b.canonical_json()
    assert a.compiled.naturals() == [("dragon", 13), ("six_pairs", 3)]
    assert a != RuleSet(naturals=Naturals(values={"dragon": 12, "six_pairs": 3}))
    assert a != b.replace(name="other")  # the name is part of a RuleSet, not of its digest
    assert a.digest == b.replace(name="other").digest
    assert len({Naturals(values={"dragon": 13}), Naturals(values={"dragon": 13})}) == 1


def test_compiled_once() -> None:
    rules = presets.MACEPLAY
    assert rules.compiled is rules.compiled  # built in __post_init__, never again
    assert rules.replace(name="x").compiled is not rules.compiled
    assert rules.replace(name="x").compiled == rules.compiled


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_has_shipped_tables_under_the_versioned_key(name: str) -> None:
    import warnings

    from chinese_poker import _core, solver

    for players in (2, 3, 4):
        key = _core.tables_key(RuleSet.preset(name).compiled, players)
        assert key.startswith("v3;wheel=") and key.endswith(f";players={players}")
        assert solver.shipped_tables_path(name, players) is not None, (name, players)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            solver.load_tables(name, players)
