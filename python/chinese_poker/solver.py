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

- :class:`TableEV` (default): the highest expected score against the table, from outcome
  tables trained by self-play for the rule set and table size (how often a row of each rank
  wins, ties and loses against opponents who also play this way, and what it wins or loses).
- :class:`MonteCarlo`: the highest mean score over sampled deals of the 39 unseen cards to the
  opponents, each set by a policy, every candidate scored exactly by the rule set on the same
  deals; reports the standard error. Slower, sharper.
- :class:`BestResponse`: the exact best score against opponents whose settings are known
  (reviewing a finished hand).
- :class:`RowValues`: your own value for each row's rank; the best setting maximises the sum.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import HandRank
from .exceptions import InvalidShapeError
from .rules import RuleSet
from .scoring import DecisionLike, Declare, Setting, Surrender
from .tables import _check_players, _rule_set, load_tables, train_all, train_tables
from .tables import read_tables as read_tables
from .tables import shipped_tables_path as shipped_tables_path

__all__ = [
    "Alternative",
    "BestResponse",
    "MonteCarlo",
    "Objective",
    "RowValues",
    "Solution",
    "TableEV",
    "BatchSolution",
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


@dataclass(frozen=True)
class TableEV:
    """Expected score against the table from per-row outcome tables (the default objective).

    ``tables``: a tables file (``.npz`` from ``chinese-poker tables train``); ``None`` uses the
    tables shipped for the rule set and table size.

    For one opponent, with rows treated as independent: each row adds
    ``P(win)·E[value won] − P(lose)·E[value lost]`` (bonuses included); the majority and overall
    points add their probability-weighted sign over the 27 joint row outcomes; a scoop ``×k``
    adds ``(k−1)·(P(scoop)·won − P(scooped)·lost)`` with ``P(scoop)`` the product of the three
    win probabilities; a sweep ×s at a table of n adds ``(s−1)·(n−1)·(P(scoop)^(n−1)·S −
    P(scooped)·q^(n−2)·C)``. The matchup value is counted once per opponent.
    """

    tables: str | Path | None = None


@dataclass(frozen=True)
class RowValues:
    """Your value for each row's rank; a setting is worth the sum of its three rows.

    Each of ``front``, ``middle``, ``back`` is either an array with one value per rank class
    (455 front classes, 7,462 five-card classes, weakest first, as :func:`rank_classes` lists
    them) or a function ``HandRank -> float``, called once per class before solving. Values
    that never decrease with rank are solved on the frontier; otherwise every legal setting is
    searched (slower, still exact). The values are not points: the hand always plays unless the
    rule set declares naturals automatically.
    """

    front: RowValueSpec
    middle: RowValueSpec
    back: RowValueSpec
    _compiled: dict[str, _core.RowValues] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def compiled(self, wheel: str) -> _core.RowValues:
        if wheel not in self._compiled:
            front_raw, five_raw = _core.rank_classes(wheel)
            arrays = [
                _values(name, spec, raws)
                for name, spec, raws in (
                    ("front", self.front, front_raw),
                    ("middle", self.middle, five_raw),
                    ("back", self.back, five_raw),
                )
            ]
            self._compiled[wheel] = _core.RowValues(wheel, *arrays)
        return self._compiled[wheel]


def _values(name: str, spec: RowValueSpec, raws: npt.NDArray[np.uint32]) -> npt.NDArray[np.float64]:
    if callable(spec):
        return np.array([float(spec(HandRank(int(r)))) for r in raws], dtype=np.float64)
    arr = np.asarray(spec, dtype=np.float64)
    if arr.shape != raws.shape:
        raise InvalidShapeError(
            f"RowValues {name}: expected {raws.shape[0]} values (one per rank class), "
            f"got shape {arr.shape}"
        )
    return arr


@dataclass(frozen=True)
class BestResponse:
    """The exact best score against known opponent decisions (seats 1.., the hand is seat 0),
    settled under the full rule set exactly as :func:`chinese_poker.settle` does."""

    opponents: Sequence[DecisionLike]


@dataclass(frozen=True)
class MonteCarlo:
    """The best mean score over ``samples`` sampled deals of the unseen cards to the opponents
    (all of them, for the table size), each opponent set by ``opponent_policy``; every candidate
    is scored exactly on the same deals. Deterministic for a ``seed`` whatever ``threads``."""

    samples: int = 1000
    seed: int = 0
    opponent_policy: TableEV = field(default_factory=TableEV)
    threads: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or self.samples < 2:
            raise InvalidShapeError(
                f"MonteCarlo samples: expected at least 2, got {self.samples!r}"
            )
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise InvalidShapeError(f"MonteCarlo seed: expected an int ≥ 0, got {self.seed!r}")


Objective: TypeAlias = TableEV | RowValues | BestResponse | MonteCarlo


# -- results ---------------------------------------------------------------------------------


_CARDS = tuple(_core.Card(c) for c in range(52))


def _setting(codes: Sequence[int]) -> Setting:
    # Codes from the core are valid and distinct: skip Setting's parsing and checks.
    cards = [_CARDS[c] for c in codes]
    s: Setting = object.__new__(Setting)
    object.__setattr__(s, "front", tuple(cards[:3]))
    object.__setattr__(s, "middle", tuple(cards[3:8]))
    object.__setattr__(s, "back", tuple(cards[8:]))
    return s


def _ranks(raws: Sequence[int]) -> tuple[HandRank, HandRank, HandRank]:
    f, m, b = (HandRank(int(r)) for r in raws)
    return f, m, b


@dataclass(frozen=True, slots=True)
class Alternative:
    """A candidate play: its cards (``codes``: front, middle, back), row ranks (``raw_ranks``:
    ``HandRank.raw`` values) and value (``stderr`` for Monte Carlo)."""

    codes: tuple[int, ...]
    raw_ranks: tuple[int, int, int]
    value: float
    stderr: float

    @property
    def setting(self) -> Setting:
        return _setting(self.codes)

    @property
    def ranks(self) -> tuple[HandRank, HandRank, HandRank]:
        """Front, middle and back ranks."""
        return _ranks(self.raw_ranks)

    def describe(self) -> str:
        return " / ".join(r.describe() for r in self.ranks)


@dataclass(frozen=True, slots=True)
class Solution:
    """What to do with a hand under an objective.

    ``decision`` is ``"play"``, ``"declare"`` (``natural`` names it) or ``"surrender"``;
    ``setting`` lays out the 13 cards (the natural's layout when declaring); ``value`` is the
    decision's value under the objective (points, except for :class:`RowValues`), ``stderr``
    its standard error (Monte Carlo only); ``alternatives`` the best plays, best first.
    """

    decision: Decision
    natural: str | None
    setting: Setting
    raw_ranks: tuple[int, int, int]
    value: float
    stderr: float | None
    play_value: float
    natural_held: tuple[str, int, float] | None
    surrender_value: float | None
    alternatives: tuple[Alternative, ...]
    candidates: int
    objective: str
    players: int
    rules: str

    @property
    def ranks(self) -> tuple[HandRank, HandRank, HandRank]:
        """Front, middle and back ranks of ``setting``."""
        return _ranks(self.raw_ranks)

    def as_decision(self) -> Setting | Declare | Surrender:
        """The decision in the form :func:`chinese_poker.settle` takes."""
        if self.decision == "surrender":
            return Surrender()
        if self.decision == "declare":
            assert self.natural is not None
            return Declare(self.natural, self.setting)  # type: ignore[arg-type]
        return self.setting

    def explain(self) -> str:
        """The decision and why, in plain words."""
        unit = "" if self.objective == "RowValues" else " points"
        opp = self.players - 1
        what = {
            "TableEV": f"expected score against {opp} opponent{'s' * (opp > 1)} "
            "(trained outcome tables)",
            "MonteCarlo": f"mean score over sampled deals to {opp} opponent{'s' * (opp > 1)}",
            "BestResponse": "exact score against the given opponents",
            "RowValues": "sum of your row values",
        }[self.objective]

        def fmt(v: float, se: float | None = None) -> str:
            s = f"{v:+.3f}{unit}"
            return s + (f" ± {se:.3f}" if se else "")

        lines = [
            f"Rule set {self.rules}, {self.players} players; objective {self.objective}: {what}."
        ]
        rows = zip(("front", "middle", "back"), self.setting.rows(), self.ranks, strict=True)
        layout = "\n".join(
            f"  {name:<7}{' '.join(c.pretty() for c in cards):<16} {rank.describe()}"
            for name, cards, rank in rows
        )
        if self.decision == "declare":
            assert self.natural_held is not None
            kind, units, v = self.natural_held
            lines.append(
                f"Declare {kind.replace('_', ' ')}: {units} from each opponent, {fmt(v)} "
                f"(the best play is worth {fmt(self.play_value)})."
            )
        elif self.decision == "surrender":
            assert self.surrender_value is not None
            lines.append(
                f"Surrender: {fmt(self.surrender_value)} loses less than the best play "
                f"({fmt(self.play_value)})."
            )
        else:
            lines.append(f"Play, worth {fmt(self.value, self.stderr)}:")
        lines.append(layout)
        if self.decision == "play" and self.natural_held is not None:
            kind, units, v = self.natural_held
            lines.append(f"Holds {kind.replace('_', ' ')} ({fmt(v)}) but playing is worth more.")
        if len(self.alternatives) > 1:
            lines.append(f"Next best of {self.candidates} candidate settings:")
            for i, alt in enumerate(self.alternatives[1:], 2):
                value = fmt(alt.value, alt.stderr or None)
                lines.append(f"  {i}. {value}  {alt.setting}  ({alt.describe()})")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()


# -- solving ---------------------------------------------------------------------------------


def _opponent(seat: int, d: object) -> tuple[Any, ...]:
    def codes(s: Setting) -> list[int]:
        return [c.code for row in s.rows() for c in row]

    if isinstance(d, Setting):
        return ("play", codes(d))
    if isinstance(d, Declare):
        return ("declare", d.natural, codes(d.setting))
    if isinstance(d, Surrender):
        return ("surrender",)
    if isinstance(d, tuple | list) and len(d) == 3:
        return ("play", codes(Setting(*d)))
    raise TypeError(
        f"opponent {seat}: expected a Setting, Declare, Surrender or (front, middle, back), "
        f"got {type(d).__name__}"
    )


def _hand_arg(hand: object) -> Any:
    # The core takes strings, CardSets and sequences of Cards / int codes as they are; anything
    # else (numpy rows, numpy integers) is converted here.
    if isinstance(hand, str | _core.CardSet):
        return hand
    if isinstance(hand, np.ndarray):
        return hand.tolist()
    if isinstance(hand, list | tuple) and all(
        type(c) is int or type(c) is _core.Card for c in hand
    ):
        return hand
    try:
        items = list(hand)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"hand: expected 13 cards, got {type(hand).__name__}") from None
    out: list[Any] = []
    for position, c in enumerate(items, 1):
        if isinstance(c, str | _core.Card):
            out.append(c)
            continue
        try:
            out.append(operator.index(c))
        except TypeError:
            raise TypeError(
                f"card at position {position}: expected Card, str or int, got {type(c).__name__}"
            ) from None
    return out


