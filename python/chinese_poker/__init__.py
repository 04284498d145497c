"""Exact, fast 13-card Chinese Poker.

>>> import chinese_poker as cp
>>> cp.evaluate("Ks Kh Qc Jd Th").describe()
'pair of kings, kickers queen, jack, ten'
"""

from __future__ import annotations

from . import exceptions
from . import rules as presets  # the presets live in `rules`; `cp.presets.MACEPLAY` reads them
from . import strategy_tables as tables  # its former name, still read by existing code
from ._core import (
    Card,
    CardSet,
    Category,
    HandRank,
    __version__,
    evaluate,
    evaluate_batch,
    parse_cards,
)
from .about import show_versions
from .duels import DuelResult, duel
from .policies import Greedy, RandomLegal
from .rules import (
    DOUBLED_BONUS,
    NO_BONUS,
    STANDARD_BONUS,
    BonusTable,
    Foul,
    Naturals,
    RuleSet,
    Scoop,
    Sweep,
    Wheel,
)
from .scoring import (
    Declare,
    NaturalMatch,
    Setting,
    Settlement,
    Surrender,
    find_naturals,
    settle,
)
from .simulate import Simulation, deal, read_simulation, settle_batch, simulate
from .solver import (
    Alternative,
    BatchSolution,
    BestResponse,
    FallbackTablesWarning,
    MonteCarlo,
    RowValues,
    Solution,
    Solver,
    TableEV,
    TablesId,
    parse_hands,
    solve,
    solve_batch,
)
from .table import RoundRecord, Table

__all__ = [
    "RoundRecord",
    "Table",
    "DuelResult",
    "Greedy",
    "RandomLegal",
    "Simulation",
    "deal",
    "duel",
    "read_simulation",
    "settle_batch",
    "simulate",
    "Alternative",
    "BatchSolution",
    "BestResponse",
    "MonteCarlo",
    "RowValues",
    "Solution",
    "Solver",
    "TableEV",
    "TablesId",
    "FallbackTablesWarning",
    "parse_hands",
    "solve",
    "solve_batch",
    "DOUBLED_BONUS",
    "NO_BONUS",
    "STANDARD_BONUS",
    "BonusTable",
    "Foul",
    "Naturals",
    "RuleSet",
    "Scoop",
    "Sweep",
    "presets",
    "tables",
    "Declare",
    "NaturalMatch",
    "Setting",
    "Settlement",
    "Surrender",
    "find_naturals",
    "settle",
    "Card",
    "CardSet",
    "Category",
    "HandRank",
    "Wheel",
    "__version__",
    "evaluate",
    "evaluate_batch",
    "exceptions",
    "parse_cards",
    "show_versions",
]
