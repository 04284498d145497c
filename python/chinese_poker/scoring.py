"""Settling a round: decisions of 2–4 players in, an exact, explainable :class:`Settlement` out.

    >>> import chinese_poker as cp
    >>> result = cp.settle(
    ...     [("Qs Qh Qd", "5s 5h 5d Ks Kh", "9s 9h 9d 9c 2s"),
    ...      ("Ac Kc 7d", "Jc Jd 8s 6c 4d", "Ah Th 6h 3h 2h")],
    ...     "maceplay",
    ... )
    >>> result.totals
    (18, -18)

A decision is a :class:`Setting` (or a plain ``(front, middle, back)`` tuple, each row a card
string or a sequence of cards), a :class:`Declare` of a natural with the 13 cards laid out, or
:class:`Surrender`. Players are seats 0..n-1 in the order given; every amount in a
:class:`Matchup` is from seat ``a``'s side. The arithmetic runs in the Rust core; nothing is
returned unless every decision is valid.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from . import _core
from ._core import Card, CardSet, HandRank
from ._enums import Wheel
from .exceptions import InvalidCardError, InvalidDecisionError, InvalidShapeError
from .rules import NATURALS, NaturalName, RowName, RuleSet

__all__ = [
    "DecisionLike",
    "Declare",
    "Matchup",
    "MatchupKind",
    "NaturalMatch",
    "Payment",
    "PlayerResult",
    "RowResult",
    "Setting",
    "Settlement",
    "Status",
    "Surrender",
    "find_naturals",
    "settle",
]

RowLike: TypeAlias = str | Iterable[Card | str | int] | CardSet
Status = Literal["played", "fouled", "natural", "surrendered"]
MatchupKind = Literal["rows", "foul", "both fouled", "natural", "surrender"]
_ROWS: tuple[RowName, RowName, RowName] = ("front", "middle", "back")
_SIZES = (3, 5, 5)


def _row_cards(cards: RowLike) -> tuple[Card, ...]:
    # Keeps the order the cards were given in (a CardSet would sort them).
    if isinstance(cards, str):
        return tuple(_core.parse_cards(cards))
    if isinstance(cards, CardSet):
        return tuple(cards.cards())
    out: list[Card] = []
    for position, c in enumerate(cards, 1):
        if isinstance(c, Card):
            out.append(c)
        elif isinstance(c, str):
            out.append(Card.parse(c))
        elif isinstance(c, int) and not isinstance(c, bool):
            if not 0 <= c < 52:
                raise InvalidCardError(
                    f"invalid card '{c}' at position {position}: card codes are 0..=51"
                )
            out.append(Card(c))
        else:
            raise TypeError(
                f"card at position {position}: expected Card, str or int, got {type(c).__name__}"
            )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Setting:
    """13 cards set as front (3), middle (5) and back (5). Rows are checked for size and the
    13 cards for duplicates on construction (errors name the row); fouls are allowed here and
    judged by the rule set when settling. Each row may be a card string or a sequence of cards.
    """

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

    def __init__(self, front: RowLike, middle: RowLike, back: RowLike) -> None:
        rows: list[tuple[Card, ...]] = []
        for name, size, cards in zip(_ROWS, _SIZES, (front, middle, back), strict=True):
            try:
                parsed = _row_cards(cards)
            except (ValueError, TypeError) as e:
                raise type(e)(f"{name} row: {e}") from None
            if len(parsed) != size:
                raise InvalidShapeError(
                    f"{name} row: expected {size} cards, "
                    f"got {len(parsed)} card{'s' * (len(parsed) != 1)}"
                )
            rows.append(parsed)
        # Duplicates across rows (the core names the two positions among the 13 cards).
        CardSet([c for r in rows for c in r])
        object.__setattr__(self, "front", rows[0])
        object.__setattr__(self, "middle", rows[1])
        object.__setattr__(self, "back", rows[2])

    @classmethod
    def parse(cls, text: str) -> Setting:
        """``"Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s"`` (front / middle / back)."""
        parts = text.split("/")
        if len(parts) != 3:
            raise InvalidShapeError(
                f"setting: expected 'front / middle / back', got {len(parts)} part(s)"
            )
        return cls(parts[0], parts[1], parts[2])

    def __reduce__(self) -> tuple[type[Setting], tuple[str, str, str]]:
        return (
            type(self),
            (self._text(self.front), self._text(self.middle), self._text(self.back)),
        )

    @staticmethod
    def _text(cards: tuple[Card, ...]) -> str:
        return " ".join(str(c) for c in cards)

    def rows(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        return (self.front, self.middle, self.back)

    @property
    def cards(self) -> CardSet:
        """All 13 cards."""
        return CardSet([*self.front, *self.middle, *self.back])

    def ranks(self, wheel: Wheel = "low") -> tuple[HandRank, HandRank, HandRank]:
        """Front, middle and back ranks."""
        return (
            _core.evaluate(self.front, wheel),
            _core.evaluate(self.middle, wheel),
            _core.evaluate(self.back, wheel),
        )

    def is_foul(self, wheel: Wheel = "low") -> bool:
        """Breaks back ≥ middle ≥ front."""
        f, m, b = self.ranks(wheel)
        return f > m or m > b

    def __str__(self) -> str:
        return " / ".join(self._text(r) for r in self.rows())

    def __repr__(self) -> str:
        return f"Setting.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare a natural instead of playing rows. ``setting`` lays out the 13 cards (where the
    rule set requires it, the rows must display the natural)."""

    natural: NaturalName
    setting: Setting

    def __post_init__(self) -> None:
        if self.natural not in NATURALS:
            raise InvalidDecisionError(
                f"unknown natural {self.natural!r}; expected one of {', '.join(NATURALS)}"
            )
        if not isinstance(self.setting, Setting):
            if isinstance(self.setting, tuple | list) and len(self.setting) == 3:
                object.__setattr__(self, "setting", Setting(*self.setting))
            else:
                raise InvalidShapeError(
                    f"Declare: expected a Setting or (front, middle, back), got {self.setting!r}"
                )


