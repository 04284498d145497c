"""The chunk runner of self-play: rounds played in chunks sized to take about a quarter second
(so progress and Ctrl-C are seen promptly), each chunk's columns from the core (or, for seats
played by a Python callable, decided here and settled by the core), the core's per-seat
running sums (``_core.SeatTally``), and the rows streamed to Parquet in row groups.
:func:`~chinese_poker.simulate` plays one range of rounds locally or many as Ray tasks
(``_ray_backend``), both through :func:`_play_range`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _core
from .policies import _spec
from .rules import RuleSet

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["COLUMNS"]

COLUMNS = (
    "round",
    "seat",
    "hand",
    "choice",
    "setting",
    "status",
    "natural",
    "ranks",
    "scoops",
    "sweep",
    "points",
    "value",
)
"""The result columns, one row per round and seat (see :class:`Simulation`)."""

NO_NATURAL = _core.NO_NATURAL


def _arrow_table(cols: Mapping[str, npt.NDArray[Any]]) -> pa.Table:
    import pyarrow as pa

    def fixed(a: npt.NDArray[Any], width: int) -> pa.Array:
        return pa.FixedSizeListArray.from_arrays(
            pa.array(np.ascontiguousarray(a).reshape(-1)), width
        )

    arrays = {
        name: fixed(cols[name], cols[name].shape[1])
        if cols[name].ndim == 2
        else pa.array(cols[name])
        for name in COLUMNS
    }
    return pa.table(arrays)


class _Progress:
    def __init__(self, total: int, unit: str, show: bool) -> None:
        self.bar: Any = None
        if show:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, unit=unit, unit_scale=True, dynamic_ncols=True)

    def update(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _chunks(total: int, seconds_per_chunk: float = 0.25) -> Iterator[tuple[int, int]]:
    """(first, count) chunks that grow or shrink to take about ``seconds_per_chunk`` each, so
    progress updates and Ctrl-C are seen promptly; chunking never changes the results."""
    first, size = 0, 64
    while first < total:
        count = min(size, total - first)
        start = time.perf_counter()
        yield first, count
        took = max(time.perf_counter() - start, 1e-6)
        size = int(min(max(count * seconds_per_chunk / took, 16), 65_536))
        first += count


def _policy_hand(hand: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """What a Python policy is given: a read-only copy of the 13 codes dealt to its seat."""
    mine = hand.copy()
    mine.flags.writeable = False
    return mine


def _chunk_columns(
    rules: RuleSet,
    specs: Sequence[tuple[Any, ...] | None],
    policies: Sequence[object],
    seed: int,
    first: int,
    count: int,
    threads: int | None,
) -> dict[str, npt.NDArray[Any]]:
    compiled = rules.compiled
    if all(s is not None for s in specs):
        return dict(_core.simulate_chunk(compiled, list(specs), seed, first, count, threads))
    players = len(specs)
    settings = np.zeros((count, players, 13), dtype=np.uint8)
    choices = np.zeros((count, players), dtype=np.uint8)
    naturals = np.full((count, players), NO_NATURAL, dtype=np.uint8)
    values = np.full((count, players), np.nan)
    hands = _core.deal(count, players, seed, first)
    for seat, (spec, policy) in enumerate(zip(specs, policies, strict=True)):
        if spec is not None:
            k, c, n, v = _core.decide_seat(
                compiled, players, spec, seed, first, count, seat, threads
            )
            settings[:, seat], choices[:, seat], naturals[:, seat], values[:, seat] = k, c, n, v
            continue
        fn: Callable[[npt.NDArray[np.uint8]], object] = policy  # type: ignore[assignment]
        for r in range(count):
            # the policy gets a read-only copy of its hand, and its answer is checked against
            # that hand: it cannot rewrite the dealt cards nor play cards it was not dealt
            hand = _policy_hand(hands[r, seat])
            codes, choice, natural = _core.decision_codes(fn(hand), seat, hands[r, seat])
            settings[r, seat], choices[r, seat], naturals[r, seat] = codes, choice, natural
    # the core records the dealt hands (and a surrender's setting) as a simulation does
    cols = dict(_core.settle_rounds(compiled, settings, choices, naturals, threads, hands))
    # the round numbers and the policies' estimates, which array settlement cannot know
    cols["round"] = np.repeat(np.arange(first, first + count, dtype=np.uint64), players)
    cols["value"] = values.reshape(-1)
    return cols


# Rows buffered per Parquet row group: large groups keep the per-group cost negligible, and
# the buffer (about 50 bytes a row) small.
_ROW_GROUP = 1 << 17
_PARQUET_OPTIONS: dict[str, Any] = {"compression": "zstd", "use_dictionary": False}


@dataclass
class _Range:
    """What playing one range of rounds produced (kept rows or a Parquet file, and the tally)."""

    first: int
    columns: dict[str, npt.NDArray[Any]] | None
    tally: _core.SeatTally
    done: int
    interrupted: bool


def _joined(
    parts: Sequence[Mapping[str, npt.NDArray[Any]]], rs: RuleSet, players: int
) -> dict[str, npt.NDArray[Any]]:
    """Chunks' columns end to end; with no chunk, the empty columns of their types."""
    if not parts:
        return dict(_core.simulate_chunk(rs.compiled, [("greedy",)] * players, 0, 0, 0))
    return {k: np.concatenate([p[k] for p in parts]) for k in COLUMNS}


def _play_range(
    rs: RuleSet,
    pols: Sequence[object],
    seed: int,
    first: int,
    count: int,
    threads: int | None,
    path: Path | None,
    advance: Callable[[int], object] | None,
) -> _Range:
    """Plays rounds ``first..first + count`` in chunks: rows kept, or streamed to ``path``."""
    players = len(pols)
    specs = [_spec(p, rs, players, s) for s, p in enumerate(pols)]
    tally = _core.SeatTally(players)
    parts: list[dict[str, npt.NDArray[Any]]] = []
    pending = 0  # rows in `parts` not yet written (streaming)
    writer: Any = None

    def flush() -> None:
        nonlocal writer, pending
        if not parts:
            return
        table = _arrow_table({k: np.concatenate([p[k] for p in parts]) for k in COLUMNS})
        if writer is None:
            import pyarrow.parquet as pq

            writer = pq.ParquetWriter(str(path), table.schema, **_PARQUET_OPTIONS)
        writer.write_table(table)
        parts.clear()
        pending = 0

    done, interrupted = 0, False
    try:
        for offset, size in _chunks(count):
            cols = _chunk_columns(rs, specs, pols, seed, first + offset, size, threads)
            tally.add(cols["points"], cols["scoops"], cols["sweep"], cols["status"])
            parts.append(cols)
            if path is not None:
                pending += len(cols["points"])
                if pending >= _ROW_GROUP:
                    flush()
            done += size
            if advance is not None:
                advance(size)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if path is not None:
            flush()
            if writer is not None:
                writer.close()
    columns = None if path is not None else _joined(parts, rs, players)
    return _Range(first, columns, tally, done, interrupted)
