"""The words for a name nobody knows are written once, in the core: an unknown preset and an
unknown natural read the same from the library, the command line, the rule-set schema, the
bindings and the service, and no other source file writes its own copy of them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import chinese_poker as cp
import pytest
from chinese_poker import _core
from chinese_poker.cli._shared import CliError, load_rules
from chinese_poker.exceptions import InvalidDecisionError, InvalidRulesError
from chinese_poker.server import ops
from chinese_poker.server.limits import Limits

ROOT = Path(__file__).resolve().parents[1]
HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
ROWS = ("Qs Qh Qd", "5s 5h 5d Ks Kh", "9s 9h 9d 9c 2s")
OTHER = "Ac Kc 7d / Jc Jd 8s 6c 4d / Ah Th 6h 3h 2h"


def _error(op: str, request: dict[str, object]) -> dict[str, str]:
    _, body, _, _ = ops.new_service(Limits()).answer(op, json.dumps(request).encode())
    error: dict[str, str] = json.loads(body)["error"]
    return error


def test_the_core_s_words_list_every_name() -> None:
    presets = ", ".join(_core.PRESET_NAMES)
    assert _core.unknown_preset_message("'nope'") == (
        f"unknown preset 'nope'; expected one of {presets}"
    )
    assert _core.unknown_preset_message("'x'", "a rule set file (.json, .toml)") == (
        f"unknown preset 'x'; expected a rule set file (.json, .toml) or one of {presets}"
    )
    naturals = ", ".join(_core.NATURAL_NAMES)
    assert _core.unknown_natural_message("'nope'") == (
        f"unknown natural 'nope'; expected one of {naturals}"
    )
    assert _core.unknown_natural_message() == f"unknown natural; expected one of {naturals}"


def test_an_unknown_preset_reads_the_same_everywhere() -> None:
    core = _core.unknown_preset_message("'nope'")
    with pytest.raises(InvalidRulesError) as library:
        cp.RuleSet.preset("nope")
    assert str(library.value) == core
    with pytest.raises(InvalidRulesError) as solver:
        cp.Solver("nope", 2)
    assert str(solver.value) == core
    # the library shortens a long name as it shows it; the words stay the core's
    with pytest.raises(InvalidRulesError) as long:
        cp.RuleSet.preset("n" * 100)
    assert str(long.value) == _core.unknown_preset_message(repr("n" * 100)[:37] + "...")
    with pytest.raises(CliError) as cli:
        load_rules("nope")
    assert str(cli.value) == "argument --rules: " + _core.unknown_preset_message(
        "'nope'", "a rule set file (.json, .toml)"
    )
    assert _error("solve", {"hands": [HAND], "rules": "nope"})["message"] == core
    assert _error("settle", {"decisions": [" / ".join(ROWS), OTHER], "rules": "nope"}) == {
        "code": "invalid_input",
        "message": core,
        "field": "rules",
        "type": "InvalidRulesError",
    }
    assert _error("rules", {"name": "nope"})["message"] == core
    with pytest.raises(InvalidRulesError, match=re.escape(core)):
        _core.preset_json("nope")


def test_an_unknown_natural_reads_the_same_everywhere() -> None:
    core = _core.unknown_natural_message("'nope'")
    with pytest.raises(InvalidDecisionError) as declare:
        cp.Declare("nope", ROWS)  # type: ignore[arg-type]
    assert str(declare.value) == core
    # a Declare that skipped its own check: the bindings say the same, naming the seat
    forged = object.__new__(cp.Declare)
    object.__setattr__(forged, "natural", "nope")
    object.__setattr__(forged, "setting", cp.Setting(*ROWS))
    with pytest.raises(InvalidDecisionError) as bindings:
        cp.settle([forged, cp.Setting.parse(OTHER)], "maceplay")
    assert str(bindings.value) == f"player 0: {core}"
    seat = {"decision": "declare", "natural": "nope", "setting": " / ".join(ROWS)}
    assert _error("settle", {"decisions": [seat, OTHER]}) == {
        "code": "invalid_input",
        "message": core,
        "field": "decisions[0]",
        "type": "InvalidDecisionError",
    }
    # a rule set's field names the natural already: the words without it
    with pytest.raises(InvalidRulesError) as schema:
        cp.RuleSet.from_dict({"naturals": {"values": {"nope": 3}}})
    assert str(schema.value).endswith(f": {_core.unknown_natural_message()}")
    assert "naturals.values.nope" in str(schema.value)


@pytest.mark.parametrize("what", ["preset", "natural"])
def test_no_other_source_writes_the_words(what: str) -> None:
    owners = {"crates/core/src/presets.rs", "crates/core/src/rules/mod.rs"}
    copy = re.compile(rf"unknown {what}\b.*expected")
    sources = [*ROOT.glob("python/**/*.py"), *ROOT.glob("crates/*/src/**/*.rs")]
    assert sources
    copies = [
        f"{path.relative_to(ROOT).as_posix()}:{n}"
        for path in sources
        # a Rust tests file may pin the words; it does not write them for anyone to read
        if path.relative_to(ROOT).as_posix() not in owners and path.name != "tests.rs"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if copy.search(line)
    ]
    assert copies == []
