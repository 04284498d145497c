"""House rules end to end, through the command line as a user types it: write a rule set
(``rules new``), edit a bonus, train and install its tables (``tables train --install``), then
solve, simulate and duel under it. Every command finds the installed tables by the rule set's
key: no "no tables" warning, the same answers as with ``--tables FILE``, and other answers than
the fallback tables give. Runs the package's sources in fresh processes (a warning is issued
once per process), with its own user tables directory."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import chinese_poker as cp
from chinese_poker.strategy_tables import TABLES_ENV

SOURCES = Path(cp.__file__).resolve().parents[1]
HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
NO_TABLES = "no tables were trained"


def cli(*args: str, cwd: Path, tables_dir: Path, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SOURCES), TABLES_ENV: str(tables_dir)}
    result = subprocess.run(
        [sys.executable, "-m", "chinese_poker", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )
    assert result.returncode == code, (args, result.stdout, result.stderr)
    return result


def answer(result: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(result.stdout)


def test_house_rules_from_rules_new_to_every_command(tmp_path: Path) -> None:
    user = tmp_path / "user-tables"
    empty = tmp_path / "no-tables"

    def run(*args: str, code: int = 0, tables_dir: Path = user) -> Any:
        return cli(*args, cwd=tmp_path, tables_dir=tables_dir, code=code)

    # write the rule set, then change a bonus: a middle quads pays 12, not 8
    text = run("rules", "new", "--from", "maceplay", "--name", "house").stdout
    assert "quads = 8" in text
    (tmp_path / "house.toml").write_text(text.replace("quads = 8", "quads = 12", 1))
    house = cp.RuleSet.from_toml((tmp_path / "house.toml").read_text())
    assert house.row_value("middle", "quads") == 12
    key = cp._core.tables_key(house.compiled, 4)
    assert key != cp._core.tables_key(cp.RuleSet.preset("maceplay").compiled, 4)

    # before training: the fallback, with its warning
    fallback = run("solve", HAND, "--rules", "house.toml", "--json", tables_dir=empty)
    assert NO_TABLES in fallback.stderr

    # train (cheaply) and install; the log names each phase and its own figure
    trained = run(
        "tables", "train", "--rules", "house.toml", "--players", "4",
        "--deals", "40", "--seed", "3", "--install",
    )  # fmt: skip
    log = trained.stdout.splitlines()
    assert log[0].startswith("fictitious play, iteration 1: largest move ")
    assert log[0].endswith(" (stops below 0.01)")
    first_calibration = next(i for i, line in enumerate(log) if line.startswith("calibration"))
    assert log[first_calibration - 1].startswith(("converged after", "stopped at the limit"))
    assert log[first_calibration].startswith("calibration step 1 of 2: map moved ")
    assert "points, worst decile gap " in log[first_calibration]
    assert log[first_calibration + 1].startswith("calibration step 2 of 2: ")
    installed = Path(log[-1].split()[1])
    assert log[-1].startswith(f"installed {installed} (")  # its iterations and time
    assert log[-1].endswith(
        " s; did not converge (try more --deals)): used for rule set 'house' at 4 players"
    )
    assert installed.parent == user and installed.is_file()
    assert not list(tmp_path.glob("*.npz"))  # --install without --out: nothing else written
    umask = os.umask(0)
    os.umask(umask)
    for written in (installed, user / "tables.json"):
        assert stat.S_IMODE(written.stat().st_mode) == 0o666 & ~umask  # 0644 under umask 022
    listed = answer(run("tables", "list", "--json"))
    assert listed["directory"] == str(user)
    assert [(e["rules"], e["players"], e["key"]) for e in listed["tables"]] == [("house", 4, key)]

    # solve: found by the key, no warning; the same as naming the file; not the fallback
    found = run("solve", HAND, "--rules", "house.toml", "--json")
    assert found.stderr == ""
    named = run("solve", HAND, "--rules", "house.toml", "--tables", str(installed), "--json")
    value = answer(found)[0]["value"]
    assert value == answer(named)[0]["value"]
    assert value != answer(fallback)[0]["value"]

    # simulate and duel: the same
    sim = ("simulate", "--rules", "house.toml", "--rounds", "150", "--seed", "4", "--json")
    simulated = run(*sim)
    assert simulated.stderr == ""
    assert answer(simulated)["summary"] == answer(run(*sim, "--tables", str(installed)))["summary"]
    assert answer(simulated)["summary"] != answer(run(*sim, tables_dir=empty))["summary"]
    duel = ("duel", "table", "greedy", "--rules", "house.toml", "--players", "4", "--deals", "60")
    dueled = run(*duel, "--json")
    assert dueled.stderr == ""
    explicit = run(*duel, "--json", "--tables", str(installed))
    assert answer(dueled)["edge"] == answer(explicit)["edge"]

    # the house's tables are for the house at 4 players: another rule set or size is refused
    other = run("solve", HAND, "--rules", "maceplay", "--tables", str(installed), code=2)
    assert other.stderr.startswith("chinese-poker solve: error: argument --tables: tables file ")
    assert str(installed) in other.stderr and key in other.stderr
    three = run(*duel[:5], "--players", "3", "--tables", str(installed), code=2)
    assert "players=4" in three.stderr and "players=3" in three.stderr
