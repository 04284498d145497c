"""Instructions a hand of ``solve_batch`` (``TableEV``, one thread) against a reference commit's
wheel, counted by valgrind's callgrind: a count does not move with the machine's load, where a
time on these shared machines moves by 2× from minute to minute.

Each side solves the same random hands in a fresh Python process under callgrind, once with
``--hands`` hands and once with ``--base``; the difference over the hands between is what a
hand costs through the extension, with the interpreter's start, the imports and the tables'
loading left out. The ratio is the reference's count over the current one. Tables as
``compare_wheel.py`` gives them: "reference" both wheels with the reference's shipped tables
(every hand must then be set alike, or with values that tie), "own" each wheel its own. Needs
``valgrind`` on the ``PATH``. Run: ``python benches/count_instructions.py [--ref 2104d42]
[--presets two_four] [--players 2 4] [--own-tables]``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from compare_wheel import (
    REPO,
    _rekeyed,
    add_reference_args,
    import_side,
    reference_package,
    shipped_tables,
    values_tie,
)


def child(args: argparse.Namespace) -> None:
    """Solves the hands in this process (under callgrind) and saves their settings and values."""
    import warnings

    cp = import_side(args.package_dir)
    warnings.simplefilter("ignore")  # a reference's tables carry an older key
    rng = np.random.default_rng(args.seed)
    hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :13].astype(np.uint8)
    (players,) = args.players
    objective = cp.TableEV(tables=args.tables)
    # (the tables load and the solver's statics are built on the first call)
    cp.solve_batch(hands[:4], args.preset, players, objective, threads=1)
    batch = cp.solve_batch(hands, args.preset, players, objective, threads=1)
    np.savez(args.out, settings=np.asarray(batch.settings), values=np.asarray(batch.values))


def counted(package_dir: str, common: list[str], hands: int, out: Path) -> int:
    """Instructions callgrind counts in a child process solving ``hands`` hands (which saves
    its settings and values to ``out``)."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    cmd += [sys.executable, __file__, "--child", "--package-dir", package_dir]
    cmd += ["--hands", str(hands), "--out", str(out), *common]
    # (one thread everywhere, and the same string hashes in every run: less to tell apart)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env["PYTHONHASHSEED"] = "0"
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"callgrind failed ({' '.join(cmd)}):\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_hand(
    args: argparse.Namespace, package_dir: str, common: list[str], out: Path
) -> tuple[float, dict[str, np.ndarray]]:
    """Instructions a hand between ``--base`` and ``--hands`` hands, and the settings and
    values of the larger run."""
    big = counted(package_dir, common, args.hands, out)
    with np.load(out) as z:
        solved = {k: z[k] for k in z.files}
    small = counted(package_dir, common, args.base, out)
    return (big - small) / (args.hands - args.base), solved


def untied(ref: dict[str, np.ndarray], cur: dict[str, np.ndarray]) -> int:
    """Hands the two sides set differently with values that do not tie."""
    same = np.all(ref["settings"] == cur["settings"], axis=1)
    return int((~same & ~values_tie(ref["values"], cur["values"])).sum())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_reference_args(p, "2104d42")
    p.add_argument("--presets", nargs="+", default=["two_four"], help="names, or all")
    p.add_argument("--players", type=int, nargs="+", default=[2])
    p.add_argument("--own-tables", action="store_true", help="also each wheel its own tables")
    p.add_argument("--hands", type=int, default=3000, help="hands of the larger run")
    p.add_argument("--base", type=int, default=1000, help="hands of the smaller run")
    p.add_argument("--seed", type=int, default=1)
    # child mode (one counted process)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--package-dir", default="", help=argparse.SUPPRESS)
    p.add_argument("--preset", help=argparse.SUPPRESS)
    p.add_argument("--tables", help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args)
        return
    if not 0 < args.base < args.hands:
        p.error("--base must be above 0 and below --hands")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind not found: the counts come from its callgrind tool")

    import chinese_poker as cp

    ref_pkg, label = reference_package(args)
    if args.presets == ["all"]:
        from chinese_poker import _core

        args.presets = list(_core.PRESET_NAMES)
    print(
        f"solve_batch TableEV, threads=1: instructions a hand (callgrind, {args.hands:,} hands "
        f"less {args.base:,}, over the difference); ratio = {label} / current"
    )
    print(f"{'preset':20} {'players':>7} {'tables':10} {label + ' instr':>14} "
          f"{'current instr':>14} {'ratio':>7}  settings")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for preset in args.presets:
            for players in args.players:
                ref_tables = str(shipped_tables(ref_pkg, preset, players))
                kinds = [("reference", ref_pkg)] + [("own", REPO / "python")] * args.own_tables
                for kind, cur_tables_pkg in kinds:
                    cur_tables = str(shipped_tables(cur_tables_pkg, preset, players))
                    cur_tables = _rekeyed(cp, cur_tables, preset, players, Path(tmp) / "t.npz")
                    common = ["--preset", preset, "--players", str(players)]
                    common += ["--seed", str(args.seed)]
                    out = Path(tmp) / "solved.npz"
                    ref, ref_solved = per_hand(
                        args, str(ref_pkg), common + ["--tables", ref_tables], out
                    )
                    cur, cur_solved = per_hand(args, "", common + ["--tables", cur_tables], out)
                    apart = untied(ref_solved, cur_solved)
                    same = "not compared" if kind == "own" else f"{apart} set apart"
                    print(f"{preset:20} {players:>7} {kind:10} {ref:>14,.0f} {cur:>14,.0f} "
                          f"{ref / cur:>6.2f}x  {same}", flush=True)  # fmt: skip
                    if kind == "reference" and apart:
                        sys.exit("with the same tables both wheels must set every hand alike")


if __name__ == "__main__":
    main()
