"""settle / find_naturals through the Python API: input forms, naturals, surrender, the
bankroll cap, bad input (specific exceptions naming player and row), pickling."""

from __future__ import annotations

import json
import pickle
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core, presets
from chinese_poker.exceptions import (
    DuplicateCardError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidDecisionError,
    InvalidShapeError,
    InvalidTypeError,
)

P0 = ("Qs Qh Qd", "5s 5h 5d Ks Kh", "9s 9h 9d 9c 2s")
P1 = ("Ac Kc 7d", "Jc Jd 8s 6c 4d", "Ah Th 6h 3h 2h")
P2 = ("2c 2d 3c", "3d 3s 4c 4h As", "Tc Td Ts 6d 6s")
P3 = ("Ad Kd Qc", "Jh Js 8h 5c 4s", "7c 7h 7s 8c 8d")
DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
# Three flushes laid out as three flushes (clubs front, hearts middle, spades back).
THREE_FLUSHES = cp.Setting("2c 5c 3c", "3h 6h 8h Jh Kh", "4s 7s Ts Qs As")
THREE_FLUSHES_HIDDEN = cp.Setting("2c 3h 4s", "5c 6h 7s 8h 3c", "Jh Kh Ts Qs As")


def test_input_forms_agree() -> None:
    as_tuples = cp.settle([P0, P1], "maceplay")
    as_settings = cp.settle([cp.Setting(*P0), cp.Setting.parse(" / ".join(P1))], presets.MACEPLAY)
    as_cards = cp.settle(
        [tuple(cp.parse_cards(r) for r in P0), [[str(c) for c in cp.parse_cards(r)] for r in P1]],
        cp.RuleSet.preset("maceplay"),
    )
    as_codes = cp.settle([[[c.code for c in cp.parse_cards(r)] for r in P0], P1], "maceplay")
    assert as_tuples == as_settings == as_cards == as_codes
    assert as_tuples.totals == (18, -18)


def test_setting_value() -> None:
    s = cp.Setting(*P0)
    assert s.to_text() == "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s"
    assert cp.Setting.parse(s.to_text()) == s
    assert eval(repr(s), {"Setting": cp.Setting}) == s
    assert len(s.cards) == 13
    assert [r.category for r in s.ranks()] == [
        cp.Category.TRIPS,
        cp.Category.FULL_HOUSE,
        cp.Category.QUADS,
    ]
    assert not s.is_foul()
    assert hash(s) == hash(cp.Setting(*P0))
    assert pickle.loads(pickle.dumps(s)) == s


def test_settlement_shape_and_dict() -> None:
    result = cp.settle([P0, P1, P2, P3], "maceplay", dealer=2)
    assert [(m.a, m.b) for m in result.matchups] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert result.dealer == 2
    assert [p.seat for p in result.players] == [0, 1, 2, 3]
    assert result.players[1].setting == cp.Setting(*P1)
    assert result.players[0].sweep and result.sweeps == (0,)
    assert result.raw_totals == result.totals
    assert sum(result.totals) == 0
    # Payments start right of the dealer: seat 3 first.
    assert result.payments[0].payer == 3 or result.payments[0].payee == 3
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["totals"] == list(result.totals)
    assert data["matchups"][0]["rows"][0] == {
        "row": "front",
        "winner": 0,
        "value": 3,
        "bonus": True,
        "doubled": False,
        "suit_break": False,
    }
    assert pickle.loads(pickle.dumps(result)) == result
    assert str(result).splitlines()[-1].startswith("totals:")  # the layout: tests/test_display.py
    with pytest.raises(ValueError, match="seat 3"):
        result.matchup(0, 1).points_for(3)


