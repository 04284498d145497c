"""A card table for club and bot software: seats with bankrolls that join and leave between
rounds, a rotating dealer, seeded deals, decisions from people or policies, an optional
per-round deadline after which the rule set's timeout settles the seats that did not act, a rule
for busted seats, exact settlement with bankroll caps in dealer order, and a history to export.

    >>> import chinese_poker as cp
    >>> table = cp.Table(players=3, rules="pokerfever_western", bankrolls=[100, 100, 100], seed=7)
    >>> hands = table.deal()
    >>> table.act(0, cp.solve(hands[0], "pokerfever_western", players=3).as_decision())
    >>> table.ask(1)  # seat 1 is set by its policy
    >>> result = table.settle()  # seat 2 did not act: the rule set's timeout applies
    >>> sum(table.bankrolls)
    300

Seats keep their numbers for as long as they sit at the table: the first ``players`` seats are
0, 1, ...; a seat that joins takes the next number never used at this table, and a number that
left is never given again, so the history and the bankrolls stay attributable. Seats sit in the
order of their numbers (a new seat after the highest one). Round ``r`` of a table seeded ``s``
deals the hands ``cp.deal(1, k, s, first=r)`` to the ``k`` seats dealt in, in seating order, as
[`simulate()`][chinese_poker.simulate] deals round ``r`` of ``k`` players: a table can be replayed.
``Table.to_json()`` saves everything a table needs to go on, at any point (mid-round too), and
``Table.from_json()`` resumes it: the restored table plays exactly the rounds the saved one would
have played.
"""

from __future__ import annotations

import functools
import json
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args

import numpy as np
import numpy.typing as npt

from . import _args, _core, _optional
from ._core import Card
from .display import Shown
from .exceptions import (
    ChinesePokerError,
    InvalidArgumentError,
    InvalidDecisionError,
    InvalidShapeError,
    InvalidTypeError,
)
from .policies import Greedy, PolicyLike, RandomLegal, _read_policies, _spec
from .rules import RuleSet, _rule_set
from .scoring import DecisionLike, Declare, Setting, Settlement, Surrender, settle
from .solver import MonteCarlo, TableEV

__all__ = ["ON_BUST", "OnBust", "RoundRecord", "Table"]

TABLE_FORMAT = "chinese-poker-table"
"""The ``format`` of a saved table (``Table.to_json``)."""
TABLE_VERSION = 3
"""The version of the saved table format ``Table.to_json`` writes. ``Table.from_json`` reads it
and version 2 (a fixed set of seats, dealt in every round, and no deadline); 1 was the history
alone, without what a table needs to go on."""
_READ_VERSIONS = (2, TABLE_VERSION)

OnBust = Literal["play", "sit_out", "stop"]
ON_BUST: tuple[OnBust, ...] = get_args(OnBust)
"""What a table does with a busted seat (``Table(on_bust=...)``): ``"play"`` deals it in as
before (it can neither pay nor win until topped up), ``"sit_out"`` leaves it out of the deals
until it is topped up, ``"stop"`` refuses to deal until it is topped up or has left."""

Decision = Setting | Declare | Surrender


