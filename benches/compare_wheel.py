"""The table objective's speed against a reference commit's wheel, side by side in one run.

``solve_batch`` with ``TableEV`` (one thread) on the same hands, with the same tables file (the
reference commit's shipped tables for the rule set and table size, given to both wheels, so that
a change of tables is not mistaken for a change of speed), the same heads-up, and
``MonteCarlo`` per sample heads-up with the reference's heads-up tables (each sample is one
heads-up solve of the opponent plus the scoring of every candidate against it). Each
measurement runs in a fresh process, alternating reference and current (A B A B ...), one pair
per round; the ratio of each pair is reference time / current time. Each process times its
batch ``--repeats`` times and keeps the least, since other work on the machine only adds time.

The reference wheel is built once per commit into ``target/ref-wheels/<sha>/`` (from a
temporary ``git worktree`` outside the repository, ``maturin build --release`` with its own
``CARGO_TARGET_DIR`` under ``target/``, installed with ``pip install --target`` so that no
virtualenv is touched) and reused by later runs; ``--ref-path`` points at an installed
``chinese_poker`` package instead.

Both wheels must pick the same settings: any hand where they differ must have values that tie
(within a relative 1e-9), else the run fails. Run: ``python benches/compare_wheel.py [--ref
daf8f1c] [--hands 20000] [--rounds 5] [--preset maceplay] [--players 4]``.

``--together`` times ``solve_batch`` with both wheels in this one process instead (the reference
package copied and imported as ``chinese_poker_reference``), the hands in chunks of ``--chunk``
that each wheel solves in turn, which goes first alternating, so that a change in the machine's
speed falls on both sides of a pair alike; ``make bench`` uses it for its per-preset tables.

``--presets`` (names, or ``all``) and ``--players`` (one or more sizes) measure ``solve_batch``
for each preset and table size in turn and end with one table: for each, the like-for-like row
(both wheels with the reference's tables) and, with ``--own-tables``, the row where each wheel
uses its own shipped tables (as a user gets them; the settings may then differ, so they are not
compared). Monte Carlo is timed only where ``--mc-hands`` is above 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
# Values of two settings tie when they agree to this relative tolerance (the solver's own).
TIE = 1e-9


def values_tie(ref: np.ndarray, cur: np.ndarray) -> np.ndarray:
    """Where two sides' values of the same hands tie (within ``TIE``, relative)."""
    return np.abs(ref - cur) <= TIE * (1.0 + np.maximum(np.abs(ref), np.abs(cur)))


def _git(*args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def _maturin() -> str:
    beside = Path(sys.executable).parent / "maturin"
    found = str(beside) if beside.exists() else shutil.which("maturin")
    if found is None:
        sys.exit("maturin not found (make wheel installs it into .venv)")
    return found


def add_reference_args(p: argparse.ArgumentParser, default: str) -> None:
    """The ``--ref`` and ``--ref-path`` options of every comparison against another wheel."""
    p.add_argument("--ref", default=default, help="commit to compare against")
    p.add_argument(
        "--ref-path",
        help="an installed reference package's directory (no build); e.g. the "
        "current one, to check the comparison itself",
    )


def reference_package(args: argparse.Namespace) -> tuple[Path, str]:
    """The reference's installed package directory and its label: ``--ref-path`` as given,
    else ``--ref``'s wheel (built once)."""
    if args.ref_path:
        return Path(args.ref_path).resolve(), str(args.ref_path)
    return build_reference(args.ref), args.ref


def build_reference(ref: str) -> Path:
    """The directory holding the reference commit's installed ``chinese_poker``."""
    sha = _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    cache = REPO / "target" / "ref-wheels" / sha
    pkg = cache / "pkg"
    if (pkg / "chinese_poker" / "__init__.py").exists():
        return pkg
    cache.mkdir(parents=True, exist_ok=True)
    print(f"building the {ref} ({sha[:12]}) wheel once into {cache} ...", flush=True)
    # The source outside the repository: under it, cargo would take the reference's manifest
    # for a member of this checkout's workspace and refuse to build it.
    source = Path(tempfile.mkdtemp(prefix=f"ref-{sha[:12]}-")) / "src"
    _git("worktree", "add", "--detach", str(source), sha)
    try:
        env = dict(
            os.environ,
            CARGO_TARGET_DIR=str(REPO / "target" / "ref-build"),
            PYO3_PYTHON=sys.executable,
        )
        wheels = cache / "wheel"
        shutil.rmtree(wheels, ignore_errors=True)
        subprocess.run(
            [_maturin(), "build", "--release", "--quiet", "--out", str(wheels)],
            cwd=source,
            env=env,
            check=True,
        )
        (wheel,) = wheels.glob("*.whl")
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
            + ["--target", str(pkg), str(wheel)],
            check=True,
        )
    finally:
        _git("worktree", "remove", "--force", str(source))
        _git("worktree", "prune")
        shutil.rmtree(source.parent, ignore_errors=True)
    return pkg


