"""strategy tables of the table objective: train them, install them where every command finds
them, list those installed

Tables are found for a rule set and table size, in order: a --tables FILE given to the command;
the user tables directory ($CHINESE_POKER_TABLES, else the platform's user data directory), where
--install puts them; the shipped tables; and only then, with a warning, the plain tables of the
rule set's wheel. Every result names the tables it played: their source (file, installed,
shipped or fallback) and the digest of their content. Installing tables that would replace a
shipped preset's (a rule set copied from a preset and not yet edited scores as the preset does)
needs --replace-shipped.

Examples:
    chinese-poker tables train --rules house.toml --players 4 --install
    chinese-poker tables train --rules maceplay --players 4 --out maceplay-4p.npz
    chinese-poker tables install maceplay-4p.npz
    chinese-poker tables list
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path
from typing import Any

from .. import _core
from ..exceptions import ChinesePokerError
from ._options import PLAYERS, SEED, THREADS, Shared, command, int_arg
from ._shared import blame, fail, load_rules, out, out_json, table

_TRAIN = """build outcome tables by self-play, for one rule set and table size or every preset at
2-4 players (--all)

The log names each phase and its own figure: each fictitious-play iteration's largest move of a
row distribution (it stops below the tolerance); with --improve-hands, the improvement phase's
gain (Monte Carlo's values of the plays the refitted tables choose, on the hands fitted and on
those held out) and whether it was kept; then each calibration step's move of the calibration
map in points and the worst decile gap of the map it started from. --start FILE begins from
those tables instead of fictitious play.

Examples:
    chinese-poker tables train --rules house.toml --players 4 --install
    chinese-poker tables train --rules maceplay --players 4 --seed 0 --out m4.npz
    chinese-poker tables train --rules maceplay --players 4 --start m4.npz --improve-hands 9000
    chinese-poker tables train --all --out python/chinese_poker/data
"""

_INSTALL = """install a tables file in the user tables directory, where every command and the Python
API find it for the rule set and table size it was trained for

Examples:
    chinese-poker tables install house-4p.npz
"""

_LIST = """the tables installed in the user tables directory: rule set, table size, file, and
the shipped tables each replaces

Examples:
    chinese-poker tables list
    chinese-poker tables list --json
