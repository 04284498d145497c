"""The setting solver through the public API: legal settings only, exact objectives against
``settle``, Monte Carlo determinism, shipped tables, bad input."""

from __future__ import annotations

import warnings
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core, _testing
from chinese_poker import solver as S
from chinese_poker.exceptions import (
    DuplicateCardError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidRulesError,
    InvalidShapeError,
    InvalidTablesError,
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


def _sample_scores(
    hand: list[int], setting: cp.Setting, rules: cp.RuleSet, table: Any, seed: int, samples: int
) -> list[float]:
    """``setting``'s exact score against the very opponents each Monte Carlo sample dealt."""
    scores = []
    for i in range(samples):
        decisions: list[cp.Setting | cp.Declare | cp.Surrender] = []
        for o in _testing.monte_carlo_opponents(hand, rules.compiled, table, seed, i):
            c = o[-1]
            s = cp.Setting(c[:3], c[3:8], c[8:])
            if o[0] == "surrender":
                decisions.append(cp.Surrender())
            else:
                decisions.append(s if o[0] == "play" else cp.Declare(o[1], s))
        scores.append(cp.settle([setting, *decisions], rules).raw_totals[0])
    return scores


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
            if isinstance(obj, cp.MonteCarlo):
                # the play chosen first (the table's unless beaten at the racing
                # confidence), then the others by mean
                values = values[1:]
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
    scores = _sample_scores(hand, a.setting, rs, table, seed=11, samples=60)
    assert abs(np.mean(scores) - a.value) <= a.stderr


@pytest.mark.parametrize("threads", [None, 1, 2])
def test_small_batches_match_one_large_batch(threads: int | None) -> None:
    # A batch too small to split runs on the calling thread, a larger one on a pool: the same
    # results to the bit, whatever the split and the thread count.
    hands = np.array([h[0] for h in deals(200, 1, seed=12)], dtype=np.uint8)
    bot = cp.Solver("two_four", 2)
    whole = bot.solve_batch(hands, threads=threads)
    for size in (1, 7, 64, 65, 130):
        parts = [bot.solve_batch(hands[i : i + size], threads=threads) for i in range(0, 200, size)]
        for name in ("settings", "values", "decisions", "naturals"):
            got = np.concatenate([getattr(p, name) for p in parts])
            assert np.array_equal(got, getattr(whole, name)), (size, name)
    assert len(bot.solve_batch(hands[:0], threads=threads)) == 0


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
    with pytest.raises(InvalidArgumentError, match='"players": expected an int from 2 to 4'):
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


@pytest.mark.filterwarnings("ignore:training 'one_six'")  # 300 deals: a quick, noisy run
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
    with pytest.raises(InvalidTablesError, match="another rule set or table size") as e:
        cp.solve(HAND, "maceplay", 4, cp.TableEV(out))
    assert str(out) in str(e.value) and "players=2" in str(e.value) and "players=4" in str(e.value)
    bad = tmp_path / "bad.npz"
    np.savez(bad, front=np.zeros(3))
    with pytest.raises(InvalidRulesError, match="front must have 455 classes"):
        cp.solve(HAND, "one_six", 2, cp.TableEV(bad))


# -- batch decisions settle exactly like per-call ones ---------------------------------------

DRAGON_HAND = "Ac Kd Qh Js Tc 9d 8h 7s 6c 5d 4h 3s 2c"
SIX_PAIRS_HAND = "Ac Ad Kc Kd Qc Qd Jc Jd Tc Td 9c 9d 2h"
THREE_FLUSHES_HAND = "2c 5c 9c 3h 6h 8h Jh Kh 4s 7s Ts Qs As"


def deal_with(first: str | None, players: int, seed: int) -> list[list[int]]:
    """``players`` hands from a seeded deck; the first one is ``first`` if given."""
    rng = np.random.default_rng(seed)
    fixed = [] if first is None else [c.code for c in cp.parse_cards(first)]
    rest = [int(c) for c in rng.permutation(52) if int(c) not in fixed]
    hands = [fixed] if fixed else []
    while len(hands) < players:
        hands.append(rest[:13])
        rest = rest[13:]
    return hands


@pytest.mark.parametrize("rules", cp.RuleSet.presets())
@pytest.mark.parametrize("players", [2, 3, 4])
def test_batch_and_per_call_decisions_settle_identically(rules: str, players: int) -> None:
    firsts = [None, None, None, DRAGON_HAND, SIX_PAIRS_HAND, THREE_FLUSHES_HAND]
    declared = 0
    for k, first in enumerate(firsts):
        hands = deal_with(first, players, seed=100 * players + k)
        batch = cp.solve_batch(np.array(hands, dtype=np.uint8), rules, players)
        per_call = [cp.solve(h, rules, players).as_decision() for h in hands]
        assert batch.decisions_list() == per_call
        declared += sum(isinstance(d, cp.Declare) for d in per_call)
        from_batch = cp.settle(batch.decisions_list(), rules)
        assert from_batch == cp.settle(per_call, rules)
        assert sum(from_batch.totals) == 0
    natural_rules = cp.RuleSet.preset(rules).naturals.values
    if any(n in natural_rules for n in ("dragon", "six_pairs", "three_flushes")):
        assert declared > 0  # the constructed hands exercised the natural path


def test_batch_naturals_array_names_the_natural() -> None:
    hands = np.array(deal_with(DRAGON_HAND, 3, seed=1), dtype=np.uint8)
    batch = cp.solve_batch(hands, "pokerclub_south", 3)
    assert batch.naturals.dtype == np.uint8 and batch.naturals.shape == (3,)
    assert batch.decisions[0] == 1 and batch.NATURAL_NAMES[batch.naturals[0]] == "dragon"
    assert all(batch.naturals[i] == 255 for i in range(3) if batch.decisions[i] != 1)
    decision = batch.decision(0)
    assert isinstance(decision, cp.Declare) and decision.natural == "dragon"
    assert batch.decision(-3) == decision and len(batch) == 3
    for bad in (3, -4, 1.0, True, "0"):
        with pytest.raises(InvalidArgumentError, match="hand index"):
            batch.decision(bad)  # type: ignore[arg-type]


# -- the reusable solver and the batch parser ------------------------------------------------


def test_solver_object_fixes_everything_once() -> None:
    bot = cp.Solver("maceplay", players=3)
    hands = deal_with(None, 3, seed=8)
    for h in hands:
        assert bot.solve(h) == cp.solve(h, "maceplay", 3)
        assert bot.solve(h, top_k=2) == cp.solve(h, "maceplay", 3, top_k=2)
    batch = bot.solve_batch(np.array(hands, dtype=np.uint8), threads=1)
    assert [bot.solve(h).value for h in hands] == pytest.approx(list(batch.values))
    assert repr(bot) == "Solver(rules='maceplay', players=3, objective=TableEV)"
    with pytest.raises(AttributeError):
        bot.players = 4  # type: ignore[misc]
    path = S.shipped_tables_path("maceplay", 3)
    assert path is not None
    by_path = cp.Solver("maceplay", 3, tables=path)
    named, found = by_path.solve(hands[0]), bot.solve(hands[0])
    assert (named.value, named.setting) == (found.value, found.setting)
    # the same tables, named by how they were found
    assert named.tables == cp.TablesId("file", found.tables.digest)  # type: ignore[union-attr]
    assert found.tables == bot.tables and bot.tables.source == "shipped"  # type: ignore[union-attr]
    assert named != found
    mc = cp.Solver("maceplay", 3, cp.MonteCarlo(samples=20, seed=3), tables=path)
    assert mc.objective.opponent_policy.tables == path  # type: ignore[union-attr]
    with pytest.raises(InvalidArgumentError, match="tables"):
        cp.Solver("maceplay", 3, monotone_values(), tables=path)
    with pytest.raises(InvalidArgumentError, match="another tables file"):
        cp.Solver("maceplay", 3, cp.TableEV("x.npz"), tables=path)
    with pytest.raises(InvalidArgumentError, match="only the TableEV objective"):
        mc.solve_batch(np.array(hands, dtype=np.uint8))
    with pytest.raises(InvalidArgumentError, match="objective"):
        cp.Solver("maceplay", 3, "TableEV")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="rules"):
        cp.Solver(7)  # type: ignore[arg-type]
    opps = [cp.solve(h, "maceplay", 3).as_decision() for h in hands[1:]]
    br = cp.Solver("maceplay", objective=cp.BestResponse(opps))
    assert br.players == 3 and br.solve(hands[0]).objective == "BestResponse"


