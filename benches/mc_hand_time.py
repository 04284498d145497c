"""The default ``MonteCarlo()``'s time per hand against a reference commit's wheel, side by side
in one process: what a change of its racing rule or default budget costs a user.

Both wheels are loaded at once (the reference copied and imported as
``chinese_poker_reference``, as ``compare_wheel.py --together`` does) and each solves the same
hands with its own default ``MonteCarlo(threads=1)`` and its own shipped tables, chunk by chunk,
which wheel goes first alternating, so that other work on the machine falls on both sides
alike. Each round gives one time per hand for each side; the table shows the medians over
``--rounds``, their ratio, and the samples each drew per hand (mean and median), which say where
the time went. Part of ``make bench``; ``python benches/mc_hand_time.py [--ref main]
[--ref-path DIR] [--hands 40] [--rounds 5] [--presets two_four maceplay] [--players 2 4]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
from compare_wheel import _import_reference, add_reference_args, reference_package


def _hands(n: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return [[int(c) for c in rng.permutation(52)[:13]] for _ in range(n)]


def compare(
    ref: Any, hands: list[list[int]], preset: str, players: int, rounds: int, chunk: int
) -> dict[str, Any]:
    """Medians over ``rounds`` of each side's seconds per hand, and its samples per hand."""
    sides = [mod.Solver(preset, players, mod.MonteCarlo(threads=1)) for mod in (ref, cp)]
    samples = [[s.solve(h).samples for h in hands] for s in sides]  # also loads the tables
    per_hand: list[list[float]] = [[], []]
    for _ in range(rounds):
        spent = [0.0, 0.0]
        for c, start in enumerate(range(0, len(hands), chunk)):
            part = hands[start : start + chunk]
            for i in (0, 1) if c % 2 == 0 else (1, 0):
                t = time.perf_counter()
                for h in part:
                    sides[i].solve(h)
                spent[i] += time.perf_counter() - t
        for i in (0, 1):
            per_hand[i].append(spent[i] / len(hands))
    ref_s, cur_s = (statistics.median(p) for p in per_hand)
    return {
        "ref_ms": ref_s * 1e3,
        "cur_ms": cur_s * 1e3,
        "ratio": cur_s / ref_s,
        "samples": [(float(np.mean(s)), float(np.median(s))) for s in samples],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_reference_args(ap, "main")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=5, help="hands each side solves in turn")
    ap.add_argument("--presets", nargs="+", default=["two_four", "maceplay"])
    ap.add_argument("--players", nargs="+", type=int, default=[2, 4])
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    ref_pkg, label = reference_package(args)
    hands = _hands(args.hands, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        ref = _import_reference(ref_pkg, Path(tmp))
        print(
            f"Default MonteCarlo(threads=1) per hand, {label} against this checkout, "
            f"{args.hands} random hands (seed {args.seed}), medians of {args.rounds} rounds, "
            "each wheel with its own shipped tables"
        )
        print(
            "| preset | players | ref ms/hand | current ms/hand | current / ref | "
            "ref samples (mean, median) | current samples (mean, median) |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        for preset in args.presets:
            for players in args.players:
                r = compare(ref, hands, preset, players, args.rounds, args.chunk)
                (rm, rmed), (cm, cmed) = r["samples"]
                print(
                    f"| {preset} | {players} | {r['ref_ms']:.2f} | {r['cur_ms']:.2f} | "
                    f"{r['ratio']:.2f} | {rm:.0f}, {rmed:.0f} | {cm:.0f}, {cmed:.0f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
