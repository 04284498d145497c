"""The Ray backend on a local Ray instance: the same rows as the local backend, gathered or
written as Parquet parts per shard."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker.simulate import COLUMNS

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_backend_equals_local(local_ray: None, tmp_path: Path) -> None:
    pols: list[Any] = [cp.TableEV(), cp.Greedy(), cp.RandomLegal()]
    local = cp.simulate(500, 3, "pokerclub_south", pols, seed=12, progress=False)
    shard = cp.simulate(
        500, 3, "pokerclub_south", pols, seed=12, progress=False, backend="ray", shards=7
    )
    assert local.columns is not None and shard.columns is not None
    assert shard.rounds == 500 and not shard.interrupted
    for name in COLUMNS:
        assert np.array_equal(local.columns[name], shard.columns[name], equal_nan=True), name
    assert [s.mean for s in local.summary()] == pytest.approx([s.mean for s in shard.summary()])
    # written as Parquet parts, one per shard, that read back as the same rows
    pq = pytest.importorskip("pyarrow.parquet")
    parts = cp.simulate(
        500,
        3,
        "pokerclub_south",
        pols,
        seed=12,
        progress=False,
        backend="ray",
        shards=3,
        out=tmp_path / "run",
    )
    files = sorted((tmp_path / "run").glob("part-*.parquet"))
    assert len(files) == 3 and parts.columns is None
    table = pq.read_table(tmp_path / "run").sort_by([("round", "ascending"), ("seat", "ascending")])
    want = local.to_arrow()
    assert table.num_rows == want.num_rows
    for name in COLUMNS:
        got = np.asarray(
            table.column(name).combine_chunks().flatten()
            if name in ("hand", "setting", "ranks")
            else table.column(name)
        )
        exp = np.asarray(
            want.column(name).combine_chunks().flatten()
            if name in ("hand", "setting", "ranks")
            else want.column(name)
        )
        assert np.array_equal(got, exp, equal_nan=name == "value"), name


def _crashes_once(marker: str, at: int) -> Any:
    """A seat policy that kills its Ray worker the first time it sees round ``at`` of the run
    (a crashed task); afterwards it plays greedily."""
    import os

    seen = [0]
    driver = os.getpid()  # never this process: killing it would end the whole test run

    def policy(hand: np.ndarray) -> Any:
        seen[0] += 1
        import os

        if seen[0] == at and os.getpid() != driver and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)
        return cp.solve(hand, "maceplay", 2, cp.TableEV()).as_decision()

    return policy


def test_ray_output_survives_a_crashed_task_and_resumes_exactly(
    local_ray: None, tmp_path: Path
) -> None:
    """Fault injection on Ray: a worker dies in the middle of a shard. Ray retries the task,
    so the run completes with exactly the local rows; the dataset on disk holds each round
    once; a rerun into it is refused, a rerun with fewer shards and overwrite leaves no stale
    part, and resume of a cut run (a shard's rows removed from the manifest, as if cancelled)
    plays exactly the missing rounds."""
    pq = pytest.importorskip("pyarrow.parquet")
    from chinese_poker import _dataset

    pols: list[Any] = [_crashes_once(str(tmp_path / "crashed"), 40), cp.Greedy()]

    def table_decision(hand: np.ndarray) -> Any:  # (Ray pickles it by value: not importable)
        return cp.solve(hand, "maceplay", 2, cp.TableEV()).as_decision()

    pols2: list[Any] = [table_decision, cp.Greedy()]
    want = cp.simulate(300, 2, "maceplay", pols2, seed=3, progress=False)
    assert want.columns is not None
    out = tmp_path / "run"
    kw: dict[str, Any] = {"seed": 3, "progress": False, "backend": "ray", "out": out}
    run = cp.simulate(300, 2, "maceplay", pols, shards=4, **kw)  # not the same run as pols2
    assert (tmp_path / "crashed").exists()  # the worker did die
    assert run.rounds == 300 and not run.interrupted
    back = cp.read_simulation(out)
    assert back.columns is not None
    for name in COLUMNS:
        assert np.array_equal(back.columns[name], want.columns[name], equal_nan=True), name
    assert pq.read_table(out).num_rows == 600  # nothing else on disk
    with pytest.raises(cp.exceptions.InvalidArgumentError, match="overwrite=True"):
        cp.simulate(300, 2, "maceplay", pols, shards=2, **kw)
    (tmp_path / "file").write_bytes(b"x")  # was FileExistsError from the Ray backend
    with pytest.raises(cp.exceptions.InvalidArgumentError, match="overwrite=True"):
        cp.simulate(300, 2, "maceplay", pols, shards=2, **{**kw, "out": tmp_path / "file"})
    # fewer shards, overwriting: no part of the four-shard run is left to be read back
    cp.simulate(300, 2, "maceplay", pols2, shards=2, overwrite=True, **kw)
    assert len(list(out.glob("part-*.parquet"))) == 2 and pq.read_table(out).num_rows == 600
    # a cut run: the second shard's part neither listed nor on disk
    manifest = _dataset.load_manifest(out)
    gone = manifest["parts"].pop()
    (out / gone["file"]).unlink()
    _dataset.store_manifest(out, manifest)
    assert cp.read_simulation(out).interrupted
    resumed = cp.simulate(300, 2, "maceplay", pols2, shards=3, resume=True, **kw)
    assert resumed.rounds == 300 and not resumed.interrupted
    table = _dataset.numpy_columns(pq.read_table(out))
    for name in COLUMNS:
        assert np.array_equal(table[name], want.columns[name], equal_nan=True), name
    assert resumed.summary() == want.summary()


# The Ctrl-C scenario runs in a child process of its own: Ray 2.60 can abort the driver when a
# task's reply crosses its cancellation ("Check failed: ... Tried to complete task that was not
# pending", the ray-project/ray#54798 family), which would end the whole test run. A child that
# Ray aborted (no Python traceback) is run again; any failure of ours fails the test.
_CTRL_C_SCENARIO = """
import os, signal, sys, threading
from pathlib import Path
import numpy as np
import pyarrow.parquet as pq
import ray
import chinese_poker as cp
from chinese_poker import _dataset
from chinese_poker.simulate import COLUMNS

ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)

