"""The worked examples of the public rule pages (docs/rules.md, "Presets": MacePlay,
PokerClub, PokerFever, 2-4), settled through the public Python API with the shipped presets."""

from __future__ import annotations

import chinese_poker as cp
import pytest
from chinese_poker import presets
from chinese_poker.exceptions import InvalidDecisionError

# MacePlay example 1: trips in front, full house in middle, quads in back.
MACE_YOU = ("Qs Qh Qd", "5s 5h 5d Ks Kh", "9s 9h 9d 9c 2s")
MACE_OPP = ("Ac Kc 7d", "Jc Jd 8s 6c 4d", "Ah Th 6h 3h 2h")
# Two more opponents from the other 26 cards, each losing every row to MACE_YOU.
MACE_OPP2 = ("2c 2d 3c", "3d 3s 4c 4h As", "Tc Td Ts 6d 6s")
MACE_OPP3 = ("Ad Kd Qc", "Jh Js 8h 5c 4s", "7c 7h 7s 8c 8d")


def test_maceplay_scoop_18() -> None:
    result = cp.settle([MACE_YOU, MACE_OPP], "maceplay")
    m = result.matchups[0]
    assert [r.value for r in m.rows] == [3, 2, 4]
    assert all(r.winner == 0 and r.bonus for r in m.rows)
    assert m.base == 9 and m.scoop == 0 and m.after_scoop == 18
    assert m.sweep_multiplier == 1
    assert result.totals == (18, -18)
    assert result.sweeps == ()


def test_maceplay_sweep_36() -> None:
    result = cp.settle([MACE_YOU, MACE_OPP, MACE_OPP2, MACE_OPP3], "maceplay")
    for opponent in (1, 2, 3):
        m = result.matchup(0, opponent)
        assert (m.base, m.after_scoop, m.sweep_multiplier, m.points) == (9, 18, 2, 36)
        assert result.points(opponent, 0) == -36
    assert result.totals[0] == 108
    assert result.sweeps == (0,)
    assert sum(result.totals) == 0
    assert "sweep x2: +18 -> +36" in result.explain()


def test_maceplay_no_sweep_at_three_players() -> None:
    result = cp.settle([MACE_YOU, MACE_OPP, MACE_OPP2], "maceplay")
    assert result.totals[0] == 36 and result.sweeps == ()


def test_maceplay_minus_one() -> None:
    you = ("Ks Kd 8c", "As Ad 5s 5d 2c", "7c 8d 9c Ts Jd")
    opponent = ("Ac Js 4d", "3c 3d 3h Kc 7s", "Qh Th 9h 6h 2h")
    result = cp.settle([you, opponent], presets.MACEPLAY)
    m = result.matchups[0]
    assert [r.winner for r in m.rows] == [0, 1, 1]
    assert [r.value for r in m.rows] == [1, 1, 1]
    assert m.scoop is None
    assert result.totals == (-1, 1)


FOUL_KKA = ("Kc Kd Ah", "Ks Kh Qc Jd Th", "2c 2d 2h 3c 3d")
LEGAL_KKQ = ("Kc Kd Qc", "Ks Kh Ah Jd Th", "2c 2d 2h 3c 3d")
PLAIN = ("4s 6s 8d", "5c 5d 9s Tc Js", "7c 7d 7s Ac As")


def test_maceplay_foul_rejected() -> None:
    assert cp.Setting(*FOUL_KKA).is_foul()
    with pytest.raises(InvalidDecisionError, match="player 1") as e:
        cp.settle([PLAIN, FOUL_KKA], "maceplay")
    assert "front" in str(e.value) and "middle" in str(e.value)
    # Swapping the A and the Q makes it legal.
    assert not cp.Setting(*LEGAL_KKQ).is_foul()
    result = cp.settle([PLAIN, LEGAL_KKQ], "maceplay")
    assert sum(result.totals) == 0


