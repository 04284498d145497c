"""The chunk runner of self-play: rounds played in chunks sized to take about a quarter second
(so progress is seen promptly; Ctrl-C stops a chunk within it, in the core), each chunk's
columns from the core (or, for seats played by a Python callable, decided here and settled by
the core), the core's per-seat running sums (``_core.SeatTally``), and the rows written as
finished parts of a simulation directory (``_dataset``).
`simulate()` plays ranges of rounds locally or as Ray tasks
(``_ray_backend``), both through `_play_range()`.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._args import arg_error as _arg_error
from ._dataset import COLUMNS, arrow_table
from .exceptions import InvalidTablesError, InvalidTypeError
from .policies import _spec, _spec_tables
from .rules import RuleSet
from .strategy_tables import TablesId

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["COLUMNS", "PROGRESS_LINE_SECONDS"]

NO_NATURAL = _core.NO_NATURAL


def _arrow_table(cols: Mapping[str, npt.NDArray[Any]]) -> pa.Table:
    return arrow_table(cols, COLUMNS)


PROGRESS_LINE_SECONDS = 10.0
"""How often progress shown as lines (stderr not a terminal: a log file, a batch job) prints
one."""


def _progress_mode(show: object) -> str | None:
    """What ``progress=show`` shows: ``"bar"`` (a tqdm bar), ``"lines"`` (a line every
    `PROGRESS_LINE_SECONDS`) or ``None``. ``True`` is a bar on a terminal or in a
    notebook, lines elsewhere."""
    if show is False or show is None:
        return None
    if show in ("bar", "lines"):
        return str(show)
    if show is not True:
        raise _arg_error(
            InvalidTypeError, "progress", f'expected True, False, "bar" or "lines", got {show!r}'
        )
    stream = sys.stderr
    try:
        terminal = stream is not None and stream.isatty()
    except (OSError, ValueError, AttributeError):
        terminal = False
    return "bar" if terminal or _in_notebook() else "lines"


def _in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (where tqdm draws a widget)."""
    ipython = sys.modules.get("IPython")
    try:
        shell = None if ipython is None else ipython.get_ipython()
    except Exception:
        return False
    return type(shell).__name__ == "ZMQInteractiveShell"


class _Progress:
    """Progress on stderr: a tqdm bar or periodic lines (`_progress_mode()`). Showing it
    is cosmetic and never costs work: once writing fails (stderr closed, full, a broken pipe)
    it is dropped and the run goes on."""

    def __init__(self, total: int, unit: str, show: object) -> None:
        self.bar: Any = None
        self.mode = _progress_mode(show)
        self.total, self.unit, self.done = total, unit, 0
        self.start = self.last = time.monotonic()
        if self.mode == "bar":
            self._guard(self._open_bar)

    def _open_bar(self) -> None:
        from tqdm.auto import tqdm

        self.bar = tqdm(total=self.total, unit=self.unit, unit_scale=True, dynamic_ncols=True)

    def _guard(self, show: Callable[[], object]) -> None:
        """Runs ``show``; if it fails, progress is off from now on."""
        try:
            show()
        except Exception:
            self.mode, bar, self.bar = None, self.bar, None
            if bar is not None:
                with contextlib.suppress(Exception):
                    bar.disable = True

    def _line(self, final: bool = False) -> None:
        stream = sys.stderr
        if stream is None:
            raise OSError("no standard error")
        now = time.monotonic()
        took = max(now - self.start, 1e-9)
        rate = self.done / took
        share = f" ({100 * self.done / self.total:.0f}%)" if self.total else ""
        eta = ""
        if not final and rate > 0 and self.done < self.total:
            eta = f", about {(self.total - self.done) / rate:,.0f} s left"
        stream.write(
            f"{self.done:,} of {self.total:,} {self.unit}s{share}, {rate:,.0f} {self.unit}s/s"
            f"{eta}{', done' if final else ''}\n"
        )
        stream.flush()
        self.last = now

    def update(self, n: int) -> None:
        self.done += n
        if self.mode == "bar" and self.bar is not None:
            self._guard(lambda: self.bar.update(n))
        elif self.mode == "lines" and time.monotonic() - self.last >= PROGRESS_LINE_SECONDS:
            self._guard(self._line)

    def close(self) -> None:
        if self.mode == "bar" and self.bar is not None:
            self._guard(self.bar.close)
        elif self.mode == "lines" and time.monotonic() - self.start >= PROGRESS_LINE_SECONDS:
            self._guard(lambda: self._line(final=True))
        self.mode = None


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


Decisions = tuple[
    npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.float64]
]
"""Every seat's decisions in rounds of a chunk: settings (R, P, 13), choices and naturals
(R, P) as the core codes them, and the policies' estimated values (R, P)."""


