"""Nothing finished is lost, measured: a simulation written to a directory is killed (SIGKILL)
or interrupted (SIGINT) at random moments, resumed each time, and at the end its rows must be
exactly those of an uninterrupted run of the same seed, read back and verified
(``read_simulation``). Prints how many cycles ran, how many resumed, and whether every run
ended identical. POSIX only (signals to a child process); ``make bench`` runs it.

    python benches/fault_resume.py --runs 12 --faults 4
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

PLAYERS, SEED = 4, 11


def command(rounds: int) -> list[str]:
    return [sys.executable, "-m", "chinese_poker", "simulate", "--rounds", str(rounds),
            "--players", str(PLAYERS), "--seed", str(SEED), "--rules", "shisanshui",
            "--policy", "table,greedy,random,table", "--no-progress"]  # fmt: skip


ROUNDS = 60_000


def play(out: Path, resume: bool, fault: int | None, after: float) -> int:
    """One run of the command; ``fault`` sent after ``after`` seconds. Its exit code."""
    args = [*command(ROUNDS), "--out", str(out), *(["--resume"] if resume else [])]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if fault is not None:
        try:
            proc.wait(timeout=after)
        except subprocess.TimeoutExpired:
            proc.send_signal(fault)
    _, err = proc.communicate(timeout=600)
    if b"Traceback" in err:
        raise SystemExit(f"a traceback: {err.decode(errors='replace')}")
    return proc.returncode


def columns(path: Path) -> dict[str, np.ndarray]:
    import chinese_poker as cp

    run = cp.read_simulation(path)
    return run.columns  # type: ignore[return-value]


def _equal(a: np.ndarray, b: np.ndarray) -> bool:
    # a seat without a value (a policy that values nothing) holds NaN, equal to itself here
    return a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=12, help="runs, each faulted then resumed")
    parser.add_argument("--faults", type=int, default=4, help="faults per run")
    parser.add_argument("--seed", type=int, default=0, help="of the fault moments")
    parser.add_argument("--rounds", type=int, default=60_000, help="rounds of each run")
    args = parser.parse_args()
    global ROUNDS
    ROUNDS = args.rounds
    if os.name != "posix":
        raise SystemExit("signals to a child process: POSIX only")
    moments = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        reference = Path(tmp) / "reference"
        start = time.perf_counter()
        assert play(reference, False, None, 0) == 0
        whole = time.perf_counter() - start
        want = columns(reference)
        identical, kills, interrupts, resumes = 0, 0, 0, 0
        for run in range(args.runs):
            out = Path(tmp) / f"run{run}"
            resume = False
            for _ in range(args.faults):
                fault = moments.choice([signal.SIGKILL, signal.SIGINT])
                code = play(out, resume, fault, moments.uniform(0.3, max(0.4, whole * 0.6)))
                resume = resume or out.exists()
                kills += fault == signal.SIGKILL
                interrupts += fault == signal.SIGINT
                if code == 0:
                    break  # finished before the fault
            for _ in range(3):  # to the end, however the last fault left it
                if play(out, out.exists(), None, 0) == 0:
                    resumes += 1
                    break
            got = columns(out)
            same = set(got) == set(want) and all(_equal(got[k], want[k]) for k in want)
            identical += same
        print(
            f"{args.runs} runs of {ROUNDS:,} rounds ({whole:.1f} s uninterrupted): "
            f"{kills} SIGKILLs and {interrupts} SIGINTs, {resumes} resumed to the end, "
            f"{identical} of {args.runs} identical to the uninterrupted run"
        )
        if identical != args.runs:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
