"""Command line: ``chinese-poker demo`` deals a round and shows every hand's rows."""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Sequence

import numpy as np

from ._core import Card, HandRank, evaluate, evaluate_batch


def deal(players: int, seed: int | None) -> list[list[Card]]:
    """Shuffles a deck with ``seed`` and deals 13 cards to each player."""
    rng = np.random.default_rng(seed)
    deck = rng.permutation(52).astype(np.uint8)
    return [
        sorted((Card(int(c)) for c in deck[13 * p : 13 * p + 13]), reverse=True)
        for p in range(players)
    ]


def greedy_setting(hand: Sequence[Card]) -> tuple[list[Card], list[Card], list[Card]]:
    """Best five cards to the back, best five of the rest to the middle: always legal."""

    def best_five(cards: Sequence[Card]) -> list[Card]:
        combos = list(itertools.combinations(cards, 5))
        codes = np.array([[c.code for c in combo] for combo in combos], dtype=np.uint8)
        return list(combos[int(np.argmax(evaluate_batch(codes)))])

    back = best_five(hand)
    rest = [c for c in hand if c not in back]
    middle = best_five(rest)
    front = [c for c in rest if c not in middle]
    return front, middle, back


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


def tables_train(args: argparse.Namespace) -> None:
    from .solver import DEFAULT_DEALS, train_all, train_tables

    deals = args.deals or DEFAULT_DEALS
    if args.all:
        out = args.out or "tables"
        train_all(out, seed=args.seed, deals=deals, threads=args.threads)
        print(f"wrote {out}/tables.json")
        return
    from pathlib import Path

    from .rules import RuleSet

    # a preset name, or a rule set stored as JSON / TOML
    path = Path(args.rules)
    if path.suffix in (".json", ".toml") and path.is_file():
        text = path.read_text(encoding="utf-8")
        rules = RuleSet.from_json(text) if path.suffix == ".json" else RuleSet.from_toml(text)
    else:
        rules = RuleSet.preset(args.rules)
    out = args.out or f"{path.stem}-{args.players}p.npz"

    def progress(iteration: int, delta: float) -> None:
        print(f"iteration {iteration}: largest move {delta:.4f}", flush=True)

    res = train_tables(rules, args.players, args.seed, deals, out, args.threads, progress=progress)
    print(f"wrote {out} ({res['meta']['iterations']} iterations, {res['meta']['seconds']} s)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="chinese-poker", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    p_demo = sub.add_parser("demo", help="deal a round and show each hand's rows")
    p_demo.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    p_demo.add_argument("--seed", type=int, default=None)
    p_demo.add_argument("--rules", default="maceplay", help="preset name (default maceplay)")
    p_tables = sub.add_parser("tables", help="strategy tables of the table objective")
    tables_sub = p_tables.add_subparsers(dest="tables_command", required=True)
    p_train = tables_sub.add_parser("train", help="build outcome tables by self-play")
    p_train.add_argument(
        "--rules", default="maceplay", help="preset name, or a rule set file (.json / .toml)"
    )
    p_train.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    p_train.add_argument("--seed", type=int, default=0)
    p_train.add_argument("--deals", type=int, default=None, help="deals per iteration")
    p_train.add_argument("--threads", type=int, default=None)
    p_train.add_argument("--out", default=None, help="output .npz (a directory with --all)")
    p_train.add_argument(
        "--all", action="store_true", help="every preset at 2-4 players, with an index"
    )
    args = parser.parse_args(argv)
    if args.command == "tables":
        tables_train(args)
        return 0
    if args.command in (None, "demo"):
        demo(
            getattr(args, "players", 4),
            getattr(args, "seed", None),
            getattr(args, "rules", "maceplay"),
        )
        return 0
    parser.error(f"unknown command {args.command}")  # pragma: no cover
    return 2


if __name__ == "__main__":
    sys.exit(main())
