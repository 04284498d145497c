"""The rule sets shipped with the package (docs/rules.md, "Presets"), each with its source.

The presets are defined once, in the Rust core, with their values, description and the public
rules each follows (and what was reconstructed where those rules are silent); this module reads
them from there. Every preset is an ordinary :class:`~chinese_poker.rules.RuleSet`: derive house
rules from one with ``.replace(...)``. ``PRESETS`` maps each name to its rule set; each is also
a module constant named by its name in capitals (``MACEPLAY``, ``SHISANSHUI``, ...).
"""

from __future__ import annotations

from types import MappingProxyType

from . import _core
from .rules import RuleSet

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

__all__ = ["PRESETS", "SHISANSHUI_SUIT_ORDER", *(name.upper() for name in PRESETS)]