@dataclass(frozen=True, slots=True)
class Surrender:
    """Give up before the showdown and pay each opponent the rule set's surrender cost."""


DecisionLike: TypeAlias = Setting | Declare | Surrender | Sequence[RowLike]


def _to_core(player: int, d: object) -> tuple[Any, ...]:
    if isinstance(d, Setting):
        return ("play", *d.rows())
    if isinstance(d, Declare):
        return ("declare", d.natural, *d.setting.rows())
    if isinstance(d, Surrender):
        return ("surrender",)
    if isinstance(d, tuple | list):
        if len(d) != 3:
            raise InvalidShapeError(
                f"player {player}: expected 3 rows (front, middle, back), got {len(d)} rows"
            )
        return ("play", *d)
    raise TypeError(
        f"player {player}: expected a Setting, Declare, Surrender or (front, middle, back), "
        f"got {type(d).__name__}"
    )


def _compiled(rules: RuleSet | str) -> _core.Rules:
    if isinstance(rules, str):
        return RuleSet.preset(rules).compiled
    if isinstance(rules, RuleSet):
        return rules.compiled
    raise TypeError(f"rules: expected a RuleSet or a preset name, got {type(rules).__name__}")


@dataclass(frozen=True, slots=True)
class RowResult:
    """One row of a matchup: who won it and for how many units (after doubling)."""

    row: RowName
    winner: int | None
    value: int
    bonus: bool
    doubled: bool
    suit_break: bool


