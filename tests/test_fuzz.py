"""The fuzz suite: every entry point that takes user data, fed random and mutated data.

Each test fails on an exception that is not a ``ChinesePokerError`` (``TypeError`` is allowed
only where the generated input holds a value of a wrong Python type, which the package
documents as ``TypeError``), on a Rust panic (``PanicException`` is a ``BaseException``, so
nothing here catches it), on a fouled setting returned by a solver, and on a settlement that is
not zero-sum. Profiles are in ``conftest.py``: ``quick`` by default, ``long`` under
``make fuzz``.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker import strategy_tables as tables
from chinese_poker.exceptions import ChinesePokerError
from chinese_poker.rules import NATURALS
from chinese_poker.table import ON_BUST
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

T = TypeVar("T")

# The quick profile runs 60 examples a test; a test's own count is scaled by the profile, so
# the long profile runs 50 times as many everywhere.
_SCALE = settings.default.max_examples / 60


def examples(n: int) -> settings:
    return settings(max_examples=max(1, int(n * _SCALE)))


PRESETS = cp.RuleSet.presets()
DATA_ONLY: tuple[type[BaseException], ...] = (ChinesePokerError,)
WITH_TYPES: tuple[type[BaseException], ...] = (ChinesePokerError, TypeError)


def attempt(call: Callable[[], T], allowed: tuple[type[BaseException], ...]) -> T | None:
    """``call()``, or ``None`` if it raised one of the ``allowed`` exceptions."""
    try:
        with warnings.catch_warnings():
            # fallback-tables and convergence warnings are documented behaviour
            warnings.simplefilter("ignore")
            return call()
    except allowed:
        return None


def check_not_fouled(codes: list[int], wheel: str) -> None:
    front, middle, back = codes[:3], codes[3:8], codes[8:]
    f, m, b = (cp.evaluate(row, wheel) for row in (front, middle, back))
    assert f.raw <= m.raw <= b.raw, f"fouled setting returned: {codes}"


# -- strategies ----------------------------------------------------------------------------------

RANK_TEXT = st.sampled_from([*"23456789TJQKAtjqka", "10", "1", "11", "X", "", "０"])
SUIT_TEXT = st.sampled_from([*"cdhsCDHS♣♦♥♠♧♢♡♤", "x", "", "\ufe0f", "s\ufe0f", "♠\ufe0e"])
SEPARATORS = st.sampled_from([" ", ",", ", ", "\t", "\n", "", ",,", "\u00a0", "\u3000"])


@st.composite
def card_text(draw: st.DrawFn) -> str:
    tokens = draw(st.lists(st.tuples(RANK_TEXT, SUIT_TEXT).map("".join), max_size=16))
    seps = draw(st.lists(SEPARATORS, min_size=len(tokens), max_size=len(tokens)))
    text = "".join(t + s for t, s in zip(tokens, seps, strict=True))
    junk = draw(st.text(max_size=20))
    return draw(st.sampled_from([text, junk, text + junk, junk + text]))


BIG_INTS = st.sampled_from([2**31, 2**32, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30, -1])
CODES = st.one_of(st.integers(0, 51), st.integers(-3, 60), BIG_INTS)
NUMPY_CODES = st.integers(0, 51).flatmap(
    lambda c: st.sampled_from([np.uint8(c), np.int64(c), np.uint32(c), np.int16(c)])
)
WRONG_TYPES = st.one_of(
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.binary(max_size=4),
    st.just(object()),
    st.complex_numbers(max_magnitude=100),
    st.just(np.float64(3.0)),
)


@st.composite
def card_items(draw: st.DrawFn) -> tuple[list[object], bool]:
    """A list of card-like items, and whether any has a wrong Python type."""
    right = st.one_of(
        CODES, NUMPY_CODES, st.integers(0, 51).map(cp.Card), card_text().map(str.strip)
    )
    items = draw(st.lists(st.one_of(right, WRONG_TYPES), max_size=8))
    wrong = any(
        isinstance(i, bool | float | complex | bytes | type(None)) or type(i) is object
        for i in items
    )
    return items, wrong


def deal(rng: np.random.Generator, players: int) -> list[list[int]]:
    deck = rng.permutation(52)
    return [sorted(int(c) for c in deck[13 * p : 13 * p + 13]) for p in range(players)]


SEEDS = st.integers(0, 2**32 - 1)


# -- cards -------------------------------------------------------------------------------------


@examples(300)
@given(card_text())
def test_fuzz_card_text(text: str) -> None:
    cards = attempt(lambda: cp.parse_cards(text), DATA_ONLY)
    if cards is not None:
        assert len(set(cards)) == len(cards) <= 52
        assert cp.parse_cards(" ".join(map(str, cards))) == cards
    card = attempt(lambda: cp.Card.parse(text), DATA_ONLY)
    if card is not None:
        assert cards == [card]
    rank = attempt(lambda: cp.evaluate(text), DATA_ONLY)
    if rank is not None:
        assert cards is not None and len(cards) in (3, 5)
        assert cp.HandRank(rank.raw) == rank
    attempt(lambda: cp.CardSet(text), DATA_ONLY)


@examples(200)
@given(st.text(max_size=40), st.sampled_from(["low", "second"]))
def test_fuzz_any_text(text: str, wheel: str) -> None:
    attempt(lambda: cp.parse_cards(text), DATA_ONLY)
    attempt(lambda: cp.Card.parse(text), DATA_ONLY)
    attempt(lambda: cp.evaluate(text, wheel), DATA_ONLY)


@examples(300)
@given(card_items(), st.sampled_from(["low", "second"]))
def test_fuzz_card_sequences(items_wrong: tuple[list[object], bool], wheel: str) -> None:
    items, wrong = items_wrong
    allowed = WITH_TYPES if wrong else DATA_ONLY
    for build in (list, tuple, iter):
        rank = attempt(lambda b=build: cp.evaluate(b(items), wheel), allowed)  # type: ignore[misc]
        if rank is not None:
            assert len(items) in (3, 5) and not wrong
    cs = attempt(lambda: cp.CardSet(items), allowed)
    if cs is not None:
        assert len(cs) == len(items) and not wrong
    for item in items:
        attempt(lambda i=item: cp.Card(i), WITH_TYPES)  # type: ignore[misc]
        attempt(lambda i=item: cp.HandRank(i), WITH_TYPES)  # type: ignore[misc]
        attempt(lambda i=item: cp.CardSet.from_mask(i), WITH_TYPES)  # type: ignore[misc]


# -- arrays ------------------------------------------------------------------------------------

DTYPES = st.sampled_from(
    [np.uint8, np.int8, np.int16, np.int64, np.uint16, np.uint64, np.float32, np.float64, bool]
)


@st.composite
def code_arrays(draw: st.DrawFn, width: int) -> np.ndarray:
    dtype = draw(st.sampled_from([np.uint8] * 4 + [None]))
    if dtype is None:
        dtype = draw(DTYPES)
    shape = draw(
        st.one_of(
            st.tuples(st.integers(0, 5), st.sampled_from([width, width, 3, 5, 13, 0])),
            hnp.array_shapes(min_dims=0, max_dims=3, max_side=4),
        )
    )
    if draw(st.booleans()) and len(shape) == 2:
        rng = np.random.default_rng(draw(SEEDS))
        values = np.array(
            [rng.permutation(52)[: shape[1]] for _ in range(shape[0])], dtype=np.int64
        ).reshape(shape)
        arr = values.astype(dtype)
    else:
        arr = draw(hnp.arrays(dtype, shape))
    if draw(st.booleans()) and arr.ndim == 2 and arr.shape[1] > 1:
        arr = arr[:, ::-1]  # not contiguous
    if draw(st.booleans()) and arr.ndim >= 1 and arr.flags.writeable:
        arr.flags.writeable = False
    return arr


@examples(150)
@given(code_arrays(5), st.sampled_from(["low", "second"]), st.sampled_from([None, 1, 2]))
def test_fuzz_evaluate_batch(arr: np.ndarray, wheel: str, threads: int | None) -> None:
    out = attempt(lambda: cp.evaluate_batch(arr, wheel, threads), DATA_ONLY)
    if out is not None:
        assert arr.dtype == np.uint8 and arr.ndim == 2
        assert out.dtype == np.uint32 and out.shape == (arr.shape[0],)
        for row, raw in zip(arr, out, strict=True):
            assert cp.evaluate([int(c) for c in row], wheel).raw == raw


@examples(40)
@given(
    code_arrays(13),
    st.sampled_from(PRESETS),
    st.integers(2, 4),
    st.sampled_from([None, 1, 2]),
)
def test_fuzz_solve_batch(arr: np.ndarray, preset: str, players: int, threads: int | None) -> None:
    assume(arr.size <= 13 * 4)
    res = attempt(lambda: cp.solve_batch(arr, preset, players, threads=threads), DATA_ONLY)
    if res is None:
        return
    rules = cp.RuleSet.preset(preset)
    assert res.settings.shape == (arr.shape[0], 13)
    for hand, setting, decision, value in zip(
        arr, res.settings, res.decisions, res.values, strict=True
    ):
        assert sorted(int(c) for c in setting) == sorted(int(c) for c in hand)
        assert math.isfinite(value)
        if decision == 0:
            check_not_fouled([int(c) for c in setting], rules.wheel)


# -- rule sets -----------------------------------------------------------------------------------

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 30),
    BIG_INTS,
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.sampled_from(["replace", "add", "multiply", "reject", "auto", "low", "second", "shcd"]),
    st.sampled_from([*NATURALS, "trips", "quads", "flush", "straight_flush", "full_house"]),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=10), inner, max_size=3)
    ),
    max_leaves=8,
)


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths(v, (*prefix, k))


@st.composite
def mutated_preset(draw: st.DrawFn) -> dict[str, Any]:
    data = cp.RuleSet.preset(draw(st.sampled_from(PRESETS))).to_dict()
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(paths(data))[1:]))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["set", "set", "delete", "add"]))
        if action == "set":
            parent[path[-1]] = draw(JSON_VALUES)
        elif action == "delete":
            del parent[path[-1]]
        else:
            parent[draw(st.text(max_size=10))] = draw(JSON_VALUES)
    return data


def round_trips(rs: cp.RuleSet) -> None:
    assert cp.RuleSet.from_dict(rs.to_dict()) == rs
    assert cp.RuleSet.from_json(rs.to_json()) == rs
    assert cp.RuleSet.from_toml(rs.to_toml()) == rs


@examples(300)
@given(mutated_preset())
def test_fuzz_rule_set_dicts(data: dict[str, Any]) -> None:
    rs = attempt(lambda: cp.RuleSet.from_dict(data), DATA_ONLY)
    if rs is not None:
        round_trips(rs)
    text = attempt(lambda: json.dumps(data, allow_nan=True), (ValueError,))
    if text is not None:
        attempt(lambda: cp.RuleSet.from_json(text), DATA_ONLY)
        attempt(lambda: cp.RuleSet.from_json(text.encode()), DATA_ONLY)


@examples(200)
@given(
    st.one_of(
        st.text(max_size=60),
        JSON_VALUES.map(json.dumps),
        st.integers(1, 200_000).map(lambda n: "[" * n + "]" * n),
        st.integers(1, 5000).map(lambda n: "9" * n),
        st.integers(1, 5000).map(lambda n: '{"majority_point": ' + "9" * n + "}"),
    )
)
def test_fuzz_rule_set_json_text(text: str) -> None:
    rs = attempt(lambda: cp.RuleSet.from_json(text), DATA_ONLY)
    if rs is not None:
        round_trips(rs)


@examples(200)
@given(st.binary(max_size=60))
def test_fuzz_rule_set_json_and_toml_bytes(data: bytes) -> None:
    attempt(lambda: cp.RuleSet.from_json(data), DATA_ONLY)
    # from_toml takes text; bytes are a TypeError whose message says so
    attempt(lambda: cp.RuleSet.from_toml(data), WITH_TYPES)  # type: ignore[arg-type]


TOML_LINES = st.one_of(
    st.sampled_from(
        [
            'wheel = "second"',
            "majority_point = 3",
            "majority_point = -3",
            "surrender = 99999999999999999999",
            "[scoop]",
            'kind = "multiply"',
            "amount = 1e400",
            "[naturals.values]",
            "dragon = 13",
            "x = [[[[[[1]]]]]]",
            "a = {b = {c = {d = 1}}}",
        ]
    ),
    st.text(max_size=20),
    st.integers(1, 5000).map(lambda n: "x = " + "[" * n + "]" * n),
    st.integers(1, 5000).map(lambda n: "x = " + "{a = " * n + "1" + "}" * n),
)


@examples(200)
@given(st.lists(TOML_LINES, max_size=6).map("\n".join))
def test_fuzz_rule_set_toml_text(text: str) -> None:
    rs = attempt(lambda: cp.RuleSet.from_toml(text), DATA_ONLY)
    if rs is not None:
        round_trips(rs)


# -- tables files --------------------------------------------------------------------------------

_FILES = itertools.count()
_TMP = Path(tempfile.mkdtemp(prefix="cp-fuzz-"))


def shipped(players: int) -> bytes:
    found = tables.shipped_tables_path("maceplay", players)
    assert found is not None
    return found.read_bytes()


@st.composite
def tables_bytes(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["random", "truncated", "flipped", "rezipped", "arrays"]))
    if kind == "random":
        return draw(st.binary(max_size=400))
    real = shipped(draw(st.integers(2, 4)))
    if kind == "truncated":
        return real[: draw(st.integers(0, len(real)))]
    if kind == "flipped":
        data = bytearray(real)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= draw(st.integers(1, 255))
        return bytes(data)
    if kind == "rezipped":
        # a valid archive whose members are renamed, dropped or replaced by junk
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(real)) as src, zipfile.ZipFile(out, "w") as dst:
            for info in src.infolist():
                action = draw(st.sampled_from(["keep", "keep", "drop", "junk", "rename"]))
                if action == "keep":
                    dst.writestr(info.filename, src.read(info))
                elif action == "junk":
                    dst.writestr(info.filename, draw(st.binary(max_size=200)))
                elif action == "rename":
                    dst.writestr("x" + info.filename, src.read(info))
        return out.getvalue()
    # well-formed archives holding arrays of random dtypes, shapes and values
    arrays: dict[str, Any] = {}
    for name, size in (("front", 455), ("middle", 7462), ("back", 7462)):
        dtype = draw(st.sampled_from([np.float64, np.float32, np.int64, np.uint8, np.str_]))
        fill = draw(st.sampled_from([1.0, 0.0, -1.0, 1e308, np.inf, np.nan, 3.0]))
        shape = draw(st.sampled_from([(size,), (size,), (size - 1,), (), (2, size)]))
        with np.errstate(invalid="ignore", over="ignore"):  # junk casts are the point
            arrays[name] = np.full(shape, fill).astype(dtype)
    meta = draw(
        st.one_of(
            st.just({"key": "k", "scoop_rate": 0.1, "wheel": "low"}),
            st.dictionaries(st.sampled_from(["key", "scoop_rate", "wheel"]), JSON_SCALARS),
            JSON_VALUES,
        )
    )
    arrays["meta"] = np.array(json.dumps(meta))
    out = io.BytesIO()
    np.savez(out, **arrays)
    return out.getvalue()


@examples(150)
@given(tables_bytes(), st.integers(2, 4))
def test_fuzz_tables_files(data: bytes, players: int) -> None:
    path = _TMP / f"t{next(_FILES)}.npz"
    path.write_bytes(data)
    try:
        t = attempt(lambda: tables.read_tables(path), DATA_ONLY)
        if t is not None:
            for row in ("front", "middle", "back"):
                assert np.all(np.isfinite(t[row])) and math.isclose(t[row].sum(), 1.0)
        table = attempt(lambda: tables.load_tables("maceplay", players, path), DATA_ONLY)
        # The core's own reader: an error of the package or, where both read the file, the
        # same objective. (They differ at the edges: zipfile lets a cut end-of-archive record
        # pass, the zip crate a local header that misspells a member whose data checks out.)
        rules = cp.RuleSet.preset("maceplay").compiled
        ours = attempt(lambda: _core.load_tables(path, rules, players), DATA_ONLY)
        if ours is not None and table is not None:
            front, five = _core.rank_classes()
            for f, m, b in ((0, 0, 0), (200, 3000, 5000), (454, 7461, 7461)):
                ranks = (int(front[f]), int(five[m]), int(five[b]))
                assert ours.value(*ranks) == table.value(*ranks)
            assert ours.model == table.model
        if table is not None:
            sol = cp.solve(
                "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d", "maceplay", players, cp.TableEV(path)
            )
            assert math.isfinite(sol.value)
    finally:
        path.unlink()


# -- settle --------------------------------------------------------------------------------------


@st.composite
def decisions(draw: st.DrawFn, hand: list[int], wrong_types: bool) -> object:
    cards = draw(st.permutations(hand))
    rows = (cards[:3], cards[3:8], cards[8:])
    as_text = draw(st.booleans())
    if as_text:
        rows = tuple(" ".join(str(cp.Card(c)) for c in row) for row in rows)  # type: ignore[assignment]
    kind = draw(st.sampled_from(["play", "play", "setting", "declare", "surrender", "junk"]))
    if kind == "play":
        return rows
    if kind == "setting":
        return cp.Setting(*rows)
    if kind == "declare":
        return cp.Declare(draw(st.sampled_from(NATURALS)), cp.Setting(*rows))  # type: ignore[arg-type]
    if kind == "surrender":
        return cp.Surrender()
    if not wrong_types:
        return rows[:2] if draw(st.booleans()) else (rows[0], rows[1], rows[2][:-1])
    return draw(st.one_of(WRONG_TYPES, st.just(rows[:2]), st.just([*rows, rows[0]])))


@st.composite
def rounds(draw: st.DrawFn, wrong_types: bool) -> tuple[list[object], bool]:
    players = draw(st.integers(2, 4))
    hands = deal(np.random.default_rng(draw(SEEDS)), players)
    if draw(st.integers(0, 9)) == 0 and players > 1:
        hands[1][0] = hands[0][0]  # one card held twice
    if draw(st.integers(0, 19)) == 0:
        hands = hands[:1]  # too few players
    return [draw(decisions(h, wrong_types)) for h in hands], wrong_types


def check_zero_sum(s: cp.Settlement, players: int) -> None:
    assert len(s.totals) == players
    assert sum(s.totals) == 0, f"not zero-sum: {s.totals}"


@examples(300)
@given(rounds(wrong_types=False), st.sampled_from(PRESETS), st.integers(0, 3))
def test_fuzz_settle(round_: tuple[list[object], bool], preset: str, dealer: int) -> None:
    decisions_, _ = round_
    s = attempt(lambda: cp.settle(decisions_, preset, dealer=dealer), DATA_ONLY)  # type: ignore[arg-type]
    if s is not None:
        check_zero_sum(s, len(decisions_))
        assert dealer < len(decisions_)


@examples(150)
@given(rounds(wrong_types=True), st.sampled_from(PRESETS))
def test_fuzz_settle_wrong_types(round_: tuple[list[object], bool], preset: str) -> None:
    decisions_, _ = round_
    s = attempt(lambda: cp.settle(decisions_, preset), WITH_TYPES)  # type: ignore[arg-type]
    if s is not None:
        check_zero_sum(s, len(decisions_))


BANKROLL_VALUES = st.one_of(
    st.integers(0, 1000),
    st.integers(-5, 2**70),
    BIG_INTS,
    st.floats(),
    st.sampled_from([1.9, math.nan, math.inf, -0.0]),
    st.just(np.int64(50)),
)
DEALERS = st.one_of(st.integers(-3, 6), BIG_INTS, st.just(np.int64(1)))


def capped(rules: cp.RuleSet) -> cp.RuleSet:
    return rules.replace(bankroll_cap=True)


@examples(200)
@given(
    rounds(wrong_types=False),
    st.sampled_from(PRESETS),
    st.one_of(
        st.none(),
        st.lists(BANKROLL_VALUES, min_size=0, max_size=5),
        st.text(max_size=4),
        st.binary(max_size=4),
    ),
    DEALERS,
)
def test_fuzz_settle_bankrolls_and_dealer(
    round_: tuple[list[object], bool], preset: str, bankrolls: object, dealer: object
) -> None:
    decisions_, _ = round_
    rules = capped(cp.RuleSet.preset(preset))
    plain_ints = bankrolls is None or (
        isinstance(bankrolls, list)
        and len(bankrolls) == len(decisions_)
        and all(isinstance(b, int | np.integer) and not isinstance(b, bool) for b in bankrolls)
        and all(0 <= b < 2**63 for b in bankrolls)  # type: ignore[operator]
    )
    good_dealer = (
        isinstance(dealer, int | np.integer)
        and not isinstance(dealer, bool)
        and 0 <= dealer < len(decisions_)
    )
    s = attempt(
        lambda: cp.settle(decisions_, rules, bankrolls, dealer),  # type: ignore[arg-type]
        WITH_TYPES,
    )
    if s is not None:
        check_zero_sum(s, len(decisions_))
        # a string, a float, NaN, a bad seat: refused, never read as something else
        assert plain_ints and good_dealer, (bankrolls, dealer)
        if bankrolls is not None:
            assert s.bankrolls_after is not None
            assert all(b >= 0 for b in s.bankrolls_after)


@st.composite
def valid_rule_sets(draw: st.DrawFn) -> cp.RuleSet:
    for _ in range(20):
        rs = attempt(lambda: cp.RuleSet.from_dict(draw(mutated_preset())), DATA_ONLY)
        if rs is not None:
            return rs
    return cp.RuleSet.preset(draw(st.sampled_from(PRESETS)))


@examples(150)
@given(rounds(wrong_types=False), valid_rule_sets())
def test_fuzz_settle_under_random_rule_sets(
    round_: tuple[list[object], bool], rules: cp.RuleSet
) -> None:
    decisions_, _ = round_
    s = attempt(lambda: cp.settle(decisions_, rules), DATA_ONLY)  # type: ignore[arg-type]
    if s is not None:
        check_zero_sum(s, len(decisions_))


# -- solve ---------------------------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn) -> tuple[object, bool]:
    """A hand in one of the accepted forms, sometimes damaged; and whether it has wrong types."""
    hand = deal(np.random.default_rng(draw(SEEDS)), 1)[0]
    form = draw(st.sampled_from(["codes", "text", "cards", "cardset", "numpy", "damaged"]))
    if form == "codes":
        return hand, False
    if form == "text":
        return " ".join(str(cp.Card(c)) for c in hand), False
    if form == "cards":
        return [cp.Card(c) for c in hand], False
    if form == "cardset":
        return cp.CardSet(hand), False
    if form == "numpy":
        return np.array(hand, dtype=draw(st.sampled_from([np.uint8, np.int64]))), False
    items, wrong = draw(card_items())
    return hand[: draw(st.integers(0, 13))] + items, wrong


@st.composite
def row_value_specs(draw: st.DrawFn, hostile: bool = False) -> tuple[object, object, object]:
    kinds = ["rising", "random", "constant", "callable"] + ["weird"] * hostile

    def one(size: int) -> object:
        kind = draw(st.sampled_from(kinds))
        if kind == "rising":
            return np.arange(size, dtype=np.float64)
        if kind == "random":
            return np.random.default_rng(draw(SEEDS)).normal(size=size)
        if kind == "constant":
            return np.full(size, draw(st.floats(-1e6, 1e6)))
        if kind == "callable":
            return lambda r: float(r.raw % 97)
        return draw(
            st.sampled_from(
                [
                    np.full(size, 1e308),
                    np.full(size, np.nan),
                    np.full(size, np.inf),
                    np.ones(size) * (1 + 1j),
                    np.ones(size - 1),
                    np.ones((size, 2)),
                    [1.0] * size,
                    "not values",
                ]
            )
        )

    return one(455), one(7462), one(7462)


@st.composite
def objectives(draw: st.DrawFn, hand: object) -> object:
    kind = draw(st.sampled_from(["none", "table", "rows", "best", "monte"]))
    if kind == "none":
        return None
    if kind == "table":
        return cp.TableEV()
    if kind == "rows":
        return cp.RowValues(*draw(row_value_specs()))  # type: ignore[arg-type]
    if kind == "best":
        taken = attempt(lambda: set(cp.CardSet(hand).codes()), WITH_TYPES) or set()  # type: ignore[arg-type]
        rest = [c for c in range(52) if c not in taken]
        rng = np.random.default_rng(draw(SEEDS))
        opponents: list[object] = []
        for p in range(draw(st.integers(0, 4))):
            cards = [int(c) for c in rng.permutation(rest)[:13]] if p < 3 else list(range(13))
            rest = [c for c in rest if c not in cards]
            opponents.append(draw(decisions(cards, wrong_types=False)))
        return cp.BestResponse(opponents)  # type: ignore[arg-type]
    return cp.MonteCarlo(samples=draw(st.integers(2, 12)), seed=draw(SEEDS), threads=1)


def check_solution(sol: cp.Solution, hand: object, preset: str, top_k: int) -> None:
    codes = [c.code for row in sol.setting.rows() for c in row]
    assert sorted(codes) == sorted(c.code for c in cp.CardSet(hand))  # type: ignore[arg-type]
    assert math.isfinite(sol.value)
    assert 1 <= len(sol.alternatives) <= top_k
    wheel = cp.RuleSet.preset(preset).wheel
    if sol.decision == "play":
        check_not_fouled(codes, wheel)
    for alt in sol.alternatives:
        assert math.isfinite(alt.value)
        check_not_fouled(list(alt.codes), wheel)


@examples(120)
@given(st.data(), hands(), st.sampled_from(PRESETS), st.integers(2, 4), st.integers(1, 6))
def test_fuzz_solve(
    data: st.DataObject, hand_wrong: tuple[object, bool], preset: str, players: int, top_k: int
) -> None:
    hand, wrong = hand_wrong
    objective = data.draw(objectives(hand))
    sol = attempt(
        lambda: cp.solve(hand, preset, players, objective, top_k),  # type: ignore[arg-type]
        WITH_TYPES,
    )
    if sol is not None:
        assert not wrong
        check_solution(sol, hand, preset, top_k)


@examples(60)
@given(row_value_specs(hostile=True), st.sampled_from(PRESETS), st.integers(2, 4))
def test_fuzz_solve_hostile_row_values(
    specs: tuple[object, object, object], preset: str, players: int
) -> None:
    values = attempt(lambda: cp.RowValues(*specs), DATA_ONLY)  # type: ignore[arg-type]
    if values is None:
        return
    hand = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
    sol = attempt(lambda: cp.solve(hand, preset, players, values, 3), DATA_ONLY)
    if sol is not None:
        check_solution(sol, hand, preset, 3)


@examples(100)
@given(
    st.one_of(st.integers(-3, 8), BIG_INTS, st.booleans(), st.none(), st.floats()),
    st.one_of(st.integers(-3, 8), BIG_INTS, st.booleans()),
    st.one_of(st.integers(-3, 8), BIG_INTS, st.booleans(), st.floats()),
)
def test_fuzz_solve_arguments(players: object, top_k: object, samples: object) -> None:
    hand = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
    good_players = type(players) is int and 2 <= players <= 4
    good_top_k = type(top_k) is int and 1 <= top_k <= 10**6
    sol = attempt(lambda: cp.solve(hand, "maceplay", players, None, top_k), WITH_TYPES)  # type: ignore[arg-type]
    if sol is not None:
        assert good_players and good_top_k, (players, top_k)
    mc = attempt(lambda: cp.MonteCarlo(samples=samples, seed=5, threads=1), WITH_TYPES)  # type: ignore[arg-type]
    if mc is not None:
        assert type(samples) is int and samples >= 2
        if samples <= 64:
            attempt(lambda: cp.solve(hand, "maceplay", 2, mc), DATA_ONLY)


# -- the command line ----------------------------------------------------------------------------

CLI_TOKENS = st.one_of(
    st.sampled_from(
        [
            "demo",
            "tables",
            "train",
            "--rules",
            "--seed",
            "--deals",
            "--threads",
            "--players",
            "--out",
            "--all",
            "--help",
            "maceplay",
            "one_six",
            "nope",
            "rules.json",
            "rules.toml",
            "-1",
            "0",
            "1",
            "2",
            "5",
            "18446744073709551616",
            "x.npz",
            "1e3",
            "",
        ]
    ),
    st.text(
        alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="/\\\x00"),
        max_size=8,
    ),
)


@examples(6)
@given(st.lists(CLI_TOKENS, max_size=6))
def test_fuzz_cli(args: list[str]) -> None:
    if "train" in args:
        args = [*args, "--deals", "5"]  # any training that starts stays short
    with tempfile.TemporaryDirectory() as cwd:
        Path(cwd, "rules.json").write_text('{"majority_point": 1}')
        Path(cwd, "rules.toml").write_text("majority_point = [")
        result = subprocess.run(
            [sys.executable, "-m", "chinese_poker", *args],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=cwd,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
    assert "Traceback" not in result.stderr, (args, result.stderr)
    assert result.returncode in (0, 2), (args, result.returncode, result.stderr)
    if result.returncode == 2:
        assert len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)


# -- issue 16's surfaces: deal, settle_batch, duel, parse_hands, the CLI's settle, Table ------

# Whatever a caller may pass where a whole number goes: in and out of range, of every type.
ANY_INT = st.one_of(
    st.integers(-3, 6),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**22, 2**22 + 1, 2**40, 2**64 - 1, 2**64]),
    st.floats(allow_nan=True),
    st.booleans(),
    st.integers(0, 5).map(np.int64),
    st.integers(0, 5).map(np.uint8),
    st.just(np.bool_(True)),
    st.text(max_size=2),
    st.none(),
)


@examples(150)
@given(ANY_INT, ANY_INT, ANY_INT, ANY_INT)
def test_fuzz_deal(rounds_: object, players: object, seed: object, first: object) -> None:
    got = attempt(lambda: cp.deal(rounds_, players, seed, first), DATA_ONLY)  # type: ignore[arg-type]
    if got is None:
        return
    n, p = int(rounds_), int(players)  # type: ignore[call-overload]
    assert got.shape == (n, p, 13) and got.dtype == np.uint8
    for r in got:
        assert len(set(r.reshape(-1).tolist())) == 13 * p and r.max(initial=0) < 52


@st.composite
def batch_arrays(draw: st.DrawFn) -> tuple[object, object, object]:
    """Dealt rounds as settings, sometimes damaged, with choices and naturals of any kind."""
    rounds_ = draw(st.integers(0, 4))
    players = draw(st.integers(2, 4))
    settings_: Any = cp.deal(rounds_, players, draw(st.integers(0, 2**64 - 1))).copy()
    damage = draw(st.sampled_from(["none", "code", "dtype", "shape", "list"]))
    if damage == "code" and rounds_:
        settings_[draw(st.integers(0, rounds_ - 1)), 0, draw(st.integers(0, 12))] = draw(
            st.integers(0, 255)
        )
    elif damage == "dtype":
        settings_ = settings_.astype(draw(st.sampled_from([np.int64, np.float64, np.bool_])))
    elif damage == "shape":
        settings_ = settings_.reshape(-1)[: draw(st.integers(0, settings_.size))]
    elif damage == "list":
        settings_ = settings_.tolist()
    small = st.one_of(
        st.integers(-1, 3),
        st.floats(allow_nan=True, width=32),
        st.booleans(),
        st.just(255),
        st.just(256),
    )

    def codes() -> object:
        kind = draw(st.sampled_from(["none", "valid", "any", "ragged"]))
        if kind == "none":
            return None
        if kind == "valid":
            return np.zeros((rounds_, players), np.uint8)
        if kind == "ragged":
            return [[0] * players, [0]]
        return draw(
            st.lists(
                st.lists(small, min_size=players, max_size=players),
                min_size=rounds_,
                max_size=rounds_,
            )
        )

    return settings_, codes(), codes()


@examples(150)
@given(batch_arrays(), st.sampled_from(PRESETS), st.sampled_from([None, 1, 0, 1.5]))
def test_fuzz_settle_batch(
    arrays: tuple[object, object, object], preset: str, threads: object
) -> None:
    settings_, choices, naturals = arrays
    points = attempt(
        lambda: cp.settle_batch(settings_, preset, choices, naturals, threads),  # type: ignore[arg-type]
        DATA_ONLY,
    )
    if points is not None:
        assert points.dtype == np.int64
        assert (points.sum(axis=1) == 0).all(), "a settled round is not zero-sum"
        # a float, bool or NaN choice is refused, never truncated into a choice
        for c in (choices, naturals):
            if c is not None:
                assert np.asarray(c).dtype.kind in "iu"


POLICY_VALUES = st.sampled_from(
    [cp.Greedy(), cp.RandomLegal(), cp.TableEV(), 5, None, "greedy", cp.Greedy, (lambda h: None)]
)


# deals: few (a valid count plays them all) or refused (2**70, wrong types)
DEALS = st.one_of(
    st.integers(-1, 3),
    st.sampled_from([2**70, -(2**70), 1.0, float("nan"), True, np.int64(2), "2", None]),
)


@examples(40)
@given(POLICY_VALUES, POLICY_VALUES, DEALS, ANY_INT)
def test_fuzz_duel(a: object, b: object, deals: object, players: object) -> None:
    res = attempt(
        lambda: cp.duel(a, b, deals=deals, rules="two_four", players=players, progress=False),  # type: ignore[arg-type]
        DATA_ONLY,
    )
    if res is None:
        return
    assert res.deals == int(deals) >= 1  # type: ignore[call-overload]
    # fewer than two deals: no interval, never a zero-width one
    assert math.isnan(res.stderr) == (res.deals < 2)
    assert math.isnan(res.ci_low) == (res.deals < 2)


LINES = st.lists(
    st.one_of(card_text(), st.text(max_size=12), st.just("As \ud800"), st.integers(0, 3)),
    max_size=4,
)


@examples(200)
@given(st.one_of(LINES, st.text(max_size=5), st.none()), ANY_INT)
def test_fuzz_parse_hands(lines: object, cards: object) -> None:
    got = attempt(lambda: cp.parse_hands(lines, cards=cards), DATA_ONLY)  # type: ignore[arg-type]
    if got is not None:
        width = 13 if cards is None else int(cards)  # type: ignore[call-overload]
        assert got.dtype == np.uint8 and got.shape[1] == width
        assert got.max(initial=0) < 52


SEAT_TEXT = st.one_of(
    st.sampled_from(
        [
            "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s",
            "Ac Kc 7d / Jc Jd 8s 6c 4d / Ah Th 6h 3h 2h",
            "2c 2d 3c / 3d 3s 4c 4h As / Tc Td Ts 6d 6s",
            "surrender",
            "dragon: 2c 3c 4c / 5c 6c 7c 8c 9c / Tc Jc Qc Kc Ac",
            "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c",
            "",
        ]
    ),
    st.text(max_size=20),
)


@examples(60)
@given(
    st.lists(SEAT_TEXT, max_size=5),
    st.sampled_from([[], ["--rules", "one_six"], ["--rules", "pokerfever_western"], ["--json"]]),
    st.sampled_from([[], ["--bankrolls", "1,1"], ["--bankrolls", "-5,3"], ["--dealer", "1"]]),
)
def test_fuzz_cli_settle(seats: list[str], rules: list[str], extra: list[str]) -> None:
    """The CLI's settle in-process: one line and exit 2 for bad input, never a traceback."""
    import contextlib

    from chinese_poker.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["settle", *seats, *rules, *extra])
        except SystemExit as e:  # argparse's own errors
            code = e.code  # type: ignore[assignment]
    assert code in (0, 2), (seats, err.getvalue())
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1, err.getvalue()
    assert "internal error" not in err.getvalue()


