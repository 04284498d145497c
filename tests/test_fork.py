"""Fork safety: a process forked (the Linux default of ``multiprocessing``) after the package
ran threaded work gets working thread pools of its own (``chinese_poker.parallel`` in the core
keys its pools by process id and never uses rayon's global pool, whose threads do not survive
fork). Run in a fresh interpreter with a timeout, so that a regression fails instead of hanging
the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CHILD = r"""
import multiprocessing as mp
import numpy as np
import chinese_poker as cp

def work(q):
    hands = cp.deal(64, 4, 1).reshape(-1, 13)
    sim = cp.simulate(200, 4, "maceplay", seed=3, progress=False, threads=2)
    sim_all = cp.simulate(200, 4, "maceplay", seed=3, progress=False)
    batch = cp.solve_batch(hands, "maceplay", 4, threads=2)
    rows = hands[:, :5].copy()
    ranks = cp.evaluate_batch(rows, threads=2)
    ranks_all = cp.evaluate_batch(rows)
    mc = cp.solve(hands[0], "maceplay", 2, cp.MonteCarlo(samples=256, threads=2))
    q.put((
        sim.columns["points"].tolist(), sim_all.columns["points"].tolist(),
        batch.values.tolist(), ranks.tolist(), ranks_all.tolist(), str(mc.setting),
    ))

if __name__ == "__main__":
    # the parent runs threaded work first, on every kind of pool
    q0 = mp.get_context("spawn").Queue()
    work(q0)
    want = q0.get()
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    child = ctx.Process(target=work, args=(q,), daemon=True)  # ended with this process
    child.start()
    got = q.get(timeout=60)  # a hung child: queue.Empty, and this script fails
    child.join(30)
    assert child.exitcode == 0, child.exitcode
    assert got == want
    print("fork ok", flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no fork on Windows")
def test_a_forked_child_runs_threaded_work(tmp_path: Path) -> None:
    script = tmp_path / "fork_child.py"
    script.write_text(CHILD)
    result = subprocess.run(
        [sys.executable, script], capture_output=True, text=True, timeout=150, check=False
    )
    assert result.returncode == 0 and "fork ok" in result.stdout, result.stderr[-3000:]
