"""Self-play at scale: seeded deals, exact settlement, columnar results and their summary.

    >>> import chinese_poker as cp
    >>> run = cp.simulate(200, players=4, rules="maceplay", seed=1, progress=False)
    >>> int(run.columns["points"].reshape(-1, 4).sum(axis=1).max())  # every round is zero-sum
    0

Round ``r`` of a run seeded ``s`` is dealt and played from its own seed, so a run gives the same
rows for any ``threads``, any chunking and any backend, and a run can be split into shards of
rounds. Built-in policies (:class:`~chinese_poker.TableEV`, :class:`~chinese_poker.MonteCarlo`,
:class:`Greedy`, :class:`RandomLegal`) play entirely in Rust with the GIL released; a Python
callable ``hand -> decision`` plays too, in Python, hand by hand (much slower).

The policies are defined in :mod:`chinese_poker.policies`, the chunk runner and Parquet
streaming in ``_runner``, duels in :mod:`chinese_poker.duels`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _args, _core
from ._args import arg_error as _arg_error
from ._runner import (
    _PARQUET_OPTIONS,
    COLUMNS,
    NO_NATURAL,
    _arrow_table,
    _joined,
    _play_range,
    _Progress,
)
from .display import html, simulation_repr, text

# DuelResult, duel, Greedy, PolicyLike, RandomLegal: still importable from here, where they
# were defined before this module was split by job.
from .duels import DuelResult as DuelResult
from .duels import duel as duel
from .exceptions import InvalidArgumentError, InvalidShapeError, InvalidTypeError
from .policies import Greedy as Greedy
from .policies import PolicyLike as PolicyLike
from .policies import RandomLegal as RandomLegal
from .policies import _policy_name, _read_policies
from .rules import RuleSet, _rule_set

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "COLUMNS",
    "DuelResult",
    "Greedy",
    "PolicyLike",
    "RandomLegal",
    "SeatSummary",
    "Simulation",
    "deal",
    "duel",
    "settle_batch",
    "simulate",
]


def deal(rounds: int, players: int = 4, seed: int = 0, first: int = 0) -> npt.NDArray[np.uint8]:
    """The hands of rounds ``first..first + rounds`` of a run seeded ``seed``: a
    ``(rounds, players, 13)`` ``uint8`` array of card codes, each hand sorted. These are exactly
    the hands :func:`simulate` deals for the same seed. ``rounds`` is at most
    ``MAX_DEALT_ROUNDS`` (2**22) per call, checked before anything is allocated; take a longer
    run in pages with ``first``."""
    return _core.deal(rounds, players, seed, first)


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's results over a run: mean points per round with a 95% confidence interval,
    and how often the seat scooped an opponent, swept, fouled, was paid a natural or
    surrendered (per round)."""

    seat: int
    policy: str
    rounds: int
    mean: float
    stderr: float
    ci_low: float
    ci_high: float
    scoop_rate: float
    sweep_rate: float
    foul_rate: float
    natural_rate: float
    surrender_rate: float

    def __str__(self) -> str:
        return text(self)

    def _repr_html_(self) -> str:
        return html(self)


def _summaries(tally: _core.SeatTally, names: Sequence[str]) -> tuple[SeatSummary, ...]:
    """Each seat's summary: every figure computed by the core from the run's running sums."""
    return tuple(SeatSummary(policy=names[s["seat"]], **s) for s in tally.summary())