def _as_decision(seat: int, d: object) -> Decision:
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
    """One settled round: the seats dealt in (``seats``, in seating order: position ``i`` of
    ``hands``, ``decisions``, ``totals``, ``bankrolls_after`` and of the ``settlement`` is seat
    ``seats[i]``), who dealt, what each seat did (and which seats timed out), the money, and
    the seats that sat the round out, and that joined or left the table since the round
    before. Seats are the table's seat numbers.

    Attributes:
        round: The round's number (from 0).
        dealer: The dealer's seat.
        hands: The hands dealt, in the order of ``seats``.
        decisions: What each seat did.
        timed_out: The seats that timed out.
        totals: Each seat's points.
        bankrolls_after: Each seat's bankroll after the round (``None`` without bankrolls).
        settlement: The round's settlement.
        seats: The seats dealt in, in seating order.
        sat_out: The seats that sat the round out.
        joined: The seats that joined since the round before.
        left: The seats that left since the round before.
    """

    round: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    decisions: tuple[str, ...]
    timed_out: tuple[int, ...]
    totals: tuple[int, ...]
    bankrolls_after: tuple[int, ...] | None
    settlement: Settlement
    seats: tuple[int, ...]
    sat_out: tuple[int, ...] = ()
    joined: tuple[int, ...] = ()
    left: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "dealer": self.dealer,
            "seats": list(self.seats),
            "sat_out": list(self.sat_out),
            "joined": list(self.joined),
            "left": list(self.left),
            "hands": [list(h) for h in self.hands],
            "decisions": list(self.decisions),
            "timed_out": list(self.timed_out),
            "totals": list(self.totals),
            "bankrolls_after": None if self.bankrolls_after is None else list(self.bankrolls_after),
            "settlement": self.settlement.to_dict(),
        }

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any], at: int = 0) -> RoundRecord:
        """A saved round, checked whole: cards that exist, one hand, decision and total per
        seat dealt in, totals that sum to zero, bankrolls within their bounds."""
        where = f"rounds[{at}]"
        after = data["bankrolls_after"]
        seats = _ints(data["seats"])
        hands = tuple(tuple(int(c) for c in h) for h in data["hands"])
        for h in hands:
            bad = [c for c in h if not 0 <= c < 52]
            if bad or len(h) != 13 or len(set(h)) != 13:
                what = f"card code {bad[0]} (codes are 0 to 51)" if bad else f"hand {list(h)}"
                raise _saved_error(f"{where}.hands", f"{what} is not a dealt hand")
        totals = _ints(data["totals"])
        n = len(seats)
        if not (_core.MIN_PLAYERS <= n <= _core.MAX_PLAYERS) or len(hands) != n or len(totals) != n:
            raise _saved_error(where, "expected one hand and one total per seat dealt in")
        if len(data["decisions"]) != n or (after is not None and len(after) != n):
            raise _saved_error(where, "expected one decision and bankroll per seat dealt in")
        if sum(totals) != 0:
            raise _saved_error(f"{where}.totals", f"{list(totals)} do not sum to zero")
        bound = _core.MAX_BANKROLL
        if after is not None and any(not -bound <= int(b) <= bound for b in after):
            raise _saved_error(f"{where}.bankrolls_after", "past MAX_BANKROLL")
        return cls(
            round=int(data["round"]),
            dealer=int(data["dealer"]),
            hands=tuple(tuple(int(c) for c in h) for h in data["hands"]),
            decisions=tuple(str(d) for d in data["decisions"]),
            timed_out=_ints(data["timed_out"]),
            totals=_ints(data["totals"]),
            bankrolls_after=None if after is None else _ints(after),
            settlement=Settlement._from_dict(data["settlement"]),
            seats=_ints(data["seats"]),
            sat_out=_ints(data["sat_out"]),
            joined=_ints(data["joined"]),
            left=_ints(data["left"]),
        )

    def _rows(self) -> list[dict[str, Any]]:
        """The round as rows, one per seat it names, in seat order (what
        [`Table.to_arrow()`][chinese_poker.Table.to_arrow] exports): ``status`` ``"dealt"``,
        ``"sat_out"`` or ``"left"`` (left the table before this round), ``joined`` (joined since the
        round before); a seat not dealt in has no hand, decision, points or bankroll."""
        joined = set(self.joined)
        rows = [self._row(s, "dealt", joined) for s in self.seats]
        rows += [self._row(s, "sat_out", joined) for s in self.sat_out]
        rows += [self._row(s, "left", joined) for s in self.left]
        return sorted(rows, key=lambda row: int(row["seat"]))

    def _row(self, seat: int, status: str, joined: set[int]) -> dict[str, Any]:
        at = self.seats.index(seat) if status == "dealt" else None
        after = self.bankrolls_after
        return {
            "round": self.round,
            "seat": seat,
            "dealer": self.dealer,
            "status": status,
            "joined": seat in joined,
            "hand": None if at is None else list(self.hands[at]),
            "decision": None if at is None else self.decisions[at],
            "timed_out": seat in self.timed_out,
            "points": None if at is None else self.totals[at],
            "bankroll_after": None if at is None or after is None else after[at],
        }


