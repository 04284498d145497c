"""The operations the service answers, shared by the HTTP routes and the stdio mode: each reads
a decoded JSON request (its model in `schema`), calls the library, and returns JSON data.
The library checks everything it owns (cards, rule sets, table sizes, budgets, decisions); its
exceptions become a 422 naming the request field (`errors.from_library()`). Only the
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
from ..solver import Decision, MonteCarlo, Solver, TableEV, _Cancel, parse_hands
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
    """A preset name as it is; an inline rule set as its JSON with sorted keys (the cache key of
    its parse: key order carries no meaning in a rule set, and the text tells ``1`` from
    ``1.0`` and ``true``, which the core then refuses where they do not belong)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        try:
            return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):  # keys of mixed types cannot come from JSON
            raise invalid("rules", "expected a rule set object with text keys") from None
    raise invalid("rules", f"expected a preset name or a rule set object, got {json_type(value)}")


@functools.lru_cache(maxsize=_SOLVER_CACHE)
def _rule_set(key: str) -> RuleSet:
    with blame("rules"):
        if key.startswith("{"):
            return RuleSet.from_dict(json.loads(key))
        return RuleSet.preset(key)


def rule_set(value: object) -> RuleSet:
    return _rule_set(_rules_key(value))


def _strict(value: object) -> tuple[str, object]:
    """A cache key part that tells ``1000`` from ``1000.0`` and ``True`` (equal in Python,
    different requests): a value of the wrong type is never served a solver built for another."""
    return (type(value).__name__, value)


def _solver(rules: RuleSet, players: object, mc: JSON | None) -> Solver:
    """The solver of a request, cached by the rule set's identity (its digest and name) and
    the other fields' exact values and types; values JSON gives that cannot be a key (a list
    where a number goes) are handed to the library uncached, which refuses them."""
    options = None if mc is None else tuple(mc[k] for k in _MC_KEYS)
    key = (rules, _strict(players), tuple(_strict(v) for v in options or ()))
    try:
        hash(key)
    except TypeError:
        return _new_solver.__wrapped__(key, rules, players, options)
    return _new_solver(key, rules, players, options)


_MC_KEYS = ("samples", "seed", "time_limit")


@functools.lru_cache(maxsize=_SOLVER_CACHE)
def _new_solver(
    key: object, rules: RuleSet, players: object, options: tuple[object, ...] | None
) -> Solver:
    # `key` tells apart what the others would mix up (1000 and 1000.0 and True compare equal)
    objective: TableEV | MonteCarlo = TableEV()
    if options is not None:
        samples, seed, time_limit = options
        with blame(f"objective.{MONTE_CARLO}", MONTE_CARLO_OPTIONS, f"objective.{MONTE_CARLO}"):
            objective = MonteCarlo(
                samples=samples,  # type: ignore[arg-type]
                seed=seed,  # type: ignore[arg-type]
                threads=1,
                time_limit=time_limit,  # type: ignore[arg-type]
            )
    with blame("rules", SOLVE):
        return Solver(rules, players, objective)  # type: ignore[arg-type]


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


def _whole(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(field, f"expected a whole number, got {json_type(value)} {value!r}")
    return value


def _check_monte_carlo(mc: JSON, hands: int, limits: Limits) -> None:
    """A Monte Carlo request's cost, bounded before any work: samples x hands within the
    server's ``max_samples`` and, with a ``time_limit`` (seconds of sampling per hand, as in
    the library), time_limit x hands within its ``timeout``."""
    where = f"objective.{MONTE_CARLO}"
    samples = _whole(mc["samples"], f"{where}.samples")
    _whole(mc["seed"], f"{where}.seed")
    if samples * hands > limits.max_samples:
        raise invalid(
            f"{where}.samples",
            f"{samples} samples for each of {hands} hands is more than this server's "
            f"limit of {limits.max_samples} samples per request",
        )
    asked = mc["time_limit"]
    if asked is None:
        return
    if isinstance(asked, bool) or not isinstance(asked, int | float) or not asked > 0:
        raise invalid(f"{where}.time_limit", f"expected seconds > 0, got {asked!r}")
    if asked * hands > limits.timeout:
        raise invalid(
            f"{where}.time_limit",
            f"{asked:g} s of sampling for each of {hands} hands is more than this server's "
            f"request timeout of {limits.timeout:g} s",
        )


def made_by(rules: RuleSet, solver: Solver | None = None) -> JSON:
    """What made an answer: the rule set's digest and, for a solve, the strategy tables played
    (``source`` "fallback": none were trained for the rule set)."""
    out: JSON = {"rules_digest": rules.digest}
    if solver is not None:
        tables = solver.tables
        out["tables"] = None if tables is None else tables.to_dict()
    return out


def solve(data: object, limits: Limits, cancel: _Cancel | None = None) -> JSON:
    """A solve request's answer; with ``cancel`` (an event), a Monte Carlo solve stops when it
    is set (the request's deadline passed or its client left)."""
    request = SOLVE.read(data)
    hands = request["hands"]
    if not isinstance(hands, list) or not 1 <= len(hands) <= limits.max_hands:
        got = f"{len(hands)} hands" if isinstance(hands, list) else json_type(hands)
        raise invalid("hands", f"expected a list of 1 to {limits.max_hands} hands, got {got}")
    for i, hand in enumerate(hands):  # the request's shape (the library reads the cards)
        if not isinstance(hand, str):
            raise invalid(f"hands[{i}]", f"expected 13 cards as text, got {json_type(hand)}")
    mc = monte_carlo(request)
    if mc is not None:
        _check_monte_carlo(mc, len(hands), limits)
    solver = _solver(rule_set(request["rules"]), request["players"], mc)
    detail = request["detail"]
    if detail == DETAIL_FULL or (detail == DETAIL_DECISION and mc is not None):
        top_k = 1 if detail == DETAIL_DECISION else request["top_k"]
        out = []
        for i, hand in enumerate(hands):
            with blame(f"hands[{i}]", SOLVE):
                solution = solver.solve(hand, top_k, cancel=cancel)
            if detail == DETAIL_FULL:
                out.append({"hand": hand, **solution.to_dict()})
            else:
                out.append({"hand": hand, **_decision_data(solution.as_decision())})
                out[-1]["value"] = solution.value
        return {**made_by(solver.rules, solver), "solutions": out}
    if detail != DETAIL_DECISION:
        expected = f"expected {DETAIL_FULL!r} or {DETAIL_DECISION!r}"
        raise invalid("detail", f"{expected}, got {detail!r}")
    with blame("hands"):
        codes = parse_hands(hands)
    with blame("objective"):
        batch = solver.solve_batch(codes)  # on every core, as solve_batch does
    values = batch.values.tolist()
    return {
        **made_by(solver.rules, solver),
        "solutions": [
            {"hand": hand, **_decision_data(batch.decision(i)), "value": values[i]}
            for i, hand in enumerate(hands)
        ],
    }


def _decision_data(decision: Setting | Declare | Surrender) -> JSON:
    data: JSON = decision.to_dict()
    return data


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
    explain = request["explain"]
    if not isinstance(explain, bool):
        raise invalid("explain", f"expected true or false, got {json_type(explain)}")
    with blame("decisions", SETTLE):
        result = settle(seats, rules, bankrolls=request["bankrolls"], dealer=request["dealer"])
    answer = {"rules": rules.name, **made_by(rules), **result.to_dict()}
    if explain:  # about 3 KB of text: only for a client that asks
        answer["explanation"] = result.explain()
    return answer


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
        **made_by(rules),
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
