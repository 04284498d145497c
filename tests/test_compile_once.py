"""A rule set is compiled by the core exactly once per value, and a part built alone is checked by
the core's cheap part check: counted by wrapping the one compile function and the one part check
of ``chinese_poker.rules``."""

from __future__ import annotations

import pickle
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import chinese_poker as cp
import pytest
from chinese_poker import _core, rules
from chinese_poker.exceptions import InvalidRulesError
from chinese_poker.rules import MACEPLAY, PRESETS, STANDARD_BONUS, BonusTable, RuleSet, Scoop, Sweep


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How often the core compiled a whole rule set ("compile") or checked a part ("part")."""
    seen: Counter[str] = Counter()

    def counting(kind: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any) -> Any:
            seen[kind] += 1
            return real(*args)

        return wrapper

    monkeypatch.setattr(rules, "_compile", counting("compile", rules._compile))
    monkeypatch.setattr(rules, "_check_part", counting("part", rules._check_part))
    yield seen


def test_from_dict_compiles_once(calls: Counter[str]) -> None:
    rebuilt = RuleSet.from_dict(MACEPLAY.to_dict())
    assert calls == {"compile": 1}  # 7 before: the data, each of five parts, the rule set
    assert rebuilt == MACEPLAY and rebuilt.compiled == MACEPLAY.compiled


@pytest.mark.parametrize("name", PRESETS)
def test_text_forms_compile_once(calls: Counter[str], name: str) -> None:
    preset = PRESETS[name]
    assert RuleSet.from_json(preset.to_json()) == preset
    assert RuleSet.from_toml(preset.to_toml()) == preset
    assert pickle.loads(pickle.dumps(preset)) == preset
    assert calls == {"compile": 3}


def test_replace_compiles_once(calls: Counter[str]) -> None:
    changed = MACEPLAY.replace(sweep__min_players=3)
    assert calls == {"compile": 1}  # 3 before
    assert changed.sweep.min_players == 3 and changed.scoop == MACEPLAY.scoop
    assert changed.compiled == RuleSet.from_dict(changed.to_dict()).compiled
    calls.clear()
    MACEPLAY.replace(sweep={"multiplier": 3}, name="house", majority_point=1)
    assert calls == {"compile": 1}


def test_a_part_given_whole_is_checked_once_when_built(calls: Counter[str]) -> None:
    scoop = Scoop.add(3)
    assert calls == {"part": 1}
    MACEPLAY.replace(scoop=scoop)
    assert calls == {"part": 1, "compile": 1}


def test_a_part_alone_is_checked_once_and_compiles_nothing(calls: Counter[str]) -> None:
    Sweep(min_players=3)
    Sweep.from_dict({"min_players": 3})
    assert calls == {"part": 2}


def test_the_part_check_is_the_rule_set_check() -> None:
    """Same code, same words: alone, in a rule set, and in a replace."""
    for build in (
        lambda: Sweep(min_players=0),
        lambda: Sweep.from_dict({"min_players": 0}),
        lambda: RuleSet(sweep=Sweep(min_players=0)),
        lambda: MACEPLAY.replace(sweep__min_players=0),
        lambda: RuleSet.from_dict({"sweep": {"min_players": 0}}),
    ):
        with pytest.raises(InvalidRulesError) as e:
            build()
        assert str(e.value) == 'rule set field "sweep.min_players": must be between 2 and 4, got 0'
    with pytest.raises(InvalidRulesError, match="unknown rule set part"):
        _core.check_rules_part("wheel", "{}")


def test_an_object_in_a_parts_place_is_named() -> None:
    with pytest.raises(InvalidRulesError, match='"scoop": expected a Scoop, got 5'):
        MACEPLAY.replace(scoop=5)


def test_bonus_row_value_compiles_nothing(calls: Counter[str]) -> None:
    for row in rules.ROWS:
        for category in rules.FRONT_CATEGORIES if row == "front" else rules.CATEGORIES:
            assert STANDARD_BONUS.row_value(row, category) == MACEPLAY.row_value(row, category)
    assert BonusTable(mode="add", back={"quads": 3}).row_value("back", cp.Category.QUADS) == 4
    assert calls == {"part": 1}  # building the add-mode table; no row value compiles


def test_presets_are_built_once_from_the_core(calls: Counter[str]) -> None:
    for name in _core.PRESET_NAMES:
        assert RuleSet.from_json(_core.preset_json(name)) == PRESETS[name]
    assert calls == {"compile": len(_core.PRESET_NAMES)}
