"""Enumerations shared by the Python API and the extension."""

from __future__ import annotations

from enum import IntEnum
from typing import Literal

__all__ = ["Category", "Wheel"]

Wheel = Literal["low", "second"]
"""Where A-2-3-4-5 ranks: ``"low"`` (lowest straight) or ``"second"`` (just under 10-J-Q-K-A)."""


class Category(IntEnum):
    """Hand categories, weakest first. A front row is only HIGH_CARD, PAIR or TRIPS."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """Plain-words name, e.g. ``"full house"``."""
        return (
            self.name.lower()
            .replace("_", " ")
            .replace("trips", "three of a kind")
            .replace("quads", "four of a kind")
        )
