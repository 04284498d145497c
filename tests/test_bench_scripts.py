"""The report scripts in benches/ run end to end at tiny sizes (their real runs are long)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHES = Path(__file__).resolve().parent.parent / "benches"


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_quality_report_prints_its_tables() -> None:
    out = _run(
        str(BENCHES / "quality_report.py"),
        *("--greedy-deals", "60", "--duel-deals", "3", "--duel-presets", "shisanshui"),
        *("--seeds", "4", "5", "--br-hands", "4", "--br-samples", "30"),
        *("--br-presets", "two_four", "--br-players", "2", "--calibration-rounds", "100"),
    )
    assert "| TableEV vs Greedy | two_four | 2 | 4 | 60 | +" in out
    for seed in (4, 5):  # every duel names its seed and deals, with its interval
        row = (
            rf"^\| MonteCarlo\(\) vs {{}} \| shisanshui \| {{}} \| {seed} \| 3 \| [+-][\d.]+ \| \["
        )
        assert re.search(row.format("TableEV", 2), out, re.M), out
        assert re.search(row.format("3 TableEV", 4), out, re.M), out
    for policy in ("TableEV()", "MonteCarlo()"):
        gap = rf"^\| two_four \| 2 \| 4 \| \d+ \(\d+\) \| {re.escape(policy)} \| [+-][\d.]+ \| \["
        assert re.search(gap, out, re.M), out
    assert out.count("| maceplay |") == 3  # calibration at 2, 3 and 4 players


def _head() -> str:
    """This checkout's commit (short), or a skip where there is none to take tables from."""
    head = subprocess.run(
        ["git", "-C", str(BENCHES.parent), "rev-parse", "--short", "HEAD"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if head.returncode:
        pytest.skip("not a git checkout: no commit to take tables from")
    return head.stdout.strip()


def test_quality_report_duels_the_tables_of_a_commit() -> None:
    root = BENCHES.parent
    ref = _head()
    out = _run(
        str(BENCHES / "quality_report.py"),
        *("--greedy-deals", "0", "--duel-deals", "0", "--duel-presets", "two_four"),
        *("--tables-ref", ref, "--tables-deals", "40", "--br-hands", "0"),
        *("--calibration-rounds", "0", "--seeds", "3"),
    )
    import chinese_poker as cp
    from chinese_poker import strategy_tables as T

    for players, vs in ((2, f"TableEV({ref})"), (4, f"3 TableEV({ref})")):
        row = re.search(
            rf"^\| TableEV\(\) vs {re.escape(vs)} \| two_four \| {players} \| 3 \| 40 \| "
            r"([+-][\d.]+) \|",
            out,
            re.M,
        )
        assert row, out
        shipped = T.shipped_tables_path("two_four", players)
        assert shipped is not None
        committed = subprocess.run(
            ["git", "-C", str(root), "show", f"HEAD:python/chinese_poker/data/{shipped.name}"],
            capture_output=True, check=False,
        ).stdout  # fmt: skip
        if committed == shipped.read_bytes():  # the same tables on both sides: no edge at all
            assert float(row.group(1)) == 0.0, out
    assert cp.__version__  # the package that ran the script is the one tested
    bad = subprocess.run(
        [sys.executable, str(BENCHES / "quality_report.py"), "--tables-ref", "no-such-ref",
         "--greedy-deals", "0", "--duel-deals", "0", "--br-hands", "0",
         "--calibration-rounds", "0"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode != 0 and "--tables-ref no-such-ref" in bad.stderr


def test_tables_speed_prints_a_ratio_per_preset() -> None:
    out = _run(
        str(BENCHES / "tables_speed.py"), "--ref", _head(), "--presets", "two_four",
        *("--players", "2", "4", "--hands", "20", "--rounds", "2", "--repeats", "1"),
    )  # fmt: skip
    for players in (2, 4):
        assert re.search(rf"^\| two_four \| {players} \| [\d.]+ \([\d.]+–[\d.]+\) \| [\d,]+ \|$",
                         out, re.M), out  # fmt: skip
    mc = _run(
        str(BENCHES / "tables_speed.py"), "--ref", _head(), "--objective", "mc",
        *("--presets", "two_four", "--players", "2", "--hands", "3", "--rounds", "1"),
    )  # fmt: skip
    assert "MonteCarlo(threads=1)" in mc
    assert re.search(r"^\| two_four \| 2 \| [\d.]+ \([\d.]+–[\d.]+\) \| [\d,]+ \|$", mc, re.M), mc


def _against_itself(script: str, options: str) -> str:
    """A comparison script run with the current package on both sides (no reference build)."""
    import chinese_poker as cp

    package = str(Path(cp.__file__).resolve().parent.parent)
    return _run(str(BENCHES / script), "--ref-path", package, *options.split())


def test_simulate_costs_prints_its_ratios() -> None:
    out = _run(str(BENCHES / "simulate_costs.py"), "--rounds", "40", "--repeats", "1")
    for line in (
        "round / (4 solves + settle)",
        "2 threads speed-up",
        "Parquet streaming",
        "Python seat overhead",
        "duel Python / built-in",
    ):
        assert line in out


def test_compare_wheel_runs_its_comparison_against_itself() -> None:
    # The current package on both sides (no reference build): the comparison, the tables it
    # picks and its checks run; both sides must set every hand alike.
    out = _against_itself("compare_wheel.py", "--hands 300 --rounds 1 --mc-hands 2 --mc-samples 20")
    assert "identical settings: 300 of 300 hands (100.0%)" in out
    assert "differing settings with tied values: 0" in out
    assert "Monte Carlo values identical: 2 of 2 hands" in out
    assert "median ratio" in out


def test_compare_wheel_times_both_wheels_in_one_process() -> None:
    # --together: the reference imported beside the current package under another name, every
    # preset's like-for-like and own-tables rows, both wheels setting every hand alike.
    out = _against_itself(
        "compare_wheel.py",
        "--hands 200 --rounds 2 --chunk 50 --mc-hands 0 --together --presets two_four "
        "pokerfever_eastern --players 2 4 --own-tables",
    )
    assert out.count("(both wheels in one process, alternating by chunks of 50 hands)") == 4
    assert out.count("identical settings: 200 of 200 hands (100.0%)") == 4
    for preset in ("two_four", "pokerfever_eastern"):
        for players in (2, 4):
            for kind in ("reference", "own"):
                assert re.search(rf"{preset} +{players} {kind} ", out), (preset, players, kind)


def test_compare_boundary_runs_its_comparison_against_itself() -> None:
    # The current package on both sides, tiny sizes: every preset at 2 and 4 players is timed
    # and reported, and both sides must set every hand and settle every round alike.
    from chinese_poker import _core

    out = _against_itself(
        "compare_boundary.py", "--hands 30 --calls 3 --settle-calls 5 --repeats 1 --rounds 1"
    )
    for preset in _core.PRESET_NAMES:
        for measure, sizes in (
            ("settle, 4 players (per call)", (4,)),
            ("Solver.solve (per hand)", (2, 4)),
            ("cp.solve (per hand)", (2, 4)),
            ("solve_batch, threads=1 (per hand)", (2, 4)),
            ("solve_batch of one hand (per call)", (2, 4)),
        ):
            for players in sizes:
                assert f"| {measure} | {preset} | {players} |" in out, (measure, preset)
    assert "lowest median ratio" in out
    assert "both sides set every batch hand alike and settled every round alike" in out


def test_compare_wheel_rekeys_a_reference_commits_tables(tmp_path: Path) -> None:
    # A reference commit's tables carry the key format of its day, which the current wheel
    # refuses; the bench gives the current side a copy under its own key, same distributions.
    import importlib.util
    import json

    import chinese_poker as cp
    import numpy as np
    import pytest
    from chinese_poker.exceptions import InvalidTablesError
    from chinese_poker.strategy_tables import read_tables, shipped_tables_path, write_tables

    spec = importlib.util.spec_from_file_location("compare_wheel", BENCHES / "compare_wheel.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    shipped = shipped_tables_path("two_four", 2)
    assert shipped is not None
    tables = read_tables(shipped)
    meta = dict(tables.pop("meta"))
    model = meta.pop("model", None)
    trained = dict(
        tables,
        key="an older key",
        scoop_rate=meta.pop("scoop_rate"),
        model=None if model is None else json.dumps(model),
    )
    meta.pop("key")
    old = write_tables(tmp_path / "old.npz", trained, meta)
    deck = np.tile(np.arange(52, dtype=np.uint8), (40, 1))
    hands = np.random.default_rng(5).permuted(deck, axis=1)[:, :13]
    with pytest.raises(InvalidTablesError, match="an older key"):
        cp.solve_batch(hands, "two_four", 2, cp.TableEV(tables=old))
    rekeyed = bench._rekeyed(cp, str(old), "two_four", 2, tmp_path / "cur0.npz")
    assert rekeyed != str(old)
    assert bench._rekeyed(cp, rekeyed, "two_four", 2, tmp_path / "cur1.npz") == rekeyed
    ours = cp.solve_batch(hands, "two_four", 2, cp.TableEV(tables=rekeyed))
    shipped_batch = cp.solve_batch(hands, "two_four", 2, cp.TableEV(tables=shipped))
    assert np.array_equal(np.asarray(ours.values), np.asarray(shipped_batch.values))


def test_count_instructions_reports_a_hands_count_against_itself(tmp_path: Path) -> None:
    # valgrind stood in for by a script that runs the child as it is and reports 1,000
    # instructions a hand over a fixed start: the difference of the two runs over the hands
    # between must come out at exactly that, for both sides, with the hands set alike.
    fake = tmp_path / "valgrind"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import subprocess, sys\n"
        "args = [a for a in sys.argv[1:] if not a.startswith(('--tool=', '--callgrind-out'))]\n"
        "done = subprocess.run(args)\n"
        "hands = int(args[args.index('--hands') + 1])\n"
        "print(f'==1== Collected : {5_000_000 + 1_000 * hands}', file=sys.stderr)\n"
        "sys.exit(done.returncode)\n"
    )
    fake.chmod(0o755)
    import os

    import chinese_poker as cp

    package = str(Path(cp.__file__).resolve().parent.parent)
    done = subprocess.run(
        [sys.executable, str(BENCHES / "count_instructions.py"), "--ref-path", package]
        + ["--hands", "30", "--base", "10", "--players", "2", "3", "--own-tables"],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, PATH=f"{tmp_path}{os.pathsep}{os.environ['PATH']}"),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = re.findall(
        r"^two_four +(\d) (\w+) +([\d,]+) +([\d,]+) +([\d.]+)x +(.*)$", done.stdout, re.M
    )
    assert rows == [
        ("2", "reference", "1,000", "1,000", "1.00", "0 set apart"),
        ("2", "own", "1,000", "1,000", "1.00", "not compared"),
        ("3", "reference", "1,000", "1,000", "1.00", "0 set apart"),
        ("3", "own", "1,000", "1,000", "1.00", "not compared"),
    ], done.stdout


def test_per_call_gap_prints_its_table() -> None:
    out = _run(
        str(BENCHES / "per_call_gap.py"),
        "--hands",
        "20",
        "--repeats",
        "1",
        "--presets",
        "two_four",
        "maceplay",
        "--players",
        "2",
    )
    assert re.search(r"^\| two_four \| 2 \| [\d.]+ \| [+-][\d.]+ \| [+-][\d.]+ \|$", out, re.M)
    assert re.search(r"^\| maceplay \| 2 \| ", out, re.M)


def test_mc_call_cost_prints_its_table() -> None:
    out = _run(
        str(BENCHES / "mc_call_cost.py"),
        "--hands",
        "3",
        "--samples",
        "2",
        "6",
        "--repeats",
        "1",
        "--presets",
        "two_four",
        "--players",
        "2",
    )
    for threads in ("1", "all"):
        row = rf"^\| two_four \| 2 \| {threads} \| \d+ \| \d+ \| -?[\d.]+ \| -?\d+ \|$"
        assert re.search(row, out, re.M), out


def test_mc_hand_time_compares_the_default_monte_carlo_against_itself() -> None:
    out = _against_itself(
        "mc_hand_time.py", "--hands 3 --rounds 1 --chunk 2 --presets two_four --players 2"
    )
    # both sides are this package: the same samples a hand (mean, median) on either side
    row = re.search(
        r"^\| two_four \| 2 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| (\d+, \d+) \| (\d+, \d+) \|$",
        out,
        re.M,
    )
    assert row and row[1] == row[2], out


def test_fault_resume_kills_resumes_and_compares() -> None:
    import os

    import pytest

    if os.name != "posix":
        pytest.skip("signals to a child process: POSIX only")
    pytest.importorskip("pyarrow")
    out = _run(str(BENCHES / "fault_resume.py"), "--runs", "1", "--faults", "2", "--rounds", "4000")
    assert "1 of 1 identical to the uninterrupted run" in out
