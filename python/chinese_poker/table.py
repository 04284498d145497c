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
``Table.to_json()`` saves everything a table needs to go on, at any point (mid-round too), and
``Table.from_json()`` resumes it: the restored table plays exactly the rounds the saved one would
have played.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _args, _core
from ._core import Card
from .display import Shown
from .exceptions import (
    ChinesePokerError,
    InvalidArgumentError,
    InvalidDecisionError,
    InvalidShapeError,
)
from .policies import Greedy, PolicyLike, RandomLegal, _read_policies, _spec
from .rules import RuleSet, _rule_set
from .scoring import DecisionLike, Declare, Setting, Settlement, Surrender, settle
from .solver import MonteCarlo, TableEV

__all__ = ["RoundRecord", "Table"]

TABLE_FORMAT = "chinese-poker-table"
"""The ``format`` of a saved table (``Table.to_json``)."""
TABLE_VERSION = 2
"""The version of the saved table format ``Table.from_json`` reads (1 was the history alone,
without what a table needs to go on)."""


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

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any]) -> RoundRecord:
        after = data["bankrolls_after"]
        return cls(
            round=int(data["round"]),
            dealer=int(data["dealer"]),
            hands=tuple(tuple(int(c) for c in h) for h in data["hands"]),
            decisions=tuple(str(d) for d in data["decisions"]),
            timed_out=tuple(int(s) for s in data["timed_out"]),
            totals=tuple(int(t) for t in data["totals"]),
            bankrolls_after=None if after is None else tuple(int(b) for b in after),
            settlement=Settlement._from_dict(data["settlement"]),
        )


def _describe(d: Setting | Declare | Surrender) -> str:
    if isinstance(d, Surrender):
        return "surrender"
    if isinstance(d, Declare):
        return f"declare {d.natural}: {d.setting.to_text()}"
    return d.to_text()


def _policy_data(policy: object) -> dict[str, Any]:
    """A policy as saved data: built-in policies in full, a Python callable by name only (it
    must be given again to :meth:`Table.from_json`)."""
    if isinstance(policy, TableEV):
        return {"policy": "table", "tables": _path_text(policy.tables)}
    if isinstance(policy, MonteCarlo):
        return {
            "policy": "monte_carlo",
            "samples": policy.samples,
            "seed": policy.seed,
            "threads": policy.threads,
            "confidence": policy.confidence,
            "candidates": policy.candidates,
            "tables": _path_text(policy.opponent_policy.tables),
        }
    if isinstance(policy, Greedy):
        return {"policy": "greedy"}
    if isinstance(policy, RandomLegal):
        return {"policy": "random"}
    return {"policy": "callable", "name": getattr(policy, "__name__", type(policy).__name__)}


def _path_text(path: str | Path | None) -> str | None:
    return None if path is None else str(path)


def _policy_of_data(data: Any, seat: int) -> object | None:
    """The built-in policy saved as ``data``; ``None`` for a Python callable."""
    kind = data.get("policy") if isinstance(data, Mapping) else None
    if kind == "table":
        return TableEV(data.get("tables"))
    if kind == "monte_carlo":
        return MonteCarlo(
            samples=data["samples"],
            seed=data["seed"],
            threads=data["threads"],
            confidence=data["confidence"],
            candidates=data["candidates"],
            opponent_policy=TableEV(data.get("tables")),
        )
    if kind == "greedy":
        return Greedy()
    if kind == "random":
        return RandomLegal()
    if kind == "callable":
        return None
    raise _saved_error(f"policies[{seat}]", f"unknown policy {kind!r}")


def _saved_error(what: str, reason: str) -> InvalidShapeError:
    return InvalidShapeError(f"saved table: {what}: {reason}")


def _decision_data(seat: int, d: Setting | Declare | Surrender) -> dict[str, Any]:
    codes, choice, natural = _core.decision_codes(d, seat)
    return {"codes": list(codes), "choice": choice, "natural": natural}


def _decision_of_data(data: Mapping[str, Any]) -> Setting | Declare | Surrender:
    return _core.decision_of_codes(
        [int(c) for c in data["codes"]], int(data["choice"]), int(data["natural"])
    )


