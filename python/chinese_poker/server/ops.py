"""The operations the service answers, shared by the HTTP routes and the stdio mode: each reads
a decoded JSON request (its model in :mod:`.schema`), calls the library, and returns JSON data.
The library checks everything it owns (cards, rule sets, table sizes, budgets, decisions); its
exceptions become a 422 naming the request field (:func:`.errors.from_library`). Only the
request's shape and the service's own limits are checked here."""

from __future__ import annotations

import contextlib
import functools
import json
import typing
from collections.abc import Callable, Iterator
from typing import Any

from .. import _core
from ..exceptions import ChinesePokerError
from ..rules import PRESETS, RuleSet
from ..scoring import DecisionLike, Declare, Setting, Surrender, find_naturals, settle
from ..solver import Decision, MonteCarlo, Solver, TableEV, parse_hands
from .errors import ApiError, from_library, invalid
from .limits import Limits
from .schema import (
    DETAIL_DECISION,
    DETAIL_FULL,
    JSON,
    MONTE_CARLO,
    MONTE_CARLO_OPTIONS,
    NATURALS,
    SETTLE,
    SOLVE,
    TABLE,
    Model,
    json_type,
)

_SOLVER_CACHE = 64  # solvers kept (rule sets given inline are keyed by their JSON)


@contextlib.contextmanager
def blame(base: str | None, model: Model | None = None, where: str | None = None) -> Iterator[None]:
    """The package's errors raised inside, as a 422 naming the field of ``base`` they concern
    (or the field of ``model``, an object at ``where`` in the request, that they start with)."""
    try:
        yield
    except ChinesePokerError as e:
        fields = model.fields if model is not None else ()
        names = {f.name: f"{where}.{f.name}" if where else f.name for f in fields}
        raise from_library(e, base, names if model is not None else None) from None


def _rules_key(value: object) -> str:
    """A preset name as it is; an inline rule set as its JSON (the cache key of its solver)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    raise invalid("rules", f"expected a preset name or a rule set object, got {json_type(value)}")


@functools.lru_cache(maxsize=_SOLVER_CACHE)
def _rule_set(key: str) -> RuleSet:
    with blame("rules"):
        if key.startswith("{"):
            return RuleSet.from_dict(json.loads(key))
        return RuleSet.preset(key)


def rule_set(value: object) -> RuleSet:
    return _rule_set(_rules_key(value))


def _solver(rules: str, players: object, samples: object, seed: object) -> Solver:
    """The solver of a request, cached; values JSON gives that cannot be a key (a list where
    a number goes) are handed to the library uncached, which refuses them."""
    try:
        hash((players, samples, seed))
    except TypeError:
        return _new_solver.__wrapped__(rules, players, samples, seed)
    return _new_solver(rules, players, samples, seed)


@functools.lru_cache(maxsize=_SOLVER_CACHE)
def _new_solver(rules: str, players: object, samples: object, seed: object) -> Solver:
    objective: TableEV | MonteCarlo = TableEV()
    if samples is not None:
        with blame(f"objective.{MONTE_CARLO}", MONTE_CARLO_OPTIONS, f"objective.{MONTE_CARLO}"):
            objective = MonteCarlo(samples=samples, seed=seed, threads=1)  # type: ignore[arg-type]
    with blame("rules", SOLVE):
        return Solver(_rule_set(rules), players, objective)  # type: ignore[arg-type]


def monte_carlo(request: JSON) -> JSON | None:
    """The Monte Carlo options of a read solve request, or ``None`` for the table objective."""
    objective = request["objective"]
    if objective == TABLE:
        return None
    if not isinstance(objective, dict) or set(objective) != {MONTE_CARLO}:
        raise invalid(
            "objective", f"expected {TABLE!r} or {{{MONTE_CARLO!r}: {{...}}}}, got {objective!r}"
        )
    return MONTE_CARLO_OPTIONS.read(objective[MONTE_CARLO], f"objective.{MONTE_CARLO}")


def time_limit(request: JSON, limits: Limits) -> float:
    """Seconds a solve request may take: the server's limit, or less if the request asks."""
    mc = monte_carlo(request)
    asked = None if mc is None else mc["time_limit"]
    if asked is None:
        return limits.timeout
    if isinstance(asked, bool) or not isinstance(asked, int | float) or not asked > 0:
        raise invalid(f"objective.{MONTE_CARLO}.time_limit", f"expected seconds > 0, got {asked!r}")
    return min(float(asked), limits.timeout)


