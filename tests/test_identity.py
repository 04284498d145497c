"""One identity for every strategy: a rule set means the same whatever the order of its data's
keys (its canonical form and digest are the core's), every result names the rules and the
strategy tables that made it, a run refuses to resume under other tables, and the command line
duels a user's own bot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core, _dataset
from chinese_poker import strategy_tables as T
from chinese_poker.exceptions import CancelledError, InvalidTablesError

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
SOURCES = Path(cp.__file__).resolve().parents[1]


def reordered(value: Any, reverse: bool) -> Any:
    """``value`` with every object's keys sorted (or in reverse sorted order)."""
    if isinstance(value, dict):
        return {k: reordered(value[k], reverse) for k in sorted(value, reverse=reverse)}
    if isinstance(value, list):
        return [reordered(v, reverse) for v in value]
    return value


def dealt(n: int, seed: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    hands: np.ndarray[Any, np.dtype[np.uint8]] = cp.deal(n, 2, seed=seed)[:, 0, :]
    return hands


@pytest.mark.parametrize("name", _core.PRESET_NAMES)
def test_every_preset_rebuilt_from_reordered_keys_is_the_preset(name: str) -> None:
    preset = cp.RuleSet.preset(name)
    hands = dealt(300, 11)
    want = cp.solve_batch(hands, preset, 4, threads=1)
    for reverse in (False, True):
        data = json.loads(json.dumps(reordered(preset.to_dict(), reverse)))
        again = cp.RuleSet.from_dict(data)
        assert again == preset and hash(again) == hash(preset)
        assert again.digest == preset.digest and again.canonical_json() == preset.canonical_json()
        assert cp.RuleSet.from_json(json.dumps(data)) == preset
        got = cp.solve_batch(hands, again, 4, threads=1)
        assert np.array_equal(got.settings, want.settings)
        assert np.array_equal(got.values, want.values)
        assert got.tables == want.tables and got.tables.source == "shipped"  # type: ignore[union-attr]
        assert got.rules_digest == preset.digest
        sol = cp.solve(HAND, again, 4)
        assert sol.to_dict() == cp.solve(HAND, preset, 4).to_dict()
    # the canonical form has sorted keys at every depth, and the digest is its SHA-256
    canonical = json.loads(preset.canonical_json())
    assert json.dumps(canonical, separators=(",", ":"), sort_keys=True) == preset.canonical_json()
    import hashlib

    assert preset.digest == hashlib.sha256(preset.canonical_json().encode()).hexdigest()
    assert preset.to_toml() and cp.RuleSet.from_toml(preset.to_toml()) == preset


def test_digests_tell_rule_sets_apart_and_ignore_their_names() -> None:
    digests = {cp.RuleSet.preset(n).digest for n in _core.PRESET_NAMES}
    assert len(digests) == len(_core.PRESET_NAMES)
    maceplay = cp.RuleSet.preset("maceplay")
    club = maceplay.replace(name="our club", description="ours")
    assert club.digest == maceplay.digest and club != maceplay
    assert maceplay.replace(surrender=3).digest != maceplay.digest


def test_solutions_and_batches_name_their_rules_and_tables(tmp_path: Path) -> None:
    bot = cp.Solver("two_four", 2)
    sol = bot.solve(HAND)
    assert sol.rules_digest == cp.RuleSet.preset("two_four").digest
    assert sol.tables == bot.tables and isinstance(sol.tables, cp.TablesId)
    assert sol.tables.source == "shipped" and len(sol.tables.digest) == 64
    assert sol.to_dict()["tables"] == sol.tables.to_dict()
    assert cp.Solution._from_dict(sol.to_dict()) == sol
    batch = bot.solve_batch(dealt(4, 1))
    assert batch.tables == sol.tables and batch.rules_digest == sol.rules_digest
    # Monte Carlo names the tables of its opponents; row values and best response none
    mc = cp.Solver("two_four", 2, cp.MonteCarlo(samples=20)).solve(HAND)
    assert mc.tables == sol.tables
    round_ = cp.deal(1, 2, seed=9)[0]
    opponent = cp.solve(round_[1], "two_four", 2).as_decision()
    best = cp.Solver("two_four", 2, cp.BestResponse([opponent]))
    assert best.tables is None and best.solve(round_[0]).tables is None
    # the same tables named as a file: the same digest, another source
    path = T.shipped_tables_path("two_four", 2)
    named = cp.Solver("two_four", 2, tables=path).solve(HAND)
    assert named.tables == cp.TablesId("file", sol.tables.digest)
    assert named.value == sol.value
    # other tables, another digest
    other = T.shipped_tables_path("one_six", 2)
    t = T.read_tables(other)
    trained = {
        "front": t["front"], "middle": t["middle"], "back": t["back"],
        "scoop_rate": t["meta"]["scoop_rate"], "key": _core.tables_key(bot.rules.compiled, 2),
        "model": json.dumps(t["meta"]["model"]),
    }  # fmt: skip
    swapped = T.write_tables(tmp_path / "swapped.npz", trained, {"rules": "two_four"})
    assert cp.Solver("two_four", 2, tables=swapped).tables.digest != sol.tables.digest  # type: ignore[union-attr]
    with pytest.raises(cp.exceptions.InvalidArgumentError, match="source"):
        cp.TablesId("cloud", sol.tables.digest)
    with pytest.raises(cp.exceptions.InvalidShapeError, match="digest"):
        cp.TablesId("file", "abc")
    import pickle

    assert pickle.loads(pickle.dumps(sol.tables)) == sol.tables


def test_a_fallback_names_itself_and_warns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(T.TABLES_ENV, str(tmp_path / "none"))
    T.clear_cache()
    house = cp.RuleSet.preset("maceplay").replace(name="house", surrender=2)
    with pytest.warns(T.FallbackTablesWarning, match="no tables were trained for rule set 'house'"):
        sol = cp.Solver(house, 4).solve(HAND)
    assert sol.tables is not None and sol.tables.source == "fallback"
    plain = cp.Solver(cp.RuleSet(), 4).tables
    assert plain is not None and sol.tables.digest == plain.digest
    assert T.which_tables(house, 4)[0] == "fallback"
    T.clear_cache()


def tables_file(path: Path, rules: cp.RuleSet, players: int, source: str) -> Path:
    """A tables file for ``rules`` holding the shipped tables of the preset ``source``."""
    t = T.read_tables(T.shipped_tables_path(source, players))  # type: ignore[arg-type]
    trained = {
        "front": t["front"], "middle": t["middle"], "back": t["back"],
        "scoop_rate": t["meta"]["scoop_rate"], "key": _core.tables_key(rules.compiled, players),
        "model": json.dumps(t["meta"]["model"]),
    }  # fmt: skip
    return T.write_tables(path, trained, {"rules": rules.name, "players": players})


def test_provenance_differs_when_only_the_tables_differ(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    rules = cp.RuleSet.preset("two_four")
    own = tables_file(tmp_path / "own.npz", rules, 2, "one_six")
    runs = [
        cp.simulate(30, 2, rules, [cp.TableEV(t), cp.Greedy()], seed=2, progress=False)
        for t in (None, own)
    ]
    a, b = (r.provenance for r in runs)
    assert a.policies != b.policies  # the path shows in the policy too...
    assert a.tables[0] != b.tables[0] and a.tables[1] is None is b.tables[1]
    assert a.tables[0].source == "shipped" and b.tables[0].source == "file"  # type: ignore[union-attr]
    assert a.to_dict()["tables"][0]["digest"] != b.to_dict()["tables"][0]["digest"]
    assert a.to_dict()["rules_digest"] == rules.digest
    # ...and the same policy object playing other tables differs by the tables alone
    same = cp.TableEV(own)
    os.replace(tables_file(tmp_path / "next.npz", rules, 2, "two_four"), own)
    T.clear_cache()
    c = cp.simulate(30, 2, rules, [same, cp.Greedy()], seed=2, progress=False).provenance
    assert c.policies == b.policies and c.tables != b.tables
    duel = cp.duel(cp.TableEV(), cp.Greedy(), deals=10, rules=rules, progress=False)
    assert duel.provenance.tables == (a.tables[0], None)
    assert duel.to_dict()["provenance"]["tables"][0] == a.tables[0].to_dict()  # type: ignore[union-attr]
    # written and read back: the Parquet metadata and the manifest carry it
    out = tmp_path / "run"
    cp.simulate(40, 2, rules, [cp.TableEV(own), cp.Greedy()], seed=3, out=out, progress=False)
    manifest = _dataset.load_manifest(out)
    assert manifest["tables"][0] == c.tables[0].to_dict()  # type: ignore[union-attr]
    assert cp.read_simulation(out).provenance.tables == c.tables
    one = tmp_path / "one.parquet"
    runs[0].to_parquet(one)
    assert cp.read_simulation(one).provenance.tables == a.tables


def test_resume_after_a_tables_change_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    rules = cp.RuleSet.preset("two_four")
    path = tables_file(tmp_path / "t.npz", rules, 2, "one_six")
    policies = [cp.TableEV(path), cp.Greedy()]
    out = tmp_path / "run"
    first = cp.simulate(60, 2, rules, policies, seed=5, out=out, progress=False)
    old = first.provenance.tables[0]
    # the file is replaced by other tables between the interrupt and the resume
    os.replace(tables_file(tmp_path / "u.npz", rules, 2, "two_four"), path)
    T.clear_cache()
    with pytest.raises(cp.exceptions.InvalidArgumentError, match="tables differ") as refused:
        cp.simulate(60, 2, rules, policies, seed=5, out=out, resume=True, progress=False)
    message = str(refused.value)
    assert "rounds differ" not in message
    assert "seat 0" in message and old.digest in message  # type: ignore[union-attr]
    new = cp.Solver(rules, 2, tables=path).tables
    assert new is not None and new.digest in message and "seat 1" not in message
    # the same tables again resume as before
    os.replace(tables_file(tmp_path / "v.npz", rules, 2, "one_six"), path)
    T.clear_cache()
    again = cp.simulate(60, 2, rules, policies, seed=5, out=out, resume=True, progress=False)
    assert again.rounds == 60


def test_a_worker_finding_other_tables_refuses_to_play(tmp_path: Path) -> None:
    from chinese_poker._runner import _play_range

    rules = cp.RuleSet.preset("two_four")
    wanted = (cp.TablesId("installed", "0" * 64), None)
    with pytest.raises(InvalidTablesError, match="seat 0: this process found shipped tables"):
        _play_range(rules, [cp.TableEV(), cp.Greedy()], 0, 0, 5, 1, None, None, wanted)


def test_cancel_stops_a_monte_carlo_solve() -> None:
    import threading

    bot = cp.Solver("maceplay", 4, cp.MonteCarlo(samples=_core.MAX_SAMPLES, confidence=0))
    event = threading.Event()
    threading.Timer(0.2, event.set).start()
    start = time.perf_counter()
    with pytest.raises(CancelledError):
        bot.solve(HAND, cancel=event)
    assert time.perf_counter() - start < 3
    quick = cp.Solver("maceplay", 4, cp.MonteCarlo(samples=50))
    assert quick.solve(HAND, cancel=threading.Event()).samples > 0  # not set: as usual
    with pytest.raises(cp.exceptions.InvalidTypeError, match="cancel"):
        bot.solve(HAND, cancel=True)  # type: ignore[arg-type]


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SOURCES)}
    return subprocess.run(
        [sys.executable, "-m", "chinese_poker", *args],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=300,
    )  # fmt: skip