ROUNDS = st.one_of(
    st.integers(-1, 5), st.sampled_from([2**70, 1.5, float("nan"), True, np.int64(3), "3", None])
)


@examples(40)
@given(ROUNDS, st.integers(1, 5), st.one_of(st.none(), st.lists(POLICY_VALUES, max_size=5)))
def test_fuzz_simulate(rounds_: object, players: int, policies: object) -> None:
    """Any rounds, table size and policies: the package's error, or every round played once,
    zero-sum, with no fouled setting (maceplay refuses fouls, so no policy can play one)."""
    run = attempt(
        lambda: cp.simulate(
            rounds_,  # type: ignore[arg-type]
            players,
            "maceplay",
            seed=3,
            policies=policies,  # type: ignore[arg-type]
            progress=False,
        ),
        DATA_ONLY,
    )
    if run is None:
        return
    assert run.columns is not None and run.rounds == int(rounds_)  # type: ignore[call-overload]
    rounds_seen = run.columns["round"].reshape(-1, players)
    assert (rounds_seen == np.arange(run.rounds)[:, None]).all(), "a round lost or played twice"
    assert (run.columns["points"].reshape(-1, players).sum(axis=1) == 0).all()
    assert (run.columns["status"] != _core.STATUS_NAMES.index("fouled")).all()


