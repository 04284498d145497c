"""A simulation directory has one writer and is verified (issue 41), and pipelines read it
plainly (issue 42): the lock, every part checked against the manifest and its own metadata on
read and on resume, no path outside the directory, version 2 directories still read and
resumed, polars and DuckDB reading a run by its path, progress as lines."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _dataset, _runner
from chinese_poker.exceptions import ChinesePokerError, InvalidArgumentError, OutputError

pq = pytest.importorskip("pyarrow.parquet")
pa = pytest.importorskip("pyarrow")


def _run(rounds: int, out: Path | None = None, **kw: Any) -> cp.Simulation:
    return cp.simulate(
        rounds, 3, "maceplay", [cp.Greedy()] * 3, seed=7, progress=False, out=out, **kw
    )


def _small_parts(monkeypatch: pytest.MonkeyPatch, rounds: int = 150) -> None:
    """A part every ``rounds`` rounds (chunking never changes the rows)."""

    def chunks(total: int, seconds_per_chunk: float = 0.25) -> Any:
        return ((f, min(rounds, total - f)) for f in range(0, total, rounds))

    monkeypatch.setattr(_runner, "_chunks", chunks)
    monkeypatch.setattr(_runner, "_PART_ROWS", 1)


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert set(a) == set(b)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


@pytest.fixture
def parts_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A finished run of 600 rounds in several parts."""
    _small_parts(monkeypatch)
    out = tmp_path / "run"
    _run(600, out=out)
    assert len(_dataset.load_manifest(out)["parts"]) >= 3
    return out


def _damage(out: Path, how: str, tmp_path: Path) -> None:
    m = _dataset.load_manifest(out)
    parts = m["parts"]
    victim = out / parts[1]["file"]
    if how == "deleted":
        victim.unlink()
    elif how == "truncated":
        victim.write_bytes(victim.read_bytes()[:-100])
    elif how == "foreign":
        other = tmp_path / "other"
        cp.simulate(600, 3, "maceplay", [cp.Greedy()] * 3, seed=8, progress=False, out=other)
        theirs = {p["first"]: p for p in _dataset.load_manifest(other)["parts"]}
        # same range, same size on disk where it can be: another seed's rows
        victim.write_bytes((other / theirs[parts[1]["first"]]["file"]).read_bytes())
        parts[1]["size"] = victim.stat().st_size
        _dataset.store_manifest(out, m)
    elif how == "listed twice":
        parts.append(dict(parts[1]))
        m["done"] += parts[1]["count"]
        _dataset.store_manifest(out, m)
    elif how == "changed count":
        parts[1]["count"] += 1
        _dataset.store_manifest(out, m)
    elif how in ("outside", "absolute"):
        (tmp_path / "x.parquet").write_bytes(victim.read_bytes())
        parts[1]["file"] = "../x.parquet" if how == "outside" else str(tmp_path / "x.parquet")
        _dataset.store_manifest(out, m)
    else:
        raise AssertionError(how)


DAMAGE = ("deleted", "truncated", "foreign", "listed twice", "changed count", "outside", "absolute")


@pytest.mark.parametrize("how", DAMAGE)
def test_a_damaged_part_is_named_on_read_and_replayed_on_resume(
    parts_dir: Path, tmp_path: Path, how: str
) -> None:
    want = _run(600)
    _damage(parts_dir, how, tmp_path)
    with pytest.raises(InvalidArgumentError, match="do not match its manifest") as e:
        cp.read_simulation(parts_dir)
    assert e.value.argument == "path" and "part" in str(e.value)
    resumed = _run(600, out=parts_dir, resume=True)
    assert resumed.rounds == 600 and not resumed.interrupted
    back = cp.read_simulation(parts_dir)
    assert back.columns is not None
    _same(back.columns, want.columns)  # type: ignore[arg-type]
    assert back.summary() == want.summary()
    if how in ("outside", "absolute"):
        assert (tmp_path / "x.parquet").exists()  # never touched, never read


def test_a_second_writer_is_refused_naming_the_first(tmp_path: Path) -> None:
    out = tmp_path / "run"
    identity = _dataset.run_identity(_run(10).provenance.to_dict())
    first = _dataset.open_output(out, identity, resume=False, overwrite=False)
    try:
        with pytest.raises(OutputError, match=f"process {os.getpid()} on host") as e:
            _run(10, out=out, resume=True)
        assert e.value.argument == "out"
    finally:
        first.close()
    assert _run(10, out=out, resume=True).rounds == 10  # released


