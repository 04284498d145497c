"""The Ray backend of `chinese_poker.simulate()`: the rounds split into shards of round
ranges, each played by a Ray task with the local engine. A round's result depends only on the
run's seed and the round's index, so the gathered shards are the local run's rows.

With a simulation directory, each task writes its own finished parts (``_dataset.write_part``,
on a file system every task sees) and returns their entries; the driver adds them to the
manifest as tasks finish. Ctrl-C cancels the tasks still running and waits for them to end;
parts a cancelled or crashed task finished before are then adopted from their own metadata
(``Dataset.tidy``), so only the parts in flight are lost, and none lands after the report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._dataset import Dataset, tally_state, write_part
from ._runner import _play_range
from .exceptions import InvalidArgumentError

if TYPE_CHECKING:
    import pyarrow as pa

    from . import _core
    from .rules import RuleSet
    from .strategy_tables import TablesId


def _shard(
    rs: RuleSet,
    pols: Sequence[object],
    seed: int,
    span: tuple[int, int],
    threads: int | None,
    directory: str | None,
    identity: dict[str, Any] | None,
    tables: Sequence[TablesId | None],
) -> Any:
    """One Ray task: the rounds of ``span`` (first, count), written as parts of the run's
    directory when there is one, by the same strategy tables as the run's (``tables``; a
    worker that finds others, installed differently on its machine, refuses to play)."""
    first, count = span
    sink = None
    if directory is not None and identity is not None:
        path, run = Path(directory), identity

        def sink(table: pa.Table, first: int, count: int, tally: _core.SeatTally) -> Any:
            return {**write_part(path, table, first, count, run), "tally": tally_state(tally)}

    return _play_range(rs, pols, seed, first, count, threads, sink, None, tables)


# Seconds to wait for cancelled tasks to end: a force-cancelled task's worker is killed, which
# takes well under a second; the wait only bounds a cluster that does not answer.
_CANCEL_WAIT = 10.0


def _end(ray: Any, refs: list[Any]) -> None:
    """Cancels the tasks of ``refs`` and waits until each has ended: cancelling only asks, and
    a task may be writing a part until its worker is gone."""
    for ref in refs:
        ray.cancel(ref, force=True)
    if refs:
        ray.wait(refs, num_returns=len(refs), timeout=_CANCEL_WAIT)


def split(todo: Sequence[tuple[int, int]], shards: int) -> list[tuple[int, int]]:
    """The ranges ``todo`` cut into about ``shards`` ranges of equal size, in order."""
    total = sum(c for _, c in todo)
    size = max(1, -(-total // shards))
    out = []
    for first, count in todo:
        while count > 0:
            n = min(size, count)
            out.append((first, n))
            first, count = first + n, count - n
    return out


def play_shards(
    rs: RuleSet,
    pols: Sequence[object],
    seed: int,
    todo: Sequence[tuple[int, int]],
    threads: int | None,
    ds: Dataset | None,
    shards: int | None,
    advance: Callable[[int], object],
    tables: Sequence[TablesId | None],
) -> tuple[list[Any], bool]:
    """The shards' ranges in round order, and whether Ctrl-C cut the run short (the shards
    not finished by then are cancelled; the rows kept are those of the finished shards, and
    with a directory, the parts any task finished). A task that fails for good cancels the
    others and raises its error. ``shards`` was read by `simulate()`."""
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
    remote = ray.remote(_shard)
    directory = None if ds is None else str(ds.path.absolute())
    identity = None if ds is None else ds.identity
    pending: dict[Any, int] = {}
    done: list[Any] = []
    interrupted = False
    try:
        for first, count in split(todo, shards.__index__()):
            ref = remote.remote(
                rs, list(pols), seed, (first, count), threads, directory, identity, list(tables)
            )
            pending[ref] = count
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                count = pending.pop(ref)
                r = ray.get(ref)
                if ds is not None:
                    for part in r.parts:
                        ds.commit(part)
                done.append(r)
                interrupted = interrupted or r.interrupted
                advance(count)
    except BaseException as e:
        # Ctrl-C or a task that failed for good: no task keeps running after the call returns
        _end(ray, list(pending))
        if not isinstance(e, KeyboardInterrupt):
            raise
        interrupted = True
        if ds is not None:
            ds.tidy()  # the parts cancelled tasks finished before
    done.sort(key=lambda r: r.first)
    return done, interrupted
