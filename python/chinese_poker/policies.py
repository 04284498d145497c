"""The policies of self-play: who sets each seat's hand in :func:`~chinese_poker.simulate`,
:func:`~chinese_poker.duel` and at a :class:`~chinese_poker.Table`.

Built-in policies (:class:`~chinese_poker.TableEV`, :class:`~chinese_poker.MonteCarlo`,
:class:`Greedy`, :class:`RandomLegal`) play entirely in Rust with the GIL released, each given
to the core as its spec; a Python callable ``hand -> decision`` plays too, in Python, hand by
hand (much slower).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from .exceptions import InvalidArgumentError
from .rules import RuleSet
from .scoring import DecisionLike
from .solver import MonteCarlo, TableEV
from .strategy_tables import load_tables

__all__ = ["Greedy", "PolicyLike", "RandomLegal"]


@dataclass(frozen=True)
class Greedy:
    """The baseline: the strongest back of the 13 cards, the strongest middle of the other 8,
    the rest in front. Never fouls, never declares or surrenders by itself."""


@dataclass(frozen=True)
class RandomLegal:
    """A uniformly random legal setting (seeded by the run: reproducible)."""


PolicyLike: TypeAlias = (
    "TableEV | MonteCarlo | Greedy | RandomLegal | Callable[[npt.NDArray[np.uint8]], DecisionLike]"
)


def _spec(policy: object, rules: RuleSet, players: int, seat: int) -> tuple[Any, ...] | None:
    """The core's form of a built-in policy; ``None`` for a Python callable."""
    if isinstance(policy, TableEV):
        return ("table", load_tables(rules, players, policy.tables))
    if isinstance(policy, MonteCarlo):
        table = load_tables(rules, players, policy.opponent_policy.tables)
        return ("monte_carlo", policy.compiled(table))
    if isinstance(policy, Greedy):
        return ("greedy",)
    if isinstance(policy, RandomLegal):
        return ("random",)
    if callable(policy):
        return None
    raise InvalidArgumentError(
        f'argument "policies[{seat}]": expected TableEV, MonteCarlo, Greedy, RandomLegal or a '
        f"callable hand -> decision, got {type(policy).__name__}"
    )


def _policy_name(policy: object) -> str:
    if isinstance(policy, TableEV | MonteCarlo | Greedy | RandomLegal):
        return repr(policy)
    return getattr(policy, "__name__", type(policy).__name__)