RUN_WORDS = st.lists(
    st.sampled_from(
        ["--rounds", "--deals", "--players", "--policy", "--seed", "--threads", "--json"]
        + ["0", "1", "3", "5", "-1", "1.5", "2**40", "table", "greedy,random", "x", ""]
    ),
    max_size=6,
)


@examples(40)
@given(st.sampled_from([["simulate"], ["duel", "greedy", "random"]]), RUN_WORDS)
def test_fuzz_cli_simulate_and_duel(command: list[str], words: list[str]) -> None:
    """The CLI's simulate and duel in-process: a result, or one line and exit 2, never a
    traceback."""
    import contextlib

    from chinese_poker.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*command, "--no-progress", *words])
        except SystemExit as e:  # argparse's own errors
            code = e.code  # type: ignore[assignment]
    assert code in (0, 2), (command, words, err.getvalue())
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1, err.getvalue()
    assert "internal error" not in err.getvalue()


# -- a Table as a state machine: saved and restored at any point, it plays on identically ------


class _FakeClock:
    """The clock of both tables of a :class:`TableMachine`, moved by its ``wait`` rule."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


_MAKE_POLICY: dict[str, Callable[[], Any]] = {
    "greedy": cp.Greedy,
    "random": cp.RandomLegal,
    "table": cp.TableEV,
}


class TableMachine(RuleBasedStateMachine):
    """Two tables given the same calls: ``live`` never stops, ``saved`` is saved to JSON and
    restored whenever hypothesis likes. Seats join, leave, go bust and are topped up; rounds
    run against a deadline on a fake clock both tables read. They must stay equal (their
    saved forms, every result and every error), every round zero-sum, no seat fouled unless a
    foul was chosen or it timed out under a foul timeout, no round settled with a seat missing
    before its deadline, and the seats within the core's limits."""

    live: cp.Table
    saved: cp.Table
    fouls: set[int]
    clock: _FakeClock

    @initialize(
        players=st.integers(2, 4),
        rules=st.sampled_from(
            ["maceplay", "pokerfever_western", "pokerfever_eastern", "one_six", "shisanshui"]
        ),
        seed=st.integers(0, 2**64 - 1),
        # busted seats (0) are common: the bust rule is played often
        bankrolls=st.one_of(
            st.none(), st.lists(st.sampled_from([0, 2, 40]), min_size=4, max_size=4)
        ),
        dealer=st.integers(0, 3),
        history=st.sampled_from([None, 0, 2]),
        policies=st.lists(st.sampled_from(sorted(_MAKE_POLICY)), min_size=4, max_size=4),
        on_bust=st.sampled_from(ON_BUST),
        deadline=st.one_of(st.none(), st.integers(1, 30)),
    )
    def setup(
        self,
        players: int,
        rules: str,
        seed: int,
        bankrolls: list[int] | None,
        dealer: int,
        history: int | None,
        policies: list[str],
        on_bust: str,
        deadline: int | None,
    ) -> None:
        self.clock = _FakeClock()
        kwargs: dict[str, Any] = {
            "players": players,
            "rules": rules,
            "seed": seed,
            "bankrolls": None if bankrolls is None else bankrolls[:players],
            "dealer": dealer % players,
            "history": history,
            "policies": [_MAKE_POLICY[p]() for p in policies[:players]],
            "on_bust": on_bust,
            "deadline": deadline,
            "clock": self.clock,
        }
        self.live, self.saved = cp.Table(**kwargs), cp.Table(**kwargs)
        self.fouls = set()

    def both(self, call: Callable[[cp.Table], Any]) -> tuple[bool, Any]:
        """``call`` on both tables: the same result, or the same package error, on each.
        Returns whether it succeeded, and its result."""
        results: list[tuple[bool, Any]] = []
        for t in (self.live, self.saved):
            try:
                results.append((True, call(t)))
            except ChinesePokerError as e:
                results.append((False, (type(e), str(e))))
        (ok, a), (ok_b, b) = results
        assert ok == ok_b, (a, b)
        if isinstance(a, cp.Settlement):
            assert a.to_dict() == b.to_dict()
        else:
            assert a == b, (a, b)
        return ok, a

    def pick(self, seat: int) -> int:
        """A seat to act on: one dealt in (or at the table) for ``seat`` 0-3, else the number
        itself, which may have left, sit out or never have been given (refused alike)."""
        among = self.live.dealt or self.live.seats
        return among[seat % len(among)] if seat < 4 else seat - 4

    @rule()
    def deal(self) -> None:
        busted = self.live.busted
        if self.both(lambda t: t.deal())[0]:
            self.fouls = set()
            dealt = self.live.dealt
            assert dealt is not None and self.live.dealer in dealt
            assert self.live.on_bust != "stop" or not busted
            if self.live.on_bust == "sit_out":
                assert not set(dealt) & set(busted), "a busted seat was dealt in"
            else:
                assert dealt == self.live.seats

    @rule(seat=st.integers(0, 9), how=st.sampled_from(["policy", "foul", "cheat", "surrender"]))
    def act(self, seat: int, how: str) -> None:
        s = self.pick(seat)
        if self.live.dealt is None or s not in self.live.dealt:
            assert not self.both(lambda t: t.act(s, cp.Surrender()))[0]
            return
        hand = self.live._hand(s)
        if how == "policy":
            d: Any = self.live._policy_decision(s, cp.Greedy())
        elif how == "foul":
            d = _core.fouled_setting(hand, self.live.rules.wheel)
        elif how == "cheat":
            other = [c for c in range(52) if c not in set(hand.tolist())][:13]
            d = (other[:3], other[3:8], other[8:])
        else:
            d = cp.Surrender()
        ok, _ = self.both(lambda t: t.act(s, d))
        if how == "cheat":
            assert not ok  # never recorded: the seat was not dealt those cards
        elif ok and how == "foul":
            self.fouls.add(s)
        elif ok:
            self.fouls.discard(s)

    @rule(seat=st.integers(0, 9))
    def ask(self, seat: int) -> None:
        s = self.pick(seat)
        if self.both(lambda t: t.ask(s))[0]:
            self.fouls.discard(s)

    @rule(late=st.booleans())
    def settle(self, late: bool) -> None:
        if late:  # past any deadline (wait's small steps reach one seldom)
            self.clock.now += 60
        dealt, acted = self.live.dealt, set(self.live._decisions)
        early = (self.live.time_left or 0) > 0
        ok, result = self.both(lambda t: t.settle())
        if not ok:
            return
        assert dealt is not None and sum(result.totals) == 0, "not zero-sum"
        record = self.live.history[-1] if self.live.history else None
        missing = tuple(s for s in dealt if s not in acted)
        assert not (early and missing), "settled with seats missing before the deadline"
        if record is not None:
            assert record.seats == dealt and record.timed_out == missing
        timeout_fouls = self.live.rules.timeout == "foul"
        for p in result.players:
            if p.status == "fouled":
                chosen = dealt[p.seat] in self.fouls
                timed_out = dealt[p.seat] in missing and timeout_fouls
                assert chosen or timed_out, f"seat {dealt[p.seat]} fouled without choosing to"
        self.fouls = set()

    @rule(
        policy=st.sampled_from(sorted(_MAKE_POLICY)),
        money=st.integers(-5, 40),
        wrong=st.integers(0, 3),
    )
    def join(self, policy: str, money: int, wrong: int) -> None:
        # a bankroll where the table keeps them, none where it does not; once in 4 the other
        keeps = self.live.bankrolls is not None
        bankroll = money if keeps != (wrong == 0) else None
        before = self.live.seats
        ok, seat = self.both(lambda t: t.join(_MAKE_POLICY[policy](), bankroll=bankroll))
        if ok:
            assert self.live.seats == (*before, seat) and seat > max(before)

    @rule(seat=st.integers(0, 9))
    def leave(self, seat: int) -> None:
        s = self.pick(seat)
        if self.both(lambda t: t.leave(s))[0]:
            assert s not in self.live.seats

    @rule(seat=st.integers(0, 9), amount=st.integers(0, 30))
    def top_up(self, seat: int, amount: int) -> None:
        self.both(lambda t: t.top_up(self.pick(seat), amount))

    @rule(seconds=st.sampled_from([0.5, 5, 30]))
    def wait(self, seconds: float) -> None:
        self.clock.now += seconds

    @rule()
    def save_and_restore(self) -> None:
        self.saved = cp.Table.from_json(self.saved.to_json(), clock=self.clock)

    @invariant()
    def same_state(self) -> None:
        if hasattr(self, "live"):
            assert self.saved.to_dict() == self.live.to_dict()
            seats = self.live.seats
            assert _core.MIN_PLAYERS <= len(seats) <= _core.MAX_PLAYERS
            assert list(seats) == sorted(set(seats)) and self.live.dealer in seats
            assert (self.live.time_left or 0) >= 0


