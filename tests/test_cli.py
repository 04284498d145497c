"""The command line end to end, as a user runs it: ``python -m chinese_poker ...`` in a
subprocess, output parsed back, every bad argument one line on stderr with exit code 2."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import cli, plots

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
DRAGON = "Ac Kd Qh Js Tc 9d 8h 7s 6c 5d 4h 3s 2c"
OTHER = "2c 2d 2h 5s 6s 7c 8d 9h Tc Jd Qh Kc Ad"
ROUND = [
    "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s",
    "Ac Kc 7d / Jc Jd 8s 6c 4d / Ah Th 6h 3h 2h",
    "surrender",
]
PNG = b"\x89PNG\r\n\x1a\n"
ANSI = "\033["


def run(
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chinese_poker", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=env,
    )


def ok(*args: str, **kw: Any) -> str:
    result = run(*args, **kw)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr  # no warnings, no progress bar when piped
    return result.stdout


def ok_json(*args: str, **kw: Any) -> Any:
    return json.loads(ok(*args, "--json", **kw))


def test_version() -> None:
    assert ok("--version").strip() == f"chinese-poker {cp.__version__}"


@pytest.mark.parametrize(
    "command",
    [
        [],
        ["solve"],
        ["settle"],
        ["simulate"],
        ["duel"],
        ["rules"],
        ["rules", "list"],
        ["rules", "show"],
        ["rules", "diff"],
        ["rules", "new"],
        ["tables"],
        ["tables", "train"],
        ["demo"],
    ],
    ids=lambda c: " ".join(c) or "top",
)
def test_every_command_has_help_with_an_example(command: list[str]) -> None:
    text = ok(*command, "--help")
    assert "usage: chinese-poker" in text
    examples = text.split("examples:", 1)[1]
    assert "chinese-poker " in examples
    assert "``" not in text and ":func:" not in text and ":class:" not in text  # no reST markup


# -- solve -------------------------------------------------------------------------------------


def test_solve_one_hand_draws_rows_with_suit_symbols() -> None:
    text = ok("solve", HAND)
    sol = cp.solve(HAND, "maceplay", 4)
    assert sol.explain().rstrip("\n") in text  # the Solution's own rendering
    assert "front" in text and "♠" in text and "♥" in text
    assert f"{sol.value:+.3f}" in text
    assert ANSI not in text  # piped: plain


def test_solve_colours_red_suits_when_asked() -> None:
    text = ok("solve", HAND, "--color", "always")
    assert "\033[31m9♥\033[0m" in text
    assert "\033[31mA♠" not in text
    assert ANSI not in ok("solve", HAND, "--color", "never")


def test_colour_follows_the_terminal_and_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    cli._Style.setup("auto")
    assert cli.paint("9♥ 9♠") == "\033[31m9♥\033[0m 9♠"
    monkeypatch.setenv("NO_COLOR", "1")
    cli._Style.setup("auto")
    assert cli.paint("9♥ 9♠") == "9♥ 9♠"
    cli._Style.setup("never")


def test_solve_json_parses_back() -> None:
    [data] = ok_json("solve", HAND, "--rules", "pokerclub_south", "--players", "3", "--top", "3")
    sol = cp.solve(HAND, "pokerclub_south", 3, top_k=3)
    assert data["hand"] == " ".join(str(c) for c in cp.CardSet(HAND))
    assert data["decision"] == "play" and data["rules"] == "pokerclub_south"
    assert data["value"] == pytest.approx(sol.value)
    assert cp.Setting.parse(data["setting"]) == sol.setting
    assert len(data["alternatives"]) == 3


def test_solve_a_batch_from_standard_input_and_a_file(tmp_path: Path) -> None:
    lines = f"# my hands\n{HAND}\n\n{DRAGON}   # a dragon\n{OTHER}\n"
    data = ok_json("solve", stdin=lines)
    assert [d["value"] for d in data] == pytest.approx(
        [cp.solve(h, "maceplay", 4).value for h in (HAND, DRAGON, OTHER)]
    )
    assert data[1]["decision"] == "declare" and data[1]["natural"] == "dragon"
    (tmp_path / "hands.txt").write_text(lines)
    assert ok_json("solve", "--file", "hands.txt", cwd=tmp_path) == data
    assert ok_json("solve", "-", stdin=lines) == data
    text = ok("solve", "--file", "hands.txt", cwd=tmp_path)
    assert "hands.txt line 2: " in text and "hands.txt line 5: " in text
    assert text.count("Rule set maceplay") == 3


def test_solve_monte_carlo_reports_its_standard_error() -> None:
    [data] = ok_json("solve", HAND, "--objective", "mc", "--samples", "60", "--players", "2")
    assert data["objective"].startswith("MonteCarlo") and data["stderr"] > 0


# -- settle ------------------------------------------------------------------------------------


def test_settle_inline_prints_the_table_the_rules_and_totals() -> None:
    args = ["settle", *ROUND, "--rules", "pokerfever_eastern", "--bankrolls", "100,100,100"]
    text = ok(*args)
    result = cp.settle(
        [cp.Setting.parse(ROUND[0]), cp.Setting.parse(ROUND[1]), cp.Surrender()],
        "pokerfever_eastern",
        bankrolls=[100, 100, 100],
    )
    assert result.explain().rstrip("\n") in text
    table = text.split("\n\n", 1)[0].splitlines()
    assert table[1].split()[-4:] == ["P0", "P1", "P2", "total"]
    assert table[3].split() == ["P0", "+9", "+3", "+12"]
    data = json.loads(ok(*args, "--json"))
    assert data["totals"] == list(result.totals) == [12, -6, -6]
    assert data["rules"] == "pokerfever_eastern"


def test_settle_a_round_file(tmp_path: Path) -> None:
    (tmp_path / "round.toml").write_text(
        'rules = "pokerfever_eastern"\nbankrolls = [100, 100, 100]\nseats = [\n'
        + "".join(f'  "{s}",\n' for s in ROUND)
        + "]\n"
    )
    (tmp_path / "round.json").write_text(
        json.dumps({"seats": ROUND, "rules": cp.presets.PRESETS["pokerfever_eastern"].to_dict()})
    )
    from_toml = ok_json("settle", "--file", "round.toml", cwd=tmp_path)
    from_json = ok_json("settle", "--file", "round.json", cwd=tmp_path)
    assert from_toml["totals"] == from_json["totals"] == [12, -6, -6]


def test_settle_declares_a_natural() -> None:
    dragon = "dragon: Ac Kd Qh / Js Tc 9d 8h 7s / 6c 5d 4h 3s 2c"
    other = "2h 3d 4c / 5h 6h 7c 8s 9s / Th Jh Qs Kh Ah"
    data = ok_json("settle", dragon, other, "--rules", "pokerclub_south")
    assert data["totals"] == [12, -12]


# -- simulate, duel, plots ---------------------------------------------------------------------


def png(path: Path) -> bool:
    data = path.read_bytes()
    return len(data) > 1000 and data.startswith(PNG)


def test_simulate_json_and_text() -> None:
    args = ["simulate", "--rounds", "300", "--players", "3", "--policy", "table,greedy,random"]
    data = ok_json(*args, "--seed", "5")
    run_ = cp.simulate(
        300, 3, "maceplay", [cp.TableEV(), cp.Greedy(), cp.RandomLegal()], seed=5, progress=False
    )
    assert data["rounds"] == 300 and data["policies"] == ["table", "greedy", "random"]
    assert [s["mean"] for s in data["summary"]] == pytest.approx([s.mean for s in run_.summary()])
    # how the run was made, as Simulation.to_dict() gives it
    assert data["provenance"] == run_.to_dict()["provenance"]
    text = ok(*args, "--seed", "5")
    rows = [line.split() for line in text.splitlines() if line.startswith("P")]
    assert [r[:2] for r in rows] == [["P0", "table"], ["P1", "greedy"], ["P2", "random"]]
    assert "300 rounds in" in text


@pytest.mark.needs("pyarrow", "matplotlib")
def test_simulate_streams_to_parquet_and_plots(tmp_path: Path) -> None:
    text = ok(
        "simulate", "--rounds", "200", "--policy", "table,mc,greedy,random", "--samples", "20",
        "--out", "run.parquet", "--plot", "run.png", cwd=tmp_path,
    )  # fmt: skip
    assert "rows written to run.parquet" in text and "plot written to run.png" in text
    assert cp.read_simulation(tmp_path / "run.parquet").rounds == 200  # a simulation directory
    assert png(tmp_path / "run.png")


@pytest.mark.needs("matplotlib")
def test_simulate_compares_two_rule_sets(tmp_path: Path) -> None:
    data = ok_json(
        "simulate", "--rounds", "200", "--compare", "one_six", "--plot", "cmp.png", cwd=tmp_path
    )
    assert [d["rules"] for d in data] == ["maceplay", "one_six"]
    assert png(tmp_path / "cmp.png")


@pytest.mark.needs("matplotlib")
def test_duel_prints_the_edge_with_its_interval(tmp_path: Path) -> None:
    text = ok("duel", "table", "greedy", "--deals", "200", "--rules", "two_four")
    assert "edge +" in text and "95% CI [" in text and "table is better" in text
    data = ok_json("duel", "table", "random", "--deals", "100", "--plot", "d.png", cwd=tmp_path)
    assert data["deals"] == 100 and data["ci_low"] <= data["edge"] <= data["ci_high"]
    assert data["provenance"]["rounds"] == 100  # DuelResult.to_dict(), how it was made
    assert png(tmp_path / "d.png")


@pytest.mark.needs("matplotlib")
def test_every_plot_writes_a_png(tmp_path: Path) -> None:
    a = cp.simulate(300, 4, "maceplay", seed=2, progress=False)
    b = cp.simulate(300, 4, "one_six", seed=2, progress=False,
                    policies=[cp.Greedy(), cp.RandomLegal(), cp.Greedy(), cp.Greedy()])  # fmt: skip
    d = cp.duel(cp.TableEV(), cp.Greedy(), deals=100, progress=False)
    for name, ax in [
        ("dist", plots.points_distribution(a)),
        ("cat", plots.value_by_category(a)),
        ("cal", plots.calibration(a)),
        ("cal_none", plots.calibration(b)),  # no policy predicts: says so
        ("cmp", plots.compare_rules(a, b)),
        ("duel", plots.duel_edges(d)),
    ]:
        assert plots.save(ax, tmp_path / f"{name}.png") == tmp_path / f"{name}.png"
        assert png(tmp_path / f"{name}.png"), name
    mixed = cp.simulate(300, 4, "maceplay", [cp.TableEV(), cp.Greedy()] * 2, seed=2, progress=False)
    cat = plots.value_by_category(mixed)
    # split by policy where policies differ: a line per row and policy, each named
    labels = [line.get_label() for line in cat.get_lines()]
    assert {"front, TableEV", "back, Greedy"} <= set(labels), labels
    assert "300 rounds; per policy" in cat.get_title()
    cal = plots.calibration(mixed)
    assert "mixed table" in cal.get_title()
    assert any("realised − predicted" in t.get_text() for t in cal.get_legend().get_texts())
    assert "mixed" not in plots.calibration(a).get_title()
    for name, ax in (("cat_mixed", cat), ("cal_mixed", cal)):
        assert png(plots.save(ax, tmp_path / f"{name}.png")), name
    # whole-point histogram bins centred on the integers, never straddling them
    outline = plots.points_distribution(a).patches[0].get_xy()  # a step outline's vertices
    assert np.allclose(np.abs(outline[:, 0] - np.round(outline[:, 0])), 0.5)
    streamed = cp.simulate(200, 4, "maceplay", progress=False, out=tmp_path / "s.parquet")
    plots.save(plots.report(streamed), tmp_path / "s.png")
    assert png(tmp_path / "s.png")
    with pytest.raises(cp.exceptions.InvalidArgumentError, match="bins"):
        plots.calibration(a, bins=0)
    with pytest.raises(cp.exceptions.InvalidArgumentError, match="no rounds"):
        plots.report(cp.simulate(0, 4, progress=False))


def test_missing_matplotlib_is_a_clear_error(tmp_path: Path) -> None:
    fake = tmp_path / "nompl" / "matplotlib"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('no matplotlib here')\n")
    # the fake matplotlib first, then the package these tests import (sources or installed)
    package = str(Path(cp.__file__).parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "nompl"), package])}
    result = run("simulate", "--rounds", "10", "--plot", "x.png", cwd=tmp_path, env=env)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert "--plot" in result.stderr and "chinese-poker[plot]" in result.stderr
    code = "from chinese_poker import plots; import chinese_poker as cp; " + (
        "plots.report(cp.simulate(10, progress=False))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert "MissingDependencyError: plotting needs matplotlib" in result.stderr


# -- rules -------------------------------------------------------------------------------------


def test_rules_list_show_diff() -> None:
    listed = ok_json("rules", "list")
    assert [r["name"] for r in listed] == list(cp.RuleSet.presets())
    assert all(r["description"] for r in listed)
    assert all(name in ok("rules", "list") for name in cp.RuleSet.presets())
    shown = ok_json("rules", "show", "shisanshui")
    assert cp.RuleSet.from_dict(shown) == cp.RuleSet.preset("shisanshui")
    text = ok("rules", "show", "two_four")
    assert cp.RuleSet.from_toml(text) == cp.RuleSet.preset("two_four")  # comments and TOML
    assert ok_json("rules", "diff", "pokerclub_south", "pokerclub_north") == {
        "wheel": ["second", "low"]
    }
    text = ok("rules", "diff", "maceplay", "shisanshui")
    assert "foul.kind" in text and "description" not in text
    assert "no field differs" in ok("rules", "diff", "maceplay", "maceplay")


def test_rules_new_writes_house_rules_to_use(tmp_path: Path) -> None:
    text = ok("rules", "new", "--from", "pokerclub_south", "--name", "our club")
    house = cp.RuleSet.from_toml(text)
    assert house == cp.RuleSet.preset("pokerclub_south").replace(name="our club")
    (tmp_path / "house.toml").write_text(text.replace("majority_point = 0", "majority_point = 1"))
    result = run("solve", HAND, "--rules", "house.toml", "--json", cwd=tmp_path)
    assert result.returncode == 0
    assert json.loads(result.stdout)[0]["rules"] == "our club"
    # no tables trained for these values: said once, on one line
    assert result.stderr.startswith("chinese-poker solve: warning: no tables were trained")
    assert result.stderr.count("\n") == 1
    assert ok("rules", "new", "--out", "h.toml", cwd=tmp_path).startswith("wrote h.toml")
    assert cp.RuleSet.from_toml((tmp_path / "h.toml").read_text()).name == "house"


# -- demo and tables ---------------------------------------------------------------------------


def test_demo_prints_its_seed_and_replays() -> None:
    first = ok("demo")
    seed = re.match(r"Seed (\d+) \(replay this round: (.*)\)", first)
    assert seed is not None
    replay = seed.group(2).split()[1:]  # without the program name
    assert ok(*replay) == first
    text = ok("demo", "--seed", "1", "--players", "3")
    assert text.startswith("Seed 1 ") and "P2 is dealt" in text and "totals: P0" in text
    data = ok_json("demo", "--seed", "1", "--players", "3")
    assert data["seed"] == 1 and len(data["solutions"]) == 3
    assert sum(data["settlement"]["totals"]) == 0


def test_tables_train_prints_the_path_it_wrote(tmp_path: Path) -> None:
    args = ["tables", "train", "--rules", "one_six", "--players", "2", "--deals", "50"]
    text = ok(*args, "--out", "ro", cwd=tmp_path)
    last = text.strip().splitlines()[-1]
    assert last.startswith("wrote ro.npz (12 iterations")
    assert "did not converge" in last
    assert (tmp_path / "ro.npz").is_file()
    meta = ok_json(*args, "--out", "r2", cwd=tmp_path)
    assert meta["iterations"] == 12 and meta["converged"] is False


# -- bad arguments: one line naming the argument, exit code 2, before any work -----------------


@pytest.mark.parametrize(
    ("args", "names", "stdin"),
    [
        (["demo", "--rules", "nope"], "--rules", None),
        (["demo", "--seed", "-1"], "--seed", None),
        (["demo", "--seed", "x"], "--seed", None),
        (["demo", "--players", "5"], "--players", None),
        (["solve"], "HAND", None),
        (["solve", "As Ks"], "HAND", None),
        (["solve", HAND.replace("2d", "2s")], "HAND", None),
        (["solve"], "line 2", f"{HAND}\nAs Ks Qs\n"),
        (["solve", "--file", "missing.txt"], "--file", None),
        (["solve", "--file", "latin1.json"], "--file", None),
        (["solve", HAND, "--file", "h.txt"], "--file", None),
        (["solve", HAND, "--rules", "nope"], "--rules", None),
        (["solve", HAND, "--rules", "bad.json"], "--rules", None),
        (["solve", HAND, "--players", "1"], "--players", None),
        (["solve", HAND, "--objective", "best"], "--objective", None),
        (["solve", HAND, "--top", "0"], "--top", None),
        (["solve", HAND, "--samples", "1"], "--samples", None),
        (["settle"], "SETTING", None),
        (["settle", ROUND[0]], "SETTING", None),
        (["settle", ROUND[0], "As Ks Qs / Js"], "SETTING", None),
        (["settle", ROUND[0], ROUND[1].replace("2h", "2x")], "SETTING", None),
        (["settle", *ROUND], "SETTING", None),  # maceplay does not allow surrender
        (["settle", ROUND[0], "Ah Kh 2c / Jc Jd 8s 6c 4d / Ac Th 6h 3h 2h"], "SETTING", None),
        (["settle", *ROUND[:2], "--bankrolls", "1,x"], "--bankrolls", None),
        (["settle", *ROUND[:2], "--bankrolls", "1,2,3"], "--bankrolls", None),
        (["settle", *ROUND[:2], "--dealer", "2"], "--dealer", None),
        (["settle", "--file", "bad.toml"], "--file", None),
        (["settle", "--file", "missing.json"], "--file", None),
        (["settle", "--file", "odd.json"], "--file", None),
        (["settle", "--file", "h.txt"], "--file", None),
        (["simulate", "--rounds", "0"], "--rounds", None),
        (["simulate", "--players", "1"], "--players", None),
        (["simulate", "--policy", "smart"], "--policy", None),
        (["simulate", "--policy", "table,greedy"], "--policy", None),
        (["simulate", "--out", "/nonexistent-dir/r.parquet"], "--out", None),
        (["simulate", "--out", "bad.toml"], "--out", None),  # a file already there
        (["simulate", "--resume"], "--resume", None),
        (["simulate", "--plot", "r.txt"], "--plot", None),
        (["simulate", "--compare", "nope"], "--compare", None),
        (["simulate", "--threads", "0"], "--threads", None),
        (["duel", "smart", "table"], "A", None),
        (["duel", "table", "greedy", "--deals", "0"], "--deals", None),
        (["duel", "table", "greedy", "--plot", "/nonexistent-dir/d.png"], "--plot", None),
        (["rules", "show", "nope"], "NAME", None),
        (["rules", "diff", "maceplay", "bad.toml"], "Y", None),
        (["rules", "new", "--from", "nope"], "--from", None),
        (["rules", "new", "--out", "h.json"], "--out", None),
        (["rules", "frobnicate"], "ACTION", None),
        (["frobnicate"], "COMMAND", None),
        ([], "COMMAND", None),
        (["tables", "train", "--rules", "nope"], "--rules", None),
        (["tables", "train", "--rules", "missing.json"], "--rules", None),
        (["tables", "train", "--rules", "bad.json"], "--rules", None),
        (["tables", "train", "--rules", "bad.toml"], "--rules", None),
        (["tables", "train", "--rules", "latin1.json"], "--rules", None),
        (["tables", "train", "--threads", "0"], "--threads", None),
        (["tables", "train", "--deals", "-5"], "--deals", None),
        (["tables", "train", "--deals", "0"], "--deals", None),
        (["tables", "train", "--seed", "-1"], "--seed", None),
        (["tables", "train", "--seed", str(2**64)], "--seed", None),
        (["tables", "train", "--out", "/nonexistent-dir/x.npz"], "--out", None),
        (["tables", "train", "--all", "--rules", "maceplay"], "--all", None),
        (["tables", "train", "--resume"], "--resume", None),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    args: list[str], names: str, stdin: str | None, tmp_path: Path
) -> None:
    (tmp_path / "bad.json").write_text('{"majority_point": -3}')
    (tmp_path / "bad.toml").write_text("majority_point = [")
    (tmp_path / "latin1.json").write_bytes('{"name": "café"}'.encode("latin-1"))
    (tmp_path / "odd.json").write_text('{"seats": ["x"], "colour": 1}')
    (tmp_path / "h.txt").write_text(HAND)
    start = time.perf_counter()
    result = run(*args, stdin=stdin, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert names in lines[0]
    assert time.perf_counter() - start < 10  # nothing long ran first


@pytest.mark.needs("pyarrow", "matplotlib")
def test_cli_guide_examples_run(tmp_path: Path) -> None:
    """Every command in the command-line guide's first block runs as written, in order, in a
    fresh directory holding the two files the block reads (a hands file and a round file); the
    `rules new ... > house.toml` line writes the rule set the later lines use."""
    guide = Path(__file__).resolve().parents[1] / "docs" / "guide" / "cli.md"
    block = guide.read_text(encoding="utf-8").split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [shlex.split(c, comments=True) for c in block.replace("\\\n", " ").splitlines() if c]
    assert len(commands) >= 12
    (tmp_path / "hands.txt").write_text(
        "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d\nAh Kh Qh Jh Th 9c 9s 4d 4c 3h 3d 2c 2h\n"
    )
    (tmp_path / "round.toml").write_text(
        'rules = "maceplay"\nseats = ["' + '", "'.join(ROUND[:2]) + '"]\n'
    )
    for words in commands:
        assert words[0] == "chinese-poker"
        cut = words.index(">") if ">" in words else len(words)
        # `tables train` with its defaults plays about 6 million hands: minutes, not seconds
        result = run(*words[1:cut], cwd=tmp_path, timeout=1200)
        assert result.returncode == 0, (words, result.stderr)
        if cut < len(words):
            (tmp_path / words[cut + 1]).write_text(result.stdout)
    assert (tmp_path / "results.parquet").stat().st_size > 0
    assert (tmp_path / "results.png").read_bytes().startswith(PNG)


def test_an_internal_error_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    def broken(args: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli.rules, "run", broken)
    monkeypatch.delenv("CHINESE_POKER_DEBUG", raising=False)
    assert cli.main(["rules", "list"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "chinese-poker rules: internal error: RuntimeError: boom (please report it; set "
        "CHINESE_POKER_DEBUG=1 for the traceback)\n"
    )
    monkeypatch.setenv("CHINESE_POKER_DEBUG", "1")
    with pytest.raises(RuntimeError):
        cli.main(["rules", "list"])
