"""Crash-safe simulation output: ``simulate(out=DIR)`` writes finished parts and a manifest,
checks its path before any work, refuses what it should, resumes exactly, and reads back; and
fault injection (Ctrl-C, a kill, a full disk) against an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _dataset, _runner
from chinese_poker.exceptions import (
    ChinesePokerError,
    InvalidArgumentError,
    InvalidTypeError,
    OutputError,
)
from chinese_poker.simulate import COLUMNS

pq = pytest.importorskip("pyarrow.parquet")

RULES = "maceplay"
POLICIES: list[Any] = [cp.Greedy(), cp.TableEV(), cp.Greedy()]


def _small_chunks(monkeypatch: pytest.MonkeyPatch, rounds: int = 100) -> None:
    """Chunks of ``rounds`` rounds, and a part after each (chunking never changes the rows)."""

    def chunks(total: int, seconds_per_chunk: float = 0.25) -> Any:
        return ((f, min(rounds, total - f)) for f in range(0, total, rounds))

    monkeypatch.setattr("chinese_poker._runner._chunks", chunks)
    monkeypatch.setattr("chinese_poker._runner._PART_ROWS", 1)


def _run(rounds: int, **kw: Any) -> cp.Simulation:
    return cp.simulate(rounds, 3, RULES, POLICIES, seed=5, progress=False, **kw)


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    for name in COLUMNS:
        assert np.array_equal(a[name], b[name], equal_nan=True), name


def _on_disk(path: Path) -> dict[str, np.ndarray]:
    """Every row any Parquet reader sees in ``path`` (not only the manifest's parts)."""
    return _dataset.numpy_columns(pq.read_table(path))


def test_out_writes_parts_and_a_manifest_and_reads_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _small_chunks(monkeypatch, 300)
    want = _run(1000)
    assert want.columns is not None
    run = _run(1000, out=tmp_path / "run")
    assert run.columns is None and run.rounds == 1000 and not run.interrupted
    assert run.summary() == want.summary()
    names = sorted(os.listdir(tmp_path / "run"))
    assert _dataset.MANIFEST in names and len(names) > 3  # several parts
    manifest = _dataset.load_manifest(tmp_path / "run")
    assert manifest["complete"] and manifest["done"] == 1000 and manifest["seed"] == 5
    assert manifest["schema_version"] == _dataset.SCHEMA_VERSION and manifest["players"] == 3
    assert manifest["package_version"] == cp.__version__
    ranges = [(p["first"], p["count"]) for p in manifest["parts"]]
    assert sum(c for _, c in ranges) == 1000
    assert all(a + n == b for (a, n), (b, _) in zip(ranges, ranges[1:], strict=False))
    # any Parquet reader sees the rows once, in order; read_simulation gives a Simulation
    _same(_on_disk(tmp_path / "run"), want.columns)
    back = cp.read_simulation(tmp_path / "run")
    assert back.columns is not None and back.rounds == 1000 and not back.interrupted
    _same(back.columns, want.columns)
    assert back.summary() == want.summary() and back.players == 3 and back.rules == RULES
    # a single file from to_parquet reads back too
    want.to_parquet(tmp_path / "one.parquet")
    one = cp.read_simulation(str(tmp_path / "one.parquet"))
    assert one.summary() == want.summary() and one.rounds == 1000


def test_out_is_checked_before_any_work(tmp_path: Path) -> None:
    calls: list[int] = []

    def counted(hand: np.ndarray) -> object:
        calls.append(1)
        return cp.solve(hand, RULES, 2).as_decision()

    def bad(out: Any, cls: type[Exception] = InvalidArgumentError, **kw: Any) -> str:
        with pytest.raises(cls) as e:
            cp.simulate(50, 2, RULES, [counted, cp.Greedy()], progress=False, out=out, **kw)
        assert isinstance(e.value, ChinesePokerError) and e.value.argument in (
            "out",
            "resume",
            "overwrite",
        )
        return str(e.value)

    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert "holds no simulation" in bad(tmp_path / "other")
    assert "holds no simulation" in bad(tmp_path / "other", overwrite=True)
    assert "does not exist" in bad(tmp_path / "missing" / "run")
    assert "expected a path" in bad("")
    assert "expected a path" in bad(5, InvalidTypeError)
    assert "expected a path" in bad(b"run", InvalidTypeError)
    assert "True or False" in bad(tmp_path / "r", InvalidTypeError, resume=1)
    assert "not both" in bad(tmp_path / "r", resume=True, overwrite=True)
    assert calls == []  # not one decision was made
    assert (tmp_path / "other" / "notes.txt").read_text() == "mine"
    with pytest.raises(InvalidArgumentError, match='"out"'):
        cp.simulate(5, progress=False, resume=True)


def test_existing_output_is_refused_unless_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(30, out=out)
    with pytest.raises(InvalidArgumentError, match="overwrite=True") as e:
        _run(30, out=out)
    assert e.value.argument == "out"
    replaced = _run(20, out=out, overwrite=True)
    assert replaced.rounds == 20 and cp.read_simulation(out).rounds == 20
    # a file at `out` is replaced with overwrite only
    (tmp_path / "file.parquet").write_bytes(b"x")
    with pytest.raises(InvalidArgumentError, match="overwrite=True"):
        _run(10, out=tmp_path / "file.parquet")
    assert _run(10, out=tmp_path / "file.parquet", overwrite=True).rounds == 10
    assert (tmp_path / "file.parquet").is_dir()
    # an empty folder is used as it is
    (tmp_path / "empty").mkdir()
    assert _run(10, out=tmp_path / "empty").rounds == 10


def test_resume_refuses_another_run_and_continues_the_same(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = _run(100, out=out, resume=True)  # nothing there yet: starts the run
    assert first.rounds == 100
    for other in (
        {"seed": 6},
        {"rules": "two_four"},
        {"policies": [cp.Greedy()] * 3},
        {"rounds": 101},
    ):
        kw = {"rounds": 100, "players": 3, "rules": RULES, "policies": POLICIES, "seed": 5}
        kw.update(other)
        with pytest.raises(InvalidArgumentError, match="another run") as e:
            cp.simulate(**kw, progress=False, out=out, resume=True)
        assert e.value.argument == "out"
    again = _run(100, out=out, resume=True)  # complete: nothing to play, the same result
    assert again.rounds == 100 and again.summary() == first.summary()


def test_zero_rounds_writes_a_valid_empty_result(tmp_path: Path) -> None:
    run = _run(0, out=tmp_path / "zero")
    assert run.rounds == 0 and not run.interrupted and run.parquet == tmp_path / "zero"
    assert pq.read_table(tmp_path / "zero").num_rows == 0
    back = cp.read_simulation(tmp_path / "zero")
    assert back.rounds == 0 and back.columns is not None and len(back.columns["points"]) == 0


def test_read_simulation_refuses_what_is_not_a_simulation(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(InvalidArgumentError, match="not a simulation directory"):
        cp.read_simulation(tmp_path / "d")
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        cp.read_simulation(tmp_path / "nothing")
    with pytest.raises(InvalidTypeError):
        cp.read_simulation(5)  # type: ignore[arg-type]
    (tmp_path / "x.parquet").write_bytes(b"not parquet")
    with pytest.raises(InvalidArgumentError, match="not a Parquet file"):
        cp.read_simulation(tmp_path / "x.parquet")
    pq.write_table(_dataset.arrow_table({"a": np.zeros(3)}, ["a"]), tmp_path / "y.parquet")
    with pytest.raises(InvalidArgumentError, match="not a simulation written"):
        cp.read_simulation(tmp_path / "y.parquet")


def test_a_part_written_but_not_listed_is_adopted_and_a_stray_one_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kill between a part's rename and the manifest: the part is whole and named, the
    manifest does not list it. Resuming adopts it (no round played twice); a stale part of
    another run, or a temporary file, is removed."""
    _small_chunks(monkeypatch)
    want = _run(400)
    out = tmp_path / "run"
    _run(400, out=out)
    manifest = _dataset.load_manifest(out)
    dropped = manifest["parts"].pop()  # as if killed before this part reached the manifest
    manifest["done"] -= dropped["count"]
    manifest["complete"] = False
    _dataset.store_manifest(out, manifest)
    (out / ".part-0000000000007.1.tmp").write_bytes(b"half a part")
    stray = _dataset.part_name(10**9)
    (out / stray).write_bytes(b"an old run's part")
    assert cp.read_simulation(out).interrupted
    calls: list[int] = []
    monkeypatch.setattr("chinese_poker._runner._chunk_columns", lambda *a: calls.append(1) or {})
    resumed = _run(400, out=out, resume=True)
    assert calls == [] and resumed.rounds == 400 and not resumed.interrupted
    assert sorted(os.listdir(out)) == sorted(
        [p["file"] for p in manifest["parts"]] + [dropped["file"], _dataset.MANIFEST]
    )
    assert want.columns is not None
    _same(_on_disk(out), want.columns)
    assert resumed.summary() == want.summary()


def test_a_full_disk_is_an_output_error_and_keeps_the_finished_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _small_chunks(monkeypatch)
    real = _dataset.write_part
    written: list[int] = []

    def fills_up(*args: Any) -> Any:
        if len(written) == 2:
            raise_from = OSError(28, "No space left on device")
            try:
                raise raise_from
            except OSError as e:
                raise OutputError(f"writing failed: {e}") from e
        written.append(1)
        return real(*args)

    monkeypatch.setattr(_dataset, "write_part", fills_up)
    want = _run(1000)
    with pytest.raises(OutputError, match="resume=True") as e:
        _run(1000, out=tmp_path / "run")
    assert isinstance(e.value, OSError)
    monkeypatch.setattr(_dataset, "write_part", real)
    back = cp.read_simulation(tmp_path / "run")
    assert back.interrupted and back.rounds == 200  # two parts of 100 rounds
    assert back.columns is not None and want.columns is not None
    _same(back.columns, {k: v[: 200 * 3] for k, v in want.columns.items()})


# -- fault injection in a real process ---------------------------------------------------------

CHILD = r"""
import os, resource, signal, sys
import chinese_poker as cp
from chinese_poker import _dataset, _runner

out, fault = sys.argv[1], sys.argv[2]
_runner._PART_ROWS = 1500  # many small parts, so that faults land between and inside them
_runner._PART_SECONDS = 0.05
# chunks of 500 rounds whatever the machine's speed (sized by time, a fast machine played the
# run in three chunks, and the fault came after the last part)
_runner._chunks = lambda total, s=0.25: ((f, min(500, total - f)) for f in range(0, total, 500))
if fault == "disk":
    # parts of the same size whatever the machine's load: chunks of 200 rounds (chunking never
    # changes the rows), a part every 600 rounds (about 65 kB), never cut by time
    _runner._chunks = lambda total, *a: ((f, min(200, total - f)) for f in range(0, total, 200))
    _runner._PART_ROWS, _runner._PART_SECONDS = 1800, 1e9
    # after the third part the file system refuses files above 16 kB: every later part is
    # larger and fails, the manifest (a few kB) does not: a disk that fills up
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    real, parts = _dataset.write_part, []
    def write_part(*a):
        if len(parts) == 3:
            resource.setrlimit(resource.RLIMIT_FSIZE, (16_000, 16_000))
        parts.append(1)
        return real(*a)
    _dataset.write_part = write_part
print("ready", flush=True)
try:
    run = cp.simulate(ROUNDS, 3, "maceplay", [cp.Greedy(), cp.TableEV(), cp.Greedy()],
                      seed=5, progress=False, out=out, resume=fault == "resume")
    print("returned", run.rounds, run.interrupted, flush=True)
except cp.exceptions.OutputError as e:
    print("OutputError", e, flush=True)
"""

ROUNDS = 40_000


def _child(out: Path, fault: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD.replace("ROUNDS", str(ROUNDS)), str(out), fault],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


@pytest.fixture(scope="module")
def uninterrupted() -> dict[str, np.ndarray]:
    run = cp.simulate(
        ROUNDS, 3, "maceplay", [cp.Greedy(), cp.TableEV(), cp.Greedy()], seed=5,
        progress=False,
    )  # fmt: skip
    assert run.columns is not None
    return run.columns


def _check_prefix_rows(out: Path, want: dict[str, np.ndarray]) -> int:
    """The rows on disk are rows of the uninterrupted run, none lost from a finished part and
    none twice; returns how many rounds they hold."""
    got = _on_disk(out)
    rounds = got["round"]
    keys = rounds * 3 + got["seat"]
    assert len(np.unique(keys)) == len(keys), "a row written twice"
    assert np.all(np.diff(keys.astype(np.int64)) > 0), "rows out of order"
    idx = keys.astype(np.int64)
    for name in COLUMNS:
        assert np.array_equal(got[name], want[name][idx], equal_nan=True), name
    manifest = _dataset.load_manifest(out)
    listed = sum(p["count"] for p in manifest["parts"])
    assert listed * 3 <= len(keys)  # every part the manifest lists is on disk
    return len(keys) // 3


def _resume_equals(out: Path, want: dict[str, np.ndarray]) -> None:
    child = _child(out, "resume")
    text, _ = child.communicate(timeout=300)
    assert child.returncode == 0 and f"returned {ROUNDS} False" in text, text
    back = cp.read_simulation(out)
    assert back.columns is not None and back.rounds == ROUNDS
    for name in COLUMNS:
        assert np.array_equal(back.columns[name], want[name], equal_nan=True), name
    _same(_on_disk(out), want)  # and nothing else on disk


@pytest.mark.parametrize("fault", ["sigint", "sigkill"])
@pytest.mark.posix_only  # SIGINT, SIGKILL and RLIMIT_FSIZE
def test_interrupt_or_kill_loses_no_finished_row_and_resume_is_exact(
    tmp_path: Path, fault: str, uninterrupted: dict[str, np.ndarray]
) -> None:
    out = tmp_path / "run"
    child = _child(out, fault)
    assert child.stdout is not None
    assert "ready" in child.stdout.readline()
    # wait until some parts are finished, then strike in the middle of the run
    deadline = time.monotonic() + 120
    while len(list(out.glob("part-*.parquet"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    child.send_signal(signal.SIGINT if fault == "sigint" else signal.SIGKILL)
    text, _ = child.communicate(timeout=60)
    if fault == "sigint":
        assert child.returncode == 0 and "True" in text, text  # returned, interrupted
    else:
        assert child.returncode == -signal.SIGKILL
    done = _check_prefix_rows(out, uninterrupted)
    assert 0 < done < ROUNDS, "the fault came too late: make the run longer"
    _resume_equals(out, uninterrupted)


@pytest.mark.posix_only  # SIGINT, SIGKILL and RLIMIT_FSIZE
def test_a_full_disk_loses_no_finished_row_and_resume_is_exact(
    tmp_path: Path, uninterrupted: dict[str, np.ndarray]
) -> None:
    out = tmp_path / "run"
    child = _child(out, "disk")
    text, _ = child.communicate(timeout=300)
    assert child.returncode == 0 and "OutputError" in text and "resume=True" in text, text
    assert "File too large" in text or "EFBIG" in text or "Errno 27" in text, text
    done = _check_prefix_rows(out, uninterrupted)
    assert done == 3 * 600  # the three parts before the disk filled up, every time
    assert not list(out.glob(".*tmp"))  # the failed part's temporary file was removed
    _resume_equals(out, uninterrupted)


def test_train_all_resume_keeps_the_files_already_trained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tables train --all`` stopped part-way: ``resume=True`` trains only the files not
    there yet (each file was written whole, under a temporary name) and indexes them all."""
    import warnings

    from chinese_poker import strategy_tables as tables

    out = tmp_path / "tables"
    logged: list[str] = []

    def stop_after_four(line: str) -> None:
        logged.append(line)
        if len(logged) == 4:
            raise KeyboardInterrupt

    with warnings.catch_warnings(), pytest.raises(KeyboardInterrupt):
        warnings.simplefilter("ignore")
        tables.train_all(out, deals=1, log=stop_after_four)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert before and not any(n.endswith(".tmp") for n in before)
    trained: list[int] = []
    real = tables.train_tables

    def counted(*args: Any, **kw: Any) -> Any:
        trained.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(tables, "train_tables", counted)
    kept: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        entries = tables.train_all(out, deals=1, log=kept.append, resume=True)
    assert sum("already trained, kept" in line for line in kept) == len(before)
    assert len(trained) == len(entries) - len(before)
    for name, data in before.items():
        assert (out / name).read_bytes() == data  # not trained again
    index = json.loads((out / "tables.json").read_text())
    assert {e["file"] for e in index["tables"]} == {p.name for p in out.iterdir()} - {"tables.json"}
    # another seed is another training: nothing is kept
    kept.clear()
    with warnings.catch_warnings(), pytest.raises(KeyboardInterrupt):
        warnings.simplefilter("ignore")
        logged.clear()
        tables.train_all(out, deals=1, seed=1, log=stop_after_four, resume=True)
    assert not any("kept" in line for line in logged)


def test_a_second_ctrl_c_during_the_last_write_loses_only_that_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C, then Ctrl-C again while the rounds played since the last part are written: the
    run still returns (it used to escape as KeyboardInterrupt and leave no file), the parts
    finished before are intact, no temporary file is left, and resume is exact."""
    _small_chunks(monkeypatch)
    want = _run(600)
    assert want.columns is not None
    real_chunk = _runner._chunk_columns
    real_write = _dataset.write_part
    played: list[int] = []
    state = {"interrupted": False}

    def chunk(*args: Any) -> Any:
        played.append(1)
        if len(played) == 4:  # Ctrl-C while the fourth chunk plays
            state["interrupted"] = True
            raise KeyboardInterrupt
        return real_chunk(*args)

    def write(directory: Path, table: Any, *rest: Any) -> Any:
        if state["interrupted"]:  # Ctrl-C again, in the middle of the write
            (directory / ".part-0000000000300.1.tmp").write_bytes(b"half")
            raise KeyboardInterrupt
        return real_write(directory, table, *rest)

    monkeypatch.setattr("chinese_poker._runner._chunk_columns", chunk)
    monkeypatch.setattr(_dataset, "write_part", write)
    cut = _run(600, out=tmp_path / "run")
    assert cut.interrupted and cut.rounds == 300
    monkeypatch.setattr("chinese_poker._runner._chunk_columns", real_chunk)
    monkeypatch.setattr(_dataset, "write_part", real_write)
    back = cp.read_simulation(tmp_path / "run")
    assert back.columns is not None and back.rounds == 300
    _same(back.columns, {k: v[:900] for k, v in want.columns.items()})
    resumed = _run(600, out=tmp_path / "run", resume=True)
    assert resumed.rounds == 600 and not list((tmp_path / "run").glob(".*"))
    _same(_on_disk(tmp_path / "run"), want.columns)


def test_a_damaged_manifest_is_refused_and_replaced_only_with_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(20, out=out)
    (out / _dataset.MANIFEST).write_text("{not json")
    for kw in ({}, {"resume": True}):
        with pytest.raises(InvalidArgumentError, match="unreadable manifest") as e:
            _run(20, out=out, **kw)
        assert e.value.argument == "out"
    with pytest.raises(InvalidArgumentError, match="unreadable manifest") as e:
        cp.read_simulation(out)
    assert e.value.argument == "path"
    assert _run(20, out=out, overwrite=True).rounds == 20
    assert cp.read_simulation(out).rounds == 20
