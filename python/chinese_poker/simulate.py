"""Self-play at scale: seeded deals, exact settlement, columnar results and their summary.

    >>> import chinese_poker as cp
    >>> run = cp.simulate(200, players=4, rules="maceplay", seed=1, progress=False)
    >>> int(run.columns["points"].reshape(-1, 4).sum(axis=1).max())  # every round is zero-sum
    0

Round ``r`` of a run seeded ``s`` is dealt and played from its own seed, so a run gives the same
rows for any ``threads``, any chunking and any backend, and a run can be split into shards of
rounds. Built-in policies ([`TableEV`][chinese_poker.TableEV],
[`MonteCarlo`][chinese_poker.MonteCarlo], [`Greedy`][chinese_poker.Greedy],
[`RandomLegal`][chinese_poker.RandomLegal]) play entirely in Rust with the GIL released; a Python
callable ``hand -> decision`` plays too, in Python, hand by hand (much slower).

The policies are defined in `chinese_poker.policies`, the chunk runner in ``_runner``, the
crash-safe simulation directory (``out=``) in ``_dataset``, duels in
`chinese_poker.duels`.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np
import numpy.typing as npt

from . import _args, _core, _dataset, _optional
from ._args import arg_error as _arg_error
from ._runner import (
    _PARQUET_OPTIONS,
    COLUMNS,
    NO_NATURAL,
    _arrow_table,
    _joined,
    _play_range,
    _Progress,
    _progress_mode,
)
from .display import Shown

# DuelResult, duel, Greedy, PolicyLike, RandomLegal: still importable from here, where they
# were defined before this module was split by job.
from .duels import DuelResult as DuelResult
from .duels import duel as duel
from .exceptions import (
    ChinesePokerError,
    InvalidArgumentError,
    InvalidShapeError,
    InvalidTypeError,
    OutputError,
)
from .policies import Greedy as Greedy
from .policies import PolicyLike as PolicyLike
from .policies import RandomLegal as RandomLegal
from .policies import _policy_name, _read_policies
from .provenance import Provenance
from .rules import RuleSet, _rule_set

if TYPE_CHECKING:
    import pyarrow as pa

# its own names; the duel and the policies, which lived here before, are still imported from here
__all__ = [
    "COLUMNS",
    "PolicySummary",
    "Provenance",
    "SeatSummary",
    "Simulation",
    "deal",
    "read_simulation",
    "settle_batch",
    "simulate",
]


def deal(rounds: int, players: int = 4, seed: int = 0, first: int = 0) -> npt.NDArray[np.uint8]:
    """The hands of rounds ``first..first + rounds`` of a run: exactly the hands
    [`simulate()`][chinese_poker.simulate.simulate] deals for the same seed.

    Args:
        rounds: How many rounds, at most ``MAX_DEALT_ROUNDS`` (2**22) per call, checked before
            anything is allocated; take a longer run in pages with ``first``.
        players: Hands per round, 2 to 4.
        seed: The run's seed, 0 to 2⁶⁴ − 1.
        first: The first round dealt.

    Returns:
        A ``(rounds, players, 13)`` ``uint8`` array of card codes, each hand sorted.

    Raises:
        InvalidArgumentError: A value out of range, naming it.
        InvalidShapeError: A player count outside 2 to 4.
    """
    return _core.deal(rounds, players, seed, first)


@dataclass(frozen=True, slots=True)
class SeatSummary(Shown):
    """One seat's results over a run: mean points per round with a 95% confidence interval,
    and how often the seat scooped an opponent, swept, fouled, was paid a natural or
    surrendered (per round).

    Attributes:
        seat: The seat.
        policy: The seat's policy, as the provenance names it.
        rounds: Rounds played.
        mean: Mean points per round.
        stderr: Standard error of ``mean`` (NaN for fewer than 2 rounds).
        ci_low: Low end of the 95% interval of ``mean``.
        ci_high: High end of the 95% interval of ``mean``.
        scoop_rate: Share of rounds that scooped at least one opponent.
        sweep_rate: Share of rounds that swept the table.
        foul_rate: Share of rounds that fouled.
        natural_rate: Share of rounds paid a natural.
        surrender_rate: Share of rounds that surrendered.
    """

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


def _summaries(tally: _core.SeatTally, names: Sequence[str]) -> tuple[SeatSummary, ...]:
    """Each seat's summary: every figure computed by the core from the run's running sums."""
    return tuple(SeatSummary(policy=names[s["seat"]], **s) for s in tally.summary())


@dataclass(frozen=True, slots=True)
class PolicySummary(Shown):
    """The seats that played one policy, pooled: mean points per hand over the ``hands``
    (``rounds`` × the number of ``seats``) they played, with a standard error clustered by
    round and its 95% interval, and the event rates per hand. ``policy``: the policy with its
    parameters, as the run's provenance names it.

    Attributes:
        policy: The policy, with its parameters.
        seats: The seats that played it.
        rounds: Rounds played.
        hands: Hands its seats played (``rounds`` × the number of ``seats``).
        mean: Mean points per hand (clustered by round).
        stderr: Standard error of ``mean`` (NaN for fewer than 2 rounds).
        ci_low: Low end of the 95% interval of ``mean``.
        ci_high: High end of the 95% interval of ``mean``.
        scoop_rate: Share of hands that scooped at least one opponent.
        sweep_rate: Share of hands that swept the table.
        foul_rate: Share of hands that fouled.
        natural_rate: Share of hands paid a natural.
        surrender_rate: Share of hands that surrendered.
    """

    policy: str
    seats: tuple[int, ...]
    rounds: int
    hands: int
    mean: float
    stderr: float
    ci_low: float
    ci_high: float
    scoop_rate: float
    sweep_rate: float
    foul_rate: float
    natural_rate: float
    surrender_rate: float


_RATES = ("scoop_rate", "sweep_rate", "foul_rate", "natural_rate", "surrender_rate")
_BLOCK_ROUNDS = 1 << 16  # rounds of points summed at once: int64 sums of squares stay exact


def _groups(keys: Sequence[str]) -> dict[str, list[int]]:
    """The seats of each policy, policies in the order of their first seat."""
    groups: dict[str, list[int]] = {}
    for seat, key in enumerate(keys):
        groups.setdefault(key, []).append(seat)
    return groups


def _round_sums(
    blocks: Iterable[npt.NDArray[np.int64]], groups: Sequence[Sequence[int]]
) -> list[tuple[int, int, int]]:
    """Per group of seats: the rounds, and the exact sum and sum of squares over rounds of the
    group's points in a round (``S_r``), read a block of ``(rounds, players)`` points at a
    time."""
    sums = [[0, 0, 0] for _ in groups]
    for block in blocks:
        for start in range(0, len(block), _BLOCK_ROUNDS):
            part = block[start : start + _BLOCK_ROUNDS]
            for acc, seats in zip(sums, groups, strict=True):
                s = part[:, list(seats)].sum(axis=1, dtype=np.int64)
                acc[0] += len(s)
                acc[1] += int(s.sum())
                acc[2] += int(np.dot(s, s))
    return [(r, total, squares) for r, total, squares in sums]


def _clustered(rounds: int, seats: int, total: int, squares: int) -> tuple[float, float]:
    """The mean per hand and its standard error clustered by round, from a group's round sums
    (see [`Simulation.summary()`][chinese_poker.Simulation.summary]); NaN where the rounds are too
    few."""
    if rounds == 0:
        return float("nan"), float("nan")
    hands = rounds * seats
    mean = total / hands
    if rounds < 2:
        return mean, float("nan")
    # sum over rounds of (S_r - seats * mean)**2, exactly: sum S_r**2 - (sum S_r)**2 / R
    spread = Fraction(rounds * squares - total * total, rounds)
    variance = spread * rounds / ((rounds - 1) * hands * hands)
    return mean, float(variance) ** 0.5


def _policy_summaries(
    keys: Sequence[str],
    seats: Sequence[SeatSummary],
    blocks: Iterable[npt.NDArray[np.int64]],
) -> tuple[PolicySummary, ...]:
    groups = _groups(keys)
    sums = _round_sums(blocks, list(groups.values()))
    out = []
    for (key, group), (rounds, total, squares) in zip(groups.items(), sums, strict=True):
        mean, se = _clustered(rounds, len(group), total, squares)
        z = _core.INTERVAL_Z
        rates = {r: float(np.mean([getattr(seats[s], r) for s in group])) for r in _RATES}
        out.append(
            PolicySummary(
                policy=key,
                seats=tuple(group),
                rounds=rounds,
                hands=rounds * len(group),
                mean=mean,
                stderr=se,
                ci_low=mean - z * se,
                ci_high=mean + z * se,
                **rates,
            )
        )
    return tuple(out)


@dataclass(repr=False)
class Simulation(Shown):
    """The result of [`simulate()`][chinese_poker.simulate.simulate].

    ``columns`` maps each name of [`COLUMNS`][chinese_poker.simulate.COLUMNS] to a numpy array with
    one row per (round, seat), rounds in order and seats within a round: ``round`` (uint64),
    ``seat`` (uint8), ``hand`` (N, 13) uint8 dealt codes, ``choice`` (0 play, 1 declare, 2
    surrender: index into ``_core.CHOICE_NAMES``), ``setting`` (N, 13) front/middle/back codes,
    ``status`` (0 played, 1 fouled, 2 natural, 3 surrendered: ``_core.STATUS_NAMES``), ``declared``
    (index into ``_core.NATURAL_NAMES``, ``NO_NATURAL`` = 255 none), ``ranks`` (N, 3)
    ``HandRank.raw`` values, ``scoops`` (opponents scooped), ``sweep`` (bool), ``points``
    (int64), ``value`` (float64: the policy's own estimate of its decision's points, NaN for
    policies without one — predicted against realised ``points`` is its calibration).
    ``columns`` is ``None`` when the run was written to a simulation directory (``parquet``;
    [`read_simulation()`][chinese_poker.read_simulation] reads it back). ``interrupted`` says the
    run stopped (Ctrl-C, or a directory not finished yet) after ``rounds`` of ``requested`` rounds.
    In Arrow and Parquet (``to_arrow``, ``to_parquet``, ``out=``) the code columns ``choice``,
    ``status`` and ``declared`` are dictionary columns of those names (``declared`` null for none);
    numpy keeps the codes. ``provenance`` says how the run was made
    ([`Provenance`][chinese_poker.simulate.Provenance]).

    Attributes:
        players: The table size.
        rules: The rule set's name (``provenance`` holds the whole rule set).
        policies: Each seat's policy, with its parameters.
        seed: The run's seed.
        requested: Rounds asked for.
        rounds: Rounds played (fewer than ``requested`` when ``interrupted``).
        interrupted: The run stopped before ``requested`` rounds.
        seconds: Wall time of the run.
        columns: The rows, by column name (``None`` when written to ``parquet``).
        parquet: The simulation directory the rows were written to, or ``None``.
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
    _provenance: Provenance | None = field(repr=False, default=None, compare=False)

    @property
    def provenance(self) -> Provenance:
        """How the run was made: the full rule set, the policy of each seat with its
        parameters, the seed, the rounds asked for and the package version that played them
        (read back from the files by [`read_simulation()`][chinese_poker.read_simulation])."""
        if self._provenance is None:  # a Simulation made by hand, not by simulate
            rs = _rule_set(self.rules)
            return Provenance(
                rs,
                self.players,
                self.policies,
                self.seed,
                self.requested,
                tables=(None,) * len(self.policies),
            )
        return self._provenance

    @overload
    def summary(self, by: Literal["seat"] = "seat") -> tuple[SeatSummary, ...]: ...
    @overload
    def summary(self, by: Literal["policy"]) -> tuple[PolicySummary, ...]: ...

    def summary(self, by: str = "seat") -> tuple[SeatSummary, ...] | tuple[PolicySummary, ...]:
        """``by="seat"``: per seat, mean points per round with a 95% interval and the event
        rates.

        ``by="policy"``: the seats that played the same policy (parameters included, as
        ``provenance.policies`` names it) pooled, one
        [`PolicySummary`][chinese_poker.simulate.PolicySummary] each: the mean points per hand over
        the ``hands = rounds × k`` hands its ``k`` seats played, and the event rates per hand. The
        seats of a round are not independent (the points of a round sum to zero, and two seats of
        one policy face the same deal), so its standard error is clustered by round: with ``S_r``
        the policy's points in round ``r`` (summed over its seats) and ``R`` rounds, ``stderr**2 = R
        / (R - 1) * sum_r (S_r - k * mean)**2 / hands**2``, the cluster-robust (CR1) variance of a
        mean with rounds as clusters. It is the seat's own standard error when one seat plays the
        policy, and 0 when every seat does (a zero-sum round pays the policy nothing). The interval
        is ``mean ± z * stderr`` with the core's ``INTERVAL_Z`` (95%). A run written to a simulation
        directory is read back a block of points at a time (needs pyarrow).

        Args:
            by: ``"seat"`` or ``"policy"``.

        Returns:
            One [`SeatSummary`][chinese_poker.simulate.SeatSummary] per seat, or one
            [`PolicySummary`][chinese_poker.simulate.PolicySummary] per policy.

        Raises:
            InvalidArgumentError: Another ``by``.
        """
        seats = _summaries(self._tally, self.policies)
        if by == "seat":
            return seats
        if by != "policy":
            raise _arg_error(InvalidArgumentError, "by", f'expected "seat" or "policy", got {by!r}')
        return _policy_summaries(self.provenance.policies, seats, self._points())

    def _points(self) -> Iterable[npt.NDArray[np.int64]]:
        """The points as ``(rounds, players)`` blocks: the rows kept, or read back a block at a
        time from the run's Parquet output."""
        if self.columns is not None:
            return [self.columns["points"].reshape(-1, self.players)]
        if self.parquet is None:
            raise InvalidArgumentError("this simulation has neither rows nor a Parquet file")
        _optional.require("pyarrow", "a summary by policy of a run stored in Parquet")
        return _dataset.iter_points(self.parquet, self.players)

    def _need_columns(self) -> dict[str, npt.NDArray[Any]]:
        if self.columns is None:
            raise InvalidArgumentError(
                f"this run was written to {self.parquet}; read it back with "
                "chinese_poker.read_simulation"
            )
        return self.columns

    def to_arrow(self) -> pa.Table:
        """The rows as a ``pyarrow.Table`` (cards and ranks as fixed-size lists, the code
        columns as dictionary columns of their names); needs ``pyarrow`` (``pip install
        "chinese-poker[arrow]"``, else ``MissingDependencyError``)."""
        _optional.require("pyarrow", "Simulation.to_arrow")
        return _arrow_table(self._need_columns())

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (through Arrow; the code columns categorical)."""
        _optional.require("pyarrow", "Simulation.to_pandas")
        _optional.require("pandas", "Simulation.to_pandas")
        return self.to_arrow().to_pandas()

    def to_polars(self) -> Any:
        """The rows as a polars DataFrame (through Arrow, without copying where it can)."""
        _optional.require("pyarrow", "Simulation.to_polars")
        pl = _optional.require("polars", "Simulation.to_polars")
        return pl.from_arrow(self.to_arrow())

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: how the run was made (``provenance``, see
        [`Provenance`][chinese_poker.simulate.Provenance]), the format and schema version of its
        rows, how far it got, where its rows were written and the summary per seat (the rows
        themselves are ``columns`` or its Parquet output)."""
        return {
            "format": _dataset.FORMAT,
            "schema_version": _dataset.SCHEMA_VERSION,
            "provenance": self.provenance.to_dict(),
            "rounds": self.rounds,
            "requested": self.requested,
            "interrupted": self.interrupted,
            "seconds": self.seconds,
            "parquet": None if self.parquet is None else str(self.parquet),
            "summary": [dataclasses.asdict(s) for s in self.summary()],
        }

    def to_parquet(self, path: str | os.PathLike[str], rows_per_group: int = 262_144) -> Path:
        """Writes the rows to a Parquet file, with the run's provenance in its key-value metadata
        (so that [`read_simulation()`][chinese_poker.read_simulation] reads it back); written
        under a temporary name and renamed when complete, a row group at a time (Ctrl-C stops it
        within a row group, leaving nothing behind).

        Args:
            path: The file to write, in a folder that exists.
            rows_per_group: Rows per Parquet row group, 1 to ``2**26``.

        Returns:
            The path written.

        Raises:
            InvalidArgumentError: A folder that does not exist, a directory, or a bad
                ``rows_per_group`` (before anything is written).
            MissingDependencyError: pyarrow is not installed.
            OutputError: Writing failed (a full disk).
        """
        pq = _optional.require("pyarrow.parquet", "Simulation.to_parquet")
        import pyarrow as pa

        target = _args.path("path", path)
        group = _args.whole("rows_per_group", rows_per_group, 1, 1 << 26)
        parent = target.absolute().parent
        if not parent.is_dir():
            raise _arg_error(InvalidArgumentError, "path", f"the folder {parent} does not exist")
        if target.is_dir():
            raise _arg_error(InvalidArgumentError, "path", f"{target} is a directory")
        table = self.to_arrow()
        prov = self.provenance
        identity = _dataset.run_identity(prov.to_dict())
        meta = _dataset.file_metadata(identity, prov.package_version, prov.first, self.rounds)
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), **meta})
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            with pq.ParquetWriter(str(tmp), table.schema, **_PARQUET_OPTIONS) as writer:
                # a row group a call: Python sees Ctrl-C between them
                for start in range(0, max(table.num_rows, 1), group):
                    writer.write_table(table.slice(start, group), row_group_size=group)
            os.replace(tmp, target)
        except BaseException as e:
            tmp.unlink(missing_ok=True)
            if isinstance(e, OSError | pa.ArrowException):
                raise OutputError(f"writing the rows to {target} failed: {e}") from e
            raise
        return target


