"""How well the built-in policies play, as Markdown tables (the quality page, docs/quality.md).

1. Calibration of ``TableEV``: in symmetric self-play (every seat the same policy, so the mean
   realised score is exactly 0) the mean predicted value should be 0, and each decile of the
   predictions should realise what it predicts; for every preset at 2, 3 and 4 players, with
   the standard error of each decile's realised mean beside its gap.
2. Duplicate duels, each with its seed, its deals, its edge in points per hand, the paired 95%
   interval, the share of identical settings, the deals it would take to resolve the observed
   edge and its time: ``TableEV`` against the greedy baseline, and the default ``MonteCarlo()``
   against ``TableEV`` on every preset (``--duel-presets``) at 2 and 4 players
   (``--duel-players``; at 4 one ``MonteCarlo()`` seat against three ``TableEV`` seats), one
   duel a seed of ``--seeds``. With ``--tables-ref REF``, also ``TableEV()`` against the
   table objective with commit ``REF``'s shipped tables (``--tables-deals`` deals, every
   ``--duel-presets`` at every ``--duel-players``; at 4 one seat of today's tables against three
   of ``REF``'s): what the current tables gain over those they replaced.
3. Exploitability in a ``TableEV`` field: on dealt hands, every one of the table objective's
   best 16 plays valued by a large-sample Monte Carlo against ``TableEV`` opponents; the best
   response is the play with the best mean on one set of samples (``--br-samples``), valued on
   another (so that its luck does not count), and each policy's gap is the best response's value
   less the value of the play the policy chose, with its 95% interval. It is what a player who
   knew every play's value would gain over the policy at a table of ``TableEV`` opponents: the
   exploitability of ``TableEV`` by its best response (among its 16 best plays), and what
   ``MonteCarlo()`` leaves of it. Hands where a policy declares a natural or surrenders are
   left out (counted).

Run: ``python benches/quality_report.py [--calibration-rounds 1000000] [--greedy-deals 2000]
[--duel-deals 2000] [--duel-presets all] [--duel-players 2 4] [--seeds 0]
[--tables-ref e88cddc] [--tables-deals 100000] [--calibration-players 2 3 4]
[--br-hands 200] [--br-samples 20000] [--br-presets all] [--br-players 2 4]``; a count of 0
skips that part. ``make quality`` runs it at these sizes; the test suite runs it once tiny.
Deterministic for its seeds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

import chinese_poker as cp
import numpy as np

# The table objective's plays a best response chooses among (MonteCarlo()'s own candidates).
BR_CANDIDATES = cp.MonteCarlo().candidates


def _need(res: cp.DuelResult) -> str:
    if res.ci_low > 0 or res.ci_high < 0:
        return "resolved"
    return "∞" if np.isinf(res.deals_needed) else f"{res.deals_needed:,.0f}"


def duel_row(label: str, res: cp.DuelResult, seed: int, seconds: float) -> str:
    return (
        f"| {label} | {res.rules} | {res.players} | {seed} | {res.deals:,} | {res.edge:+.4f} | "
        f"[{res.ci_low:+.4f}, {res.ci_high:+.4f}] | {res.same_share:.1%} | {_need(res)} | "
        f"{seconds:.0f} s |"
    )


def _presets(names: str) -> list[str]:
    return list(cp.RuleSet.presets()) if names in ("", "all") else names.split(",")


# The shipped tables' directory, relative to the repository's root.
DATA = "python/chinese_poker/data"
ROOT = Path(__file__).resolve().parent.parent


def _git_show(ref: str, path: str) -> bytes:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{ref}:{path}"], capture_output=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"--tables-ref {ref}: {done.stderr.decode().strip()}")
    return done.stdout


def ref_tables(ref: str, preset: str, players: int, into: Path) -> Path:
    """Commit ``ref``'s shipped tables file for a preset and table size, written into ``into``."""
    index = json.loads(_git_show(ref, f"{DATA}/tables.json"))
    for entry in index["tables"]:
        if [preset, players] in entry["presets"]:
            path = into / f"{ref}-{entry['file']}"
            path.write_bytes(_git_show(ref, f"{DATA}/{entry['file']}"))
            return path
    raise SystemExit(f"--tables-ref {ref}: no shipped tables for {preset} at {players} players")