def fast(hand):
    return cp.solve(hand, "maceplay", 2, cp.TableEV()).as_decision()

def slow(hand):  # 30 ms a hand: each shard takes most of a second
    import time
    time.sleep(0.03)
    return cp.solve(hand, "maceplay", 2, cp.TableEV()).as_decision()

pols = [slow, cp.Greedy()]
want = cp.simulate(200, 2, "maceplay", [fast, cp.Greedy()], seed=4, progress=False)
out = Path(sys.argv[1])
kw = {"seed": 4, "progress": False, "backend": "ray", "out": out}
done = threading.Event()

def strike():  # Ctrl-C once two of the eight shards' parts are on disk
    while not done.wait(0.01):
        if len(list(out.glob("part-*.parquet"))) >= 2:
            os.kill(os.getpid(), signal.SIGINT)
            return

signal.signal(signal.SIGINT, signal.default_int_handler)
watcher = threading.Thread(target=strike, daemon=True)
try:
    watcher.start()
    cut = cp.simulate(200, 2, "maceplay", pols, shards=8, **kw)
finally:
    done.set()
    watcher.join()
assert cut.interrupted and 0 < cut.rounds < 200, cut.rounds
rows = _dataset.numpy_columns(pq.read_table(out))
keys = rows["round"].astype(np.int64) * 2 + rows["seat"]
# reported = on disk, once each
assert len(np.unique(keys)) == len(keys) == 2 * cut.rounds, (len(keys), cut.rounds)
for name in COLUMNS:
    assert np.array_equal(rows[name], want.columns[name][keys], equal_nan=True), name
resumed = cp.simulate(200, 2, "maceplay", pols, shards=3, resume=True, **kw)
assert resumed.rounds == 200 and not resumed.interrupted
back = cp.read_simulation(out)
assert back.summary()[0].mean == want.summary()[0].mean
for name in COLUMNS:
    assert np.array_equal(back.columns[name], want.columns[name], equal_nan=True), name
ray.shutdown()
print("scenario passed")
"""


def test_ray_output_ctrl_c_reports_what_is_on_disk_and_resumes_exactly(tmp_path: Path) -> None:
    """Ctrl-C during a Ray run with ``out``: the tasks still running are cancelled and waited
    for, the rounds reported are the rounds on disk (every one once), and resume completes the
    run exactly (``_CTRL_C_SCENARIO``, in a child process)."""
    import subprocess
    import sys

    pytest.importorskip("pyarrow.parquet")
    for attempt in range(4):
        out = tmp_path / f"run{attempt}"
        child = subprocess.run(
            [sys.executable, "-c", _CTRL_C_SCENARIO, str(out)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if child.returncode == 0 and "scenario passed" in child.stdout:
            return
        assert "Traceback" not in child.stderr, child.stderr
    pytest.fail(f"Ray aborted the scenario {attempt + 1} times: {child.stderr[-2000:]}")