def simulate(
    rounds: int,
    players: int = 4,
    rules: RuleSet | str | None = None,
    policies: Sequence[PolicyLike] | None = None,
    seed: int = 0,
    threads: int | None = None,
    backend: str = "local",
    progress: bool | Literal["bar", "lines"] = True,
    out: str | os.PathLike[str] | None = None,
    shards: int | None = None,
    resume: bool = False,
    overwrite: bool = False,
) -> Simulation:
    """Plays rounds of self-play at a table and settles each round exactly, in Rust threads.

    Ctrl-C stops the run within about a second and returns (or has written) the rounds done,
    with ``interrupted`` set.

    With ``out``, the rows go to a simulation directory instead of memory (a run larger than
    memory; the summary is still kept): finished parts ``part-<first round>.parquet``, each
    written under a temporary name and renamed when complete, and a manifest
    ``_manifest.parquet`` of the rounds done, replaced atomically after each part. Any Parquet
    reader reads the directory as one dataset; [`read_simulation()`][chinese_poker.read_simulation]
    reads it back as a [`Simulation`][chinese_poker.Simulation]. Ctrl-C, a kill or a full disk
    loses at most the part being written (a part is written every 262,144 rows or 30 seconds)
    and never damages a finished one.

    Args:
        rounds: Rounds to play.
        players: The table size, 2 to 4.
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name or ``None`` for the default
            preset, ``maceplay``.
        policies: ``policies[s]`` sets seat ``s``'s hands: a built-in policy
            ([`TableEV`][chinese_poker.TableEV], [`MonteCarlo`][chinese_poker.MonteCarlo],
            [`Greedy`][chinese_poker.Greedy], [`RandomLegal`][chinese_poker.RandomLegal]) or a
            Python callable; default ``TableEV()`` everywhere.
        seed: The run's seed; each round has its own seed from it, so results are reproducible.
        threads: Rust threads (``None``: all cores); results never depend on it.
        backend: ``"local"``, or ``"ray"`` (``pip install chinese-poker[ray]``): the rounds split
            into ``shards`` ranges played as Ray tasks on whatever cluster ``ray.init``
            connected to (a local one is started if none is); the rows gathered are the local
            run's rows. With ``out`` (on a file system every task sees), each task writes its
            own parts and the manifest records them as the tasks finish.
        progress: Rounds/s and an ETA on stderr, as a bar on a terminal or in a notebook,
            else a line every 10 seconds (``"bar"`` or ``"lines"`` choose; ``False``: none);
            output that fails turns it off.
        out: A simulation directory to write the rows to: a path whose folder exists, not a
            folder that holds anything else; checked before any work.
        shards: Ray tasks (default: 4 per CPU of the Ray cluster).
        resume: Continue the run at ``out`` from its manifest (the rounds not done; the result
            is exactly the rows of an uninterrupted run); a directory of another run (rule set,
            players, policies, seed or rounds) is refused. With nothing at ``out`` the run
            starts.
        overwrite: Replace an existing simulation directory or file at ``out`` (never a folder
            holding other files); refused otherwise.

    Returns:
        The run: its rows (unless written to ``out``), per-seat summary and provenance.

    Raises:
        InvalidArgumentError: A value out of range, a policy that cannot play, or an ``out``
            that cannot be written or belongs to another run.
        InvalidShapeError: A player count outside 2 to 4, or a policy list of the wrong length.
        OutputError: Writing failed (a full disk); the parts finished before are kept.
        MissingDependencyError: ``out`` without pyarrow, or ``backend="ray"`` without Ray.
    """
    rounds = _args.rounds("rounds", rounds)
    players = _args.players("players", players)
    seed = _args.seed("seed", seed)
    threads = _args.threads("threads", threads)
    shards = _args.shards("shards", shards)
    resume = _args.flag("resume", resume)
    overwrite = _args.flag("overwrite", overwrite)
    if backend not in ("local", "ray"):
        raise InvalidArgumentError(
            f'argument "backend": expected "local" or "ray", got {backend!r}'
        )
    _progress_mode(progress)  # refused before anything runs
    rs = _rule_set(rules)
    # every policy refused before anything runs
    pols, specs = _read_policies(policies, rs, players)
    names = tuple(_policy_name(p) for p in pols)
    prov = Provenance.of(rs, pols, seed, rounds, players, specs)
    identity = _dataset.run_identity(prov.to_dict())
    ds = None
    if out is not None:
        _optional.require("pyarrow", 'argument "out": writing Parquet')
        ds = _dataset.open_output(out, identity, resume=resume, overwrite=overwrite)
    elif resume or overwrite:
        raise InvalidArgumentError(
            'argument "resume" / "overwrite": only apply with "out" (a simulation directory)'
        )
    todo = [(0, rounds)] if ds is None else ds.gaps()
    start = time.perf_counter()
    bar: _Progress | None = None
    try:
        bar = _Progress(rounds, "round", progress)
        if ds is not None:
            bar.update(ds.done())
        if ds is not None and rounds == 0 and not ds.parts:
            empty = _joined([], rs, players)
            ds.write(_arrow_table(empty), 0, 0, _core.SeatTally(players))
        if backend == "ray" and todo:
            from ._ray_backend import play_shards  # Ray is optional: imported when asked for

            ranges, cut = play_shards(
                rs, pols, seed, todo, threads, ds, shards, bar.update, prov.tables
            )
        else:
            sink = None if ds is None else ds.write
            ranges, cut = [], False
            for first, count in todo:
                r = _play_range(rs, pols, seed, first, count, threads, sink, bar.update)
                ranges.append(r)
                if r.interrupted:
                    cut = True
                    break
    except OutputError as e:
        if ds is None:
            raise
        raise OutputError(
            f"{e}; the {ds.done():,} rounds finished before are kept in {ds.path} "
            "(simulate(..., resume=True) continues)"
        ) from e.__cause__
    finally:
        if bar is not None:
            bar.close()
        if ds is not None:
            ds.close()  # the next writer may take the directory
    if ds is not None:
        tally, done = ds.tally(), ds.done()
        cut = cut or done < rounds
    else:
        tally, done = _core.SeatTally(players), 0
        for r in ranges:
            tally.merge(r.tally)
            done += r.done
    kept = [r.columns for r in ranges if r.columns is not None and r.done]
    columns = None if ds is not None else _joined(kept, rs, players)
    return Simulation(
        players=players,
        rules=rs.name,
        policies=names,
        seed=seed,
        requested=rounds,
        rounds=done,
        interrupted=cut,
        seconds=time.perf_counter() - start,
        columns=columns,
        parquet=None if ds is None else ds.path,
        _tally=tally,
        _provenance=prov,
    )