def test_the_command_line_duels_a_python_bot(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(
        textwrap.dedent(
            """
            import chinese_poker as cp

            def play(hand):
                return cp.solve(list(hand), "two_four", 2).as_decision()

            def fold(hand):
                return cp.Surrender()

            NOT_A_FUNCTION = 3
            """
        )
    )
    by_path = cli("duel", "mybot.py:play", "greedy", "--rules", "two_four", "--players", "2",
                  "--deals", "40", "--json", cwd=tmp_path)  # fmt: skip
    assert by_path.returncode == 0, by_path.stderr
    res = json.loads(by_path.stdout)
    assert res["a"] == "play" and res["deals"] == 40 and res["edge"] > 0
    assert res["provenance"]["policies"][0] == "mybot.play"
    assert res["provenance"]["tables"] == [None, None]
    by_module = cli("duel", "table", "mybot:play", "--rules", "two_four", "--players", "2",
                    "--deals", "40", "--json", cwd=tmp_path)  # fmt: skip
    assert by_module.returncode == 0, by_module.stderr
    assert json.loads(by_module.stdout)["same_share"] == 1.0  # the bot plays as the table
    sim = cli("simulate", "--rounds", "20", "--players", "2", "--rules", "two_four",
              "--policy", "mybot.py:play,greedy", "--no-progress", cwd=tmp_path)  # fmt: skip
    assert sim.returncode == 0, sim.stderr
    assert "tables: P0 -, P1 -" in sim.stdout
    for bad, says in (
        ("mybot.py:nope", "has no 'nope'"),
        ("mybot.py:NOT_A_FUNCTION", "is not a function"),
        ("missing.py:play", "does not exist"),
        ("no_such_module:play", "cannot load 'no_such_module'"),
        ("tablex", "unknown policy 'tablex'"),
    ):
        r = cli("duel", bad, "greedy", "--deals", "5", cwd=tmp_path)
        assert r.returncode == 2 and "argument A: " in r.stderr and says in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
    # a bot that surrenders every hand where the rules forbid it: the library's error, one line
    r = cli("duel", "mybot.py:fold", "greedy", "--deals", "5", cwd=tmp_path)
    assert r.returncode != 0 and "Traceback" not in r.stderr


def test_one_default_table_size_across_the_commands() -> None:
    from chinese_poker import cli as command_line

    parser = command_line.build_parser()
    subs = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for name in ("solve", "simulate", "duel", "demo"):
        action = subs[name]._option_string_actions["--players"]
        assert action.default == _core.DEFAULT_PLAYERS == 4, name


def test_tables_saved_under_an_old_key_still_serve_their_rule_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a rule set whose naturals were listed lowest first: before the core ranked them, its key
    # listed them in that order
    rules = cp.RuleSet.preset("two_four").replace(
        name="old", naturals={"values": {"six_pairs": 3, "dragon": 13}}
    )
    key = _core.tables_key(rules.compiled, 2)
    old_key = key.replace('"dragon":13,"six_pairs":3', '"six_pairs":3,"dragon":13')
    assert old_key != key and _core.canonical_tables_key(old_key) == key
    t = T.read_tables(T.shipped_tables_path("two_four", 2))  # type: ignore[arg-type]
    trained = {
        "front": t["front"], "middle": t["middle"], "back": t["back"],
        "scoop_rate": t["meta"]["scoop_rate"], "key": old_key,
        "model": json.dumps(t["meta"]["model"]),
    }  # fmt: skip
    saved = T.write_tables(tmp_path / "old.npz", trained, {"rules": "old", "players": 2})
    assert cp.Solver(rules, 2, tables=saved).tables.source == "file"  # type: ignore[union-attr]
    monkeypatch.setenv(T.TABLES_ENV, str(tmp_path / "user"))
    T.clear_cache()
    T.install_tables(saved)
    assert T.which_tables(rules, 2)[0] == "installed"
    assert cp.solve(HAND, rules, 2).tables.source == "installed"  # type: ignore[union-attr]
    T.clear_cache()
