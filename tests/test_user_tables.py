"""The user tables directory: where tables are installed (``CHINESE_POKER_TABLES`` or the
platform's user data directory), the order tables are looked up in, the modes files are written
with, the errors of a tables file for other rules, and training's progress log."""

from __future__ import annotations

import json
import os
import stat
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import platformdirs
import pytest
from chinese_poker import _core, cli
from chinese_poker import strategy_tables as T
from chinese_poker.exceptions import InvalidTablesError, OutputError

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
# maceplay with one bonus changed: a middle quads pays 12, not 8
HOUSE = cp.RuleSet.preset("maceplay").replace(
    name="house", bonus={"middle": {"full_house": 2, "quads": 12, "straight_flush": 10}}
)


@pytest.fixture
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty user tables directory of this test's own, and no tables loaded before."""
    directory = tmp_path / "user-tables"
    monkeypatch.setenv(T.TABLES_ENV, str(directory))
    T.clear_cache()
    yield directory
    T.clear_cache()


def tables_for(path: Path, rules: cp.RuleSet, players: int, source: str) -> Path:
    """A tables file for ``rules`` at ``players`` holding the shipped tables of the preset
    ``source`` at that size: real tables, told apart by what they solve to."""
    shipped = T.shipped_tables_path(source, players)
    assert shipped is not None
    t = T.read_tables(shipped)
    trained = {
        "front": t["front"],
        "middle": t["middle"],
        "back": t["back"],
        "scoop_rate": t["meta"]["scoop_rate"],
        "key": _core.tables_key(rules.compiled, players),
        "model": json.dumps(t["meta"]["model"]),
    }
    meta = {"rules": rules.name, "players": players, "wheel": rules.wheel, "converged": True}
    return T.write_tables(path, trained, meta)


def value(rules: cp.RuleSet | str, players: int, tables: Path | None = None) -> float:
    return float(cp.Solver(rules, players, tables=tables).solve(HAND).value)


def test_the_directory_is_the_variable_else_the_platform_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(T.TABLES_ENV, str(tmp_path / "club"))
    assert T.user_tables_dir() == tmp_path / "club"
    for unset in (None, ""):  # unset or empty: the platform's directory
        if unset is None:
            monkeypatch.delenv(T.TABLES_ENV)
        else:
            monkeypatch.setenv(T.TABLES_ENV, unset)
        expected = Path(platformdirs.user_data_dir("chinese-poker", appauthor=False)) / "tables"
        assert T.user_tables_dir() == expected
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
        assert T.user_tables_dir() == tmp_path / "data" / "chinese-poker" / "tables"


def test_an_edited_rule_set_has_its_own_key() -> None:
    base = cp.RuleSet.preset("maceplay")
    assert _core.tables_key(HOUSE.compiled, 4) != _core.tables_key(base.compiled, 4)
    assert _core.tables_key(HOUSE.compiled, 4) != _core.tables_key(HOUSE.compiled, 3)
    # a new name or description changes nothing the tables depend on: the same tables serve it
    renamed = base.replace(name="our club", description="ours")
    assert _core.tables_key(renamed.compiled, 4) == _core.tables_key(base.compiled, 4)