def shipped_tables(pkg: Path, preset: str, players: int) -> Path:
    """The tables file a package ships for a preset and table size (its ``tables.json``)."""
    data = pkg / "chinese_poker" / "data"
    for entry in json.loads((data / "tables.json").read_text())["tables"]:
        if [preset, players] in entry["presets"]:
            return data / entry["file"]
    sys.exit(f"{data} ships no tables for {preset} at {players} players")


def _rekeyed(cp: Any, path: str, preset: str, players: int, out: Path) -> str:
    """``path``, or a copy of it under the current wheel's key for the preset and table size.

    The current wheel refuses a tables file whose key is not the rule set's; a reference
    commit's files carry the key format of their own day over the same distributions."""
    from chinese_poker import _core
    from chinese_poker.strategy_tables import read_tables, write_tables

    tables = read_tables(path)
    meta = dict(tables.pop("meta"))
    key = _core.tables_key(cp.RuleSet.preset(preset).compiled, players)
    if meta["key"] == key:
        return path
    model = meta.pop("model", None)
    trained = dict(
        tables,
        key=key,
        scoop_rate=meta.pop("scoop_rate"),
        model=None if model is None else json.dumps(model),
    )
    meta.pop("key")
    copy = out.with_name(f"{out.stem}-{players}p-tables.npz")
    return str(write_tables(copy, trained, meta))


def import_side(package_dir: str) -> Any:
    """``chinese_poker`` from ``package_dir`` (a reference's installed copy), or the current
    one where it is ``""``: a worker process measures one side."""
    if package_dir:
        sys.path.insert(0, package_dir)
    import chinese_poker as cp

    if package_dir:
        assert Path(cp.__file__).is_relative_to(package_dir), cp.__file__
    return cp