@dataclass(frozen=True, slots=True)
class Matchup:
    """The settlement between seats ``a < b``; every amount is for ``a`` (``b`` gets the
    negative). ``base`` is the row difference plus majority/overall points (or the foul
    penalty, natural value or surrender cost), ``after_scoop`` applies the scoop, ``points``
    the sweep multiplier."""

    a: int
    b: int
    kind: MatchupKind
    rows: tuple[RowResult, RowResult, RowResult]
    row_totals: tuple[int, int]
    majority: int
    overall: int
    base: int
    scoop: int | None
    after_scoop: int
    sweep_multiplier: int
    points: int

    def points_for(self, seat: int) -> int:
        """The matchup's points from ``seat``'s side."""
        if seat == self.a:
            return self.points
        if seat == self.b:
            return -self.points
        raise ValueError(f"seat {seat} is not in the matchup {self.a} v {self.b}")


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's part: the setting as given (``None`` for a surrender), what the decision
    became, and what the player wins (negative: pays). ``raw_total`` is before the bankroll
    cap, ``total`` after."""

    seat: int
    status: Status
    setting: Setting | None
    ranks: tuple[HandRank, HandRank, HandRank] | None
    natural: NaturalName | None
    natural_value: int | None
    auto_declared: bool
    foul_reason: str | None
    sweep: bool
    raw_total: int
    total: int


@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer, in dealer order: ``paid`` is less than ``owed`` only under the cap."""

    matchup: int
    payer: int
    payee: int
    owed: int
    paid: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of :func:`settle`: every matchup, the payments in order and the totals.

    Totals always sum to zero. ``explain()`` prints every number with the rule behind it.
    """

    dealer: int
    players: tuple[PlayerResult, ...]
    matchups: tuple[Matchup, ...]
    payments: tuple[Payment, ...]
    capped: bool
    bankrolls_after: tuple[int, ...] | None
    explanation: str = field(repr=False, compare=False)

    @property
    def totals(self) -> tuple[int, ...]:
        """What each seat wins (negative: pays), after any bankroll cap."""
        return tuple(p.total for p in self.players)

    @property
    def raw_totals(self) -> tuple[int, ...]:
        """Totals before the bankroll cap."""
        return tuple(p.raw_total for p in self.players)

    @property
    def sweeps(self) -> tuple[int, ...]:
        """Seats that scooped every opponent at a table large enough for a sweep."""
        return tuple(p.seat for p in self.players if p.sweep)

    def matchup(self, x: int, y: int) -> Matchup:
        """The matchup between two seats, in either order."""
        a, b = min(x, y), max(x, y)
        for m in self.matchups:
            if (m.a, m.b) == (a, b):
                return m
        raise ValueError(f"no matchup between seats {x} and {y}")

    def points(self, x: int, y: int) -> int:
        """What seat ``x`` wins from seat ``y`` (before any bankroll cap)."""
        return self.matchup(x, y).points_for(x)

    def explain(self) -> str:
        """A readable account of every number: hands, each matchup row by row with the rule
        applied (bonus, doubling, scoop, sweep, foul, natural, surrender), payments, totals."""
        return self.explanation

    def __str__(self) -> str:
        return self.explanation

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON types only); hand ranks as their ``raw`` integers."""
        return {
            "dealer": self.dealer,
            "totals": list(self.totals),
            "players": [
                {
                    "seat": p.seat,
                    "status": p.status,
                    "setting": None if p.setting is None else str(p.setting),
                    "ranks": None if p.ranks is None else [r.raw for r in p.ranks],
                    "natural": p.natural,
                    "natural_value": p.natural_value,
                    "auto_declared": p.auto_declared,
                    "foul_reason": p.foul_reason,
                    "sweep": p.sweep,
                    "raw_total": p.raw_total,
                    "total": p.total,
                }
                for p in self.players
            ],
            "matchups": [
                {
                    "a": m.a,
                    "b": m.b,
                    "kind": m.kind,
                    "rows": [
                        {
                            "row": r.row,
                            "winner": r.winner,
                            "value": r.value,
                            "bonus": r.bonus,
                            "doubled": r.doubled,
                            "suit_break": r.suit_break,
                        }
                        for r in m.rows
                    ],
                    "row_totals": list(m.row_totals),
                    "majority": m.majority,
                    "overall": m.overall,
                    "base": m.base,
                    "scoop": m.scoop,
                    "after_scoop": m.after_scoop,
                    "sweep_multiplier": m.sweep_multiplier,
                    "points": m.points,
                }
                for m in self.matchups
            ],
            "payments": [
                {
                    "matchup": p.matchup,
                    "payer": p.payer,
                    "payee": p.payee,
                    "owed": p.owed,
                    "paid": p.paid,
                }
                for p in self.payments
            ],
            "capped": self.capped,
            "bankrolls_after": None if self.bankrolls_after is None else list(self.bankrolls_after),
        }


