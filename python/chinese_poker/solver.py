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

import functools
import json
import operator
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import HandRank
from .exceptions import InvalidRulesError, InvalidShapeError
from .rules import RuleSet
from .scoring import DecisionLike, Declare, Setting, Surrender

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
TABLES_DIR = "data"
INDEX_FILE = "tables.json"
FRONT_CLASSES = 455
FIVE_CLASSES = 7462


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
            return Declare(self.natural, self.setting)
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


# -- tables ----------------------------------------------------------------------------------


def _rule_set(rules: RuleSet | str | None) -> RuleSet:
    if rules is None:
        return RuleSet()
    if isinstance(rules, str):
        return RuleSet.preset(rules)
    if isinstance(rules, RuleSet):
        return rules
    raise TypeError(f"rules: expected a RuleSet, a preset name or None, got {type(rules).__name__}")


def _check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidShapeError(f"players: expected 2 to 4, got {players!r}")
    return players


def read_tables(path: str | Path) -> dict[str, Any]:
    """Reads and validates a tables file: the three row distributions and their metadata."""
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except (OSError, ValueError) as e:
        raise InvalidRulesError(f"tables file {str(path)!r}: cannot be read ({e})") from None
    for name, size in (("front", FRONT_CLASSES), ("middle", FIVE_CLASSES), ("back", FIVE_CLASSES)):
        arr = data.get(name)
        if arr is None or arr.shape != (size,):
            got = None if arr is None else arr.shape
            raise InvalidRulesError(
                f"tables file {str(path)!r}: {name} must have {size} classes, got {got}"
            )
        if not np.all(np.isfinite(arr)) or np.any(arr < 0):
            raise InvalidRulesError(f"tables file {str(path)!r}: {name} is not a distribution")
    try:
        meta = json.loads(str(data["meta"]))
        float(meta["scoop_rate"])
        str(meta["key"])
    except (KeyError, ValueError, TypeError) as e:
        raise InvalidRulesError(f"tables file {str(path)!r}: bad metadata ({e})") from None
    return {
        "front": data["front"].astype(np.float64),
        "middle": data["middle"].astype(np.float64),
        "back": data["back"].astype(np.float64),
        "meta": meta,
    }


def write_tables(path: str | Path, trained: dict[str, Any], meta: dict[str, Any]) -> None:
    """Writes trained tables (as returned by training) to a compressed ``.npz`` file."""
    full = dict(meta, scoop_rate=float(trained["scoop_rate"]), key=trained["key"])
    np.savez_compressed(
        path,
        front=np.asarray(trained["front"], dtype=np.float32),
        middle=np.asarray(trained["middle"], dtype=np.float32),
        back=np.asarray(trained["back"], dtype=np.float32),
        meta=np.array(json.dumps(full, sort_keys=True)),
    )


def _data_dir() -> Path:
    return Path(str(resources.files("chinese_poker"))) / TABLES_DIR


@functools.cache
def _index() -> dict[str, str]:
    path = _data_dir() / INDEX_FILE
    if not path.exists():
        return {}
    entries = json.loads(path.read_text())["tables"]
    return {e["key"]: e["file"] for e in entries}


def shipped_tables_path(rules: RuleSet | str | None, players: int) -> Path | None:
    """The shipped tables file for a rule set and table size, or ``None`` if none matches."""
    rs = _rule_set(rules)
    key = _core.tables_key(rs.compiled, _check_players(players))
    name = _index().get(key)
    return None if name is None else _data_dir() / name


@functools.lru_cache(maxsize=64)
def _load(rules: RuleSet, players: int, path: str | None) -> _core.TableEv:
    given = path is not None
    if path is None:
        found = shipped_tables_path(rules, players)
        if found is None:
            found = _fallback(rules, players)
        path = str(found)
    t = read_tables(path)
    wheel = t["meta"].get("wheel", rules.wheel)
    if wheel != rules.wheel:
        raise InvalidRulesError(
            f"tables file {path!r} was trained for the {wheel!r} wheel; the rule set uses "
            f"{rules.wheel!r}"
        )
    if given and t["meta"]["key"] != _core.tables_key(rules.compiled, players):
        warnings.warn(
            f"tables file {path!r} was trained for other scoring or another table size "
            f"({t['meta'].get('rules', '?')}, {t['meta'].get('players', '?')} players)",
            stacklevel=4,
        )
    try:
        return _core.TableEv(
            rules.compiled, players, t["front"], t["middle"], t["back"], t["meta"]["scoop_rate"]
        )
    except InvalidRulesError as e:
        raise InvalidRulesError(f"tables file {path!r}: {e}") from None


