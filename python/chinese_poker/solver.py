"""The setting solver: the best way to set 13 cards, and what "best" means.

    >>> import chinese_poker as cp
    >>> sol = cp.solve("As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d", rules="maceplay", players=4)
    >>> sol.decision
    'play'
    >>> sorted(c.code for row in sol.setting.rows() for c in row) == sorted(
    ...     c.code for c in cp.parse_cards("As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"))
    True

Every objective picks from the hand's **Pareto frontier**: the legal settings that no other
legal setting matches or beats in all three rows at once (a dominated setting can never score
more under any rule set, since every row pays at least as much when it is stronger). Among
settings with identical row ranks one representative is kept.

Objectives (what "best" means):

- [`TableEV`][chinese_poker.TableEV] (default): the highest expected score against the table, from
  outcome
  tables trained by self-play for the rule set and table size (how often a row of each rank
  wins, ties and loses against opponents who also play this way, and what it wins or loses).
- [`MonteCarlo`][chinese_poker.MonteCarlo]: the highest mean score over sampled deals of the 39
  unseen cards to the
  opponents, each set by a policy, every candidate scored exactly by the rule set on the same
  deals; reports the standard error. Slower, sharper.
- [`BestResponse`][chinese_poker.BestResponse]: the exact best score against opponents whose
  settings are known
  (reviewing a finished hand).
- [`RowValues`][chinese_poker.RowValues]: your own value for each row's rank; the best setting
  maximises the sum.

A bot solving hand after hand holds a [`Solver`][chinese_poker.Solver], which fixes the rule set,
table size, objective and tables once; [`solve()`][chinese_poker.solve] and
[`solve_batch()`][chinese_poker.solve_batch] are thin wrappers over one. Results
([`Solution`][chinese_poker.Solution], [`Alternative`][chinese_poker.Alternative]) are frozen
classes built by the core.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _args, _core
from ._args import path as _path
from ._args import seed as _seed
from ._args import threads as _threads
from ._core import Alternative, HandRank, Solution, parse_hands
from .display import Shown
from .exceptions import InvalidArgumentError, InvalidShapeError, InvalidTypeError
from .rules import RuleSet, _rule_set
from .scoring import DecisionLike, Declare, Setting, Surrender
from .strategy_tables import (
    FIVE_CLASSES,
    FRONT_CLASSES,
    FallbackTablesWarning,
    TablesId,
    _check_players,
    load_tables,
    on_clear_cache,
    train_all,
    train_tables,
)
from .strategy_tables import read_tables as read_tables
from .strategy_tables import shipped_tables_path as shipped_tables_path

__all__ = [
    "Alternative",
    "BestResponse",
    "MonteCarlo",
    "Objective",
    "RowValues",
    "Solution",
    "TableEV",
    "TablesId",
    "FallbackTablesWarning",
    "BatchSolution",
    "Solver",
    "parse_hands",
    "frontier",
    "legal_settings",
    "load_tables",
    "rank_classes",
    "solve",
    "solve_batch",
    "train_all",
    "train_tables",
]

Decision = Literal["play", "declare", "surrender"]
RowValueSpec: TypeAlias = "npt.ArrayLike | Callable[[HandRank], float]"


# -- objectives ------------------------------------------------------------------------------

MAX_SAMPLES: int = _core.MAX_SAMPLES
MAX_THREADS: int = _core.MAX_THREADS
#: Largest magnitude of a row value: three rows of them still sum to a finite float.
MAX_ROW_VALUE: float = _core.MAX_ROW_VALUE


@dataclass(frozen=True)
class TableEV:
    """Expected score against the table from per-row outcome tables (the default objective).

    For one opponent, with rows treated as independent: each row adds
    ``P(win)·E[value won] − P(lose)·E[value lost]`` (bonuses included); the majority and overall
    points add their probability-weighted sign over the 27 joint row outcomes; a scoop ``×k``
    adds ``(k−1)·(P(scoop)·won − P(scooped)·lost)`` with ``P(scoop)`` the product of the three
    win probabilities; a sweep ×s at a table of n adds ``(s−1)·(n−1)·(P(scoop)^(n−1)·S −
    P(scooped)·q^(n−2)·C)``. The matchup value is counted once per opponent.

    Args:
        tables: A tables file (``.npz`` from ``chinese-poker tables train``); ``None`` uses the
            tables installed or shipped for the rule set and table size.

    Raises:
        InvalidTypeError: ``tables`` is not a path.
        InvalidArgumentError: ``tables`` is not a usable path (empty, a NUL character).
    """

    tables: str | Path | None = None

    def __post_init__(self) -> None:
        if self.tables is not None:
            _path("tables", self.tables)


_ROW_CLASSES = (("front", FRONT_CLASSES), ("middle", FIVE_CLASSES), ("back", FIVE_CLASSES))


def _row_spec(name: str, spec: object, size: int) -> Any:
    """A callable as it is, else a read-only float64 array of ``size`` finite values."""
    if callable(spec):
        return spec
    try:
        arr = np.asarray(spec)
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(f"RowValues {name}: not an array of numbers ({e})") from None
    if arr.dtype.kind not in "biuf":
        raise InvalidArgumentError(
            f"RowValues {name}: expected real numbers, got dtype {arr.dtype}"
        )
    if arr.shape != (size,):
        raise InvalidShapeError(
            f"RowValues {name}: expected {size} values (one per rank class), got shape {arr.shape}"
        )
    out = arr.astype(np.float64)
    _check_values(name, out)
    out.setflags(write=False)
    return out


def _check_values(name: str, values: npt.NDArray[np.float64]) -> None:
    bad = ~(np.abs(values) <= MAX_ROW_VALUE)
    if bad.any():
        i = int(np.argmax(bad))
        raise InvalidArgumentError(
            f"RowValues {name}: value {float(values[i])!r} at class {i} is not a finite number of "
            f"magnitude at most {MAX_ROW_VALUE:g}"
        )


class RowValues:
    """Your value for each row's rank; a setting is worth the sum of its three rows.

    Values that never decrease with rank are solved on the frontier; otherwise every legal
    setting is searched (slower, still exact). The values are not points: the hand always plays
    unless the rule set declares naturals automatically.

    A ``RowValues`` is an immutable value: arrays are copied read-only, ``==`` and ``hash``
    compare the arrays' contents (and functions by identity), and it pickles and copies (with
    module-level functions, as pickle requires).

    Args:
        front: The front's values: an array of one value per rank class (455, weakest first, as
            [`rank_classes()`][chinese_poker.solver.rank_classes] lists them), or a function
            ``HandRank -> float`` called once per class before solving.
        middle: The middle's values, likewise (7,462 five-card classes).
        back: The back's values, likewise (7,462 five-card classes).

    Raises:
        InvalidShapeError: An array with the wrong number of values.
        InvalidArgumentError: A value that is not real or above ``1e300`` in magnitude.
    """

    __slots__ = ("_specs", "_compiled")

    _specs: tuple[Any, Any, Any]
    _compiled: dict[str, _core.RowValues]

    def __init__(self, front: RowValueSpec, middle: RowValueSpec, back: RowValueSpec) -> None:
        specs = tuple(
            _row_spec(name, spec, size)
            for (name, size), spec in zip(_ROW_CLASSES, (front, middle, back), strict=True)
        )
        object.__setattr__(self, "_specs", specs)
        object.__setattr__(self, "_compiled", {})

    @property
    def front(self) -> RowValueSpec:
        return self._specs[0]  # type: ignore[no-any-return]

    @property
    def middle(self) -> RowValueSpec:
        return self._specs[1]  # type: ignore[no-any-return]

    @property
    def back(self) -> RowValueSpec:
        return self._specs[2]  # type: ignore[no-any-return]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("RowValues is immutable")

    def __reduce__(self) -> tuple[type[RowValues], tuple[Any, Any, Any]]:
        return (RowValues, self._specs)

    def _key(self) -> tuple[object, ...]:
        return tuple(s.tobytes() if isinstance(s, np.ndarray) else s for s in self._specs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RowValues):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        parts = (
            f"{name}=<{s.shape[0]} values>" if isinstance(s, np.ndarray) else f"{name}={s!r}"
            for (name, _), s in zip(_ROW_CLASSES, self._specs, strict=True)
        )
        return f"RowValues({', '.join(parts)})"

    def compiled(self, wheel: str) -> _core.RowValues:
        """The core's values for a wheel (functions are called here, once per wheel).

        Args:
            wheel: ``"low"`` or ``"second"``.

        Returns:
            The core's row values (opaque).
        """
        cache: dict[str, _core.RowValues] = self._compiled
        if wheel not in cache:
            front_raw, five_raw = _core.rank_classes(wheel)
            arrays = [
                _values(name, spec, raws)
                for (name, _), spec, raws in zip(
                    _ROW_CLASSES, self._specs, (front_raw, five_raw, five_raw), strict=True
                )
            ]
            cache[wheel] = _core.RowValues(wheel, *arrays)
        return cache[wheel]


def _values(name: str, spec: Any, raws: npt.NDArray[np.uint32]) -> npt.NDArray[np.float64]:
    if not callable(spec):
        return spec  # type: ignore[no-any-return]
    out = np.empty(len(raws), dtype=np.float64)
    for i, r in enumerate(raws):
        v = spec(HandRank(int(r)))
        if isinstance(v, bool | complex) or not isinstance(
            v, int | float | np.integer | np.floating
        ):
            raise InvalidArgumentError(
                f"RowValues {name}: the function returned {v!r} for class {i}; expected a real "
                "number"
            )
        out[i] = float(v)
    _check_values(name, out)
    return out


@dataclass(frozen=True)
class BestResponse:
    """The exact best score against known opponent decisions (seats 1.., the hand is seat 0),
    settled under the full rule set exactly as [`chinese_poker.settle()`][chinese_poker.settle]
    does.

    Args:
        opponents: One to three decisions, as [`settle()`][chinese_poker.settle] takes them (a
            [`Setting`][chinese_poker.Setting], its rows, [`Declare`][chinese_poker.Declare] or
            [`Surrender`][chinese_poker.Surrender]); the table size is one more.

    Raises:
        InvalidArgumentError: ``opponents`` is not a sequence of decisions.
    """

    opponents: Sequence[DecisionLike]

    def __post_init__(self) -> None:
        if isinstance(self.opponents, str | bytes) or not isinstance(self.opponents, Sequence):
            raise InvalidArgumentError(
                "opponents: expected a sequence of 1 to 3 decisions, got "
                f"{type(self.opponents).__name__}"
            )
        object.__setattr__(self, "opponents", tuple(self.opponents))


@dataclass(frozen=True)
class MonteCarlo:
    """Exact scores over sampled deals of the unseen cards to the opponents (all of them, for
    the table size), each opponent decided by ``opponent_policy`` as it plays (naturals and
    surrenders included); every candidate is scored on the same deals. The table objective's
    best ``candidates`` plays are raced against its choice: a play is dropped once the samples
    show it worse at ``confidence``, sampling stops as soon as one play is left (or after
    ``samples``, or ``time_limit``), and the table's choice is replaced only by a play that
    beats it at ``confidence`` ([architecture: Monte
    Carlo](https://chinese-poker.github.io/chinese-poker/architecture/#monte-carlo)).
    Deterministic for a ``seed`` whatever ``threads``, unless ``time_limit`` is set. Ctrl-C
    interrupts a long run (``KeyboardInterrupt``).

    Args:
        samples: The most samples drawn, 2 to ``MAX_SAMPLES`` (10⁷); ``None``: ``MC_SAMPLES``
            (2,000), or ``MAX_SAMPLES`` with a ``time_limit``, so that the clock decides.
        seed: Seed of the sampled deals, 0 to 2⁶⁴ − 1.
        opponent_policy: How the sampled opponents set their hands: a
            [`TableEV`][chinese_poker.TableEV] (its tables, or the rule set's).
        threads: ``None`` (all cores) or 1 to ``MAX_THREADS``; results never depend on it.
        confidence: 0 (sample every candidate ``samples`` times and play the best mean), or at
            least 0.5 and below 1.
        candidates: How many of the table objective's best plays are raced; 0 races the whole
            frontier.
        time_limit: Seconds of sampling per solve, above 0 and at most ``MAX_TIME_LIMIT`` (a
            day), checked every 128 samples; ``Solution.samples`` says how many were drawn, and
            the result then depends on the machine's speed and load, so use ``samples`` where
            runs must repeat.

    Raises:
        InvalidArgumentError: A value outside its range, or an ``opponent_policy`` that is not a
            ``TableEV``.
    """

    samples: int | None = None
    seed: int = 0
    opponent_policy: TableEV = field(default_factory=TableEV)
    threads: int | None = None
    confidence: float = _core.MC_CONFIDENCE
    candidates: int = _core.MC_CANDIDATES
    time_limit: float | None = None

    def __post_init__(self) -> None:
        _core.check_budget(self.samples, self.confidence, self.candidates, self.time_limit)
        _seed("seed", self.seed)
        _threads("threads", self.threads)
        if not isinstance(self.opponent_policy, TableEV):
            raise InvalidArgumentError(
                "opponent_policy: expected a TableEV (the policy that sets the opponents' "
                f"hands), got {type(self.opponent_policy).__name__}"
            )

    def compiled(self, table: _core.TableEv) -> _core.Objective:
        """The core objective, its opponents decided by the table objective given.

        Args:
            table: The compiled table objective of the sampled opponents.

        Returns:
            The core's objective (opaque).
        """
        return _core.Objective.monte_carlo(
            table,
            self.samples,
            self.seed,
            self.threads,
            self.confidence,
            self.candidates,
            self.time_limit,
        )


Objective: TypeAlias = TableEV | RowValues | BestResponse | MonteCarlo


class _Cancel(Protocol):
    def is_set(self) -> bool: ...


# -- solving ---------------------------------------------------------------------------------


class Solver:
    """A solver fixed once to a rule set, table size, objective and tables, for callers that
    solve hand after hand (a bot): each [`solve()`][chinese_poker.Solver.solve] goes straight to
    the core.

        >>> import chinese_poker as cp
        >>> bot = cp.Solver("maceplay", players=3)
        >>> bot.solve("As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d").decision
        'play'

    Args:
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name or ``None`` (the default
            preset, ``maceplay``).
        players: The table size, 2 to 4 (for [`BestResponse`][chinese_poker.BestResponse], one
            more than the opponents given, whatever is passed).
        objective: What to maximise; default [`TableEV`][chinese_poker.TableEV].
        tables: A tables file for the table objective (or Monte Carlo's opponent policy) where
            the objective does not name one.

    Raises:
        InvalidRulesError: An unknown preset, or tables that cannot be used for the rule set.
        InvalidShapeError: A table size outside 2 to 4.
        InvalidArgumentError: An objective of the wrong type.
    """

    __slots__ = ("rules", "players", "objective", "_compiled", "_objective")

    rules: RuleSet
    players: int
    objective: Objective
    _compiled: _core.Rules
    _objective: _core.Objective

    def __init__(
        self,
        rules: RuleSet | str | None = None,
        players: int = 4,
        objective: Objective | None = None,
        tables: str | Path | None = None,
    ) -> None:
        rs = _rule_set(rules)
        obj = _with_tables(TableEV() if objective is None else objective, tables)
        if isinstance(obj, BestResponse):
            core_obj = _core.Objective.best_response(obj.opponents)
            players = len(obj.opponents) + 1
        else:
            players = _check_players(players)
            if isinstance(obj, TableEV):
                core_obj = _core.Objective.table_ev(load_tables(rs, players, obj.tables))
            elif isinstance(obj, RowValues):
                core_obj = _core.Objective.row_values(obj.compiled(rs.wheel))
            elif isinstance(obj, MonteCarlo):
                table = load_tables(rs, players, obj.opponent_policy.tables)
                core_obj = obj.compiled(table)
            else:
                raise InvalidArgumentError(
                    "objective: expected TableEV, RowValues, BestResponse or MonteCarlo, "
                    f"got {type(obj).__name__}"
                )
        for name, value in (
            ("rules", rs),
            ("players", players),
            ("objective", obj),
            ("_compiled", rs.compiled),
            ("_objective", core_obj),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Solver is immutable")

    def __repr__(self) -> str:
        return (
            f"Solver(rules={self.rules.name!r}, players={self.players}, "
            f"objective={type(self.objective).__name__})"
        )

    @property
    def tables(self) -> TablesId | None:
        """The strategy tables this solver plays (`TablesId`: their source and
        digest), as every solution it gives names them; ``None`` for objectives that use
        none."""
        return self._objective.tables

    def solve(
        self,
        hand: str | Sequence[Any] | _core.CardSet,
        top_k: int = 5,
        *,
        cancel: _Cancel | None = None,
    ) -> Solution:
        """The best decision for 13 cards.

        Args:
            hand: 13 cards: a card string, cards, codes (a numpy row too) or a ``CardSet``.
            top_k: How many best plays to list (≥ 1).
            cancel: An event (a ``threading.Event``, or anything with ``is_set()``) another
                thread may set to stop a Monte Carlo solve within about 20 ms; the other
                objectives take microseconds and never look at it.

        Returns:
            The decision, its rows and value, and the runners-up.

        Raises:
            InvalidShapeError: Not 13 cards.
            InvalidCardError: A card that does not parse.
            DuplicateCardError: A card given twice.
            InvalidArgumentError: ``top_k`` below 1.
            CancelledError: ``cancel`` was set during a Monte Carlo solve.
        """
        if cancel is None:
            return _core.solve(
                hand, self._compiled, self.players, self._objective, top_k, self.rules.name
            )
        if not callable(getattr(cancel, "is_set", None)):
            raise InvalidTypeError(
                f"cancel: expected an event with is_set() (threading.Event), got "
                f"{type(cancel).__name__}"
            )
        return _core.solve(
            hand, self._compiled, self.players, self._objective, top_k, self.rules.name, cancel
        )

    def solve_batch(
        self, codes: npt.NDArray[np.uint8], threads: int | None = None
    ) -> BatchSolution:
        """Solves many hands at once (table objective only), in Rust threads with the GIL released;
        Ctrl-C interrupts it. The array is copied once, so it may change while the batch runs.

        Args:
            codes: An (N, 13) ``uint8`` array of card codes, one hand per row.
            threads: ``None`` (all cores) or 1 to ``MAX_THREADS``; no more threads than CPUs are
                used, and a batch too small to split (one hand) runs on the calling thread. Results
                never depend on it.

        Returns:
            One row per hand: settings, values, decisions and naturals.

        Raises:
            InvalidArgumentError: An objective other than the table's, or a bad ``threads``.
            InvalidShapeError: An array that is not (N, 13).
            InvalidCardError: A code outside 0..51.
            DuplicateCardError: A card twice in one hand.
        """
        if not isinstance(self.objective, TableEV):
            raise InvalidArgumentError(
                "objective: only the TableEV objective runs in batches, got "
                f"{type(self.objective).__name__}"
            )
        settings, values, decisions, naturals = _core.solve_batch(
            codes, self._compiled, self._objective, threads
        )
        return BatchSolution(
            settings, values, decisions, naturals, self._compiled.digest, self.tables
        )


def _with_tables(objective: Objective, tables: str | Path | None) -> Objective:
    if tables is None:
        return objective
    if isinstance(objective, TableEV):
        if objective.tables is None:
            return TableEV(tables)
        if str(objective.tables) == str(tables):
            return objective
    elif isinstance(objective, MonteCarlo):
        if objective.opponent_policy.tables is None:
            return dataclasses.replace(objective, opponent_policy=TableEV(tables))
        if str(objective.opponent_policy.tables) == str(tables):
            return objective
    else:
        raise InvalidArgumentError(
            f"tables: the {type(objective).__name__} objective uses no outcome tables"
        )
    raise InvalidArgumentError("tables: the objective already names another tables file")


_SOLVERS: dict[tuple[object, int, int], tuple[object, object, Solver]] = {}
_MAX_SOLVERS = 32
on_clear_cache(_SOLVERS.clear)  # a solver holds loaded tables


def _solver(rules: RuleSet | str | None, players: int, objective: Objective | None) -> Solver:
    # Keyed by identity, not equality: hashing a RuleSet or the arrays of a RowValues costs
    # microseconds per call. Each entry holds its rules and objective, so their ids cannot be
    # reused while it exists; an equal but distinct object only misses the cache.
    if type(players) is not int:
        return Solver(rules, players, objective)  # raises the players error
    key = (rules if rules is None or isinstance(rules, str) else id(rules), players, id(objective))
    hit = _SOLVERS.get(key)
    if hit is not None and hit[0] is rules and hit[1] is objective:
        return hit[2]
    solver = Solver(rules, players, objective)
    if len(_SOLVERS) >= _MAX_SOLVERS:
        del _SOLVERS[next(iter(_SOLVERS))]
    _SOLVERS[key] = (rules, objective, solver)
    return solver


def solve(
    hand: str | Sequence[Any] | _core.CardSet,
    rules: RuleSet | str | None = None,
    players: int = 4,
    objective: Objective | None = None,
    top_k: int = 5,
) -> Solution:
    """The best decision for 13 cards under a rule set at a table, for an objective.

    The same as ``Solver(rules, players, objective).solve(hand, top_k)``; solvers are cached,
    so repeated calls with the same arguments load nothing again.

    Args:
        hand: 13 cards: a card string (``"As Ks Qs ..."``), cards, codes (a numpy row too) or a
            ``CardSet``.
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name, or ``None`` for the default
            preset, ``maceplay``.
        players: The table size, 2 to 4.
        objective: What to maximise; default [`TableEV`][chinese_poker.TableEV].
        top_k: How many best plays to list (≥ 1).

    Returns:
        The decision (play, declare a natural or surrender), its rows and value, and the
        runners-up.

    Raises:
        InvalidShapeError: Not 13 cards, or a bad player count.
        InvalidCardError: A card that does not parse.
        DuplicateCardError: A card given twice.
        InvalidRulesError: Unusable tables or an unknown preset.
        InvalidArgumentError: ``top_k``, or an objective of the wrong type.
    """
    return _solver(rules, players, objective).solve(hand, top_k)


@dataclass(frozen=True, eq=False, repr=False)
class BatchSolution(Shown):
    """Batch results, one row per hand: ``settings`` (N, 13) uint8 codes in front/middle/back
    order, ``values`` (N,) expected scores, ``decisions`` (N,) uint8 (0 play, 1 declare,
    2 surrender) and ``naturals`` (N,) uint8, the declared natural's index in
    ``NATURAL_NAMES`` (255: none). [`decision()`][chinese_poker.BatchSolution.decision] gives hand
    ``i``'s decision in the form [`chinese_poker.settle()`][chinese_poker.settle] takes, so batch
    results settle exactly as [`solve()`][chinese_poker.solve]'s.

    Attributes:
        settings: (N, 13) ``uint8`` codes in front/middle/back order.
        values: (N,) expected scores.
        decisions: (N,) ``uint8``: 0 play, 1 declare, 2 surrender.
        naturals: (N,) ``uint8``: the declared natural's index in ``NATURAL_NAMES`` (255: none).
        rules_digest: The rule set's digest (`RuleSet.digest`).
        tables: The strategy tables played (`TablesId`: their source and digest).
    """

    settings: npt.NDArray[np.uint8]
    values: npt.NDArray[np.float64]
    decisions: npt.NDArray[np.uint8]
    naturals: npt.NDArray[np.uint8]
    rules_digest: str = ""
    tables: TablesId | None = None

    #: The natural each ``naturals`` index stands for.
    NATURAL_NAMES: tuple[str, ...] = field(default=_core.NATURAL_NAMES, init=False, repr=False)

    def __len__(self) -> int:
        return len(self.decisions)

    def decision(self, i: int) -> Setting | Declare | Surrender:
        """One hand's decision in the form [`settle()`][chinese_poker.settle] takes, so batch
        results settle exactly as [`solve()`][chinese_poker.solve]'s.

        Args:
            i: The hand's row.

        Returns:
            A [`Setting`][chinese_poker.Setting], [`Declare`][chinese_poker.Declare] or
            [`Surrender`][chinese_poker.Surrender].
        """
        n = len(self.decisions)
        if isinstance(i, bool) or not isinstance(i, int | np.integer):
            raise _args.arg_error(
                InvalidTypeError, "i", f"expected a hand index (an int), got {type(i).__name__}"
            )
        if not -n <= i < n:
            raise _args.arg_error(
                InvalidArgumentError, "i", f"expected a hand index from {-n} to {n - 1}, got {i!r}"
            )
        return _core.decision_of_codes(
            self.settings[i].tolist(), int(self.decisions[i]), int(self.naturals[i])
        )

    def decisions_list(self) -> list[Setting | Declare | Surrender]:
        """Every hand's decision, in order."""
        return [self.decision(i) for i in range(len(self.decisions))]


def solve_batch(
    codes: npt.NDArray[np.uint8],
    rules: RuleSet | str | None = None,
    players: int = 4,
    objective: TableEV | None = None,
    threads: int | None = None,
) -> BatchSolution:
    """Solves many hands at once with the table objective, in Rust threads with the GIL released;
    Ctrl-C interrupts it. The same as ``Solver(rules, players, objective).solve_batch(codes,
    threads)``.

    Args:
        codes: An (N, 13) ``uint8`` array of card codes, one hand per row.
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name, or ``None`` for ``maceplay``.
        players: The table size, 2 to 4.
        objective: A [`TableEV`][chinese_poker.TableEV] (its tables), or ``None`` for the rule
            set's.
        threads: ``None`` (all cores) or 1 to ``MAX_THREADS``; a batch too small to split runs
            on the calling thread. Results never depend on it.

    Returns:
        One row per hand: settings, values, decisions and naturals.

    Raises:
        InvalidShapeError: An array that is not (N, 13), or a bad player count.
        InvalidCardError: A code outside 0..51.
        DuplicateCardError: A card twice in one hand.
        InvalidArgumentError: An objective other than the table's, or a bad ``threads``.
    """
    return _solver(rules, players, objective).solve_batch(codes, threads)


def legal_settings(
    hand: str | Sequence[Any] | _core.CardSet, wheel: str = "low"
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint32]]:
    """Every legal (unfouled) setting of a hand.

    Args:
        hand: 13 cards: a card string, cards, codes or a ``CardSet``.
        wheel: Where A-2-3-4-5 ranks: ``"low"`` or ``"second"``.

    Returns:
        (N, 13) codes in front/middle/back order and (N, 3) raw ranks.
    """
    return _core.legal_settings(hand, wheel)


def frontier(
    hand: str | Sequence[Any] | _core.CardSet, wheel: str = "low"
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint32]]:
    """The Pareto frontier of a hand's legal settings, strongest back first: the settings no other
    setting beats in every row.

    Args:
        hand: 13 cards: a card string, cards, codes or a ``CardSet``.
        wheel: Where A-2-3-4-5 ranks: ``"low"`` or ``"second"``.

    Returns:
        (N, 13) codes in front/middle/back order and (N, 3) raw ranks.
    """
    return _core.frontier(hand, wheel)


def rank_classes(wheel: str = "low") -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """Raw ranks of every rank class, weakest first: the indices
    [`RowValues`][chinese_poker.RowValues] arrays use.

    Args:
        wheel: Where A-2-3-4-5 ranks: ``"low"`` or ``"second"``.

    Returns:
        455 front ranks and 7,462 five-card ranks (``HandRank.raw`` values).
    """
    return _core.rank_classes(wheel)