def test_parse_hands() -> None:
    lines = ["As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d", DRAGON_HAND]
    arr = cp.parse_hands(lines)
    assert arr.dtype == np.uint8 and arr.shape == (2, 13)
    assert [int(c) for c in arr[1]] == [c.code for c in cp.parse_cards(DRAGON_HAND)]
    assert cp.solve_batch(arr, "maceplay", 4).settings.shape == (2, 13)
    assert cp.parse_hands(iter(["As Kd Qh", "2c 3c 4c"]), cards=3).shape == (2, 3)
    assert cp.parse_hands([]).shape == (0, 13)
    with pytest.raises(InvalidCardError, match="^line 1: invalid card 'Zz' at position 2"):
        cp.parse_hands([lines[0], "As Zz"])
    with pytest.raises(InvalidShapeError, match="line 1: expected 13 cards, got 12"):
        cp.parse_hands([lines[0], lines[0][:-3]])
    with pytest.raises(DuplicateCardError, match="line 0"):
        cp.parse_hands(["As As Ks"], cards=3)
    with pytest.raises(InvalidShapeError, match="line 0: expected a string"):
        cp.parse_hands([42])  # type: ignore[list-item]
    with pytest.raises(InvalidShapeError, match="single string"):
        cp.parse_hands(lines[0])
    with pytest.raises(InvalidArgumentError, match="cards"):
        cp.parse_hands(lines, cards=0)


