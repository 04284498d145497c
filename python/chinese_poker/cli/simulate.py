"""self-play rounds: progress, then each seat's mean points and their interval

Policies: {policies} (table objective, Monte Carlo, strongest back first, a random legal
setting). --out writes the rows to a simulation directory, which --resume continues after an
interruption. --plot writes points per round, expected value by row category and calibration
(with --compare: both rule sets' payoffs); needs matplotlib (pip install 'chinese-poker[plot]').
--tables applies to --rules; the --compare run uses the tables found for its own rules.
Progress is a bar on a terminal, else (a log file, a batch job) a line every 10 seconds;
--no-progress turns it off. Ctrl-C stops the run (and any run not started yet), shows what was
done and exits with 130.

Examples:
    chinese-poker simulate --rounds 10000 --players 4 --rules maceplay
    chinese-poker simulate --rounds 100000 --policy table,greedy,random,mc
        --out results --plot results.png
    chinese-poker simulate --rounds 10000000 --out big --resume
    chinese-poker simulate --rounds 5000 --compare one_six --plot cmp.png
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from collections.abc import Sequence
from typing import Any

from ..exceptions import ChinesePokerError, OutputError
from ._options import Shared, add_count, add_players, command
from ._shared import (
    POLICY_NAMES,
    TABLE_POLICIES,
    check_plot_file,
    check_policy,
    check_tables,
    fail,
    load_rules,
    out,
    out_json,
    policy,
    table,
    tables_line,
)


def register(sub: Any, shared: Shared) -> None:
    parents = [shared.common, shared.as_json, shared.rules, shared.run, shared.mc, shared.tables]
    p = command(sub, __name__, __doc__, parents)
    add_count(p, "rounds", 1000)
    add_players(p)
    p.add_argument(
        "--policy",
        default="table",
        help=f"one policy for every seat, or one per seat separated by commas: "
        f"{', '.join(POLICY_NAMES)}, or a bot, path/to/bot.py:function or module:function "
        "(default table)",
    )
    p.add_argument(
        "--out",
        default=None,
        help="write the rows to this simulation directory (finished Parquet parts and a "
        "manifest; see --resume)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run already in --out (the same options), playing only the rounds "
        "not done",
    )
    p.add_argument("--overwrite", action="store_true", help="replace a simulation already in --out")
    p.add_argument("--plot", default=None, help="write plots to this .png / .svg / .pdf")
    p.add_argument(
        "--compare",
        default=None,
        metavar="RULES",
        help="also play the same deals under these rules",
    )
    p.set_defaults(run=run)


def _names(args: argparse.Namespace) -> list[str]:
    """The CLI name of each seat's policy."""
    names = [check_policy("--policy", n.strip()) for n in args.policy.split(",")]
    if len(names) == 1:
        names *= args.players
    if len(names) != args.players:
        fail(
            "--policy",
            f"expected one policy for every seat or {args.players} comma-separated "
            f"(one per seat), got {len(names)}",
        )
    return names


def _summary_rows(run: Any, names: Sequence[str]) -> str:
    from ..display import _seat_cells

    # the seat table's cells as str(run) lays them out ("n/a" where undefined), with the
    # CLI's policy names
    rows = [
        [c if i != 1 else names[s.seat] for i, c in enumerate(_seat_cells(s))]
        for s in run.summary()
    ]
    header = ["seat", "policy", "mean", "95% CI", "scoop", "sweep", "foul", "natural", "surr."]
    return table(header, rows, right=2)


def _simulation_json(run: Any, names: Sequence[str]) -> dict[str, Any]:
    """``Simulation.to_dict()`` (how the run was made under ``provenance``), with the
    command line's names of the policies beside each seat's summary."""
    return {
        "rules": run.rules,
        "players": run.players,
        "policies": list(names),
        "seed": run.seed,
        **run.to_dict(),
        "summary": [{**dataclasses.asdict(s), "policy": names[s.seat]} for s in run.summary()],
    }


def run(args: argparse.Namespace) -> None:
    from ..simulate import simulate

    rules = load_rules(args.rules)
    other = None if args.compare is None else load_rules(args.compare, "--compare")
    names = _names(args)
    check_tables(args.tables, rules, args.players, any(n in TABLE_POLICIES for n in names))
    if args.out is None and (args.resume or args.overwrite):
        fail("--resume" if args.resume else "--overwrite", "applies with --out only")
    if args.out is not None:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            fail("--out", "writing Parquet needs pyarrow: pip install 'chinese-poker[arrow]'")
    if args.plot is not None:
        check_plot_file("--plot", args.plot)
    runs = []
    for rs, path, tables in ((rules, args.out, args.tables), (other, None, None)):
        if rs is None:
            continue
        made: dict[str, Any] = {}  # a bot named for several seats is loaded once
        for name in names:
            if name not in made:
                made[name] = policy(name, args.samples, args.time_limit, tables)
        policies = [made[name] for name in names]
        try:
            # --out is checked by simulate before it plays a round
            run = simulate(
                args.rounds,
                args.players,
                rs,
                policies,
                seed=args.seed,
                threads=args.threads,
                # a bar on a terminal, else a line every PROGRESS_LINE_SECONDS
                progress=not args.no_progress,
                out=path,
                resume=args.resume and path is not None,
                overwrite=args.overwrite and path is not None,
            )
        except ChinesePokerError as e:
            if isinstance(e, OutputError):
                raise  # exit 74: the output failed, not the arguments
            if e.argument in ("out", "resume", "overwrite"):
                fail(f"--{e.argument}", str(e).split(": ", 1)[-1])
            fail("--rules", str(e))
        runs.append(run)
        if run.interrupted:
            break  # Ctrl-C stops every run: the second is not started
    interrupted = runs[-1].interrupted
    if args.plot is not None and not interrupted:
        from .. import plots

        plots.save(plots.report(runs[0], compare=runs[1] if len(runs) > 1 else None), args.plot)
    if args.json:
        data = [_simulation_json(r, names) for r in runs]
        out_json(data[0] if len(data) == 1 else data)
        if interrupted:
            raise KeyboardInterrupt  # exit 130, after what was done is shown
        return
    for n, run in enumerate(runs):
        digest = run.provenance.rules.digest[:12]
        out(
            ("\n" if n else "")
            + f"Rule set {run.rules} ({digest}), {run.players} players, seed {run.seed}"
        )
        out(_summary_rows(run, names))
        out(tables_line([f"P{seat}" for seat in range(run.players)], run.provenance.tables))
        rate = run.rounds / run.seconds if run.seconds > 0 else math.inf
        note = f" (interrupted: {run.rounds:,} of {run.requested:,})" if run.interrupted else ""
        out(f"{run.rounds:,} rounds in {run.seconds:.1f} s, {rate:,.0f} rounds/s{note}")
        if run.parquet is not None:
            out(f"rows written to {run.parquet}")
    if interrupted:
        raise KeyboardInterrupt  # exit 130, after what was done is shown
    if args.plot is not None:
        out(f"plot written to {args.plot}")