def test_foul_as_scooped_pokerclub() -> None:
    # The non-fouled side wins its three rows at its own values (1 + 1 + 1), then x2.
    result = cp.settle([PLAIN, FOUL_KKA], "pokerclub_south")
    m = result.matchups[0]
    assert m.kind == "foul" and m.scoop == 0
    assert result.totals == (6, -6)
    assert result.players[1].status == "fouled"


def test_foul_flat_plus_bonus_pokerfever() -> None:
    result = cp.settle([PLAIN, FOUL_KKA], "pokerfever_western")
    assert result.totals == (3, -3)
    # Eastern: 3 plus the opponent's bonus (back quads 4 = 3 above the plain point).
    quads_back = ("4s 6s 8d", "5c 5d 9s Tc Js", "7c 7d 7s 7h As")
    result = cp.settle([quads_back, FOUL_KKA], "pokerfever_eastern")
    assert result.totals == (6, -6)


# PokerClub Mau Binh page: plain rows, no bonus hands.
CLUB_YOU = ("2c 3d 5h", "8c 8d 4s 6h Jc", "Ac Ad Kc Ks 9h")
CLUB_OPP = ("4c 4d 6c", "7c 7d 2s 3s Th", "Qc Qd Js Jd 5s")
CLUB_SCOOPED = ("2d 3h 4c", "6d 6s 3c 4h Td", "9c 9d 8s 8h Qh")
# Seat 0 wins every row against each of the others, no bonus hands anywhere.
SWEEP_DEAL = [
    ("Qd Ac 5s", "2c 6s 7h 7s 8d", "9d Tc Qc Kd Jh"),
    ("6h Th Ah", "8s Kh 2s 9h Ad", "3c 4c Td 3s 7c"),
    ("8c 9s 5c", "6c 2h 8h Js Ts", "4d Kc 4h Jd Qh"),
    ("6d 3h 9c", "7d Jc Qs 3d As", "5d 4s 5h Ks 2d"),
]


def test_pokerclub_plus_one() -> None:
    result = cp.settle([CLUB_YOU, CLUB_OPP], "pokerclub_south")
    m = result.matchups[0]
    assert [r.winner for r in m.rows] == [1, 0, 0]
    assert result.totals == (1, -1)  # +2 - 1


def test_pokerclub_scoop_3_to_6() -> None:
    result = cp.settle([CLUB_YOU, CLUB_SCOOPED], "pokerclub_north")
    m = result.matchups[0]
    assert (m.base, m.scoop, m.points) == (3, 0, 6)
    assert result.totals == (6, -6)


def test_pokerclub_scooping_all_three_pays_four_times() -> None:
    you, *others = SWEEP_DEAL
    result = cp.settle([you, *others], "pokerclub_south")
    for opponent in (1, 2, 3):
        assert result.points(0, opponent) == 12  # 3 rows, x2 scoop, x2 sweep
    assert result.totals[0] == 36 and result.sweeps == (0,)


# PokerFever page: four players, each settled against each.
FEVER_DEAL = {
    "A": ("6s 7d Js", "2c 7s 4c 2d Jd", "8c 6d Td Kh 8h"),
    "B": ("2s 5d Qc", "7c 9d 8s Qs 4d", "7h 3d 4s As Ts"),
    "C": ("9c Ac Th", "5c Ad Qh 2h 6h", "Jh 3s Qd Kd 3h"),
    "D": ("8d 3c Kc", "Tc Ks 6c 5s 9h", "Jc 5h 9s Ah 4h"),
}


def _row_wins(result: cp.Settlement, seat: int) -> tuple[int, int]:
    won = lost = 0
    for m in result.matchups:
        if seat in (m.a, m.b):
            for r in m.rows:
                assert r.winner is not None
                won += r.winner == seat
                lost += r.winner != seat
    return won, lost


