"""Hands for tests that need a Monte Carlo request to take a while."""

from __future__ import annotations

import chinese_poker as cp


def undecided_hand(samples: int = 10_000) -> str:
    """A hand whose Monte Carlo race under the service's defaults (MacePlay, 4 players, the
    shipped tables) runs its whole budget with the default seed and with seed 1: no play is
    left standing early, so a request for it takes a while and holds its slot. Found, not
    written down: which hands are that close depends on the tables."""
    solvers = [
        cp.Solver("maceplay", 4, cp.MonteCarlo(samples=samples)),
        cp.Solver("maceplay", 4, cp.MonteCarlo(samples=samples, seed=1)),
    ]
    for seed in range(500):
        hand = cp.deal(1, 2, seed=seed)[0, 0]
        if all(s.solve(hand).samples == samples for s in solvers):
            return " ".join(str(cp.Card(int(c))) for c in hand)
    raise AssertionError("no hand races its whole budget")
