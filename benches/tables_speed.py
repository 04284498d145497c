"""``TableEV``'s speed with today's shipped tables against a commit's, side by side in one run.

The same wheel, the same hands and ``solve_batch`` on one thread: only the tables differ (the
table objective's bounded search prunes by their values, so new tables can cost more or less a
hand). Each round times both, which goes first alternating, each batch ``--repeats`` times
keeping the least; the ratio of a round is the reference's time over today's (above 1: today's
tables are faster). Prints one row per preset and table size: the median ratio over the rounds
with the lowest and highest, and today's hands per second.

Run: ``python benches/tables_speed.py [--ref e88cddc] [--presets all] [--players 2 3 4]
[--hands 3000] [--rounds 9]``; ``make bench`` runs it.
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


def best_time(solver: cp.Solver, hands: np.ndarray, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        solver.solve_batch(hands, threads=1)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ref", default="e88cddc", help="commit whose shipped tables to compare")
    ap.add_argument("--presets", default="all", help="comma-separated, or all")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    hands = np.array([rng.permutation(52)[:13] for _ in range(args.hands)], dtype=np.uint8)
    into = Path(tempfile.mkdtemp(prefix="ref-tables-"))
    print(f"## solve_batch, one thread, {args.hands:,} hands: {args.ref}'s tables ÷ today's\n")
    print("| rules | players | time ratio, median (range) | today's hands/s |")
    print("|---|---:|---|---:|")
    for name in _presets(args.presets):
        for players in args.players:
            ours = cp.Solver(name, players, cp.TableEV())
            theirs = cp.Solver(name, players, cp.TableEV(ref_tables(args.ref, name, players, into)))
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
