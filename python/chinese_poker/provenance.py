"""How a result was made: the provenance every simulation and duel carries.

    >>> import chinese_poker as cp
    >>> run = cp.simulate(10, players=2, rules="two_four", policies=[cp.TableEV(), cp.Greedy()],
    ...                   seed=3, progress=False)
    >>> run.provenance.policies
    ('TableEV(tables=None)', 'Greedy()')
    >>> run.provenance.rules == cp.RuleSet.preset("two_four")
    True
    >>> run.provenance.tables[0].source, run.provenance.tables[1]
    ('shipped', None)

A [`Provenance`][chinese_poker.simulate.Provenance] is what
[`Simulation.to_dict()`][chinese_poker.Simulation.to_dict] and
[`DuelResult.to_dict()`][chinese_poker.DuelResult.to_dict] record under ``"provenance"``, and what a
simulation's Parquet files hold in their metadata (with the format and schema version, see
``_dataset``); [`read_simulation()`][chinese_poker.read_simulation] gives it back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import _core
from .policies import _policy_key, _spec_tables
from .rules import RuleSet
from .strategy_tables import TablesId

__all__ = ["Provenance"]


@dataclass(frozen=True)
class Provenance:
    """What a simulation or a duel was made from.

    ``rules``: the whole rule set (not only its name; ``to_dict`` also records its
    ``rules_digest``, `RuleSet.digest`); ``players``: the table size;
    ``policies``: for a simulation, the policy of each seat, for a duel, policy A then policy
    B, each with its parameters (a built-in policy's ``repr``, such as
    ``MonteCarlo(samples=200, seed=0, ...)`` without its thread count; a Python callable's
    qualified name); ``tables``: the strategy tables each of those policies played
    (`TablesId`, their source and digest; ``None`` for a policy without
    tables, and for every seat of data saved before results named their tables);
    ``seed``: the run's seed; ``rounds``: the rounds asked for (a duel: the
    deals); ``first``: the first round of the rows (0, but a part of a simulation directory
    read alone starts at its own); ``package_version``: the version of chinese_poker that made
    the rows.

    Attributes:
        rules: The whole rule set.
        players: The table size.
        policies: Each seat's policy (a duel: A then B), with its parameters.
        seed: The run's seed.
        rounds: Rounds asked for (a duel: the deals).
        first: The first round of the rows.
        package_version: The version of chinese_poker that made the rows.
        tables: The strategy tables each policy played (``None`` for a policy without
            tables).
    """

    rules: RuleSet
    players: int
    policies: tuple[str, ...]
    seed: int
    rounds: int
    first: int = 0
    package_version: str = _core.__version__
    tables: tuple[TablesId | None, ...] = ()

    @classmethod
    def of(
        cls,
        rules: RuleSet,
        policies: Sequence[object],
        seed: int,
        rounds: int,
        players: int,
        specs: Sequence[tuple[Any, ...] | None],
    ) -> Provenance:
        """The provenance of a run or duel played now, by this package, from round 0.

        Args:
            rules: The rule set played.
            policies: Each seat's policy.
            seed: The run's seed.
            rounds: Rounds (or deals) requested.
            players: The table size.
            specs: The policies' core forms (their tables loaded), whose tables are recorded.

        Returns:
            The provenance.
        """
        return cls(
            rules,
            players,
            tuple(_policy_key(p) for p in policies),
            seed,
            rounds,
            tables=tuple(_spec_tables(s) for s in specs),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: the rule set as [`RuleSet.to_dict()`][chinese_poker.RuleSet.to_dict]
        gives it."""
        return {
            "rules": self.rules.to_dict(),
            "rules_digest": self.rules.digest,
            "players": self.players,
            "policies": list(self.policies),
            "tables": tables_data(self.tables),
            "seed": self.seed,
            "rounds": self.rounds,
            "first": self.first,
            "package_version": self.package_version,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Provenance:
        """The provenance ``to_dict()`` (or a simulation's stored description) gives.

        Args:
            data: The plain data.

        Returns:
            The provenance.

        Raises:
            KeyError: A missing key.
            TypeError: A value of the wrong kind.
            ValueError: A value out of range.
            InvalidRulesError: A rule set that is not valid.
        """
        policies = data["policies"]
        if isinstance(policies, str) or not all(isinstance(p, str) for p in policies):
            raise TypeError(f"policies: expected a list of names, got {policies!r}")
        tables = data.get("tables")
        return cls(
            rules=RuleSet.from_dict(data["rules"]),
            players=int(data["players"]),
            policies=tuple(policies),
            seed=int(data["seed"]),
            rounds=int(data["rounds"]),
            first=int(data.get("first", 0)),
            package_version=str(data["package_version"]),
            tables=(None,) * len(policies) if tables is None else read_tables_data(tables),
        )


def tables_data(tables: Sequence[TablesId | None]) -> list[dict[str, Any] | None]:
    """The tables of each policy as JSON data: ``{"source": ..., "digest": ...}`` or null."""
    return [None if t is None else t.to_dict() for t in tables]


def read_tables_data(data: object) -> tuple[TablesId | None, ...]:
    """`tables_data()` read back; ``TypeError`` / ``ValueError`` (or the package's
    ``InvalidArgumentError``) for anything else."""
    if not isinstance(data, list):
        raise TypeError(f"tables: expected a list, got {type(data).__name__}")
    out: list[TablesId | None] = []
    for item in data:
        if item is None:
            out.append(None)
        elif isinstance(item, Mapping) and set(item) == {"source", "digest"}:
            out.append(TablesId(str(item["source"]), str(item["digest"])))
        else:
            raise TypeError(f"tables: expected {{source, digest}} or null, got {item!r}")
    return tuple(out)