def worker(args: argparse.Namespace) -> None:
    """One measurement in this process: the hands with ``solve_batch``, then Monte Carlo."""
    import time
    import warnings

    cp = import_side(args.package_dir)
    # the current wheel warns that the reference's tables carry an older key; they are the
    # same distributions
    warnings.simplefilter("ignore")
    hands = np.load(args.hands_file)
    (players,) = args.players
    if not args.package_dir:
        args.tables = _rekeyed(cp, args.tables, args.preset, players, Path(args.out))
        args.mc_tables = _rekeyed(cp, args.mc_tables, args.preset, 2, Path(args.out))
    objective = cp.TableEV(tables=args.tables)
    cp.solve_batch(hands[:50], args.preset, players, objective, threads=1)

    def least(solve: Any) -> float:
        # the least of --repeats timings: whatever else runs on the machine only adds to one
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            solve()
            times.append(time.perf_counter() - start)
        return min(times)

    batch = cp.solve_batch(hands, args.preset, players, objective, threads=1)
    batch_seconds = least(lambda: cp.solve_batch(hands, args.preset, players, objective, threads=1))
    # heads-up, with the heads-up tables Monte Carlo's opponents use: its per-sample solve
    heads_up_seconds = batch_seconds
    if players != 2:
        heads_up = cp.TableEV(tables=args.mc_tables)
        cp.solve_batch(hands[:50], args.preset, 2, heads_up, threads=1)
        heads_up_seconds = least(lambda: cp.solve_batch(hands, args.preset, 2, heads_up, threads=1))
    # Like for like: every frontier play on every sample, as the reference does. A wheel
    # that races (issue 9) is also timed with its default budget, per sample it drew.
    fields = {f.name for f in dataclasses.fields(cp.MonteCarlo)}
    unraced = {"confidence": 0, "candidates": 0} if "confidence" in fields else {}
    mc = cp.MonteCarlo(
        samples=args.mc_samples,
        seed=1,
        opponent_policy=cp.TableEV(tables=args.mc_tables),
        threads=1,
        **unraced,
    )
    mc_hands = [[int(c) for c in h] for h in hands[: args.mc_hands]]
    if not mc_hands:
        np.savez(
            args.out,
            settings=np.asarray(batch.settings),
            values=np.asarray(batch.values),
            batch_seconds=batch_seconds,
            heads_up_seconds=heads_up_seconds,
        )
        return
    warm = cp.MonteCarlo(samples=2, opponent_policy=mc.opponent_policy, threads=1)
    cp.solve(mc_hands[0], args.preset, 2, warm)  # loads the tables outside the timing
    start = time.perf_counter()
    mc_values = [cp.solve(h, args.preset, 2, mc).value for h in mc_hands]
    mc_seconds = time.perf_counter() - start
    raced_seconds, raced_samples = 0.0, 0
    if unraced:
        raced = dataclasses.replace(mc, **{k: getattr(cp.MonteCarlo(), k) for k in unraced})
        start = time.perf_counter()
        raced_samples = sum(cp.solve(h, args.preset, 2, raced).samples for h in mc_hands)
        raced_seconds = time.perf_counter() - start
    np.savez(
        args.out,
        settings=np.asarray(batch.settings),
        values=np.asarray(batch.values),
        batch_seconds=batch_seconds,
        heads_up_seconds=heads_up_seconds,
        mc_values=np.asarray(mc_values),
        mc_seconds=mc_seconds,
        raced_seconds=raced_seconds,
        raced_samples=raced_samples,
    )


def measure(
    side: str, package_dir: str, common: list[str], out: Path, script: str = __file__
) -> dict[str, Any]:
    """One measurement: ``script --worker`` in a fresh process on one side's package (``""``:
    the current one), which saves its figures to ``out``; they are returned."""
    cmd = [sys.executable, script, "--worker", "--package-dir", package_dir, "--out", str(out)]
    # one thread everywhere: numpy's BLAS threads would otherwise spin beside the solver
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    subprocess.run(cmd + common, check=True, env=env)
    with np.load(out) as z:
        return {k: z[k] for k in z.files} | {"side": side}


