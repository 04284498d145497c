"""Self-play at scale: seeded deals, policies, exact settlement, columnar results, duels.

    >>> import chinese_poker as cp
    >>> run = cp.simulate(200, players=4, rules="maceplay", seed=1, progress=False)
    >>> int(run.columns["points"].reshape(-1, 4).sum(axis=1).max())  # every round is zero-sum
    0

Round ``r`` of a run seeded ``s`` is dealt and played from its own seed, so a run gives the same
rows for any ``threads``, any chunking and any backend, and a run can be split into shards of
rounds. Built-in policies (:class:`~chinese_poker.TableEV`, :class:`~chinese_poker.MonteCarlo`,
:class:`Greedy`, :class:`RandomLegal`) play entirely in Rust with the GIL released; a Python
callable ``hand -> decision`` plays too, in Python, hand by hand (much slower).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core
from ._args import whole
from .exceptions import InvalidArgumentError
from .rules import RuleSet
from .scoring import DecisionLike
from .solver import MonteCarlo, TableEV
from .tables import _rule_set, load_tables

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


@dataclass(frozen=True)
class Greedy:
    """The baseline: the strongest back of the 13 cards, the strongest middle of the other 8,
    the rest in front. Never fouls, never declares or surrenders by itself."""


@dataclass(frozen=True)
class RandomLegal:
    """A uniformly random legal setting (seeded by the run: reproducible)."""


PolicyLike: TypeAlias = (
    "TableEV | MonteCarlo | Greedy | RandomLegal | Callable[[npt.NDArray[np.uint8]], DecisionLike]"
)

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
# the `status` and `choice` columns' codes
_FOULED, _NATURAL, _SURRENDERED = map(
    _core.STATUS_NAMES.index, ("fouled", "natural", "surrendered")
)
_SURRENDER = _core.CHOICE_NAMES.index("surrender")


def deal(rounds: int, players: int = 4, seed: int = 0, first: int = 0) -> npt.NDArray[np.uint8]:
    """The hands of rounds ``first..first + rounds`` of a run seeded ``seed``: a
    ``(rounds, players, 13)`` ``uint8`` array of card codes, each hand sorted. These are exactly
    the hands :func:`simulate` deals for the same seed."""
    return _core.deal(
        whole("rounds", rounds, 0, 2**40),
        whole("players", players, 2, 4),
        whole("seed", seed, 0, 2**64 - 1),
        whole("first", first, 0, 2**64 - 1),
    )


# -- policies ----------------------------------------------------------------------------------


def _spec(policy: object, rules: RuleSet, players: int, seat: int) -> tuple[Any, ...] | None:
    """The core's form of a built-in policy; ``None`` for a Python callable."""
    if isinstance(policy, TableEV):
        return ("table", load_tables(rules, players, policy.tables))
    if isinstance(policy, MonteCarlo):
        table = load_tables(rules, players, policy.opponent_policy.tables)
        return ("monte_carlo", policy.compiled(table))
    if isinstance(policy, Greedy):
        return ("greedy",)
    if isinstance(policy, RandomLegal):
        return ("random",)
    if callable(policy):
        return None
    raise InvalidArgumentError(
        f'argument "policies[{seat}]": expected TableEV, MonteCarlo, Greedy, RandomLegal or a '
        f"callable hand -> decision, got {type(policy).__name__}"
    )


def _policy_name(policy: object) -> str:
    if isinstance(policy, TableEV | MonteCarlo | Greedy | RandomLegal):
        return repr(policy)
    return getattr(policy, "__name__", type(policy).__name__)


# -- results -----------------------------------------------------------------------------------


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
        from .display import text

        return text(self)

    def _repr_html_(self) -> str:
        from .display import html

        return html(self)