def solve(
    hand: str | Sequence[Any] | _core.CardSet,
    rules: RuleSet | str | None = None,
    players: int = 4,
    objective: Objective | None = None,
    top_k: int = 5,
) -> Solution:
    """The best decision for 13 cards under ``rules`` (a :class:`RuleSet`, a preset name, or
    ``None`` for the plain default rules) at a table of ``players``, for ``objective``
    (default :class:`TableEV`). ``top_k``: how many best plays to list.

    Raises ``InvalidShapeError`` (not 13 cards, bad player count), ``InvalidCardError`` /
    ``DuplicateCardError`` (bad or repeated cards), ``InvalidRulesError`` (unusable tables).
    """
    rs = _rule_set(rules)
    compiled = rs.compiled
    obj: Objective = TableEV() if objective is None else objective
    h = _hand_arg(hand)
    if isinstance(obj, TableEV):
        table = load_tables(rs, _check_players(players), obj.tables)
        raw = _core.solve_table_ev(h, compiled, table, top_k)
    elif isinstance(obj, RowValues):
        raw = _core.solve_row_values(
            h, compiled, obj.compiled(rs.wheel), _check_players(players), top_k
        )
    elif isinstance(obj, BestResponse):
        opps = [_opponent(i, d) for i, d in enumerate(obj.opponents, 1)]
        if not 1 <= len(opps) <= 3:
            raise InvalidShapeError(f"BestResponse: expected 1 to 3 opponents, got {len(opps)}")
        players = len(opps) + 1
        raw = _core.solve_best_response(h, compiled, opps, top_k)
    elif isinstance(obj, MonteCarlo):
        table = load_tables(rs, _check_players(players), obj.opponent_policy.tables)
        raw = _core.solve_monte_carlo(h, compiled, table, obj.samples, obj.seed, obj.threads, top_k)
    else:
        raise TypeError(
            f"objective: expected TableEV, RowValues, BestResponse or MonteCarlo, "
            f"got {type(obj).__name__}"
        )
    return _solution(raw, players, rs.name)


