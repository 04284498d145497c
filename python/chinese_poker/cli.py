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


def demo(players: int, seed: int | None) -> None:
    for seat, hand in enumerate(deal(players, seed), start=1):
        print(f"Player {seat}: {' '.join(c.pretty() for c in hand)}")
        for name, row in zip(("front", "middle", "back"), greedy_setting(hand), strict=True):
            print(f"  {name:<7}{_row(row, evaluate(row))}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="chinese-poker", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    p_demo = sub.add_parser("demo", help="deal a round and show each hand's rows")
    p_demo.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    p_demo.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    if args.command in (None, "demo"):
        demo(getattr(args, "players", 4), getattr(args, "seed", None))
        return 0
    parser.error(f"unknown command {args.command}")  # pragma: no cover
    return 2


if __name__ == "__main__":
    sys.exit(main())
