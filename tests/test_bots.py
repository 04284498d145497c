"""A bot writer's workflow: a Python policy in a duplicate duel against the built-in ones
(scored exactly as the core scores two built-in policies), Monte Carlo on a wall-clock budget,
and one default rule set and Monte Carlo budget on every surface."""

from __future__ import annotations

import json
import time
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core, cli
from chinese_poker._runner import decide_chunk
from chinese_poker.cli._shared import policy as cli_policy
from chinese_poker.exceptions import InvalidArgumentError, InvalidDecisionError, InvalidTypeError
from chinese_poker.policies import _spec

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"


def replay(rules: str, players: int, deals: int, seed: int = 0) -> Any:
    """A Python policy playing the table policy's own decisions on a duel's deals."""
    hands = cp.deal(deals, players, seed).reshape(-1, 13)
    batch = cp.solve_batch(hands, rules, players, threads=1)
    book = {h.tobytes(): batch.decision(i) for i, h in enumerate(hands)}
    return lambda hand: book[hand.tobytes()]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_python_policy_duels_exactly_as_the_built_in_it_replays(players: int) -> None:
    rules = "two_four" if players == 2 else "maceplay"
    built_in = cp.duel(cp.TableEV(), cp.Greedy(), 60, rules, players, seed=3, progress=False)
    mine = cp.duel(
        replay(rules, players, 60, 3), cp.Greedy(), 60, rules, players, seed=3, progress=False
    )
    assert np.array_equal(mine.edges, built_in.edges)
    assert mine.same_share == built_in.same_share and mine.edge > 0
    assert mine.a == "<lambda>"


def test_the_decided_path_scores_built_ins_as_the_core_duel() -> None:
    # the path a Python policy takes (decisions first, then the rotations scored by the core)
    # gives the core duel's own per-deal edges for two built-in policies
    rs = cp.RuleSet.preset("pokerclub_south")
    a, b = cp.TableEV(), cp.RandomLegal()
    specs = [_spec(p, rs, 3, 0) for p in (a, b)]
    edges, same = _core.duel_chunk(rs.compiled, 3, specs[0], specs[1], 9, 5, 40)
    hands = _core.deal(40, 3, 9, 5)
    sides = [
        decide_chunk(rs, [s] * 3, [p] * 3, 9, 5, 40, None, hands)[:3]
        for s, p in zip(specs, (a, b), strict=True)
    ]
    e2, s2 = _core.duel_decided(rs.compiled, sides[0], sides[1])
    assert np.array_equal(edges, e2) and np.array_equal(same, s2)


def test_a_worse_python_bot_loses_its_duel() -> None:
    def first_legal(hand: np.ndarray) -> object:
        codes, _ = cp.solver.legal_settings(hand)
        return codes[0][:3].tolist(), codes[0][3:8].tolist(), codes[0][8:].tolist()

    res = cp.duel(cp.TableEV(), first_legal, 80, "maceplay", progress=False)
    assert res.ci_low > 0, str(res)
    back = cp.duel(first_legal, cp.TableEV(), 80, "maceplay", progress=False)
    assert back.edge == pytest.approx(-res.edge)


def test_a_python_bot_that_cheats_or_fails_is_named() -> None:
    with pytest.raises(InvalidDecisionError, match=r'^argument "policy_a": player 0: .*not dealt'):
        cp.duel(lambda h: cp.solve(HAND).setting, cp.Greedy(), 2, "maceplay", progress=False)
    with pytest.raises(InvalidDecisionError, match=r'^argument "policy_b": '):
        cp.duel(cp.Greedy(), lambda h: 7, 2, "maceplay", progress=False)


def test_ctrl_c_in_a_python_policy_keeps_the_deals_done() -> None:
    calls = 0

    def tired(hand: np.ndarray) -> object:
        nonlocal calls
        calls += 1
        if calls > 300:
            raise KeyboardInterrupt
        return cp.solve(hand, "maceplay", 2).setting

    res = cp.duel(cp.TableEV(), tired, 10_000, "maceplay", progress=False)
    assert res.interrupted and 0 < res.deals < 10_000 and len(res.edges) == res.deals


# -- Monte Carlo on a clock ---------------------------------------------------------------------


def test_monte_carlo_time_limit_stops_sampling_and_says_how_many() -> None:
    mc = cp.MonteCarlo(time_limit=0.05, confidence=0)
    start = time.perf_counter()
    sol = cp.solve(HAND, "maceplay", 4, mc)
    took = time.perf_counter() - start
    # the budget is checked every 128 samples: far fewer than the sample cap it lifts
    assert 128 <= sol.samples < _core.MAX_SAMPLES and sol.samples % 128 == 0
    assert took < 5, took  # a stopped clock would run ten million samples
    assert sol.stderr is not None and sol.stderr > 0


def test_a_sample_cap_still_holds_under_a_time_limit_and_repeats() -> None:
    mc = cp.MonteCarlo(samples=300, time_limit=600, confidence=0, seed=4)
    one, two = (cp.solve(HAND, "maceplay", 2, mc) for _ in range(2))
    assert one.samples == two.samples == 300 and one.value == two.value


def test_monte_carlo_defaults_follow_the_time_limit() -> None:
    assert cp.MonteCarlo().samples is None
    assert cp.solve(HAND, "two_four", 2, cp.MonteCarlo(confidence=0)).samples == _core.MC_SAMPLES


@pytest.mark.parametrize(
    ("value", "error", "text"),
    [
        (0, InvalidArgumentError, "above 0"),
        (-1.5, InvalidArgumentError, "above 0"),
        (float("nan"), InvalidArgumentError, "above 0"),
        (float("inf"), InvalidArgumentError, "at most 86400"),
        (_core.MAX_TIME_LIMIT * 2, InvalidArgumentError, "at most"),
        ("1", InvalidTypeError, "number"),
    ],
)
def test_a_bad_time_limit_is_named(value: object, error: type, text: str) -> None:
    with pytest.raises(error, match=f"time_limit.*{text}"):
        cp.MonteCarlo(time_limit=value)  # type: ignore[arg-type]


def test_a_monte_carlo_seat_on_a_clock_plays_a_simulation() -> None:
    run = cp.simulate(
        3, 2, "two_four", [cp.MonteCarlo(time_limit=0.01), cp.Greedy()], progress=False
    )
    assert run.rounds == 3


# -- one default --------------------------------------------------------------------------------


def test_one_default_rule_set_on_every_surface(capsys: pytest.CaptureFixture[str]) -> None:
    default = cp.RuleSet.preset(_core.DEFAULT_PRESET)
    assert cp.solve(HAND).value == cp.solve(HAND, _core.DEFAULT_PRESET).value
    assert cp.Solver().rules == default
    assert cli.main(["solve", HAND, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    shown = shown[0] if isinstance(shown, list) else shown
    assert shown["value"] == pytest.approx(cp.solve(HAND, players=4).value)


def test_one_default_monte_carlo_budget() -> None:
    assert cli_policy("mc", None, None) == cp.MonteCarlo()
    for command in (["simulate"], ["duel", "mc", "table"], ["solve", HAND]):
        args = cli.build_parser().parse_args(command)
        assert args.samples is None and args.time_limit is None
