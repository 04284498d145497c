"""Duplicate duels of two built-in policies: every deal replayed with the seats rotated so that
policy A holds each hand once, which cancels the luck of the deal; A's edge in points per hand
with its paired interval, computed by the core."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _args, _core
from ._runner import _chunks, _Progress
from .display import Shown
from .exceptions import InvalidArgumentError
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
    deals asked for)."""

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
        made (see :class:`~chinese_poker.provenance.Provenance`)."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        del data["edges"]
        data["provenance"] = self.provenance.to_dict()
        return data


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
    """Duplicate duel of two built-in policies: every deal is replayed with the seats rotated
    so that A holds each hand once (heads-up: A and B swap; at 3–4 players one seat plays A and
    the others B). Ctrl-C stops it and reports the deals done."""
    deals = _args.rounds("deals", deals, low=1)
    players = _args.players("players", players)
    seed = _args.seed("seed", seed)
    threads = _args.threads("threads", threads)
    rs = _rule_set(rules)
    specs = [
        _spec(p, rs, players, s, name)
        for s, (name, p) in enumerate((("policy_a", policy_a), ("policy_b", policy_b)))
    ]
    for name, spec in zip(("policy_a", "policy_b"), specs, strict=True):
        if spec is None:
            raise _args.arg_error(
                InvalidArgumentError,
                name,
                "expected a built-in policy (TableEV, MonteCarlo, Greedy, RandomLegal): a duel "
                "replays deals in Rust, not Python callables",
            )
    edges: list[npt.NDArray[np.float64]] = []
    same: list[npt.NDArray[np.uint8]] = []
    interrupted = False
    bar = _Progress(deals, "deal", progress)
    try:
        for first, count in _chunks(deals):
            e, s = _core.duel_chunk(
                rs.compiled, players, specs[0], specs[1], seed, first, count, threads
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
        provenance=Provenance.of(rs, (policy_a, policy_b), seed, deals, players),
        **summary,
    )
