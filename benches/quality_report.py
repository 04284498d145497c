"""How well the built-in policies play, as Markdown tables (the README's quality report).

1. Calibration of ``TableEV``: in symmetric self-play (every seat the same policy, so the mean
   realised score is exactly 0) the mean predicted value should be 0, and each decile of the
   predictions should realise what it predicts; for every preset at 2, 3 and 4 players, with
   the standard error of each decile's realised mean beside its gap.
2. Duplicate duels, each with its edge in points per hand, the paired 95% interval, the share of
   identical settings and the deals it would take to resolve the observed edge:
   ``TableEV`` against the greedy baseline and the default ``MonteCarlo`` against ``TableEV``
   heads-up under ``two_four``, and at 4 players one default ``MonteCarlo`` seat against three
   ``TableEV`` seats (``--mc4-presets``, default every preset).

Run: ``python benches/quality_report.py [--calibration-rounds 1000000] [--greedy-deals 2000]
[--mc-deals 10000] [--mc4-deals 2000] [--mc4-presets maceplay,shisanshui] [--mc-samples 1000]``;
a count of 0 skips that part. Deterministic for ``--seed``.
"""

from __future__ import annotations

import argparse
import time

import chinese_poker as cp
import numpy as np


def _need(res: cp.DuelResult) -> str:
    if res.ci_low > 0 or res.ci_high < 0:
        return "resolved"
    return "∞" if np.isinf(res.deals_needed) else f"{res.deals_needed:,.0f}"


def duel_row(label: str, res: cp.DuelResult, seconds: float) -> str:
    return (
        f"| {label} | {res.rules} | {res.players} | {res.deals:,} | {res.edge:+.4f} | "
        f"[{res.ci_low:+.4f}, {res.ci_high:+.4f}] | {res.same_share:.1%} | {_need(res)} | "
        f"{seconds:.0f} s |"
    )


def duels(args: argparse.Namespace) -> None:
    print("## Duplicate duels (edge of A over B, points per hand)\n")
    print(
        "| A vs B | rules | players | deals | edge | 95% CI | same setting | deals to resolve "
        "| time |"
    )
    print("|---|---|---:|---:|---:|---|---:|---:|---:|")
    mc = cp.MonteCarlo(samples=args.mc_samples)
    default = args.mc_samples == cp.MonteCarlo().samples
    mc_label = "MonteCarlo()" if default else f"MonteCarlo(samples={args.mc_samples})"
    runs = []
    if args.greedy_deals:
        runs.append(
            ("TableEV vs Greedy", cp.TableEV(), cp.Greedy(), "two_four", 2, args.greedy_deals)
        )
    if args.mc_deals:
        runs.append(
            (
                f"{mc_label} vs TableEV",
                mc,
                cp.TableEV(),
                "two_four",
                2,
                args.mc_deals,
            )
        )
    if args.mc4_deals:
        presets = args.mc4_presets.split(",") if args.mc4_presets else cp.RuleSet.presets()
        for name in presets:
            runs.append(
                (
                    f"{mc_label} vs 3 TableEV",
                    mc,
                    cp.TableEV(),
                    name,
                    4,
                    args.mc4_deals,
                )
            )
    for label, a, b, rules, players, deals in runs:
        start = time.perf_counter()
        res = cp.duel(
            a, b, deals=deals, rules=rules, players=players, seed=args.seed, progress=args.progress
        )
        print(duel_row(label, res, time.perf_counter() - start), flush=True)
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
        for players in (2, 3, 4):
            run = cp.simulate(
                args.calibration_rounds, players, name, seed=args.seed, progress=args.progress
            )
            assert run.columns is not None
            pred = run.columns["value"]
            real = run.columns["points"].astype(np.float64)
            print(calibration_row(name, players, run.rounds, pred, real), flush=True)
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--greedy-deals", type=int, default=2000)
    ap.add_argument("--mc-deals", type=int, default=10_000)
    ap.add_argument("--mc4-deals", type=int, default=2000)
    ap.add_argument("--mc-samples", type=int, default=1000)
    ap.add_argument("--mc4-presets", default="", help="comma-separated; default every preset")
    ap.add_argument("--calibration-rounds", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()
    if args.calibration_rounds:  # first: cheap, and the duels' Monte Carlo rows take long
        calibration(args)
    duels(args)


if __name__ == "__main__":
    main()