# -- result classes --------------------------------------------------------------------------


def test_solution_is_a_frozen_picklable_core_class() -> None:
    import copy
    import json
    import pickle

    for obj in (cp.TableEV(), cp.MonteCarlo(samples=30, seed=1), monotone_values()):
        sol = cp.solve(HAND, "maceplay", 2, obj, top_k=3)
        assert type(sol) is cp.Solution is _core.Solution
        assert pickle.loads(pickle.dumps(sol)) == sol
        assert copy.deepcopy(sol) == sol
        assert json.loads(json.dumps(sol.to_dict())) == sol.to_dict()
        assert repr(sol).startswith("Solution('play', ")
        alt = sol.alternatives[1]
        assert pickle.loads(pickle.dumps(alt)) == alt and type(alt) is cp.Alternative
        assert alt.describe() == " / ".join(r.describe() for r in alt.ranks)
    with pytest.raises(AttributeError):
        sol.value = 3.0  # type: ignore[misc]
    data = sol.to_dict()
    data["codes"][0] = data["codes"][1]
    with pytest.raises(InvalidShapeError, match="Solution"):
        cp.Solution._from_dict(data)  # type: ignore[attr-defined]


# -- bad input (issue 7, item 5) --------------------------------------------------------------


@pytest.mark.parametrize("threads", [True, 0, -1, 2**63, 10**9, 5000, 1.5, "2"])
def test_threads_is_checked_everywhere(threads: object) -> None:
    hands = np.array(deal_with(None, 2, seed=1), dtype=np.uint8)
    with pytest.raises(InvalidArgumentError, match="threads"):
        cp.solve_batch(hands, threads=threads)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="threads"):
        cp.evaluate_batch(hands[:, :5], threads=threads)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="threads"):
        cp.MonteCarlo(threads=threads)  # type: ignore[arg-type]


def test_thread_pools_are_bounded() -> None:
    import os

    if not os.path.isdir("/proc/self/task"):
        pytest.skip("counts threads through /proc")
    rows = np.array([[0, 5, 10, 15, 20]] * 100, dtype=np.uint8)
    cp.evaluate_batch(rows)  # the global pool, which lives for the process
    before = len(os.listdir("/proc/self/task"))
    for n in range(1, 41):
        cp.evaluate_batch(rows, threads=n)
    cp.evaluate_batch(rows, threads=_core.MAX_THREADS)
    cpus = os.cpu_count() or 1
    # at most 4 pools of at most one thread per CPU (threads of dropped pools may still exit)
    assert len(os.listdir("/proc/self/task")) <= before + 4 * cpus + cpus