def test_pokerfever_tally_shape() -> None:
    hands = [FEVER_DEAL[k] for k in "ABCD"]
    result = cp.settle(hands, "pokerfever_eastern")
    assert [_row_wins(result, seat) for seat in range(4)] == [(6, 3), (1, 8), (7, 2), (4, 5)]
    assert result.totals == (3, -7, 5, -1)
    assert len(result.matchups) == 6
    # Western adds the majority point to the same rows; without it the tally is the same.
    plain = presets.POKERFEVER_WESTERN.replace(majority_point=0)
    assert cp.settle(hands, plain).totals == (3, -7, 5, -1)
    western = cp.settle(hands, "pokerfever_western")
    assert sum(western.totals) == 0
    for m in western.matchups:
        wins_a = sum(r.winner == m.a for r in m.rows)
        assert m.majority == (1 if wins_a >= 2 else -1)


def test_pokerfever_western_two_of_three_is_two() -> None:
    result = cp.settle([CLUB_YOU, CLUB_OPP], "pokerfever_western")
    assert result.totals == (2, -2)


def test_pokerfever_eastern_seven() -> None:
    # Wins all three, back a straight flush: 1 + 1 + 5, no scoop.
    you = ("Ah Kd 3c", "Qc Qd 5h 6d 9d", "4s 5s 6s 7s 8s")
    opp = ("Kc Qh 2d", "Jc Jd 3h 4d 7h", "Ac Ad Tc Th 2h")
    result = cp.settle([you, opp], "pokerfever_eastern")
    m = result.matchups[0]
    assert [r.value for r in m.rows] == [1, 1, 5]
    assert m.scoop == 0 and m.points == 7
    assert result.totals == (7, -7)


def test_pokerfever_double_bonus_eight() -> None:
    you = ("6h 3d 2c", "Ac Ad Qc Qd 4s", "Kc Ks Kd Kh 5c")
    opp = ("5d 3h 2d", "Jc Jd Tc Td 4h", "9c 9h 9s 9d 3c")
    result = cp.settle([you, opp], "pokerfever_eastern")
    back = result.matchups[0].rows[2]
    assert (back.winner, back.value, back.bonus, back.doubled) == (0, 8, True, True)
    assert result.totals == (1 + 1 + 8, -10)
    # Without double bonus the back pays the plain quads bonus of 4.
    single = presets.POKERFEVER_EASTERN.replace(double_bonus=False)
    assert cp.settle([you, opp], single).matchups[0].rows[2].value == 4


def test_pokerfever_surrender_pays_three_each() -> None:
    hands = [FEVER_DEAL[k] for k in "ABCD"]
    result = cp.settle([cp.Surrender(), *hands[1:]], "pokerfever_western")
    assert result.players[0].status == "surrendered"
    for opponent in (1, 2, 3):
        m = result.matchup(0, opponent)
        assert m.kind == "surrender" and m.points == -3
    assert result.totals[0] == -9
    assert sum(result.totals) == 0
    with pytest.raises(InvalidDecisionError, match="player 0.*surrender"):
        cp.settle([cp.Surrender(), *hands[1:]], "maceplay")


# 2-4 scoring page.
def test_two_four_two_of_three_is_two() -> None:
    result = cp.settle([CLUB_YOU, CLUB_OPP], "two_four")
    m = result.matchups[0]
    assert m.row_totals == (2, 1) and m.overall == 1
    assert result.totals == (2, -2)


def test_two_four_three_of_three_is_four() -> None:
    result = cp.settle([CLUB_YOU, CLUB_SCOOPED], "two_four")
    assert result.totals == (4, -4)


def test_two_four_at_most_twelve() -> None:
    you, *others = SWEEP_DEAL
    result = cp.settle([you, *others], "two_four")
    assert result.totals[0] == 12
    assert all(result.points(0, k) == 4 for k in (1, 2, 3))


def test_one_six() -> None:
    assert cp.settle([CLUB_YOU, CLUB_SCOOPED], "one_six").totals == (6, -6)
    assert cp.settle([CLUB_YOU, CLUB_OPP], "one_six").totals == (1, -1)


def test_explain_is_readable() -> None:
    text = cp.settle([MACE_YOU, MACE_OPP], "maceplay").explain()
    assert "three queens v ace-high, kickers king, seven: P0 wins 3 (bonus)" in text
    assert "scoop by P0: +9 -> +18" in text
    assert "totals: P0 +18, P1 -18" in text