def duels(args: argparse.Namespace) -> None:
    runs = []
    if args.greedy_deals:
        runs.append(
            ("TableEV vs Greedy", cp.TableEV(), cp.Greedy(), "two_four", 2, args.greedy_deals)
        )
    if args.duel_deals:
        for name in _presets(args.duel_presets):
            for players in args.duel_players:
                vs = "TableEV" if players == 2 else f"{players - 1} TableEV"
                runs.append(
                    (f"MonteCarlo() vs {vs}", cp.MonteCarlo(), cp.TableEV(), name, players,
                     args.duel_deals)
                )  # fmt: skip
    if args.tables_ref:
        into = Path(tempfile.mkdtemp(prefix="ref-tables-"))
        for name in _presets(args.duel_presets):
            for players in args.duel_players:
                old = cp.TableEV(ref_tables(args.tables_ref, name, players, into))
                vs = f"TableEV({args.tables_ref})"
                vs = vs if players == 2 else f"{players - 1} {vs}"
                runs.append(
                    (f"TableEV() vs {vs}", cp.TableEV(), old, name, players, args.tables_deals)
                )
    if not runs:
        return
    print("## Duplicate duels (edge of A over B, points per hand)\n")
    print(
        "| A vs B | rules | players | seed | deals | edge | 95% CI | same setting "
        "| deals to resolve | time |"
    )
    print("|---|---|---:|---:|---:|---:|---|---:|---:|---:|")
    for label, a, b, rules, players, deals in runs:
        for seed in args.seeds:
            start = time.perf_counter()
            res = cp.duel(
                a, b, deals=deals, rules=rules, players=players, seed=seed, progress=args.progress
            )
            print(duel_row(label, res, seed, time.perf_counter() - start), flush=True)
    print()


def best_response_gaps(
    preset: str, players: int, hands: int, samples: int, seed: int
) -> tuple[dict[str, list[float]], int]:
    """Per policy, the best response's value less the value of the policy's play on each hand
    where every policy plays, and how many hands were left out."""
    valued = [
        cp.Solver(
            preset,
            players,
            cp.MonteCarlo(samples=samples, seed=s, confidence=0, candidates=BR_CANDIDATES),
        )
        for s in (2 * seed + 1, 2 * seed + 2)
    ]
    policies = {
        "TableEV()": cp.Solver(preset, players, cp.TableEV()),
        "MonteCarlo()": cp.Solver(preset, players, cp.MonteCarlo()),
    }
    rng = np.random.default_rng(seed)
    gaps: dict[str, list[float]] = {name: [] for name in policies}
    skipped = 0
    for _ in range(hands):
        hand = [int(c) for c in rng.permutation(52)[:13]]
        chosen = {name: s.solve(hand) for name, s in policies.items()}
        pick, value = (s.solve(hand, top_k=BR_CANDIDATES) for s in valued)
        if any(c.decision != "play" for c in (*chosen.values(), pick, value)):
            skipped += 1
            continue
        worth = {tuple(a.codes): a.value for a in value.alternatives}
        best = worth[tuple(max(pick.alternatives, key=lambda a: a.value).codes)]
        for name, sol in chosen.items():
            gaps[name].append(best - worth[tuple(sol.alternatives[0].codes)])
    return gaps, skipped