def read_simulation(path: str | os.PathLike[str]) -> Simulation:
    """A simulation read back: rows, summary and provenance. The labelled columns read back as
    codes, the summary is computed afresh from the rows, and ``provenance`` is the one the files
    record.

    Args:
        path: A simulation directory written by
            [`simulate()`][chinese_poker.simulate.simulate] with ``out`` (the parts its manifest
            lists; an unfinished run reads as ``interrupted`` with the rounds done so far), or
            one Parquet file written by
            [`Simulation.to_parquet()`][chinese_poker.Simulation.to_parquet] (or a part of a
            directory, read alone).

    Returns:
        The simulation, as [`simulate()`][chinese_poker.simulate.simulate] returned it.

    Raises:
        MissingDependencyError: pyarrow is not installed.
        InvalidArgumentError: A path that is not such a simulation, or holds damaged rows.
        OutputError: A file that cannot be read.
    """
    _optional.require("pyarrow", "read_simulation")
    stored = _dataset.read(path)
    cols = stored.columns
    try:
        prov = Provenance.from_dict(stored.description)
    except (KeyError, ChinesePokerError, TypeError, ValueError) as e:
        raise _arg_error(
            InvalidArgumentError, "path", f"{path} holds a damaged run description ({e!r})"
        ) from None
    tally = _core.SeatTally(prov.players)
    try:
        tally.add(cols["points"], cols["scoops"], cols["sweep"], cols["status"])
    except (KeyError, ChinesePokerError, TypeError, ValueError) as e:
        raise _arg_error(InvalidArgumentError, "path", f"{path} holds damaged rows ({e})") from None
    return Simulation(
        players=prov.players,
        rules=prov.rules.name,
        policies=prov.policies,
        seed=prov.seed,
        requested=prov.rounds,
        rounds=stored.done,
        interrupted=stored.done < prov.rounds,
        seconds=0.0,
        columns=cols,
        parquet=Path(os.fspath(path)),
        _tally=tally,
        _provenance=prov,
    )


def settle_batch(
    settings: npt.ArrayLike,
    rules: RuleSet | str | None = None,
    choices: npt.ArrayLike | None = None,
    naturals: npt.ArrayLike | None = None,
    threads: int | None = None,
) -> npt.NDArray[np.int64]:
    """Settles many rounds given as arrays, in Rust. Errors name the round and the seat.

    Args:
        settings: An (R, P, 13) ``uint8`` array of front/middle/back codes: R rounds of P seats.
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name or ``None`` for ``maceplay``.
        choices: An (R, P) array of decisions: 0 play, 1 declare, 2 surrender (default: all
            play).
        naturals: An (R, P) array of natural indices for the declaring seats (255: none), as
            [`BatchSolution`][chinese_poker.BatchSolution] gives them.
        threads: ``None`` (all cores) or 1 to ``MAX_THREADS``; results never depend on it.

    Returns:
        An (R, P) ``int64`` array of the points each seat won (negative: paid).

    Raises:
        InvalidShapeError: Arrays whose shapes do not fit.
        InvalidCardError: A code outside 0..51.
        InvalidDecisionError: A fouled setting under a rule set that rejects fouls, a false
            natural or a surrender the rule set does not allow.
    """
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
