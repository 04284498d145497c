"""What every command shares: its errors (one line, exit code 2), its output (colour on a
terminal, JSON, a small table printer) and the arguments read the same way by several commands
(a rule set, a policy, an output file)."""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from .. import _core
from ..exceptions import ChinesePokerError
from ..rules import RuleSet

EXIT_USAGE = 2
EXIT_IO = 74
"""Output or input failed (a full disk, a closed or broken stream, a simulation directory
another process writes): sysexits' ``EX_IOERR``."""
EXIT_INTERRUPTED = 130
PROG = "chinese-poker"

# The CLI's policy names: what `simulate --policy`, `duel A B` and `solve --objective` accept.
POLICY_NAMES = ("table", "mc", "greedy", "random")
OBJECTIVE_NAMES = POLICY_NAMES[:2]  # what can value a single hand (the solver's objectives)
TABLE_POLICIES = OBJECTIVE_NAMES  # the policies that read strategy tables (--tables)


class CliError(Exception):
    """A bad argument found after parsing: printed as one line, exit code 2."""


def fail(argument: str, message: str) -> NoReturn:
    raise CliError(f"argument {argument}: {message}")


@contextlib.contextmanager
def blame(argument: str, prefix: str = "", strip: str = "") -> Iterator[None]:
    """Turns the package's input errors raised inside into one line naming ``argument``
    (``strip``: the library's own name for it, cut from the message)."""
    try:
        yield
    except ChinesePokerError as e:
        fail(argument, f"{prefix}{str(e).replace(strip, '') if strip else e}")


# -- output ------------------------------------------------------------------------------------

_RED_CARD = re.compile(r"(?:10|[2-9TJQKA])[♥♦]")


class _Style:
    """Colour for a terminal; plain text when piped, under ``NO_COLOR`` or ``--color never``."""

    on = False

    @classmethod
    def setup(cls, mode: str) -> None:
        if mode == "auto":
            try:
                terminal = sys.stdout.isatty()
            except (OSError, ValueError, AttributeError):
                terminal = False
            cls.on = terminal and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
        else:
            cls.on = mode == "always"


_SUIT_LETTERS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})


def _plain_suits() -> bool:
    """Whether standard output cannot print the suit symbols (an ASCII or Latin-1 locale,
    ``PYTHONIOENCODING=ascii``): cards are then written with suit letters (``As``)."""
    try:
        "♠♥♦♣".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return True
    return False


def open_streams() -> None:
    """Standard streams that exist: one closed when the command started (``2>&-``) is
    Python's ``None``, which would fail the first write; it writes to the null device."""
    for name in ("stdin", "stdout", "stderr"):
        if getattr(sys, name) is None:
            with contextlib.suppress(OSError):
                setattr(sys, name, open(os.devnull, "r" if name == "stdin" else "w"))  # noqa: SIM115