def _settlement(data: dict[str, Any]) -> Settlement:
    players = tuple(
        PlayerResult(
            seat=i,
            status=p["status"],
            setting=None if p["setting"] is None else Setting(*p["setting"]),
            ranks=p["ranks"],
            natural=None if p["natural"] is None else p["natural"][0],
            natural_value=None if p["natural"] is None else p["natural"][1],
            auto_declared=p["auto_declared"],
            foul_reason=p["foul_reason"],
            sweep=p["sweep"],
            raw_total=p["raw_total"],
            total=p["total"],
        )
        for i, p in enumerate(data["players"])
    )
    matchups = tuple(
        Matchup(
            a=m["a"],
            b=m["b"],
            kind=m["kind"],
            rows=(
                RowResult(_ROWS[0], *m["rows"][0]),
                RowResult(_ROWS[1], *m["rows"][1]),
                RowResult(_ROWS[2], *m["rows"][2]),
            ),
            row_totals=m["row_totals"],
            majority=m["majority"],
            overall=m["overall"],
            base=m["base"],
            scoop=m["scoop"],
            after_scoop=m["after_scoop"],
            sweep_multiplier=m["sweep_multiplier"],
            points=m["points"],
        )
        for m in data["matchups"]
    )
    after = data["bankrolls_after"]
    return Settlement(
        dealer=data["dealer"],
        players=players,
        matchups=matchups,
        payments=tuple(Payment(*p) for p in data["payments"]),
        capped=data["capped"],
        bankrolls_after=None if after is None else tuple(after),
        explanation=data["explain"],
    )


def settle(
    decisions: Sequence[DecisionLike],
    rules: RuleSet | str,
    bankrolls: Sequence[int] | None = None,
    dealer: int = 0,
) -> Settlement:
    """Settles one round exactly under ``rules`` (a :class:`RuleSet` or a preset name).

    ``decisions[i]`` is seat i's decision. ``bankrolls`` (one per seat) matter only where the
    rule set caps payments; payments go in seat order starting right of ``dealer``.

    Raises (nothing is returned unless everything is valid): ``InvalidShapeError`` (fewer than
    2 or more than 4 players, a row of the wrong size, a bad dealer seat or bankroll list),
    ``InvalidCardError`` / ``DuplicateCardError`` (a bad card, or one card held twice, naming
    the players or row), ``InvalidDecisionError`` (a fouled setting or false natural under a
    rule set that rejects fouls, a surrender the rule set does not allow, a negative bankroll).
    """
    compiled = _compiled(rules)
    if isinstance(decisions, str | bytes) or not isinstance(decisions, Sequence):
        raise TypeError("decisions: expected a sequence of 2 to 4 player decisions")
    items = [_to_core(i, d) for i, d in enumerate(decisions)]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or dealer < 0:
        raise InvalidShapeError(f"dealer: expected a seat number, got {dealer!r}")
    banks = None if bankrolls is None else [int(b) for b in bankrolls]
    return _settlement(_core.settle(items, compiled, banks, dealer))


@dataclass(frozen=True, slots=True)
class NaturalMatch:
    """A natural a hand holds, what each opponent pays for it, and, for the three-row naturals
    (three flushes / straights / straight flushes), a legal setting whose rows show it."""

    natural: NaturalName
    value: int
    setting: Setting | None


def find_naturals(hand: RowLike | Setting, rules: RuleSet | str) -> list[NaturalMatch]:
    """Naturals the rule set recognises that the 13-card ``hand`` holds, highest first.

    ``hand`` is 13 cards (a string, cards, a ``CardSet``) or a :class:`Setting`; the rows of a
    setting are ignored. Raises ``InvalidShapeError`` unless there are 13 distinct cards."""
    if isinstance(hand, Setting):
        hand = hand.cards
    found = _core.find_naturals(hand, _compiled(rules))
    return [
        NaturalMatch(name, value, None if rows is None else Setting(*rows))  # type: ignore[arg-type]
        for name, value, rows in found
    ]
