"""benches/serve_load.py and benches/serve_ratios.py run end to end at a tiny size (their real
runs are minutes long; they send load to 127.0.0.1 only) and print their tables: the budgets
of issue 18, and the three ratios of issue 43 with every answer checked against the library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


RATIOS = BENCH.with_name("serve_ratios.py")


def test_serve_ratios_runs_checks_its_answers_and_reports_three_ratios() -> None:
    done = subprocess.run(
        [sys.executable, str(RATIOS), "--rounds", "2", "--hands", "5", "--presets",
         "maceplay,two_four", "--players", "2"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| maceplay") or
            line.startswith("| two_four")]  # fmt: skip
    assert len(rows) == 2, done.stdout
    for row in rows:
        cells = row.strip("|").split("|")
        assert len(cells) == 5 and all("(" in c for c in cells[2:]), row
