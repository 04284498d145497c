"""What a call per hand costs over a batch: ``Solver.solve`` and ``cp.solve`` against
``solve_batch`` (one thread) on the same hands, every preset at 2 and 4 players, in one process.

The table objective's per-call target is to stay within 5 µs of the batch per hand. The three
are timed in turn ``--repeats`` times, in an order that rotates from round to round (so that
the machine's drift and the switch from one kind of call to another hit each alike), and each
gap is the median of the differences per hand. Every call's value and decision are checked
against the batch's. Part of ``make bench``; ``python benches/per_call_gap.py [--hands 400]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import chinese_poker as cp
import numpy as np
from chinese_poker import _core


def _round(
    solver: cp.Solver, codes: np.ndarray, preset: str, players: int, turn: int
) -> tuple[float, float, float]:
    """Seconds per hand of the batch, of ``Solver.solve`` and of ``cp.solve``, timed in an order
    rotated by ``turn`` (what runs first after another kind of call pays for the switch)."""
    lists = codes.tolist()

    def batch() -> None:
        solver.solve_batch(codes, threads=1)

    def per_call() -> None:
        for h in lists:
            solver.solve(h)

    def module() -> None:
        for h in lists:
            cp.solve(h, preset, players)

    seconds = [0.0, 0.0, 0.0]
    for k in range(3):
        i = (k + turn) % 3
        start = time.perf_counter()
        (batch, per_call, module)[i]()
        seconds[i] = (time.perf_counter() - start) / len(lists)
    return seconds[0], seconds[1], seconds[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--presets", nargs="+", default=list(_core.PRESET_NAMES))
    ap.add_argument("--players", nargs="+", type=int, default=[2, 4])
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    codes = np.stack([rng.permutation(52)[:13] for _ in range(args.hands)]).astype(np.uint8)
    lists = codes.tolist()
    print(
        f"per hand, {args.hands} random hands, medians of {args.repeats} rounds in one process "
        "(batch, Solver.solve and cp.solve each round, in rotating order); gap = per call - batch"
    )
    print("| preset | players | solve_batch µs | Solver.solve gap µs | cp.solve gap µs |")
    print("|---|---:|---:|---:|---:|")
    for preset in args.presets:
        for players in args.players:
            solver = cp.Solver(preset, players)
            batch = solver.solve_batch(codes, threads=1)
            calls = [solver.solve(h) for h in lists]
            assert [s.value for s in calls] == [float(v) for v in batch.values]
            assert [s.as_decision() for s in calls] == batch.decisions_list()
            assert [cp.solve(h, preset, players) for h in lists[:10]] == calls[:10]
            rounds = [_round(solver, codes, preset, players, k) for k in range(args.repeats)]
            base = statistics.median(r[0] for r in rounds)
            gap = statistics.median(r[1] - r[0] for r in rounds)
            gap_cp = statistics.median(r[2] - r[0] for r in rounds)
            print(
                f"| {preset} | {players} | {base * 1e6:.1f} | {gap * 1e6:+.1f} | "
                f"{gap_cp * 1e6:+.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
