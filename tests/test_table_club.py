"""Club tables: seats that join and leave between rounds and keep their numbers, the bust rule
(``on_bust``), the per-round deadline on an injectable clock, and all of it saved and resumed
(format 3; format 2 files still read)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker.exceptions import (
    ChinesePokerError,
    InvalidArgumentError,
    InvalidDecisionError,
    InvalidShapeError,
    InvalidTypeError,
)
from chinese_poker.table import ON_BUST, TABLE_VERSION

DATA = Path(__file__).parent / "data"


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _codes(hands: Any) -> list[list[int]]:
    return [[c.code for c in h] for h in hands]


def _everyone_asked(table: cp.Table, but: tuple[int, ...] = ()) -> None:
    assert table.dealt is not None
    for s in table.dealt:
        if s not in but:
            table.ask(s)


# -- a club evening: a seat joins, one leaves, one times out -----------------------------------


def test_a_seat_joins_one_leaves_and_one_times_out_across_rounds() -> None:
    clock = FakeClock()
    table = cp.Table(
        players=3,
        rules="pokerfever_western",
        bankrolls=[40, 40, 40],
        seed=21,
        policies=[cp.Greedy()] * 3,
        deadline=30,
        clock=clock,
    )
    table.play_round()  # round 0: seats 0, 1, 2, dealer 0
    assert table.dealer == 1

    new = table.join(cp.Greedy(), bankroll=25)
    assert new == 3 and table.seats == (0, 1, 2, 3) and table.players == 4
    assert table.bankrolls is not None and table.bankrolls[3] == 25

    # round 1: four seats; seat 3 never acts and times out once the deadline has passed
    hands = table.deal()
    assert table.dealt == (0, 1, 2, 3) and table.dealer == 1
    assert _codes(hands) == cp.deal(1, 4, 21, first=1)[0].tolist()
    _everyone_asked(table, but=(3,))
    with pytest.raises(InvalidArgumentError, match="still to act: seat 3, and the deadline") as e:
        table.settle()
    assert e.value.player == 3
    clock.now += 30
    before = table.bankrolls
    result = table.settle()
    rec = table.history[-1]
    assert rec.seats == (0, 1, 2, 3) and rec.timed_out == (3,) and rec.joined == (3,)
    assert result.players[3].status == "fouled"  # pokerfever_western's timeout is a foul
    assert table.bankrolls == rec.bankrolls_after
    assert before is not None and sum(before) == sum(table.bankrolls)

    # seat 1 leaves with its bankroll; the others keep their numbers
    cash = table.leave(1)
    assert cash == rec.bankrolls_after[1]
    assert table.seats == (0, 2, 3) and table.dealer == 2  # seat 1 was to deal: seat 2 does

    # round 2: three seats, hands by seating order, the settlement maps back by rec.seats
    hands = table.deal()
    assert table.dealt == (0, 2, 3)
    assert _codes(hands) == cp.deal(1, 3, 21, first=2)[0].tolist()
    _everyone_asked(table)
    result = table.settle()
    rec = table.history[-1]
    assert rec.seats == (0, 2, 3) and rec.left == (1,) and rec.joined == () and rec.dealer == 2
    assert rec.timed_out == ()
    assert rec.hands[1] == tuple(cp.deal(1, 3, 21, first=2)[0][1].tolist())
    owned = dict(zip(table.seats, table.bankrolls, strict=True))
    assert owned[3] == history_bankroll(table, 1, 3) + result.totals[2]
    assert sum(table.bankrolls) + cash == 40 * 3 + 25  # no money made or lost
    assert table.dealer == 3


def history_bankroll(table: cp.Table, round_: int, seat: int) -> int:
    rec = next(r for r in table.history if r.round == round_)
    assert rec.bankrolls_after is not None
    return rec.bankrolls_after[rec.seats.index(seat)]


def test_the_history_exports_joins_leaves_sit_outs_and_timeouts() -> None:
    pa = pytest.importorskip("pyarrow")
    clock = FakeClock()
    table = cp.Table(
        3,
        "pokerfever_western",
        bankrolls=[0, 30, 30],
        seed=4,
        policies=[cp.Greedy()] * 3,
        on_bust="sit_out",
        deadline=10,
        clock=clock,
    )
    joined = table.join(cp.Greedy(), bankroll=30)
    table.leave(2)
    table.deal()
    assert table.dealt == (1, 3) and table.sitting_out == (0,)
    table.ask(1)
    clock.now += 10
    table.settle()
    rows = {r["seat"]: r for r in table.to_arrow().to_pylist()}
    assert isinstance(table.to_arrow(), pa.Table) and sorted(rows) == [0, 1, 2, 3]
    assert rows[0]["status"] == "sat_out" and rows[0]["hand"] is None
    assert rows[2]["status"] == "left" and rows[2]["points"] is None
    assert rows[joined]["status"] == "dealt" and rows[joined]["joined"] is True
    assert rows[joined]["timed_out"] is True and rows[1]["timed_out"] is False
    assert rows[1]["points"] + rows[joined]["points"] == 0
    assert rows[1]["bankroll_after"] == 30 + rows[1]["points"]
    text = str(table.history[0])
    assert text.startswith("round 0, dealer seat 1, players P0 = seat 1, P1 = seat 3")
    assert "timed out: seat 3, sat out: seat 0, joined: seat 3, left: seat 2" in text
    assert "seats=(0, 1, 3)" in repr(table)
    table.deal()
    lines = str(table).splitlines()
    assert lines[0].endswith(
        "(dealt, waiting for decisions, 10 s left), dealer P3, sitting out: P0"
    )
    assert lines[1].startswith("P1 holds") and lines[2].startswith("P3 holds")
    assert lines[3].split() == ["round", "dealer", "P0", "P1", "P3"]  # seat 2 left before
    page = table._repr_html_()
    assert ">P3</td>" in page and ">P2</td>" not in page


# -- the bust rule -----------------------------------------------------------------------------


def test_a_busted_seat_sits_out_until_topped_up() -> None:
    table = cp.Table(3, "pokerfever_western", bankrolls=[0, 50, 50], seed=8, on_bust="sit_out")
    assert table.busted == (0,) and table.sitting_out == (0,)
    hands = table.deal()
    # seat 0 was to deal but sits out: the deal passes to seat 1
    assert table.dealt == (1, 2) and table.dealer == 1
    assert _codes(hands) == cp.deal(1, 2, 8, first=0)[0].tolist()
    with pytest.raises(InvalidArgumentError, match="seat 0 sits this round out") as e:
        table.act(0, cp.Surrender())
    assert e.value.player == 0
    table.top_up(0, 10)  # during the round: dealt in from the next one
    table.settle()
    assert table.history[-1].sat_out == (0,) and table.sitting_out == ()
    table.deal()
    assert table.dealt == (0, 1, 2)


def test_too_few_seats_left_to_deal_is_a_clear_error() -> None:
    table = cp.Table(2, "pokerfever_western", bankrolls=[0, 50], on_bust="sit_out")
    with pytest.raises(InvalidArgumentError, match=r"at least 2 players \(MIN_PLAYERS\)") as e:
        table.deal()
    assert e.value.player == 0 and table.dealt is None
    table.top_up(0, 5)
    assert len(table.deal()) == 2


def test_a_table_that_stops_on_a_bust_deals_again_once_topped_up_or_left() -> None:
    table = cp.Table(
        3,
        "pokerfever_western",
        bankrolls=[1, 40, 40],
        seed=2,
        policies=[cp.RandomLegal()] * 3,
        on_bust="stop",
    )
    for _ in range(40):
        if table.busted:
            break
        table.play_round()
    busted = table.busted
    assert busted, "nobody went bust in 40 rounds from a bankroll of 1"
    with pytest.raises(InvalidArgumentError, match='on_bust="stop"') as e:
        table.deal()
    assert e.value.player == busted[0] and f"busted (bankroll 0): seat {busted[0]}" in str(e.value)
    rounds = table.round
    table.leave(busted[0])
    assert table.deal() and table.round == rounds


def test_a_busted_seat_plays_on_by_default() -> None:
    table = cp.Table(2, "pokerfever_western", bankrolls=[0, 50], seed=3)
    assert table.on_bust == "play" == ON_BUST[0]
    table.deal()
    assert table.dealt == (0, 1) and table.sitting_out == ()


# -- the deadline ------------------------------------------------------------------------------


def test_the_deadline_runs_on_the_injected_clock() -> None:
    clock = FakeClock()
    table = cp.Table(2, "maceplay", seed=6, deadline=12.5, clock=clock)
    assert table.time_left is None
    table.deal()
    assert table.time_left == 12.5
    clock.now += 10
    assert table.time_left == 2.5
    table.ask(0)
    clock.now += 2.5
    assert table.time_left == 0.0
    with pytest.raises(InvalidArgumentError, match="seat 1: too late") as e:
        table.act(1, cp.Surrender())
    assert e.value.player == 1
    result = table.settle()
    assert table.time_left is None and table.history[-1].timed_out == (1,)
    # maceplay's timeout is "auto": the solver sets the hand, as the table objective would
    asked = cp.Table(2, "maceplay", seed=6)
    asked.deal()
    asked.ask(0)
    asked.act(1, asked._policy_decision(1, cp.TableEV()))
    assert asked.settle().totals == result.totals
    assert all(p.status != "fouled" for p in result.players)


def test_a_round_everyone_acted_in_settles_before_the_deadline() -> None:
    clock = FakeClock()
    table = cp.Table(3, "one_six", seed=1, deadline=60, clock=clock)
    table.deal()
    _everyone_asked(table)
    assert table.settle() and table.history[-1].timed_out == ()


def test_without_a_deadline_settle_times_out_at_once_and_the_clock_is_never_read() -> None:
    def broken_clock() -> float:
        raise AssertionError("read")

    table = cp.Table(2, "maceplay", seed=6, clock=broken_clock)
    table.deal()
    table.settle()
    assert table.history[-1].timed_out == (0, 1) and table.time_left is None


def test_a_policy_that_answers_after_the_deadline_is_too_late() -> None:
    clock = FakeClock()

    def slow(hand: Any) -> Any:
        clock.now += 40
        return cp.solve(hand, "two_four", 2).as_decision()

    table = cp.Table(2, "two_four", seed=3, policies=[slow, cp.Greedy()], deadline=30, clock=clock)
    table.play_round()  # seat 0 answers late and seat 1 is not asked any more: both time out
    assert table.history[-1].timed_out == (0, 1)
    table.deal()
    with pytest.raises(InvalidArgumentError, match="too late"):
        table.ask(0)
    assert table._decisions == {}


@pytest.mark.parametrize(
    ("kwargs", "error", "argument"),
    [
        ({"deadline": 0}, InvalidArgumentError, "deadline"),
        ({"deadline": -5}, InvalidArgumentError, "deadline"),
        ({"deadline": float("inf")}, InvalidArgumentError, "deadline"),
        ({"deadline": float("nan")}, InvalidArgumentError, "deadline"),
        ({"deadline": "30"}, InvalidTypeError, "deadline"),
        ({"deadline": True}, InvalidTypeError, "deadline"),
        ({"deadline": 5, "clock": 5}, InvalidTypeError, "clock"),
        ({"on_bust": "leave"}, InvalidArgumentError, "on_bust"),
        ({"on_bust": None}, InvalidArgumentError, "on_bust"),
    ],
)
def test_bad_club_setup(kwargs: dict[str, Any], error: type[Exception], argument: str) -> None:
    with pytest.raises(error) as e:
        cp.Table(2, "two_four", **kwargs)
    assert isinstance(e.value, ChinesePokerError) and e.value.argument == argument


def test_a_clock_that_gives_no_number_is_named() -> None:
    table = cp.Table(2, deadline=1, clock=lambda: "noon")  # type: ignore[arg-type,return-value]
    with pytest.raises(InvalidTypeError, match="clock") as e:
        table.deal()
    assert e.value.argument == "clock"
    assert cp.Table(2, deadline=np.float32(1.5), clock=lambda: np.int64(3)).deal()  # type: ignore[arg-type,return-value]


# -- joining and leaving: what is refused ------------------------------------------------------


def test_seats_join_and_leave_only_between_rounds() -> None:
    table = cp.Table(3, "two_four", bankrolls=[5, 5, 5])
    table.deal()
    with pytest.raises(InvalidArgumentError, match="join: a seat cannot join during a dealt"):
        table.join(bankroll=5)
    with pytest.raises(InvalidArgumentError, match="seat 1 cannot leave during a dealt") as e:
        table.leave(1)
    assert e.value.player == 1 and table.seats == (0, 1, 2)


def test_the_core_limits_bound_the_seats() -> None:
    full = cp.Table(_core.MAX_PLAYERS)
    with pytest.raises(InvalidArgumentError, match="MAX_PLAYERS") as e:
        full.join()
    assert f"{_core.MAX_PLAYERS} seats" in str(e.value)
    least = cp.Table(_core.MIN_PLAYERS)
    with pytest.raises(InvalidArgumentError, match="MIN_PLAYERS") as e:
        least.leave(0)
    assert e.value.player == 0 and least.seats == (0, 1)
    assert least.join() == 2 and least.leave(0) is None and least.seats == (1, 2)


def test_unknown_and_departed_seats_are_named() -> None:
    table = cp.Table(3, "two_four")
    with pytest.raises(InvalidArgumentError, match="from 0 to 2, got 7") as e:
        table.leave(7)
    assert e.value.argument == "seat"
    table.leave(1)
    with pytest.raises(InvalidArgumentError, match="seat 1 has left the table") as e:
        table.leave(1)
    assert e.value.argument == "seat" and e.value.player == 1
    assert table.join() == 3  # a number is never given twice
    table.deal()
    with pytest.raises(InvalidArgumentError, match="seat 1 has left"):
        table.ask(1)
    with pytest.raises(InvalidTypeError, match="seat"):
        table.ask("0")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rules", "bankrolls", "kwargs", "error", "argument"),
    [
        ("pokerfever_western", [5, 5], {}, InvalidArgumentError, "bankroll"),
        ("pokerfever_western", [5, 5], {"bankroll": -1}, InvalidArgumentError, "bankroll"),
        ("pokerfever_western", [5, 5], {"bankroll": 2**70}, InvalidArgumentError, "bankroll"),
        ("pokerfever_western", [5, 5], {"bankroll": 1.5}, InvalidTypeError, "bankroll"),
        ("two_four", None, {"bankroll": 5}, InvalidArgumentError, "bankroll"),
        ("two_four", None, {"policy": cp.Greedy}, InvalidTypeError, "policy"),
        ("two_four", None, {"policy": 3}, InvalidTypeError, "policy"),
    ],
)
def test_a_bad_join_is_named_and_changes_nothing(
    rules: str,
    bankrolls: list[int] | None,
    kwargs: dict[str, Any],
    error: type[Exception],
    argument: str,
) -> None:
    table = cp.Table(2, rules, bankrolls=bankrolls)
    before = table.to_dict()
    with pytest.raises(error) as e:
        table.join(**kwargs)
    assert isinstance(e.value, ChinesePokerError) and e.value.argument == argument
    assert table.to_dict() == before


def test_an_uncapped_seat_may_join_in_debt() -> None:
    table = cp.Table(2, "one_six", bankrolls=[3, 3])
    assert table.join(bankroll=-4) == 2 and table.bankrolls == (3, 3, -4)
    assert table.busted == ()


def test_a_refused_decision_names_the_seat_not_the_round_position() -> None:
    house = cp.RuleSet.preset("maceplay").replace(name="strict", timeout="foul")
    table = cp.Table(3, house, seed=1, policies=[cp.Greedy()] * 3)
    table.leave(0)
    table.deal()
    table.ask(1)
    with pytest.raises(InvalidDecisionError, match="seat 2") as e:
        table.settle()  # seat 2, the round's player 1, times out as a foul the rules refuse
    assert e.value.player == 2


# -- saved and resumed -------------------------------------------------------------------------


def _club(clock: FakeClock) -> cp.Table:
    return cp.Table(
        3,
        "pokerfever_eastern",
        bankrolls=[0, 30, 30],
        seed=77,
        policies=[cp.Greedy(), cp.RandomLegal(), cp.Greedy()],
        on_bust="sit_out",
        deadline=20,
        clock=clock,
        history=5,
    )


def _evening(table: cp.Table, clock: FakeClock, half_step: int) -> None:
    """Half a round of a club evening, the same on every table given it: seat 0 sits out
    (busted) until it is topped up after round 2; a seat joins before round 1 and one leaves
    before round 3; in each round one seat acts and the others time out."""
    step, second = divmod(half_step, 2)
    if not second:
        if step == 1:
            table.join(cp.TableEV(), bankroll=15)
        elif step == 3:
            table.leave(table.seats[1])
        table.deal()
        assert table.dealt is not None
        table.ask(table.dealt[0])
        return
    clock.now += 25
    table.settle()
    for s in table.busted:
        if s != 0 or step >= 2:
            table.top_up(s, 10)


def test_a_club_table_saved_at_any_point_plays_on_identically() -> None:
    clock = FakeClock()
    never = _club(clock)
    for half_step in range(12):
        _evening(never, clock, half_step)

    for cut in range(12):  # between rounds and mid-round
        saved_clock = FakeClock()
        table = _club(saved_clock)
        for half_step in range(cut):
            _evening(table, saved_clock, half_step)
        resumed = cp.Table.from_json(table.to_json(), clock=saved_clock)
        assert resumed.to_dict() == table.to_dict()
        for half_step in range(cut, 12):
            _evening(resumed, saved_clock, half_step)
        assert resumed.to_dict() == never.to_dict()
    history = list(never.history)
    assert history[0].round == 1 and len(history) == 5  # history=5 keeps the last five
    assert history[0].joined == (3,) and history[2].left == (1,)
    assert [r.sat_out for r in history] == [(0,), (0,), (), (), ()]
    assert all(len(r.timed_out) == len(r.seats) - 1 for r in history)


def test_a_round_saved_before_its_deadline_keeps_the_time_left() -> None:
    clock = FakeClock()
    table = _club(clock)
    table.join(cp.Greedy(), bankroll=12)
    table.deal()
    assert table.dealt == (1, 2, 3)  # seat 0 sits out, busted
    table.ask(2)
    clock.now += 15
    data = json.loads(table.to_json())
    assert data["version"] == TABLE_VERSION == 3
    assert data["dealt"] == [1, 2, 3] and data["time_left"] == 5 and list(data["pending"]) == ["2"]
    later = FakeClock()
    later.now = 5.0  # another process, another clock: the round goes on with 5 s left
    resumed = cp.Table.from_json(table.to_json(), clock=later)
    assert resumed.time_left == 5 and resumed.hands == table.hands
    with pytest.raises(InvalidArgumentError, match="still to act: seats 1, 3"):
        resumed.settle()
    later.now += 5
    clock.now += 5
    assert resumed.settle().to_dict() == table.settle().to_dict()
    assert resumed.to_dict() == table.to_dict()


def test_a_version_2_table_is_read_and_plays_on() -> None:
    # saved by the package before format 3: a 3-seat table two rounds in, seat 0 has acted
    text = (DATA / "table_v2_mid_round.json").read_text(encoding="utf-8")
    assert json.loads(text)["version"] == 2
    resumed = cp.Table.from_json(text)
    fresh = cp.Table(
        3,
        "pokerfever_eastern",
        bankrolls=[20, 5, 40],
        dealer=1,
        seed=99,
        policies=[cp.Greedy(), cp.RandomLegal(), cp.TableEV()],
    )
    fresh.play_round()
    fresh.play_round()
    fresh.deal()
    fresh.ask(0)
    assert resumed.to_dict() == fresh.to_dict()
    assert resumed.settle().totals == fresh.settle().totals == (3, 0, -3)
    assert resumed.bankrolls == (25, 0, 40) and resumed.on_bust == "play"
    assert resumed.history[0].seats == (0, 1, 2)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"seats": [2, 1]}, InvalidShapeError),
        ({"seats": [0]}, InvalidShapeError),
        ({"next_seat": 2}, InvalidShapeError),
        ({"dealer": 9}, InvalidArgumentError),
        ({"dealt": [0, 5]}, InvalidArgumentError),
        ({"dealt": [2, 0]}, InvalidShapeError),
        ({"on_bust": "maybe"}, InvalidArgumentError),
        ({"deadline": -1}, InvalidArgumentError),
        ({"time_left": "soon"}, InvalidTypeError),
        ({"joined": ["x"]}, InvalidShapeError),
        ({"version": 4}, InvalidShapeError),
    ],
)
def test_a_damaged_club_table_is_one_clear_error(
    change: dict[str, Any], error: type[Exception]
) -> None:
    table = cp.Table(3, "two_four", deadline=9, clock=FakeClock(), policies=[cp.Greedy()] * 3)
    table.deal()
    data = {**table.to_dict(), **change}
    with pytest.raises(error):
        cp.Table.from_dict(data, clock=FakeClock())
