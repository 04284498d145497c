"""The command line, ``chinese-poker`` (also ``python -m chinese_poker``): solve hands, settle a
round, run and plot simulations, duel two policies, read and write rule sets, train strategy
tables, play a demo round, serve the solver to other programs (HTTP or JSON lines).
``chinese-poker COMMAND --help`` shows each command with an example.

Seats are numbered from 0 everywhere (P0, P1, ...), as in the Python API and in
``Settlement.explain()``. ``--json`` prints results as JSON for scripts. Cards are drawn with
suit symbols, hearts and diamonds in red when standard output is a terminal (``--color`` and
the ``NO_COLOR`` convention override that).

A bad argument is one line on stderr naming the argument and what it accepts, with exit code 2,
before any long work starts; no traceback reaches the user (an internal error is one line too,
with exit code 1; ``CHINESE_POKER_DEBUG=1`` shows its traceback). Output or input that fails (a
full disk, a closed standard stream, a simulation directory another process is writing) exits
with 74; a reader that leaves a pipe early (``| head``) with 0. Ctrl-C exits with 130.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence

from .. import _core
from ..exceptions import ChinesePokerError, OutputError
from . import demo, duel, rules, serve, settle, simulate, solve, tables
from ._options import Parser, plain, shared
from ._shared import (
    EXIT_INTERRUPTED,
    EXIT_IO,
    EXIT_USAGE,
    PROG,
    CliError,
    open_streams,
    safe_stdout,
    say,
    silence_stdout,
)
from ._shared import _Style as _Style
from ._shared import paint as paint

__all__ = ["build_parser", "main"]

# One module per command, each registering its own parser and options: listed in the order
# `chinese-poker --help` shows them.
COMMANDS = (solve, settle, simulate, duel, rules, tables, demo, serve)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description=plain(__doc__ or ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog='examples:\n  chinese-poker solve "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"\n'
        "  chinese-poker COMMAND --help",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {_core.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    options = shared()
    for command in COMMANDS:
        command.register(sub, options)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    open_streams()
    safe_stdout()
    parser = build_parser()
    args = parser.parse_args(argv)
    _Style.setup(getattr(args, "color", "auto"))
    prog = f"{PROG} {args.command}"

    def show_warning(message: Warning | str, *_: object, **__: object) -> None:
        # a warning is news for the user, not for a developer: one line, no source location
        say(f"{prog}: warning: {message}")

    shown, warnings.showwarning = warnings.showwarning, show_warning
    try:
        args.run(args)
        sys.stdout.flush()  # a full disk or a closed stream fails here, not at exit
    except CliError as e:
        say(f"{prog}: error: {e}")
        return EXIT_USAGE
    except OutputError as e:
        say(f"{prog}: error: {e}")
        return EXIT_IO
    except ChinesePokerError as e:
        # anything the checks above did not catch first is still one line, never a traceback
        say(f"{prog}: error: {e}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        say(f"{prog}: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `chinese-poker ... | head`: the reader left; say nothing more
        silence_stdout()
        return 0
    except (OSError, ValueError) as e:
        if isinstance(e, ValueError) and "closed file" not in str(e):
            return _internal(prog, e)
        # a full disk, a closed stream: the output is lost, and the exit code says so
        silence_stdout()
        say(f"{prog}: error: {e}")
        return EXIT_IO
    except Exception as e:
        return _internal(prog, e)
    finally:
        warnings.showwarning = shown  # main() may be called from Python, e.g. by tests
    return 0


def _internal(prog: str, e: Exception) -> int:
    if os.environ.get("CHINESE_POKER_DEBUG"):
        raise e
    # a bug, not a bad argument: still one line, and how to see the whole story
    say(
        f"{prog}: internal error: {type(e).__name__}: {e} (please report it; set "
        "CHINESE_POKER_DEBUG=1 for the traceback)"
    )
    return 1
