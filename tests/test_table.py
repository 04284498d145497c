"""Table: seeded deals, rotating dealer, decisions from people and policies, the rule set's
timeout, bankroll caps in dealer order, history as JSON and Arrow."""

from __future__ import annotations

import json
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker.exceptions import InvalidArgumentError, InvalidDecisionError


def test_a_round_by_hand_and_by_policy() -> None:
    table = cp.Table(players=3, rules="pokerfever_western", bankrolls=[100, 100, 100], seed=7)
    hands = table.deal()
    assert [[c.code for c in h] for h in hands] == cp.deal(1, 3, 7)[0].tolist()
    sol = cp.solve(list(hands[0]), "pokerfever_western", players=3)
    table.act(0, sol.as_decision())
    table.ask(1)
    result = table.settle()
    assert sum(result.totals) == 0
    assert table.bankrolls is not None and sum(table.bankrolls) == 300
    rec = table.history[0]
    assert rec.timed_out == (2,) and rec.dealer == 0 and table.dealer == 1 and table.round == 1
    assert result.players[2].status == "fouled"  # pokerfever's timeout is a foul


def test_timeout_auto_sets_the_hand_with_the_solver() -> None:
    auto = cp.Table(players=4, rules="maceplay", seed=3)
    auto.deal()
    got = auto.settle()  # nobody acted: maceplay sets every hand
    asked = cp.Table(players=4, rules="maceplay", seed=3)
    expected = asked.play_round()
    assert got.totals == expected.totals
    assert all(p.status != "fouled" for p in got.players)
    assert auto.history[0].timed_out == (0, 1, 2, 3)


def test_dealer_rotates_and_bankroll_cap_keeps_everyone_solvent() -> None:
    table = cp.Table(
        players=4,
        rules="pokerfever_eastern",
        bankrolls=[5, 40, 3, 60],
        dealer=2,
        seed=11,
        policies=[cp.Greedy(), cp.TableEV(), cp.RandomLegal(), cp.TableEV()],
    )
    dealers = []
    for _ in range(12):
        dealers.append(table.dealer)
        table.play_round()
        assert table.bankrolls is not None
        assert sum(table.bankrolls) == 108 and min(table.bankrolls) >= 0
    assert dealers[:5] == [2, 3, 0, 1, 2]
    data = json.loads(table.to_json())
    assert len(data["rounds"]) == 12 and data["rounds"][0]["dealer"] == 2
    assert data["rounds"][-1]["bankrolls_after"] == list(table.bankrolls)
    pa = pytest.importorskip("pyarrow")
    arrow = table.to_arrow()
    assert isinstance(arrow, pa.Table) and arrow.num_rows == 48


def test_the_timeout_foul_setting_always_fouls() -> None:
    hands = cp.deal(2000, 4, seed=1).reshape(-1, 13)
    for hand in hands[:2000]:
        s = _core.fouled_setting(hand, "low")
        assert s.is_foul("low")
        assert sorted(c.code for r in s.rows() for c in r) == sorted(int(c) for c in hand)


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda t: t.settle(), InvalidArgumentError),
        (lambda t: t.act(0, cp.Surrender()), InvalidArgumentError),
        (lambda t: (t.deal(), t.deal()), InvalidArgumentError),
        (lambda t: (t.deal(), t.act(5, cp.Surrender())), InvalidArgumentError),
        (
            lambda t: (
                t.deal(),
                t.act(
                    0,
                    t.hands[1]
                    and cp.Setting.parse(
                        " ".join(str(c) for c in t.hands[1][:3])
                        + " / "
                        + " ".join(str(c) for c in t.hands[1][3:8])
                        + " / "
                        + " ".join(str(c) for c in t.hands[1][8:])
                    ),
                ),
            ),
            InvalidDecisionError,
        ),
    ],
)
def test_bad_calls(call: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        call(cp.Table(players=2, rules="two_four"))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 1},
        {"bankrolls": "12"},
        # a negative bankroll under a bankroll cap (uncapped, a seat may be in debt)
        {"bankrolls": [1, -2], "rules": "pokerfever_western"},
        {"dealer": 4},
        {"seed": -1},
    ],
)
def test_bad_setup(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgumentError):
        cp.Table(**{"players": 2, "rules": "two_four", **kwargs})


def test_fouled_setting_is_deterministic() -> None:
    hand = np.array(cp.deal(1, 2, 5)[0][0])
    assert str(_core.fouled_setting(hand, "low")) == str(_core.fouled_setting(hand, "low"))


def test_a_timeout_foul_under_a_rule_set_that_refuses_fouls_names_the_seat() -> None:
    house = cp.RuleSet.preset("maceplay").replace(name="strict", timeout="foul")
    table = cp.Table(players=2, rules=house, seed=1)
    table.deal()
    table.ask(0)
    with pytest.raises(InvalidDecisionError, match="player 1"):
        table.settle()
