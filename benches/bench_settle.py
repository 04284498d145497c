"""Settlement speed from Python: one 4-player round through ``cp.settle``, result objects
included. ``make bench`` times it; under ``--benchmark-disable`` it runs once as a test and
checks its result."""

from __future__ import annotations

from typing import Any

import chinese_poker as cp
import numpy as np

RULES = "maceplay"


def bench_settle_four_players(benchmark: Any) -> None:
    # Four solved (so legal) settings from one seeded deal; settled as MacePlay scores them.
    deck = np.random.default_rng(5).permutation(52).astype(np.uint8).reshape(4, 13)
    decisions = [cp.solve([int(c) for c in hand], RULES, 4).as_decision() for hand in deck]
    result = benchmark(cp.settle, decisions, RULES)
    assert sum(result.totals) == 0
    assert len(result.matchups) == 6
    # each total is the sum of that player's side of its three matchups
    for seat in range(4):
        assert result.totals[seat] == sum(
            m.points if m.a == seat else -m.points for m in result.matchups if seat in (m.a, m.b)
        )