def _solution(raw: dict[str, Any], players: int, rules_name: str) -> Solution:
    mc = raw["objective"] == "MonteCarlo"
    alts = tuple(
        Alternative(tuple(codes), (ranks[0], ranks[1], ranks[2]), float(v), float(se))
        for codes, ranks, v, se in raw["alternatives"]
    )
    nat = raw["natural"]
    return Solution(
        decision=raw["choice"],
        natural=raw["declared"],
        setting=_setting(raw["codes"]),
        raw_ranks=(raw["ranks"][0], raw["ranks"][1], raw["ranks"][2]),
        value=float(raw["value"]),
        stderr=float(raw["stderr"]) if mc else None,
        play_value=float(raw["play_value"]),
        natural_held=None if nat is None else (str(nat[0]), int(nat[1]), float(nat[2])),
        surrender_value=raw["surrender_value"],
        alternatives=alts,
        candidates=int(raw["candidates"]),
        objective=raw["objective"],
        players=players,
        rules=rules_name,
    )


@dataclass(frozen=True)
class BatchSolution:
    """Batch results: ``settings`` (N, 13) uint8 codes in front/middle/back order, ``values``
    (N,) expected scores, ``decisions`` (N,) uint8 (0 play, 1 declare, 2 surrender)."""

    settings: npt.NDArray[np.uint8]
    values: npt.NDArray[np.float64]
    decisions: npt.NDArray[np.uint8]