def test_find_naturals() -> None:
    found = cp.find_naturals(DRAGON, "maceplay")
    assert [(n.natural, n.value) for n in found][0] == ("dragon", 13)
    assert "three_straights" in [n.natural for n in found]
    straights = next(n for n in found if n.natural == "three_straights")
    assert straights.setting is not None and not straights.setting.is_foul()
    assert next(n for n in found if n.natural == "dragon").setting is None
    assert cp.find_naturals(" ".join(P0), "maceplay") == []
    flushes = cp.find_naturals(THREE_FLUSHES, "pokerclub_south")
    assert [n.natural for n in flushes] == ["three_flushes"]
    assert pickle.loads(pickle.dumps(flushes)) == flushes
    with pytest.raises(InvalidShapeError, match="13 cards"):
        cp.find_naturals("As Ks", "maceplay")


def test_auto_declared_natural() -> None:
    dragon = cp.Setting("2c 3d 4h", "5s 6c 7d 8h 9s", "Tc Jd Qh Ks Ac")
    rest = cp.CardSet.from_mask((1 << 52) - 1) - dragon.cards
    cards = [str(c) for c in rest]
    opp = (cards[0:3], cards[3:8], cards[8:13])
    opp_setting = cp.Setting(*opp)
    if opp_setting.is_foul():
        opp = (cards[10:13], cards[5:10], cards[0:5])
    result = cp.settle([dragon, opp], "maceplay")
    assert result.players[0].status == "natural"
    assert result.players[0].natural == "dragon" and result.players[0].auto_declared
    assert result.matchups[0].kind == "natural"
    assert result.totals == (13, -13)


def test_declared_natural_must_show() -> None:
    opp = ("Ac Kd 2d", "9c 9d 4h 5h 7h", "Jc Jd Qc Qd 2h")
    shown = cp.settle([cp.Declare("three_flushes", THREE_FLUSHES), opp], "pokerclub_south")
    assert shown.players[0].status == "natural" and shown.totals == (3, -3)
    hidden = cp.settle([cp.Declare("three_flushes", THREE_FLUSHES_HIDDEN), opp], "pokerclub_south")
    assert hidden.players[0].status == "fouled"
    assert "do not show" in (hidden.players[0].foul_reason or "")
    # Undeclared under must_declare: the rows are played.
    played = cp.settle([THREE_FLUSHES, opp], "pokerclub_south")
    assert played.players[0].status == "played"


def test_false_natural() -> None:
    false = cp.Declare("dragon", cp.Setting(*P2))
    result = cp.settle([P1, false], "pokerclub_south")
    assert result.players[1].status == "fouled"
    assert "does not hold" in (result.players[1].foul_reason or "")
    with pytest.raises(InvalidDecisionError, match="player 1: declared dragon"):
        cp.settle([P1, false], "maceplay")
    with pytest.raises(InvalidDecisionError, match="player 1.*not recognised"):
        cp.settle([P1, cp.Declare("all_big", cp.Setting(*P2))], "maceplay")
    with pytest.raises(InvalidDecisionError, match="unknown natural 'rainbow'"):
        cp.Declare("rainbow", cp.Setting(*P2))  # type: ignore[arg-type]
    assert cp.Declare("dragon", P2).setting == cp.Setting(*P2)  # type: ignore[arg-type]


def test_bankroll_cap() -> None:
    hands = [P0, P1, P2, P3]
    free = cp.settle(hands, "pokerfever_eastern")
    banks = [5, 100, 2, 100]
    capped = cp.settle(hands, "pokerfever_eastern", bankrolls=banks, dealer=1)
    assert capped.capped and capped.raw_totals == free.totals
    assert sum(capped.totals) == 0
    assert capped.bankrolls_after is not None
    assert capped.bankrolls_after == tuple(b + t for b, t in zip(banks, capped.totals, strict=True))
    for seat, bank in enumerate(banks):
        assert capped.totals[seat] >= -bank and capped.totals[seat] <= bank
    assert any(p.paid < p.owed for p in capped.payments)
    assert "capped by bankrolls" in capped.explain()
    # the cap is named only where it took something
    rich = cp.settle(hands, "pokerfever_eastern", bankrolls=[1000] * 4, dealer=1)
    assert rich.capped and all(p.paid == p.owed for p in rich.payments)
    assert "capped" not in rich.explain()
    assert "; middle " in rich.explain() and "; back " in rich.explain()
    # Bankrolls are ignored by rule sets without the cap.
    assert (
        cp.settle(hands, "maceplay", bankrolls=banks).totals == cp.settle(hands, "maceplay").totals
    )