def pair_medians(
    runs: list[tuple[dict[str, Any], dict[str, Any]]], key: str, scale: float
) -> tuple[list[float], float, float]:
    """One measure over the pairs: each pair's ratio (reference time / current time), and each
    side's median time times ``scale`` (a unit per hand or per sample)."""
    ratios = [float(ref[key] / cur[key]) for ref, cur in runs]
    ref_median = statistics.median(float(ref[key]) * scale for ref, _ in runs)
    cur_median = statistics.median(float(cur[key]) * scale for _, cur in runs)
    return ratios, ref_median, cur_median


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_reference_args(p, "daf8f1c")
    p.add_argument("--hands", type=int, default=20_000)
    p.add_argument("--rounds", type=int, default=5, help="reference/current pairs")
    p.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="timings of the batch in each process, the least kept (the machine's other work "
        "only adds time)",
    )
    p.add_argument("--preset", default="maceplay")
    p.add_argument(
        "--presets", nargs="+", help="several presets (or all), each measured in turn: a table"
    )
    p.add_argument("--players", type=int, nargs="+", default=[4])
    p.add_argument(
        "--own-tables",
        action="store_true",
        help="also time each wheel with its own shipped tables",
    )
    p.add_argument(
        "--together",
        action="store_true",
        help="time both wheels in this one process, alternating, instead of a fresh process "
        "for each measurement (solve_batch only: needs --mc-hands 0)",
    )
    p.add_argument(
        "--chunk", type=int, default=1000, help="hands a wheel solves at a time with --together"
    )
    p.add_argument("--mc-hands", type=int, default=20, help="Monte Carlo hands (heads-up)")
    p.add_argument("--mc-samples", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    # worker mode (one measurement in a fresh process)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--package-dir", default="", help=argparse.SUPPRESS)
    p.add_argument("--hands-file", help=argparse.SUPPRESS)
    p.add_argument("--tables", help=argparse.SUPPRESS)
    p.add_argument("--mc-tables", help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.together and args.mc_hands:
        p.error("--together times solve_batch only: give --mc-hands 0")
    if args.worker:
        worker(args)
        return

    ref_pkg, label = reference_package(args)
    rng = np.random.default_rng(args.seed)
    hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :13].astype(np.uint8)
    if args.presets is None:
        presets = [args.preset]
    elif args.presets == ["all"]:
        from chinese_poker import _core

        presets = list(_core.PRESET_NAMES)
    else:
        presets = args.presets
    table: list[tuple[str, int, str, list[tuple[dict[str, Any], dict[str, Any]]]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        hands_file = Path(tmp) / "hands.npy"
        np.save(hands_file, hands)
        reference = None
        if args.together:
            import warnings

            # the current wheel warns that the reference's tables carry an older key
            warnings.simplefilter("ignore")
            reference = _import_reference(ref_pkg, Path(tmp))
        for preset in presets:
            for players in args.players:
                sides = [("reference", ref_pkg, ref_pkg)]
                if args.own_tables:
                    sides.append(("own", ref_pkg, REPO / "python"))
                for kind, ref_tables_pkg, cur_tables_pkg in sides:
                    if reference is not None:
                        runs = together_pairs(args, reference, hands, Path(tmp), preset,
                                              players, ref_tables_pkg, cur_tables_pkg)  # fmt: skip
                    else:
                        runs = pairs(args, ref_pkg, hands_file, Path(tmp), preset, players,
                                     ref_tables_pkg, cur_tables_pkg)  # fmt: skip
                    if kind == "reference":
                        tables = shipped_tables(ref_pkg, preset, players)
                        report(args, label, tables, runs, preset, players)
                    table.append((preset, players, kind, runs))
    if len(table) > 1:
        summary(args, label, table)


def _import_reference(ref_pkg: Path, tmp: Path) -> Any:
    """The reference package imported beside the current one, as ``chinese_poker_reference``: a
    copy under that name (its modules import each other relatively) with its own extension."""
    import importlib

    shutil.copytree(
        ref_pkg / "chinese_poker",
        tmp / "reference" / "chinese_poker_reference",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    sys.path.insert(0, str(tmp / "reference"))
    return importlib.import_module("chinese_poker_reference")


def together_pairs(
    args: argparse.Namespace,
    ref: Any,
    hands: Any,
    tmp: Path,
    preset: str,
    players: int,
    ref_tables_pkg: Path,
    cur_tables_pkg: Path,
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``--rounds`` pairs timed in this one process with both wheels loaded: each round passes
    over the hands in chunks of ``--chunk``, both wheels solving each chunk in turn (which goes
    first alternating), so that a change in the machine's speed (other work, its clock) falls
    on both sides alike; a side's time is the sum over its chunks."""
    import time

    import chinese_poker as cp

    sides = []
    for mod, tables_pkg in ((ref, ref_tables_pkg), (cp, cur_tables_pkg)):
        full = str(shipped_tables(tables_pkg, preset, players))
        two = str(shipped_tables(tables_pkg, preset, 2))
        if mod is cp:
            full = _rekeyed(cp, full, preset, players, tmp / "together.npz")
            two = _rekeyed(cp, two, preset, 2, tmp / "together.npz")
        objectives = {players: mod.TableEV(tables=full), 2: mod.TableEV(tables=two)}
        for n, objective in objectives.items():
            mod.solve_batch(hands[:50], preset, n, objective, threads=1)
        sides.append((mod, objectives))

    def interleaved(n: int) -> tuple[float, float]:
        # chunk by chunk, the first side alternating: a burst of other work on the machine
        # falls on both sides of a chunk alike
        spent = [0.0, 0.0]
        for c, start in enumerate(range(0, len(hands), args.chunk)):
            chunk = hands[start : start + args.chunk]
            for i in (0, 1) if c % 2 == 0 else (1, 0):
                mod, objectives = sides[i]
                t = time.perf_counter()
                mod.solve_batch(chunk, preset, n, objectives[n], threads=1)
                spent[i] += time.perf_counter() - t
        return spent[0], spent[1]

    runs = []
    for _ in range(args.rounds):
        out: list[dict[str, Any]] = [{}, {}]
        batch = interleaved(players)
        heads_up = batch if players == 2 else interleaved(2)
        for i in (0, 1):
            out[i]["batch_seconds"] = batch[i]
            out[i]["heads_up_seconds"] = heads_up[i]
        runs.append((out[0], out[1]))
    for (mod, objectives), side in zip(sides, runs[0], strict=True):
        batch = mod.solve_batch(hands, preset, players, objectives[players], threads=1)
        side["settings"] = np.asarray(batch.settings)
        side["values"] = np.asarray(batch.values)
    return runs


def pairs(
    args: argparse.Namespace,
    ref_pkg: Path,
    hands_file: Path,
    tmp: Path,
    preset: str,
    players: int,
    ref_tables_pkg: Path,
    cur_tables_pkg: Path,
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``--rounds`` pairs (reference, then current) for one preset and table size, each side
    with the shipped tables of the package given for it."""
    runs = []
    for r in range(args.rounds):
        pair = []
        for side, pkg, tables_pkg in (
            ("ref", str(ref_pkg), ref_tables_pkg),
            ("cur", "", cur_tables_pkg),
        ):
            common = [
                "--hands-file", str(hands_file),
                "--tables", str(shipped_tables(tables_pkg, preset, players)),
                "--mc-tables", str(shipped_tables(tables_pkg, preset, 2)),
                "--preset", preset, "--players", str(players),
                "--mc-hands", str(args.mc_hands), "--mc-samples", str(args.mc_samples),
                "--repeats", str(args.repeats),
            ]  # fmt: skip
            pair.append(measure(side, pkg, common, tmp / f"{side}{r}.npz"))
        runs.append((pair[0], pair[1]))
    return runs


def summary(
    args: argparse.Namespace,
    label: str,
    table: list[tuple[str, int, str, list[tuple[dict[str, Any], dict[str, Any]]]]],
) -> None:
    """One line per preset, table size and tables: µs/hand of each wheel and the ratios."""
    per_hand = 1e6 / args.hands
    print()
    print(
        f"solve_batch TableEV per hand, threads=1, {args.hands:,} hands, {args.rounds} pairs "
        f"each; tables: 'reference' = both wheels with {label}'s, 'own' = each wheel its own"
    )
    print(
        f"{'preset':<20} {'players':>7} {'tables':<9} {label + ' µs':>11} {'current µs':>11} "
        f"{'median':>7}  pairs"
    )
    for preset, players, kind, runs in table:
        ratios = [float(ref["batch_seconds"] / cur["batch_seconds"]) for ref, cur in runs]
        ref_us = statistics.median(float(ref["batch_seconds"]) * per_hand for ref, _ in runs)
        cur_us = statistics.median(float(cur["batch_seconds"]) * per_hand for _, cur in runs)
        print(
            f"{preset:<20} {players:>7} {kind:<9} {ref_us:>11.1f} {cur_us:>11.1f} "
            f"{statistics.median(ratios):>6.2f}x  {min(ratios):.2f} to {max(ratios):.2f}"
        )


def report(
    args: argparse.Namespace,
    label: str,
    tables: Path,
    runs: list[tuple[dict[str, Any], dict[str, Any]]],
    preset: str,
    players: int,
) -> None:
    per_hand = 1e6 / args.hands
    ratios, ref_us, cur_us = pair_medians(runs, "batch_seconds", per_hand)
    print(
        f"solve_batch TableEV, {preset} at {players} players, threads=1, "
        f"{args.hands:,} hands, tables {tables.name} of {label}; {args.rounds} pairs "
        + (
            f"(both wheels in one process, alternating by chunks of {args.chunk} hands)"
            if args.together
            else "(reference, then current, each in a fresh process)"
        )
    )
    print("pair ratios (reference time / current time): " + ", ".join(f"{x:.2f}" for x in ratios))
    print(
        f"median ratio {statistics.median(ratios):.2f}x (pairs {min(ratios):.2f} to "
        f"{max(ratios):.2f}); median {ref_us:.1f} µs/hand reference, {cur_us:.1f} µs/hand current"
    )
    hu = [float(ref["heads_up_seconds"] / cur["heads_up_seconds"]) for ref, cur in runs]
    print(
        f"solve_batch TableEV heads-up (the tables Monte Carlo's opponents use), same hands: "
        f"median ratio {statistics.median(hu):.2f}x (pairs {min(hu):.2f} to {max(hu):.2f})"
    )
    ref, cur = runs[0]
    same = np.all(ref["settings"] == cur["settings"], axis=1)
    print(f"identical settings: {int(same.sum()):,} of {len(same):,} hands ({same.mean():.1%})")
    tied = values_tie(ref["values"], cur["values"])
    untied = np.flatnonzero(~same & ~tied)
    print(f"differing settings with tied values: {int((~same & tied).sum())}")
    if "mc_seconds" in ref:
        report_monte_carlo(args, runs)
    if len(untied):
        for i in untied[:10]:
            print(
                f"hand {i}: reference {ref['settings'][i].tolist()} value {ref['values'][i]!r}, "
                f"current {cur['settings'][i].tolist()} value {cur['values'][i]!r}"
            )
        sys.exit(f"{len(untied)} hands set differently with values that do not tie")


def report_monte_carlo(
    args: argparse.Namespace, runs: list[tuple[dict[str, Any], dict[str, Any]]]
) -> None:
    """Monte Carlo per sample, like for like and (where the current wheel races) raced."""
    per_sample = 1e6 / max(1, args.mc_hands * args.mc_samples)
    mc_ratios, ref_mc, cur_mc = pair_medians(runs, "mc_seconds", per_sample)
    print(
        f"MonteCarlo heads-up, {args.mc_hands} hands x {args.mc_samples} samples: median "
        f"{ref_mc:.1f} µs/sample reference, {cur_mc:.1f} µs/sample current, median ratio "
        f"{statistics.median(mc_ratios):.2f}x (pairs {min(mc_ratios):.2f} to {max(mc_ratios):.2f})"
    )
    raced = [
        float(ref["mc_seconds"]) * per_sample / (float(cur["raced_seconds"]) * 1e6 / drawn)
        for ref, cur in runs
        if (drawn := int(cur["raced_samples"])) > 0
    ]
    if raced:
        print(
            f"MonteCarlo with the current default budget (racing {args.mc_samples} samples at "
            f"most): {int(runs[0][1]['raced_samples']):,} samples drawn, median ratio per "
            f"sample {statistics.median(raced):.2f}x (pairs {min(raced):.2f} to {max(raced):.2f})"
        )
    ref, cur = runs[0]
    mc_same = int(np.sum(ref["mc_values"] == cur["mc_values"]))
    print(f"Monte Carlo values identical: {mc_same} of {len(ref['mc_values'])} hands")


if __name__ == "__main__":
    main()