@pytest.mark.parametrize("top_k", [0, -1, 2**64, True, 1.0, "5"])
def test_top_k_is_checked(top_k: object) -> None:
    with pytest.raises(InvalidArgumentError, match="top_k"):
        cp.solve(HAND, top_k=top_k)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"samples": 2**64}, "samples"),
        ({"samples": 10**7 + 1}, 'samples": expected an int from 2 to 10000000'),
        ({"samples": 100.0}, "samples"),
        ({"seed": 2**64}, "seed"),
        ({"seed": -1}, "seed"),
        ({"seed": True}, "seed"),
        ({"opponent_policy": None}, "opponent_policy: expected a TableEV"),
        ({"confidence": 1.0}, 'confidence": expected 0'),
        ({"confidence": 0.3}, 'confidence": expected 0'),
        ({"confidence": -0.1}, "confidence"),
        ({"candidates": -1}, "candidates"),
        ({"candidates": 2.0}, "candidates"),
        ({"opponent_policy": "TableEV"}, "opponent_policy"),
    ],
)
def test_monte_carlo_arguments(kwargs: dict[str, object], pattern: str) -> None:
    with pytest.raises(InvalidArgumentError, match=pattern):
        cp.MonteCarlo(**kwargs)  # type: ignore[arg-type]


def test_monte_carlo_budget() -> None:
    hand = "As Kd Qs Jh 9h 9d 7c 6c 5d 4h 3s 2s 2d"
    table = cp.solve(hand, "maceplay", 3)
    # unraced: every frontier play on every sample
    plain = cp.solve(hand, "maceplay", 3, cp.MonteCarlo(samples=300, confidence=0, candidates=0))
    assert plain.samples == 300
    assert plain.candidates == len(S.frontier(hand, "low")[0])  # maceplay's wheel is low
    assert table.candidates <= plain.candidates  # the bounded search values fewer
    # raced: at most the budget, drawn in steps of 128, over the table's best 16 plays at most
    raced = cp.solve(hand, "maceplay", 3, cp.MonteCarlo(samples=1000), top_k=20)
    assert 0 < raced.samples <= 1000
    assert raced.samples == 1000 or raced.samples % 128 == 0
    assert raced.candidates <= 16 and len(raced.alternatives) == raced.candidates
    # one candidate: the table objective's own play
    one = cp.solve(hand, "maceplay", 3, cp.MonteCarlo(samples=200, candidates=1))
    assert one.setting == table.setting and one.samples == 128
    assert cp.Solution._from_dict(raced.to_dict()) == raced  # type: ignore[attr-defined]


def test_core_objective_checks_its_own_arguments() -> None:
    table = S.load_tables("maceplay", 2)
    for samples, seed in ((2**64, 0), (1, 0), (10, -1), (10, 2**64), (10, 1.0)):
        with pytest.raises(InvalidArgumentError, match="samples|seed"):
            _core.Objective.monte_carlo(table, samples, seed)
    for confidence in (1.0, -0.5, float("nan")):
        with pytest.raises(InvalidArgumentError, match="confidence"):
            _core.Objective.monte_carlo(table, 10, 0, None, confidence)
    with pytest.raises(InvalidArgumentError, match="candidates"):
        _core.Objective.monte_carlo(table, 10, 0, None, 0.9, -1)


def test_monte_carlo_stderr_does_not_wrap_with_huge_values() -> None:
    big = {c: 10**6 for c in ("pair", "trips")}
    five = {
        c: 10**6
        for c in ("two_pair", "trips", "straight", "flush", "full_house", "quads", "straight_flush")
    }
    huge = cp.RuleSet(
        name="huge",
        bonus=cp.BonusTable(mode="add", front=big, middle=five, back=five),
        double_bonus=True,
        majority_point=10**6,
        overall_point=10**6,
        scoop=cp.Scoop.multiply(1000),
        sweep=cp.Sweep(multiplier=1000, min_players=2),
    )
    hand = deal_with(None, 1, seed=3)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no tables are trained for this rule set
        sol = cp.solve(hand, huge, 2, cp.MonteCarlo(samples=40, seed=5))
        table = S.load_tables(huge, 2)
    assert sol.setting is not None
    scores = _sample_scores(hand, sol.setting, huge, table, seed=5, samples=40)
    exact = np.std(np.array(scores, dtype=np.float64), ddof=1) / np.sqrt(len(scores))
    assert exact > 1e9
    assert sol.stderr == pytest.approx(exact, rel=1e-9)
    assert sol.value == pytest.approx(np.mean(np.array(scores, dtype=np.float64)), rel=1e-12)


