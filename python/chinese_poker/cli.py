"""Command line: ``chinese-poker demo`` deals a round and shows every hand's rows;
``chinese-poker tables train`` builds strategy tables.

A bad argument is one line on stderr naming the argument and what it accepts, with exit code 2;
no traceback reaches the user. Ctrl-C exits with 130.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

import numpy as np

from ._core import Card, HandRank, evaluate
from .exceptions import ChinesePokerError
from .rules import RuleSet

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """argparse, with errors on one line (argparse prints the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (usage: {self.prog} --help)\n")


def _int_arg(what: str, low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {what}, got {value}")
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


def deal(players: int, seed: int | None) -> list[list[Card]]:
    """Shuffles a deck with ``seed`` and deals 13 cards to each player."""
    rng = np.random.default_rng(seed)
    deck = rng.permutation(52).astype(np.uint8)
    return [
        sorted((Card(int(c)) for c in deck[13 * p : 13 * p + 13]), reverse=True)
        for p in range(players)
    ]


def _row(cards: Sequence[Card], rank: HandRank) -> str:
    return f"{' '.join(c.pretty() for c in cards):<16} {rank.describe()}"


def demo(players: int, seed: int | None, rules: str = "maceplay") -> None:
    from .scoring import settle
    from .solver import solve

    decisions = []
    for seat, hand in enumerate(deal(players, seed), start=1):
        print(f"Player {seat}: {' '.join(c.pretty() for c in hand)}")
        sol = solve(hand, rules, players)
        decisions.append(sol.as_decision())
        if sol.decision != "play":
            print(f"  {sol.decision} {sol.natural or ''}".rstrip())
        for name, row in zip(("front", "middle", "back"), sol.setting.rows(), strict=True):
            print(f"  {name:<7}{_row(row, evaluate(row))}")
        print(f"  expected {sol.value:+.2f} points ({sol.objective})")
    print(f"Result ({rules}): {settle(decisions, rules).totals}")


def _load_rules(parser: argparse.ArgumentParser, text: str) -> tuple[RuleSet, str]:
    """A preset name, or a rule set stored as JSON / TOML; and the stem for output names."""
    path = Path(text)
    if path.suffix in (".json", ".toml"):
        try:
            data = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            parser.error(f"argument --rules: cannot read {text!r} ({reason or e})")
        try:
            rules = RuleSet.from_json(data) if path.suffix == ".json" else RuleSet.from_toml(data)
        except (ValueError, RecursionError) as e:
            # a rule set file is user data: whatever is wrong with it is one line
            parser.error(f"argument --rules: {text!r}: {e}")
        return rules, path.stem
    if text not in RuleSet.presets():
        parser.error(
            f"argument --rules: unknown preset {text!r}; expected a rule set file (.json, "
            f".toml) or one of {', '.join(RuleSet.presets())}"
        )
    return RuleSet.preset(text), text


def tables_train(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    from .tables import DEFAULT_DEALS, check_writable, train_all, train_tables

    deals = DEFAULT_DEALS if args.deals is None else args.deals
    if args.all:
        if args.rules is not None or args.players is not None:
            parser.error(
                "argument --all: trains every preset at 2-4 players; drop --rules and --players"
            )
        out = Path(args.out or "tables")
        train_all(out, seed=args.seed, deals=deals, threads=args.threads)
        print(f"wrote {out / 'tables.json'}")
        return
    rules, stem = _load_rules(parser, args.rules or "maceplay")
    players = args.players or 4
    try:
        # before training, which takes minutes: a bad --out fails now, not at the end
        target = check_writable(args.out or f"{stem}-{players}p.npz")
    except ChinesePokerError as e:
        parser.error(str(e).replace('argument "out"', "argument --out"))

    def progress(iteration: int, delta: float) -> None:
        print(f"iteration {iteration}: largest move {delta:.4f}", flush=True)

    with warnings.catch_warnings():
        # reported below, in the summary line
        warnings.simplefilter("ignore", RuntimeWarning)
        res = train_tables(rules, players, args.seed, deals, target, args.threads, progress)
    meta = res["meta"]
    note = "" if meta["converged"] else "; did not converge (try more --deals)"
    print(f"wrote {meta['path']} ({meta['iterations']} iterations, {meta['seconds']} s{note})")


def build_parser() -> argparse.ArgumentParser:
    from .tables import MAX_DEALS

    parser = _Parser(prog="chinese-poker", description=__doc__)
    seed = _int_arg("a seed from 0 to 2**64 - 1", 0, 2**64 - 1)
    sub = parser.add_subparsers(dest="command")
    p_demo = sub.add_parser("demo", help="deal a round and show each hand's rows")
    p_demo.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    p_demo.add_argument("--seed", type=seed, default=None)
    p_demo.add_argument("--rules", default="maceplay", help="preset name (default maceplay)")
    p_tables = sub.add_parser("tables", help="strategy tables of the table objective")
    tables_sub = p_tables.add_subparsers(dest="tables_command", required=True)
    p_train = tables_sub.add_parser("train", help="build outcome tables by self-play")
    p_train.add_argument(
        "--rules", default=None, help="preset name, or a rule set file (.json / .toml)"
    )
    p_train.add_argument("--players", type=int, default=None, choices=(2, 3, 4))
    p_train.add_argument("--seed", type=seed, default=0)
    p_train.add_argument(
        "--deals",
        type=_int_arg(f"a number of deals from 1 to {MAX_DEALS:,}", 1, MAX_DEALS),
        default=None,
        help="deals per iteration (default 20,000)",
    )
    p_train.add_argument(
        "--threads", type=_int_arg("a positive number of threads", 1), default=None
    )
    p_train.add_argument("--out", default=None, help="output .npz (a directory with --all)")
    p_train.add_argument(
        "--all", action="store_true", help="every preset at 2-4 players, with an index"
    )
    return parser


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.command == "tables":
        tables_train(parser, args)
        return
    rules = getattr(args, "rules", "maceplay")
    if rules not in RuleSet.presets():
        parser.error(
            f"argument --rules: unknown preset {rules!r}; expected one of "
            f"{', '.join(RuleSet.presets())}"
        )
    demo(getattr(args, "players", 4), getattr(args, "seed", None), rules)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _run(parser, args)
    except ChinesePokerError as e:
        # anything the checks above did not catch first is still one line, never a traceback
        print(f"{parser.prog}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as e:
        print(f"{parser.prog}: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
