"""Hypothesis properties of settlement over random deals, for every preset: zero-sum, seat
symmetry, a player who wins every row never loses, ties never scoop, bankroll caps hold."""

from __future__ import annotations

import itertools
import random
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PRESETS = list(cp.RuleSet.presets())
CODES_5_OF_13 = np.array(list(itertools.combinations(range(13), 5)), dtype=np.intp)
CODES_5_OF_8 = np.array(list(itertools.combinations(range(8), 5)), dtype=np.intp)
PROPERTY_SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


def _best(cards: list[int], combos: np.ndarray[Any, Any], wheel: str) -> list[int]:
    hands = np.asarray(cards, dtype=np.uint8)[combos]
    best = combos[int(np.argmax(cp.evaluate_batch(hands, wheel=wheel, threads=1)))]
    return [cards[i] for i in best]


def greedy_setting(cards: list[int], wheel: str) -> cp.Setting:
    """Best back of 13, best middle of the other 8, the rest in front: always legal (the
    middle beats any 5 cards holding the front's 3, so it is at least the front)."""
    back = _best(cards, CODES_5_OF_13, wheel)
    rest = [c for c in cards if c not in back]
    middle = _best(rest, CODES_5_OF_8, wheel)
    front = [c for c in rest if c not in middle]
    return cp.Setting(front, middle, back)


def random_legal_setting(cards: list[int], wheel: str, rng: random.Random) -> cp.Setting:
    hand = list(cards)
    for _ in range(20):
        rng.shuffle(hand)
        s = cp.Setting(hand[:3], hand[3:8], hand[8:])
        if not s.is_foul(wheel):  # type: ignore[arg-type]
            return s
    return greedy_setting(cards, wheel)


@st.composite
def rounds(draw: st.DrawFn, rules: cp.RuleSet) -> list[cp.Setting | cp.Surrender]:
    n = draw(st.integers(2, 4))
    deck = draw(st.permutations(range(52)))
    rng = draw(st.randoms(use_true_random=False))
    decisions: list[cp.Setting | cp.Surrender] = []
    for seat in range(n):
        cards = list(deck[13 * seat : 13 * seat + 13])
        roll = rng.random()
        if rules.surrender is not None and roll < 0.08:
            decisions.append(cp.Surrender())
        elif rules.foul.kind != "reject" and roll < 0.2:
            decisions.append(cp.Setting(cards[:3], cards[3:8], cards[8:]))  # maybe fouled
        else:
            decisions.append(random_legal_setting(cards, rules.wheel, rng))
    return decisions


def test_greedy_setting_is_legal() -> None:
    rng = random.Random(5)
    for _ in range(200):
        cards = rng.sample(range(52), 13)
        for wheel in ("low", "second"):
            assert not greedy_setting(cards, wheel).is_foul(wheel)  # type: ignore[arg-type]


def _won_every_row(m: cp.scoring.Matchup, seat: int) -> bool:
    return m.kind in ("rows", "foul") and all(r.winner == seat for r in m.rows)


@pytest.mark.parametrize("name", PRESETS)
def test_invariants(name: str) -> None:
    rules = cp.RuleSet.preset(name)

    @PROPERTY_SETTINGS
    @given(decisions=rounds(rules), data=st.data())
    def check(decisions: list[cp.Setting | cp.Surrender], data: st.DataObject) -> None:
        n = len(decisions)
        result = cp.settle(decisions, rules)
        assert sum(result.totals) == 0
        assert result.totals == result.raw_totals
        for m in result.matchups:
            tied = any(r.winner is None for r in m.rows)
            if tied:
                assert m.scoop is None
            if m.scoop is not None:
                assert _won_every_row(m, m.scoop)
            for seat in (m.a, m.b):
                if _won_every_row(m, seat):
                    assert m.points_for(seat) > 0
        for seat in range(n):
            mine = [m for m in result.matchups if seat in (m.a, m.b)]
            if all(_won_every_row(m, seat) for m in mine):
                assert result.totals[seat] > 0
        if rules.bankroll_cap:
            banks = data.draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
            capped = cp.settle(
                decisions, rules, bankrolls=banks, dealer=data.draw(st.integers(0, n - 1))
            )
            assert sum(capped.totals) == 0
            assert capped.raw_totals == result.totals
            for seat, bank in enumerate(banks):
                assert -bank <= capped.totals[seat] <= bank

    check()


@pytest.mark.parametrize("name", PRESETS)
def test_swapping_seats_mirrors(name: str) -> None:
    rules = cp.RuleSet.preset(name)

    @PROPERTY_SETTINGS
    @given(decisions=rounds(rules), data=st.data())
    def check(decisions: list[cp.Setting | cp.Surrender], data: st.DataObject) -> None:
        n = len(decisions)
        perm = data.draw(st.permutations(range(n)))  # old seat i sits at perm[i]
        moved: list[cp.Setting | cp.Surrender] = [cp.Surrender()] * n
        for old, new in enumerate(perm):
            moved[new] = decisions[old]
        before = cp.settle(decisions, rules)
        after = cp.settle(moved, rules)
        for old in range(n):
            assert after.totals[perm[old]] == before.totals[old]
            assert after.players[perm[old]].status == before.players[old].status
            for other in range(n):
                if other != old:
                    assert after.points(perm[old], perm[other]) == before.points(old, other)

    check()