@dataclass
class Simulation:
    """The result of :func:`simulate`.

    ``columns`` maps each name of :data:`COLUMNS` to a numpy array with one row per (round,
    seat), rounds in order and seats within a round: ``round`` (uint64), ``seat`` (uint8),
    ``hand`` (N, 13) uint8 dealt codes, ``choice`` (0 play, 1 declare, 2 surrender),
    ``setting`` (N, 13) front/middle/back codes, ``status`` (0 played, 1 fouled, 2 natural,
    3 surrendered), ``natural`` (index into the natural names, 255 none), ``ranks`` (N, 3)
    ``HandRank.raw`` values, ``scoops`` (opponents scooped), ``sweep`` (bool), ``points``
    (int64), ``value`` (float64: the policy's own estimate of its decision's points, NaN for
    policies without one — predicted against realised ``points`` is its calibration).
    ``columns`` is ``None`` when the run was streamed to Parquet. ``interrupted`` says Ctrl-C
    stopped the run after ``rounds`` of ``requested`` rounds.
    """

    players: int
    rules: str
    policies: tuple[str, ...]
    seed: int
    requested: int
    rounds: int
    interrupted: bool
    seconds: float
    columns: dict[str, npt.NDArray[Any]] | None
    parquet: Path | None = None
    _tally: _core.SeatTally = field(repr=False, default_factory=lambda: _core.SeatTally(2))

    def summary(self) -> tuple[SeatSummary, ...]:
        """Per seat: mean points per round with a 95% interval and the event rates."""
        return _summaries(self._tally, self.policies)

    def __repr__(self) -> str:
        return simulation_repr(self)

    def __str__(self) -> str:
        """The run, then the per-seat table: points per round with its 95% interval, rates."""
        return text(self)

    def _repr_html_(self) -> str:
        return html(self)

    def _need_columns(self) -> dict[str, npt.NDArray[Any]]:
        if self.columns is None:
            raise InvalidArgumentError(
                f"this run was streamed to {self.parquet}; read the rows back from there"
            )
        return self.columns

    def to_arrow(self) -> pa.Table:
        """The rows as a ``pyarrow.Table`` (cards and ranks as fixed-size lists); needs
        ``pyarrow`` (``pip install chinese-poker[arrow]``)."""
        return _arrow_table(self._need_columns())

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (through Arrow)."""
        return self.to_arrow().to_pandas()

    def to_polars(self) -> Any:
        """The rows as a polars DataFrame (through Arrow, without copying where it can)."""
        import polars as pl

        return pl.from_arrow(self.to_arrow())

    def to_parquet(self, path: str | Path, rows_per_group: int = 262_144) -> Path:
        """Writes the rows to a Parquet file in row groups."""
        import pyarrow.parquet as pq

        table = self.to_arrow()
        pq.write_table(table, str(path), row_group_size=rows_per_group, **_PARQUET_OPTIONS)
        return Path(path)


# -- running


def simulate(
    rounds: int,
    players: int = 4,
    rules: RuleSet | str | None = None,
    policies: Sequence[PolicyLike] | None = None,
    seed: int = 0,
    threads: int | None = None,
    backend: str = "local",
    progress: bool = True,
    out: str | Path | None = None,
    shards: int | None = None,
) -> Simulation:
    """Plays ``rounds`` rounds of self-play at a table of ``players`` under ``rules`` (a
    :class:`RuleSet`, a preset name or ``None`` for the plain defaults), ``policies[s]`` at
    seat ``s`` (default: :class:`TableEV` everywhere), and settles each round exactly.

    ``threads``: Rust threads (``None``: all cores); results never depend on it. ``progress``:
    a progress bar with rounds/s and an ETA. ``out``: stream the rows to this Parquet file in
    chunks instead of keeping them (a run larger than memory); the summary is still kept.
    Ctrl-C stops the run within about a second and returns (or has written) the rounds done.

    ``backend="ray"`` (``pip install chinese-poker[ray]``) splits the rounds into ``shards``
    ranges (default: 4 per CPU of the Ray cluster) played as Ray tasks on whatever cluster
    ``ray.init`` connected to (a local one is started if none is); the rows gathered are the
    local run's rows. With ``out``, each shard writes its own part, ``out/part-NNNNN.parquet``.
    """
    rounds = _args.rounds("rounds", rounds)
    players = _args.players("players", players)
    seed = _args.seed("seed", seed)
    threads = _args.threads("threads", threads)
    shards = _args.shards("shards", shards)
    if backend not in ("local", "ray"):
        raise InvalidArgumentError(
            f'argument "backend": expected "local" or "ray", got {backend!r}'
        )
    rs = _rule_set(rules)
    # every policy refused before anything runs
    pols, _ = _read_policies(policies, rs, players)
    names = tuple(_policy_name(p) for p in pols)
    path = None if out is None else Path(out)
    bar = _Progress(rounds, "round", progress)
    start = time.perf_counter()
    try:
        if backend == "ray":
            from ._ray_backend import play_shards  # Ray is optional: imported when asked for

            ranges, cut = play_shards(rs, pols, seed, rounds, threads, path, shards, bar.update)
        else:
            ranges = [_play_range(rs, pols, seed, 0, rounds, threads, path, bar.update)]
            cut = False
    finally:
        bar.close()
    tally = _core.SeatTally(players)
    for r in ranges:
        tally.merge(r.tally)
    kept = [r.columns for r in ranges if r.columns is not None and r.done]
    columns = None if path is not None else _joined(kept, rs, players)
    return Simulation(
        players=players,
        rules=rs.name,
        policies=names,
        seed=seed,
        requested=rounds,
        rounds=sum(r.done for r in ranges),
        interrupted=cut or any(r.interrupted for r in ranges),
        seconds=time.perf_counter() - start,
        columns=columns,
        parquet=path,
        _tally=tally,
    )


def settle_batch(
    settings: npt.ArrayLike,
    rules: RuleSet | str | None = None,
    choices: npt.ArrayLike | None = None,
    naturals: npt.ArrayLike | None = None,
    threads: int | None = None,
) -> npt.NDArray[np.int64]:
    """Settles many rounds given as arrays, in Rust: ``settings`` (R, P, 13) ``uint8``
    front/middle/back codes; ``choices`` (R, P) (0 play, 1 declare, 2 surrender; default all
    play); ``naturals`` (R, P) natural indices for the declaring seats (255 none; as
    :class:`~chinese_poker.BatchSolution` gives them). Returns (R, P) int64 points. Errors name
    the round and the seat."""
    s = _codes("settings", settings, 3)
    if s.shape[2] != 13 or not _core.MIN_PLAYERS <= s.shape[1] <= _core.MAX_PLAYERS:
        raise _shape_error("settings", f"(R, {_core.MIN_PLAYERS} to {_core.MAX_PLAYERS}, 13)", s)
    r, p = s.shape[:2]
    c = np.zeros((r, p), np.uint8) if choices is None else _codes("choices", choices, 2)
    n = (
        np.full((r, p), NO_NATURAL, np.uint8)
        if naturals is None
        else _codes("naturals", naturals, 2)
    )
    for name, a in (("choices", c), ("naturals", n)):
        if a.shape != (r, p):
            raise _shape_error(name, f"({r}, {p}), one per round and seat of settings", a)
    cols = _core.settle_rounds(
        _rule_set(rules).compiled, s, c, n, _args.threads("threads", threads)
    )
    return np.asarray(cols["points"]).reshape(r, p)


def _shape_error(name: str, expected: str, a: npt.NDArray[Any]) -> InvalidShapeError:
    return _arg_error(InvalidShapeError, name, f"expected shape {expected}, got {a.shape}")


def _codes(name: str, value: object, ndim: int) -> npt.NDArray[np.uint8]:
    """An array argument of small codes (cards, choices, naturals) as ``uint8``: whole numbers
    0 to 255 only. A bool, float (never truncated: 0.7 is not "play"), text or object array is an
    ``InvalidTypeError``, ragged or wrongly shaped input an ``InvalidShapeError``, a number
    outside 0..255 an ``InvalidArgumentError``, each naming the argument."""
    try:
        a = np.asarray(value)
    except (ValueError, TypeError) as e:
        raise _arg_error(
            InvalidShapeError, name, f"expected a {ndim}-D array, got ragged input ({e})"
        ) from None
    if a.dtype.kind not in "iu":
        got = "bool" if a.dtype.kind == "b" else str(a.dtype)
        raise _arg_error(
            InvalidTypeError, name, f"expected whole numbers from 0 to 255, got {got} values"
        )
    if a.ndim != ndim:
        raise _arg_error(InvalidShapeError, name, f"expected a {ndim}-D array, got shape {a.shape}")
    if a.size and (int(a.min()) < 0 or int(a.max()) > 255):
        bad = int(a.min()) if int(a.min()) < 0 else int(a.max())
        raise _arg_error(
            InvalidArgumentError, name, f"expected whole numbers from 0 to 255, got {bad}"
        )
    return a.astype(np.uint8, copy=False)
