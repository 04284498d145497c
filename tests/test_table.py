"""Table: seeded deals, rotating dealer, decisions from people and policies, the rule set's
timeout, bankroll caps in dealer order, history as JSON and Arrow."""

from __future__ import annotations

import json
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker.exceptions import InvalidArgumentError, InvalidDecisionError, InvalidShapeError


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


# -- saved and resumed -------------------------------------------------------------------------


def _play(table: cp.Table, rounds: int) -> list[tuple[int, ...]]:
    return [table.play_round().totals for _ in range(rounds)]


@pytest.mark.parametrize("cut", [0, 1, 3])
def test_a_restored_table_plays_the_rounds_of_one_that_never_stopped(cut: int) -> None:
    kwargs: dict[str, Any] = {
        "players": 3,
        "rules": "pokerfever_eastern",
        "bankrolls": [20, 5, 40],
        "dealer": 1,
        "seed": 99,
        "policies": [cp.Greedy(), cp.RandomLegal(), cp.TableEV()],
    }
    never = cp.Table(**kwargs)
    expected = _play(never, 6)
    saved = cp.Table(**kwargs)
    got = _play(saved, cut)
    resumed = cp.Table.from_json(saved.to_json())
    assert resumed.to_json() == saved.to_json()
    got += _play(resumed, 6 - cut)
    assert got == expected
    assert resumed.to_dict() == never.to_dict()
    assert [r.settlement for r in resumed.history] == [r.settlement for r in never.history]


def test_a_table_saved_mid_round_keeps_its_decisions() -> None:
    table = cp.Table(players=4, rules="maceplay", seed=5, policies=[cp.Greedy()] * 4)
    hands = table.deal()
    table.ask(2)
    table.act(0, cp.solve(list(hands[0]), "maceplay", 4).as_decision())
    data = json.loads(table.to_json())
    assert data["format"] == "chinese-poker-table" and data["version"] == 3
    assert data["dealt"] == [0, 1, 2, 3] and sorted(data["pending"]) == ["0", "2"]
    resumed = cp.Table.from_json(table.to_json())
    assert resumed.hands == table.hands
    assert resumed.settle().to_dict() == table.settle().to_dict()


def test_a_python_policy_is_given_again_on_resume() -> None:
    def mine(hand: Any) -> Any:
        return cp.solve(hand, "two_four", 2).as_decision()

    table = cp.Table(players=2, rules="two_four", policies=[mine, cp.Greedy()])
    table.play_round()
    text = table.to_json()
    with pytest.raises(InvalidArgumentError, match="mine") as e:
        cp.Table.from_json(text)
    assert e.value.argument == "policies[0]"
    resumed = cp.Table.from_json(text, policies=[mine, None])
    assert resumed.play_round().totals == table.play_round().totals


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"format": "chinese-poker-table", "version": 1}',
        '{"format": "chinese-poker-table", "version": 2}',
        '{"format": "something else", "version": 2}',
        '{"format": "chinese-poker-table", "version": 2, "players": 2, "policies": '
        '[{"policy": "greedy"}, {"policy": "greedy"}], "rules": {}, "bankrolls": null, '
        '"dealer": 0, "seed": 0, "history_limit": null, "round": 0, "in_progress": false, '
        '"pending": {}, "rounds": [{"round": "x"}]}',
    ],
)
def test_a_damaged_saved_table_is_one_clear_error(text: str) -> None:
    with pytest.raises(InvalidShapeError, match="saved table"):
        cp.Table.from_json(text)


def test_the_history_can_be_bounded() -> None:
    table = cp.Table(players=2, rules="two_four", policies=[cp.Greedy()] * 2, history=2)
    _play(table, 5)
    assert [r.round for r in table.history] == [3, 4] and table.round == 5
    data = json.loads(table.to_json())
    assert data["history_limit"] == 2 and len(data["rounds"]) == 2
    resumed = cp.Table.from_json(table.to_json())
    _play(resumed, 1)
    assert [r.round for r in resumed.history] == [4, 5]
