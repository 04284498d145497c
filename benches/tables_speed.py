"""The speed of today's shipped tables against a commit's, side by side in one run.

The same wheel and the same hands: only the tables differ. With ``--objective table`` (the
default), ``TableEV`` in ``solve_batch`` on one thread (the table objective's bounded search
prunes by the tables' values, so new tables can cost more or less a hand); with ``--objective
mc``, the default ``MonteCarlo(threads=1)`` one hand at a time, whose race draws as many
samples as the tables' candidates take to tell apart. Each round times both, which goes first
alternating, each batch ``--repeats`` times keeping the least; the ratio of a round is the
reference's time over today's (above 1: today's tables are faster). Prints one row per preset
and table size: the median ratio over the rounds with the lowest and highest, and today's hands
per second.

Run: ``python benches/tables_speed.py [--ref e88cddc] [--objective table] [--presets all]
[--players 2 3 4] [--hands 3000] [--rounds 9]``; ``make bench`` runs it for both objectives.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import chinese_poker as cp
import numpy as np
from quality_report import _presets, ref_tables

# each objective with its defaults but one thread, so that the tables are all that differs
OBJECTIVES = {"table": cp.TableEV, "mc": lambda: cp.MonteCarlo(threads=1)}


def best_time(solver: cp.Solver, hands: np.ndarray, repeats: int) -> float:
    batch = isinstance(solver.objective, cp.TableEV)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        if batch:
            solver.solve_batch(hands, threads=1)
        else:
            for hand in hands:
                solver.solve(hand, 1)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ref", default="e88cddc", help="commit whose shipped tables to compare")
    ap.add_argument("--objective", choices=OBJECTIVES, default="table")
    ap.add_argument("--presets", default="all", help="comma-separated, or all")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    hands = np.array([rng.permutation(52)[:13] for _ in range(args.hands)], dtype=np.uint8)
    into = Path(tempfile.mkdtemp(prefix="ref-tables-"))
    how = "solve_batch" if args.objective == "table" else "MonteCarlo(threads=1), a hand a call"
    print(f"## {how}, one thread, {args.hands:,} hands: {args.ref}'s tables ÷ today's\n")
    print("| rules | players | time ratio, median (range) | today's hands/s |")
    print("|---|---:|---|---:|")
    for name in _presets(args.presets):
        for players in args.players:
            objective = OBJECTIVES[args.objective]
            ours = cp.Solver(name, players, objective())
            old = ref_tables(args.ref, name, players, into)
            theirs = cp.Solver(name, players, objective(), tables=old)
            ratios, own = [], []
            for r in range(args.rounds):
                pair = (theirs, ours) if r % 2 == 0 else (ours, theirs)
                took = {id(s): best_time(s, hands, args.repeats) for s in pair}
                ratios.append(took[id(theirs)] / took[id(ours)])
                own.append(took[id(ours)])
            print(
                f"| {name} | {players} | {statistics.median(ratios):.3f} "
                f"({min(ratios):.3f}–{max(ratios):.3f}) | "
                f"{args.hands / statistics.median(own):,.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
