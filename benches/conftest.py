"""Shared fixtures for the benchmarks, and the summary table ``make bench`` prints at the end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest


@dataclass(frozen=True)
class Row:
    """One line of the summary: median ns per hand of one evaluation path."""

    ns_per_hand: float
    group: str
    budget_ns: float | None = None


RESULTS = pytest.StashKey[dict[str, Row]]()
OVERHEADS = pytest.StashKey[dict[str, tuple[float, float, float]]]()


def random_hands(n: int, width: int, seed: int) -> np.ndarray:
    """``n`` rows of ``width`` distinct card codes (uint8), reproducible from ``seed``."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 52, size=(n, width), dtype=np.uint8)
    while True:
        ordered = np.sort(codes, axis=1)
        bad = (np.diff(ordered, axis=1) == 0).any(axis=1)
        if not bad.any():
            return codes
        codes[bad] = rng.integers(0, 52, size=(int(bad.sum()), width), dtype=np.uint8)


@pytest.fixture(scope="session")
def make_hands() -> Callable[[int, int, int], np.ndarray]:
    """``make_hands(n, width, seed)``: random rows of distinct card codes."""
    return random_hands


Recorder = Callable[..., None]


@pytest.fixture(scope="session")
def record(request: pytest.FixtureRequest) -> Recorder:
    """``record(benchmark, name, hands, group, budget_ns=None)`` stores a bench's median
    per-hand time for the summary table, when the bench was really timed."""
    results = request.config.stash.setdefault(RESULTS, {})

    def store(
        benchmark: Any, name: str, hands: int, group: str, budget_ns: float | None = None
    ) -> None:
        if benchmark.disabled or benchmark.stats is None:
            return
        results[name] = Row(benchmark.stats.stats.median / hands * 1e9, group, budget_ns)

    return store


@pytest.fixture(scope="session")
def record_overhead(request: pytest.FixtureRequest) -> Recorder:
    """``record_overhead(name, python_s, rust_s, budget_s)`` stores one line of the boundary
    table: seconds per call through Python and in the core, and the allowed difference."""
    results = request.config.stash.setdefault(OVERHEADS, {})

    def store(name: str, python_s: float, rust_s: float, budget_s: float) -> None:
        results[name] = (python_s, rust_s, budget_s)

    return store


def _write_overheads(write: Callable[[str], None], config: pytest.Config) -> None:
    rows = config.stash.get(OVERHEADS, {})
    if not rows:
        return
    write("")
    write("Python boundary: the same work through Python and in the core (µs, median)")
    write(f"{'path':<44} {'Python':>8} {'core':>8} {'diff':>8}  budget")
    for name, (python, rust, budget) in rows.items():
        diff = python - rust
        verdict = "ok" if diff <= budget else "MISSED"
        write(
            f"{name:<44} {python * 1e6:>8.2f} {rust * 1e6:>8.2f} {diff * 1e6:>8.2f}"
            f"  ≤ {budget * 1e6:g} µs {verdict}"
        )


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    _write_overheads(terminalreporter.write_line, config)
    rows = config.stash.get(RESULTS, {})
    if not rows:
        return
    write = terminalreporter.write_line
    write("")
    write("Hand evaluation, one thread (median ns per hand; lower is better)")
    for group in dict.fromkeys(r.group for r in rows.values()):
        members = {k: r for k, r in rows.items() if r.group == group}
        base = next(iter(members.values())).ns_per_hand
        write("")
        header = f"{'path':<48} {'ns/hand':>9} {'M evals/s':>10} {'× first':>8}  budget"
        write(f"-- {group}")
        write(header)
        for name, r in members.items():
            budget = ""
            if r.budget_ns is not None:
                verdict = "ok" if r.ns_per_hand <= r.budget_ns else "MISSED"
                budget = f"≤ {r.budget_ns:g} ns {verdict}"
            write(
                f"{name:<48} {r.ns_per_hand:>9.1f} {1e3 / r.ns_per_hand:>10.2f}"
                f" {r.ns_per_hand / base:>8.2f}  {budget}"
            )
