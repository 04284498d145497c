"""The setting solver through the public API: legal settings only, exact objectives against
``settle``, Monte Carlo determinism, shipped tables, bad input."""

from __future__ import annotations

import warnings
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker import solver as S
from chinese_poker.exceptions import (
    DuplicateCardError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidRulesError,
    InvalidShapeError,
)

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"


def deals(n: int, players: int, seed: int) -> list[list[list[int]]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        deck = rng.permutation(52)
        out.append([sorted(int(c) for c in deck[13 * p : 13 * p + 13]) for p in range(players)])
    return out


def codes_of(setting: cp.Setting) -> list[int]:
    return [c.code for row in setting.rows() for c in row]


def check_legal(hand: list[int], setting: cp.Setting, wheel: str) -> None:
    assert sorted(codes_of(setting)) == sorted(hand)
    assert not setting.is_foul(wheel)  # type: ignore[arg-type]


def monotone_values() -> S.RowValues:
    front, five = S.rank_classes()
    return S.RowValues(
        np.arange(len(front), dtype=float),
        np.arange(len(five), dtype=float) * 0.5,
        lambda r: float(r.category),
    )


def wild_values() -> S.RowValues:
    front, five = S.rank_classes()
    rng = np.random.default_rng(3)
    return S.RowValues(rng.random(len(front)), rng.random(len(five)), rng.random(len(five)))


@pytest.mark.parametrize("rules", ["maceplay", "pokerclub_south", "two_four", "shisanshui"])
def test_no_objective_returns_a_fouled_setting(rules: str) -> None:
    rs = cp.RuleSet.preset(rules)
    wild = wild_values()
    for hands in deals(4, 3, seed=1):
        opps = [cp.solve(h, rules, 3).as_decision() for h in hands[1:]]
        objectives: list[S.Objective] = [
            cp.TableEV(),
            monotone_values(),
            wild,
            cp.BestResponse(opps),
            cp.MonteCarlo(samples=30, seed=2),
        ]
        for obj in objectives:
            sol = cp.solve(hands[0], rules, 3, obj, top_k=4)
            check_legal(hands[0], sol.setting, rs.wheel)
            for alt in sol.alternatives:
                check_legal(hands[0], alt.setting, rs.wheel)
            values = [a.value for a in sol.alternatives]
            assert values == sorted(values, reverse=True)


def test_best_response_agrees_with_settle() -> None:
    for rules in ("maceplay", "pokerfever_eastern", "one_six", "shisanshui"):
        for players in (2, 4):
            for hands in deals(3, players, seed=players):
                opps = [cp.solve(h, rules, players).as_decision() for h in hands[1:]]
                sol = cp.solve(hands[0], rules, players, cp.BestResponse(opps))
                result = cp.settle([sol.as_decision(), *opps], rules)
                assert result.raw_totals[0] == sol.value
                # no other frontier setting does better against these opponents
                for codes in S.frontier(hands[0], cp.RuleSet.preset(rules).wheel)[0]:
                    c = [int(x) for x in codes]
                    other = cp.Setting(c[:3], c[3:8], c[8:])
                    if sol.decision == "play":
                        assert cp.settle([other, *opps], rules).raw_totals[0] <= sol.value


def test_monte_carlo_is_deterministic_and_matches_best_response_on_its_samples() -> None:
    hand = deals(1, 1, seed=9)[0][0]
    mc = cp.MonteCarlo(samples=60, seed=11)
    a = cp.solve(hand, "maceplay", 2, mc)
    assert a == cp.solve(hand, "maceplay", 2, cp.MonteCarlo(samples=60, seed=11, threads=1))
    assert a == cp.solve(hand, "maceplay", 2, cp.MonteCarlo(samples=60, seed=11, threads=2))
    assert a.stderr is not None and a.stderr > 0
    # the chosen setting's exact score against the very opponents each sample dealt
    table = S.load_tables("maceplay", 2)
    rs = cp.RuleSet.preset("maceplay")
    scores = []
    for i in range(60):
        opps = _core.monte_carlo_opponents(hand, rs.compiled, table, 11, i)
        decisions: list[cp.Setting | cp.Declare] = []
        for o in opps:
            c = o[-1]
            s = cp.Setting(c[:3], c[3:8], c[8:])
            decisions.append(s if o[0] == "play" else cp.Declare(o[1], s))
        scores.append(cp.settle([a.setting, *decisions], rs).raw_totals[0])
    assert abs(np.mean(scores) - a.value) <= a.stderr


def test_batch_matches_single_solves_and_ignores_threads() -> None:
    hands = np.array([h[0] for h in deals(40, 1, seed=4)], dtype=np.uint8)
    one = cp.solve_batch(hands, "pokerclub_south", 3, threads=1)
    two = cp.solve_batch(hands, "pokerclub_south", 3, threads=2)
    assert np.array_equal(one.settings, two.settings)
    assert np.array_equal(one.values, two.values)
    assert one.settings.shape == (40, 13) and one.settings.dtype == np.uint8
    for i, h in enumerate(hands):
        sol = cp.solve([int(c) for c in h], "pokerclub_south", 3)
        assert codes_of(sol.setting) == [int(c) for c in one.settings[i]]
        assert sol.value == pytest.approx(one.values[i])
        check_legal([int(c) for c in h], sol.setting, "second")


def test_hands_may_be_numpy_rows_cards_or_codes() -> None:
    row = np.array(deals(1, 1, seed=2)[0][0], dtype=np.uint8)
    by_row = cp.solve(row, "one_six", 2)
    assert cp.solve(list(row), "one_six", 2) == by_row
    assert cp.solve([int(c) for c in row], "one_six", 2) == by_row
    assert cp.solve(cp.CardSet([int(c) for c in row]), "one_six", 2).value == by_row.value


def test_frontier_is_a_subset_of_the_legal_settings() -> None:
    codes, ranks = S.legal_settings(HAND)
    assert codes.shape[1] == 13 and ranks.shape == (codes.shape[0], 3)
    assert np.all(ranks[:, 0] <= ranks[:, 1]) and np.all(ranks[:, 1] <= ranks[:, 2])
    fcodes, franks = S.frontier(HAND)
    legal = {tuple(r) for r in ranks.tolist()}
    assert {tuple(r) for r in franks.tolist()} <= legal
    for r in ranks.tolist():  # every legal triple is covered by a frontier triple
        assert any(all(f[i] >= r[i] for i in range(3)) for f in franks.tolist())


def test_naturals_and_surrender_decisions() -> None:
    dragon = "Ac Kd Qh Js Tc 9d 8h 7s 6c 5d 4h 3s 2c"
    sol = cp.solve(dragon, "maceplay", 4)
    assert sol.decision == "declare" and sol.natural == "dragon"
    assert sol.value == 13 * 3
    assert "Declare dragon" in sol.explain()
    rest = [c for c in range(52) if c not in {x.code for x in cp.parse_cards(dragon)}]
    others = [cp.solve(rest[13 * p : 13 * p + 13], "maceplay", 4).as_decision() for p in range(3)]
    result = cp.settle([sol.as_decision(), *others], "maceplay")
    assert result.totals[0] == sol.value
    sol = cp.solve(HAND, "pokerfever_western", 3)
    assert sol.surrender_value == -6
    assert sol.decision in ("play", "surrender")


def test_shipped_tables_load_for_every_preset_and_table_size() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in cp.RuleSet.presets():
            for players in (2, 3, 4):
                path = S.shipped_tables_path(name, players)
                assert path is not None and path.exists(), (name, players)
                table = S.load_tables(name, players)
                assert table.players == players


def test_explain_and_row_descriptions() -> None:
    sol = cp.solve(HAND, "maceplay", 2, top_k=3)
    text = sol.explain()
    assert "Play, worth" in text and "front" in text and "Next best" in text
    assert len(sol.alternatives) == 3
    assert sol.alternatives[0].setting == sol.setting


def test_bad_input_gives_clear_errors() -> None:
    with pytest.raises(InvalidShapeError, match="13 cards, got 12"):
        cp.solve("As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s")
    with pytest.raises(DuplicateCardError):
        cp.solve("As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s As")
    with pytest.raises(InvalidCardError):
        cp.solve("As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s Xx")
    with pytest.raises(InvalidShapeError, match="players"):
        cp.solve(HAND, players=5)
    with pytest.raises(TypeError, match="position 2"):
        cp.solve([0, 1.5, *range(2, 13)])
    good = np.array([h[0] for h in deals(3, 1, seed=1)], dtype=np.uint8)
    with pytest.raises(InvalidShapeError, match=r"\(N, 13\)"):
        cp.solve_batch(good[:, :12])
    with pytest.raises(InvalidShapeError, match="dtype"):
        cp.solve_batch(good.astype(np.int64))
    dup = good.copy()
    dup[1, 5] = dup[1, 0]
    with pytest.raises(DuplicateCardError, match="row 1"):
        cp.solve_batch(dup)
    bad = good.copy()
    bad[2, 3] = 60
    with pytest.raises(InvalidCardError, match="row 2"):
        cp.solve_batch(bad)
    with pytest.raises(InvalidShapeError, match="RowValues front"):
        cp.solve(HAND, objective=cp.RowValues([1.0, 2.0], np.zeros(7462), np.zeros(7462)))
    with pytest.raises(InvalidArgumentError, match="samples"):
        cp.MonteCarlo(samples=1)
    with pytest.raises(InvalidShapeError, match="opponents"):
        cp.solve(HAND, objective=cp.BestResponse([]))


def test_tables_train_command_and_loader_checks(tmp_path: Any) -> None:
    from chinese_poker.cli import main

    out = tmp_path / "one_six-2p.npz"
    assert (
        main(
            [
                "tables",
                "train",
                "--rules",
                "one_six",
                "--players",
                "2",
                "--deals",
                "300",
                "--seed",
                "5",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    again = tmp_path / "again.npz"
    S.train_tables("one_six", 2, seed=5, deals=300, out=again)
    first, second = S.read_tables(out), S.read_tables(again)
    for row in ("front", "middle", "back"):
        assert np.array_equal(first[row], second[row])  # deterministic for a seed
    sol = cp.solve(HAND, "one_six", 2, cp.TableEV(out))
    check_legal([c.code for c in cp.parse_cards(HAND)], sol.setting, "low")
    with pytest.raises(InvalidRulesError, match="wheel"):
        cp.solve(HAND, "shisanshui", 2, cp.TableEV(out))
    with pytest.warns(UserWarning, match="other scoring"):
        cp.solve(HAND, "maceplay", 4, cp.TableEV(out))
    bad = tmp_path / "bad.npz"
    np.savez(bad, front=np.zeros(3))
    with pytest.raises(InvalidRulesError, match="front must have 455 classes"):
        cp.solve(HAND, "one_six", 2, cp.TableEV(bad))