@pytest.mark.skipif(sys.platform == "win32", reason="the lock is POSIX flock")
def test_two_processes_on_one_directory_write_it_once(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code = (
        "import chinese_poker as cp, sys\n"
        f"run = cp.simulate(3000, 3, 'maceplay', [cp.Greedy()] * 3, seed=7, progress=False, "
        f"out={str(out)!r}, resume=True)\n"
        "print('done', run.rounds, flush=True)\n"
    )
    children = [
        subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    results = [c.communicate(timeout=120) for c in children]
    codes = [c.returncode for c in children]
    # each either wrote the run or was refused with the package's error; never both writing
    assert 0 in codes, results
    for (_, stderr), rc in zip(results, codes, strict=True):
        if rc != 0:
            assert "OutputError" in stderr and "is being written by" in stderr, stderr
    back = cp.read_simulation(out)
    assert back.rounds == 3000 and back.columns is not None
    assert len(back.columns["points"]) == 3000 * 3
    assert len(pq.ParquetDataset(out).read().column("round")) == 3000 * 3


def test_a_damaged_manifest_is_the_packages_error(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(30, out=out)
    good = _dataset.load_manifest(out)
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    bad_values: list[Any] = [
        {**good, "players": "3"},
        {**good, "players": 0},
        {**good, "rounds": None},
        {**good, "parts": {"a": 1}},
        {**good, "parts": [1, "x", None]},
        {**good, "parts": [{**good["parts"][0], "tally": "x"}]},
        {**good, "parts": [{**good["parts"][0], "first": True}]},
        {k: v for k, v in good.items() if k != "seed"},
        {**good, "rules": 5},
        {**good, "rules": {"name": 5}},
        {**good, "policies": deep},
        {**good, "schema_version": 99},
        [1, 2],
    ]
    for data in bad_values:
        try:
            text = json.dumps(data)
        except RecursionError:
            text = "[" * 100_000 + "]" * 100_000
        _dataset._atomic_write(out / _dataset.MANIFEST, _dataset._manifest_file(text))
        with pytest.raises(ChinesePokerError):
            cp.read_simulation(out)
        try:
            resumed = _run(30, out=out, resume=True)
        except ChinesePokerError:
            continue
        # only damaged parts: resume replayed them, and the run reads back whole
        assert resumed.rounds == 30 and cp.read_simulation(out).rounds == 30
        _dataset._atomic_write(out / _dataset.MANIFEST, _dataset._manifest_file(json.dumps(good)))


def _downgrade(out: Path, tables: bool) -> None:
    """Rewrites a version 3 directory as version 2 wrote it: the column ``natural``, its
    parts described as version 2, the manifest ``_manifest.json``; without ``tables``, as
    version 2 wrote it before runs recorded their tables."""
    m = _dataset.load_manifest(out)
    identity = {**_dataset.run_identity(m), "schema_version": 2}
    if not tables:
        del identity["tables"], m["tables"]
    for p in m["parts"]:
        path = out / p["file"]
        table = pq.read_table(path)
        table = table.rename_columns(
            ["natural" if n == "declared" else n for n in table.column_names]
        )
        meta = _dataset.file_metadata(identity, cp.__version__, p["first"], p["count"])
        pq.write_table(
            table.replace_schema_metadata(meta), path, compression="zstd", use_dictionary=False
        )
        p.pop("size", None)
    (out / _dataset.MANIFEST).unlink()
    m.pop("writer", None)
    (out / _dataset.LEGACY_MANIFEST).write_text(json.dumps({**m, "schema_version": 2}))


@pytest.mark.parametrize("tables", [True, False], ids=["with tables", "before tables"])
def test_a_version_2_directory_is_still_read_and_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tables: bool
) -> None:
    _small_parts(monkeypatch)
    want = _run(600)
    out = tmp_path / "run"
    _run(600, out=out)
    m = _dataset.load_manifest(out)
    last = m["parts"].pop()
    (out / last["file"]).unlink()
    m["done"] -= last["count"]
    _dataset.store_manifest(out, m)
    _downgrade(out, tables)
    back = cp.read_simulation(out)
    assert back.interrupted and back.columns is not None and "declared" in back.columns
    resumed = _run(600, out=out, resume=True)
    assert resumed.rounds == 600
    assert (out / _dataset.LEGACY_MANIFEST).exists() and not (out / _dataset.MANIFEST).exists()
    for f in out.glob("part-*.parquet"):
        assert "natural" in pq.read_schema(f).names  # one version in a directory
    back = cp.read_simulation(out)
    _same(back.columns, want.columns)  # type: ignore[arg-type]


def test_polars_reads_a_run_directory_by_its_path(parts_dir: Path) -> None:
    pl = pytest.importorskip("polars")
    want = cp.read_simulation(parts_dir)
    for frame in (pl.read_parquet(parts_dir), pl.scan_parquet(parts_dir).collect()):
        assert frame.height == 600 * 3
        assert frame["points"].sum() == 0
        assert sorted(frame["round"].unique().to_list()) == list(range(600))
    assert want.rounds == 600


def test_every_column_works_unquoted_in_duckdb(parts_dir: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    cols = ", ".join(_dataset.COLUMNS)
    rows = duckdb.sql(
        f"SELECT {cols} FROM read_parquet('{parts_dir}/*.parquet') "
        f"WHERE declared IS NULL OR declared IS NOT NULL ORDER BY round, seat"
    ).fetchall()
    assert len(rows) == 600 * 3
    assert _dataset.SCHEMA_VERSION == 3 and "natural" not in _dataset.COLUMNS


class _Failing(io.StringIO):
    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error

    def write(self, s: str) -> int:
        raise self.error

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("mode", ["bar", "lines"])
@pytest.mark.parametrize(
    "error",
    [OSError(28, "No space left"), BrokenPipeError(), ValueError("I/O operation on closed file")],
)
def test_failing_progress_output_never_costs_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, error: BaseException
) -> None:
    monkeypatch.setattr(_runner, "PROGRESS_LINE_SECONDS", 0.0)
    monkeypatch.setattr(sys, "stderr", _Failing(error))
    run = cp.simulate(
        200, 3, "maceplay", [cp.Greedy()] * 3, seed=7, progress=mode, out=tmp_path / "r"
    )
    assert run.rounds == 200 and not run.interrupted
    assert cp.read_simulation(tmp_path / "r").rounds == 200


def test_progress_with_stderr_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", None)
    run = cp.simulate(100, 3, "maceplay", [cp.Greedy()] * 3, progress=True)
    assert run.rounds == 100


def test_progress_off_a_terminal_is_periodic_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_runner, "PROGRESS_LINE_SECONDS", 0.0)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    cp.simulate(500, 3, "maceplay", [cp.Greedy()] * 3, progress=True)
    lines = err.getvalue().splitlines()
    assert lines and all(" of 500 rounds" in line for line in lines), lines
    assert lines[-1].endswith("done")
    with pytest.raises(cp.exceptions.InvalidTypeError):
        cp.simulate(5, progress="yes")  # type: ignore[arg-type]


def test_cli_simulate_prints_progress_lines_when_stderr_is_not_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from chinese_poker.cli import main

    monkeypatch.setattr(_runner, "PROGRESS_LINE_SECONDS", 0.0)
    assert main(["simulate", "--rounds", "300", "--policy", "greedy", "--players", "3"]) == 0
    err = capsys.readouterr().err
    assert " of 300 rounds" in err
    assert main(["simulate", "--rounds", "300", "--policy", "greedy", "--no-progress"]) == 0
    assert " of 300 rounds" not in capsys.readouterr().err


def test_to_parquet_checks_its_arguments_and_its_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chinese_poker.exceptions import InvalidTypeError

    run = _run(50)
    with pytest.raises(InvalidTypeError):
        run.to_parquet(5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        run.to_parquet(tmp_path / "nope" / "x.parquet")
    with pytest.raises(InvalidArgumentError, match="is a directory"):
        run.to_parquet(tmp_path)
    for bad in (-1, 0, 1.5, True):
        with pytest.raises(InvalidArgumentError) as e:
            run.to_parquet(tmp_path / "x.parquet", rows_per_group=bad)  # type: ignore[arg-type]
        assert e.value.argument == "rows_per_group"

    class Full:
        def __init__(self, *a: Any, **k: Any) -> None:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq, "ParquetWriter", Full)
    with pytest.raises(OutputError, match="No space left"):
        run.to_parquet(tmp_path / "x.parquet")
    assert not list(tmp_path.glob(".*tmp"))
    monkeypatch.undo()
    path = run.to_parquet(tmp_path / "x.parquet", rows_per_group=7)
    assert pq.ParquetFile(path).metadata.num_row_groups == -(-150 // 7)
    _same(cp.read_simulation(path).columns, run.columns)  # type: ignore[arg-type]


def test_cli_io_failures_have_their_own_exit_code(tmp_path: Path) -> None:
    base = [
        sys.executable,
        "-m",
        "chinese_poker",
        "solve",
        "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d",
    ]
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            r = subprocess.run(base, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        assert r.returncode == 74 and "Traceback" not in r.stderr, r.stderr
    for closed in ("stdout", "stderr"):
        kw: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        if sys.platform != "win32":
            fd = 1 if closed == "stdout" else 2
            cmd = ["sh", "-c", f'exec "$@" {fd}>&-', "sh", *base]
            r = subprocess.run(cmd, text=True, timeout=60, **kw)
            assert r.returncode in (0, 74) and "Traceback" not in r.stderr, (closed, r.stderr)