@pytest.mark.parametrize(
    ("decisions", "error", "pattern"),
    [
        ([P0], InvalidShapeError, "2 to 4 players, got 1"),
        ([P0, P1, P2, P3, P0], InvalidShapeError, "2 to 4 players, got 5"),
        ([P0, ("Ac Kc", *P1[1:])], InvalidShapeError, "player 1: front row: expected 3 cards"),
        ([P0, (P1[0], P1[1] + " Qc", P1[2])], InvalidShapeError, "player 1: middle row"),
        ([P0, P1[:2]], InvalidShapeError, "player 1: expected 3 rows"),
        ([P0, ("Ac Kc 1h", *P1[1:])], InvalidCardError, "player 1, front row: invalid card '1h'"),
        ([P0, (P1[0], P1[1], "Ah Th 6h 3h Qs")], DuplicateCardError, "Qs is held by player 0"),
        ([P0, (P1[0], P1[1], "Ah Th 6h 3h 6c")], DuplicateCardError, "player 1: duplicate card 6c"),
        ([P0, ("Ac Kc 7d", "Jc Jd 8s 6c 4d", "Ah Th 6h 3h 3h")], DuplicateCardError, "player 1"),
        ([P0, cp.Surrender()], InvalidDecisionError, "player 1: surrender is not allowed"),
    ],
)
def test_bad_input(decisions: list[object], error: type[Exception], pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        cp.settle(decisions, "maceplay")  # type: ignore[arg-type]


def test_bad_arguments() -> None:
    # a dealer seat out of range names the real bound (it used to show the whole i128 range)
    with pytest.raises(InvalidArgumentError, match='"dealer": expected an int from 0 to 1, got 2'):
        cp.settle([P0, P1], "maceplay", dealer=2)
    with pytest.raises(InvalidArgumentError, match="dealer"):
        cp.settle([P0, P1], "maceplay", dealer=-1)
    with pytest.raises(InvalidShapeError, match="bankrolls"):
        cp.settle([P0, P1], "pokerfever_western", bankrolls=[1, 2, 3])
    # under a bankroll cap a bankroll is 0 or more; uncapped, a seat may be in debt
    with pytest.raises(InvalidArgumentError, match=r"bankrolls\[1\].*from 0 to .*got -4"):
        cp.settle([P0, P1], "pokerfever_western", bankrolls=[1, -4])
    assert cp.settle([P0, P1], "maceplay", bankrolls=[1, -4]).bankrolls_after is not None
    with pytest.raises(InvalidDecisionError, match="player 1: expected a Setting.*got int"):
        cp.settle([P0, 42], "maceplay")  # type: ignore[list-item]
    with pytest.raises(InvalidDecisionError, match="player 0: .*got a string"):
        cp.settle(["As Ks Qs", P1], "maceplay")  # type: ignore[list-item]
    with pytest.raises(InvalidShapeError, match="decisions"):
        cp.settle("As Ks", "maceplay")  # type: ignore[arg-type]
    with pytest.raises(InvalidShapeError, match="decisions"):
        cp.settle(42, "maceplay")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="rules"):
        cp.settle([P0, P1], 3)  # type: ignore[arg-type]
    with pytest.raises(cp.exceptions.InvalidRulesError, match="unknown preset"):
        cp.settle([P0, P1], "thirteen")


