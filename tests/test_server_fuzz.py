"""The service fed hostile JSON: every field of every operation given odd values (floats for
ints, booleans, NaN and infinities, lone surrogates, deep nesting, huge numbers, wrong
containers), whole requests and whole stdio lines. Every answer must be the service's one JSON
shape (an answer, or ``{"error": {...}}`` with a known code), serialisable as UTF-8, and never a
raw exception; the cost of every request is bounded before work starts. The profile is
``conftest.py``'s: quick in ``make test``, long in ``make fuzz``."""

from __future__ import annotations

import json
import math
import time
from typing import Any

import pytest
from chinese_poker.server import ops, stdio  # noqa: E402
from chinese_poker.server.errors import CODES, ApiError  # noqa: E402
from chinese_poker.server.limits import Limits  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
LIMITS = Limits(max_samples=2_000, max_hands=8, timeout=5.0)

odd_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 2, 3, 4, 1000, 1000.0, 2.0, -1, 1e308, "4", "", "\ud800", "²"]),
    st.text(max_size=20),
)
odd_values = st.recursive(
    odd_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=8), inner, max_size=4),
    ),
    max_leaves=12,
)

SOLVE_FIELDS = ("hands", "rules", "players", "objective", "top_k", "detail")
MC_FIELDS = ("samples", "seed", "time_limit")


def _dumps(data: Any) -> bytes:
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:
        return json.dumps(data, separators=(",", ":")).encode()


def _check(result: Any) -> None:
    """An answer is a JSON object the service can send: UTF-8 text once dumped."""
    assert isinstance(result, dict)
    body = _dumps(result)
    json.loads(body)
    if "error" in result:
        assert result["error"]["code"] in CODES


def _run(op: str, data: Any) -> None:
    start = time.perf_counter()
    try:
        result = ops.run(op, data, LIMITS)
    except ApiError as e:
        result = e.to_dict()
    _check(result)
    # bounded before work: no request here may run long (2,000 samples at most)
    assert time.perf_counter() - start < 30


@given(
    st.dictionaries(st.sampled_from(SOLVE_FIELDS), odd_values, max_size=6),
    st.sampled_from([None, {"hands": [HAND]}, {"hands": [HAND, HAND]}]),
)
def test_solve_fields(fields: dict[str, Any], base: dict[str, Any] | None) -> None:
    _run("solve", {**(base or {}), **fields})


@given(st.dictionaries(st.sampled_from(MC_FIELDS), odd_values, max_size=3))
def test_monte_carlo_options(options: dict[str, Any]) -> None:
    _run("solve", {"hands": [HAND], "objective": {"monte_carlo": options}, "detail": "decision"})


@given(
    st.dictionaries(
        st.sampled_from(("decisions", "rules", "bankrolls", "dealer")), odd_values, max_size=4
    )
)
def test_settle_fields(fields: dict[str, Any]) -> None:
    _run("settle", fields)


@given(st.dictionaries(st.sampled_from(("hand", "rules", "name")), odd_values, max_size=3))
def test_naturals_and_rules_fields(fields: dict[str, Any]) -> None:
    _run("naturals", fields)
    _run("rules", fields)


@given(st.dictionaries(st.text(max_size=12), odd_values, max_size=5))
def test_inline_rule_sets(rules: dict[str, Any]) -> None:
    _run("solve", {"hands": [HAND], "rules": rules})


@given(st.one_of(odd_values, st.dictionaries(st.just("op"), odd_values, min_size=1)))
def test_stdio_lines(data: Any) -> None:
    try:
        line = json.dumps(data).encode()
    except (ValueError, UnicodeEncodeError):
        return
    answer = stdio.answer(line, LIMITS)
    _check(answer)


def test_known_hostile_requests() -> None:
    for data in (
        {"op": []},
        {"op": {}},
        {"op": "solve", "hands": [HAND], "objective": {"monte_carlo": {"samples": 1000.0}}},
        {"op": "solve", "hands": [HAND], "objective": {"monte_carlo": {"samples": True}}},
        {"op": "solve", "hands": [HAND], "players": True},
        {"op": "solve", "hands": [HAND], "rules": {"\ud800": 1}},
        {"op": "solve", "hands": [HAND], "top_k": math.inf},
    ):
        answer = stdio.answer(json.dumps(data).encode(), LIMITS)
        _check(answer)
        assert "error" in answer, data
    # a request of 1,000 samples and one of 1000.0: the float never shares the int's solver
    ok = ops.run(
        "solve", {"hands": [HAND], "objective": {"monte_carlo": {"samples": 1000}}}, LIMITS
    )
    assert ok["solutions"][0]["samples"] > 0
    with pytest.raises(ApiError) as refused:
        ops.run("solve", {"hands": [HAND], "objective": {"monte_carlo": {"samples": 1e3}}}, LIMITS)
    assert refused.value.field == "objective.monte_carlo.samples"


def test_stdio_reads_an_over_long_line_in_pieces() -> None:
    import io

    limits = Limits(max_body=1024)
    big = b'{"op": "rules", "pad": "' + b"x" * 50_000 + b'"}\n'
    stream = io.BytesIO(big + b'{"op": "rules", "name": "two_four"}\n')
    lines = list(stdio.lines(stream, limits.max_body))
    assert len(lines) == 2 and len(lines[0]) == 1025
    assert stdio.answer(lines[0].strip(), limits)["error"]["code"] == "too_large"
    assert stdio.answer(lines[1].strip(), limits)["name"] == "two_four"
