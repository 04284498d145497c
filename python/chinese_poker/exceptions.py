"""Exceptions raised by chinese_poker. Input errors are also ``ValueError`` subclasses (a wrong
argument type, ``InvalidTypeError``, is also a ``TypeError``)."""

from __future__ import annotations

__all__ = [
    "ChinesePokerError",
    "InvalidCardError",
    "DuplicateCardError",
    "InvalidShapeError",
    "InvalidRulesError",
    "InvalidTablesError",
    "InvalidDecisionError",
    "InvalidArgumentError",
    "InvalidTypeError",
    "OutputError",
    "MissingDependencyError",
]


class ChinesePokerError(Exception):
    """Base class of every error this package raises on purpose.

    Besides the message, an error carries what it names as attributes, so that no caller has to
    read them out of the text; each is ``None`` where it does not apply:

    - ``field``: the rule-set field path (``"scoop.kind"``) of an ``InvalidRulesError``;
    - ``position``: the 1-based position of the card in its text or row (for a duplicate, the
      second time it appears);
    - ``line``: the 0-based line of a batch of hands (``parse_hands``);
    - ``player``: the 0-based seat whose decision or cards are wrong;
    - ``row``: the row of that player's setting (``"front"``, ``"middle"``, ``"back"``);
    - ``argument``: the name of the call argument an ``InvalidArgumentError`` refuses.
    """

    field: str | None = None
    position: int | None = None
    line: int | None = None
    player: int | None = None
    row: str | None = None
    argument: str | None = None


class InvalidCardError(ChinesePokerError, ValueError):
    """A card token that does not parse, or a card code outside 0..51. Names token and position."""


class DuplicateCardError(ChinesePokerError, ValueError):
    """The same card twice where cards must be distinct. Names the card and both positions."""


class InvalidShapeError(ChinesePokerError, ValueError):
    """A row, hand or array of the wrong size, shape or dtype."""


class InvalidRulesError(ChinesePokerError, ValueError):
    """A rule-set field with an unusable value. Names the field."""


class InvalidTablesError(InvalidRulesError):
    """A strategy-tables file that cannot be used: missing, damaged, not a tables file, or
    trained for another wheel. Names the file and what is wrong with it."""


class InvalidDecisionError(ChinesePokerError, ValueError):
    """A player's decision that cannot be settled. Names the player and row."""


class InvalidArgumentError(ChinesePokerError, ValueError):
    """A call argument outside what it accepts, such as ``threads=0``. Names the argument."""


class InvalidTypeError(InvalidArgumentError, TypeError):
    """An argument of the wrong Python type where data is expected: a ``bool``, ``bytes`` or
    ``float`` where card codes or counts go, a number where a path goes. Names the argument or
    position. An ``InvalidArgumentError`` and a ``TypeError`` too, so either ``except`` works."""


class OutputError(ChinesePokerError, OSError):
    """Results that could not be written or read back: a full disk, a file removed or damaged
    while in use, a folder without permission. Also an ``OSError``. What was finished before
    stays intact (see ``simulate``'s ``out``)."""


class CancelledError(ChinesePokerError):
    """A call its caller cancelled (``Solver.solve(..., cancel=event)`` with the event set:
    a service request whose deadline passed or whose client left). Nothing it computed is
    kept."""


class MissingDependencyError(ChinesePokerError, ModuleNotFoundError):
    """An optional library a call needs is not installed (pyarrow for Arrow and Parquet,
    matplotlib for plots, pandas, polars). Says what to ``pip install``. Also a
    ``ModuleNotFoundError`` (so an ``ImportError``), with ``name`` the missing module."""
