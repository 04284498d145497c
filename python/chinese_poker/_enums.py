"""Enumerations shared by the Python API and the extension.

``Category`` is made by the Rust core (``_core.Category``, an ``IntEnum`` built from the core's
category names and labels), so Python keeps no list of its own; ``_core.pyi`` declares its
members for type checkers and ``make lint`` (stubtest) checks that declaration against it.
"""

from __future__ import annotations

from ._core import Category

__all__ = ["Category", "Wheel"]

Wheel = str
"""Where A-2-3-4-5 ranks: one of ``_core.CHOICES["wheel"]``, ``"low"`` (lowest straight) or
``"second"`` (just under 10-J-Q-K-A)."""
