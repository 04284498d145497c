"""The Python face of the one argument reader. Every whole-number argument an entry point takes
(counts, seeds, seats, ``threads``, ``shards``, a dealer) is read by the extension's reader,
``_core.read_int_arg`` (``crates/py/src/args.rs``), the same function the bindings use for the
arguments that go straight to them; the bounds are the core's exported constants. So every
entry point refuses the same values with the same messages: a ``bool`` or a float is an
``InvalidTypeError``, a number out of range an ``InvalidArgumentError`` stating exactly the range
enforced, numpy integers count everywhere, and the argument is named as the caller wrote it.

A number of seconds (a table's ``deadline``) is read by `seconds()`. Bankrolls are read by
``_core.read_bankrolls`` (the reader ``settle`` uses) and policies by
`chinese_poker.policies._read_policies()`.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TypeVar

import numpy as np

from . import _core
from .exceptions import ChinesePokerError, InvalidArgumentError, InvalidTypeError

E = TypeVar("E", bound=ChinesePokerError)


def whole(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an ``int`` in ``low..=high``, or the reader's error naming ``name``."""
    return _core.read_int_arg(value, name, low, high)


def seed(name: str, value: object) -> int:
    """A seed (or a round index): 0 to ``MAX_SEED``."""
    return whole(name, value, 0, _core.MAX_SEED)


def players(name: str, value: object) -> int:
    """A table size: ``MIN_PLAYERS`` to ``MAX_PLAYERS``."""
    return whole(name, value, _core.MIN_PLAYERS, _core.MAX_PLAYERS)


def rounds(name: str, value: object, low: int = 0) -> int:
    """A run's rounds or deals: ``low`` to ``MAX_ROUNDS`` (a run is played in chunks)."""
    return whole(name, value, low, _core.MAX_ROUNDS)


def dealt_rounds(name: str, value: object) -> int:
    """Rounds returned as one array: 0 to ``MAX_DEALT_ROUNDS``."""
    return whole(name, value, 0, _core.MAX_DEALT_ROUNDS)


def threads(name: str, value: object) -> int | None:
    """``None`` (all cores) or 1 to ``MAX_THREADS``."""
    return None if value is None else whole(name, value, 1, _core.MAX_THREADS)


def shards(name: str, value: object) -> int | None:
    """``None`` (the backend's default) or 1 to ``MAX_ROUNDS`` shards."""
    return None if value is None else whole(name, value, 1, _core.MAX_ROUNDS)


def seat(name: str, value: object, table_size: int) -> int:
    """A seat of a table of ``table_size``: 0 to ``table_size - 1``."""
    return whole(name, value, 0, table_size - 1)


def flag(name: str, value: object) -> bool:
    """A switch: ``True`` or ``False`` (or a numpy bool), nothing else (``InvalidTypeError``)."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise arg_error(InvalidTypeError, name, f"expected True or False, got {type(value).__name__}")


def arg_error(cls: type[E], name: str, reason: str) -> E:
    """An argument error raised in Python, worded as the core words its own (``argument
    "name": reason``) and with ``argument`` set."""
    e = cls(f'argument "{name}": {reason}')
    e.argument = name
    return e


def path(name: str, value: object) -> Path:
    """A file system path: a ``str`` or ``os.PathLike`` of text (``bytes`` are refused:
    ``InvalidTypeError``), with no NUL character and no lone surrogate, which no file system
    call accepts (``InvalidArgumentError``)."""
    if isinstance(value, bytes | bytearray) or not isinstance(value, str | os.PathLike):
        raise arg_error(
            InvalidTypeError,
            name,
            f"expected a path (str or os.PathLike), got {type(value).__name__}",
        )
    text = os.fspath(value)
    if not isinstance(text, str):
        raise arg_error(
            InvalidTypeError, name, f"expected a path of text, got {type(text).__name__}"
        )
    if "\0" in text:
        raise arg_error(InvalidArgumentError, name, "a path cannot contain a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise arg_error(
            InvalidArgumentError, name, "the path holds a lone surrogate, which is not text"
        ) from None
    return Path(text)


def number(name: str, value: object) -> float:
    """A finite real number (an ``int`` or ``float``, numpy's too; never a ``bool``): a
    ``float``, or an ``InvalidTypeError``/``InvalidArgumentError`` naming ``name``."""
    if isinstance(value, bool | np.bool_) or not isinstance(
        value, int | float | np.integer | np.floating
    ):
        raise arg_error(InvalidTypeError, name, f"expected a number, got {type(value).__name__}")
    try:
        out = float(value)
    except OverflowError:  # an int past a float's range
        out = math.inf
    if not math.isfinite(out):
        raise arg_error(InvalidArgumentError, name, f"expected a finite number, got {out}")
    return out


def seconds(name: str, value: object) -> float:
    """A duration: a finite number of seconds above 0."""
    out = number(name, value)
    if out <= 0:
        raise arg_error(InvalidArgumentError, name, f"expected seconds above 0, got {out:g}")
    return out


def renamed(error: E, name: str) -> E:
    """``error`` of a reader that named the value otherwise (the item ``bankrolls[2]`` of a
    list read to check one ``bankroll``), reworded to name ``name``, as the caller wrote it."""
    reason = str(error).split('": ', 1)[-1]
    return arg_error(type(error), name, reason)