def decide_chunk(
    rules: RuleSet,
    specs: Sequence[tuple[Any, ...] | None],
    policies: Sequence[object],
    seed: int,
    first: int,
    count: int,
    threads: int | None,
    hands: npt.NDArray[np.uint8],
) -> Decisions:
    """The decisions of ``policies`` (one a seat; ``specs`` their core forms, ``None`` for a
    Python callable) in rounds ``first..first + count`` dealt ``hands``: built-in seats in the
    core, Python ones here, hand by hand."""
    compiled = rules.compiled
    players = len(specs)
    settings = np.zeros((count, players, 13), dtype=np.uint8)
    choices = np.zeros((count, players), dtype=np.uint8)
    naturals = np.full((count, players), NO_NATURAL, dtype=np.uint8)
    values = np.full((count, players), np.nan)
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
    return settings, choices, naturals, values


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
    hands = _core.deal(count, players, seed, first)
    settings, choices, naturals, values = decide_chunk(
        rules, specs, policies, seed, first, count, threads, hands
    )
    # the core records the dealt hands (and a surrender's setting) as a simulation does
    cols = dict(_core.settle_rounds(compiled, settings, choices, naturals, threads, hands))
    # the round numbers and the policies' estimates, which array settlement cannot know
    cols["round"] = np.repeat(np.arange(first, first + count, dtype=np.uint64), players)
    cols["value"] = values.reshape(-1)
    return cols


# A part of a simulation directory is written when it holds this many rows or has been
# playing this long, whichever comes first: what a kill or a full disk can lose at most.
_PART_ROWS = 1 << 18
_PART_SECONDS = 30.0
_PARQUET_OPTIONS: dict[str, Any] = {"compression": "zstd", "use_dictionary": False}

Sink = Callable[["pa.Table", int, int, _core.SeatTally], object]
"""Takes a finished part: its rows, first round, rounds and sums."""


@dataclass
class _Range:
    """What playing one range of rounds produced: the rows kept (none when written to a
    sink), the sums and rounds of what was kept or written, and the parts written."""

    first: int
    columns: dict[str, npt.NDArray[Any]] | None
    tally: _core.SeatTally
    done: int
    interrupted: bool
    parts: list[Any]


def _joined(
    parts: Sequence[Mapping[str, npt.NDArray[Any]]], rs: RuleSet, players: int
) -> dict[str, npt.NDArray[Any]]:
    """Chunks' columns end to end; with no chunk, the empty columns of their types."""
    if not parts:
        return dict(_core.simulate_chunk(rs.compiled, [("greedy",)] * players, 0, 0, 0))
    return {k: np.concatenate([p[k] for p in parts]) for k in COLUMNS}


def _shown(tables: TablesId | None) -> str:
    return "no tables" if tables is None else f"{tables.source} tables {tables.digest}"


def _play_range(
    rs: RuleSet,
    pols: Sequence[object],
    seed: int,
    first: int,
    count: int,
    threads: int | None,
    sink: Sink | None,
    advance: Callable[[int], object] | None,
    tables: Sequence[TablesId | None] | None = None,
) -> _Range:
    """Plays rounds ``first..first + count`` in chunks: rows kept, or handed to ``sink`` in
    parts of consecutive rounds. Ctrl-C ends the range: the rounds played so far are kept (or
    written as a last part; a second Ctrl-C while it is written drops that part only).
    ``tables``: the strategy tables each seat must play (the run's provenance); tables found
    otherwise here (another machine of a cluster) raise ``InvalidTablesError`` naming the seat."""
    players = len(pols)
    specs = [_spec(p, rs, players, s) for s, p in enumerate(pols)]
    if tables is not None:
        for seat, (spec, wanted) in enumerate(zip(specs, tables, strict=True)):
            found = _spec_tables(spec)
            if found != wanted:
                raise InvalidTablesError(
                    f"seat {seat}: this process found {_shown(found)} where the run plays "
                    f"{_shown(wanted)}; install the same tables on every machine of the run"
                )
    tally = _core.SeatTally(players)
    kept: list[dict[str, npt.NDArray[Any]]] = []
    written: list[Any] = []
    buffer: list[dict[str, npt.NDArray[Any]]] = []
    part_first, part_rounds, part_tally, part_start = first, 0, _core.SeatTally(players), 0.0
    done = 0

    def flush() -> None:
        nonlocal part_rounds, part_tally, done
        if sink is None or not buffer:
            return
        table = _arrow_table({k: np.concatenate([p[k] for p in buffer]) for k in COLUMNS})
        written.append(sink(table, part_first, part_rounds, part_tally))
        tally.merge(part_tally)
        done += part_rounds
        buffer.clear()
        part_rounds, part_tally = 0, _core.SeatTally(players)

    interrupted = False
    try:
        for offset, size in _chunks(count):
            cols = _chunk_columns(rs, specs, pols, seed, first + offset, size, threads)
            if sink is None:
                tally.add(cols["points"], cols["scoops"], cols["sweep"], cols["status"])
                kept.append(cols)
                done += size
            else:
                if not buffer:
                    part_first, part_start = first + offset, time.monotonic()
                buffer.append(cols)
                part_tally.add(cols["points"], cols["scoops"], cols["sweep"], cols["status"])
                part_rounds += size
                rows = part_rounds * players
                if rows >= _PART_ROWS or time.monotonic() - part_start >= _PART_SECONDS:
                    flush()
            if advance is not None:
                advance(size)
        flush()
    except KeyboardInterrupt:
        interrupted = True
        # the rounds played so far, as one more part; interrupted again, only that part is lost
        with contextlib.suppress(KeyboardInterrupt):
            flush()
    columns = None if sink is not None else _joined(kept, rs, players)
    return _Range(first, columns, tally, done, interrupted, written)