def test_lookup_order_given_file_installed_shipped_fallback(user: Path, tmp_path: Path) -> None:
    # nothing trained for the house: the plain tables, with the warning
    with pytest.warns(UserWarning, match="no tables were trained for rule set 'house'"):
        fallback = value(HOUSE, 2)
    plain = T.shipped_tables_path(cp.RuleSet(), 2)
    assert plain is not None
    # installed: found by the key, no warning, the installed file's values
    installed = T.install_tables(tables_for(tmp_path / "a.npz", HOUSE, 2, "one_six"))
    assert installed.parent == user and T.installed_tables_path(HOUSE, 2) == installed
    assert T.installed_tables_path(HOUSE, 3) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = value(HOUSE, 2)
        solved = cp.solve(HAND, HOUSE, 2).value  # the cached solvers were cleared by install
    assert found == value(HOUSE, 2, installed) == solved != fallback
    # a file the caller names comes first
    other = tables_for(tmp_path / "b.npz", HOUSE, 2, "two_four")
    assert value(HOUSE, 2, other) not in (found, fallback)
    # installed tables come before the shipped ones of a preset, but only when meant to
    shipped = value("maceplay", 2)
    over = tables_for(tmp_path / "m.npz", cp.RuleSet.preset("maceplay"), 2, "one_six")
    with pytest.raises(cp.exceptions.InvalidArgumentError, match="replace_shipped") as refused:
        T.install_tables(over)
    assert "maceplay@2" in str(refused.value) and refused.value.argument == "replace_shipped"
    assert value("maceplay", 2) == shipped and len(T.installed_tables()) == 1
    T.install_tables(over, replace_shipped=True)
    assert value("maceplay", 2) not in (shipped, fallback)
    entries = T.installed_tables()
    assert [(e["rules"], e["players"]) for e in entries] == [("house", 2), ("maceplay", 2)]
    assert [e["shadows"] for e in entries] == [[], ["maceplay@2"]]
    # reinstalling tables of a key replaces them, in place
    again = T.install_tables(other)
    assert again == installed and len(T.installed_tables()) == 2
    assert value(HOUSE, 2) == value(HOUSE, 2, other)


def test_files_are_written_0666_less_the_umask(user: Path, tmp_path: Path) -> None:
    for umask, mode in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o664)):
        before = os.umask(umask)
        try:
            made = tables_for(tmp_path / f"t{umask:o}.npz", HOUSE, 2, "one_six")
            installed = T.install_tables(made)
        finally:
            os.umask(before)
        for path in (made, installed, user / T.INDEX_FILE):
            assert stat.S_IMODE(path.stat().st_mode) == mode, (path, oct(umask))
        assert not list(user.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))


def test_a_file_for_other_rules_names_the_file_and_both_keys(tmp_path: Path) -> None:
    made = tables_for(tmp_path / "house-2p.npz", HOUSE, 2, "one_six")
    for rules, players in ((cp.RuleSet.preset("maceplay"), 2), (HOUSE, 4)):
        with pytest.raises(InvalidTablesError) as e:
            T.load_tables(rules, players, made)
        text = str(e.value)
        assert f"tables file {str(made)!r} was trained for another rule set or table size" in text
        assert _core.tables_key(HOUSE.compiled, 2) in text
        assert _core.tables_key(rules.compiled, players) in text
    assert "(they differ in sweep.multiplier, players, sweep)" in text  # the sweep plays at 4
    with pytest.raises(InvalidTablesError, match="differ in middle"):
        cp.simulate(4, 2, "maceplay", [cp.TableEV(made), cp.Greedy()], progress=False)


def test_the_cli_names_tables_that_do_not_fit(tmp_path: Path, capsys: Any) -> None:
    made = str(tables_for(tmp_path / "house-2p.npz", HOUSE, 2, "one_six"))
    for argv in (
        ["solve", HAND, "--players", "2", "--tables", made],
        ["simulate", "--rounds", "2", "--players", "2", "--tables", made],
        ["duel", "table", "greedy", "--deals", "2", "--tables", made],
        ["demo", "--players", "2", "--tables", made],
    ):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert f"error: argument --tables: tables file {made!r} was trained for" in err, argv
    assert cli.main(["duel", "greedy", "random", "--deals", "2", "--tables", made]) == 2
    assert "no policy given uses strategy tables (table and mc do)" in capsys.readouterr().err
    missing = str(tmp_path / "none.npz")
    assert cli.main(["solve", HAND, "--tables", missing]) == 2
    assert f"argument --tables: tables file {missing!r}: cannot be read" in capsys.readouterr().err