TableMachine.TestCase.settings = settings(
    max_examples=max(1, int(12 * _SCALE)), stateful_step_count=20
)
test_fuzz_table_state_machine = TableMachine.TestCase


@pytest.mark.parametrize("profile", ["quick", "long"])
def test_profiles_are_registered(profile: str) -> None:
    assert settings.get_profile(profile).deadline is None


# -- mutation fuzz of saved data: saved Tables, manifests, tables files (issue 41) -------------

ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([-1, 0, 1, 52, 99, 2**63, 1.5, 1e308, -0.0, "", "x", "99", [], {}, [[[]]]]),
    st.text(max_size=4),
)


@st.composite
def json_mutation(draw: st.DrawFn, data: Any) -> Any:
    """``data`` (JSON) with one to three mutations at random places: a value replaced by an
    odd one, a key dropped, a list item dropped or doubled."""
    data = json.loads(json.dumps(data))
    for _ in range(draw(st.integers(1, 3))):
        node, path = data, []
        while isinstance(node, dict | list) and node and draw(st.integers(0, 3)):
            key = draw(
                st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node)))
            )
            path.append((node, key))
            node = node[key]
        if not path:
            continue
        parent, key = path[-1]
        how = draw(st.sampled_from(["replace", "drop", "double"]))
        if how == "replace":
            parent[key] = json.loads(json.dumps(draw(ODD_VALUES)))  # never shared
        elif how == "drop":
            del parent[key]
        elif isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(parent[key])))
        else:
            parent[key] = [parent[key], parent[key]]
    return data


