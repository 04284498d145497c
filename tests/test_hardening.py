"""Regression tests of issue 16's reproducers (the argument reader, allocations, policy
decisions, settle_batch, bankrolls, rule-set text, plots, the CLI, a table saved and resumed,
honest statistics). Each test names the reproducer it pins."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import numpy.typing as npt
import pytest
from chinese_poker import _core
from chinese_poker.exceptions import (
    ChinesePokerError,
    DuplicateCardError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidDecisionError,
    InvalidRulesError,
    InvalidShapeError,
    InvalidTypeError,
)

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
ROUND = [
    "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s",
    "Ac Kc 7d / Jc Jd 8s 6c 4d / Ah Th 6h 3h 2h",
]
DECISIONS = [tuple(r.split(" / ")) for r in ROUND]

# -- the one argument reader -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "argument", "pattern"),
    [
        # crash: a 57 TB allocation aborted the interpreter
        (lambda: cp.deal(2**40, 4), InvalidArgumentError, "rounds", "from 0 to 4194304"),
        (lambda: cp.deal(2**33, 4), InvalidArgumentError, "rounds", "from 0 to 4194304"),
        (lambda: cp.deal(1.5), InvalidTypeError, "rounds", "got float"),
        (lambda: cp.deal(True), InvalidTypeError, "rounds", "got bool"),
        (lambda: cp.deal(1, 5), InvalidArgumentError, "players", "from 2 to 4"),
        (lambda: cp.deal(1, 2, -1), InvalidArgumentError, "seed", "from 0 to 18446744073709551615"),
        (
            lambda: cp.deal(1, 2, 0, 2**64),
            InvalidArgumentError,
            "first",
            "got 18446744073709551616",
        ),
        (lambda: cp.simulate(2, 2, threads=1.5, progress=False), InvalidTypeError, "threads", ""),
        (lambda: cp.simulate(2, 2, shards=1.5, progress=False), InvalidTypeError, "shards", ""),
        (lambda: cp.simulate(2, 2, policies=5, progress=False), InvalidTypeError, "policies", ""),  # type: ignore[arg-type]
        (
            lambda: cp.simulate(2, 2, policies=[cp.Greedy, cp.Greedy()], progress=False),  # type: ignore[list-item]
            InvalidTypeError,
            "policies[0]",
            r"the class Greedy.*Greedy\(\)",
        ),
        (
            lambda: cp.duel(5, cp.Greedy(), deals=2, progress=False),
            InvalidTypeError,
            "policy_a",
            "",
        ),  # type: ignore[arg-type]
        (
            lambda: cp.duel(cp.Greedy(), lambda h: None, deals=2, progress=False),
            InvalidDecisionError,
            "policy_b",
            "got NoneType",
        ),
        (lambda: cp.TableEV(b"x.npz"), InvalidTypeError, "tables", "got bytes"),  # type: ignore[arg-type]
        (lambda: cp.TableEV("a\0b"), InvalidArgumentError, "tables", "NUL"),
        (lambda: cp.parse_hands([HAND], cards=13.0), InvalidTypeError, "cards", "got float"),  # type: ignore[arg-type]
        (lambda: cp.parse_hands([HAND], cards=2**64), InvalidArgumentError, "cards", "1 to 52"),
        (lambda: cp.parse_hands([HAND], cards=-1), InvalidArgumentError, "cards", "1 to 52"),
        (lambda: cp.parse_hands([HAND], cards=True), InvalidTypeError, "cards", "got bool"),
        # a bad dealer shows the real bound, not the whole i128 range
        (lambda: cp.Table(2, dealer=7), InvalidArgumentError, "dealer", "from 0 to 1, got 7"),
        (
            lambda: cp.settle(DECISIONS, "maceplay", dealer=7),
            InvalidArgumentError,
            "dealer",
            "from 0 to 1",
        ),
        # a huge bankroll: the bound of the rule set, no negative lower bound under a cap
        (
            lambda: cp.Table(2, "pokerfever_western", bankrolls=[2**70, 1]),
            InvalidArgumentError,
            "bankrolls[0]",
            f"from 0 to {_core.MAX_BANKROLL}",
        ),
        (lambda: cp.Table(2, bankrolls=100), InvalidTypeError, "bankrolls", "got int"),  # type: ignore[arg-type]
        (
            lambda: cp.Table(2, bankrolls=(b for b in [1, 2])),
            InvalidTypeError,
            "bankrolls",
            "generator",
        ),  # type: ignore[arg-type]
        # a dict used to be read as its keys
        (lambda: cp.Table(2, bankrolls={0: 100, 1: 200}), InvalidTypeError, "bankrolls", "dict"),  # type: ignore[arg-type]
        (lambda: cp.Table(2, history=-1), InvalidArgumentError, "history", ""),
    ],
)
def test_arguments_are_read_once_and_named(
    call: Any, error: type[Exception], argument: str, pattern: str
) -> None:
    with pytest.raises(error, match=pattern or None) as e:
        call()
    assert isinstance(e.value, ChinesePokerError) and e.value.argument == argument


def test_numpy_integers_are_accepted_everywhere() -> None:
    i = np.int64
    assert cp.deal(i(2), np.uint8(2), i(3), i(1)).shape == (2, 2, 13)
    assert cp.parse_hands([HAND], cards=i(13)).shape == (1, 13)
    run = cp.simulate(
        i(3), i(2), policies=[cp.Greedy()] * 2, seed=i(1), threads=i(1), progress=False
    )
    assert run.rounds == 3
    # shards=np.int64(3) was refused though numpy ints counted elsewhere
    assert cp.simulate(2, 2, policies=[cp.Greedy()] * 2, shards=i(3), progress=False).rounds == 2
    table = cp.Table(i(2), dealer=i(1), seed=i(4), bankrolls=np.array([5, 6]), history=i(2))
    assert table.dealer == 1 and table.bankrolls == (5, 6)


def test_a_numpy_bool_is_not_a_number() -> None:
    with pytest.raises(InvalidTypeError, match="bool"):
        cp.deal(np.bool_(True))


def test_the_bound_in_the_message_is_the_bound_enforced() -> None:
    assert cp.deal(_core.MAX_DEALT_ROUNDS - _core.MAX_DEALT_ROUNDS + 1, 2).shape[0] == 1
    with pytest.raises(InvalidArgumentError, match=f"to {_core.MAX_DEALT_ROUNDS},"):
        _core.deal(_core.MAX_DEALT_ROUNDS + 1, 2, 0)
    # the chunk functions check the same bound before allocating
    with pytest.raises(InvalidArgumentError, match="rounds"):
        _core.simulate_chunk(cp.RuleSet().compiled, [("greedy",)] * 2, 0, 0, 2**40)


# -- policies play their own cards -------------------------------------------------------------


def _cheat(hand: npt.NDArray[np.uint8]) -> object:
    codes = [c for c in range(52) if c not in set(int(x) for x in hand)][:13]
    return (codes[:3], codes[3:8], codes[8:])


def test_a_python_policy_cannot_play_cards_it_was_not_dealt() -> None:
    with pytest.raises(InvalidDecisionError, match="not dealt to seat 0") as e:
        cp.simulate(2, 2, policies=[_cheat, cp.Greedy()], progress=False)
    assert e.value.player == 0
    table = cp.Table(2, "two_four", policies=[cp.Greedy(), _cheat])
    table.deal()
    with pytest.raises(InvalidDecisionError, match="not dealt to seat 1") as e:
        table.ask(1)
    assert e.value.player == 1
    with pytest.raises(InvalidDecisionError, match="seat 0"):
        table.act(0, _cheat(table._hands[0]))  # type: ignore[index]


def test_a_policy_gets_a_read_only_copy_of_its_hand() -> None:
    seen: list[npt.NDArray[np.uint8]] = []

    def writer(hand: npt.NDArray[np.uint8]) -> object:
        seen.append(hand)
        with pytest.raises(ValueError, match="read-only"):
            hand[:] = 51
        return cp.solve(hand, "two_four", 2).as_decision()

    run = cp.simulate(3, 2, "two_four", policies=[writer, cp.Greedy()], progress=False)
    assert run.columns is not None
    dealt = cp.deal(3, 2, 0).reshape(-1, 13)
    assert np.array_equal(run.columns["hand"], dealt)
    table = cp.Table(2, "two_four", policies=[writer, cp.Greedy()])
    table.play_round()
    assert list(table.history[0].hands[0]) == cp.deal(1, 2, 0)[0][0].tolist()
    assert all(not h.flags.writeable for h in seen)


# -- settle_batch ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "argument"),
    [
        ({"choices": np.full((2, 2), 256)}, InvalidArgumentError, "choices"),
        ({"choices": np.full((2, 2), -1)}, InvalidArgumentError, "choices"),
        ({"choices": [[2**70, 0], [0, 0]]}, InvalidTypeError, "choices"),  # an object array
        # floats were truncated (0.7 played, 1.9 declared), bools and NaN accepted
        ({"choices": np.full((2, 2), 0.7)}, InvalidTypeError, "choices"),
        ({"choices": np.full((2, 2), 1.9)}, InvalidTypeError, "choices"),
        ({"choices": np.full((2, 2), np.nan)}, InvalidTypeError, "choices"),
        ({"choices": np.full((2, 2), True)}, InvalidTypeError, "choices"),
        ({"choices": [["a", "b"], ["c", "d"]]}, InvalidTypeError, "choices"),
        ({"choices": [[0], [0, 1]]}, InvalidShapeError, "choices"),
        ({"choices": np.zeros(2, np.uint8)}, InvalidShapeError, "choices"),
        ({"choices": np.zeros((3, 2), np.uint8)}, InvalidShapeError, "choices"),
        ({"naturals": np.full((2, 2), 1.0)}, InvalidTypeError, "naturals"),
        ({"settings": np.zeros((2, 2, 12), np.uint8)}, InvalidShapeError, "settings"),
        ({"settings": np.zeros((2, 5, 13), np.uint8)}, InvalidShapeError, "settings"),
        ({"settings": "As Ks"}, InvalidTypeError, "settings"),
        ({"threads": 0}, InvalidArgumentError, "threads"),
    ],
)
def test_settle_batch_refuses_bad_arrays_naming_them(
    kwargs: dict[str, Any], error: type[Exception], argument: str
) -> None:
    settings = kwargs.pop("settings", cp.deal(2, 2, 1))
    with pytest.raises(error) as e:
        cp.settle_batch(settings, "two_four", **kwargs)
    assert e.value.argument == argument  # type: ignore[attr-defined]


def test_settle_batch_takes_any_integer_dtype_and_raises_settles_errors() -> None:
    dealt = cp.deal(3, 2, 1)
    points = cp.settle_batch(dealt.astype(np.int64), "two_four")
    assert np.array_equal(points, cp.settle_batch(dealt, "two_four"))
    assert (points.sum(axis=1) == 0).all()
    twice = dealt.copy()
    twice[1, 1, 0] = twice[1, 0, 0]
    # settle raises DuplicateCardError for a card held twice: so does settle_batch
    with pytest.raises(DuplicateCardError, match="round 1") as e:
        cp.settle_batch(twice, "two_four")
    assert e.value.player == 1
    inside = dealt.copy()
    inside[0, 0, 1] = inside[0, 0, 0]
    with pytest.raises(DuplicateCardError, match="round 0"):
        cp.settle_batch(inside, "two_four")
    bad = dealt.copy()
    bad[2, 1, 4] = 60
    with pytest.raises(InvalidCardError, match="round 2, seat 1"):
        cp.settle_batch(bad, "two_four")


# -- bankrolls ---------------------------------------------------------------------------------


def test_an_uncapped_table_in_debt_plays_on() -> None:
    # one_six does not cap payments by bankroll: "bankroll -5 is negative" used to stop it
    table = cp.Table(2, "one_six", bankrolls=[1, 1], policies=[cp.Greedy(), cp.RandomLegal()])
    for _ in range(6):
        table.play_round()
        assert table.bankrolls is not None and sum(table.bankrolls) == 2
    assert min(table.bankrolls) < 0
    assert table.busted == ()


def test_a_busted_seat_under_a_cap_plays_for_nothing_until_topped_up() -> None:
    table = cp.Table(2, "pokerfever_western", bankrolls=[0, 50], seed=3)
    assert table.busted == (0,)
    result = table.play_round()
    assert result.totals == (0, 0) and table.bankrolls == (0, 50)
    table.top_up(0, 20)
    assert table.bankrolls == (20, 50) and table.busted == ()
    with pytest.raises(InvalidArgumentError, match="amount"):
        table.top_up(0, -1)


def test_settle_takes_a_negative_bankroll_only_where_uncapped() -> None:
    assert cp.settle(DECISIONS, "maceplay", bankrolls=[-3, 7]).bankrolls_after is not None
    with pytest.raises(InvalidArgumentError, match=r"bankrolls\[0\].*from 0"):
        cp.settle(DECISIONS, "pokerfever_western", bankrolls=[-3, 7])


# -- rule-set text -----------------------------------------------------------------------------


def test_rule_set_text_fields_are_text() -> None:
    with pytest.raises(InvalidRulesError, match="lone surrogate") as e:
        cp.RuleSet.preset("maceplay").replace(name="club\ud800")
    assert e.value.field == "name"
    # a TOML date used to be taken as a name, and to_json() then failed
    with pytest.raises(InvalidRulesError, match="expected text, got date") as e:
        cp.RuleSet.from_toml('name = 2024-01-01\nwheel = "low"\n')
    assert e.value.field == "name"
    with pytest.raises(InvalidRulesError, match="one line") as e:
        cp.RuleSet().replace(name="our\nclub")
    assert e.value.field == "name"
    assert cp.RuleSet().replace(description="two\nlines").description == "two\nlines"


def test_a_lone_surrogate_in_a_hand_is_an_invalid_card() -> None:
    with pytest.raises(InvalidCardError) as e:
        cp.parse_hands(["As Ks", "As \ud800"], cards=2)
    assert e.value.line == 1 and str(e.value).startswith("line 1: ")


# -- plots -------------------------------------------------------------------------------------


def test_plots_check_their_arguments_first(tmp_path: Path) -> None:
    plots = pytest.importorskip("chinese_poker.plots")
    pytest.importorskip("matplotlib")
    with pytest.raises(InvalidTypeError, match="Simulation") as e:
        plots.report(5)
    assert e.value.argument == "sim"
    run = cp.simulate(20, 2, "two_four", [cp.Greedy()] * 2, progress=False)
    ax = plots.points_distribution(run)
    for target, pattern in [
        (tmp_path, "is a directory"),  # used to write DIR.png and return DIR
        (tmp_path / "plot.txt", r"\.png"),
        (tmp_path / "missing" / "plot.png", "does not exist"),
    ]:
        with pytest.raises(InvalidArgumentError, match=pattern) as e:
            plots.save(ax, target)
        assert e.value.argument == "path"
    assert sorted(os.listdir(tmp_path)) == []
    assert plots.save(ax, tmp_path / "ok.png").stat().st_size > 0


# -- honest statistics -------------------------------------------------------------------------


def test_one_round_or_deal_has_no_interval() -> None:
    run = cp.simulate(1, 2, "two_four", [cp.Greedy(), cp.RandomLegal()], progress=False)
    for s in run.summary():
        assert math.isfinite(s.mean)
        assert math.isnan(s.stderr) and math.isnan(s.ci_low) and math.isnan(s.ci_high)
    assert "n/a" in str(run) and "[+0.000" not in str(run)
    duel = cp.duel(cp.Greedy(), cp.RandomLegal(), deals=1, rules="two_four", progress=False)
    assert math.isnan(duel.stderr) and math.isnan(duel.deals_needed)
    assert "95% CI n/a" in str(duel) and "deals to resolve n/a" in str(duel)
    two = cp.duel(cp.Greedy(), cp.RandomLegal(), deals=2, rules="two_four", progress=False)
    assert math.isfinite(two.stderr)


# -- the command line --------------------------------------------------------------------------


def _cli(*args: str, env: dict[str, str] | None = None, stdin: bytes = b"") -> Any:
    return subprocess.run(
        [sys.executable, "-m", "chinese_poker", *args],
        input=stdin,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def test_cli_on_an_ascii_stdout_does_not_crash() -> None:
    done = _cli("settle", *ROUND, "surrender", "--rules", "pokerfever_eastern",
                env={"PYTHONIOENCODING": "ascii"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("ascii")
    assert "Qs Qh Qd" in text and "P2: surrendered" in text
    as_json = _cli("settle", *ROUND, "--json", env={"PYTHONIOENCODING": "ascii"})
    assert as_json.returncode == 0 and json.loads(as_json.stdout)["totals"]


def test_cli_solve_names_the_file_line_and_refuses_binary_input(tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text(f"# hands\n{HAND}\n\n{HAND}\n{HAND[:-2]}Xx\n")
    done = _cli("solve", "--file", str(hands))
    err = done.stderr.decode()
    assert done.returncode == 2 and "line 5 (" in err and "line 2" not in err, err
    binary = _cli("solve", stdin=b"\xff\xfe\x00garbage")
    assert binary.returncode == 2 and "not UTF-8" in binary.stderr.decode()


def test_cli_round_file_rules_must_be_rules(tmp_path: Path) -> None:
    round_file = tmp_path / "round.toml"
    round_file.write_text(f'rules = 5\nseats = ["{ROUND[0]}", "{ROUND[1]}"]\n')
    done = _cli("settle", "--file", str(round_file))
    assert done.returncode == 2 and "rules: expected a preset name" in done.stderr.decode()


def test_cli_rules_new_name_is_one_line() -> None:
    done = _cli("rules", "new", "--name", "our\nclub")
    assert done.returncode == 2 and "--name" in done.stderr.decode()


def test_cli_tables_train_all_names_out(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("")
    done = _cli("tables", "train", "--all", "--out", str(target))
    err = done.stderr.decode()
    assert done.returncode == 2 and "--out" in err and "out_dir" not in err, err


def test_cli_count_help_states_the_check() -> None:
    from chinese_poker.cli import build_parser

    help_text = " ".join(build_parser().format_help().split())
    assert help_text  # the parser builds
    for cmd, option, high in [
        (["duel", "table", "greedy"], "--deals", _core.MAX_ROUNDS),
        (["simulate"], "--rounds", _core.MAX_ROUNDS),
    ]:
        done = _cli(*cmd, option, str(high + 1))
        assert done.returncode == 2 and f"{high:,}" in done.stderr.decode()
    train = _cli("tables", "train", "--help").stdout.decode()
    max_deals = _core.TRAIN_DEFAULTS["max_deals"]
    assert f"{max_deals:,}" in " ".join(train.split())
    over = _cli("tables", "train", "--deals", str(max_deals + 1))
    assert over.returncode == 2 and f"{max_deals:,}" in over.stderr.decode()


@pytest.mark.parametrize("hand", [5, None, 1.5, object()])
def test_a_hand_that_is_no_cards_is_a_type_error(hand: object) -> None:
    """Anything that is not text, a CardSet or an iterable of cards: the package's type error,
    never Python's own "object is not iterable"."""
    with pytest.raises(InvalidTypeError, match="expected str, CardSet or an iterable of cards"):
        cp.Solver("maceplay", 4).solve(hand)  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError, match="expected str, CardSet or an iterable of cards"):
        cp.solve(hand)  # type: ignore[arg-type]