"""


def register(sub: Any, shared: Shared) -> None:
    from ..strategy_tables import (
        DEFAULT_DEALS,
        IMPROVE_HANDS,
        IMPROVE_SAMPLES,
        MAX_DEALS,
        MAX_IMPROVE_HANDS,
    )

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
    q.add_argument(
        "--start",
        metavar="FILE",
        default=None,
        help="begin from these tables (for the same rule set and table size) instead of "
        "fictitious play",
    )
    q.add_argument(
        "--improve-hands",
        type=int_arg(f"a number of hands from 0 to {MAX_IMPROVE_HANDS:,}", 0, MAX_IMPROVE_HANDS),
        default=0,
        help="hands the improvement phase values by Monte Carlo (default 0: no such phase; "
        f"the shipped tables used {IMPROVE_HANDS:,})",
    )
    q.add_argument(
        "--improve-samples",
        type=int_arg(f"a number of samples from 2 to {_core.MAX_SAMPLES:,}", 2, _core.MAX_SAMPLES),
        default=IMPROVE_SAMPLES,
        help=f"Monte Carlo samples per hand of the improvement phase (default {IMPROVE_SAMPLES:,})",
    )
    q.add_argument(
        "--out",
        default=None,
        help="output .npz (default RULES-Np.npz; with --install, only if given; a directory "
        "with --all)",
    )
    q.add_argument(
        "--install",
        action="store_true",
        help="install the tables in the user tables directory (see chinese-poker tables --help)",
    )
    add_replace_shipped(q)
    q.add_argument("--all", action="store_true", help="every preset at 2-4 players, with an index")
    q.add_argument(
        "--resume",
        action="store_true",
        help="with --all: keep the files already trained with the same seed and deals",
    )
    q.set_defaults(run=run)
    q = command(tables_sub, "install", _INSTALL, [shared.common, shared.as_json])
    q.add_argument("file", metavar="FILE", help="a tables file (.npz)")
    add_replace_shipped(q)
    q.set_defaults(run=run_install)
    q = command(tables_sub, "list", _LIST, [shared.common, shared.as_json])
    q.set_defaults(run=run_list)


def add_replace_shipped(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--replace-shipped",
        action="store_true",
        help="install tables whose rule set scores as a shipped preset does, replacing that "
        "preset's shipped tables for every solve (refused without it)",
    )


def run(args: argparse.Namespace) -> None:
    from ..strategy_tables import (
        DEFAULT_DEALS,
        check_writable,
        progress_text,
        train_all,
        train_tables,
    )

    deals = DEFAULT_DEALS if args.deals is None else args.deals
    if args.all:
        if args.rules is not None or args.players is not None:
            fail("--all", "trains every preset at 2-4 players; drop --rules and --players")
        if args.install:
            fail("--install", "installs one rule set's tables; --all writes a tables directory")
        if args.start is not None or args.improve_hands:
            named = "--start" if args.start is not None else "--improve-hands"
            fail(named, "applies without --all")
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
    if args.replace_shipped and not args.install:
        fail("--replace-shipped", "applies with --install only")
    rules_text = args.rules or _core.DEFAULT_PRESET
    rules = load_rules(rules_text)
    stem = Path(rules_text).stem if Path(rules_text).suffix else rules_text
    players = args.players or _core.DEFAULT_PLAYERS
    # before training, which takes minutes: a bad --out fails now, not at the end (a user
    # tables directory that cannot be written fails in train_tables, before training too)
    target = None
    if args.out is not None or not args.install:
        try:
            target = check_writable(args.out or f"{stem}-{players}p.npz")
        except ChinesePokerError as e:
            fail("--out", str(e).replace('argument "out": ', ""))

    if args.start is not None:
        from ..strategy_tables import load_tables

        with blame("--start"):
            load_tables(rules, players, args.start)  # a bad file fails now, not after minutes

    def progress(phase: str, step: int, report: dict[str, Any]) -> None:
        if not args.json:
            print(progress_text(phase, step, report), flush=True)

    with warnings.catch_warnings():
        # reported below, in the summary line
        warnings.simplefilter("ignore", RuntimeWarning)
        with blame("--install", strip='argument "replace_shipped": '):
            res = train_tables(
                rules,
                players,
                args.seed,
                deals,
                target,
                args.threads,
                progress,
                install=args.install,
                replace_shipped=args.replace_shipped,
                start=args.start,
                improve_hands=args.improve_hands,
                improve_samples=args.improve_samples,
            )
    meta = res["meta"]
    if args.json:
        out_json({k: v for k, v in meta.items() if isinstance(v, str | int | float | bool)})
        return
    note = "" if meta["converged"] else "; did not converge (try more --deals)"
    summary = f" ({meta['iterations']} iterations, {meta['seconds']} s{note})"
    if target is not None:
        out(f"wrote {meta['path']}{summary}")
        summary = ""  # said once
    if args.install:
        _said_installed(meta["installed"] + summary, rules.name, players)


def _said_installed(path: str, rules: str, players: int) -> None:
    out(f"installed {path}: used for rule set {rules!r} at {players} players")


def run_install(args: argparse.Namespace) -> None:
    from ..strategy_tables import install_tables, read_tables

    with blame("FILE"):
        meta = read_tables(args.file)["meta"]
        installed = install_tables(args.file, replace_shipped=args.replace_shipped)
    if args.json:
        out_json({"installed": str(installed), "key": meta["key"]})
        return
    _said_installed(str(installed), meta.get("rules", "?"), meta.get("players", "?"))


def run_list(args: argparse.Namespace) -> None:
    from ..strategy_tables import installed_tables, user_tables_dir

    directory = user_tables_dir()
    entries = installed_tables()
    if args.json:
        out_json({"directory": str(directory), "tables": entries})
        return
    if not entries:
        out(f"no tables installed in {directory}")
        return
    out(f"tables installed in {directory}:")
    rows = [
        [
            str(e.get("rules")),
            e["file"],
            "yes" if e.get("converged") else "no",
            str(e.get("players")),
            ", ".join(e["shadows"]) or "-",
        ]
        for e in entries
    ]
    out(table(["rule set", "file", "converged", "players", "replaces shipped"], rows, right=3))
