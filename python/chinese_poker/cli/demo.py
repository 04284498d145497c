"""deal a round, solve every hand and settle it; prints the seed to replay it

Examples:
    chinese-poker demo
    chinese-poker demo --players 3 --seed 42 --rules shisanshui
"""

from __future__ import annotations

import argparse
import secrets
from typing import Any

from ._options import SEED, Shared, add_players, command
from ._shared import PROG, bold, cards_text, check_tables, load_rules, out, out_json, seat


def register(sub: Any, shared: Shared) -> None:
    p = command(
        sub, __name__, __doc__, [shared.common, shared.as_json, shared.rules, shared.tables]
    )
    add_players(p)
    p.add_argument("--seed", type=SEED, default=None, help="default: a random seed, printed")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    from ..scoring import settle
    from ..simulate import deal
    from ..solver import TableEV, solve

    rules = load_rules(args.rules)
    check_tables(args.tables, rules, args.players)
    seed = secrets.randbelow(2**32) if args.seed is None else args.seed
    hands = deal(1, args.players, seed)[0]
    objective = TableEV(args.tables)
    solutions = [solve(hand, rules, args.players, objective, top_k=1) for hand in hands]
    result = settle([s.as_decision() for s in solutions], rules)
    if args.json:
        out_json(
            {
                "seed": seed,
                "rules": rules.name,
                "hands": [cards_text(h) for h in hands],
                "solutions": [s.to_dict() for s in solutions],
                "settlement": result.to_dict(),
            }
        )
        return
    replay = f"{PROG} demo --seed {seed} --players {args.players} --rules {args.rules}"
    if args.tables is not None:
        replay += f" --tables {args.tables}"
    out(f"Seed {seed} (replay this round: {replay})")
    for i, (hand, sol) in enumerate(zip(hands, solutions, strict=True)):
        out()
        out(bold(f"{seat(i)} is dealt ") + cards_text(hand))
        # without its heading: the rule set and objective are said once above
        out(sol.explain(heading=False).rstrip("\n"))
    out()
    out(result.explain().rstrip("\n"))
