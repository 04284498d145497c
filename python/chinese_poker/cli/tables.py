"""strategy tables of the table objective

Examples:
    chinese-poker tables train --rules maceplay --players 4 --out maceplay-4p.npz
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path
from typing import Any

from .. import _core
from ..exceptions import ChinesePokerError
from ._options import PLAYERS, SEED, THREADS, Shared, command, int_arg
from ._shared import blame, fail, load_rules, out, out_json

_TRAIN = """build outcome tables by self-play, for one rule set and table size or every preset at
2-4 players (--all)

Examples:
    chinese-poker tables train --rules maceplay --players 4 --seed 0 --out m4.npz
    chinese-poker tables train --all --out python/chinese_poker/data
"""


def register(sub: Any, shared: Shared) -> None:
    from ..strategy_tables import DEFAULT_DEALS, MAX_DEALS

    p = command(sub, __name__, __doc__, [])
    tables_sub = p.add_subparsers(dest="tables_command", required=True, metavar="ACTION")
    q = command(tables_sub, "train", _TRAIN, [shared.common, shared.as_json])
    q.add_argument("--rules", default=None, help="preset name, or a rule set file (.json / .toml)")
    q.add_argument("--players", type=PLAYERS, default=None, help="default 4")
    q.add_argument("--seed", type=SEED, default=0)
    q.add_argument(
        "--deals",
        type=int_arg(f"a number of deals from 1 to {MAX_DEALS:,}", 1, MAX_DEALS),
        default=None,
        help=f"deals per iteration, 1 to {MAX_DEALS:,} (default {DEFAULT_DEALS:,})",
    )
    q.add_argument("--threads", type=THREADS, default=None)
    q.add_argument("--out", default=None, help="output .npz (a directory with --all)")
    q.add_argument("--all", action="store_true", help="every preset at 2-4 players, with an index")
    q.add_argument(
        "--resume",
        action="store_true",
        help="with --all: keep the files already trained with the same seed and deals",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    from ..strategy_tables import DEFAULT_DEALS, check_writable, train_all, train_tables

    deals = DEFAULT_DEALS if args.deals is None else args.deals
    if args.all:
        if args.rules is not None or args.players is not None:
            fail("--all", "trains every preset at 2-4 players; drop --rules and --players")
        target_dir = Path(args.out or "tables")
        if target_dir.exists() and not target_dir.is_dir():
            fail("--out", f"{str(target_dir)!r} is a file; --all writes a directory of tables")
        # the library names its own argument (out_dir); the user wrote --out
        with blame("--out", strip='argument "out_dir": '):
            train_all(
                target_dir, seed=args.seed, deals=deals, threads=args.threads, resume=args.resume
            )
        if args.json:
            out_json({"index": str(target_dir / "tables.json")})
        else:
            out(f"wrote {target_dir / 'tables.json'}")
        return
    if args.resume:
        fail("--resume", "applies with --all only")
    rules_text = args.rules or _core.DEFAULT_PRESET
    rules = load_rules(rules_text)
    stem = Path(rules_text).stem if Path(rules_text).suffix else rules_text
    players = args.players or 4
    # before training, which takes minutes: a bad --out fails now, not at the end
    try:
        target = check_writable(args.out or f"{stem}-{players}p.npz")
    except ChinesePokerError as e:
        fail("--out", str(e).replace('argument "out": ', ""))

    def progress(iteration: int, delta: float) -> None:
        if not args.json:
            print(f"iteration {iteration}: largest move {delta:.4f}", flush=True)

    with warnings.catch_warnings():
        # reported below, in the summary line
        warnings.simplefilter("ignore", RuntimeWarning)
        res = train_tables(rules, players, args.seed, deals, target, args.threads, progress)
    meta = res["meta"]
    if args.json:
        out_json({k: v for k, v in meta.items() if isinstance(v, str | int | float | bool)})
        return
    note = "" if meta["converged"] else "; did not converge (try more --deals)"
    out(f"wrote {meta['path']} ({meta['iterations']} iterations, {meta['seconds']} s{note})")
