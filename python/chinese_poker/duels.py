"""Duplicate duels of two policies: every deal replayed with the seats rotated so that policy A
holds each hand once, which cancels the luck of the deal; A's edge in points per hand with its
paired interval, computed by the core. Two built-in policies play entirely in the core; a
Python callable decides its hands here and the core scores the rotations."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _args, _core
from ._runner import _chunks, _Progress, decide_chunk
from .display import Shown
from .exceptions import InvalidDecisionError
from .policies import PolicyLike, _policy_name, _spec
from .provenance import Provenance
from .rules import RuleSet, _rule_set

__all__ = ["DuelResult", "duel"]


@dataclass(frozen=True, slots=True, repr=False)
class DuelResult(Shown):
    """The edge of policy A over policy B in points per hand from duplicate deals, with its
    paired 95% confidence interval; ``same_share``: the share of hands both set identically;
    ``deals_needed``: deals for the interval to exclude 0 at the observed edge and spread;
    ``provenance``: how the duel was made (its ``policies`` are A then B, its ``rounds`` the
    deals asked for).

    Attributes:
        a: Policy A, with its parameters.
        b: Policy B, with its parameters.
        rules: The rule set's name (``provenance`` holds the whole rule set).
        players: The table size.
        deals: Deals played.
        edge: A's mean points per hand over B.
        stderr: Standard error of ``edge`` (NaN for fewer than 2 deals).
        ci_low: Low end of the paired 95% interval of ``edge``.
        ci_high: High end of the paired 95% interval.
        same_share: Share of hands both set identically.
        deals_needed: Deals for the interval to exclude 0 at the observed edge and spread.
        interrupted: The duel stopped (Ctrl-C) before all deals.
        edges: Each deal's edge.
        provenance: How the duel was made.
    """

    a: str
    b: str
    rules: str
    players: int
    deals: int
    edge: float
    stderr: float
    ci_low: float
    ci_high: float
    same_share: float
    deals_needed: float
    interrupted: bool
    edges: npt.NDArray[np.float64] = field(repr=False, compare=False)
    provenance: Provenance = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: the figures (``edges`` left out) and ``provenance``, how the duel was
        made (see [`Provenance`][chinese_poker.simulate.Provenance])."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        del data["edges"]
        data["provenance"] = self.provenance.to_dict()
        return data


def _mixed_chunk(
    rs: RuleSet,
    players: int,
    specs: Sequence[tuple[Any, ...] | None],
    policies: Sequence[object],
    seed: int,
    first: int,
    count: int,
    threads: int | None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint8]]:
    """Deals ``first..first + count`` of a duel with a Python policy: both policies decide every
    seat's hand (the built-in one in the core, with the seeds ``duel_chunk`` gives it), then
    the core scores the rotations."""
    hands = _core.deal(count, players, seed, first)
    sides = []
    for name, spec, policy in zip(("policy_a", "policy_b"), specs, policies, strict=True):
        try:
            decided = decide_chunk(
                rs, [spec] * players, [policy] * players, seed, first, count, threads, hands
            )
        except InvalidDecisionError as e:
            raise _args.arg_error(InvalidDecisionError, name, str(e)) from None
        sides.append(decided[:3])
    return _core.duel_decided(rs.compiled, sides[0], sides[1], threads)


def duel(
    policy_a: PolicyLike,
    policy_b: PolicyLike,
    deals: int = 2000,
    rules: RuleSet | str | None = None,
    players: int = 2,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = True,
) -> DuelResult:
    """Duplicate duel of two policies: every deal is replayed with the seats rotated so that A
    holds each hand once (heads-up: A and B swap; at 3–4 players one seat plays A and the others
    B); the same deals, decisions and scores whichever kind of policy plays. Ctrl-C stops it and
    reports the deals done.

    Args:
        policy_a: A built-in policy ([`TableEV`][chinese_poker.TableEV],
            [`MonteCarlo`][chinese_poker.MonteCarlo], [`Greedy`][chinese_poker.Greedy],
            [`RandomLegal`][chinese_poker.RandomLegal]) or a Python callable ``hand ->
            decision``, given a read-only array of the 13 codes and checked against them (as in
            [`simulate()`][chinese_poker.simulate.simulate]).
        policy_b: The other policy, likewise.
        deals: Deals to play (at least 1).
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name or ``None`` for ``maceplay``.
        players: The table size, 2 to 4.
        seed: The deals' seed.
        threads: ``None`` (all cores) or 1 to ``MAX_THREADS``; results never depend on it.
        progress: Show a progress bar.

    Returns:
        A's edge over B per hand, with its paired 95% interval and the deals needed to tell.

    Raises:
        InvalidArgumentError: A value out of range, or a policy that cannot play.
        InvalidDecisionError: A Python policy's answer does not set its hand, naming the side
            and the seat.
    """
    deals = _args.rounds("deals", deals, low=1)
    players = _args.players("players", players)
    seed = _args.seed("seed", seed)
    threads = _args.threads("threads", threads)
    rs = _rule_set(rules)
    specs = [
        _spec(p, rs, players, s, name)
        for s, (name, p) in enumerate((("policy_a", policy_a), ("policy_b", policy_b)))
    ]
    edges: list[npt.NDArray[np.float64]] = []
    same: list[npt.NDArray[np.uint8]] = []
    interrupted = False
    bar = _Progress(deals, "deal", progress)
    try:
        for first, count in _chunks(deals):
            if specs[0] is not None and specs[1] is not None:
                e, s = _core.duel_chunk(
                    rs.compiled, players, specs[0], specs[1], seed, first, count, threads
                )
            else:
                e, s = _mixed_chunk(
                    rs, players, specs, (policy_a, policy_b), seed, first, count, threads
                )
            edges.append(e)
            same.append(s)
            bar.update(count)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    e_all = np.concatenate(edges) if edges else np.zeros(0)
    s_all = np.concatenate(same) if same else np.zeros(0, np.uint8)
    summary = _core.duel_summary(e_all, s_all, players)
    return DuelResult(
        a=_policy_name(policy_a),
        b=_policy_name(policy_b),
        rules=rs.name,
        players=players,
        deals=len(e_all),
        interrupted=interrupted,
        edges=e_all,
        provenance=Provenance.of(rs, (policy_a, policy_b), seed, deals, players, specs),
        **summary,
    )
