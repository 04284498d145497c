"""The Ray backend of :func:`chinese_poker.simulate`: the rounds split into shards of round
ranges, each played by a Ray task with the local engine. A round's result depends only on the
run's seed and the round's index, so the gathered shards are the local run's rows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ._runner import _play_range
from .exceptions import InvalidArgumentError
from .rules import RuleSet


def _shard(
    rs: RuleSet,
    pols: Sequence[object],
    seed: int,
    first: int,
    count: int,
    threads: int | None,
    path: str | None,
) -> Any:
    return _play_range(
        rs, pols, seed, first, count, threads, None if path is None else Path(path), None
    )


def play_shards(
    rs: RuleSet,
    pols: Sequence[object],
    seed: int,
    rounds: int,
    threads: int | None,
    out: Path | None,
    shards: int | None,
    advance: Callable[[int], object],
) -> tuple[list[Any], bool]:
    """The shards' ranges in round order, and whether Ctrl-C cut the run short (the shards
    not finished by then are cancelled; the rows kept are those of the finished shards)."""
    try:
        import ray
    except ImportError:
        raise InvalidArgumentError(
            'argument "backend": "ray" needs Ray (pip install "chinese-poker[ray]")'
        ) from None
    if not ray.is_initialized():
        ray.init()
    if shards is None:
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
        shards = max(1, 4 * int(cpus))
    if isinstance(shards, bool) or not isinstance(shards, int) or shards < 1:
        raise InvalidArgumentError(f'argument "shards": expected a positive number, got {shards!r}')
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    remote = ray.remote(_shard)
    size = -(-rounds // shards) if rounds else 0
    pending: dict[Any, int] = {}
    for k in range(shards):
        first = k * size
        count = min(size, rounds - first)
        if count <= 0:
            break
        part = None if out is None else str(out / f"part-{k:05d}.parquet")
        pending[remote.remote(rs, list(pols), seed, first, count, threads, part)] = count
    done: list[Any] = []
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                count = pending.pop(ref)
                done.append(ray.get(ref))
                advance(count)
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        interrupted = True
    else:
        interrupted = False
    done.sort(key=lambda r: r.first)
    return done, interrupted