class Table(Shown):
    """A table of ``players`` seats under ``rules``.

    ``bankrolls``: each seat's money (``None``: no bankrolls). Under a rule set that caps
    payments by bankroll (``bankroll_cap``) a bankroll is 0 or more and payments are capped in
    dealer order, so nobody goes below 0; a seat that reaches 0 (busted) stays at the table and
    is dealt as before, but can then neither pay nor win anything (the cap limits both to its
    bankroll), so its rounds settle for nothing until its bankroll is topped up with
    :meth:`top_up` (:attr:`busted` lists such seats). Without the cap bankrolls are only kept:
    a seat may go into debt (a negative bankroll) and play on.

    ``dealer``: the first dealer's seat; the deal moves one seat on after each round. ``seed``:
    the deals (round ``r`` is reproducible). ``policies``: how :meth:`ask` sets each seat
    (default :class:`~chinese_poker.TableEV`). A seat that has not acted when :meth:`settle` is
    called has timed out: under ``timeout="auto"`` the solver sets it (the table objective),
    under ``timeout="foul"`` it is settled as a fouled hand. ``history``: keep only the last
    ``history`` settled rounds (``None``: all of them).

    A decision, from a person (:meth:`act`) or a policy (:meth:`ask`), must set exactly the
    cards dealt to its seat (else ``InvalidDecisionError`` naming the seat); a Python policy is
    given a read-only copy of its hand. :meth:`to_json` saves the table at any point and
    :meth:`from_json` resumes it.
    """

    def __init__(
        self,
        players: int = 4,
        rules: RuleSet | str | None = "maceplay",
        bankrolls: Sequence[int] | None = None,
        dealer: int = 0,
        seed: int = 0,
        policies: Sequence[PolicyLike] | None = None,
        history: int | None = None,
    ) -> None:
        self.players = _args.players("players", players)
        self.rules = _rule_set(rules)
        self.dealer = _args.seat("dealer", dealer, self.players)
        self.seed = _args.seed("seed", seed)
        self.bankrolls: tuple[int, ...] | None = self._read_bankrolls(bankrolls)
        self.policies, _ = _read_policies(policies, self.rules, self.players)
        self.round = 0
        self._keep = None if history is None else _args.rounds("history", history)
        self.history: deque[RoundRecord] = deque(maxlen=self._keep)
        self._hands: npt.NDArray[np.uint8] | None = None
        self._decisions: dict[int, Setting | Declare | Surrender] = {}

    def _read_bankrolls(self, bankrolls: object) -> tuple[int, ...] | None:
        if bankrolls is None:
            return None
        read = _core.read_bankrolls(bankrolls, self.rules.compiled, self.players)
        return None if read is None else tuple(read)

    # -- bankrolls -------------------------------------------------------------------------

    @property
    def busted(self) -> tuple[int, ...]:
        """The seats that can no longer pay or win: bankroll 0 under a bankroll cap."""
        if self.bankrolls is None or not self.rules.bankroll_cap:
            return ()
        return tuple(s for s, b in enumerate(self.bankrolls) if b <= 0)

    def top_up(self, seat: int, amount: int) -> None:
        """Adds ``amount`` (0 or more) to a seat's bankroll, between rounds or during one."""
        if self.bankrolls is None:
            raise InvalidArgumentError("top_up: this table keeps no bankrolls")
        s = _args.seat("seat", seat, self.players)
        add = _args.whole("amount", amount, 0, _core.MAX_BANKROLL)
        new = list(self.bankrolls)
        new[s] += add
        self.bankrolls = self._read_bankrolls(new)

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
        return _args.seat("seat", seat, self.players)

    def _checked(self, seat: int, decision: object) -> Setting | Declare | Surrender:
        """``decision`` for ``seat``, refused unless it sets exactly the cards dealt there."""
        assert self._hands is not None
        d = _as_decision(seat, decision)
        _core.decision_codes(d, seat, self._hands[seat])
        return d

    def act(self, seat: int, decision: DecisionLike) -> None:
        """Records a seat's decision (its own 13 cards; acting again replaces it)."""
        s = self._seat(seat)
        self._decisions[s] = self._checked(s, decision)

    def _policy_decision(self, seat: int, policy: object) -> Setting | Declare | Surrender:
        assert self._hands is not None
        spec = _spec(policy, self.rules, self.players, seat)
        if spec is None:
            mine = self._hands[seat].copy()
            mine.flags.writeable = False  # the policy reads its hand; it cannot rewrite it
            return self._checked(seat, policy(mine))  # type: ignore[operator]
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

    # -- saving and resuming ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything the table needs to go on, as data (what :meth:`to_json` writes)."""
        return {
            "format": TABLE_FORMAT,
            "version": TABLE_VERSION,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "round": self.round,
            "dealer": self.dealer,
            "bankrolls": None if self.bankrolls is None else list(self.bankrolls),
            "policies": [_policy_data(p) for p in self.policies],
            "history_limit": self._keep,
            # the round in progress: its hands are the seed's, so only the decisions so far
            "in_progress": self._hands is not None,
            "pending": {str(s): _decision_data(s, d) for s, d in sorted(self._decisions.items())},
            "rounds": [r.to_dict() for r in self.history],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """The table as versioned JSON: rules, players, policies (built-in ones in full),
        dealer, bankrolls, round counter, seed, the decisions of a round in progress, and the
        history (the last ``history`` rounds where bounded). :meth:`from_json` resumes it."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(
        cls, text: str | bytes, *, policies: Sequence[PolicyLike | None] | None = None
    ) -> Table:
        """Resumes a table saved by :meth:`to_json`: it plays the same rounds as the table that
        was saved would have. ``policies``: replacements by seat (``None`` keeps the saved
        one); a seat whose saved policy was a Python callable must be given one here."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise InvalidShapeError(f"saved table: not JSON ({e})") from None
        return cls.from_dict(data, policies=policies)

    @classmethod
    def from_dict(
        cls, data: object, *, policies: Sequence[PolicyLike | None] | None = None
    ) -> Table:
        """:meth:`from_json` for data already parsed."""
        if not isinstance(data, Mapping) or data.get("format") != TABLE_FORMAT:
            raise _saved_error("format", f"expected a {TABLE_FORMAT!r} object")
        if data.get("version") != TABLE_VERSION:
            raise _saved_error("version", f"expected {TABLE_VERSION}, got {data.get('version')!r}")
        try:
            return cls._restore(data, policies)
        except ChinesePokerError:
            raise  # names what is wrong already
        except (KeyError, TypeError, AttributeError, ValueError) as e:
            # a damaged file: one clear error, never a raw one
            raise _saved_error("content", f"missing or malformed {e}") from None

    @classmethod
    def _restore(cls, data: Mapping[str, Any], given: Sequence[PolicyLike | None] | None) -> Table:
        players = _args.players("players", data["players"])
        saved = data["policies"]
        if not isinstance(saved, list) or len(saved) != players:
            raise _saved_error("policies", f"expected {players}, one per seat")
        if given is not None and (
            isinstance(given, str | bytes)
            or not isinstance(given, Sequence)
            or len(given) != players
        ):
            raise _args.arg_error(
                InvalidArgumentError,
                "policies",
                f"expected {players} policies or None (one per seat)",
            )
        pols: list[object] = []
        for s, p in enumerate(saved):
            chosen = given[s] if given is not None else None
            pol = chosen if chosen is not None else _policy_of_data(p, s)
            if pol is None:
                raise _args.arg_error(
                    InvalidArgumentError,
                    f"policies[{s}]",
                    f"seat {s} was played by the Python callable {p.get('name')!r}, which a "
                    "saved table cannot hold: give it again",
                )
            pols.append(pol)
        table = cls(
            players=players,
            rules=RuleSet.from_dict(data["rules"]),
            bankrolls=data["bankrolls"],
            dealer=data["dealer"],
            seed=data["seed"],
            policies=pols,  # type: ignore[arg-type]
            history=data["history_limit"],
        )
        table.round = _args.seed("round", data["round"])
        table.history.extend(RoundRecord._from_dict(r) for r in data["rounds"])
        if data["in_progress"]:
            table.deal()
            for s, d in data["pending"].items():
                table.act(int(s), _decision_of_data(d))
        return table

    # -- history ---------------------------------------------------------------------------

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
