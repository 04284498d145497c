"""The Python boundary's speed against a reference commit's wheel, side by side in one run.

For every preset (``_core.PRESET_NAMES``) at 2 and 4 players, what a Python caller pays per
call: ``settle`` of a 4-player round (4 players only), ``Solver.solve`` and ``cp.solve`` per
hand (the default table objective, ``top_k`` 5), ``solve_batch`` per hand with one thread, and
``Solver.solve_batch`` of one hand per call (default ``threads``).
Both sides use their own shipped tables (the run checks that they set every batch hand alike,
so the tables are the same) and the same hands. Each measurement runs in a fresh process,
alternating reference and current (A B A B ...), one pair per round; within a process each
figure is the median of ``--repeats`` timed loops. A pair's ratio is reference time / current
time: above 1 the current wheel is faster.

The reference wheel is built once per commit by ``compare_wheel.build_reference`` (into
``target/ref-wheels/<sha>/``); ``--ref-path`` points at an installed ``chinese_poker`` package
instead. Run: ``python benches/compare_boundary.py [--ref 2104d42] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from compare_wheel import (
    add_reference_args,
    import_side,
    measure,
    reference_package,
    values_tie,
)

PLAYERS = (2, 4)
# What is timed, in the order reported: (key, label, unit).
MEASURES = (
    ("settle", "settle, 4 players", "call"),
    ("solver", "Solver.solve", "hand"),
    ("solve", "cp.solve", "hand"),
    ("batch", "solve_batch, threads=1", "hand"),
    ("batch1", "solve_batch of one hand", "call"),
)


def _median_seconds(fn: Callable[[], object], units: int, repeats: int) -> float:
    """Median seconds per unit of ``fn()``, which does ``units`` units of work."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) / units)
    return statistics.median(runs)


