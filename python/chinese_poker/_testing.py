"""Hooks for the package's own tests and benchmarks, not part of the API: the extension's
``_core._testing`` functions, typed.

- `settle_seconds()` and `solve_seconds()`: the seconds per call of the core's own
  ``settle`` and ``solve`` (median of 5 runs, the GIL released), the baselines ``make bench``
  compares the Python calls with in the same process.
- `monte_carlo_opponents()`: the opponents a Monte Carlo sample deals and sets for a hand,
  so a test can score the chosen setting against exactly those.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core

__all__ = ["monte_carlo_opponents", "settle_seconds", "solve_seconds"]

_hooks: Any = _core._testing


def settle_seconds(decisions: object, rules: _core.Rules, rounds: int) -> float:
    """Seconds per call of the core's ``settle`` of ``decisions`` over ``rounds`` calls."""
    return float(_hooks.settle_seconds(decisions, rules, rounds))


def solve_seconds(
    codes: npt.NDArray[np.uint8],
    rules: _core.Rules,
    players: int,
    objective: _core.Objective,
    top_k: int,
) -> float:
    """Seconds per hand of the core's ``solve`` of every hand of ``codes``."""
    return float(_hooks.solve_seconds(codes, rules, players, objective, top_k))


def monte_carlo_opponents(
    hand: object, rules: _core.Rules | None, table: _core.TableEv, seed: int, index: int
) -> list[tuple[Any, ...]]:
    """The opponents Monte Carlo sample ``index`` deals and sets for ``hand``: a list of
    ("play", 13 codes), ("declare", natural, 13 codes) or ("surrender", 13 codes)."""
    return list(_hooks.monte_carlo_opponents(hand, rules, table, seed, index))
