"""the best way to set 13 cards, its rows, value and the next best settings

Cards: rank 2-9, T or 10, J, Q, K, A and suit c d h s (or ♣ ♦ ♥ ♠), any case, separated by
spaces or commas. A file or standard input holds one hand per line ('#' starts a comment).
Objectives: table (expected score against the table, from the strategy tables installed or
shipped for the rules and table size, or --tables FILE; fast) or mc (Monte Carlo over sampled
deals; slower, with a standard error).

Examples:
    chinese-poker solve "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
    chinese-poker solve --file hands.txt --rules pokerclub_south --players 3 --json
    cat hands.txt | chinese-poker solve --objective mc --samples 1000
    bot | chinese-poker solve --jsonl --rules maceplay   # one JSON line per hand
    chinese-poker solve "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d" --rules house.toml
        --tables house-4p.npz
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .. import _core
from ..exceptions import ChinesePokerError
from ._options import SEED, THREADS, Shared, add_players, command, int_arg
from ._shared import (
    OBJECTIVE_NAMES,
    blame,
    bold,
    cards_text,
    check_tables,
    fail,
    load_rules,
    made_by_line,
    out,
    out_json,
)


def register(sub: Any, shared: Shared) -> None:
    parents = [shared.common, shared.as_json, shared.rules, shared.mc, shared.tables]
    p = command(sub, __name__, __doc__, parents)
    p.add_argument("hands", nargs="*", metavar="HAND", help="13 cards ('-': standard input)")
    p.add_argument("--file", help="a file of hands, one per line ('-': standard input)")
    add_players(p)
    p.add_argument("--objective", choices=OBJECTIVE_NAMES, default="table")
    p.add_argument("--seed", type=SEED, default=0, help="mc: seed (default 0)")
    p.add_argument(
        "--top", type=int_arg("a number from 1 to 100", 1, 100), default=5, help="plays listed"
    )
    p.add_argument("--threads", type=THREADS, default=None, help="mc: threads (default all)")
    p.add_argument(
        "--jsonl",
        action="store_true",
        help="read hands line by line (--file or standard input) and answer each at once with "
        "one compact JSON line; a bad line gets an error line and the stream goes on",
    )
    p.set_defaults(run=run)


def _hand_lines(args: argparse.Namespace) -> tuple[list[str], list[str], str]:
    """The hands to solve, a label for each (for messages) and the argument they came from."""
    if args.hands and args.file:
        fail("--file", "give hands as arguments or in a file, not both")
    if args.hands and args.hands != ["-"]:
        return list(args.hands), [f"hand {i + 1}" for i in range(len(args.hands))], "HAND"
    if args.file and args.file != "-":
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            fail("--file", f"cannot read {args.file!r} ({reason or e})")
        source, argument = args.file, "--file"
    else:
        if sys.stdin.isatty() and not args.hands and not args.file:
            fail("HAND", "give a hand (13 cards), --file FILE, or hands on standard input")
        argument = "--file" if args.file else "HAND"
        source = "standard input"
        try:
            buffer = getattr(sys.stdin, "buffer", None)  # None where a test swapped in text
            text = buffer.read().decode("utf-8") if buffer is not None else sys.stdin.read()
        except UnicodeDecodeError:
            fail(argument, "standard input is not UTF-8 text (one hand of 13 cards per line)")
    hands, labels = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if line:
            hands.append(line)
            labels.append(f"{source} line {number}")
    if not hands:
        fail(argument, f"no hands in {source} (one hand of 13 cards per line)")
    return hands, labels, argument


def _solver(args: argparse.Namespace) -> Any:
    from ..solver import MonteCarlo, Solver, TableEV

    rules = load_rules(args.rules)
    objective = (
        MonteCarlo(
            samples=args.samples, seed=args.seed, threads=args.threads, time_limit=args.time_limit
        )
        if args.objective == "mc"
        else TableEV()
    )
    check_tables(args.tables, rules, args.players)
    with blame("--rules"):
        return Solver(rules, args.players, objective, tables=args.tables)


def _jsonl(args: argparse.Namespace) -> None:
    """``--jsonl``: each hand answered and flushed as soon as its line is read; a line that is
    not 13 cards gets the service's error answer for its ``hand``, and the stream goes on."""
    if args.hands:
        fail("HAND", "--jsonl reads hands from --file or standard input, one per line")
    solver = _solver(args)
    stream = sys.stdin
    if args.file and args.file != "-":
        try:
            stream = open(args.file, encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as e:
            fail("--file", f"cannot read {args.file!r} ({e.strerror or e})")
    with stream:
        for number, raw in enumerate(iter(stream.readline, ""), start=1):
            hand = raw.split("#", 1)[0].strip()
            if not hand:
                continue
            error = _core.hand_error(hand, "hand")
            if error is not None:
                answer = {"line": number, **json.loads(error)}
            else:
                answer = {"hand": hand, **solver.solve(hand, args.top).to_dict()}
            print(json.dumps(answer, ensure_ascii=False, separators=(",", ":")), flush=True)


def run(args: argparse.Namespace) -> None:
    from ..solver import parse_hands

    if args.jsonl:
        return _jsonl(args)
    hands, labels, argument = _hand_lines(args)
    codes = None
    try:
        codes = parse_hands(hands)
    except ChinesePokerError as e:
        if e.line is None:
            fail(argument, str(e))
        # the error names the 0-based line of the batch; say where it came from instead
        i = e.line
        fail(argument, f"{labels[i]} ({hands[i][:40]!r}): {str(e).removeprefix(f'line {i}: ')}")
    solver = _solver(args)
    solutions = [solver.solve(row, args.top) for row in codes]
    if args.json:
        out_json(
            [
                {"hand": " ".join(str(_core.Card(int(c))) for c in row), **sol.to_dict()}
                for row, sol in zip(codes, solutions, strict=True)
            ]
        )
        return
    for n, (row, sol) in enumerate(zip(codes, solutions, strict=True)):
        if len(solutions) > 1:
            out(("\n" if n else "") + bold(f"{labels[n]}: ") + cards_text(row))
        out(sol.explain().rstrip("\n"))
    out(made_by_line(solver.rules, solver.tables))