def exploitability(args: argparse.Namespace) -> None:
    print("## Exploitability in a TableEV field (points per hand)\n")
    print(
        f"On dealt hands, the table objective's best {BR_CANDIDATES} plays each valued by "
        f"Monte Carlo over {args.br_samples:,} deals of the unseen cards to TableEV opponents; "
        "the best response is chosen on one such set of deals and valued on another. Gap: its "
        "value less the value of the policy's play, mean and 95% interval over the hands; "
        "hands where a policy declares a natural or surrenders are left out.\n"
    )
    print("| rules | players | seed | hands (left out) | policy | gap | 95% CI | time |")
    print("|---|---:|---:|---|---|---:|---|---:|")
    for name in _presets(args.br_presets):
        for players in args.br_players:
            start = time.perf_counter()
            gaps, skipped = best_response_gaps(
                name, players, args.br_hands, args.br_samples, args.seeds[0]
            )
            seconds = time.perf_counter() - start
            for policy, g in gaps.items():
                x = np.asarray(g)
                mean = float(x.mean()) if len(x) else float("nan")
                half = 1.96 * float(x.std(ddof=1)) / np.sqrt(len(x)) if len(x) > 1 else np.inf
                print(
                    f"| {name} | {players} | {args.seeds[0]} | {len(x)} ({skipped}) | {policy} "
                    f"| {mean:+.4f} | [{mean - half:+.4f}, {mean + half:+.4f}] | {seconds:.0f} s |",
                    flush=True,
                )
    print()


def calibration_row(
    name: str, players: int, rounds: int, pred: np.ndarray, real: np.ndarray
) -> str:
    order = np.argsort(pred, kind="stable")
    deciles = np.array_split(order, 10)
    cells = [(pred[d].mean(), real[d].mean(), real[d].std() / np.sqrt(len(d))) for d in deciles]
    worst = max(range(10), key=lambda i: abs(cells[i][0] - cells[i][1]))
    gap = abs(cells[worst][0] - cells[worst][1])
    text = " ".join(f"{p:+.2f}/{r:+.2f}" for p, r, _ in cells)
    return (
        f"| {name} | {players} | {rounds:,} | {pred.mean():+.4f} | {real.mean():+.4f} | "
        f"{gap:.3f} ± {cells[worst][2]:.3f} | {text} |"
    )


def calibration(args: argparse.Namespace) -> None:
    print("## Calibration of TableEV in symmetric self-play\n")
    print(
        "Mean predicted and realised points per hand; the worst decile gap between prediction "
        "and realised mean, ± the standard error of that decile's realised mean; deciles of "
        "the prediction, lowest first (predicted / realised).\n"
    )
    print(
        "| rules | players | rounds | mean predicted | mean realised | worst decile gap | deciles |"
    )
    print("|---|---:|---:|---:|---:|---:|---|")
    for name in cp.RuleSet.presets():
        for players in args.calibration_players:
            run = cp.simulate(
                args.calibration_rounds, players, name, seed=args.seeds[0], progress=args.progress
            )
            assert run.columns is not None
            pred = run.columns["value"]
            real = run.columns["points"].astype(np.float64)
            print(calibration_row(name, players, run.rounds, pred, real), flush=True)
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--greedy-deals", type=int, default=2000)
    ap.add_argument("--duel-deals", type=int, default=2000, help="deals of each Monte Carlo duel")
    ap.add_argument("--duel-presets", default="all", help="comma-separated, or all")
    ap.add_argument("--duel-players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0], help="one duel a seed")
    ap.add_argument(
        "--tables-ref", default=None, help="also duel TableEV() against this commit's tables"
    )
    ap.add_argument("--tables-deals", type=int, default=100_000, help="deals of those duels")
    ap.add_argument("--br-hands", type=int, default=200)
    ap.add_argument("--br-samples", type=int, default=20_000)
    ap.add_argument("--br-presets", default="all", help="comma-separated, or all")
    ap.add_argument("--br-players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--calibration-rounds", type=int, default=1_000_000)
    ap.add_argument("--calibration-players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()
    if args.calibration_rounds:  # first: cheap, and the duels' Monte Carlo rows take long
        calibration(args)
    duels(args)
    if args.br_hands:
        exploitability(args)


if __name__ == "__main__":
    main()