@pytest.mark.parametrize(
    ("kwargs", "error", "pattern"),
    [
        # a string is not a list of bankrolls (it used to be read as [1, 2])
        ({"bankrolls": "12"}, InvalidTypeError, '"bankrolls": expected a sequence of ints'),
        ({"bankrolls": b"12"}, InvalidTypeError, "bankrolls"),
        ({"bankrolls": 12}, InvalidTypeError, "bankrolls"),
        ({"bankrolls": {0: 1, 1: 2}}, InvalidTypeError, "bankrolls.*got dict"),
        ({"bankrolls": (b for b in [1, 2])}, InvalidTypeError, "bankrolls.*got generator"),
        # floats are refused, not truncated (1.9 used to become 1)
        ({"bankrolls": [1.9, 100]}, InvalidArgumentError, r"bankrolls\[0\].*got float"),
        ({"bankrolls": [float("nan"), 100]}, InvalidArgumentError, r"bankrolls\[0\]"),
        ({"bankrolls": [100, float("inf")]}, InvalidArgumentError, r"bankrolls\[1\]"),
        ({"bankrolls": [2**63, 100]}, InvalidArgumentError, r"bankrolls\[0\].*9223372036854775808"),
        ({"bankrolls": [True, 100]}, InvalidArgumentError, r"bankrolls\[0\].*bool"),
        ({"bankrolls": [1, 2, 3, 4, 5]}, InvalidShapeError, "bankrolls"),
        ({"dealer": 2**64}, InvalidArgumentError, '"dealer": expected an int from 0 to 1, got 18'),
        ({"dealer": -(2**200)}, InvalidArgumentError, "dealer"),
        ({"dealer": 1.0}, InvalidTypeError, "dealer.*got float"),
        ({"dealer": True}, InvalidTypeError, "dealer.*bool"),
        ({"dealer": "1"}, InvalidTypeError, "dealer.*got str"),
    ],
)
def test_bad_bankrolls_and_dealer(
    kwargs: dict[str, object], error: type[Exception], pattern: str
) -> None:
    with pytest.raises(error, match=pattern):
        cp.settle([P0, P1], "pokerfever_western", **kwargs)  # type: ignore[arg-type]


def test_numpy_ints_are_ints() -> None:
    result = cp.settle([P0, P1], "pokerfever_western", np.array([50, 60]), np.int64(1))
    assert result.dealer == 1 and result.bankrolls_after is not None


def test_results_are_core_classes_and_round_trip() -> None:
    result = cp.settle([P0, P1, P2, P3], "maceplay", dealer=1)
    assert type(result) is cp.Settlement is _core.Settlement
    assert repr(result) == f"Settlement(dealer=1, totals={result.totals}, capped=False)"
    for obj in (
        result,
        *result.players,
        *result.matchups,
        *result.payments,
        *result.matchups[0].rows,
    ):
        clone = pickle.loads(pickle.dumps(obj))
        assert clone == obj and type(clone) is type(obj)
        assert type(obj)._from_dict(obj.to_dict()) == obj  # type: ignore[attr-defined]
        assert json.loads(json.dumps(obj.to_dict())) == obj.to_dict()
        assert repr(obj).startswith(type(obj).__name__ + "(")
    with pytest.raises(AttributeError):
        result.dealer = 3  # type: ignore[misc]
    assert result.points(1, 0) == -result.points(0, 1) == -result.matchup(1, 0).points
    with pytest.raises(InvalidArgumentError, match="no matchup between seats 2 and 2"):
        result.matchup(2, 2)
    with pytest.raises(InvalidArgumentError, match="y"):
        result.matchup(0, 9)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("players"),
        lambda d: d["players"][0].update(status="winning"),
        lambda d: d["players"][0].update(setting="As As Ks / 2c 3c 4c 5c 6c / 7c 8c 9c Tc Jc"),
        lambda d: d["players"][0].update(ranks=[1, 2, 3]),
        lambda d: d["matchups"][0].update(kind="duel"),
        lambda d: d["matchups"][0].update(a="zero"),
        lambda d: d["matchups"].pop(),
        lambda d: d["payments"].append(
            {"matchup": 99, "payer": 0, "payee": 1, "owed": 1, "paid": 1}
        ),
    ],
)
def test_damaged_settlement_data_is_refused(damage: Any) -> None:
    data = cp.settle([P0, P1, P2], "maceplay").to_dict()
    damage(data)
    with pytest.raises((InvalidShapeError, InvalidCardError, DuplicateCardError)):
        cp.Settlement._from_dict(data)  # type: ignore[attr-defined]


