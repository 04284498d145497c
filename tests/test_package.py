"""The package as a user meets it: the command line, the public surface (the README and the
docs are tests/test_docs.py)."""

from __future__ import annotations

import importlib
import math
import re
import subprocess
import sys
from pathlib import Path

import chinese_poker as cp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def cli_script() -> Path:
    """The console script installed beside this interpreter (a venv need not be activated)."""
    script = Path(sys.executable).parent / "chinese-poker"
    if not script.exists():
        pytest.skip("the chinese-poker script is not installed beside this interpreter")
    return script


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)


def test_demo_command() -> None:
    first = run([str(cli_script()), "demo", "--seed", "1"])
    assert first.returncode == 0, first.stderr
    assert "P0 is dealt" in first.stdout
    assert "Traceback" not in first.stderr
    # the same seed deals the same round
    assert run([str(cli_script()), "demo", "--seed", "1"]).stdout == first.stdout


def test_python_dash_m_demo() -> None:
    result = run([sys.executable, "-m", "chinese_poker", "demo"])
    assert result.returncode == 0, result.stderr
    assert "P0 is dealt" in result.stdout


def test_cli_rejects_unknown_options() -> None:
    result = run([sys.executable, "-m", "chinese_poker", "demo", "--no-such-option"])
    assert result.returncode == 2
    assert "usage" in result.stderr.lower()


def test_public_names() -> None:
    for name in cp.__all__:
        assert hasattr(cp, name), name
    for name in ["Card", "CardSet", "HandRank", "Category", "evaluate", "evaluate_batch"]:
        assert name in cp.__all__
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", cp.__version__)
    assert (Path(cp.__file__).parent / "py.typed").exists()
    # the extension is private but importable, and its classes present as public ones
    core = importlib.import_module("chinese_poker._core")
    assert cp.Card is core.Card
    assert cp.Card.__module__ == "chinese_poker"


def test_exceptions() -> None:
    from chinese_poker import exceptions

    assert issubclass(exceptions.ChinesePokerError, Exception)
    for name in exceptions.__all__:
        cls = getattr(exceptions, name)
        assert issubclass(cls, exceptions.ChinesePokerError), name
        if name == "InvalidTypeError":  # a wrong type, not a wrong value
            assert issubclass(cls, TypeError), name
        elif name.startswith("Invalid") or name.startswith("Duplicate"):
            assert issubclass(cls, ValueError), name


def test_core_constants() -> None:
    """The limits, defaults and codes Python reads from the core, as documented."""
    from chinese_poker import _core

    front, five = _core.rank_classes("low")
    assert (_core.FRONT_CLASSES, _core.FIVE_CLASSES) == (len(front), len(five)) == (455, 7462)
    assert _core.TRAIN_DEFAULTS == {
        "deals": 20_000,
        "max_deals": 100_000_000,
        "min_iters": 3,
        "max_iters": 12,
        "tol": 0.01,
        "calibration_iters": _core.CALIBRATION_STEPS,
        "max_calibration_iters": 100,
        "calibration_hands_per_deal": _core.CALIBRATION_HANDS_PER_DEAL,
        "max_calibration_hands": 100_000_000,
        "improve_hands": 9_000,
        "max_improve_hands": 10_000_000,
        "improve_samples": 1_000,
        "improve_candidates": 16,
    }
    assert _core.MAX_BANKROLL == 2**60
    assert (_core.MIN_SAMPLES, _core.MAX_SAMPLES, _core.MAX_THREADS) == (2, 10**7, 1024)
    assert _core.STATUS_NAMES == ("played", "fouled", "natural", "surrendered")
    assert _core.CHOICE_NAMES == ("play", "declare", "surrender")
    # the two-sided 95% normal quantile
    assert abs(math.erf(_core.INTERVAL_Z / math.sqrt(2)) - 0.95) < 1e-12


def test_monte_carlo_budget_is_checked_by_the_core() -> None:
    from chinese_poker import _core
    from chinese_poker.exceptions import InvalidArgumentError, InvalidTypeError

    message = 'argument "confidence": expected 0 (no racing) or 0.5 to below 1, got 0.3'
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        cp.MonteCarlo(confidence=0.3)
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        _core.check_budget(confidence=0.3)
    for ok in (0, 0.5, 0.99):
        cp.MonteCarlo(confidence=ok)
    with pytest.raises(InvalidArgumentError, match="samples"):
        cp.MonteCarlo(samples=_core.MAX_SAMPLES + 1)
    with pytest.raises(InvalidArgumentError, match="candidates"):
        cp.MonteCarlo(candidates=_core.MAX_CANDIDATES + 1)
    with pytest.raises(InvalidTypeError, match="confidence"):
        cp.MonteCarlo(confidence="high")  # type: ignore[arg-type]
