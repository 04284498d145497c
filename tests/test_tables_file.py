"""The core's own tables reader (``crates/core/src/solve/tables_file.rs``, bound as
``_core.load_tables``) builds the same table objective as the package's numpy path
(``strategy_tables.read_tables`` + ``_core.TableEv``): for every shipped file, the same values
to the bit and the same solutions; and a damaged file is an ``InvalidTablesError`` naming it."""

from __future__ import annotations

import json
from pathlib import Path

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker import strategy_tables as tables
from chinese_poker.exceptions import InvalidArgumentError, InvalidTablesError, InvalidTypeError
from chinese_poker.rules import RuleSet

_DATA = tables._data_dir()
_INDEX = json.loads((_DATA / tables.INDEX_FILE).read_text())["tables"]


def _rules(name: str) -> RuleSet:
    # the index names the plain rules of either wheel beside the presets
    if name == "default":
        return RuleSet()
    if name == "default_second":
        return RuleSet(wheel="second")
    return RuleSet.preset(name)


_CASES = [
    pytest.param(entry["file"], name, players, id=f"{name}-{players}")
    for entry in _INDEX
    for name, players in entry["presets"][:1]
]


@pytest.mark.parametrize(("file", "name", "players"), _CASES)
def test_the_core_reads_each_shipped_file_as_numpy_does(file: str, name: str, players: int) -> None:
    rules = _rules(name)
    path = _DATA / file
    by_numpy = tables.load_tables(rules, players, path)  # tables.read_tables + _core.TableEv
    by_core = _core.load_tables(path, rules.compiled, players)
    assert by_core.players == by_numpy.players == players
    assert by_core.wheel == by_numpy.wheel == rules.wheel
    assert json.loads(by_core.model) == json.loads(by_numpy.model)
    front, five = _core.rank_classes(rules.wheel)
    rng = np.random.default_rng(players)
    triples = zip(
        rng.choice(front, 300).tolist(),
        rng.choice(five, 300).tolist(),
        rng.choice(five, 300).tolist(),
        strict=True,
    )
    for f, m, b in triples:
        assert by_core.value(f, m, b) == by_numpy.value(f, m, b), (f, m, b)
    hands = _core.deal(2, 4, seed=players).reshape(8, 13)
    for hand in hands:
        solutions = [
            _core.solve(hand, rules.compiled, players, _core.Objective.table_ev(te), top_k=3)
            for te in (by_core, by_numpy)
        ]
        core, numpy_ = solutions
        assert core.setting == numpy_.setting
        assert core.value == numpy_.value
        assert [a.value for a in core.alternatives] == [a.value for a in numpy_.alternatives]


def test_the_core_finds_the_file_the_package_uses() -> None:
    # the package's solver with its shipped tables gives what the core's reader gives
    rules = RuleSet.preset("maceplay")
    path = tables.shipped_tables_path(rules, 4)
    assert path is not None
    te = _core.load_tables(str(path), rules.compiled, 4)
    hand = "As Ks Qs Js 9h 8h 7h 6d 5d 4c 3c 2c Ah"
    ours = _core.solve(hand, rules.compiled, 4, _core.Objective.table_ev(te))
    assert cp.solve(hand, rules=rules, players=4).value == ours.value


def test_damaged_files_are_invalid_tables_errors(tmp_path: Path) -> None:
    good = (_DATA / _INDEX[0]["file"]).read_bytes()
    cases = {
        "empty.npz": (b"", "empty file"),
        "text.npz": (b"not tables", "not a tables file (not an .npz archive)"),
        "cut.npz": (good[: len(good) // 2], "cannot be read"),
    }
    for name, (data, says) in cases.items():
        p = tmp_path / name
        p.write_bytes(data)
        with pytest.raises(InvalidTablesError, match="^tables file '.*" + name) as e:
            _core.load_tables(p, None, 4)
        assert says in str(e.value)
    with pytest.raises(InvalidTablesError, match="cannot be read"):
        _core.load_tables(tmp_path / "missing.npz", None, 4)
    second = tmp_path / "second.npz"
    t = tables.read_tables(_DATA / _INDEX[0]["file"])
    np.savez_compressed(
        second,
        front=t["front"],
        middle=t["middle"],
        back=t["back"],
        meta=np.array(json.dumps(dict(t["meta"], wheel="second"))),
    )
    with pytest.raises(InvalidTablesError, match='trained for the "second" wheel'):
        _core.load_tables(second, None, 4)
    # float64 arrays, as written by numpy here, read the same as the shipped float32 ones
    assert _core.load_tables(second, RuleSet(wheel="second").compiled, 4).wheel == "second"


def test_bad_arguments_are_specific_errors() -> None:
    path = _DATA / _INDEX[0]["file"]
    with pytest.raises(InvalidTypeError, match="path: expected a path"):
        _core.load_tables(3, None, 4)  # type: ignore[arg-type]
    for players in (1, 5, -1, 2**70, True):
        with pytest.raises(InvalidArgumentError, match="players"):
            _core.load_tables(path, None, players)