def _fallback(rules: RuleSet, players: int) -> Path:
    # The plain tables for the same wheel: the tables mostly encode how strong rows are when
    # set well, which the wheel decides; bonuses shift them a little.
    found = shipped_tables_path(RuleSet(wheel=rules.wheel), players)
    if found is None:
        raise InvalidRulesError(
            f"no outcome tables are shipped for the {rules.wheel!r} wheel; build them with "
            "`chinese-poker tables train`"
        )
    warnings.warn(
        f"no tables were trained for rule set {rules.name!r} at {players} players; using the "
        f"plain tables for the {rules.wheel!r} wheel (train your own with `chinese-poker "
        f"tables train`)",
        stacklevel=4,
    )
    return found


def load_tables(
    rules: RuleSet | str | None = None, players: int = 4, path: str | Path | None = None
) -> _core.TableEv:
    """The compiled table objective for a rule set and table size (cached): from ``path``, or
    the shipped tables (falling back, with a warning, to plain tables for the same wheel)."""
    return _load(_rule_set(rules), _check_players(players), None if path is None else str(path))


# -- training --------------------------------------------------------------------------------

DEFAULT_DEALS = 20_000


def train_tables(
    rules: RuleSet | str | None,
    players: int,
    seed: int = 0,
    deals: int = DEFAULT_DEALS,
    out: str | Path | None = None,
    threads: int | None = None,
    progress: Callable[[int, float], object] | None = None,
) -> dict[str, Any]:
    """Trains the table objective's outcome tables by self-play (see ``src/solve/train.rs``):
    ``deals`` heads-up deals per iteration, blended until no row's distribution moves by more
    than 0.01, deterministic for ``seed`` whatever ``threads``. Writes ``out`` if given."""
    import time

    rs = _rule_set(rules)
    start = time.perf_counter()
    trained = _core.train_tables(
        rs.compiled, _check_players(players), seed, deals, threads=threads, progress=progress
    )
    seconds = time.perf_counter() - start
    meta = {
        "rules": rs.name,
        "players": players,
        "seed": seed,
        "deals": deals,
        "iterations": trained["iterations"],
        "deltas": [round(d, 5) for d in trained["deltas"]],
        "seconds": round(seconds, 1),
        "wheel": trained["wheel"],
    }
    if out is not None:
        write_tables(out, trained, meta)
    return dict(trained, meta=meta)


def train_all(
    out_dir: str | Path,
    seed: int = 0,
    deals: int = DEFAULT_DEALS,
    threads: int | None = None,
    log: Callable[[str], object] = print,
) -> list[dict[str, Any]]:
    """Trains tables for every preset and table size 2–4 into ``out_dir`` with an index
    (``tables.json``); rule sets whose tables would be identical (same key) share a file."""
    import time

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    entries: dict[str, dict[str, Any]] = {}
    start = time.perf_counter()
    # the presets, and the plain default rules for either wheel (the fallback of custom rules)
    rule_sets = [(name, RuleSet.preset(name)) for name in RuleSet.presets()]
    rule_sets += [("default", RuleSet()), ("default_second", RuleSet(wheel="second"))]
    for name, rs in rule_sets:
        for players in (2, 3, 4):
            key = _core.tables_key(rs.compiled, players)
            if key in entries:
                entries[key]["presets"].append([name, players])
                log(f"{name} x{players}: shares {entries[key]['file']}")
                continue
            file = f"tables_{len(entries):02d}.npz"
            res = train_tables(rs, players, seed, deals, out / file, threads)
            entries[key] = {
                "key": key,
                "file": file,
                "presets": [[name, players]],
                "iterations": res["meta"]["iterations"],
                "seconds": res["meta"]["seconds"],
            }
            log(
                f"{name} x{players}: {file}, {res['meta']['iterations']} iterations, "
                f"{res['meta']['seconds']} s"
            )
    index = {
        "version": 1,
        "seed": seed,
        "deals": deals,
        "seconds": round(time.perf_counter() - start, 1),
        "tables": list(entries.values()),
    }
    (out / INDEX_FILE).write_text(json.dumps(index, indent=1) + "\n")
    _index.cache_clear()
    _load.cache_clear()
    return list(entries.values())


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