def test_a_damaged_index_or_unusable_directory_is_named(user: Path, tmp_path: Path) -> None:
    user.mkdir()
    (user / T.INDEX_FILE).write_text("{not json")
    with pytest.raises(InvalidTablesError, match="tables index .*tables.json.*cannot be read"):
        T.load_tables(HOUSE, 2)
    (user / T.INDEX_FILE).write_text(json.dumps({"tables": [{"key": "k", "file": "../x.npz"}]}))
    with pytest.raises(InvalidTablesError, match='entry 0 has no "key" and "file"'):
        T.installed_tables()
    with pytest.raises(InvalidTablesError, match="not a tables file"):
        T.install_tables(user / T.INDEX_FILE)
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    os.environ[T.TABLES_ENV] = str(blocked)  # restored by the fixture's monkeypatch
    made = tables_for(tmp_path / "h.npz", HOUSE, 2, "one_six")
    with pytest.raises(OutputError, match=f"cannot be written .*set {T.TABLES_ENV}"):
        T.install_tables(made)


def test_concurrent_installs_keep_every_entry(user: Path, tmp_path: Path) -> None:
    files = [
        tables_for(tmp_path / f"{name}-{n}.npz", cp.RuleSet.preset(name), n, name)
        for name in ("maceplay", "one_six")
        for n in (2, 3, 4)
    ]
    done: list[Path] = []
    threads = [
        threading.Thread(target=lambda f=f: done.append(T.install_tables(f, replace_shipped=True)))
        for f in files
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(done) == len(files)
    assert {e["file"] for e in T.installed_tables()} == {p.name for p in done}
    assert len(set(done)) == len(files)


def test_training_installs_and_logs_each_phase(user: Path) -> None:
    calls: list[tuple[str, int, dict[str, Any]]] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # too few deals to converge
        res = T.train_tables(
            HOUSE, 2, seed=1, deals=20, calibration_hands=400, calibration_iters=2,
            install=True, progress=lambda *call: calls.append(call),
        )  # fmt: skip
    meta = res["meta"]
    assert Path(meta["installed"]) == Path(meta["path"]) == T.installed_tables_path(HOUSE, 2)
    phases = [c[0] for c in calls]
    assert phases == [T.FICTITIOUS_PLAY] * meta["iterations"] + [T.CALIBRATION] * 2
    assert [c[1] for c in calls] == [*range(1, meta["iterations"] + 1), 1, 2]
    assert [c[2]["delta"] for c in calls[:-2]] == pytest.approx(meta["deltas"], abs=1e-5)
    for (_, _, report), step in zip(calls[-2:], meta["calibration"], strict=True):
        assert report["steps"] == 2
        assert {k: round(report[k], 5) for k in step} == step
    with pytest.raises(cp.exceptions.InvalidTypeError, match="install"):
        T.train_tables(HOUSE, 2, deals=1, install=1)  # type: ignore[arg-type]


def test_improving_shipped_tables_records_what_it_measured(tmp_path: Path) -> None:
    shipped = T.shipped_tables_path("maceplay", 2)
    assert shipped is not None
    calls: list[tuple[str, int, dict[str, Any]]] = []
    res = T.train_tables(
        "maceplay", 2, start=shipped, improve_hands=60, improve_samples=32,
        calibration_hands=200, calibration_iters=1, out=tmp_path / "m2.npz",
        progress=lambda *call: calls.append(call),
    )  # fmt: skip
    meta = res["meta"]
    assert [c[0] for c in calls] == [T.IMPROVEMENT, T.CALIBRATION]
    imp = meta["improvement"]
    assert imp == {k: round(v, 5) if isinstance(v, float) else v for k, v in calls[0][2].items()}
    assert imp["hands"] + imp["skipped"] == 60 and imp["samples"] == 32
    assert imp["held_out_hands"] == imp["hands"] // 3
    assert imp["kept"] == (imp["held_out_gain"] > 0)
    assert meta["start"] == {"digest": T.load_tables("maceplay", 2).digest}
    assert meta["iterations"] == 0 and meta["converged"] is True  # no fictitious play to run
    written = T.read_tables(tmp_path / "m2.npz")
    assert written["meta"]["improvement"] == imp
    old = T.read_tables(shipped)
    same = all(np.array_equal(written[r], old[r]) for r in ("front", "middle", "back"))
    assert same != imp["kept"]
    # the same again: deterministic for the seed
    again = T.train_tables(
        "maceplay", 2, start=shipped, improve_hands=60, improve_samples=32,
        calibration_hands=200, calibration_iters=1, threads=1,
    )  # fmt: skip
    assert again["meta"]["improvement"] == imp
    assert np.array_equal(again["middle"], res["middle"])


def test_the_cli_improves_from_a_start_file(tmp_path: Path, capsys: Any) -> None:
    shipped = str(T.shipped_tables_path("two_four", 2))
    out_file = tmp_path / "t2.npz"
    args = ["tables", "train", "--rules", "two_four", "--players", "2", "--start", shipped,
            "--improve-hands", "45", "--improve-samples", "16", "--out", str(out_file)]  # fmt: skip
    assert cli.main(args) == 0
    log = capsys.readouterr().out
    assert "improvement: " in log and "hands valued (16 samples each)" in log
    assert "fictitious play" not in log
    assert f"wrote {out_file}" in log
    assert "improvement" in T.read_tables(out_file)["meta"]
    for bad, named in [
        (["--start", str(tmp_path / "none.npz")], "--start"),
        (["--start", str(T.shipped_tables_path("two_four", 4))], "--start"),
        (["--improve-hands", "-1"], "--improve-hands"),
        (["--improve-samples", "1"], "--improve-samples"),
    ]:
        argv = ["tables", "train", "--rules", "two_four", "--players", "2",
                "--out", str(tmp_path / "x.npz"), *bad]  # fmt: skip
        assert _exit_code(argv) == 2, bad
        assert f"argument {named}" in capsys.readouterr().err
    argv = ["tables", "train", "--all", "--improve-hands", "10", "--out", str(tmp_path)]
    assert _exit_code(argv) == 2
    assert "argument --improve-hands: applies without --all" in capsys.readouterr().err
    assert not (tmp_path / "x.npz").exists()


def _exit_code(argv: list[str]) -> int | str | None:
    try:
        return cli.main(argv)
    except SystemExit as e:  # argparse's own checks of a value
        return e.code


def test_progress_text_names_the_phase_and_its_figure() -> None:
    assert T.progress_text("fictitious_play", 3, {"delta": 0.01234, "converged": False}) == (
        "fictitious play, iteration 3: largest move 0.0123 (stops below 0.01)"
    )
    assert T.progress_text("fictitious_play", 10, {"delta": 0.004, "converged": True}) == (
        "fictitious play, iteration 10: largest move 0.0040 (stops below 0.01)\n"
        "converged after 10 iterations"
    )
    last = T.progress_text("fictitious_play", T.MAX_ITERATIONS, {"delta": 0.2, "converged": False})
    assert last.endswith(
        f"\nstopped at the limit of {T.MAX_ITERATIONS} iterations without converging"
    )
    step = {
        "steps": 2,
        "hands": 10,
        "mean_predicted": 0.1,
        "worst_decile_gap": 0.41,
        "moved": 2.60831,
    }
    assert T.progress_text("calibration", 1, step) == (
        "calibration step 1 of 2: map moved 2.6083 points, worst decile gap 0.41"
    )
    improved = {
        "hands": 9000,
        "skipped": 120,
        "samples": 1000,
        "fitted_gain": 0.01234,
        "held_out_gain": 0.0105,
        "held_out_interval": 0.005,
        "held_out_hands": 2960,
        "changed": 0.0712,
        "kept": True,
    }
    assert T.progress_text("improvement", 1, improved) == (
        "improvement: 9,000 hands valued (1,000 samples each); gain +0.0123 points a hand where "
        "fitted, +0.0105 ± 0.0050 on 2,960 held out, 7.1% of plays changed; kept"
    )
    assert T.progress_text("improvement", 1, dict(improved, kept=False)).endswith(
        "; not kept: the tables are unchanged"
    )
    assert _core.TRAINING_PHASES == (T.FICTITIOUS_PLAY, T.IMPROVEMENT, T.CALIBRATION)


def test_tables_install_and_list_commands(user: Path, tmp_path: Path, capsys: Any) -> None:
    assert cli.main(["tables", "list"]) == 0
    assert capsys.readouterr().out == f"no tables installed in {user}\n"
    made = tables_for(tmp_path / "house-2p.npz", HOUSE, 2, "one_six")
    assert cli.main(["tables", "install", str(made)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"installed {user / T._file_name(_core.tables_key(HOUSE.compiled, 2))}")
    assert out.endswith(": used for rule set 'house' at 2 players\n")
    assert cli.main(["tables", "list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0] == f"tables installed in {user}:"
    assert listed[-1].split() == ["house", T.installed_tables()[0]["file"], "yes", "2", "-"]
    assert cli.main(["tables", "install", str(tmp_path / "none.npz")]) == 2
    assert "argument FILE: tables file" in capsys.readouterr().err
    assert cli.main(["tables", "train", "--all", "--install"]) == 2
    assert "argument --install: " in capsys.readouterr().err


def test_train_install_with_out_keeps_a_copy(user: Path, tmp_path: Path, capsys: Any) -> None:
    copy = tmp_path / "one_six-2p.npz"
    argv = ["tables", "train", "--rules", "one_six", "--players", "2", "--deals", "20"]
    # one_six's own key: refused before any training, without --replace-shipped
    assert cli.main([*argv, "--install", "--out", str(copy)]) == 2
    err = capsys.readouterr().err
    assert "argument --install:" in err and "--replace-shipped" in err and "one_six@2" in err
    assert not copy.exists() and T.installed_tables_path("one_six", 2) is None
    assert cli.main([*argv, "--replace-shipped"]) == 2
    assert "--replace-shipped: applies with --install only" in capsys.readouterr().err
    assert cli.main([*argv, "--install", "--replace-shipped", "--out", str(copy)]) == 0
    wrote, installed = capsys.readouterr().out.splitlines()[-2:]
    installed_path = T.installed_tables_path("one_six", 2)
    assert installed_path is not None and installed_path.parent == user
    assert wrote.startswith(f"wrote {copy} (") and " iterations, " in wrote
    assert installed == f"installed {installed_path}: used for rule set 'one_six' at 2 players"
    assert copy.read_bytes() == installed_path.read_bytes()


def test_a_copied_preset_trained_and_installed_leaves_the_preset_playing(
    user: Path, tmp_path: Path, capsys: Any
) -> None:
    # the natural order of a club's work: copy a preset, train and install before editing
    club = cp.RuleSet.preset("maceplay").replace(name="our club")
    before = cp.solve(HAND, "maceplay", 2)
    with pytest.raises(cp.exceptions.InvalidArgumentError, match="maceplay@2"):
        T.train_tables(club, 2, deals=1, install=True)
    assert T.installed_tables() == [] and cp.solve(HAND, "maceplay", 2) == before
    assert before.tables is not None and before.tables.source == "shipped"
    house = club.replace(bonus={"middle": {"full_house": 2, "quads": 12, "straight_flush": 10}})
    (tmp_path / "club.json").write_text(house.to_json())
    assert cli.main(["tables", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tables"] == []


def test_every_solving_command_takes_tables(tmp_path: Path) -> None:
    parser = cli.build_parser()
    for command in ("solve", "simulate", "duel", "demo"):
        sub = parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
        assert "--tables" in sub._option_string_actions, command
    assert np.isfinite(value(HOUSE, 2, tables_for(tmp_path / "x.npz", HOUSE, 2, "one_six")))