def _saved_table() -> dict[str, Any]:
    t = cp.Table(3, "maceplay", bankrolls=[50, 50, 50], deadline=30, policies=[cp.Greedy()] * 3)
    t.play_round()
    t.play_round()
    t.deal()
    t.ask(t.dealt[0])  # type: ignore[index]
    return json.loads(t.to_json())


_SAVED_TABLE = None


@examples(300)
@given(st.data())
def test_fuzz_saved_table_mutations(data: st.DataObject) -> None:
    global _SAVED_TABLE
    if _SAVED_TABLE is None:
        _SAVED_TABLE = _saved_table()
    mutated = data.draw(json_mutation(_SAVED_TABLE))
    table = attempt(lambda: cp.Table.from_json(json.dumps(mutated)), DATA_ONLY)
    if table is not None:
        # a table that restores is whole: it saves, restores again and plays on
        again = cp.Table.from_json(table.to_json())
        first, second = table.to_dict(), again.to_dict()
        first.pop("time_left"), second.pop("time_left")  # the clock runs on
        assert first == second
        attempt(again.settle if again.dealt is not None else again.play_round, DATA_ONLY)


@pytest.fixture(scope="module")
def simulation_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("pyarrow")
    out = tmp_path_factory.mktemp("fuzz") / "run"
    cp.simulate(40, 3, "maceplay", [cp.Greedy()] * 3, seed=3, progress=False, out=out)
    return out


