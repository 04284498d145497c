"""benches/serve_load.py runs end to end at a tiny size (its real run is minutes long; it sends
load to 127.0.0.1 only) and prints its tables and the budgets of issue 18."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

BENCH = Path(__file__).resolve().parents[1] / "benches" / "serve_load.py"


def test_serve_load_runs_and_reports_every_budget() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--requests", "20", "--seconds", "5", "--big-requests", "2",
         "--soak", "2", "--stdio-lines", "10"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for text in ("1 hand, concurrency 64 |", "256 hands, detail decision", "stdio, 1-hand lines",
                 "single-hand p50 over in-process", "of solve_batch (budget 70%)",
                 "soak: 0 errors"):  # fmt: skip
        assert text in out, out
