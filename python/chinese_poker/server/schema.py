"""The service's request and response models, as the OpenAPI document describes them (the
core's service reads the requests: ``crates/core/src/service``, the same fields and defaults).
Defaults come from the library's own signatures, names and choices from ``_core``, and the rule
set's JSON Schema from the core's default rule set, its presets and its choices, so nothing the
core owns is written again here."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import typing
from dataclasses import dataclass
from typing import Any

from .. import _core
from ..scoring import settle
from ..solver import Decision, MonteCarlo, Solver
from .errors import CODES
from .limits import Limits

JSON = dict[str, Any]


@dataclass(frozen=True)
class Field:
    name: str
    schema: JSON
    description: str
    required: bool = False
    default: Any = None


@dataclass(frozen=True)
class Model:
    """A JSON object of known fields, documented with `schema()` (the core's service reads
    requests: ``crates/core/src/service/ops.rs`` lists the same fields)."""

    name: str
    description: str
    fields: tuple[Field, ...]

    def schema(self) -> JSON:
        props = {}
        for f in self.fields:
            prop = {**f.schema, "description": f.description}
            if not f.required and f.default is not None:
                prop["default"] = f.default
            props[f.name] = prop
        return {
            "type": "object",
            "description": self.description,
            "properties": props,
            "required": [f.name for f in self.fields if f.required],
            "additionalProperties": False,
        }


def _path(where: str | None, key: str) -> str:
    return f"{where}.{key}" if where else key


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


# -- defaults, from the library's signatures ---------------------------------------------------

DEFAULT_RULES: str = _core.DEFAULT_PRESET
DEFAULT_PLAYERS: int = inspect.signature(Solver).parameters["players"].default
DEFAULT_TOP_K: int = inspect.signature(Solver.solve).parameters["top_k"].default
DEFAULT_DEALER: int = inspect.signature(settle).parameters["dealer"].default
_MC: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(MonteCarlo)}
# `MonteCarlo(samples=None)` draws the core's default; a request states its samples (the server
# limits samples per request), so the default is that number
DEFAULT_SAMPLES: int = _core.MC_SAMPLES
DEFAULT_SEED: int = _MC["seed"]
TABLE = "table"
MONTE_CARLO = "monte_carlo"
DETAIL_FULL = "full"  # detail: Solution.to_dict() per hand
DETAIL_DECISION = "decision"  # detail: the decision and its value, hands solved as one batch

# -- the rule set, from the core -----------------------------------------------------------------


def _typed(values: list[object]) -> JSON:
    """The JSON type of a rule field, from the values the default rule set and the presets give
    it (``null`` where one of them leaves it unset)."""
    types = []
    for v in values:
        t = {bool: "boolean", int: "integer", str: "string", type(None): "null"}.get(type(v))
        if t is None:
            t = "number"
        if t not in types:
            types.append(t)
    return {"type": types[0] if len(types) == 1 else types}


def _rule_schema(path: str, values: list[Any]) -> JSON:
    choices = _core.CHOICES.get(path)
    if choices is not None:
        return {"enum": list(choices)}
    dicts = [v for v in values if isinstance(v, dict)]
    if not dicts:
        return _typed(values)
    last = path.rsplit(".", 1)[-1]
    if path == "naturals.values":
        return {
            "type": "object",
            "propertyNames": {"enum": list(_core.NATURAL_NAMES)},
            "additionalProperties": {"type": "integer"},
            "description": "units each opponent pays for a natural; the order is the ranking",
        }
    if path.startswith("bonus.") and last in _core.ROW_NAMES:
        return {
            "type": "object",
            "propertyNames": {"enum": list(_core.CATEGORY_NAMES)},
            "additionalProperties": {"type": "integer"},
            "description": f"units the {last} row pays when won with a category",
        }
    keys: list[str] = []
    for d in dicts:
        keys += [k for k in d if k not in keys]
    if path == "bonus":
        keys += [r for r in _core.ROW_NAMES if r not in keys]
    props = {
        k: _rule_schema(_path(path or None, k), [d.get(k) for d in dicts if k in d] or [{}])
        for k in keys
    }
    return {"type": "object", "properties": props, "additionalProperties": False}


@functools.cache
def rule_set_schema() -> JSON:
    """The JSON Schema of a rule set
    ([rules](https://chinese-poker.github.io/chinese-poker/rules/)): every field of ``RULE_FIELDS``,
    typed from the core's default rule set and presets, choices from ``CHOICES``. The core checks
    the bounds and the rest and names the field it refuses."""
    sets = [json.loads(_core.default_rules_json())]
    sets += [json.loads(_core.preset_json(n)) for n in _core.PRESET_NAMES]
    names = ["name", *_core.RULE_FIELDS, "description", "source"]
    schema = _rule_schema("", [{k: s[k] for k in names if k in s} for s in sets])
    schema["description"] = "a rule set; every field is optional and defaults to the core's"
    return schema


# -- requests --------------------------------------------------------------------------------

_CARDS = "13 cards as text, e.g. 'As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d'"
_CARD = "(?:10|[2-9TJQKAtjqka])[cdhsCDHS\u2663\u2666\u2665\u2660]"
HAND_SCHEMA: JSON = {
    "type": "string",
    # 13 cards separated by spaces or commas; that they are distinct is checked by the
    # library (a repeated card is a 422 naming it)
    "pattern": f"^[ ,]*(?:{_CARD}[ ,]+){{12}}{_CARD}[ ,]*$",
}
PLAYERS_SCHEMA: JSON = {
    "type": "integer",
    "minimum": _core.MIN_PLAYERS,
    "maximum": _core.MAX_PLAYERS,
}
_RULES = Field(
    "rules",
    {"oneOf": [{"enum": list(_core.PRESET_NAMES)}, _ref("RuleSet")]},
    "a preset name or a rule set",
    default=DEFAULT_RULES,
)

MONTE_CARLO_OPTIONS = Model(
    "MonteCarloOptions",
    "Monte Carlo: the mean score over sampled deals, with its standard error",
    (
        Field(
            "samples",
            {"type": "integer", "minimum": _core.MIN_SAMPLES, "maximum": _core.MAX_SAMPLES},
            "sampled deals per hand (samples x hands at most the server's --max-samples)",
            default=DEFAULT_SAMPLES,
        ),
        Field(
            "seed",
            {"type": "integer", "minimum": 0, "maximum": _core.MAX_SEED},
            "seed of the deals",
            default=DEFAULT_SEED,
        ),
        Field(
            "time_limit",
            {"type": ["number", "null"], "exclusiveMinimum": 0},
            "seconds of sampling per hand, as MonteCarlo(time_limit=...) in the library: each "
            "hand is answered with the best play found by then (time_limit x hands at most the "
            "server's --timeout)",
        ),
    ),
)

SOLVE = Model(
    "SolveRequest",
    "hands to solve, each answered in order",
    (
        Field(
            "hands",
            {"type": "array", "items": HAND_SCHEMA, "minItems": 1},
            _CARDS + "; 1 to the server's --max-hands",
            required=True,
        ),
        _RULES,
        Field("players", PLAYERS_SCHEMA, "table size", default=DEFAULT_PLAYERS),
        Field(
            "objective",
            {
                "oneOf": [
                    {"const": TABLE},
                    {
                        "type": "object",
                        "properties": {MONTE_CARLO: _ref(MONTE_CARLO_OPTIONS.name)},
                        "required": [MONTE_CARLO],
                        "additionalProperties": False,
                    },
                ]
            },
            "'table' (expected score from the strategy tables) or Monte Carlo",
            default=TABLE,
        ),
        Field(
            "top_k",
            {"type": "integer", "minimum": 1, "maximum": _core.MAX_TOP_K},
            "best plays listed per hand",
            default=DEFAULT_TOP_K,
        ),
        Field(
            "detail",
            {"enum": [DETAIL_FULL, DETAIL_DECISION]},
            f"{DETAIL_FULL!r}: Solution.to_dict() per hand; {DETAIL_DECISION!r}: only the "
            "decision and its value, the hands solved as one batch (table objective only; "
            "faster)",
            default=DETAIL_FULL,
        ),
    ),
)

DECISION = {
    "oneOf": [
        {
            "type": "string",
            "description": "'front / middle / back', 'surrender' or 'NATURAL: front / middle / "
            "back'",
        },
        {
            "type": "object",
            "description": "a decision as /v1/solve answers it",
            "properties": {
                "decision": {"enum": list(typing.get_args(Decision))},
                "setting": {"type": "string"},
                "natural": {"type": ["string", "null"]},
            },
            "required": ["decision"],
        },
    ]
}

SETTLE = Model(
    "SettleRequest",
    "one round: each seat's decision, P0 first",
    (
        Field("decisions", {"type": "array", "items": DECISION}, "one per seat", required=True),
        _RULES,
        Field(
            "bankrolls",
            {"type": ["array", "null"], "items": {"type": "integer"}},
            "one per seat, for rule sets that cap payments",
        ),
        Field(
            "dealer",
            {"type": "integer", "minimum": 0, "maximum": _core.MAX_PLAYERS - 1},
            "the dealer's seat",
            default=DEFAULT_DEALER,
        ),
        Field(
            "explain",
            {"type": "boolean"},
            "add the explanation of every number (Settlement.explain(), about 3 KB)",
            default=False,
        ),
    ),
)

NATURALS = Model(
    "NaturalsRequest",
    "the naturals a hand holds under a rule set",
    (Field("hand", {"type": "string"}, _CARDS, required=True), _RULES),
)

RULES = Model(
    "RulesRequest",
    "stdio only: no name lists the presets, a name answers that rule set",
    (Field("name", {"type": "string"}, "a preset name"),),
)

# -- responses --------------------------------------------------------------------------------

_INT = {"type": "integer"}
_NUM = {"type": "number"}
_STR = {"type": "string"}
_INTS = {"type": "array", "items": _INT}


def _obj(props: JSON, description: str = "") -> JSON:
    out: JSON = {"type": "object", "properties": props, "required": list(props)}
    if description:
        out["description"] = description
    return out


ALTERNATIVE = _obj({"codes": _INTS, "raw_ranks": _INTS, "value": _NUM, "stderr": _NUM})
_DIGEST = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
RULES_DIGEST = {
    **_DIGEST,
    "description": "the rule set's identity: SHA-256 of its canonical form (RuleSet.digest)",
}
TABLES_ID = _obj(
    {"source": {"enum": list(_core.TABLES_SOURCES)}, "digest": _DIGEST},
    "the strategy tables played (TablesId): where they came from ('fallback': none were "
    "trained for the rule set, the plain tables of its wheel stood in) and the SHA-256 of "
    "their content",
)
TABLES = {"oneOf": [_ref("TablesId"), {"type": "null"}]}
SOLUTION = _obj(
    {
        "hand": {**_STR, "description": "the hand as given"},
        "decision": {"enum": list(typing.get_args(Decision))},
        "natural": {"type": ["string", "null"]},
        "setting": {**_STR, "description": "front / middle / back"},
        "codes": {**_INTS, "description": "13 card codes (rank * 4 + suit), front, middle, back"},
        "raw_ranks": _INTS,
        "value": _NUM,
        "stderr": {"type": ["number", "null"]},
        "play_value": _NUM,
        "natural_held": {"type": ["array", "null"]},
        "surrender_value": {"type": ["number", "null"]},
        "alternatives": {"type": "array", "items": _ref("Alternative")},
        "candidates": _INT,
        "samples": _INT,
        "objective": _STR,
        "players": _INT,
        "rules": _STR,
        "rules_digest": RULES_DIGEST,
        "tables": TABLES,
    },
    "Solution.to_dict() and the hand",
)
DECIDED = _obj(
    {
        "hand": {**_STR, "description": "the hand as given"},
        "decision": {"enum": list(typing.get_args(Decision))},
        "value": _NUM,
    },
    "detail 'decision': the decision as Setting/Declare/Surrender.to_dict() (setting and codes "
    "unless it surrenders, natural if it declares) and its value",
)
DECIDED["properties"].update(
    {"setting": _STR, "codes": _INTS, "natural": {"enum": list(_core.NATURAL_NAMES)}}
)
SOLVE_RESPONSE = _obj(
    {
        "rules_digest": RULES_DIGEST,
        "tables": TABLES,
        "solutions": {
            "type": "array",
            "items": {"oneOf": [_ref("Solution"), _ref("Decided")]},
        },
    }
)
SETTLEMENT = _obj(
    {
        "rules": _STR,
        "rules_digest": RULES_DIGEST,
        "dealer": _INT,
        "totals": _INTS,
        "players": {"type": "array", "items": {"type": "object"}},
        "matchups": {"type": "array", "items": {"type": "object"}},
        "payments": {"type": "array", "items": {"type": "object"}},
        "capped": {"type": "boolean"},
        "bankrolls_after": {"type": ["array", "null"], "items": _INT},
        "explanation": {
            **_STR,
            "description": "with explain: Settlement.explain(), every number and its rule",
        },
    },
    "Settlement.to_dict(), the rule set's name and digest, and the explanation if asked for",
)
SETTLEMENT["required"].remove("explanation")
NATURALS_RESPONSE = _obj(
    {
        "hand": _STR,
        "rules": _STR,
        "rules_digest": RULES_DIGEST,
        "naturals": {
            "type": "array",
            "items": _obj(
                {
                    "natural": {"enum": list(_core.NATURAL_NAMES)},
                    "value": _INT,
                    "setting": {"type": ["string", "null"]},
                }
            ),
        },
    }
)
PRESET_LIST = _obj(
    {
        "presets": {
            "type": "array",
            "items": _obj({"name": _STR, "description": _STR, "source": _STR}),
        }
    }
)
HEALTH = _obj({"status": {"const": "ok"}, "version": _STR})
ERROR = _obj(
    {
        "error": _obj(
            {
                "code": {"enum": list(CODES)},
                "message": _STR,
                "field": {"type": ["string", "null"]},
                "type": {
                    "type": ["string", "null"],
                    "description": "the package's exception class, if one was raised",
                },
            }
        )
    }
)

# the operations both the HTTP service and the stdio mode answer: op -> request model
OPERATIONS: dict[str, Model] = {"solve": SOLVE, "settle": SETTLE, "naturals": NATURALS}


def _json(schema: JSON, description: str) -> JSON:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: str) -> JSON:
    return {str(CODES[c]): _json(_ref("Error"), c) for c in codes}


_SECURED: list[JSON] = [{"bearer": []}]
_OPEN: list[JSON] = []  # no token needed (/healthz)


def _post(op: str, summary: str, model: Model, answer: str, *codes: str) -> JSON:
    return {
        "post": {
            "operationId": op,
            "summary": summary,
            "security": _SECURED,
            "requestBody": {"required": True, **_json(_ref(model.name), model.description)},
            "responses": {
                "200": _json(_ref(answer), "the answer"),
                **_errors("bad_json", "unauthorized", "too_large", "invalid_input", *codes),
            },
        }
    }


def _get(op: str, summary: str, answer: JSON, *codes: str, secured: bool = True) -> JSON:
    return {
        "get": {
            "operationId": op,
            "summary": summary,
            "security": _SECURED if secured else _OPEN,
            "responses": {"200": answer, **_errors(*codes)},
        }
    }


def _bounded(schemas: JSON, limits: Limits) -> JSON:
    """The request schemas with this server's own limits as their bounds."""
    solve = json.loads(json.dumps(schemas[SOLVE.name]))
    solve["properties"]["hands"]["maxItems"] = limits.max_hands
    mc = json.loads(json.dumps(schemas[MONTE_CARLO_OPTIONS.name]))
    mc["properties"]["samples"]["maximum"] = min(_core.MAX_SAMPLES, limits.max_samples)
    mc["properties"]["time_limit"]["maximum"] = limits.timeout
    return {**schemas, SOLVE.name: solve, MONTE_CARLO_OPTIONS.name: mc}


@functools.cache
def openapi(version: str, limits: Limits | None = None) -> JSON:
    """The OpenAPI 3.1 document of a service running with ``limits``: every bound it enforces
    before work (the request's size, the table size, samples, the time limit), each operation
    named, and the bearer scheme applied to every operation but ``/healthz``."""
    limits = limits or Limits()
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "chinese-poker solver service",
            "version": version,
            "description": "Solve 13-card Chinese Poker hands and settle rounds (the serve "
            "guide of the package's documentation). With a token, every path but /healthz needs "
            "'Authorization: Bearer TOKEN'.",
        },
        "security": _SECURED,
        "paths": {
            "/v1/solve": _post(
                "solve",
                "the best decision for each hand",
                SOLVE,
                "SolveResponse",
                "busy",
                "timeout",
            ),  # fmt: skip
            "/v1/settle": _post("settle", "settle a round", SETTLE, "Settlement", "timeout"),
            "/v1/naturals": _post(
                "naturals", "the naturals a hand holds", NATURALS, "Naturals", "timeout"
            ),
            "/v1/rules": _get(
                "presets", "the presets", _json(_ref("PresetList"), "the presets"), "unauthorized"
            ),
            "/v1/rules/{name}": {
                "get": {
                    "operationId": "preset",
                    "summary": "a preset's rule set",
                    "security": _SECURED,
                    "parameters": [
                        {
                            "name": "name",
                            "in": "path",
                            "required": True,
                            "schema": {"enum": list(_core.PRESET_NAMES)},
                        }
                    ],
                    "responses": {
                        "200": _json(_ref("RuleSet"), "the rule set"),
                        **_errors("unauthorized", "not_found"),
                    },
                }
            },
            "/healthz": _get("healthz", "liveness", _json(_ref("Health"), "ok"), secured=False),
            "/metrics": _get(
                "metrics",
                "Prometheus metrics",
                {
                    "description": "the Prometheus text format",
                    "content": {"text/plain": {"schema": {"type": "string"}}},
                },
                "unauthorized",
            ),
        },
        "components": {
            "schemas": {
                "RuleSet": rule_set_schema(),
                **_bounded(
                    {m.name: m.schema() for m in (MONTE_CARLO_OPTIONS, SOLVE, SETTLE, NATURALS)},
                    limits,
                ),
                "Alternative": ALTERNATIVE,
                "TablesId": TABLES_ID,
                "Solution": SOLUTION,
                "Decided": DECIDED,
                "SolveResponse": SOLVE_RESPONSE,
                "Settlement": SETTLEMENT,
                "Naturals": NATURALS_RESPONSE,
                "PresetList": PRESET_LIST,
                "Health": HEALTH,
                "Error": ERROR,
            },
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