def solve(data: object, limits: Limits) -> JSON:
    request = SOLVE.read(data)
    hands = request["hands"]
    if not isinstance(hands, list) or not 1 <= len(hands) <= limits.max_hands:
        got = f"{len(hands)} hands" if isinstance(hands, list) else json_type(hands)
        raise invalid("hands", f"expected a list of 1 to {limits.max_hands} hands, got {got}")
    for i, hand in enumerate(hands):  # the request's shape (the library reads the cards)
        if not isinstance(hand, str):
            raise invalid(f"hands[{i}]", f"expected 13 cards as text, got {json_type(hand)}")
    mc = monte_carlo(request)
    samples = seed = None
    if mc is not None:
        samples, seed = mc["samples"], mc["seed"]
        if isinstance(samples, int) and samples * len(hands) > limits.max_samples:
            raise invalid(
                f"objective.{MONTE_CARLO}.samples",
                f"{samples} samples for each of {len(hands)} hands is more than this server's "
                f"limit of {limits.max_samples} samples per request",
            )
    solver = _solver(_rules_key(request["rules"]), request["players"], samples, seed)
    detail = request["detail"]
    if detail == DETAIL_FULL:
        top_k = request["top_k"]
        out = []
        for i, hand in enumerate(hands):
            with blame(f"hands[{i}]", SOLVE):
                out.append({"hand": hand, **solver.solve(hand, top_k).to_dict()})
        return {"solutions": out}
    if detail != DETAIL_DECISION:
        expected = f"expected {DETAIL_FULL!r} or {DETAIL_DECISION!r}"
        raise invalid("detail", f"{expected}, got {detail!r}")
    with blame("hands"):
        codes = parse_hands(hands)
    with blame("objective"):
        batch = solver.solve_batch(codes)  # on every core, as solve_batch does
    values = batch.values.tolist()
    return {
        "solutions": [
            {"hand": hand, **batch.decision(i).to_dict(), "value": values[i]}
            for i, hand in enumerate(hands)
        ]
    }


def _decision(value: object, i: int) -> DecisionLike:
    """A seat's decision: the command line's text, or a decision as /v1/solve answers it."""
    from ..cli.settle import parse_decision  # the one reader of a decision as text

    where = f"decisions[{i}]"
    with blame(where):
        if isinstance(value, str):
            return parse_decision(value)  # type: ignore[no-any-return]
        if not isinstance(value, dict):
            raise invalid(where, f"expected text or an object, got {json_type(value)}")
        kind, setting = value.get("decision"), value.get("setting")
        if kind not in typing.get_args(Decision):
            raise invalid(
                f"{where}.decision",
                f"expected one of {', '.join(typing.get_args(Decision))}, got {kind!r}",
            )
        if kind == "surrender":
            return Surrender()
        if not isinstance(setting, str):
            raise invalid(f"{where}.setting", f"expected 'front / middle / back', got {setting!r}")
        if kind == "play":
            return Setting.parse(setting)
        return Declare(value.get("natural"), Setting.parse(setting))  # type: ignore[arg-type]


def settle_round(data: object, limits: Limits) -> JSON:
    request = SETTLE.read(data)
    decisions = request["decisions"]
    if not isinstance(decisions, list):
        raise invalid("decisions", f"expected a list of decisions, got {json_type(decisions)}")
    rules = rule_set(request["rules"])
    seats = [_decision(d, i) for i, d in enumerate(decisions)]
    with blame("decisions", SETTLE):
        result = settle(seats, rules, bankrolls=request["bankrolls"], dealer=request["dealer"])
    return {"rules": rules.name, **result.to_dict(), "explanation": result.explain()}


def naturals(data: object, limits: Limits) -> JSON:
    request = NATURALS.read(data)
    rules = rule_set(request["rules"])
    hand = request["hand"]
    if not isinstance(hand, str):
        raise invalid("hand", f"expected 13 cards as text, got {json_type(hand)}")
    with blame("hand"):
        found = find_naturals(hand, rules)
    return {
        "hand": hand,
        "rules": rules.name,
        "naturals": [
            {
                "natural": m.natural,
                "value": m.value,
                "setting": None if m.setting is None else m.setting.to_text(),
            }
            for m in found
        ],
    }


def presets() -> JSON:
    return {
        "presets": [
            {"name": r.name, "description": r.description, "source": r.source}
            for r in PRESETS.values()
        ]
    }


def preset(name: str) -> JSON:
    if name not in _core.PRESET_NAMES:
        raise ApiError(
            "not_found",
            f"unknown preset {name[:40]!r}; expected one of {', '.join(_core.PRESET_NAMES)}",
            "name",
        )
    return PRESETS[name].to_dict()


def rules(data: object, limits: Limits) -> JSON:
    """The stdio form of ``GET /v1/rules`` (no name) and ``GET /v1/rules/{name}``."""
    if data == {}:
        return presets()
    if not isinstance(data, dict) or set(data) != {"name"} or not isinstance(data["name"], str):
        raise invalid("name", "expected only a preset's name (or nothing, for the list)")
    return preset(data["name"])


#: What each ``op`` of the stdio mode runs (the HTTP routes call the same functions).
OPS: dict[str, Callable[[object, Limits], JSON]] = {
    "solve": solve,
    "settle": settle_round,
    "naturals": naturals,
    "rules": rules,
}


def run(op: str, data: Any, limits: Limits) -> JSON:
    try:
        return OPS[op](data, limits)
    except ApiError:
        raise
    except ChinesePokerError as e:  # one the call sites above did not name
        raise from_library(e, None) from None
