"""Evaluation speed from Python, and the same random hands through peer evaluators.

``make bench`` times these for real and prints a summary table; under ``--benchmark-disable``
(``make test``) each bench runs once as a test and checks its result. Budgets
(docs/architecture.md, "Performance budgets"; one core): ``evaluate_batch`` ≤ 25 ns per hand,
per-call ``evaluate`` on card codes ≤ 150 ns.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest

BATCH_HANDS = 1_000_000
CALL_HANDS = 20_000
PEER_HANDS = 20_000

# docs/rules.md, "Hand ranks": how many of the 2,598,960 five-card hands fall in each
# category, weakest first.
FIVE_CARD_HANDS = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]


def same_order(ours: Sequence[int] | np.ndarray, theirs: Sequence[int] | np.ndarray) -> bool:
    """Whether two strength lists (higher = stronger) order the hands identically, ties included."""
    a, b = np.asarray(ours, dtype=np.int64), np.asarray(theirs, dtype=np.int64)
    order = np.argsort(a, kind="stable")
    return bool(np.array_equal(np.sign(np.diff(a[order])), np.sign(np.diff(b[order]))))


def per_call_raw(rows: np.ndarray, wheel: str = "low") -> np.ndarray:
    return np.array([cp.evaluate(row, wheel=wheel).raw for row in rows.tolist()], dtype=np.uint32)


@pytest.mark.parametrize("width", [5, 3])
def bench_evaluate_batch(benchmark: Any, make_hands: Any, record: Any, width: int) -> None:
    hands = make_hands(BATCH_HANDS, width, 11 + width)
    benchmark.group = "budgets"
    raw = benchmark(cp.evaluate_batch, hands, threads=1)
    record(benchmark, f"evaluate_batch, {width} cards, threads=1", BATCH_HANDS, "budgets", 25)

    assert raw.dtype == np.uint32 and raw.shape == (BATCH_HANDS,)
    np.testing.assert_array_equal(raw[:2000], per_call_raw(hands[:2000]))
    categories = np.bincount(raw >> 21, minlength=9)
    if width == 5:
        # 1M draws against the exact frequencies: within 5 standard deviations of the binomial
        p = np.array(FIVE_CARD_HANDS) / 2_598_960
        sd = np.sqrt(BATCH_HANDS * p * (1 - p))
        assert np.all(np.abs(categories - BATCH_HANDS * p) <= 5 * sd + 1), categories
    else:
        assert set(np.flatnonzero(categories)) == {0, 1, 3}


def bench_evaluate_per_call(benchmark: Any, make_hands: Any, record: Any) -> None:
    rows = make_hands(CALL_HANDS, 5, 21).tolist()
    evaluate = cp.evaluate
    benchmark.group = "budgets"
    ranks = benchmark(lambda: [evaluate(r) for r in rows])
    record(benchmark, "evaluate(list of 5 codes), per call", CALL_HANDS, "budgets", 150)

    assert len(ranks) == CALL_HANDS
    expect = cp.evaluate_batch(np.array(rows, dtype=np.uint8), threads=1)
    np.testing.assert_array_equal([r.raw for r in ranks], expect)


@dataclass(frozen=True)
class Peer:
    """How to feed one library the benchmark hands and read back strengths."""

    name: str
    module: str
    # converts the codes (outside the timing) into the library's own input
    prepare: Callable[[Any, np.ndarray], Any]
    # evaluates every prepared hand (timed); returns one value per hand
    run: Callable[[Any, Any], Sequence[Any] | np.ndarray]
    # the returned values as strengths where higher is stronger (not timed)
    strength: Callable[[Sequence[Any] | np.ndarray], Sequence[int] | np.ndarray]


def _card_names(codes: np.ndarray) -> list[list[str]]:
    return [[str(cp.Card(int(c))) for c in row] for row in codes]


def _treys_prepare(m: Any, codes: np.ndarray) -> tuple[Any, list[list[int]]]:
    return m.Evaluator(), [[m.Card.new(s) for s in row] for row in _card_names(codes)]


def _treys_run(_m: Any, prepared: tuple[Any, list[list[int]]]) -> list[int]:
    evaluator, hands = prepared
    evaluate = evaluator.evaluate
    return [evaluate(h[:2], h[2:]) for h in hands]


def _negated(values: Sequence[Any] | np.ndarray) -> np.ndarray:
    return -np.asarray(values, dtype=np.int64)


PEERS = [
    Peer(
        "chinese_poker evaluate (per call, codes)",
        "chinese_poker",
        lambda _m, codes: codes.tolist(),
        lambda m, rows: [m.evaluate(r) for r in rows],
        lambda ranks: [r.raw for r in ranks],
    ),
    Peer(
        "chinese_poker evaluate_batch (numpy, threads=1)",
        "chinese_poker",
        lambda _m, codes: codes,
        lambda m, codes: m.evaluate_batch(codes, threads=1),
        lambda raw: raw,
    ),
    Peer(
        "phevaluator evaluate_cards (per call, codes)",
        "phevaluator",
        lambda _m, codes: codes.tolist(),
        lambda m, rows: [m.evaluate_cards(*r) for r in rows],
        _negated,
    ),
    Peer(
        "eval7 evaluate (per call, eval7.Card)",
        "eval7",
        lambda m, codes: [[m.Card(s) for s in row] for row in _card_names(codes)],
        lambda m, hands: [m.evaluate(h) for h in hands],
        lambda values: values,
    ),
    Peer(
        "treys Evaluator.evaluate (per call, ints)",
        "treys",
        _treys_prepare,
        _treys_run,
        _negated,
    ),
]


@pytest.mark.parametrize("peer", PEERS, ids=[p.module + "-" + p.name.split()[1] for p in PEERS])
def bench_peer(benchmark: Any, make_hands: Any, record: Any, peer: Peer) -> None:
    try:
        with warnings.catch_warnings():  # eval7 imports a deprecated pyparsing API
            warnings.simplefilter("ignore")
            module = importlib.import_module(peer.module)
    except ImportError as e:
        pytest.skip(f"{peer.module} is not installed ({e})")
    codes = make_hands(PEER_HANDS, 5, 31)
    prepared = peer.prepare(module, codes)
    benchmark.group = "peers"
    out = benchmark(peer.run, module, prepared)
    record(benchmark, peer.name, PEER_HANDS, f"peers: the same {PEER_HANDS:,} random 5-card hands")

    assert len(out) == PEER_HANDS
    ours = cp.evaluate_batch(codes, threads=1)
    assert same_order(ours, peer.strength(out)), f"{peer.name} orders the hands differently"


def test_same_order_detects_a_difference() -> None:
    assert same_order([1, 2, 2, 3], [10, 20, 20, 30])
    assert not same_order([1, 2, 2, 3], [10, 20, 21, 30])
    assert not same_order([1, 2, 3], [30, 20, 10])