def test_setting_errors_name_the_row() -> None:
    with pytest.raises(InvalidShapeError, match="front row: expected 3 cards, got 2"):
        cp.Setting("As Ks", *P1[1:])
    with pytest.raises(InvalidCardError, match="back row"):
        cp.Setting(P1[0], P1[1], "Ah Th 6h 3h Xx")
    with pytest.raises(InvalidCardError, match="front row: invalid card '52' at position 3"):
        cp.Setting([0, 1, 52], *P1[1:])
    with pytest.raises(DuplicateCardError, match="duplicate card Ac"):
        cp.Setting("Ac Kc 7d", "Jc Jd 8s 6c Ac", "Ah Th 6h 3h 2h")
    with pytest.raises(InvalidShapeError, match="front / middle / back"):
        cp.Setting.parse("As Ks Qs / 2c 3c 4c 5c 6c")


def test_fouls_under_each_policy() -> None:
    foul = ("Kc Kd Ah", "Ks Kh Qc Jd Th", "2c 2d 2h 3c 3d")
    plain = ("4s 6s 8d", "5c 5d 9s Tc Js", "7c 7d 7s Ac As")
    other_foul = ("Qs Qh Qd", "4c 4d 8c 8s 9c", "5h 6c 6d 6h Jc")
    assert cp.Setting(*other_foul).is_foul()
    result = cp.settle([plain, foul, other_foul], "pokerclub_south")
    assert result.matchup(1, 2).kind == "both fouled" and result.matchup(1, 2).points == 0
    assert result.totals == (12, -6, -6)
    with pytest.raises(InvalidDecisionError, match="player 1: fouled setting"):
        cp.settle([plain, foul], "maceplay")


@pytest.mark.parametrize(
    ("name", "penalty"),
    [
        ("pokerclub_south", 6),  # three rows, scooped x2
        ("pokerclub_north", 6),
        ("pokerfever_western", 3),  # flat 3, no bonus rows held by the opponent
        ("pokerfever_eastern", 3),
        ("two_four", 4),  # three rows and the overall point
        ("one_six", 6),  # three rows and the +3 scoop
        ("shisanshui", 6),
    ],
)
def test_foul_penalty_per_preset(name: str, penalty: int) -> None:
    foul = ("Kc Kd Ah", "Ks Kh Qc Jd Th", "2c 2d 2h 3c 3d")
    plain = ("4s 6s 8d", "5c 5d 9s Tc Js", "7c 7d 7s Ac As")
    assert cp.settle([plain, foul], name).totals == (penalty, -penalty)
    assert cp.settle([foul, plain], name).totals == (-penalty, penalty)


def test_decisions_have_plain_data_forms() -> None:
    import json

    s = cp.Setting.parse("Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s")
    d = json.loads(json.dumps(s.to_dict()))
    assert d["decision"] == "play" and cp.Setting.parse(d["setting"]) == s
    assert d["codes"] == [c.code for r in s.rows() for c in r]
    dragon = cp.Declare("dragon", s)
    assert dragon.to_dict()["natural"] == "dragon" and dragon.to_dict()["decision"] == "declare"
    assert cp.Surrender().to_dict() == {"decision": "surrender"}
    sol = cp.solve("As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d", "maceplay", 4)
    assert sol.as_decision().to_dict()["setting"] == sol.to_dict()["setting"]
