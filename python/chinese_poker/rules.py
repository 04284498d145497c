"""Rule sets as data: every scoring rule of RULES.md §3–5 as a frozen, typed value.

A :class:`RuleSet` is built from parts (:class:`BonusTable`, :class:`Scoop`, :class:`Sweep`,
:class:`Foul`, :class:`Naturals`), validated on construction, and compiled once into the Rust
engine's ``Rules``; scoring and solving read only the compiled form. Start from a preset and
change what your house does differently::

    >>> from chinese_poker.rules import RuleSet, Scoop
    >>> house = RuleSet.preset("maceplay").replace(name="house", scoop=Scoop.add(3))
    >>> RuleSet.from_toml(house.to_toml()) == house
    True

Nested parts can be changed in place with a mapping (``rules.replace(sweep={"multiplier": 3})``)
or a double-underscore keyword (``rules.replace(sweep__min_players=3)``).

Units and limits: every value is a whole number of units; unit values are at most
``MAX_UNITS`` and multipliers at most ``MAX_MULTIPLIER`` so no settlement can overflow.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar, get_args

import tomli_w

from . import _core
from ._enums import Category, Wheel
from .exceptions import InvalidRulesError

__all__ = [
    "BonusMode",
    "BonusTable",
    "CategoryName",
    "Declaration",
    "DOUBLED_BONUS",
    "Foul",
    "FoulKind",
    "FrozenMap",
    "MAX_MULTIPLIER",
    "MAX_UNITS",
    "NO_BONUS",
    "NaturalName",
    "Naturals",
    "RowName",
    "RuleSet",
    "STANDARD_BONUS",
    "Scoop",
    "ScoopKind",
    "Sweep",
    "TimeoutPolicy",
]

RowName = Literal["front", "middle", "back"]
CategoryName = Literal[
    "high_card",
    "pair",
    "two_pair",
    "trips",
    "straight",
    "flush",
    "full_house",
    "quads",
    "straight_flush",
]
NaturalName = Literal[
    "same_suit_dragon",
    "dragon",
    "twelve_royals",
    "three_straight_flushes",
    "three_quads",
    "all_big",
    "all_small",
    "thirteen_one_colour",
    "twelve_one_colour",
    "four_trips",
    "five_pairs_trips",
    "six_pairs",
    "three_flushes",
    "three_straights",
]
BonusMode = Literal["replace", "add"]
ScoopKind = Literal["none", "multiply", "add"]
FoulKind = Literal["as_scooped", "flat_plus_bonus", "reject"]
Declaration = Literal["auto", "must_declare"]
TimeoutPolicy = Literal["foul", "auto"]

ROWS: tuple[RowName, ...] = get_args(RowName)
CATEGORIES: tuple[CategoryName, ...] = get_args(CategoryName)
NATURALS: tuple[NaturalName, ...] = get_args(NaturalName)
FRONT_CATEGORIES: tuple[CategoryName, ...] = ("high_card", "pair", "trips")

MAX_UNITS = 1_000_000
"""Largest unit value of any field (row value, natural, surrender, flat foul, point)."""
MAX_MULTIPLIER = 1_000
"""Largest scoop or sweep multiplier."""

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """An immutable, hashable, picklable mapping that keeps its key order."""

    __slots__ = ("_items",)
    _items: dict[K, V]

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        object.__setattr__(self, "_items", dict(items))

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        # Like dict: order does not matter here (Naturals compares its order itself).
        if isinstance(other, FrozenMap):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("FrozenMap is immutable")

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"

    def __reduce__(self) -> tuple[type[FrozenMap[K, V]], tuple[dict[K, V]]]:
        return (type(self), (dict(self._items),))


def _fail(path: str, reason: str) -> InvalidRulesError:
    # Same wording as the Rust core's InvalidRules errors, so messages read alike.
    return InvalidRulesError(f'rule set field "{path}": {reason}')


def _int(path: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, f"expected a whole number, got {value!r}")
    if not low <= value <= high:
        raise _fail(path, f"must be between {low} and {high}, got {value}")
    return value


def _bool(path: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, f"expected true or false, got {value!r}")
    return value


def _choice(path: str, value: object, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise _fail(path, f"expected one of {options}, got {value!r}")
    return value


def _category_key(path: str, key: object) -> CategoryName:
    if isinstance(key, Category):
        key = key.name.lower()
    if not isinstance(key, str) or key not in CATEGORIES:
        raise _fail(path, f"unknown hand category {key!r}; expected one of {', '.join(CATEGORIES)}")
    return key


@dataclass(frozen=True, slots=True)
class BonusTable:
    """Row values of winning hands, per row and category (RULES.md §3, "Row bonus").

    Under ``mode="replace"`` a listed value is the row's whole value when it wins with that
    category (front trips = 3); unlisted categories pay 1. Under ``mode="add"`` a listed value
    is paid on top of the row point; unlisted categories add 0. A front row can only hold
    ``high_card``, ``pair`` or ``trips``. Keys may be category names or :class:`Category`.
    """

    mode: BonusMode = "replace"
    front: Mapping[CategoryName, int] = FrozenMap()
    middle: Mapping[CategoryName, int] = FrozenMap()
    back: Mapping[CategoryName, int] = FrozenMap()

    def __post_init__(self) -> None:
        _choice("bonus.mode", self.mode, get_args(BonusMode))
        low = 1 if self.mode == "replace" else 0
        for row in ROWS:
            entries = getattr(self, row)
            path = f"bonus.{row}"
            if not isinstance(entries, Mapping):
                raise _fail(path, f"expected a table of hand category to units, got {entries!r}")
            clean: dict[CategoryName, int] = {}
            for key, value in entries.items():
                name = _category_key(f"{path}.{key}", key)
                if row == "front" and name not in FRONT_CATEGORIES:
                    raise _fail(f"{path}.{name}", "a 3-card front is only high_card, pair or trips")
                if name in clean:
                    raise _fail(f"{path}.{name}", "listed twice")
                clean[name] = _int(f"{path}.{name}", value, low, MAX_UNITS)
            ordered = FrozenMap((c, clean[c]) for c in CATEGORIES if c in clean)
            object.__setattr__(self, row, ordered)

    def row_value(self, row: RowName, category: CategoryName | Category) -> int:
        """Units the row pays when won with ``category`` (before doubling, scoop and sweep)."""
        name = _category_key("category", category)
        listed = getattr(self, _choice("row", row, ROWS)).get(name)
        if self.mode == "replace":
            return 1 if listed is None else int(listed)
        return 1 + (0 if listed is None else int(listed))

    def to_dict(self) -> dict[str, Any]:
        """``{"mode": ..., "front": {...}, ...}``; rows without entries are left out."""
        out: dict[str, Any] = {"mode": self.mode}
        for row in ROWS:
            entries = getattr(self, row)
            if entries:
                out[row] = dict(entries)
        return out

    @classmethod
    def from_dict(cls, data: object) -> BonusTable:
        spec = _mapping("bonus", data, ("mode", *ROWS))
        for row in ROWS:
            if row in spec and isinstance(spec[row], Mapping) and not spec[row]:
                # An explicitly empty row is almost always a table whose entries went missing.
                raise _fail(f"bonus.{row}", "empty bonus row; leave the row out for no bonuses")
        return cls(**spec)


NO_BONUS = BonusTable()
"""Every row pays 1, whatever wins it."""

STANDARD_BONUS = BonusTable(
    mode="replace",
    front={"trips": 3},
    middle={"full_house": 2, "quads": 8, "straight_flush": 10},
    back={"quads": 4, "straight_flush": 5},
)
"""The Asian table of RULES.md §3 (MacePlay, Mau Binh, Shisanshui, PokerFever Eastern)."""

DOUBLED_BONUS = BonusTable(
    mode="replace",
    front={"trips": 6},
    middle={"full_house": 4, "quads": 16, "straight_flush": 20},
    back={"quads": 8, "straight_flush": 10},
)
"""The doubled Mau Binh table that also circulates (RULES.md §6): every bonus of
:data:`STANDARD_BONUS` twice over (front trips 6, middle full house 4, back quads 8, back
straight flush 10, middle quads 16, middle straight flush 20)."""


@dataclass(frozen=True, slots=True)
class Scoop:
    """What winning all three rows against one opponent (no ties) pays.

    ``multiply``: the pair total, row bonuses included, is multiplied by ``amount`` (MacePlay's
    9 → 18). ``add``: ``amount`` units are added (1-6 scoring). ``none``: nothing extra.
    Build with :meth:`none`, :meth:`multiply` or :meth:`add`.
    """

    kind: ScoopKind = "none"
    amount: int = 0

    def __post_init__(self) -> None:
        _choice("scoop.kind", self.kind, get_args(ScoopKind))
        if self.kind == "none":
            _int("scoop.amount", self.amount, 0, 0)
        elif self.kind == "multiply":
            _int("scoop.amount", self.amount, 1, MAX_MULTIPLIER)
        else:
            _int("scoop.amount", self.amount, 0, MAX_UNITS)

    @classmethod
    def none(cls) -> Scoop:
        return cls("none", 0)

    @classmethod
    def multiply(cls, factor: int) -> Scoop:
        return cls("multiply", factor)

    @classmethod
    def add(cls, units: int) -> Scoop:
        return cls("add", units)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount}

    @classmethod
    def from_dict(cls, data: object) -> Scoop:
        return cls(**_mapping("scoop", data, ("kind", "amount")))


@dataclass(frozen=True, slots=True)
class Sweep:
    """Scooping every opponent at the table multiplies each of those matchups again.

    ``multiplier`` 1 = no sweep bonus; MacePlay's 2 on top of a ×2 scoop is ×4 in all.
    ``min_players``: the smallest table at which a sweep counts (4 = only at four players).
    ``fouled_counts``: whether a fouled opponent counts as scooped.
    """

    multiplier: int = 1
    min_players: int = 4
    fouled_counts: bool = True

    def __post_init__(self) -> None:
        _int("sweep.multiplier", self.multiplier, 1, MAX_MULTIPLIER)
        _int("sweep.min_players", self.min_players, 2, 4)
        _bool("sweep.fouled_counts", self.fouled_counts)

    @classmethod
    def off(cls) -> Sweep:
        return cls()

    def to_dict(self) -> dict[str, Any]:
        return {
            "multiplier": self.multiplier,
            "min_players": self.min_players,
            "fouled_counts": self.fouled_counts,
        }

    @classmethod
    def from_dict(cls, data: object) -> Sweep:
        return cls(**_mapping("sweep", data, ("multiplier", "min_players", "fouled_counts")))


@dataclass(frozen=True, slots=True)
class Foul:
    """What a fouled hand pays each non-fouled opponent (foul against foul is 0).

    ``as_scooped``: the opponent wins every row at its own row values, then the scoop applies.
    ``flat_plus_bonus``: ``amount`` units plus the opponent's row bonuses (PokerFever, 3).
    ``reject``: a fouled setting is refused; settling one raises (MacePlay).
    """

    kind: FoulKind = "as_scooped"
    amount: int = 0

    def __post_init__(self) -> None:
        _choice("foul.kind", self.kind, get_args(FoulKind))
        if self.kind == "flat_plus_bonus":
            _int("foul.amount", self.amount, 0, MAX_UNITS)
        else:
            _int("foul.amount", self.amount, 0, 0)

    @classmethod
    def as_scooped(cls) -> Foul:
        return cls("as_scooped", 0)

    @classmethod
    def flat_plus_bonus(cls, units: int) -> Foul:
        return cls("flat_plus_bonus", units)

    @classmethod
    def reject(cls) -> Foul:
        return cls("reject", 0)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount}

    @classmethod
    def from_dict(cls, data: object) -> Foul:
        return cls(**_mapping("foul", data, ("kind", "amount")))


@dataclass(frozen=True, slots=True)
class Naturals:
    """Instant-win 13-card hands (RULES.md §5) and how they are declared.

    ``values`` maps each recognised natural to what every opponent pays for it, **ordered from
    the highest natural to the lowest**: between two declared naturals the higher one wins, and
    a hand holding several declares the first it qualifies for. ``declaration="auto"``: the
    engine declares for the player (MacePlay); ``"must_declare"``: an undeclared natural plays
    as a normal hand. ``must_show``: the rows must display the natural (Mau Binh).
    """

    values: Mapping[NaturalName, int] = FrozenMap()
    declaration: Declaration = "must_declare"
    must_show: bool = False

    def __post_init__(self) -> None:
        pairs: Iterable[Any]
        if isinstance(self.values, Mapping):
            pairs = self.values.items()
        elif isinstance(self.values, list | tuple):
            pairs = self.values
        else:
            raise _fail(
                "naturals.values", f"expected a table of natural to units, got {self.values!r}"
            )
        clean: dict[NaturalName, int] = {}
        for pair in pairs:
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                raise _fail("naturals.values", f"expected (name, units) pairs, got {pair!r}")
            name, value = pair
            if not isinstance(name, str) or name not in NATURALS:
                raise _fail(
                    f"naturals.values.{name}",
                    f"unknown natural; expected one of {', '.join(NATURALS)}",
                )
            if name in clean:
                raise _fail(f"naturals.values.{name}", "natural listed twice")
            clean[name] = _int(f"naturals.values.{name}", value, 1, MAX_UNITS)
        object.__setattr__(self, "values", FrozenMap(clean))
        _choice("naturals.declaration", self.declaration, get_args(Declaration))
        _bool("naturals.must_show", self.must_show)

    def __eq__(self, other: object) -> bool:
        # The order of `values` is the ranking, so it is part of the value.
        if not isinstance(other, Naturals):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[tuple[tuple[str, int], ...], str, bool]:
        return (tuple(self.values.items()), self.declaration, self.must_show)

    def value(self, name: NaturalName) -> int | None:
        """What each opponent pays for ``name``, or ``None`` if this rule set lacks it."""
        return self.values.get(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "declaration": self.declaration,
            "must_show": self.must_show,
            "values": dict(self.values),
        }

    @classmethod
    def from_dict(cls, data: object) -> Naturals:
        return cls(**_mapping("naturals", data, ("values", "declaration", "must_show")))


def _mapping(path: str, data: object, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise _fail(path, f"expected a table, got {data!r}")
    for key in data:
        if key not in keys:
            where = f"{path}.{key}" if path else str(key)
            raise _fail(where, f"unknown field; expected one of {', '.join(keys)}")
    return dict(data)


_PARTS: dict[str, type[Any]] = {
    "bonus": BonusTable,
    "scoop": Scoop,
    "sweep": Sweep,
    "foul": Foul,
    "naturals": Naturals,
}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A complete, validated rule set (RULES.md §3–5). Immutable; derive with :meth:`replace`.

    The defaults are plain 1-per-row scoring with nothing else: no bonuses, no scoop, no
    sweep, fouls lose as scooped, no naturals, no surrender.

    Fields:
        name, description, source: free text; ``source`` says where the values come from.
        wheel: ``"low"`` (A-2-3-4-5 is the lowest straight) or ``"second"`` (just under
            10-J-Q-K-A); also ranks the A-2-3-4-5 straight flush.
        bonus: the row bonus table and its mode (:class:`BonusTable`).
        double_bonus: a bonus row that beats a row of the same category pays double.
        majority_point: units to whoever wins more of the three rows (Western); 0 = off.
        overall_point: units to whoever has the higher pair total after bonuses (2-4); 0 = off.
        scoop, sweep, foul, naturals: see :class:`Scoop`, :class:`Sweep`, :class:`Foul`,
            :class:`Naturals`.
        surrender: units a surrendering player pays each opponent; ``None`` = not allowed.
        suit_order: suits from strongest to weakest (``"shcd"`` = ♠ > ♥ > ♣ > ♦) to break ties
            between rows of identical ranks; ``None`` = ties stand.
        bankroll_cap: nobody wins or loses more than their bankroll; payments go in seat order
            starting right of the dealer.
        timeout: an unset hand when the clock runs out: ``"foul"`` or ``"auto"`` (best legal
            setting, and any natural, chosen for the player).
    """

    name: str = "custom"
    wheel: Wheel = "low"
    bonus: BonusTable = NO_BONUS
    double_bonus: bool = False
    majority_point: int = 0
    overall_point: int = 0
    scoop: Scoop = Scoop()
    sweep: Sweep = Sweep()
    foul: Foul = Foul()
    naturals: Naturals = Naturals()
    surrender: int | None = None
    suit_order: str | None = None
    bankroll_cap: bool = False
    timeout: TimeoutPolicy = "foul"
    description: str = ""
    source: str = ""
    _compiled: _core.Rules = field(init=False, repr=False, compare=False, hash=False)

    FIELDS: ClassVar[tuple[str, ...]] = (
        "name",
        "wheel",
        "bonus",
        "double_bonus",
        "majority_point",
        "overall_point",
        "scoop",
        "sweep",
        "foul",
        "naturals",
        "surrender",
        "suit_order",
        "bankroll_cap",
        "timeout",
        "description",
        "source",
    )

    def __post_init__(self) -> None:
        for text in ("name", "description", "source"):
            if not isinstance(getattr(self, text), str):
                raise _fail(text, f"expected text, got {getattr(self, text)!r}")
        _choice("wheel", self.wheel, ("low", "second"))
        for part, cls in _PARTS.items():
            if not isinstance(getattr(self, part), cls):
                raise _fail(part, f"expected a {cls.__name__}, got {getattr(self, part)!r}")
        _bool("double_bonus", self.double_bonus)
        _int("majority_point", self.majority_point, 0, MAX_UNITS)
        _int("overall_point", self.overall_point, 0, MAX_UNITS)
        if self.surrender is not None:
            _int("surrender", self.surrender, 0, MAX_UNITS)
        if self.suit_order is not None:
            order = self.suit_order
            if not isinstance(order, str) or len(order) != 4 or set(order.lower()) != set("cdhs"):
                raise _fail(
                    "suit_order",
                    f"expected the four suits c, d, h, s once each, strongest first, got {order!r}",
                )
            object.__setattr__(self, "suit_order", order.lower())
        _bool("bankroll_cap", self.bankroll_cap)
        _choice("timeout", self.timeout, get_args(TimeoutPolicy))
        # Compiled once here, so scoring never converts the rule set again.
        object.__setattr__(self, "_compiled", _core.Rules(self._engine_dict()))

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in self.FIELDS:
            object.__setattr__(self, name, state[name])
        self.__post_init__()

    @property
    def compiled(self) -> _core.Rules:
        """The compiled engine form (opaque; what scoring and solving read)."""
        return self._compiled

    # -- presets -------------------------------------------------------------------------

    @staticmethod
    def presets() -> tuple[str, ...]:
        """Names of the shipped presets."""
        from .presets import PRESETS

        return tuple(PRESETS)

    @staticmethod
    def preset(name: str) -> RuleSet:
        """A shipped preset by name (see :mod:`chinese_poker.presets`)."""
        from .presets import PRESETS

        try:
            return PRESETS[name]
        except KeyError:
            raise InvalidRulesError(
                f"unknown preset {name!r}; expected one of {', '.join(PRESETS)}"
            ) from None

    # -- derivation ----------------------------------------------------------------------

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with ``changes`` applied (validated like a new rule set).

        A part may be given whole (``scoop=Scoop.multiply(3)``), as a mapping of the fields to
        change (``sweep={"multiplier": 3}``), or field by field with a double underscore
        (``naturals__declaration="auto"``).
        """
        grouped: dict[str, Any] = {}
        nested: dict[str, dict[str, Any]] = {}
        for key, value in changes.items():
            head, sep, rest = key.partition("__")
            if head not in self.FIELDS:
                raise _fail(key, f"unknown field; expected one of {', '.join(self.FIELDS)}")
            if sep:
                if head not in _PARTS:
                    raise _fail(key, f"{head!r} has no nested fields")
                nested.setdefault(head, {})[rest] = value
            else:
                grouped[head] = value
        for part, fields in nested.items():
            base = grouped.get(part, getattr(self, part))
            if isinstance(base, Mapping):
                grouped[part] = {**base, **fields}
            else:
                grouped[part] = {**_part_fields(base), **fields}
        for part in _PARTS:
            if isinstance(grouped.get(part), Mapping):
                grouped[part] = _replace_part(part, getattr(self, part), grouped[part])
        current = {name: getattr(self, name) for name in self.FIELDS}
        return RuleSet(**{**current, **grouped})

    # -- serialisation -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON types only); :meth:`from_dict` rebuilds an equal rule set."""
        return {
            "name": self.name,
            "description": self.description,
            "source": self.source,
            **self._engine_dict(),
        }

    def _engine_dict(self) -> dict[str, Any]:
        return {
            "wheel": self.wheel,
            "bonus": self.bonus.to_dict(),
            "double_bonus": self.double_bonus,
            "majority_point": self.majority_point,
            "overall_point": self.overall_point,
            "scoop": self.scoop.to_dict(),
            "sweep": self.sweep.to_dict(),
            "foul": self.foul.to_dict(),
            "naturals": self.naturals.to_dict(),
            "surrender": self.surrender,
            "suit_order": self.suit_order,
            "bankroll_cap": self.bankroll_cap,
            "timeout": self.timeout,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Builds a rule set from :meth:`to_dict` data; missing fields take the defaults,
        unknown fields and bad values raise :class:`InvalidRulesError` naming the field."""
        spec = _mapping("", data, cls.FIELDS)
        for part, part_cls in _PARTS.items():
            if part in spec:
                spec[part] = part_cls.from_dict(spec[part])
        return cls(**spec)

    def to_json(self, *, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> RuleSet:
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
        except json.JSONDecodeError as e:
            raise InvalidRulesError(f"rule set JSON does not parse: {e}") from None
        return cls.from_dict(data)

    def to_toml(self) -> str:
        """TOML text; ``None`` fields (no surrender, no suit order) are left out."""
        data = {k: v for k, v in self.to_dict().items() if v is not None}
        return tomli_w.dumps(data)

    @classmethod
    def from_toml(cls, text: str) -> RuleSet:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise InvalidRulesError(f"rule set TOML does not parse: {e}") from None
        return cls.from_dict(data)

    # -- reading -------------------------------------------------------------------------

    def row_value(self, row: RowName, category: CategoryName | Category) -> int:
        """Units ``row`` pays when won with ``category`` (before doubling, scoop and sweep)."""
        return self.bonus.row_value(row, category)

    def summary(self) -> str:
        """One line saying what this rule set pays, e.g. for a table of presets."""
        parts = [f"wheel {self.wheel}"]
        bonuses = []
        for row in ROWS:
            for cat, _ in getattr(self.bonus, row).items():
                bonuses.append(f"{row} {cat.replace('_', ' ')} {self.row_value(row, cat)}")
        if bonuses:
            parts.append(f"rows ({self.bonus.mode}): " + ", ".join(bonuses) + ", else 1")
        else:
            parts.append("1 a row")
        if self.double_bonus:
            parts.append("double bonus")
        if self.majority_point:
            parts.append(f"majority +{self.majority_point}")
        if self.overall_point:
            parts.append(f"overall +{self.overall_point}")
        if self.scoop.kind == "multiply":
            parts.append(f"scoop ×{self.scoop.amount}")
        elif self.scoop.kind == "add":
            parts.append(f"scoop +{self.scoop.amount}")
        if self.sweep.multiplier > 1:
            parts.append(f"sweep ×{self.sweep.multiplier} at {self.sweep.min_players}+ players")
        if self.foul.kind == "flat_plus_bonus":
            parts.append(f"foul {self.foul.amount} + bonuses")
        else:
            parts.append(f"foul {self.foul.kind.replace('_', ' ')}")
        if self.naturals.values:
            parts.append(
                "naturals "
                + ", ".join(f"{n.replace('_', ' ')} {v}" for n, v in self.naturals.values.items())
            )
        if self.surrender is not None:
            parts.append(f"surrender {self.surrender}")
        if self.bankroll_cap:
            parts.append("bankroll cap")
        return "; ".join(parts)


def _part_fields(part: Any) -> dict[str, Any]:
    return {f.name: getattr(part, f.name) for f in dataclasses.fields(part)}


def _replace_part(name: str, current: Any, changes: Mapping[str, Any]) -> Any:
    cls = _PARTS[name]
    spec = _mapping(name, changes, tuple(f.name for f in dataclasses.fields(cls)))
    return cls(**{**_part_fields(current), **spec})


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidRulesError(f"rule set JSON: key {key!r} appears twice in one table")
        out[key] = value
    return out
