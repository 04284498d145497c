"""Runs the improvement phase on tables in a tables directory (by default the shipped ones),
replacing each file whose refit gains on its held-out hands, in place (same key, same name, so
the index stays true); the others are left as they are.

    python tools/improve_shipped.py [--dir python/chinese_poker/data] [--players 2 3 4]
        [--presets all] [--hands 9000] [--samples 1000]

Each replaced file's ``meta.start`` names the digest it started from and ``meta.improvement``
what the phase measured. A run stopped part way leaves every file either as it was or
replaced whole (written atomically); run it again with ``--skip-improved`` to go on.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from chinese_poker import strategy_tables as st


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dir", default=str(Path(st.__file__).parent / st.TABLES_DIR))
    p.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    p.add_argument("--presets", default="all", help="comma-separated, or all")
    p.add_argument("--hands", type=int, default=st.IMPROVE_HANDS)
    p.add_argument("--samples", type=int, default=st.IMPROVE_SAMPLES)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--skip-improved", action="store_true", help="leave files already improved")
    args = p.parse_args()
    directory = Path(args.dir)
    index = json.loads((directory / st.INDEX_FILE).read_text())
    wanted = None if args.presets == "all" else set(args.presets.split(","))
    for entry in index["tables"]:
        name, players = entry["presets"][0]
        if players not in args.players or (wanted is not None and name not in wanted):
            continue
        if name.startswith("default"):
            continue  # the fallback tables of custom rules: no preset to play
        path = directory / entry["file"]
        meta = st.read_tables(path)["meta"]
        if args.skip_improved and "improvement" in meta:
            print(f"{name} x{players}: already improved, left", flush=True)
            continue
        start = time.perf_counter()
        # beside the file, so that the replacement is a rename; a run killed here leaves it,
        # and the next run overwrites it
        tmp = directory / f".{entry['file']}.improving.npz"
        try:
            res = st.train_tables(
                name,
                players,
                seed=args.seed,
                deals=meta.get("deals", st.DEFAULT_DEALS),
                out=tmp,
                start=path,
                improve_hands=args.hands,
                improve_samples=args.samples,
            )
            imp = res["meta"]["improvement"]
            verdict = "replaced" if imp["kept"] else "left as it was"
            if imp["kept"]:
                os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        print(
            f"{name} x{players}: {verdict}; held-out gain {imp['held_out_gain']:+.4f} "
            f"± {imp['held_out_interval']:.4f} on {imp['held_out_hands']:,} hands, fitted "
            f"{imp['fitted_gain']:+.4f}, {imp['changed']:.1%} of plays changed, "
            f"{time.perf_counter() - start:.0f} s",
            flush=True,
        )
    st.clear_cache()


if __name__ == "__main__":
    main()
