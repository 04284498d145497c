"""What the Python boundary costs, measured in one process against the core doing the same work:

- ``settle`` of a 4-player round from Python (decisions in, a ``Settlement`` out) against the
  core's own settlement of the same decisions (budget: at most 10 µs more);
- ``solve`` per call (a ``Solution`` out) against the core's own ``solve`` of the same hands,
  one thread (budget: at most 5 µs more per hand). (``solve_batch`` is no baseline for it: it
  runs the search pruned by the value, where ``solve`` values the whole frontier for its
  ``top_k`` plays.)

``make bench`` prints both differences in the summary; under ``--benchmark-disable`` each runs
once as a test and checks its results.
"""

from __future__ import annotations

import time
from typing import Any

import chinese_poker as cp
import numpy as np
from chinese_poker import _core, _testing

RULES = "maceplay"
HANDS = 300


def _per_call(fn: Any, calls: int, repeats: int = 5) -> float:
    """Median seconds per call of ``fn()`` doing ``calls`` units of work."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) / calls)
    return sorted(runs)[len(runs) // 2]


def bench_settle_overhead(benchmark: Any, record_overhead: Any) -> None:
    deck = np.random.default_rng(5).permutation(52).astype(np.uint8).reshape(4, 13)
    decisions = [cp.solve([int(c) for c in hand], RULES, 4).as_decision() for hand in deck]
    compiled = cp.RuleSet.preset(RULES).compiled
    result = benchmark(cp.settle, decisions, RULES)
    assert sum(result.totals) == 0 and len(result.matchups) == 6
    assert result == _core.settle(decisions, compiled)
    if not benchmark.disabled:
        rounds = 20_000
        python = _per_call(lambda: [cp.settle(decisions, RULES) for _ in range(rounds)], rounds)
        rust = _testing.settle_seconds(decisions, compiled, rounds)
        record_overhead("settle, 4 players (per call)", python, rust, 10e-6)


def bench_solve_overhead(benchmark: Any, record_overhead: Any, make_hands: Any) -> None:
    hands = make_hands(HANDS, 13, 8)
    as_lists = hands.tolist()
    solver = cp.Solver(RULES, 4)
    batch = cp.solve_batch(hands, RULES, 4, threads=1)

    def per_call() -> list[cp.Solution]:
        return [cp.solve(h, RULES, 4) for h in as_lists]

    sols = benchmark(per_call)
    assert [s.value for s in sols] == [float(v) for v in batch.values]
    assert [s.as_decision() for s in sols] == batch.decisions_list()
    assert [solver.solve(h) for h in as_lists[:10]] == sols[:10]
    if not benchmark.disabled:
        python = _per_call(per_call, HANDS)
        rust = _testing.solve_seconds(hands, solver._compiled, 4, solver._objective, 5)
        record_overhead("solve per call (per hand)", python, rust, 5e-6)