@examples(150)
@given(st.data())
def test_fuzz_manifest_mutations(simulation_dir: Path, data: st.DataObject) -> None:
    import shutil

    from chinese_poker import _dataset

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        shutil.copytree(simulation_dir, out)
        mutated = data.draw(json_mutation(_dataset.load_manifest(out)))
        _dataset._atomic_write(
            out / _dataset.MANIFEST, _dataset._manifest_file(json.dumps(mutated))
        )
        back = attempt(lambda: cp.read_simulation(out), DATA_ONLY)
        if back is not None:
            assert back.columns is not None
            assert len(back.columns["points"]) == back.rounds * back.players
        run = attempt(
            lambda: cp.simulate(
                40, 3, "maceplay", [cp.Greedy()] * 3, seed=3, progress=False, out=out, resume=True
            ),
            DATA_ONLY,
        )
        if run is not None:  # resumed: the run is whole and verified again
            assert cp.read_simulation(out).rounds == 40


@examples(100)
@given(
    st.sampled_from(["front", "middle", "back", "meta"]),
    st.one_of(
        st.tuples(st.integers(0, 2**40)),
        st.tuples(st.integers(0, 9999), st.integers(0, 9999)),
        st.just(()),
    ),
    st.sampled_from(["<f8", "<i4", "|u1", "<U8", "<c16", "|O", "<f2", "|V8", "<U99999999"]),
    st.integers(0, 64),
)
def test_fuzz_tables_member_headers(
    member: str, shape: tuple[int, ...], descr: str, extra: int
) -> None:
    shipped = tables.shipped_tables_path("maceplay", 4)
    assert shipped is not None
    good = tables.read_tables(shipped)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.npz"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for name in ("front", "middle", "back", "meta"):
                buf = io.BytesIO()
                if name == member:
                    header = repr({"descr": descr, "fortran_order": False, "shape": shape}).encode()
                    header += b" " * (63 - (len(header) + 10) % 64) + b"\n"
                    buf.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header)
                    buf.write(bytes(min(extra * 1000, 1 << 16)))
                else:
                    value = np.array(json.dumps(good["meta"])) if name == "meta" else good[name]
                    np.save(buf, value)
                z.writestr(f"{name}.npy", buf.getvalue())
        attempt(lambda: tables.read_tables(path), DATA_ONLY)


