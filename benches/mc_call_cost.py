"""What a Monte Carlo call costs beside its samples: ``Solver.solve`` with ``MonteCarlo`` (16
candidates, no racing, so that every call draws exactly the samples it is given) timed at two
sample counts on the same hands, with one thread and with the default (a pool of one thread per
CPU). A sample's cost is the difference of the two counts' times over the difference of the
counts; the fixed cost of a call is the smaller count's time less its samples at that cost.

Each count is timed ``--repeats`` times in one process, in turn, and the medians are kept; every
call is checked to give the value it gave the first time. Part of ``make bench``; ``python
benches/mc_call_cost.py [--hands 40] [--samples 100 1000]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import chinese_poker as cp
import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--samples", nargs=2, type=int, default=[100, 1000], metavar=("FEW", "MANY"))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--presets", nargs="+", default=["two_four", "maceplay"])
    ap.add_argument("--players", nargs="+", type=int, default=[2, 4])
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    few, many = args.samples
    if not 0 < few < many:
        ap.error("--samples: two counts, the first below the second")
    rng = np.random.default_rng(args.seed)
    hands = [[int(c) for c in rng.permutation(52)[:13]] for _ in range(args.hands)]
    print(
        f"Monte Carlo per call, {args.hands} random hands, 16 candidates, no racing, medians of "
        f"{args.repeats} rounds; fixed = the {few}-sample call less {few} samples"
    )
    print(
        f"| preset | players | threads | {few} samples µs | {many} samples µs | "
        "a sample µs | fixed µs |"
    )
    print("|---|---:|---|---:|---:|---:|---:|")
    for preset in args.presets:
        for players in args.players:
            for threads in (1, None):
                solvers = {
                    n: cp.Solver(
                        preset,
                        players,
                        cp.MonteCarlo(samples=n, seed=1, threads=threads, confidence=0),
                    )
                    for n in (few, many)
                }
                values = {n: [s.solve(h).value for h in hands] for n, s in solvers.items()}
                seconds: dict[int, list[float]] = {few: [], many: []}
                for _ in range(args.repeats):
                    for n, solver in solvers.items():
                        start = time.perf_counter()
                        got = [solver.solve(h).value for h in hands]
                        seconds[n].append((time.perf_counter() - start) / len(hands))
                        assert got == values[n], (preset, players, threads, n)
                t_few, t_many = (statistics.median(seconds[n]) * 1e6 for n in (few, many))
                per = (t_many - t_few) / (many - few)
                print(
                    f"| {preset} | {players} | {threads or 'all'} | {t_few:.0f} | {t_many:.0f} "
                    f"| {per:.2f} | {t_few - few * per:.0f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
