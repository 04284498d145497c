"""The policies of self-play: who sets each seat's hand in
[`simulate()`][chinese_poker.simulate.simulate], [`duel()`][chinese_poker.duel] and at a
[`Table`][chinese_poker.Table].

Built-in policies ([`TableEV`][chinese_poker.TableEV], [`MonteCarlo`][chinese_poker.MonteCarlo],
[`Greedy`][chinese_poker.Greedy], [`RandomLegal`][chinese_poker.RandomLegal]) play entirely in Rust
with the GIL released, each given to the core as its spec; a Python callable ``hand -> decision``
plays too, in Python, hand by hand: its own work plus 10 to 20 µs a hand for the call and the check
of its answer (``benches/simulate_costs.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core
from ._args import arg_error
from .exceptions import InvalidArgumentError, InvalidTypeError
from .rules import RuleSet
from .scoring import DecisionLike
from .solver import MonteCarlo, TableEV
from .strategy_tables import TablesId, load_tables

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


def _spec(
    policy: object, rules: RuleSet, players: int, seat: int, name: str | None = None
) -> tuple[Any, ...] | None:
    """The core's form of a built-in policy; ``None`` for a Python callable. ``name``: the
    argument as the caller wrote it (default ``policies[seat]``)."""
    name = f"policies[{seat}]" if name is None else name
    if isinstance(policy, TableEV):
        return ("table", load_tables(rules, players, policy.tables))
    if isinstance(policy, MonteCarlo):
        table = load_tables(rules, players, policy.opponent_policy.tables)
        return ("monte_carlo", policy.compiled(table))
    if isinstance(policy, Greedy):
        return ("greedy",)
    if isinstance(policy, RandomLegal):
        return ("random",)
    if isinstance(policy, type):
        # `cp.Greedy` is callable (it makes a Greedy), so without this it would fail only once
        # play starts, on the first hand it is given
        raise arg_error(
            InvalidTypeError,
            name,
            f"got the class {policy.__name__}, not a policy; call it: {policy.__name__}()",
        )
    if callable(policy):
        return None
    raise arg_error(
        InvalidTypeError,
        name,
        "expected TableEV, MonteCarlo, Greedy, RandomLegal or a callable hand -> decision, "
        f"got {type(policy).__name__}",
    )


def _spec_tables(spec: tuple[Any, ...] | None) -> TablesId | None:
    """The strategy tables a policy's core form plays (its own, or Monte Carlo's opponents'),
    ``None`` for a policy without tables."""
    if spec is None or spec[0] not in ("table", "monte_carlo"):
        return None
    held = spec[1]
    if isinstance(held, _core.TableEv):
        return TablesId(held.source, held.digest)
    tables: TablesId | None = held.tables
    return tables


def _read_policies(
    value: object, rules: RuleSet, players: int, name: str = "policies"
) -> tuple[tuple[object, ...], tuple[tuple[Any, ...] | None, ...]]:
    """The one reader of a ``policies`` argument (``simulate``, ``Table``): ``None`` (the
    table objective at every seat) or a sequence of one policy per seat, each checked (and its
    tables loaded) before anything runs. Returns the policies and their core specs."""
    if value is None:
        pols: tuple[object, ...] = (TableEV(),) * players
    else:
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            raise arg_error(
                InvalidTypeError,
                name,
                f"expected a sequence of {players} policies (one per seat), got "
                f"{type(value).__name__}",
            )
        pols = tuple(value)
        if len(pols) != players:
            raise arg_error(
                InvalidArgumentError,
                name,
                f"expected {players} policies (one per seat), got {len(pols)}",
            )
    specs = tuple(_spec(p, rules, players, s, f"{name}[{s}]") for s, p in enumerate(pols))
    return pols, specs


def _policy_name(policy: object) -> str:
    if isinstance(policy, TableEV | MonteCarlo | Greedy | RandomLegal):
        return repr(policy)
    return getattr(policy, "__name__", type(policy).__name__)


def _policy_key(policy: object) -> str:
    """What a seat's policy is, parameters included, for a run's provenance, for refusing to
    resume another run and for pooling the seats of one policy: a built-in policy's ``repr``
    (a ``MonteCarlo``'s without its thread count, which never changes what it plays), a Python
    callable's qualified name (``module.name``)."""
    if isinstance(policy, MonteCarlo):
        return repr(dataclasses.replace(policy, threads=None))
    if isinstance(policy, TableEV | Greedy | RandomLegal):
        return repr(policy)
    module = getattr(policy, "__module__", None) or type(policy).__module__
    return f"{module}.{getattr(policy, '__qualname__', type(policy).__qualname__)}"
