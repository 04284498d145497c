"""Rule sets as data: every scoring rule ([rules: Rule
fields](https://chinese-poker.github.io/chinese-poker/rules/#rule-fields)) as a frozen, typed value.

A [`RuleSet`][chinese_poker.RuleSet] is built from parts ([`BonusTable`][chinese_poker.BonusTable],
[`Scoop`][chinese_poker.Scoop], [`Sweep`][chinese_poker.Sweep], [`Foul`][chinese_poker.Foul],
[`Naturals`][chinese_poker.Naturals]) and compiled once into the Rust engine's ``Rules``; scoring
and solving read only the compiled form. Start from a preset and change what your house does
differently::

    >>> from chinese_poker.rules import RuleSet, Scoop
    >>> house = RuleSet.preset("maceplay").replace(name="house", scoop=Scoop.add(3))
    >>> RuleSet.from_toml(house.to_toml()) == house
    True

Nested parts can be changed in place with a mapping (``rules.replace(sweep={"multiplier": 3})``)
or a double-underscore keyword (``rules.replace(sweep__min_players=3)``).

The fields, their defaults, their bounds and their error messages are defined once, in the Rust
core ([architecture: One rule
schema](https://chinese-poker.github.io/chinese-poker/architecture/#one-rule-schema)): this module
takes its defaults and names from there, and a rule set (or a part built alone) is validated by
compiling it. Every bad value raises
[`InvalidRulesError`][chinese_poker.exceptions.InvalidRulesError] naming the field. Unit values are
at most ``MAX_UNITS`` and multipliers at most ``MAX_MULTIPLIER``, so no settlement can overflow.

The shipped presets live here too: [`PRESETS`][chinese_poker.rules.PRESETS] maps each name to its
rule set, and each is a module constant named by its name in capitals (``MACEPLAY``, ``SHISANSHUI``,
...). ``chinese_poker.presets`` is this module under the name the presets are known by.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar

import tomli_w

from . import _core
from ._core import Category
from .display import Shown
from .exceptions import InvalidArgumentError, InvalidRulesError

__all__ = [
    "PRESETS",
    "SHISANSHUI_SUIT_ORDER",
    "BonusMode",
    "BonusTable",
    "CATEGORIES",
    "CategoryName",
    "Declaration",
    "DOUBLED_BONUS",
    "FRONT_CATEGORIES",
    "Foul",
    "FoulKind",
    "FrozenMap",
    "MAX_MULTIPLIER",
    "MAX_UNITS",
    "NATURALS",
    "NO_BONUS",
    "NaturalName",
    "Naturals",
    "ROWS",
    "RowName",
    "RuleSet",
    "STANDARD_BONUS",
    "Scoop",
    "ScoopKind",
    "Sweep",
    "TimeoutPolicy",
    "Wheel",
    *(name.upper() for name in _core.PRESET_NAMES),
]

# The names are the core's (see CHOICES and the tuples below); these aliases only say which
# list a string belongs to.
RowName = str
CategoryName = str
NaturalName = str
BonusMode = str
ScoopKind = str
FoulKind = str
Declaration = str
TimeoutPolicy = str
Wheel = str
"""Where A-2-3-4-5 ranks: one of ``_core.CHOICES["wheel"]``, ``"low"`` (lowest straight) or
``"second"`` (just under 10-J-Q-K-A)."""

ROWS: tuple[RowName, ...] = _core.ROW_NAMES
"""Row names, front first."""
CATEGORIES: tuple[CategoryName, ...] = _core.CATEGORY_NAMES
"""Hand category names, weakest first."""
FRONT_CATEGORIES: tuple[CategoryName, ...] = _core.FRONT_CATEGORY_NAMES
"""The categories a 3-card front can hold."""
NATURALS: tuple[NaturalName, ...] = _core.NATURAL_NAMES
"""Every natural the engine knows, in no particular ranking."""
CHOICES: Mapping[str, tuple[str, ...]] = _core.CHOICES
"""The names each choice field accepts, by field path (``"scoop.kind"``, ``"timeout"``, ...)."""

MAX_UNITS: int = _core.MAX_UNITS
"""Largest unit value of any field (row value, natural, surrender, flat foul, point)."""
MAX_MULTIPLIER: int = _core.MAX_MULTIPLIER
"""Largest scoop or sweep multiplier."""

_DEFAULTS: dict[str, Any] = json.loads(_core.default_rules_json())

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
    # For the few checks of Python objects themselves; worded like the core's errors, and
    # naming the field as they do.
    error = InvalidRulesError(f'rule set field "{path}": {reason}')
    error.field = path
    return error


def _plain(value: object, depth: int = 0, path: str = "") -> Any:
    """JSON-ready data for the core. Values JSON cannot carry (a 5,000-digit int, NaN, a
    complex, an object) become text, which the core then refuses naming the field (a text field
    refuses them in ``RuleSet``); a ``Category`` key becomes its name; text with a lone
    surrogate, which has no UTF-8 form, is refused here naming the field (``path``)."""
    if depth > 64:
        raise InvalidRulesError("rule set data is nested too deeply")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _fail(path or "?", "text with a lone surrogate is not text") from None
        return value
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value) if -(2**63) <= value < 2**64 else _too_big(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = _plain(_key_name(key), depth + 1, path)
            if name in out:
                raise InvalidRulesError(f"rule set data: key {name!r} appears twice in one table")
            out[name] = _plain(item, depth + 1, f"{path}.{name}" if path else name)
        return out
    if isinstance(value, list | tuple):
        return [_plain(item, depth + 1, path) for item in value]
    return _short(repr(value))


def _too_big(value: int) -> str:
    # str() of a huge int is refused by Python itself (its digit limit): count bits instead
    digits = int(value.bit_length() * math.log10(2)) + 1
    return f"a {'negative ' if value < 0 else ''}whole number of about {digits} digits"


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _key_name(key: object) -> str:
    if isinstance(key, Category):
        return key.name.lower()
    return key if isinstance(key, str) else _short(repr(key))


def _compile(data: Mapping[str, Any]) -> _core.Rules:
    """The core's parse and validation of the data form: the only rule-set check there is, run
    once per rule set (by its constructor, or by ``from_dict`` for the data it builds from)."""
    return _core.Rules(json.dumps(_plain(data), ensure_ascii=False))


def _check_part(name: str, data: object) -> None:
    """The core's check of a part built alone (``Sweep(min_players=0)``): the default rule set
    with that part, checked by the same code and in the same words as within a rule set, without
    building a rule set."""
    _core.check_rules_part(name, json.dumps(_plain(data), ensure_ascii=False))


# Set while a value is built from data the core has just checked, so that it is not checked
# again: True while parts are built, the compiled rule set while a RuleSet is.
_CHECKED: ContextVar[_core.Rules | bool] = ContextVar("_CHECKED", default=False)


@contextlib.contextmanager
def _checked(compiled: _core.Rules | bool) -> Iterator[None]:
    token = _CHECKED.set(compiled)
    try:
        yield
    finally:
        _CHECKED.reset(token)


def _check_part_once(name: str, data: object) -> None:
    if _CHECKED.get() is False:
        _check_part(name, data)


def _given(data: Mapping[str, Any]) -> dict[str, Any]:
    # `null` and a missing field both mean the default, in the core and here.
    return {k: v for k, v in data.items() if v is not None}


_BONUS_DEFAULTS: dict[str, Any] = _DEFAULTS["bonus"]


def _part_fields(part: Any) -> dict[str, Any]:
    return {f.name: getattr(part, f.name) for f in dataclasses.fields(part)}


@dataclass(frozen=True, slots=True)
class BonusTable:
    """Row values of winning hands, per row and category ([rules: Scoring](https://chinese-poker.github.io/chinese-poker/rules/#scoring)).

    Under ``mode="replace"`` a listed value is the row's whole value when it wins with that
    category (front trips = 3); unlisted categories pay 1. Under ``mode="add"`` a listed value
    is paid on top of the row point; unlisted categories add 0. A front row can only hold
    ``high_card``, ``pair`` or ``trips``. Keys may be category names or
    [`Category`][chinese_poker.Category].

    Args:
        mode: ``"replace"`` or ``"add"``.
        front: The front's values by category (``high_card``, ``pair``, ``trips`` only).
        middle: The middle's values by category.
        back: The back's values by category.

    Raises:
        InvalidRulesError: A value out of range or a category a row cannot hold, naming it.
    """

    mode: BonusMode = _BONUS_DEFAULTS["mode"]
    front: Mapping[CategoryName, int] = FrozenMap()
    middle: Mapping[CategoryName, int] = FrozenMap()
    back: Mapping[CategoryName, int] = FrozenMap()

    def __post_init__(self) -> None:
        _check_part_once("bonus", self.to_dict())
        for row in ROWS:
            # valid now: every key is a category name; keep them weakest first
            entries = {_key_name(k): v for k, v in getattr(self, row).items()}
            ordered = FrozenMap((c, entries[c]) for c in CATEGORIES if c in entries)
            object.__setattr__(self, row, ordered)

    def row_value(self, row: RowName, category: CategoryName | Category) -> int:
        """Units a row pays when won with a category (before doubling, scoop and sweep).

        Args:
            row: ``"front"``, ``"middle"`` or ``"back"``.
            category: A [`Category`][chinese_poker.Category] or its name (``"full_house"``).

        Returns:
            The units.

        Raises:
            InvalidRulesError: An unknown row or category.
        """
        spec = json.dumps(self.to_dict(), ensure_ascii=False)
        return _core.bonus_row_value(spec, row, _key_name(category))

    def to_dict(self) -> dict[str, Any]:
        """``{"mode": ..., "front": {...}, ...}``; rows without entries are left out."""
        out: dict[str, Any] = {"mode": self.mode}
        for row in ROWS:
            entries = getattr(self, row)
            if not isinstance(entries, Mapping):
                out[row] = entries  # the core names the row and says what it expected
            elif entries:
                out[row] = {_key_name(k): v for k, v in entries.items()}
        return out

    @classmethod
    def from_dict(cls, data: object) -> BonusTable:
        """The bonus table of plain data, as ``to_dict()`` gives it (missing fields take the
        defaults).

        Args:
            data: A mapping of the bonus table's fields.

        Returns:
            The bonus table.

        Raises:
            InvalidRulesError: Not a mapping, an unknown field or a bad value, naming the field
                (``bonus.…``).
        """
        _check_part("bonus", data)
        with _checked(True):
            return cls(**_given(data))  # type: ignore[arg-type]


NO_BONUS = BonusTable()
"""Every row pays 1, whatever wins it."""

STANDARD_BONUS = BonusTable.from_dict(json.loads(_core.standard_bonus_json()))
"""The Asian row-bonus table ([rules:
Scoring](https://chinese-poker.github.io/chinese-poker/rules/#scoring)): front trips 3; middle full
house 2, quads 8, straight flush 10; back quads 4, straight flush 5 (MacePlay, Mau Binh, Shisanshui,
PokerFever Eastern)."""

DOUBLED_BONUS = BonusTable(
    mode=STANDARD_BONUS.mode,
    **{
        row: {cat: 2 * value for cat, value in getattr(STANDARD_BONUS, row).items()} for row in ROWS
    },
)
"""The doubled Mau Binh table that also circulates: every bonus of
[`STANDARD_BONUS`][chinese_poker.STANDARD_BONUS] twice over (front trips 6, middle full house 4,
back quads 8, back straight flush 10, middle quads 16, middle straight flush 20)."""


@dataclass(frozen=True, slots=True)
class Scoop:
    """What winning all three rows against one opponent (no ties) pays.

    ``multiply``: the pair total, row bonuses included, is multiplied by ``amount`` (MacePlay's
    9 → 18). ``add``: ``amount`` units are added (1-6 scoring). ``none``: nothing extra.
    Build with `none()`, `multiply()` or `add()`.

    Args:
        kind: ``"none"``, ``"multiply"`` or ``"add"``.
        amount: The multiplier (``multiply``, 1 to ``MAX_MULTIPLIER``) or the units (``add``,
            0 to ``MAX_UNITS``); 0 with ``none``.

    Raises:
        InvalidRulesError: An unknown kind or an amount out of range, naming it.
    """

    kind: ScoopKind = _DEFAULTS["scoop"]["kind"]
    amount: int = _DEFAULTS["scoop"]["amount"]

    def __post_init__(self) -> None:
        _check_part_once("scoop", self.to_dict())

    @classmethod
    def none(cls) -> Scoop:
        return cls("none", 0)

    @classmethod
    def multiply(cls, factor: int) -> Scoop:
        """A scoop that multiplies the pair total (bonuses included).

        Args:
            factor: The multiplier, 1 to ``MAX_MULTIPLIER``.

        Returns:
            The scoop rule.
        """
        return cls("multiply", factor)

    @classmethod
    def add(cls, units: int) -> Scoop:
        """A scoop that pays units on top of the rows.

        Args:
            units: The extra units, 0 to ``MAX_UNITS``.

        Returns:
            The scoop rule.
        """
        return cls("add", units)

    def to_dict(self) -> dict[str, Any]:
        return _part_fields(self)

    @classmethod
    def from_dict(cls, data: object) -> Scoop:
        """The scoop of plain data, as ``to_dict()`` gives it (missing fields take the defaults).

        Args:
            data: A mapping of the scoop's fields.

        Returns:
            The scoop.

        Raises:
            InvalidRulesError: Not a mapping, an unknown field or a bad value, naming the field
                (``scoop.…``).
        """
        _check_part("scoop", data)
        with _checked(True):
            return cls(**_given(data))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Sweep:
    """Scooping every opponent at the table multiplies each of those matchups again.

    ``multiplier`` 1 = no sweep bonus; MacePlay's 2 on top of a ×2 scoop is ×4 in all.
    ``min_players``: the smallest table at which a sweep counts (4 = only at four players).
    ``fouled_counts``: whether a fouled opponent counts as scooped.

    Args:
        multiplier: What a sweep multiplies the scooped matchups by again; 1 = no sweep bonus.
        min_players: The smallest table at which a sweep counts.
        fouled_counts: Whether a fouled opponent counts as scooped.

    Raises:
        InvalidRulesError: A value out of range, naming it.
    """

    multiplier: int = _DEFAULTS["sweep"]["multiplier"]
    min_players: int = _DEFAULTS["sweep"]["min_players"]
    fouled_counts: bool = _DEFAULTS["sweep"]["fouled_counts"]

    def __post_init__(self) -> None:
        _check_part_once("sweep", self.to_dict())

    @classmethod
    def off(cls) -> Sweep:
        return cls()

    def to_dict(self) -> dict[str, Any]:
        return _part_fields(self)

    @classmethod
    def from_dict(cls, data: object) -> Sweep:
        """The sweep of plain data, as ``to_dict()`` gives it (missing fields take the defaults).

        Args:
            data: A mapping of the sweep's fields.

        Returns:
            The sweep.

        Raises:
            InvalidRulesError: Not a mapping, an unknown field or a bad value, naming the field
                (``sweep.…``).
        """
        _check_part("sweep", data)
        with _checked(True):
            return cls(**_given(data))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Foul:
    """What a fouled hand pays each non-fouled opponent (foul against foul is 0).

    ``as_scooped``: the opponent wins every row at its own row values, then the scoop applies.
    ``flat_plus_bonus``: ``amount`` units plus the opponent's row bonuses (PokerFever, 3).
    ``reject``: a fouled setting is refused; settling one raises (MacePlay).

    Args:
        kind: ``"as_scooped"``, ``"flat_plus_bonus"`` or ``"reject"``.
        amount: The flat units of ``flat_plus_bonus`` (0 to ``MAX_UNITS``); 0 otherwise.

    Raises:
        InvalidRulesError: An unknown kind or an amount out of range, naming it.
    """

    kind: FoulKind = _DEFAULTS["foul"]["kind"]
    amount: int = _DEFAULTS["foul"]["amount"]

    def __post_init__(self) -> None:
        _check_part_once("foul", self.to_dict())

    @classmethod
    def as_scooped(cls) -> Foul:
        return cls("as_scooped", 0)

    @classmethod
    def flat_plus_bonus(cls, units: int) -> Foul:
        """A fouled hand pays each opponent a flat amount plus the opponent's row bonuses.

        Args:
            units: The flat amount, 0 to ``MAX_UNITS``.

        Returns:
            The foul rule.
        """
        return cls("flat_plus_bonus", units)

    @classmethod
    def reject(cls) -> Foul:
        return cls("reject", 0)

    def to_dict(self) -> dict[str, Any]:
        return _part_fields(self)

    @classmethod
    def from_dict(cls, data: object) -> Foul:
        """The foul rule of plain data, as ``to_dict()`` gives it (missing fields take the
        defaults).

        Args:
            data: A mapping of the foul rule's fields.

        Returns:
            The foul rule.

        Raises:
            InvalidRulesError: Not a mapping, an unknown field or a bad value, naming the field
                (``foul.…``).
        """
        _check_part("foul", data)
        with _checked(True):
            return cls(**_given(data))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Naturals:
    """Instant-win 13-card hands ([rules:
    Naturals](https://chinese-poker.github.io/chinese-poker/rules/#naturals)) and how they are
    declared.

    ``values`` maps each recognised natural to what every opponent pays for it; ``values`` may
    also be given as ``(name, units)`` pairs. Their order carries no meaning (JSON and TOML
    readers need not keep it): the ranking is the engine's, the most valuable natural first and
    equal values in the order of ``NATURAL_NAMES``. Between two declared naturals the higher
    value wins, and a hand holding several declares the one that ranks first.
    ``declaration="auto"``: the engine declares for the player
    (MacePlay); ``"must_declare"``: an undeclared natural plays as a normal hand. ``must_show``:
    the rows must display the natural (Mau Binh).

    Args:
        values: Each recognised natural and what every opponent pays for it, highest natural
            first (a mapping, or ``(name, units)`` pairs).
        declaration: ``"auto"`` or ``"must_declare"``.
        must_show: Whether the rows must display the natural.

    Raises:
        InvalidRulesError: An unknown natural, a value out of range or an unknown declaration,
            naming it.
    """

    values: Mapping[NaturalName, int] = FrozenMap()
    declaration: Declaration = _DEFAULTS["naturals"]["declaration"]
    must_show: bool = _DEFAULTS["naturals"]["must_show"]

    def __post_init__(self) -> None:
        values = self.values
        data = self.to_dict()
        if not isinstance(values, Mapping) and isinstance(values, list | tuple):
            data["values"] = [list(p) if isinstance(p, list | tuple) else p for p in values]
        _check_part_once("naturals", data)
        pairs = values.items() if isinstance(values, Mapping) else values
        object.__setattr__(self, "values", FrozenMap((str(k), v) for k, v in pairs))

    def __eq__(self, other: object) -> bool:
        # The order of `values` carries no meaning (the ranking is the core's), so it is not
        # part of the value.
        if not isinstance(other, Naturals):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[frozenset[tuple[str, int]], str, bool]:
        return (frozenset(self.values.items()), self.declaration, self.must_show)

    def value(self, name: NaturalName) -> int | None:
        """What each opponent pays for a natural.

        Args:
            name: The natural's name (``"dragon"``, ``"six_pairs"``, ...).

        Returns:
            The units, or ``None`` if this rule set lacks it.
        """
        return self.values.get(name)

    def to_dict(self) -> dict[str, Any]:
        out = _part_fields(self)
        values = self.values
        out["values"] = dict(values) if isinstance(values, Mapping) else values
        return out

    @classmethod
    def from_dict(cls, data: object) -> Naturals:
        """The naturals of plain data, as ``to_dict()`` gives it (missing fields take the defaults).

        Args:
            data: A mapping of the naturals's fields.

        Returns:
            The naturals.

        Raises:
            InvalidRulesError: Not a mapping, an unknown field or a bad value, naming the field
                (``naturals.…``).
        """
        _check_part("naturals", data)
        with _checked(True):
            return cls(**_given(data))  # type: ignore[arg-type]


_PARTS: dict[str, type[Any]] = {
    "bonus": BonusTable,
    "scoop": Scoop,
    "sweep": Sweep,
    "foul": Foul,
    "naturals": Naturals,
}


@dataclass(frozen=True, slots=True)
class RuleSet(Shown):
    """A complete, validated rule set ([rules: Rule
    fields](https://chinese-poker.github.io/chinese-poker/rules/#rule-fields)). Immutable; derive
    with [`replace()`][chinese_poker.RuleSet.replace].

    The defaults (the core's) are plain 1-per-row scoring with nothing else: no bonuses, no
    scoop, no sweep, fouls lose as scooped, no naturals, no surrender.

    Args:
        name: The rule set's name (free text).
        wheel: ``"low"`` (A-2-3-4-5 is the lowest straight) or ``"second"`` (just under
            10-J-Q-K-A); also ranks the A-2-3-4-5 straight flush.
        bonus: The row bonus table and its mode ([`BonusTable`][chinese_poker.BonusTable]).
        double_bonus: A bonus row that beats a row of the same category pays double.
        majority_point: Units to whoever wins more of the three rows (Western); 0 = off.
        overall_point: Units to whoever has the higher pair total after bonuses (2-4); 0 = off.
        scoop: What winning all three rows against one opponent pays
            ([`Scoop`][chinese_poker.Scoop]).
        sweep: What scooping every opponent pays ([`Sweep`][chinese_poker.Sweep]).
        foul: How a fouled setting is settled ([`Foul`][chinese_poker.Foul]).
        naturals: The naturals recognised and how they are declared
            ([`Naturals`][chinese_poker.Naturals]).
        surrender: Units a surrendering player pays each opponent; ``None`` = not allowed.
        suit_order: Suits from strongest to weakest (``"shcd"`` = ♠ > ♥ > ♣ > ♦) to break ties
            between rows of identical ranks; ``None`` = ties stand.
        bankroll_cap: Nobody wins or loses more than their bankroll; payments go in seat order
            starting right of the dealer.
        timeout: What happens to a hand not set in time: ``"foul"`` (settled as a fouled
            hand) or ``"auto"`` (the best legal setting, and any natural, chosen for the
            player); [`chinese_poker.Table.settle()`][chinese_poker.Table.settle] applies it to
            the seats that did not act.
        description: Free text: what the rule set pays.
        source: Free text: where the values come from.

    Raises:
        InvalidRulesError: A value the core cannot use, naming the field
            (``bonus.middle.quads``).
        InvalidTypeError: A field of the wrong type.
    """

    name: str = "custom"
    wheel: Wheel = _DEFAULTS["wheel"]
    bonus: BonusTable = NO_BONUS
    double_bonus: bool = _DEFAULTS["double_bonus"]
    majority_point: int = _DEFAULTS["majority_point"]
    overall_point: int = _DEFAULTS["overall_point"]
    scoop: Scoop = Scoop()
    sweep: Sweep = Sweep()
    foul: Foul = Foul()
    naturals: Naturals = Naturals()
    surrender: int | None = _DEFAULTS["surrender"]
    suit_order: str | None = _DEFAULTS["suit_order"]
    bankroll_cap: bool = _DEFAULTS["bankroll_cap"]
    timeout: TimeoutPolicy = _DEFAULTS["timeout"]
    description: str = ""
    source: str = ""
    _compiled: _core.Rules = field(init=False, repr=False, compare=False, hash=False)

    FIELDS: ClassVar[tuple[str, ...]] = ("name", *_core.RULE_FIELDS, "description", "source")

    def __post_init__(self) -> None:
        for name in _core.TEXT_FIELDS:
            # JSON and TOML values that are not text (a TOML date) would pass the core's text
            # check as their repr, then break to_json()
            if not isinstance(getattr(self, name), str):
                raise _fail(name, f"expected text, got {type(getattr(self, name)).__name__}")
        for part, cls in _PARTS.items():
            if not isinstance(getattr(self, part), cls):
                raise _fail(part, f"expected a {cls.__name__}, got {getattr(self, part)!r}")
        # Compiled (and so validated) once, here or by from_dict for the data this is built from;
        # scoring never converts the rule set again.
        compiled = _CHECKED.get()
        if not isinstance(compiled, _core.Rules):
            compiled = _compile(self.to_dict())
        object.__setattr__(self, "_compiled", compiled)
        if isinstance(self.suit_order, str):
            object.__setattr__(self, "suit_order", self.suit_order.lower())

    def __eq__(self, other: object) -> bool:
        # The rule fields compare by their canonical form (the core's digest), never by how
        # they were written: a rule set read from key-sorted JSON equals the original.
        if not isinstance(other, RuleSet):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def _identity(self) -> tuple[str, str, str, str]:
        return (self.name, self.description, self.source, self._compiled.digest)

    @property
    def digest(self) -> str:
        """The rule set's identity: SHA-256 of `canonical_json()`, 64 hex digits. Equal
        rule fields give equal digests whatever the order their data was written in; the name,
        description and source are not part of it. Every solution, simulation, duel and
        service answer names the digest of the rules it was made under."""
        return self._compiled.digest

    def canonical_json(self) -> str:
        """The canonical form of the rule fields: the data form with every table's keys sorted,
        compact JSON (no name, description or source). What `digest` hashes."""
        return self._compiled.canonical_json()

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
        return _core.PRESET_NAMES

    @staticmethod
    def preset(name: str) -> RuleSet:
        """A shipped preset by name (see [`PRESETS`][chinese_poker.rules.PRESETS]).

        Args:
            name: The preset's name (``"maceplay"``, ``"two_four"``, ...).

        Returns:
            The preset's rule set.

        Raises:
            InvalidRulesError: An unknown name, listing the presets.
        """
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise InvalidRulesError(_core.unknown_preset_message(_short(repr(name)))) from None

    # -- derivation ----------------------------------------------------------------------

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with changes applied, validated like a new rule set. A new ``name`` starts with an
        empty description and source (they describe the rule set being renamed) unless those are
        given too.

        Args:
            **changes: Fields to change. A part may be given whole (``scoop=Scoop.multiply(3)``), as
                a mapping of the fields to change (``sweep={"multiplier": 3}``), or field by field
                with a double underscore (``naturals__declaration="auto"``).

        Returns:
            The new rule set.

        Raises:
            InvalidRulesError: An unknown field or a value the core cannot use, naming the field.
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
                grouped[part] = {**getattr(self, part).to_dict(), **grouped[part]}
        current = {name: getattr(self, name) for name in self.FIELDS}
        if "name" in grouped and grouped["name"] != self.name:
            current["description"] = current["source"] = ""
        merged = {**current, **grouped}
        if all(isinstance(merged[p], Mapping | cls) for p, cls in _PARTS.items()):
            # the whole rule set as data, compiled once; the parts not changed are kept
            compiled = _compile({k: _part_dict(v) for k, v in merged.items()})
            return RuleSet._from_checked(merged, compiled)
        # an object in a part's place: built as given, so the error names it
        for part, part_cls in _PARTS.items():
            if isinstance(merged[part], Mapping):
                merged[part] = part_cls.from_dict(merged[part])
        return RuleSet(**merged)

    # -- serialisation -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON types only); [`from_dict()`][chinese_poker.RuleSet.from_dict] rebuilds
        an equal rule set."""
        return {name: _part_dict(getattr(self, name)) for name in self.FIELDS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Builds a rule set from [`to_dict()`][chinese_poker.RuleSet.to_dict] data; missing fields
        take the defaults.

        Args:
            data: Plain data, as [`to_dict()`][chinese_poker.RuleSet.to_dict] gives it.

        Returns:
            The rule set.

        Raises:
            InvalidRulesError: An unknown field or a bad value, naming the field.
        """
        compiled = _compile(data)  # every field, its shape and its bounds, checked by the core
        return cls._from_checked(_given(data), compiled)

    @classmethod
    def _from_checked(cls, spec: dict[str, Any], compiled: _core.Rules) -> RuleSet:
        """The rule set of fields the core has just compiled (``compiled``): the parts given as
        data are built, and nothing is checked or compiled again."""
        with _checked(True):
            for part, part_cls in _PARTS.items():
                if isinstance(spec.get(part), Mapping):
                    spec[part] = part_cls(**_given(spec[part]))
        with _checked(compiled):
            return cls(**spec)

    def to_json(self, *, indent: int | None = 2) -> str:
        """The rule set as JSON: [`to_dict()`][chinese_poker.RuleSet.to_dict]'s data;
        [`from_json()`][chinese_poker.RuleSet.from_json] reads it back.

        Args:
            indent: JSON indentation (``None``: one line).

        Returns:
            The JSON text.
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> RuleSet:
        """Reads [`to_json()`][chinese_poker.RuleSet.to_json] text.

        Args:
            text: JSON text (``str`` or UTF-8 ``bytes``).

        Returns:
            The rule set.

        Raises:
            InvalidRulesError: Anything that is not a valid rule set, however malformed, saying why.
        """
        source = _text(text, "JSON")
        try:
            data = json.loads(source, object_pairs_hook=_no_duplicate_keys)
        except InvalidRulesError:
            raise
        except json.JSONDecodeError as e:
            raise InvalidRulesError(f"rule set JSON does not parse: {e}") from None
        except RecursionError:
            raise InvalidRulesError("rule set JSON is nested too deeply") from None
        except ValueError:  # Python's own limit on the digits of an int
            raise InvalidRulesError("rule set JSON does not parse: a number is too long") from None
        if not isinstance(data, Mapping):
            raise InvalidRulesError(
                f"rule set JSON must be an object (a table), got {type(data).__name__}"
            )
        return cls.from_dict(data)

    def to_toml(self) -> str:
        """TOML text; ``None`` fields (no surrender, no suit order) are left out."""
        data = {k: v for k, v in self.to_dict().items() if v is not None}
        return tomli_w.dumps(data)

    @classmethod
    def from_toml(cls, text: str | bytes) -> RuleSet:
        """Reads [`to_toml()`][chinese_poker.RuleSet.to_toml] text.

        Args:
            text: TOML text (``str`` or UTF-8 ``bytes``).

        Returns:
            The rule set.

        Raises:
            InvalidRulesError: Anything that is not a valid rule set, saying why.
        """
        source = _text(text, "TOML")
        try:
            data = tomllib.loads(source)
        except tomllib.TOMLDecodeError as e:
            raise InvalidRulesError(f"rule set TOML does not parse: {e}") from None
        except RecursionError:
            raise InvalidRulesError("rule set TOML is nested too deeply") from None
        except ValueError:  # Python's own limit on the digits of an int
            raise InvalidRulesError("rule set TOML does not parse: a number is too long") from None
        return cls.from_dict(data)

    # -- reading -------------------------------------------------------------------------

    def row_value(self, row: RowName, category: CategoryName | Category) -> int:
        """Units a row pays when won with a category (before doubling, scoop and sweep).

        Args:
            row: ``"front"``, ``"middle"`` or ``"back"``.
            category: A [`Category`][chinese_poker.Category] or its name (``"full_house"``).

        Returns:
            The units.

        Raises:
            InvalidRulesError: An unknown row or category.
        """
        return self._compiled.row_value(row, _key_name(category))


def _text(text: object, what: str) -> str:
    if isinstance(text, bytes | bytearray):
        try:
            return bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise InvalidRulesError(f"rule set {what} is not valid UTF-8: {e}") from None
    if not isinstance(text, str):
        raise InvalidRulesError(
            f"rule set {what} must be text (str or UTF-8 bytes), got {type(text).__name__}"
        )
    return text


def _part_dict(part: Any) -> Any:
    # A wrong object in a part's place is reported by __post_init__, naming the field.
    if isinstance(part, BonusTable | Scoop | Sweep | Foul | Naturals):
        return part.to_dict()
    return part


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidRulesError(f"rule set JSON: key {key!r} appears twice in one table")
        out[key] = value
    return out


# -- presets ---------------------------------------------------------------------------------
# The rule sets shipped with the package ([rules:
# Presets](https://chinese-poker.github.io/chinese-poker/rules/#presets)), each with its source.
# They are defined once, in the Rust core, with their values, description and the public rules each
# follows; they are read from there. Every preset is an ordinary RuleSet: derive house rules from
# one with ``.replace(...)``. ``chinese_poker.presets`` names this module, so
# ``cp.presets.MACEPLAY`` and ``presets.PRESETS`` read these.

PRESETS: MappingProxyType[str, RuleSet] = MappingProxyType(
    {name: RuleSet.from_json(_core.preset_json(name)) for name in _core.PRESET_NAMES}
)
"""Every shipped preset by name, in the core's order."""

SHISANSHUI_SUIT_ORDER: str = _core.SHISANSHUI_SUIT_ORDER
"""The optional Shisanshui suit order ♠ > ♥ > ♣ > ♦, for ``suit_order=``."""

# Declared for type checkers; the values are set from PRESETS below, by name.
MACEPLAY: RuleSet
POKERCLUB_SOUTH: RuleSet
POKERCLUB_NORTH: RuleSet
POKERFEVER_WESTERN: RuleSet
POKERFEVER_EASTERN: RuleSet
TWO_FOUR: RuleSet
ONE_SIX: RuleSet
SHISANSHUI: RuleSet
globals().update({name.upper(): rules for name, rules in PRESETS.items()})


def _rule_set(rules: RuleSet | str | None) -> RuleSet:
    """The rule set an API argument names: a RuleSet, a preset name or None (the default
    preset, ``_core.DEFAULT_PRESET``, as on the command line)."""
    if rules is None:
        return RuleSet.preset(_core.DEFAULT_PRESET)
    if isinstance(rules, str):
        return RuleSet.preset(rules)
    if isinstance(rules, RuleSet):
        return rules
    raise InvalidArgumentError(
        f"rules: expected a RuleSet, a preset name or None, got {type(rules).__name__}"
    )
