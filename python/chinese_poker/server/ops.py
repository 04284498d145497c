"""The operations the service answers, shared by the HTTP routes and the stdio mode: each
request's JSON bytes go to the core's service (``_core.Service``), which reads, checks, solves
or settles and writes the answer's bytes without a Python object per hand. Every field, default,
limit and message is the core's (``crates/core/src/service``); Python gives it only the
strategy tables a rule set plays (`load_tables`, which decides between installed, shipped and
fallback tables)."""

from __future__ import annotations

import functools
import json
from typing import Any

from .. import _core
from ..rules import RuleSet
from ..strategy_tables import load_tables
from .errors import ApiError
from .limits import Limits

#: The operations, by the name the stdio mode's ``"op"`` gives them (the core's).
OPS: tuple[str, ...] = _core.SERVICE_OPS


def _tables(key: str, preset: bool, players: int) -> _core.TableEv:
    """The tables the core's service asks for: a preset by name, or a rule set given inline (its
    JSON), at a table size."""
    rules = RuleSet.preset(key) if preset else RuleSet.from_json(key)
    return load_tables(rules, players)


def new_service(limits: Limits) -> _core.Service:
    """A service with ``limits``: its own caches and Monte Carlo slots."""
    return _core.Service(
        limits.max_body,
        limits.max_hands,
        limits.max_samples,
        limits.mc_slots,
        limits.timeout,
        _tables,
    )


@functools.lru_cache(maxsize=8)
def service(limits: Limits) -> _core.Service:
    """The service of ``limits`` shared by in-process callers of `run` (one per limits)."""
    return new_service(limits)


def error_of(body: bytes) -> ApiError:
    """The `ApiError` of an error answer's body."""
    e = json.loads(body)["error"]
    return ApiError(e["code"], e["message"], e["field"], e["type"])


def run(op: str, data: Any, limits: Limits) -> Any:
    """The answer of ``op`` to a decoded request, as data (for in-process callers and tests;
    the routes and the stdio mode hand the core bytes). Raises `ApiError` for an error answer.
    Values JSON cannot carry (NaN, a lone surrogate) reach the core as the escapes Python writes
    for them, which it refuses as ``bad_json``."""
    body = json.dumps(data).encode()
    status, answer, code, _ = service(limits).answer(op, body)
    if code is not None:
        raise error_of(answer)
    return json.loads(answer)
