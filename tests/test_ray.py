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
