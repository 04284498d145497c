"""The one check of a whole-number argument on the Python side (arguments that go straight
to the extension are checked there, by `int_arg` in `src/python/mod.rs`)."""

from __future__ import annotations

import operator
from typing import SupportsIndex

from .exceptions import InvalidArgumentError, InvalidTypeError


def whole(name: str, value: object, low: int, high: int, *, field: bool = False) -> int:
    """``value`` as an ``int`` in ``low..=high``. Python ints and numpy integers count; a
    ``bool`` or a ``float`` is a mistake, not a number (``InvalidTypeError``); a number out of
    range is an ``InvalidArgumentError``. Both name it: ``argument "name"`` for a call's
    argument, plain ``name`` for a field of a value object (``field=True``)."""
    label = name if field else f'argument "{name}"'
    expected = f"{label}: expected an int from {low} to {high}"
    if isinstance(value, bool | float) or not isinstance(value, SupportsIndex):
        raise InvalidTypeError(f"{expected}, got {type(value).__name__}")
    n = operator.index(value)
    if not low <= n <= high:
        raise InvalidArgumentError(f"{expected}, got {n}")
    return n