def say(text: str) -> None:
    """A line on stderr that never fails: a message about a failure must not fail in turn."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(text, file=sys.stderr, flush=True)


def silence_stdout() -> None:
    """Standard output to the null device, so that the interpreter's own flush at exit fails
    no more once writing to it has failed (a full disk, a reader gone)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def safe_stdout() -> None:
    """Standard output that never fails on a character it cannot encode: suits become
    letters (in `out()`) and anything else a backslash escape, instead of a
    ``UnicodeEncodeError`` half-way through the output."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="backslashreplace")


def paint(text: str) -> str:
    """``text`` with hearts and diamonds in red where colour is on (suit letters where the
    output cannot print the symbols)."""
    if _plain_suits():
        return text.translate(_SUIT_LETTERS)
    if not _Style.on:
        return text
    return _RED_CARD.sub(lambda m: f"\033[31m{m.group(0)}\033[0m", text)


def bold(text: str) -> str:
    return f"\033[1m{text}\033[0m" if _Style.on else text


def out(text: str = "") -> None:
    print(paint(text))


def _json_safe(data: Any) -> Any:
    """``data`` with every undefined or infinite number (NaN, ±inf: a figure too few rounds
    cannot give, or an edge of exactly 0) as ``null``, which JSON can carry."""
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, dict):
        return {k: _json_safe(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_json_safe(v) for v in data]
    return data


def out_json(data: Any) -> None:
    # ensure_ascii where the output cannot print the text as it is: still valid JSON
    print(json.dumps(_json_safe(data), indent=2, ensure_ascii=_plain_suits(), allow_nan=False))


def cards_text(codes: Sequence[int]) -> str:
    return " ".join(_core.Card(int(c)).pretty() for c in codes)


def seat(i: int) -> str:
    return f"P{i}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]], right: int = 1) -> str:
    """A plain text table; columns from ``right`` on are right-aligned (numbers)."""
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if i >= right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([bold(line(header)), rule, *(line(r) for r in rows)])


# -- arguments read by several commands --------------------------------------------------------


def load_rules(text: str, argument: str = "--rules") -> RuleSet:
    """A preset name, or a rule set stored as a JSON / TOML file."""
    path = Path(text)
    if path.suffix in (".json", ".toml"):
        try:
            data = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            fail(argument, f"cannot read {text!r} ({reason or e})")
        try:
            return RuleSet.from_json(data) if path.suffix == ".json" else RuleSet.from_toml(data)
        except (ValueError, RecursionError) as e:
            # a rule set file is user data: whatever is wrong with it is one line
            fail(argument, f"{text!r}: {e}")
    if text not in _core.PRESET_NAMES:
        fail(argument, _core.unknown_preset_message(repr(text), "a rule set file (.json, .toml)"))
    return RuleSet.preset(text)


BOT_FORM = "path/to/bot.py:function or module:function"


def check_policy(argument: str, name: str) -> str:
    """A policy argument as given: a built-in name, or a bot ``path.py:function`` /
    ``module:function`` (checked, and loaded, by `policy()`)."""
    if name in POLICY_NAMES or (":" in name and all(name.rpartition(":")[::2])):
        return name
    fail(
        argument,
        f"unknown policy {name!r}; expected one of {', '.join(POLICY_NAMES)} or a bot, {BOT_FORM}",
    )


def load_bot(argument: str, spec: str) -> Any:
    """Your bot on the command line: the function ``hand -> decision`` that ``spec`` names,
    ``path/to/bot.py:function`` (a Python file, loaded as a module named after it) or
    ``module:function`` (importable, e.g. from the current directory or an installed
    package). It plays as a Python callable does in `chinese_poker.simulate()`."""
    import importlib
    import importlib.util

    where, _, attr = spec.rpartition(":")
    try:
        if where.endswith(".py") or os.sep in where or "/" in where:
            path = Path(where)
            if not path.is_file():
                fail(argument, f"bot file {where!r} does not exist")
            name = re.sub(r"\W", "_", path.stem) or "bot"
            module_spec = importlib.util.spec_from_file_location(name, path)
            if module_spec is None or module_spec.loader is None:
                fail(argument, f"bot file {where!r} is not a Python file")
            module = importlib.util.module_from_spec(module_spec)
            sys.modules.setdefault(name, module)
            module_spec.loader.exec_module(module)
        else:
            if os.getcwd() not in sys.path and "" not in sys.path:
                sys.path.insert(0, os.getcwd())  # a module beside the command, as `python -m`
            module = importlib.import_module(where)
    except CliError:
        raise
    except Exception as e:  # the bot's own import failed: its error, one line
        fail(argument, f"cannot load {where!r}: {type(e).__name__}: {e}")
    found = getattr(module, attr, None)
    if found is None:
        fail(argument, f"{where!r} has no {attr!r}")
    if not callable(found) or isinstance(found, type):
        fail(argument, f"{spec!r} is not a function hand -> decision")
    return found


def policy(
    name: str,
    samples: int | None,
    time_limit: float | None,
    tables: str | None = None,
    argument: str = "--policy",
) -> Any:
    """The policy a CLI policy name stands for (``mc`` drawing at most ``samples`` deals per
    hand, for at most ``time_limit`` seconds; ``None``: the core's defaults); ``tables``: the
    ``--tables`` file of the table objective (mc's opponents' too); any other name is a bot
    (`load_bot()`), which ``argument`` names in errors."""
    from ..policies import Greedy, RandomLegal
    from ..solver import MonteCarlo, TableEV

    if name not in POLICY_NAMES:
        return load_bot(argument, check_policy(argument, name))
    if name == "table":
        return TableEV(tables)
    if name == "mc":
        return MonteCarlo(samples=samples, time_limit=time_limit, opponent_policy=TableEV(tables))
    if name == "greedy":
        return Greedy()
    return RandomLegal()


def check_tables(tables: str | None, rules: RuleSet, players: int, used: bool = True) -> None:
    """Loads the ``--tables`` file for the rule set and table size before any work (it is
    cached for the work itself), so a file that cannot be used, or was trained for other rules
    or another table size, is one line naming ``--tables``; ``used``: whether anything the
    command plays reads tables."""
    if tables is None:
        return
    if not used:
        fail(
            "--tables", f"no policy given uses strategy tables ({' and '.join(TABLE_POLICIES)} do)"
        )
    from ..strategy_tables import load_tables

    with blame("--tables"):
        load_tables(rules, players, tables)


def made_by_line(rules: RuleSet, tables: Any) -> str:
    """The line that says what made a result: the rule set (name and digest) and the strategy
    tables played (their source and digest)."""
    played = "no strategy tables" if tables is None else f"{tables.source} tables {tables.short}"
    return f"made with rule set {rules.name!r} ({rules.digest[:12]}) and {played}"


def tables_line(labels: Sequence[str], tables: Sequence[Any]) -> str:
    """Which strategy tables each seat (or each side of a duel) played, as one line."""
    played = [
        f"{label} {'-' if t is None else f'{t.source} {t.short}'}"
        for label, t in zip(labels, tables, strict=False)
    ]
    return "tables: " + ", ".join(played)


def need_matplotlib(argument: str) -> None:
    from ..plots import MISSING_MATPLOTLIB, have_matplotlib

    if not have_matplotlib():
        fail(argument, MISSING_MATPLOTLIB)


def check_out_file(argument: str, text: str, suffixes: tuple[str, ...]) -> Path:
    """Refuses an output path that cannot be written before the work that produces it."""
    path = Path(text)
    if path.suffix.lower() not in suffixes:
        fail(argument, f"expected a {' or '.join(suffixes)} file name, got {text!r}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        fail(argument, f"directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK):
        fail(argument, f"directory {str(parent)!r} is not writable")
    if path.is_dir():
        fail(argument, f"{text!r} is a directory")
    return path


def check_plot_file(argument: str, text: str) -> Path:
    """A plot's output file, refused before the run when matplotlib is missing."""
    need_matplotlib(argument)
    return check_out_file(argument, text, (".png", ".svg", ".pdf"))