@pytest.mark.parametrize(
    ("front", "pattern"),
    [
        (np.full(455, 1 + 2j), "RowValues front: expected real numbers"),
        (np.full(455, 1e308), "RowValues front: value 1e\\+308 at class 0"),
        (np.full(455, np.nan), "RowValues front: value nan"),
        (lambda r: 1j, "RowValues front: the function returned 1j for class 0"),
        (lambda r: float("inf"), "RowValues front: value inf"),
        (["a"] * 455, "RowValues front"),
    ],
)
def test_row_values_must_be_real_and_bounded(front: object, pattern: str) -> None:
    with pytest.raises(InvalidArgumentError, match=pattern):
        cp.solve(HAND, objective=cp.RowValues(front, np.zeros(7462), np.zeros(7462)))  # type: ignore[arg-type]


def _square(r: cp.HandRank) -> float:
    return float(r.raw % 1000)


def test_row_values_is_a_value() -> None:
    import copy
    import pickle

    front, five = S.rank_classes()
    rv = cp.RowValues(np.arange(len(front)), np.arange(len(five)) * 0.5, _square)
    sol = cp.solve(HAND, "maceplay", 2, rv)  # compiled and cached inside
    same = cp.RowValues(np.arange(len(front)), np.arange(len(five)) * 0.5, _square)
    assert rv == same and hash(rv) == hash(same)
    assert rv != cp.RowValues(np.arange(len(front)), np.arange(len(five)), _square)
    for clone in (pickle.loads(pickle.dumps(rv)), copy.deepcopy(rv), copy.copy(rv)):
        assert clone == rv and hash(clone) == hash(rv)
        assert cp.solve(HAND, "maceplay", 2, clone) == sol
    assert {rv: 1}[same] == 1
    with pytest.raises(AttributeError):
        rv.front = None  # type: ignore[misc]
    with pytest.raises(ValueError):
        rv.middle[0] = 3.0  # type: ignore[index]


def test_batch_paths_take_any_strides_and_read_only_arrays() -> None:
    hands = np.array([h[0] for h in deals(20, 1, seed=6)], dtype=np.uint8)
    strided = np.repeat(hands, 2, axis=0)[::2]  # a view with a row step of two rows
    fortran = np.asfortranarray(hands)
    readonly = hands.copy()
    readonly.setflags(write=False)
    expected = cp.solve_batch(hands, "maceplay", 3)
    for arr in (strided, fortran, readonly):
        got = cp.solve_batch(arr, "maceplay", 3)
        assert np.array_equal(got.settings, expected.settings)
        assert np.array_equal(got.naturals, expected.naturals)
        rows = np.ascontiguousarray(hands[:, :5])
        assert np.array_equal(cp.evaluate_batch(arr[:, :5]), cp.evaluate_batch(rows))


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"deals": -1}, "deals"),
        ({"deals": 0}, "deals"),
        ({"deals": 1.5}, "deals"),
        ({"threads": 0}, "threads"),
    ],
)
def test_training_arguments_are_checked(kwargs: dict[str, object], pattern: str) -> None:
    with pytest.raises(InvalidArgumentError, match=pattern):
        _core.train_tables(None, 2, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", cp.RuleSet.presets())
def test_batch_pruned_search_picks_the_per_call_frontier_best(rules: str) -> None:
    # solve_batch prunes its search by the table value; solve() values the whole frontier:
    # both must pick the same play (or, where they differ, plays of tied value)
    rng = np.random.default_rng(7)
    hands = np.argsort(rng.random((300, 52)), axis=1)[:, :13].astype(np.uint8)
    batch = cp.solve_batch(hands, rules, 4, threads=1)
    decisions = batch.decisions_list()
    for i, hand in enumerate(hands.tolist()):
        sol = cp.solve(hand, rules, 4, top_k=1)
        if decisions[i] != sol.as_decision():
            assert batch.values[i] == pytest.approx(sol.value, rel=1e-9, abs=1e-9), i


def test_explain_is_its_heading_then_the_rest() -> None:
    for hand, players in (("As Ks Qs Js Ts 9h 9d 2c 3c 4d 5d 7h 8h", 4), (HAND, 2)):
        sol = cp.solve(hand, "maceplay", players)
        text = sol.explain()
        assert text == sol.heading() + "\n" + sol.explain(heading=False)
        assert text.splitlines()[:2] == [sol.heading(), sol.verdict()]
        assert sol.heading().startswith(f"Rule set maceplay, {players} players; objective")