def worker(args: argparse.Namespace) -> None:
    """Every measurement of one side, in this process."""
    cp = import_side(args.package_dir)
    with np.load(args.hands_file) as z:
        hands, table = z["hands"], z["table"]
    as_lists = hands[: args.calls].tolist()
    out: dict[str, Any] = {}
    for preset in args.presets:
        for players in PLAYERS:
            name = f"{preset}|{players}"
            # the first call loads the tables: outside the timing
            batch = cp.solve_batch(hands, preset, players, threads=1)
            out[f"settings|{name}"] = np.asarray(batch.settings)
            out[f"values|{name}"] = np.asarray(batch.values)
            out[f"batch|{name}"] = _median_seconds(
                lambda p=preset, n=players: cp.solve_batch(hands, p, n, threads=1),
                len(hands),
                args.repeats,
            )
            solver = cp.Solver(preset, players)
            rows = hands[: args.calls]
            out[f"batch1|{name}"] = _median_seconds(
                lambda s=solver, r=rows: [s.solve_batch(r[i : i + 1]) for i in range(len(r))],
                len(rows),
                args.repeats,
            )
            out[f"solver|{name}"] = _median_seconds(
                lambda s=solver: [s.solve(h) for h in as_lists], len(as_lists), args.repeats
            )
            cp.solve(as_lists[0], preset, players)
            out[f"solve|{name}"] = _median_seconds(
                lambda p=preset, n=players: [cp.solve(h, p, n) for h in as_lists],
                len(as_lists),
                args.repeats,
            )
            if players == 4:
                decisions = [cp.solve(h.tolist(), preset, 4).as_decision() for h in table]
                out[f"totals|{name}"] = np.asarray(cp.settle(decisions, preset).totals)
                calls = range(args.settle_calls)
                out[f"settle|{name}"] = _median_seconds(
                    lambda d=decisions, p=preset, c=calls: [cp.settle(d, p) for _ in c],
                    len(calls),
                    args.repeats,
                )
    np.savez(args.out, **out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_reference_args(p, "2104d42")
    p.add_argument("--hands", type=int, default=4000, help="solve_batch hands")
    p.add_argument("--calls", type=int, default=400, help="hands solved one call each")
    p.add_argument("--settle-calls", type=int, default=4000)
    p.add_argument("--repeats", type=int, default=5, help="timed loops per process")
    p.add_argument("--rounds", type=int, default=5, help="reference/current pairs")
    p.add_argument("--presets", nargs="+", help="default: every preset")
    p.add_argument("--seed", type=int, default=1)
    # worker mode (one side's measurements in a fresh process)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--package-dir", default="", help=argparse.SUPPRESS)
    p.add_argument("--hands-file", help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(args)
        return
    if args.presets is None:
        from chinese_poker import _core

        args.presets = list(_core.PRESET_NAMES)
    ref_pkg, label = reference_package(args)
    rng = np.random.default_rng(args.seed)
    hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :13].astype(np.uint8)
    table = rng.permutation(52).astype(np.uint8).reshape(4, 13)  # one round's four hands
    with tempfile.TemporaryDirectory() as tmp:
        hands_file = Path(tmp) / "hands.npz"
        np.savez(hands_file, hands=hands, table=table)
        common = [
            "--hands-file", str(hands_file), "--calls", str(args.calls), "--settle-calls",
            str(args.settle_calls), "--repeats", str(args.repeats), "--presets", *args.presets,
        ]  # fmt: skip
        runs = []
        for r in range(args.rounds):
            ref = measure("ref", str(ref_pkg), common, Path(tmp) / f"ref{r}.npz", __file__)
            cur = measure("cur", "", common, Path(tmp) / f"cur{r}.npz", __file__)
            runs.append((ref, cur))
    report(args, label, runs)


def _check_same(ref: dict[str, Any], cur: dict[str, Any], name: str) -> str | None:
    """Why the two sides did not do the same work for ``name``, or ``None``."""
    same = np.all(ref[f"settings|{name}"] == cur[f"settings|{name}"], axis=1)
    tied = values_tie(ref[f"values|{name}"], cur[f"values|{name}"])
    if np.any(~same & ~tied):
        return f"{name}: {int(np.sum(~same & ~tied))} hands set differently (other tables?)"
    key = f"totals|{name}"
    if key in ref and not np.array_equal(ref[key], cur[key]):
        return f"{name}: settle totals {ref[key].tolist()} and {cur[key].tolist()}"
    return None


def report(args: argparse.Namespace, label: str, runs: list[tuple[Any, Any]]) -> None:
    print(
        f"The Python boundary against {label}: {args.rounds} pairs (reference, then current, "
        f"each in a fresh process), medians of {args.repeats} loops per process; solve_batch "
        f"on {args.hands:,} hands, solves on {args.calls:,} hands one call each, "
        f"{args.settle_calls:,} settle calls. Ratio: reference time / current time (above 1: "
        f"current faster)."
    )
    print()
    print("| measure | preset | players | reference µs | current µs | median ratio | pairs |")
    print("|---|---|---:|---:|---:|---:|---|")
    problems = []
    worst: tuple[float, str] | None = None
    for key, what, unit in MEASURES:
        for preset in args.presets:
            for players in PLAYERS:
                name = f"{preset}|{players}"
                if f"{key}|{name}" not in runs[0][0]:
                    continue
                if key == "batch":
                    problems += [w for ref, cur in runs if (w := _check_same(ref, cur, name))]
                ref_us = [float(ref[f"{key}|{name}"]) * 1e6 for ref, _ in runs]
                cur_us = [float(cur[f"{key}|{name}"]) * 1e6 for _, cur in runs]
                ratios = [r / c for r, c in zip(ref_us, cur_us, strict=True)]
                ratio = statistics.median(ratios)
                print(
                    f"| {what} (per {unit}) | {preset} | {players} | "
                    f"{statistics.median(ref_us):.2f} | {statistics.median(cur_us):.2f} | "
                    f"{ratio:.2f}x | {min(ratios):.2f} to {max(ratios):.2f} |"
                )
                if worst is None or ratio < worst[0]:
                    worst = (ratio, f"{what}, {preset} at {players} players")
    print()
    if worst is not None:
        print(f"lowest median ratio: {worst[0]:.2f}x ({worst[1]})")
    if problems:
        sys.exit("the two sides did not do the same work:\n" + "\n".join(problems[:10]))
    print("both sides set every batch hand alike and settled every round alike")


if __name__ == "__main__":
    main()