def _ints(values: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def _describe(d: Decision) -> str:
    if isinstance(d, Surrender):
        return "surrender"
    if isinstance(d, Declare):
        return f"declare {d.natural}: {d.setting.to_text()}"
    return d.to_text()


def _policy_data(policy: object) -> dict[str, Any]:
    """A policy as saved data: built-in policies in full, a Python callable by name only (it
    must be given again to [`Table.from_json()`][chinese_poker.Table.from_json])."""
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


def _decision_data(seat: int, d: Decision) -> dict[str, Any]:
    codes, choice, natural = _core.decision_codes(d, seat)
    return {"codes": list(codes), "choice": choice, "natural": natural}


def _decision_of_data(data: Mapping[str, Any]) -> Decision:
    return _core.decision_of_codes(
        [int(c) for c in data["codes"]], int(data["choice"]), int(data["natural"])
    )


def _read_on_bust(value: object) -> OnBust:
    for choice in ON_BUST:
        if value == choice and isinstance(value, str):
            return choice
    raise _args.arg_error(
        InvalidArgumentError,
        "on_bust",
        f"expected one of {', '.join(repr(c) for c in ON_BUST)}, got {value!r}",
    )


def _read_clock(value: object) -> Callable[[], object]:
    if not callable(value):
        raise _args.arg_error(
            InvalidTypeError,
            "clock",
            f"expected a callable returning seconds (like time.monotonic), got "
            f"{type(value).__name__}",
        )
    return value


def _named(seats: Sequence[int]) -> str:
    """``"seat 3"``, ``"seats 1, 3"`` or ``"no seat"``."""
    if not seats:
        return "no seat"
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def _state_error(reason: str, seat: int | None = None) -> InvalidArgumentError:
    """A call the table cannot take now (a round in progress, too few seats, too early or too
    late), naming the seat it is about (``player``) where there is one."""
    e = InvalidArgumentError(reason)
    e.player = seat
    return e


F = TypeVar("F", bound=Callable[..., Any])


def _atomic(method: F) -> F:
    """A table operation that either happens whole or not at all: whatever it raises (a
    clock, a policy or a settlement that fails, a Ctrl-C), the table is left as it was. The
    table's state is its attributes (lists and dicts copied, the rest replaced, never changed
    in place); the history is only appended to, as the last step of ``settle`` that can
    fail."""

    @functools.wraps(method)
    def run(self: Table, *args: Any, **kwargs: Any) -> Any:
        saved = {
            k: (v.copy() if isinstance(v, list | dict) else v)
            for k, v in vars(self).items()
            if k != "history"
        }
        try:
            return method(self, *args, **kwargs)
        except BaseException:
            vars(self).update(saved)
            raise

    return run  # type: ignore[return-value]


def _check_bounds_total(bankrolls: Sequence[int], name: str) -> None:
    """Under a bankroll cap the money at a table is at most ``MAX_BANKROLL`` in all: payments
    only move it between seats, so no bankroll can pass the bound."""
    total = sum(bankrolls)
    if total > _core.MAX_BANKROLL:
        raise _args.arg_error(
            InvalidArgumentError,
            name,
            f"the bankrolls at a table capped by bankroll hold at most MAX_BANKROLL = "
            f"{_core.MAX_BANKROLL} in all, got {total}",
        )


def _upgrade_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """A version 2 save in version 3's terms: seats 0..players-1, every seat dealt in every
    round (a busted seat played on: ``on_bust="play"``), no deadline, nothing joined or left."""
    seats = list(range(_args.players("players", data["players"])))
    rounds = [
        {**r, "seats": list(range(len(r["hands"]))), "sat_out": [], "joined": [], "left": []}
        for r in data["rounds"]
    ]
    return {
        **data,
        "seats": seats,
        "next_seat": len(seats),
        "on_bust": "play",
        "deadline": None,
        "joined": [],
        "left": [],
        "dealt": seats if data["in_progress"] else None,
        "time_left": None,
        "rounds": rounds,
    }


class Table(Shown):
    """A table of ``players`` seats (numbered 0 to ``players - 1``) under ``rules``.

    ``bankrolls``: each seat's money (``None``: no bankrolls). Under a rule set that caps
    payments by bankroll (``bankroll_cap``) a bankroll is 0 or more and payments are capped in
    dealer order, so nobody goes below 0; a seat that reaches 0 is busted
    ([`busted`][chinese_poker.Table.busted]) until [`top_up()`][chinese_poker.Table.top_up] adds to
    its bankroll, and ``on_bust`` says what the table does with it
    ([`ON_BUST`][chinese_poker.table.ON_BUST]): ``"play"`` (the default) deals it in as before,
    where it can neither pay nor win anything (the cap limits both to its bankroll), ``"sit_out"``
    leaves it out of the deals ([`sitting_out`][chinese_poker.Table.sitting_out]), ``"stop"``
    refuses to deal until it is topped up or has left. Without the cap bankrolls are only kept: a
    seat may go into debt (a negative bankroll) and play on, and nobody is ever busted. Bankrolls
    stay within ``MAX_BANKROLL``: under the cap the money at a table is at most ``MAX_BANKROLL`` in
    all (the constructor, [`join()`][chinese_poker.Table.join] and
    [`top_up()`][chinese_poker.Table.top_up] refuse more), and payments only move it between seats;
    without the cap a debt or a fortune stops at ``-MAX_BANKROLL`` or ``MAX_BANKROLL``.

    Seats join ([`join()`][chinese_poker.Table.join]) and leave
    ([`leave()`][chinese_poker.Table.leave]) between rounds, keeping 2 to 4 (``MIN_PLAYERS`` to
    ``MAX_PLAYERS``) seats at the table; a seat keeps its number while it sits there and a number is
    never given twice, so the history stays attributable. Seats sit in the order of their numbers
    ([`seats`][chinese_poker.Table.seats]): [`bankrolls`][chinese_poker.Table.bankrolls] and
    [`policies`][chinese_poker.Table.policies] are in that order; the hands of a round, and its
    settlement, are in the order of the seats dealt in ([`dealt`][chinese_poker.Table.dealt]).

    ``dealer``: the first dealer's seat. The deal moves on to the next seat in seating order
    after each round; a dealer that leaves passes the deal to the next seat, and a deal skips a
    dealer that sits out for the next seat dealt in. ``seed``: the deals (round ``r`` is
    reproducible). ``policies``: how [`ask()`][chinese_poker.Table.ask] sets each seat (default
    [`TableEV`][chinese_poker.TableEV]). ``history``: keep only the last ``history`` settled
    rounds (``None``: all of them).

    A seat that has not acted when the round is settled has timed out: under the rule set's
    ``timeout="auto"`` the solver sets it (the table objective), under ``timeout="foul"`` it is
    settled as a fouled hand; the round's record lists it in ``timed_out``. Without a
    ``deadline``, [`settle()`][chinese_poker.Table.settle] times out whoever has not acted; with
    ``deadline=seconds`` the seats of a round have that long from
    [`deal()`][chinese_poker.Table.deal] on ``clock`` (a callable returning seconds, default
    ``time.monotonic``; [`time_left`][chinese_poker.Table.time_left]): until the deadline passes
    [`settle()`][chinese_poker.Table.settle] refuses to settle while a seat has not acted, and once
    it has passed no seat can act any more and [`settle()`][chinese_poker.Table.settle] times out
    the rest.

    A decision, from a person ([`act()`][chinese_poker.Table.act]) or a policy
    ([`ask()`][chinese_poker.Table.ask]), must set exactly the cards dealt to its seat (else
    ``InvalidDecisionError`` naming the seat); a Python policy is given a read-only copy of its
    hand. A call the table cannot take in its state (a join during a round, a settle before the
    deadline, ...) is an ``InvalidArgumentError`` saying why, naming the seat (``player``) where
    there is one. An operation that fails (a clock or a policy that raises, a refused decision,
    Ctrl-C) leaves the table as it was. [`to_json()`][chinese_poker.Table.to_json] saves the table
    at any point and [`from_json()`][chinese_poker.Table.from_json] resumes it, checking the whole
    save first (cards, zero-sum totals, the clock within the deadline).

    Args:
        players: Seats at the start, 2 to 4, numbered 0 to ``players - 1``.
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name or ``None`` for the default
            preset, ``maceplay``.
        bankrolls: Each seat's money, or ``None`` for no bankrolls.
        dealer: The first dealer's seat.
        seed: The deals' seed: round ``r`` of a table seeded ``s`` is reproducible.
        policies: How [`ask()`][chinese_poker.Table.ask] sets each seat, one per seat
            (``None`` in the list, or for the list: [`TableEV`][chinese_poker.TableEV]).
        history: Keep only the last ``history`` settled rounds (``None``: all of them).
        on_bust: What the table does with a busted seat under a bankroll cap: ``"play"``,
            ``"sit_out"`` or ``"stop"`` ([`ON_BUST`][chinese_poker.table.ON_BUST]).
        deadline: Seconds each round's seats have from [`deal()`][chinese_poker.Table.deal]
            (``None``: no deadline).
        clock: The deadline's clock, a callable returning seconds.

    Raises:
        InvalidShapeError: A seat count outside 2 to 4, or bankrolls or policies that do not
            fit it.
        InvalidArgumentError: A value out of range, naming it.
        InvalidTypeError: A value of the wrong type, naming it.
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
        *,
        on_bust: OnBust = "play",
        deadline: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        count = _args.players("players", players)
        self.rules = _rule_set(rules)
        self._seats = list(range(count))
        self._next_seat = count
        self.dealer = _args.seat("dealer", dealer, count)
        self.seed = _args.seed("seed", seed)
        self._bank = self._read_bankrolls(bankrolls, self._seats)
        pols, _ = _read_policies(policies, self.rules, count)
        self._policy: dict[int, object] = dict(enumerate(pols))
        self.on_bust: OnBust = _read_on_bust(on_bust)
        self.deadline = None if deadline is None else _args.seconds("deadline", deadline)
        self._clock = _read_clock(clock)
        self.round = 0
        self._keep = None if history is None else _args.rounds("history", history)
        self.history: deque[RoundRecord] = deque(maxlen=self._keep)
        # what changed at the table since the last settled round (recorded with the next one)
        self._joined: list[int] = []
        self._left: list[int] = []
        # the round in progress: the seats dealt in, their hands, decisions and deadline
        self._dealt: tuple[int, ...] | None = None
        self._hands: npt.NDArray[np.uint8] | None = None
        self._decisions: dict[int, Decision] = {}
        self._due: float | None = None

    def _read_bankrolls(self, bankrolls: object, seats: Sequence[int]) -> dict[int, int] | None:
        """``bankrolls`` of ``seats``, read by the core's reader (its bounds depend on the rule
        set's cap)."""
        if bankrolls is None:
            return None
        read = _core.read_bankrolls(bankrolls, self.rules.compiled, len(seats))
        if read is None:
            return None
        if self.rules.bankroll_cap:
            _check_bounds_total(read, "bankrolls")
        return dict(zip(seats, read, strict=True))

    # -- seats -----------------------------------------------------------------------------

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats at the table, in seating order (the order of their numbers)."""
        return tuple(self._seats)

    @property
    def players(self) -> int:
        """How many seats are at the table."""
        return len(self._seats)

    @property
    def policies(self) -> tuple[object, ...]:
        """Each seat's policy, in the order of [`seats`][chinese_poker.Table.seats]."""
        return tuple(self._policy[s] for s in self._seats)

    def _member(self, seat: object, name: str = "seat") -> int:
        """``seat`` as the number of a seat at the table, or an error naming ``name``."""
        s = _args.seat(name, seat, self._next_seat)
        if s not in self._seats:
            e = _args.arg_error(InvalidArgumentError, name, f"seat {s} has left the table")
            e.player = s
            raise e
        return s

    def _between_rounds(self, what: str, seat: int | None) -> None:
        if self._dealt is not None:
            who = "a seat" if seat is None else f"seat {seat}"
            raise _state_error(
                f"{what}: {who} cannot {what} during a dealt round: settle() it first "
                "(seats join and leave between rounds)",
                seat,
            )

    @_atomic
    def join(self, policy: PolicyLike | None = None, bankroll: int | None = None) -> int:
        """Seats a player between rounds: the next number never used at this table, sitting after
        the highest one. It is dealt in from the next round on.

        Args:
            policy: How [`ask()`][chinese_poker.Table.ask] sets it (default
                [`TableEV`][chinese_poker.TableEV]).
            bankroll: Its money, given exactly when the table keeps bankrolls.

        Returns:
            The new seat's number.

        Raises:
            InvalidArgumentError: A round is in progress, the table is full, or a bankroll is given
                to a table without bankrolls (or missing from one with them).
        """
        self._between_rounds("join", None)
        if len(self._seats) >= _core.MAX_PLAYERS:
            raise _state_error(
                f"join: the table is full: {len(self._seats)} seats, the most a table seats "
                f"(MAX_PLAYERS = {_core.MAX_PLAYERS})"
            )
        seat = self._next_seat
        chosen = TableEV() if policy is None else policy
        _spec(chosen, self.rules, len(self._seats) + 1, seat, "policy")
        money = self._joining_bankroll(bankroll)
        self._seats.append(seat)
        self._next_seat += 1
        self._policy[seat] = chosen
        if self._bank is not None and money is not None:
            self._bank[seat] = money
        self._joined.append(seat)
        return seat

    def _joining_bankroll(self, bankroll: object) -> int | None:
        if self._bank is None:
            if bankroll is not None:
                raise _args.arg_error(
                    InvalidArgumentError, "bankroll", "this table keeps no bankrolls"
                )
            return None
        if bankroll is None:
            raise _args.arg_error(
                InvalidArgumentError,
                "bankroll",
                "this table keeps bankrolls: give the joining seat one",
            )
        try:
            # the core's reader, as for every bankroll (its bounds depend on the rule set)
            read = _core.read_bankrolls(
                [*self._bank.values(), bankroll], self.rules.compiled, len(self._bank) + 1
            )
        except ChinesePokerError as e:
            raise _args.renamed(e, "bankroll") from None
        assert read is not None
        if self.rules.bankroll_cap:
            _check_bounds_total(read, "bankroll")
        return read[-1]

    @_atomic
    def leave(self, seat: int) -> int | None:
        """Takes a seat away between rounds; its number is not given again. The table keeps at least
        ``MIN_PLAYERS`` seats; a dealer that leaves passes the deal to the next seat in seating
        order.

        Args:
            seat: The seat's number.

        Returns:
            Its bankroll (``None`` if the table keeps none).

        Raises:
            InvalidArgumentError: A round is in progress, no such seat, or too few seats would
                remain.
        """
        s = self._member(seat)
        self._between_rounds("leave", s)
        if len(self._seats) <= _core.MIN_PLAYERS:
            raise _state_error(
                f"leave: seat {s} cannot leave: a table keeps at least {_core.MIN_PLAYERS} seats "
                f"(MIN_PLAYERS); let a seat join first",
                s,
            )
        if self.dealer == s:
            self.dealer = self._next_after(s)
        self._seats.remove(s)
        del self._policy[s]
        money = None if self._bank is None else self._bank.pop(s)
        self._left.append(s)
        return money

    def _next_after(self, seat: int) -> int:
        """The seat after ``seat`` in seating order (after the highest number, the lowest)."""
        later = [s for s in self._seats if s > seat]
        return later[0] if later else self._seats[0]

    # -- bankrolls -------------------------------------------------------------------------

    @property
    def bankrolls(self) -> tuple[int, ...] | None:
        """Each seat's bankroll, in the order of [`seats`][chinese_poker.Table.seats] (``None``: no
        bankrolls)."""
        if self._bank is None:
            return None
        return tuple(self._bank[s] for s in self._seats)

    @property
    def busted(self) -> tuple[int, ...]:
        """The seats that can no longer pay or win: bankroll 0 under a bankroll cap."""
        if self._bank is None or not self.rules.bankroll_cap:
            return ()
        return tuple(s for s in self._seats if self._bank[s] <= 0)

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """The seats at the table not dealt in: during a round, those its deal left out;
        between rounds, those the next deal leaves out (busted, under ``on_bust="sit_out"``)."""
        if self._dealt is not None:
            return tuple(s for s in self._seats if s not in self._dealt)
        return self.busted if self.on_bust == "sit_out" else ()

    @_atomic
    def top_up(self, seat: int, amount: int) -> None:
        """Adds money to a seat's bankroll, between rounds or during one (a seat sitting a round out
        is dealt in again from the next round on).

        Args:
            seat: The seat's number.
            amount: How much, 0 or more.

        Raises:
            InvalidArgumentError: No such seat, a table without bankrolls, or an amount out of
                range.
        """
        if self._bank is None:
            raise InvalidArgumentError("top_up: this table keeps no bankrolls")
        s = self._member(seat)
        add = _args.whole("amount", amount, 0, _core.MAX_BANKROLL)
        new = {**self._bank, s: self._bank[s] + add}
        try:
            self._bank = self._read_bankrolls([new[x] for x in self._seats], self._seats)
        except ChinesePokerError as e:
            raise _args.renamed(e, "amount") from None

    # -- a round ---------------------------------------------------------------------------

    @property
    def dealt(self) -> tuple[int, ...] | None:
        """The seats dealt into the round in progress, in seating order (``None`` between
        rounds): [`hands`][chinese_poker.Table.hands] and the settlement's players are in this
        order."""
        return self._dealt

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...] | None:
        """The current round's hands, in the order of [`dealt`][chinese_poker.Table.dealt] (``None``
        between rounds)."""
        if self._hands is None:
            return None
        return tuple(tuple(Card(int(c)) for c in h) for h in self._hands)

    @_atomic
    def deal(self) -> tuple[tuple[Card, ...], ...]:
        """Deals the next round to the seats not sitting out and returns their hands, in the
        order of [`dealt`][chinese_poker.Table.dealt]; the deadline, if any, starts now."""
        if self._dealt is not None:
            raise _state_error("deal: the current round has not been settled yet")
        dealt = self._dealing()
        # a dealer sitting out passes the deal on to the next seat dealt in
        i = self._seats.index(self.dealer)
        self.dealer = next(s for s in self._seats[i:] + self._seats[:i] if s in dealt)
        self._start(dealt)
        if self.deadline is not None:
            self._due = self._now() + self.deadline
        hands = self.hands
        assert hands is not None
        return hands

    def _dealing(self) -> tuple[int, ...]:
        """The seats the next deal deals in, or the error saying why there is no deal."""
        busted = self.busted
        if busted and self.on_bust == "stop":
            raise _state_error(
                f"deal: busted (bankroll 0): {_named(busted)}, and this table stops on a bust "
                '(on_bust="stop"): top up or let leave every busted seat',
                busted[0],
            )
        out = self.sitting_out
        dealt = tuple(s for s in self._seats if s not in out)
        if len(dealt) < _core.MIN_PLAYERS:
            raise _state_error(
                f"deal: a round needs at least {_core.MIN_PLAYERS} players (MIN_PLAYERS) and only "
                f"{_named(dealt)} can be dealt in (sitting out, busted, under "
                f'on_bust="sit_out": {_named(out)}): top up a seat or let one join',
                out[0] if out else None,
            )
        return dealt

    def _start(self, dealt: tuple[int, ...]) -> None:
        self._dealt = dealt
        self._hands = _core.deal(1, len(dealt), self.seed, self.round)[0]
        self._decisions = {}

    def _now(self) -> float:
        return _args.number("clock", self._clock())

    def _late(self) -> bool:
        return self._due is not None and self._now() >= self._due

    @property
    def time_left(self) -> float | None:
        """Seconds left before the round's deadline (0 once it has passed); ``None`` between
        rounds or without a deadline."""
        if self._due is None:
            return None
        return max(0.0, self._due - self._now())

    def _open_seat(self, seat: object) -> int:
        """``seat`` as a seat dealt into the round in progress that may still act."""
        if self._dealt is None:
            raise _state_error("no round in progress: call deal() first")
        s = self._member(seat)
        if s not in self._dealt:
            raise _state_error(f"seat {s} sits this round out: it was not dealt in", s)
        if self._late():
            raise self._too_late(s)
        return s

    def _too_late(self, seat: int) -> InvalidArgumentError:
        return _state_error(
            f"seat {seat}: too late, the round's deadline has passed: settle() times out the "
            "seats that have not acted",
            seat,
        )

    def _hand(self, seat: int) -> npt.NDArray[np.uint8]:
        assert self._hands is not None and self._dealt is not None
        hand: npt.NDArray[np.uint8] = self._hands[self._dealt.index(seat)]
        return hand

    def _checked(self, seat: int, decision: object) -> Decision:
        """``decision`` for ``seat``, refused unless it sets exactly the cards dealt there."""
        d = _as_decision(seat, decision)
        _core.decision_codes(d, seat, self._hand(seat))
        return d

    @_atomic
    def act(self, seat: int, decision: DecisionLike) -> None:
        """Records a seat's decision; acting again replaces it.

        Args:
            seat: The seat's number, one dealt in this round.
            decision: A [`Setting`][chinese_poker.Setting] (or its three rows), a
                [`Declare`][chinese_poker.Declare] or a [`Surrender`][chinese_poker.Surrender] of
                the seat's own 13 cards.

        Raises:
            InvalidDecisionError: The decision does not set exactly the cards dealt to the seat.
            InvalidArgumentError: No round in progress, a seat not dealt in, or the deadline has
                passed.
        """
        s = self._open_seat(seat)
        self._decisions[s] = self._checked(s, decision)

    def _policy_decision(self, seat: int, policy: object) -> Decision:
        assert self._dealt is not None
        players, at = len(self._dealt), self._dealt.index(seat)
        spec = _spec(policy, self.rules, players, seat)
        if spec is None:
            mine = self._hand(seat).copy()
            mine.flags.writeable = False  # the policy reads its hand; it cannot rewrite it
            return self._checked(seat, policy(mine))  # type: ignore[operator]
        codes, choice, natural, _ = _core.decide_seat(
            self.rules.compiled, players, spec, self.seed, self.round, 1, at
        )
        return _core.decision_of_codes(codes[0].tolist(), int(choice[0]), int(natural[0]))

    def _answer(self, seat: int) -> Decision | None:
        """The seat's policy's decision, recorded; ``None`` if it came after the deadline."""
        d = self._policy_decision(seat, self._policy[seat])
        if self._late():
            return None
        self._decisions[seat] = d
        return d

    @_atomic
    def ask(self, seat: int) -> Decision:
        """Sets a seat with its policy, records the decision and returns it.

        Args:
            seat: The seat's number, one dealt in this round.

        Returns:
            The decision recorded.

        Raises:
            InvalidDecisionError: A Python policy's answer does not set the seat's cards.
            InvalidArgumentError: No round in progress, a seat not dealt in, or the deadline has
                passed.
        """
        s = self._open_seat(seat)
        d = self._answer(s)
        if d is None:  # the policy took past the deadline
            raise self._too_late(s)
        return d

    def _timeout_decision(self, seat: int) -> Decision:
        """The rule set's ``timeout`` for a seat that did not act."""
        if self.rules.timeout == "auto":
            return self._policy_decision(seat, TableEV())
        return _core.fouled_setting(self._hand(seat), self.rules.wheel)

    def _decision_or_timeout(self, seat: int) -> Decision:
        d = self._decisions.get(seat)
        return self._timeout_decision(seat) if d is None else d

    @_atomic
    def settle(self) -> Settlement:
        """Settles the round: seats that did not act time out under the rule set's ``timeout``
        (under a deadline, only once it has passed); payments are capped by bankroll in dealer
        order where the rule set says so; bankrolls are updated, the round is recorded and the
        deal moves one seat on. The settlement's players are the seats of
        [`dealt`][chinese_poker.Table.dealt], in that order (the round's record,
        ``history[-1].seats``)."""
        if self._dealt is None:
            raise _state_error("settle: no round in progress: call deal() first")
        dealt = self._dealt
        missing = [s for s in dealt if s not in self._decisions]
        if missing and self._due is not None and not self._late():
            raise _state_error(
                f"settle: still to act: {_named(missing)}, and the deadline has not passed "
                f"({self.time_left:.3g} s left)",
                missing[0],
            )
        decisions = [self._decision_or_timeout(s) for s in dealt]
        owned = None if self._bank is None else [self._bank[s] for s in dealt]
        result = self._settled(decisions, owned)
        after = self._pay(result, owned)
        self.history.append(
            RoundRecord(
                round=self.round,
                dealer=self.dealer,
                hands=tuple(tuple(int(c) for c in self._hand(s)) for s in dealt),
                decisions=tuple(_describe(d) for d in decisions),
                timed_out=tuple(missing),
                totals=tuple(result.totals),
                bankrolls_after=after,
                settlement=result,
                seats=dealt,
                sat_out=self.sitting_out,
                joined=tuple(self._joined),
                left=tuple(self._left),
            )
        )
        self.round += 1
        self.dealer = self._next_after(self.dealer)
        self._joined, self._left = [], []
        self._dealt, self._hands, self._decisions, self._due = None, None, {}, None
        return result

    def _settled(self, decisions: list[Decision], owned: list[int] | None) -> Settlement:
        """The core's settlement of the dealt seats; a decision it refuses is named by seat."""
        assert self._dealt is not None
        try:
            return settle(decisions, self.rules, owned, self._dealt.index(self.dealer))
        except InvalidDecisionError as e:
            at = e.player
            if at is None or self._dealt[at] == at:
                raise
            renamed = InvalidDecisionError(f"seat {self._dealt[at]} (this round's {e})")
            renamed.player, renamed.row = self._dealt[at], e.row
            raise renamed from None

    def _pay(self, result: Settlement, owned: list[int] | None) -> tuple[int, ...] | None:
        """Updates the dealt seats' bankrolls and returns them (``None`` without bankrolls)."""
        if self._bank is None or owned is None or self._dealt is None:
            return None
        capped = result.bankrolls_after
        bound = _core.MAX_BANKROLL
        # under the cap the money at the table is at most the bound in all (see
        # _check_bounds_total); without it a debt or a fortune stops at the bound
        moved = (
            capped
            if capped is not None
            else [b + t for b, t in zip(owned, result.totals, strict=True)]
        )
        after = tuple(max(-bound, min(bound, b)) for b in moved)
        self._bank.update(zip(self._dealt, after, strict=True))
        return after

    @_atomic
    def play_round(self) -> Settlement:
        """Deals, asks every dealt seat's policy and settles: one whole round. Under a
        deadline, the seats not set by the time it passes time out."""
        self.deal()
        assert self._dealt is not None
        for s in self._dealt:
            if self._late() or self._answer(s) is None:
                break
        return self.settle()

    # -- saving and resuming ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything the table needs to go on, as data (what
        [`to_json()`][chinese_poker.Table.to_json] writes)."""
        return {
            "format": TABLE_FORMAT,
            "version": TABLE_VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "round": self.round,
            "seats": list(self._seats),
            "next_seat": self._next_seat,
            "dealer": self.dealer,
            "bankrolls": None if (owned := self.bankrolls) is None else list(owned),
            "policies": [_policy_data(p) for p in self.policies],
            "on_bust": self.on_bust,
            "deadline": self.deadline,
            "history_limit": self._keep,
            "joined": list(self._joined),
            "left": list(self._left),
            # the round in progress: its hands are the seed's, so only who was dealt in, the
            # decisions so far and the time left (the clock itself is the process's)
            "dealt": None if self._dealt is None else list(self._dealt),
            "time_left": self.time_left,
            "pending": {str(s): _decision_data(s, d) for s, d in sorted(self._decisions.items())},
            "rounds": [r.to_dict() for r in self.history],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """The table as versioned JSON: rules, seats (with their numbers), policies (built-in ones
        in full), dealer, bankrolls, bust rule, deadline, round counter, seed, the seats that joined
        or left since the last round, the round in progress (who was dealt in, their decisions, the
        time left), and the history (the last ``history`` rounds where bounded).
        [`from_json()`][chinese_poker.Table.from_json] resumes it. Ctrl-C stops it within a
        round's text.

        Args:
            indent: JSON indentation (``None``: one line).

        Returns:
            The JSON text.
        """
        data = self.to_dict()
        if indent is not None:
            # json's indenting encoder is Python code: Python sees Ctrl-C as it runs
            return json.dumps(data, indent=indent, ensure_ascii=False)
        # the compact encoder is C, one call for the whole history: a round at a time instead
        # (the same text), so that Python sees Ctrl-C between rounds
        rounds = data.pop("rounds")
        head = json.dumps({**data, "rounds": []}, ensure_ascii=False)
        assert head.endswith("[]}")  # "rounds" is the last key
        parts = [head[:-2]]
        for i, r in enumerate(rounds):
            parts.append((", " if i else "") + json.dumps(r, ensure_ascii=False))
        parts.append("]}")
        return "".join(parts)

    @classmethod
    def from_json(
        cls,
        text: str | bytes,
        *,
        policies: Sequence[PolicyLike | None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Table:
        """Resumes a table saved by [`to_json()`][chinese_poker.Table.to_json] (this version or
        version 2): it plays the same rounds as the table that was saved would have.

        Args:
            text: The saved JSON.
            policies: Replacements, one per seat in seating order (``None`` keeps the saved one); a
                seat whose saved policy was a Python callable must be given one here.
            clock: The deadline's clock, which restarts with the time that was left when the table
                was saved.

        Returns:
            The table, as it was saved.

        Raises:
            InvalidTypeError: ``text`` that is not JSON text.
            InvalidShapeError: Text that is not a saved table (not JSON, another format, an
                unknown version, missing or malformed content), saying what is wrong.
        """
        if not isinstance(text, str | bytes | bytearray):
            raise _args.arg_error(
                InvalidTypeError, "text", f"expected JSON text, got {type(text).__name__}"
            )
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise InvalidShapeError(f"saved table: not JSON ({e})") from None
        return cls.from_dict(data, policies=policies, clock=clock)

    @classmethod
    def from_dict(
        cls,
        data: object,
        *,
        policies: Sequence[PolicyLike | None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Table:
        """[`from_json()`][chinese_poker.Table.from_json] for data already parsed.

        Args:
            data: The saved table, as [`to_dict()`][chinese_poker.Table.to_dict] gives it.
            policies: Replacements, one per seat in seating order (``None`` keeps the saved one).
            clock: The deadline's clock.

        Returns:
            The table, as it was saved.

        Raises:
            InvalidShapeError: Data that is not a saved table, saying what is wrong.
        """
        if not isinstance(data, Mapping) or data.get("format") != TABLE_FORMAT:
            raise _saved_error("format", f"expected a {TABLE_FORMAT!r} object")
        version = data.get("version")
        if version not in _READ_VERSIONS:
            expected = " or ".join(str(v) for v in _READ_VERSIONS)
            raise _saved_error("version", f"expected {expected}, got {version!r}")
        try:
            return cls._restore(
                data if version == TABLE_VERSION else _upgrade_v2(data), policies, clock
            )
        except ChinesePokerError:
            raise  # names what is wrong already
        except Exception as e:
            # a damaged file (a missing field, a wrong type, a number out of any range, a
            # nesting too deep): one clear error, never a raw one
            raise _saved_error("content", f"missing or malformed {type(e).__name__}: {e}") from None

    @classmethod
    def _restore(
        cls,
        data: Mapping[str, Any],
        given: Sequence[PolicyLike | None] | None,
        clock: Callable[[], float],
    ) -> Table:
        seats = cls._saved_seats(data["seats"], data["next_seat"])
        table = cls(
            players=len(seats),
            rules=RuleSet.from_dict(data["rules"]),
            bankrolls=data["bankrolls"],
            seed=data["seed"],
            policies=cls._saved_policies(data["policies"], seats, given),  # type: ignore[arg-type]
            history=data["history_limit"],
            on_bust=data["on_bust"],
            deadline=data["deadline"],
            clock=clock,
        )
        table._reseat(seats, _args.seed("next_seat", data["next_seat"]))
        table.dealer = table._member(data["dealer"], "dealer")
        table.round = _args.seed("round", data["round"])
        table._joined = list(_ints(data["joined"]))
        table._left = list(_ints(data["left"]))
        table.history.extend(RoundRecord._from_dict(r, i) for i, r in enumerate(data["rounds"]))
        if data["dealt"] is not None:
            table._resume_round(data)
        return table

    @staticmethod
    def _saved_seats(saved: Any, next_seat: Any) -> list[int]:
        seats = [_args.seed(f"seats[{i}]", s) for i, s in enumerate(saved)]
        in_order = seats == sorted(set(seats))
        if not _core.MIN_PLAYERS <= len(seats) <= _core.MAX_PLAYERS or not in_order:
            raise _saved_error(
                "seats",
                f"expected {_core.MIN_PLAYERS} to {_core.MAX_PLAYERS} seat numbers in increasing "
                f"order, got {seats}",
            )
        if int(next_seat) <= seats[-1]:
            raise _saved_error("next_seat", f"expected more than {seats[-1]}, got {next_seat!r}")
        return seats

    @staticmethod
    def _saved_policies(
        saved: Any, seats: list[int], given: Sequence[PolicyLike | None] | None
    ) -> list[object]:
        if not isinstance(saved, list) or len(saved) != len(seats):
            raise _saved_error("policies", f"expected {len(seats)}, one per seat")
        if given is not None and (
            isinstance(given, str | bytes)
            or not isinstance(given, Sequence)
            or len(given) != len(seats)
        ):
            raise _args.arg_error(
                InvalidArgumentError,
                "policies",
                f"expected {len(seats)} policies or None (one per seat, in seating order)",
            )
        pols: list[object] = []
        for i, (s, p) in enumerate(zip(seats, saved, strict=True)):
            chosen = given[i] if given is not None else None
            pol = chosen if chosen is not None else _policy_of_data(p, i)
            if pol is None:
                raise _args.arg_error(
                    InvalidArgumentError,
                    f"policies[{i}]",
                    f"seat {s} was played by the Python callable {p.get('name')!r}, which a "
                    "saved table cannot hold: give it again",
                )
            pols.append(pol)
        return pols

    def _reseat(self, seats: list[int], next_seat: int) -> None:
        """Gives the seats of a new table (0..n-1) the saved numbers ``seats``."""
        if self._bank is not None:
            self._bank = dict(zip(seats, self._bank.values(), strict=True))
        self._policy = dict(zip(seats, self._policy.values(), strict=True))
        self._seats, self._next_seat = list(seats), next_seat

    def _resume_round(self, data: Mapping[str, Any]) -> None:
        dealt = tuple(self._member(s, f"dealt[{i}]") for i, s in enumerate(data["dealt"]))
        if list(dealt) != sorted(set(dealt)) or len(dealt) < _core.MIN_PLAYERS:
            raise _saved_error("dealt", f"expected seats in seating order, got {list(dealt)}")
        if self.dealer not in dealt:
            raise _saved_error("dealer", f"seat {self.dealer} was not dealt in")
        self._start(dealt)
        if self.deadline is not None:
            left = _args.number("time_left", data["time_left"])
            if not 0 <= left <= self.deadline:
                raise _saved_error(
                    "time_left", f"expected 0 to the deadline's {self.deadline:g} s, got {left:g}"
                )
            self._due = self._now() + left
        for s, d in data["pending"].items():
            # decisions taken before the deadline stand, even if it has passed since
            seat = self._member(int(s), "pending")
            if seat not in dealt:
                raise _saved_error("pending", f"seat {seat} was not dealt in")
            self._decisions[seat] = self._checked(seat, _decision_of_data(d))

    # -- history ---------------------------------------------------------------------------

    def to_arrow(self) -> Any:
        """The history as a ``pyarrow.Table``: one row per round and seat it names, dealt in
        or not (``status``: ``"dealt"``, ``"sat_out"``, or ``"left"`` before the round;
        ``joined``: since the round before; ``timed_out``)."""
        pa = _optional.require("pyarrow", "Table.to_arrow()")
        return pa.Table.from_pylist([row for r in self.history for row in r._rows()])
