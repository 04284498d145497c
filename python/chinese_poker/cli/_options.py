"""The options several commands take, each defined once here with its bounds and default (from
``_core`` where the core owns them), and the way a command's parser is made. A command module
builds its own parser with `command()`, from its docstring (the help a person reads), the
shared option groups it needs (`Shared`) and its own options."""

from __future__ import annotations

import argparse
import inspect
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from .. import _core
from ..exceptions import ChinesePokerError
from ._shared import EXIT_USAGE, POLICY_NAMES


class Parser(argparse.ArgumentParser):
    """argparse, with errors on one line (argparse prints the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (usage: {self.prog} --help)\n")


def plain(doc: str) -> str:
    """A docstring as ``--help`` shows it: reST literals (````x````) and roles (```x()```)
    become plain text, so the same text serves the API docs and the terminal."""
    doc = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", doc)
    return re.sub(r"``([^`]+)``", r"\1", doc)


def int_arg(what: str, low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, ``what`` naming it in errors."""

    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {what}, got {value}")
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


SEED = int_arg(f"a seed from 0 to {_core.MAX_SEED}", 0, _core.MAX_SEED)
THREADS = int_arg(f"a number of threads from 1 to {_core.MAX_THREADS}", 1, _core.MAX_THREADS)
SAMPLES = int_arg(
    f"a number of samples from {_core.MIN_SAMPLES} to {_core.MAX_SAMPLES:,}",
    _core.MIN_SAMPLES,
    _core.MAX_SAMPLES,
)


def _time_limit(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    try:
        _core.check_budget(time_limit=seconds)
    except ChinesePokerError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return seconds


TIME_LIMIT = _time_limit
PLAYERS = int_arg(
    f"a number of players from {_core.MIN_PLAYERS} to {_core.MAX_PLAYERS}",
    _core.MIN_PLAYERS,
    _core.MAX_PLAYERS,
)


def add_players(p: argparse.ArgumentParser, help: str = "table size") -> None:
    """The ``--players`` option, with the one default table size of every command."""
    default = _core.DEFAULT_PLAYERS
    p.add_argument("--players", type=PLAYERS, default=default, help=f"{help} (default {default})")


def add_count(p: argparse.ArgumentParser, what: str, default: int) -> None:
    """The ``--rounds`` / ``--deals`` option: how many to play, 1 to the core's ``MAX_ROUNDS``."""
    p.add_argument(
        f"--{what}",
        type=int_arg(f"a number of {what} from 1 to {_core.MAX_ROUNDS:,}", 1, _core.MAX_ROUNDS),
        default=default,
        help=f"1 to {_core.MAX_ROUNDS:,} (default {default})",
    )


@dataclass(frozen=True)
class Shared:
    """The option groups commands share, as argparse parents: ``common`` (``--color``),
    ``as_json`` (``--json``), ``rules`` (``--rules``), ``run`` (``--seed``, ``--threads``,
    ``--no-progress``), ``mc`` (``--samples`` and ``--time-limit`` of the mc policy) and
    ``tables`` (``--tables``, of the commands that solve)."""

    common: argparse.ArgumentParser
    as_json: argparse.ArgumentParser
    rules: argparse.ArgumentParser
    run: argparse.ArgumentParser
    mc: argparse.ArgumentParser
    tables: argparse.ArgumentParser


def shared() -> Shared:
    common = Parser(add_help=False)
    common.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour red suits: auto (on a terminal, unless NO_COLOR is set), always, never",
    )
    as_json = Parser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="print the results as JSON")
    rules = Parser(add_help=False)
    rules.add_argument(
        "--rules",
        default=_core.DEFAULT_PRESET,
        help=f"preset name or rule set file (.toml / .json); default {_core.DEFAULT_PRESET}",
    )
    run = Parser(add_help=False)
    run.add_argument("--seed", type=SEED, default=0, help="seed of the deals (default 0)")
    run.add_argument("--threads", type=THREADS, default=None, help="default: all cores")
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    mc = Parser(add_help=False)
    mc.add_argument(
        "--samples",
        type=SAMPLES,
        default=None,
        help=f"mc: most sampled deals per hand (default {_core.MC_SAMPLES:,}; with --time-limit "
        f"{_core.MAX_SAMPLES:,}, so that the clock decides)",
    )
    mc.add_argument(
        "--time-limit",
        type=TIME_LIMIT,
        default=None,
        metavar="SECONDS",
        help="mc: stop sampling a hand after this many seconds (results then depend on the "
        "machine's speed)",
    )
    tables = Parser(add_help=False)
    tables.add_argument(
        "--tables",
        default=None,
        metavar="FILE",
        help="the strategy tables (.npz) of the table objective and of mc's opponents, trained "
        "for --rules and --players (default: those installed for them, else the shipped ones)",
    )
    return Shared(common, as_json, rules, run, mc, tables)


def progress(args: argparse.Namespace) -> bool:
    """Whether to show a progress bar (``run`` options): a bar in a log file is noise, so it is
    shown on a terminal unless turned off."""
    try:
        terminal = sys.stderr.isatty()
    except (OSError, ValueError, AttributeError):
        terminal = False
    return not args.no_progress and terminal


def _filled(text: str, fill: dict[str, str]) -> str:
    for field, value in fill.items():
        text = text.replace(field, value)
    return text


def command(
    sub: Any,
    name: str,
    doc: str | None,
    parents: Sequence[argparse.ArgumentParser],
    **fill: object,
) -> argparse.ArgumentParser:
    """A command's (or an action's) parser, its help written once, in ``doc`` (the command
    module's docstring, or an action's): the first paragraph is the summary the command list
    shows, the paragraphs after it the details, and the indented lines after ``Examples:`` the
    examples (a line indented deeper continues the one before). ``name`` is the command (a
    module's ``__name__`` gives its last part). ``{policies}`` in the details names the policies
    the command line plays, and ``{field}`` the value of each ``fill`` keyword."""
    text, _, examples = inspect.cleandoc(doc or "").partition("\nExamples:\n")
    summary, *details = (" ".join(part.split()) for part in text.split("\n\n"))
    fields = {"{policies}": ", ".join(POLICY_NAMES)} | {f"{{{k}}}": str(v) for k, v in fill.items()}
    about = "\n\n".join(textwrap.fill(plain(_filled(d, fields)), 88) for d in details)
    shown: list[str] = []
    for line in filter(str.strip, examples.splitlines()):
        # an example runs on over lines indented deeper than the one it starts on
        if shown and len(line) - len(line.lstrip()) > 4:
            shown[-1] += " " + line.strip()
        else:
            shown.append(line.strip())
    p: argparse.ArgumentParser = sub.add_parser(
        name.rpartition(".")[2],
        help=plain(summary),
        description=plain(summary) + (f"\n\n{about}" if about else ""),
        epilog="examples:\n" + "\n".join(f"  {e}" for e in shown),
        parents=list(parents),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return p
