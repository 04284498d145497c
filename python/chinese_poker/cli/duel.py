"""duplicate deals of policy A against B: A's edge in points per hand, with its interval

Policies: {policies}, or your own bot, a Python function hand -> decision named as
path/to/bot.py:function or module:function. Every deal is replayed with the seats rotated so
that A holds each hand once, which cancels the luck of the deal. --plot writes the running edge
and its interval over the deals.

Examples:
    chinese-poker duel table greedy --deals 2000 --rules two_four
    chinese-poker duel mc table --samples 500 --deals 300 --json
    chinese-poker duel table greedy --rules house.toml --tables house-4p.npz
    chinese-poker duel mybot.py:play table --deals 500
"""

from __future__ import annotations

import argparse
from typing import Any

from ._options import Shared, add_count, add_players, command, progress
from ._shared import (
    POLICY_NAMES,
    TABLE_POLICIES,
    blame,
    check_plot_file,
    check_policy,
    check_tables,
    load_rules,
    out,
    out_json,
    policy,
    tables_line,
)


def register(sub: Any, shared: Shared) -> None:
    parents = [shared.common, shared.as_json, shared.rules, shared.run, shared.mc, shared.tables]
    p = command(sub, __name__, __doc__, parents)
    p.add_argument("a", metavar="A", help=f"policy A: {', '.join(POLICY_NAMES)} or a bot")
    p.add_argument("b", metavar="B", help=f"policy B: {', '.join(POLICY_NAMES)} or a bot")
    add_count(p, "deals", 2000)
    add_players(p)
    p.add_argument("--plot", default=None, help="write a plot to this .png / .svg / .pdf")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    from ..duels import duel

    rules = load_rules(args.rules)
    if args.plot is not None:
        check_plot_file("--plot", args.plot)
    check_policy("A", args.a)
    check_policy("B", args.b)
    used = args.a in TABLE_POLICIES or args.b in TABLE_POLICIES
    check_tables(args.tables, rules, args.players, used)
    a, b = (
        policy(n, args.samples, args.time_limit, args.tables, arg)
        for n, arg in ((args.a, "A"), (args.b, "B"))
    )
    with blame("--rules"):
        res = duel(
            a,
            b,
            deals=args.deals,
            rules=rules,
            players=args.players,
            seed=args.seed,
            threads=args.threads,
            progress=progress(args),
        )
    if args.plot is not None:
        from .. import plots

        plots.save(plots.duel_edges(res), args.plot)
    if args.json:
        out_json(res.to_dict())
        if res.interrupted:
            raise KeyboardInterrupt  # exit 130, after the deals done are shown
        return
    out(str(res))
    out(tables_line(["A", "B"], res.provenance.tables))
    verdict = (
        f"{args.a} is better"
        if res.ci_low > 0
        else f"{args.b} is better"
        if res.ci_high < 0
        else "no resolved difference at this number of deals"
    )
    out(f"{verdict}{' (interrupted)' if res.interrupted else ''}")
    if args.plot is not None:
        out(f"plot written to {args.plot}")
    if res.interrupted:
        raise KeyboardInterrupt  # exit 130, after the deals done are shown
