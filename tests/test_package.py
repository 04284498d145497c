"""The package as a user meets it: README examples, the command line, the public surface."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import chinese_poker as cp
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def readme_python_blocks() -> list[tuple[int, str]]:
    """Every fenced ```python block of the README, with the line it starts on."""
    text = README.read_text(encoding="utf-8")
    blocks = []
    for match in re.finditer(r"^```python[^\n]*\n(.*?)^```", text, flags=re.S | re.M):
        line = text.count("\n", 0, match.start()) + 1
        blocks.append((line, match.group(1)))
    return blocks


def test_readme_has_python_examples() -> None:
    assert len(readme_python_blocks()) >= 2


@pytest.mark.parametrize("block", readme_python_blocks(), ids=lambda b: f"README.md line {b[0]}")
def test_readme_example_runs(block: tuple[int, str]) -> None:
    """Each block runs on its own, so each must be self-contained."""
    line, source = block
    code = compile("\n" * line + source, str(README), "exec")
    exec(code, {"__name__": f"readme_line_{line}"})


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