# -- Ctrl-C at random moments of a fresh process's first calls (issue 41) ----------------------

FIRST_CALLS = {
    "deal": "cp.deal(4194304, 4, 1)",
    "parse_hands": "cp.parse_hands(['As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s'] * 2_000_000)",
    "solve_batch": "cp.solve_batch(cp.deal(20000, 4, 1).reshape(-1, 13), 'maceplay', 4)",
    "evaluate_batch": "cp.evaluate_batch(cp.deal(4194304, 4, 1).reshape(-1, 13)[:, :5])",
}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
@examples(4)
@given(st.sampled_from(sorted(FIRST_CALLS)), st.floats(0.0, 0.8))
def test_fuzz_ctrl_c_during_a_fresh_process_first_calls(call: str, delay: float) -> None:
    import signal

    # the moment counts from the interpreter's start (a Ctrl-C before that is the
    # interpreter's business): the import of the package and its first call
    code = f"print('started', flush=True)\nimport chinese_poker as cp\n{FIRST_CALLS[call]}\n"
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "started"
        time.sleep(delay)
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
        took = time.perf_counter() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert "panicked" not in err and "PanicException" not in err, err
    # stopped by the Ctrl-C (KeyboardInterrupt, so -SIGINT) or finished before it came
    assert child.returncode in (0, -signal.SIGINT), (child.returncode, err)
    if child.returncode != 0:
        assert "KeyboardInterrupt" in err or not err.strip(), err
        assert took < 1.5, took
