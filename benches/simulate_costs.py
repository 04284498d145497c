"""What a simulated round costs, measured side by side in one process (``make bench`` runs it).

1. A 4-player round with table policies against its parts: 4 × ``solve_batch`` per hand plus
   one settlement in Rust (``settle_batch``), on the same hands, one thread each.
2. Two threads against one.
3. Writing the rows to a simulation directory (Parquet parts) against keeping them.
4. A Python policy's overhead: a seat played by a Python callable that replays the table
   policy's own decisions (so the results are identical, and asserted so), in a simulation and
   in a duel, against the built-in policy at that seat.
5. Optionally (``--memory``), the peak memory of a long run streamed to Parquet, sampled as it
   runs, to show that it stays flat.

Each figure is the median of ``--repeats`` interleaved runs; only ratios are comparable across
machines. Run: ``python benches/simulate_costs.py [--rounds 4000] [--memory 1000000]``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import chinese_poker as cp
import numpy as np

RULES = "maceplay"


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _medians(fns: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeats):
        for name, fn in fns.items():  # interleaved, so drift hits every figure alike
            times[name].append(_time(fn))
    return {k: statistics.median(v) for k, v in times.items()}


def round_costs(rounds: int, repeats: int) -> dict[str, float]:
    hands = cp.deal(rounds, 4, seed=1).reshape(-1, 13)
    run = cp.simulate(rounds, 4, RULES, seed=1, threads=1, progress=False)
    assert run.columns is not None
    batch = cp.solve_batch(hands, RULES, players=4, threads=1)
    assert np.array_equal(batch.settings, run.columns["setting"])
    settings = run.columns["setting"].reshape(rounds, 4, 13)
    choices = run.columns["choice"].reshape(rounds, 4)
    naturals = run.columns["declared"].reshape(rounds, 4)
    points = cp.settle_batch(settings, RULES, choices, naturals, threads=1)
    assert np.array_equal(points.reshape(-1), run.columns["points"])
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "run.parquet"
        t = _medians(
            {
                "simulate_1t": lambda: cp.simulate(
                    rounds, 4, RULES, seed=1, threads=1, progress=False
                ),
                "simulate_2t": lambda: cp.simulate(
                    rounds, 4, RULES, seed=1, threads=2, progress=False
                ),
                "simulate_parquet_1t": lambda: cp.simulate(
                    rounds, 4, RULES, seed=1, threads=1, progress=False, out=out, overwrite=True
                ),
                "solve_batch_1t": lambda: cp.solve_batch(hands, RULES, players=4, threads=1),
                "settle_1t": lambda: cp.settle_batch(settings, RULES, choices, naturals, threads=1),
            },
            repeats,
        )
    per_round = {k: v / rounds * 1e6 for k, v in t.items()}
    parts = per_round["solve_batch_1t"] + per_round["settle_1t"]
    return {
        **{f"{k} µs/round": v for k, v in per_round.items()},
        "round / (4 solves + settle)": per_round["simulate_1t"] / parts,
        "2 threads speed-up": t["simulate_1t"] / t["simulate_2t"],
        "Parquet streaming / in memory": t["simulate_parquet_1t"] / t["simulate_1t"],
    }


def replay_policy(rounds: int, players: int, seed: int) -> Callable[[np.ndarray], object]:
    """A Python policy that plays the table policy's decision for every hand of the run's
    deals: only the Python path's own cost is left to measure."""
    hands = cp.deal(rounds, players, seed=seed).reshape(-1, 13)
    batch = cp.solve_batch(hands, RULES, players=players, threads=1)
    book = {h.tobytes(): batch.decision(i) for i, h in enumerate(hands)}
    return lambda hand: book[hand.tobytes()]


def python_policy_costs(rounds: int, repeats: int) -> dict[str, float]:
    table = cp.TableEV()
    replay = replay_policy(rounds, 4, 1)
    both = cp.simulate(rounds, 4, RULES, seed=1, threads=1, progress=False)
    mixed = cp.simulate(rounds, 4, RULES, [table] * 3 + [replay], seed=1, threads=1, progress=False)
    assert both.columns is not None and mixed.columns is not None
    assert np.array_equal(both.columns["points"], mixed.columns["points"])
    duel_replay = replay_policy(rounds, 2, 1)
    plain = cp.duel(table, table, rounds, RULES, seed=1, threads=1, progress=False)
    replayed = cp.duel(table, duel_replay, rounds, RULES, seed=1, threads=1, progress=False)
    assert np.array_equal(plain.edges, replayed.edges) and replayed.same_share == 1
    t = _medians(
        {
            "built_in": lambda: cp.simulate(rounds, 4, RULES, seed=1, threads=1, progress=False),
            "python_seat": lambda: cp.simulate(
                rounds, 4, RULES, [table] * 3 + [replay], seed=1, threads=1, progress=False
            ),
            "solve_batch": lambda: cp.solve_batch(
                cp.deal(rounds, 4, seed=1).reshape(-1, 13), RULES, 4, threads=1
            ),
            "duel_built_in": lambda: cp.duel(
                table, table, rounds, RULES, seed=1, threads=1, progress=False
            ),
            "duel_python": lambda: cp.duel(
                table, duel_replay, rounds, RULES, seed=1, threads=1, progress=False
            ),
        },
        repeats,
    )
    us = {k: v / rounds * 1e6 for k, v in t.items()}
    # the Python seat skips its solve: add it back to see what the Python path itself costs
    return {
        "simulate, 4 table seats µs/round": us["built_in"],
        "simulate, 1 Python seat µs/round": us["python_seat"],
        "Python seat overhead µs/hand": us["python_seat"] - us["built_in"] + us["solve_batch"] / 4,
        "duel table vs table µs/deal": us["duel_built_in"],
        "duel table vs Python µs/deal": us["duel_python"],
        "duel Python / built-in": t["duel_python"] / t["duel_built_in"],
    }


def memory_profile(rounds: int) -> list[tuple[float, float]]:
    """(seconds, resident MiB) samples, once a second, of a long run streamed to Parquet."""
    samples: list[tuple[float, float]] = []
    stop = threading.Event()
    start = time.perf_counter()

    def rss_mib() -> float:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize() / 2**20

    def watch() -> None:
        while not stop.wait(1.0):
            samples.append((time.perf_counter() - start, rss_mib()))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    with tempfile.TemporaryDirectory() as d:
        run = cp.simulate(rounds, 4, RULES, seed=2, out=Path(d) / "long.parquet", progress=True)
        size = sum(p.stat().st_size for p in (Path(d) / "long.parquet").iterdir())
    seconds = time.perf_counter() - start
    stop.set()
    watcher.join()
    print(
        f"{run.rounds:,} rounds in {seconds:.1f} s ({run.rounds / seconds:,.0f} rounds/s), "
        f"Parquet {size / 2**20:.0f} MiB"
    )
    return samples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--memory", type=int, default=0, help="rounds of the memory run (0: skip)")
    args = ap.parse_args()
    costs = {
        **round_costs(args.rounds, args.repeats),
        **python_policy_costs(args.rounds, args.repeats),
    }
    for name, value in costs.items():
        print(f"{name:<34} {value:10.3f}")
    if args.memory:
        samples = memory_profile(args.memory)
        for at, mib in samples[:: max(1, len(samples) // 12)]:
            print(f"  {at:8.0f} s  {mib:8.1f} MiB resident")
        if samples:
            print(f"peak {max(m for _, m in samples):.1f} MiB, last {samples[-1][1]:.1f} MiB")


if __name__ == "__main__":
    main()
