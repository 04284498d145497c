"""Solver speed: the table objective through ``solve_batch`` (1 and 2 threads), Monte Carlo with
1,000 sampled opponents heads-up, and the per-call ``solve`` overhead.

Budgets (docs/architecture.md, "Performance budgets"; one core): table objective ≤ 25 µs per
hand, Monte Carlo with 1,000
samples ≤ 25 ms per hand, ``solve_batch`` with 2 threads ≥ 1.8× one thread. ``make bench``
times them; under ``--benchmark-disable`` each runs once as a test and checks its result.
"""

from __future__ import annotations

from typing import Any

import chinese_poker as cp
import numpy as np
import pytest

BATCH_HANDS = 10_000
CALL_HANDS = 300
RULES = "maceplay"
HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"


def legal(hands: np.ndarray, settings: np.ndarray, wheel: str = "low") -> bool:
    """Every setting holds its hand's 13 cards and is not fouled."""
    if not np.array_equal(np.sort(hands, axis=1), np.sort(settings, axis=1)):
        return False
    front = cp.evaluate_batch(np.ascontiguousarray(settings[:, :3]), wheel=wheel)
    middle = cp.evaluate_batch(np.ascontiguousarray(settings[:, 3:8]), wheel=wheel)
    back = cp.evaluate_batch(np.ascontiguousarray(settings[:, 8:]), wheel=wheel)
    return bool(np.all(front <= middle) and np.all(middle <= back))


@pytest.fixture(scope="module")
def batch(make_hands: Any) -> np.ndarray:
    hands: np.ndarray = make_hands(BATCH_HANDS, 13, 4)
    cp.solve_batch(hands[:10], RULES, 4)  # load the tables outside the timing
    return hands


@pytest.mark.parametrize("threads", [1, 2])
def bench_solve_batch(benchmark: Any, record: Any, batch: np.ndarray, threads: int) -> None:
    benchmark.group = "solve"
    result = benchmark(cp.solve_batch, batch, RULES, 4, threads=threads)
    record(benchmark, f"solve_batch TableEV, threads={threads}", BATCH_HANDS, "solve", 25_000)
    assert result.settings.shape == (BATCH_HANDS, 13)
    played = result.decisions == 0
    assert legal(batch[played], result.settings[played])
    assert np.all(np.isfinite(result.values))
    if threads == 2:
        one = cp.solve_batch(batch[:500], RULES, 4, threads=1)
        assert np.array_equal(one.settings, result.settings[:500])


def bench_monte_carlo_heads_up(benchmark: Any, record: Any) -> None:
    benchmark.group = "solve"
    # the budget's reference work: every frontier play scored on all 1,000 samples (the default
    # budget races and usually stops sooner)
    mc = cp.MonteCarlo(samples=1000, seed=1, threads=1, confidence=0, candidates=0)
    cp.solve(HAND, RULES, 2)  # load the tables outside the timing
    sol = benchmark(cp.solve, HAND, RULES, 2, mc)
    assert sol.samples == 1000
    record(benchmark, "MonteCarlo 1,000 samples heads-up, threads=1", 1, "solve", 25e6)
    assert sol.stderr is not None and 0 < sol.stderr < 1
    assert not sol.setting.is_foul()


def bench_solve_per_call(benchmark: Any, record: Any, make_hands: Any) -> None:
    benchmark.group = "solve"
    hands = make_hands(CALL_HANDS, 13, 8).tolist()
    solve = cp.solve
    cp.solve(hands[0], RULES, 4)

    def run() -> list[cp.Solution]:
        return [solve(h, RULES, 4) for h in hands]

    sols = benchmark(run)
    record(benchmark, "solve() per call, TableEV", CALL_HANDS, "solve")
    batch = cp.solve_batch(np.array(hands, dtype=np.uint8), RULES, 4, threads=1)
    assert [s.value for s in sols] == pytest.approx(list(batch.values))


ONE_HAND_WAYS = {
    "Solver.solve": lambda bot, h: bot.solve(h).value,
    "Solver.solve_batch(1 hand, threads=1)": lambda bot, h: bot.solve_batch(
        h[None], threads=1
    ).values[0],
    "Solver.solve_batch(1 hand, threads=None)": lambda bot, h: bot.solve_batch(h[None]).values[0],
}


@pytest.mark.parametrize("way", list(ONE_HAND_WAYS))
def bench_one_hand_at_a_time(benchmark: Any, record: Any, make_hands: Any, way: str) -> None:
    """A bot's call for each hand as it comes (docs/guide/solve.md names the fastest way)."""
    benchmark.group = "one hand at a time"
    hands = make_hands(CALL_HANDS, 13, 9)
    bot = cp.Solver(RULES, 4)
    solve = ONE_HAND_WAYS[way]

    def run() -> list[float]:
        return [solve(bot, h) for h in hands]

    values = benchmark(run)
    record(benchmark, f"one hand at a time: {way}", CALL_HANDS, "solve")
    assert values == pytest.approx(list(bot.solve_batch(hands, threads=1).values))