class _Tally:
    """Running per-seat sums, so a streamed run can be summarised without its rows."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.n = 0
        z = np.zeros(players)
        self.sum, self.sq = z.copy(), z.copy()
        self.scoops, self.sweeps = z.copy(), z.copy()
        self.fouls, self.naturals, self.surrenders = z.copy(), z.copy(), z.copy()

    def add(self, cols: Mapping[str, npt.NDArray[Any]]) -> None:
        p = self.players

        def per_seat(a: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
            out: npt.NDArray[np.float64] = (
                np.asarray(a, dtype=np.float64).reshape(-1, p).sum(axis=0)
            )
            return out

        pts = np.asarray(cols["points"], dtype=np.float64)
        self.n += len(pts) // p
        self.sum += per_seat(pts)
        self.sq += per_seat(pts * pts)
        self.scoops += per_seat(cols["scoops"] > 0)
        self.sweeps += per_seat(cols["sweep"])
        self.fouls += per_seat(cols["status"] == _FOULED)
        self.naturals += per_seat(cols["status"] == _NATURAL)
        self.surrenders += per_seat(cols["status"] == _SURRENDERED)

    def merge(self, other: _Tally) -> None:
        self.n += other.n
        for name in ("sum", "sq", "scoops", "sweeps", "fouls", "naturals", "surrenders"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def summary(self, names: Sequence[str]) -> tuple[SeatSummary, ...]:
        out = []
        n = max(self.n, 1)
        for s in range(self.players):
            mean = float(self.sum[s] / n)
            var = max(float(self.sq[s] / n) - mean * mean, 0.0) * n / max(n - 1, 1)
            se = math.sqrt(var / n)
            out.append(
                SeatSummary(
                    seat=s,
                    policy=names[s],
                    rounds=self.n,
                    mean=mean,
                    stderr=se,
                    ci_low=mean - _core.INTERVAL_Z * se,
                    ci_high=mean + _core.INTERVAL_Z * se,
                    scoop_rate=float(self.scoops[s] / n),
                    sweep_rate=float(self.sweeps[s] / n),
                    foul_rate=float(self.fouls[s] / n),
                    natural_rate=float(self.naturals[s] / n),
                    surrender_rate=float(self.surrenders[s] / n),
                )
            )
        return tuple(out)


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
    _tally: _Tally = field(repr=False, default_factory=lambda: _Tally(2))

    def summary(self) -> tuple[SeatSummary, ...]:
        """Per seat: mean points per round with a 95% interval and the event rates."""
        return self._tally.summary(self.policies)

    def __repr__(self) -> str:
        from .display import simulation_repr

        return simulation_repr(self)

    def __str__(self) -> str:
        """The run, then the per-seat table: points per round with its 95% interval, rates."""
        from .display import text

        return text(self)

    def _repr_html_(self) -> str:
        from .display import html

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


# -- running -----------------------------------------------------------------------------------


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
            codes, choice, natural = _core.decision_codes(fn(hands[r, seat]), seat)
            settings[r, seat], choices[r, seat], naturals[r, seat] = codes, choice, natural
    cols = dict(_core.settle_rounds(compiled, settings, choices, naturals, threads))
    # the dealt hands and round numbers, which array settlement cannot know
    cols["hand"] = hands.reshape(-1, 13)
    cols["round"] = np.repeat(np.arange(first, first + count, dtype=np.uint64), players)
    cols["value"] = values.reshape(-1)
    surrendered = cols["choice"] == _SURRENDER
    cols["setting"][surrendered] = cols["hand"][surrendered]
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
    tally: _Tally
    done: int
    interrupted: bool


def _empty_columns(rs: RuleSet, players: int) -> dict[str, npt.NDArray[Any]]:
    return dict(_core.simulate_chunk(rs.compiled, [("greedy",)] * players, 0, 0, 0))


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
    tally = _Tally(players)
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
            tally.add(cols)
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
    columns = None
    if path is None:
        columns = (
            {k: np.concatenate([p[k] for p in parts]) for k in COLUMNS}
            if parts
            else _empty_columns(rs, players)
        )
    return _Range(first, columns, tally, done, interrupted)


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
    rounds = whole("rounds", rounds, 0, 2**40)
    players = whole("players", players, 2, 4)
    seed = whole("seed", seed, 0, 2**64 - 1)
    if backend not in ("local", "ray"):
        raise InvalidArgumentError(
            f'argument "backend": expected "local" or "ray", got {backend!r}'
        )
    rs = _rule_set(rules)
    pols: list[object] = [TableEV()] * players if policies is None else list(policies)
    if len(pols) != players:
        raise InvalidArgumentError(
            f'argument "policies": expected {players} policies (one per seat), got {len(pols)}'
        )
    for s, p in enumerate(pols):
        _spec(p, rs, players, s)  # refuse a bad policy before anything runs
    names = tuple(_policy_name(p) for p in pols)
    path = None if out is None else Path(out)
    bar = _Progress(rounds, "round", progress)
    start = time.perf_counter()
    try:
        if backend == "ray":
            from ._ray_backend import play_shards

            ranges, cut = play_shards(rs, pols, seed, rounds, threads, path, shards, bar.update)
        else:
            ranges = [_play_range(rs, pols, seed, 0, rounds, threads, path, bar.update)]
            cut = False
    finally:
        bar.close()
    tally = _Tally(players)
    for r in ranges:
        tally.merge(r.tally)
    kept = [r.columns for r in ranges if r.columns is not None and r.done]
    columns = None
    if path is None:
        columns = (
            {k: np.concatenate([c[k] for c in kept]) for k in COLUMNS}
            if kept
            else _empty_columns(rs, players)
        )
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
    s = np.asarray(settings)
    if s.dtype != np.uint8 or s.ndim != 3 or s.shape[2] != 13:
        raise InvalidArgumentError(
            f'argument "settings": expected a uint8 array of shape (R, P, 13), got {s.dtype} '
            f"{s.shape}"
        )
    r, p = s.shape[:2]
    c = np.zeros((r, p), np.uint8) if choices is None else np.asarray(choices, dtype=np.uint8)
    n = (
        np.full((r, p), NO_NATURAL, np.uint8)
        if naturals is None
        else np.asarray(naturals, np.uint8)
    )
    cols = _core.settle_rounds(_rule_set(rules).compiled, s, c, n, threads)
    return np.asarray(cols["points"]).reshape(r, p)


# -- duels -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DuelResult:
    """The edge of policy A over policy B in points per hand from duplicate deals, with its
    paired 95% confidence interval; ``same_share``: the share of hands both set identically;
    ``deals_needed``: deals for the interval to exclude 0 at the observed edge and spread."""

    a: str
    b: str
    rules: str
    players: int
    deals: int
    edge: float
    stderr: float
    ci_low: float
    ci_high: float
    same_share: float
    deals_needed: float
    interrupted: bool
    edges: npt.NDArray[np.float64] = field(repr=False, compare=False)

    def __repr__(self) -> str:
        from .display import duel_repr

        return duel_repr(self)

    def __str__(self) -> str:
        from .display import duel_text

        return duel_text(self)

    def _repr_html_(self) -> str:
        from .display import html

        return html(self)


def duel(
    policy_a: PolicyLike,
    policy_b: PolicyLike,
    deals: int = 2000,
    rules: RuleSet | str | None = None,
    players: int = 2,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = True,
) -> DuelResult:
    """Duplicate duel of two built-in policies: every deal is replayed with the seats rotated
    so that A holds each hand once (heads-up: A and B swap; at 3–4 players one seat plays A and
    the others B). Ctrl-C stops it and reports the deals done."""
    deals = whole("deals", deals, 1, 2**40)
    players = whole("players", players, 2, 4)
    seed = whole("seed", seed, 0, 2**64 - 1)
    rs = _rule_set(rules)
    specs = [_spec(p, rs, players, s) for s, p in enumerate((policy_a, policy_b))]
    if any(s is None for s in specs):
        raise InvalidArgumentError("duel: both policies must be built-in (not Python callables)")
    edges: list[npt.NDArray[np.float64]] = []
    same: list[npt.NDArray[np.uint8]] = []
    interrupted = False
    bar = _Progress(deals, "deal", progress)
    try:
        for first, count in _chunks(deals):
            e, s = _core.duel_chunk(
                rs.compiled, players, specs[0], specs[1], seed, first, count, threads
            )
            edges.append(e)
            same.append(s)
            bar.update(count)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    e_all = np.concatenate(edges) if edges else np.zeros(0)
    s_all = np.concatenate(same) if same else np.zeros(0, np.uint8)
    summary = _core.duel_summary(e_all, s_all, players)
    return DuelResult(
        a=_policy_name(policy_a),
        b=_policy_name(policy_b),
        rules=rs.name,
        players=players,
        deals=len(e_all),
        interrupted=interrupted,
        edges=e_all,
        **summary,
    )
