"""A card table for club and bot software: seats with bankrolls, a rotating dealer, seeded
deals, decisions from people or policies, the rule set's timeout for seats that did not act,
exact settlement with bankroll caps in dealer order, and a history to export.

    >>> import chinese_poker as cp
    >>> table = cp.Table(players=3, rules="pokerfever_western", bankrolls=[100, 100, 100], seed=7)
    >>> hands = table.deal()
    >>> table.act(0, cp.solve(hands[0], "pokerfever_western", players=3).as_decision())
    >>> table.ask(1)  # seat 1 is set by its policy
    >>> result = table.settle()  # seat 2 did not act: the rule set's timeout applies
    >>> sum(table.bankrolls)
    300

Round ``r`` of a table seeded ``s`` deals exactly the hands ``cp.deal(1, players, s, first=r)``
and :func:`~chinese_poker.simulate` deals for round ``r``: a table can be replayed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._args import whole
from ._core import Card
from .display import Shown
from .exceptions import InvalidArgumentError, InvalidDecisionError
from .policies import PolicyLike, _spec
from .rules import RuleSet, _rule_set
from .scoring import DecisionLike, Declare, Setting, Settlement, Surrender, settle
from .solver import TableEV

__all__ = ["RoundRecord", "Table"]


def _as_decision(seat: int, d: object) -> Setting | Declare | Surrender:
    if isinstance(d, Setting | Declare | Surrender):
        return d
    if isinstance(d, tuple | list) and len(d) == 3:
        return Setting(*d)
    raise InvalidDecisionError(
        f"player {seat}: expected a Setting, Declare, Surrender or (front, middle, back), "
        f"got {type(d).__name__}"
    )


@dataclass(frozen=True, slots=True, repr=False)
class RoundRecord(Shown):
    """One settled round: who dealt, the hands, what each seat did (and who timed out), and
    the money."""

    round: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    decisions: tuple[str, ...]
    timed_out: tuple[int, ...]
    totals: tuple[int, ...]
    bankrolls_after: tuple[int, ...] | None
    settlement: Settlement

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "decisions": list(self.decisions),
            "timed_out": list(self.timed_out),
            "totals": list(self.totals),
            "bankrolls_after": None if self.bankrolls_after is None else list(self.bankrolls_after),
            "settlement": self.settlement.to_dict(),
        }


def _describe(d: Setting | Declare | Surrender) -> str:
    if isinstance(d, Surrender):
        return "surrender"
    if isinstance(d, Declare):
        return f"declare {d.natural}: {d.setting.to_text()}"
    return d.to_text()


class Table(Shown):
    """A table of ``players`` seats under ``rules``.

    ``bankrolls``: each seat's money (``None``: no bankrolls; the cap applies only where the
    rule set caps payments). ``dealer``: the first dealer's seat; the deal moves one seat on
    after each round. ``seed``: the deals (round ``r`` is reproducible). ``policies``: how
    :meth:`ask` sets each seat (default :class:`~chinese_poker.TableEV`). A seat that has not
    acted when :meth:`settle` is called has timed out: under ``timeout="auto"`` the solver sets
    it (the table objective), under ``timeout="foul"`` it is settled as a fouled hand.
    """

    def __init__(
        self,
        players: int = 4,
        rules: RuleSet | str | None = "maceplay",
        bankrolls: Sequence[int] | None = None,
        dealer: int = 0,
        seed: int = 0,
        policies: Sequence[PolicyLike] | None = None,
    ) -> None:
        self.players = whole("players", players, 2, 4)
        self.rules = _rule_set(rules)
        self.dealer = whole("dealer", dealer, 0, self.players - 1)
        self.seed = whole("seed", seed, 0, 2**64 - 1)
        if bankrolls is None:
            self.bankrolls: tuple[int, ...] | None = None
        else:
            if isinstance(bankrolls, str | bytes) or len(bankrolls) != self.players:
                raise InvalidArgumentError(
                    f'argument "bankrolls": expected {self.players} whole numbers, one per seat'
                )
            self.bankrolls = tuple(
                whole(f"bankrolls[{i}]", b, 0, _core.MAX_BANKROLL) for i, b in enumerate(bankrolls)
            )
        pols: list[object] = [TableEV()] * self.players if policies is None else list(policies)
        if len(pols) != self.players:
            raise InvalidArgumentError(
                f'argument "policies": expected {self.players} policies, got {len(pols)}'
            )
        for s, p in enumerate(pols):
            _spec(p, self.rules, self.players, s)
        self.policies = tuple(pols)
        self.round = 0
        self.history: list[RoundRecord] = []
        self._hands: npt.NDArray[np.uint8] | None = None
        self._decisions: dict[int, Setting | Declare | Surrender] = {}

    # -- a round ---------------------------------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...] | None:
        """The current round's hands, or ``None`` between rounds."""
        if self._hands is None:
            return None
        return tuple(tuple(Card(int(c)) for c in h) for h in self._hands)

    def deal(self) -> tuple[tuple[Card, ...], ...]:
        """Deals the next round and returns the hands, seat by seat."""
        if self._hands is not None:
            raise InvalidArgumentError("deal: the current round has not been settled yet")
        self._hands = _core.deal(1, self.players, self.seed, self.round)[0]
        self._decisions = {}
        hands = self.hands
        assert hands is not None
        return hands

    def _seat(self, seat: object) -> int:
        if self._hands is None:
            raise InvalidArgumentError("no round in progress: call deal() first")
        return whole("seat", seat, 0, self.players - 1)

    def act(self, seat: int, decision: DecisionLike) -> None:
        """Records a seat's decision (its own 13 cards; acting again replaces it)."""
        s = self._seat(seat)
        d = _as_decision(s, decision)
        if not isinstance(d, Surrender):
            setting = d.setting if isinstance(d, Declare) else d
            assert self._hands is not None
            codes, _, _ = _core.decision_codes(setting, s)
            if sorted(codes) != sorted(int(c) for c in self._hands[s]):
                raise InvalidDecisionError(
                    f"player {s}: the setting is not the cards dealt to seat {s}"
                )
        self._decisions[s] = d

    def _policy_decision(self, seat: int, policy: object) -> Setting | Declare | Surrender:
        assert self._hands is not None
        spec = _spec(policy, self.rules, self.players, seat)
        if spec is None:
            return _as_decision(seat, policy(self._hands[seat]))  # type: ignore[operator]
        codes, choice, natural, _ = _core.decide_seat(
            self.rules.compiled, self.players, spec, self.seed, self.round, 1, seat
        )
        return _core.decision_of_codes(codes[0].tolist(), int(choice[0]), int(natural[0]))

    def ask(self, seat: int) -> Setting | Declare | Surrender:
        """Sets a seat with its policy, records and returns the decision."""
        s = self._seat(seat)
        d = self._policy_decision(s, self.policies[s])
        self._decisions[s] = d
        return d

    def settle(self) -> Settlement:
        """Settles the round: seats that did not act time out under the rule set's ``timeout``;
        payments are capped by bankroll in dealer order where the rule set says so; bankrolls
        are updated, the round is recorded and the deal moves one seat on."""
        if self._hands is None:
            raise InvalidArgumentError("settle: no round in progress: call deal() first")
        decisions: list[Setting | Declare | Surrender] = []
        timed_out = []
        for s in range(self.players):
            d = self._decisions.get(s)
            if d is None:
                timed_out.append(s)
                if self.rules.timeout == "auto":
                    d = self._policy_decision(s, TableEV())
                else:
                    d = _core.fouled_setting(self._hands[s], self.rules.wheel)
            decisions.append(d)
        result = settle(decisions, self.rules, self.bankrolls, self.dealer)
        if self.bankrolls is not None:
            after = result.bankrolls_after
            self.bankrolls = (
                tuple(after)
                if after is not None
                else tuple(b + t for b, t in zip(self.bankrolls, result.totals, strict=True))
            )
        self.history.append(
            RoundRecord(
                round=self.round,
                dealer=self.dealer,
                hands=tuple(tuple(int(c) for c in h) for h in self._hands),
                decisions=tuple(_describe(d) for d in decisions),
                timed_out=tuple(timed_out),
                totals=tuple(result.totals),
                bankrolls_after=self.bankrolls,
                settlement=result,
            )
        )
        self.round += 1
        self.dealer = (self.dealer + 1) % self.players
        self._hands = None
        self._decisions = {}
        return result

    def play_round(self) -> Settlement:
        """Deals, asks every seat's policy and settles: one whole round."""
        self.deal()
        for s in range(self.players):
            self.ask(s)
        return self.settle()

    # -- history ---------------------------------------------------------------------------

    def to_json(self, *, indent: int | None = 2) -> str:
        """The table's setup and every settled round as JSON."""
        return json.dumps(
            {
                "players": self.players,
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "rounds": [r.to_dict() for r in self.history],
            },
            indent=indent,
            ensure_ascii=False,
        )

    def to_arrow(self) -> Any:
        """The history as a ``pyarrow.Table``, one row per round and seat."""
        import pyarrow as pa

        rows = [
            {
                "round": r.round,
                "seat": s,
                "dealer": r.dealer,
                "hand": list(r.hands[s]),
                "decision": r.decisions[s],
                "timed_out": s in r.timed_out,
                "points": r.totals[s],
                "bankroll_after": None if r.bankrolls_after is None else r.bankrolls_after[s],
            }
            for r in self.history
            for s in range(self.players)
        ]
        return pa.Table.from_pylist(rows)
