"""Settling a round: decisions of 2–4 players in, an exact, explainable
[`Settlement`][chinese_poker.Settlement] out.

    >>> import chinese_poker as cp
    >>> result = cp.settle(
    ...     [("Qs Qh Qd", "5s 5h 5d Ks Kh", "9s 9h 9d 9c 2s"),
    ...      ("Ac Kc 7d", "Jc Jd 8s 6c 4d", "Ah Th 6h 3h 2h")],
    ...     "maceplay",
    ... )
    >>> result.totals
    (18, -18)

A decision is a [`Setting`][chinese_poker.Setting] (or a plain ``(front, middle, back)`` tuple, each
row a card string or a sequence of cards), a [`Declare`][chinese_poker.Declare] of a natural with
the 13 cards laid out, or [`Surrender`][chinese_poker.Surrender]. Players are seats 0..n-1 in the
order given; every amount in a [`Matchup`][chinese_poker.scoring.Matchup] is from seat ``a``'s side.
The arithmetic runs in the Rust core; nothing is returned unless every decision is valid.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from . import _args, _core
from ._core import Card, CardSet, HandRank, Matchup, Payment, PlayerResult, RowResult, Settlement
from .display import Shown
from .exceptions import (
    InvalidArgumentError,
    InvalidDecisionError,
    InvalidShapeError,
    InvalidTypeError,
)
from .rules import NATURALS, NaturalName, RuleSet, Wheel

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


@dataclass(frozen=True, slots=True)
class Setting(Shown):
    """13 cards set as front (3), middle (5) and back (5). Rows are checked for size and the
    13 cards for duplicates on construction (errors name the row); fouls are allowed here and
    judged by the rule set when settling. Each row may be a card string or a sequence of cards.

    Args:
        front: The 3-card front row.
        middle: The 5-card middle row.
        back: The 5-card back row.

    Raises:
        InvalidShapeError: A row of the wrong size, naming it.
        InvalidCardError: A card that does not parse, naming its row.
        DuplicateCardError: A card given twice.
    """

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

    def __init__(self, front: RowLike, middle: RowLike, back: RowLike) -> None:
        # read and checked by the core's card reader (errors name the row)
        rows = _core.setting_rows(front, middle, back)
        object.__setattr__(self, "front", rows[0])
        object.__setattr__(self, "middle", rows[1])
        object.__setattr__(self, "back", rows[2])

    @classmethod
    def _trusted(
        cls, front: tuple[Card, ...], middle: tuple[Card, ...], back: tuple[Card, ...]
    ) -> Setting:
        # For the core's results, whose rows are already checked: skips parsing and checks.
        s: Setting = object.__new__(cls)
        object.__setattr__(s, "front", front)
        object.__setattr__(s, "middle", middle)
        object.__setattr__(s, "back", back)
        return s

    @classmethod
    def parse(cls, text: str) -> Setting:
        """A setting from text.

        Args:
            text: Front, middle and back separated by slashes:
                ``"Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s"``.

        Returns:
            The setting.

        Raises:
            InvalidTypeError: ``text`` that is not a string.
            InvalidShapeError: Not three rows of 3, 5 and 5 cards.
            InvalidCardError: A card that does not parse.
            DuplicateCardError: A card given twice.
        """
        if not isinstance(text, str):
            raise _args.arg_error(
                InvalidTypeError, "text", f"expected a setting as text, got {type(text).__name__}"
            )
        # the core's reader of this form (the service's and the command line's too)
        return cls._trusted(*_core.parse_setting(text))

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
        """The rows' ranks.

        Args:
            wheel: Where A-2-3-4-5 ranks: ``"low"`` or ``"second"``.

        Returns:
            Front, middle and back ranks.
        """
        return (
            _core.evaluate(self.front, wheel),
            _core.evaluate(self.middle, wheel),
            _core.evaluate(self.back, wheel),
        )

    def is_foul(self, wheel: Wheel = "low") -> bool:
        """Whether the setting breaks back ≥ middle ≥ front (the core's foul test).

        Args:
            wheel: Where A-2-3-4-5 ranks: ``"low"`` or ``"second"``.

        Returns:
            True for a fouled setting.
        """
        return _core.is_foul(self, wheel)

    def to_text(self) -> str:
        """``"Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s"``: the cards in the order they were
        set, as [`parse()`][chinese_poker.Setting.parse] reads them (data; ``str()`` is the
        display)."""
        return " / ".join(self._text(r) for r in self.rows())

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON types): ``{"decision": "play", "setting": "<front / middle / back>",
        "codes": [13 codes front, middle, back]}``, the same form a
        [`Solution`][chinese_poker.Solution]'s ``to_dict()`` uses for its setting."""
        return {
            "decision": "play",
            "setting": self.to_text(),
            "codes": _core.decision_codes(self, 0)[0],
        }

    def __repr__(self) -> str:
        return f"Setting.parse({self.to_text()!r})"


@dataclass(frozen=True, slots=True)
class Declare(Shown):
    """Declare a natural instead of playing rows. ``setting`` lays out the 13 cards (where the
    rule set requires it, the rows must display the natural).

    Args:
        natural: The natural's name (``"dragon"``, ...).
        setting: The 13 cards as a [`Setting`][chinese_poker.Setting] (or its three rows).

    Raises:
        InvalidDecisionError: An unknown natural.
    """

    natural: NaturalName
    setting: Setting

    def __post_init__(self) -> None:
        if self.natural not in NATURALS:
            raise InvalidDecisionError(_core.unknown_natural_message(repr(self.natural)))
        if not isinstance(self.setting, Setting):
            if isinstance(self.setting, tuple | list) and len(self.setting) == 3:
                object.__setattr__(self, "setting", Setting(*self.setting))
            else:
                raise InvalidShapeError(
                    f"Declare: expected a Setting or (front, middle, back), got {self.setting!r}"
                )

    def to_dict(self) -> dict[str, Any]:
        """Plain data: the setting's [`Setting.to_dict()`][chinese_poker.Setting.to_dict] as a
        ``"declare"`` of ``natural``."""
        return {**self.setting.to_dict(), "decision": "declare", "natural": self.natural}


@dataclass(frozen=True, slots=True)
class Surrender(Shown):
    """Give up before the showdown and pay each opponent the rule set's surrender cost."""

    def to_dict(self) -> dict[str, Any]:
        return {"decision": "surrender"}


DecisionLike: TypeAlias = Setting | Declare | Surrender | Sequence[RowLike]


def _compiled(rules: RuleSet | str) -> _core.Rules:
    if isinstance(rules, str):
        return RuleSet.preset(rules).compiled
    if isinstance(rules, RuleSet):
        return rules.compiled
    raise InvalidArgumentError(
        f"rules: expected a RuleSet or a preset name, got {type(rules).__name__}"
    )


def settle(
    decisions: Sequence[DecisionLike],
    rules: RuleSet | str,
    bankrolls: Sequence[int] | None = None,
    dealer: int = 0,
) -> Settlement:
    """Settles one round exactly under a rule set: every matchup, bonus, scoop, sweep, natural,
    surrender and bankroll cap. Nothing is returned unless everything is valid.

    The result is a frozen [`Settlement`][chinese_poker.Settlement] built by the core:
    attributes are read from it on demand, ``explain()`` writes its text when called,
    ``to_dict()`` gives JSON data.

    Args:
        decisions: Each seat's decision, seat 0 first: a [`Setting`][chinese_poker.Setting] (or
            its three rows), a [`Declare`][chinese_poker.Declare] or a
            [`Surrender`][chinese_poker.Surrender]; 2 to 4 seats.
        rules: A [`RuleSet`][chinese_poker.RuleSet] or a preset name.
        bankrolls: One int per seat, or ``None``. They matter only where the rule set caps
            payments, where each must be 0 or more; without the cap a bankroll may be negative (a
            seat in debt), down to ``-MAX_BANKROLL``.
        dealer: The dealer's seat; payments go in seat order starting right of the dealer.

    Returns:
        The settlement: totals, matchups, payments, and the rule behind every number.

    Raises:
        InvalidShapeError: Fewer than 2 or more than 4 players, a row of the wrong size, or a
            bankroll list that does not fit the table.
        InvalidCardError: A bad card, naming the player and row.
        DuplicateCardError: One card held twice, naming the players or row.
        InvalidDecisionError: A decision of the wrong type, a fouled setting or false natural
            under a rule set that rejects fouls, or a surrender the rule set does not allow.
        InvalidArgumentError: A dealer seat or bankroll out of range, naming it, or ``rules`` of
            the wrong type.
        InvalidTypeError: A dealer or bankroll that is not an int, or bankrolls that are not a
            sequence.
    """
    return _core.settle(decisions, _compiled(rules), bankrolls, dealer)


@dataclass(frozen=True, slots=True)
class NaturalMatch:
    """A natural a hand holds, what each opponent pays for it, and, for the three-row naturals
    (three flushes / straights / straight flushes), a legal setting whose rows show it.

    Attributes:
        natural: The natural's name.
        value: What each opponent pays for it.
        setting: For a three-row natural, a legal setting whose rows show it; else ``None``.
    """

    natural: NaturalName
    value: int
    setting: Setting | None


def find_naturals(hand: RowLike | Setting, rules: RuleSet | str) -> list[NaturalMatch]:
    """Naturals the rule set recognises that 13 cards hold, highest first.

    Args:
        hand: 13 cards (a string, cards, a ``CardSet``) or a
            [`Setting`][chinese_poker.Setting], whose rows are ignored.
        rules: A [`RuleSet`][chinese_poker.RuleSet] or a preset name.

    Returns:
        Each natural held, with what each opponent pays for it.

    Raises:
        InvalidShapeError: Not 13 distinct cards.
        InvalidCardError: A card that does not parse.
    """
    if isinstance(hand, Setting):
        hand = hand.cards
    found = _core.find_naturals(hand, _compiled(rules))
    return [NaturalMatch(name, value, setting) for name, value, setting in found]