def solve_batch(
    codes: npt.NDArray[np.uint8],
    rules: RuleSet | str | None = None,
    players: int = 4,
    objective: TableEV | None = None,
    threads: int | None = None,
) -> BatchSolution:
    """Solves an (N, 13) ``uint8`` array of hands with the table objective, in Rust threads
    with the GIL released (``threads=None``: all cores); Ctrl-C interrupts it. Results never
    depend on ``threads``."""
    rs = _rule_set(rules)
    obj = TableEV() if objective is None else objective
    if not isinstance(obj, TableEV):
        raise TypeError("solve_batch: only the TableEV objective runs in batches")
    table = load_tables(rs, _check_players(players), obj.tables)
    settings, values, decisions = _core.solve_batch(codes, rs.compiled, table, threads)
    return BatchSolution(settings, values, decisions)


def legal_settings(
    hand: str | Sequence[Any] | _core.CardSet, wheel: str = "low"
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint32]]:
    """Every legal setting: (N, 13) codes in front/middle/back order and (N, 3) raw ranks."""
    return _core.legal_settings(_hand_arg(hand), wheel)


def frontier(
    hand: str | Sequence[Any] | _core.CardSet, wheel: str = "low"
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint32]]:
    """The Pareto frontier of the legal settings (same arrays), strongest back first."""
    return _core.frontier(_hand_arg(hand), wheel)


def rank_classes(wheel: str = "low") -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """Raw ranks of every rank class, weakest first: 455 fronts and 7,462 five-card rows (the
    indices :class:`RowValues` arrays use)."""
    return _core.rank_classes(wheel)
