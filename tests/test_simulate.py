"""simulate / deal / settle_batch / duel: determinism across threads, chunks and paths, exact
settlement (against cp.settle), columnar output (numpy, Arrow, Parquet) and duel statistics."""

from __future__ import annotations

from pathlib import Path
from statistics import NormalDist
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker.exceptions import InvalidArgumentError, InvalidDecisionError
from chinese_poker.simulate import COLUMNS

ROWS = ("front", "middle", "back")


def _setting(codes: np.ndarray) -> cp.Setting:
    c = [int(x) for x in codes]
    return cp.Setting(c[:3], c[3:8], c[8:])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_is_seeded_sorted_and_distinct(players: int) -> None:
    hands = cp.deal(300, players, seed=4)
    assert hands.shape == (300, players, 13) and hands.dtype == np.uint8
    for round_ in hands:
        flat = round_.reshape(-1)
        assert len(set(flat.tolist())) == 13 * players
        assert all(np.all(np.diff(h.astype(int)) > 0) for h in round_)
    assert np.array_equal(hands, cp.deal(300, players, seed=4))
    assert np.array_equal(hands[100:], cp.deal(200, players, seed=4, first=100))
    assert not np.array_equal(hands, cp.deal(300, players, seed=5))


def test_simulate_is_identical_for_any_thread_count_and_matches_deal() -> None:
    pols: list[Any] = [cp.TableEV(), cp.Greedy(), cp.RandomLegal(), cp.TableEV()]
    one = cp.simulate(300, 4, "maceplay", pols, seed=3, threads=1, progress=False)
    two = cp.simulate(300, 4, "maceplay", pols, seed=3, threads=2, progress=False)
    assert one.columns is not None and two.columns is not None
    for name in COLUMNS:
        assert np.array_equal(one.columns[name], two.columns[name], equal_nan=name == "value")
    hands = cp.deal(300, 4, seed=3).reshape(-1, 13)
    assert np.array_equal(one.columns["hand"], hands)
    pts = one.columns["points"].reshape(300, 4)
    assert np.all(pts.sum(axis=1) == 0)
    assert np.all(one.columns["status"] != 1), "built-in policies never foul"
    value = one.columns["value"].reshape(300, 4)
    assert np.all(np.isfinite(value[:, [0, 3]])), "the table objective states its estimate"
    assert np.all(np.isnan(value[:, [1, 2]])), "greedy and random have none"


@pytest.mark.parametrize(
    "rules", ["maceplay", "pokerclub_south", "pokerfever_western", "shisanshui"]
)
def test_every_round_settles_exactly_as_cp_settle(rules: str) -> None:
    run = cp.simulate(60, 3, rules, seed=8, progress=False)
    cols = run.columns
    assert cols is not None
    for r in range(60):
        decisions: list[Any] = []
        for s in range(3):
            i = r * 3 + s
            choice = int(cols["choice"][i])
            if choice == 2:
                decisions.append(cp.Surrender())
            elif choice == 1:
                natural = cp.rules.NATURALS[int(cols["declared"][i])]
                decisions.append(cp.Declare(natural, _setting(cols["setting"][i])))
            else:
                decisions.append(_setting(cols["setting"][i]))
        assert cp.settle(decisions, rules).totals == tuple(cols["points"][r * 3 : r * 3 + 3])


def test_table_policy_plays_what_solve_batch_plays() -> None:
    run = cp.simulate(200, 2, "two_four", seed=2, progress=False)
    assert run.columns is not None
    batch = cp.solve_batch(run.columns["hand"], "two_four", players=2)
    assert np.array_equal(batch.settings, run.columns["setting"])


def test_a_python_callable_policy_plays_like_the_built_in_one() -> None:
    calls = []

    def bot(hand: np.ndarray) -> cp.Setting:
        calls.append(1)
        return cp.solve(hand, "two_four", players=2).setting

    mine = cp.simulate(80, 2, "two_four", [bot, cp.Greedy()], seed=6, progress=False)
    built = cp.simulate(80, 2, "two_four", [cp.TableEV(), cp.Greedy()], seed=6, progress=False)
    assert len(calls) == 80
    assert mine.columns is not None and built.columns is not None
    for name in ("hand", "setting", "points", "status", "ranks", "round", "seat"):
        assert np.array_equal(mine.columns[name], built.columns[name]), name


def test_settle_batch_matches_cp_settle_and_names_bad_rows() -> None:
    run = cp.simulate(50, 4, "maceplay", seed=9, progress=False)
    cols = run.columns
    assert cols is not None
    settings = cols["setting"].reshape(50, 4, 13)
    pts = cp.settle_batch(
        settings, "maceplay", cols["choice"].reshape(50, 4), cols["declared"].reshape(50, 4)
    )
    assert np.array_equal(pts, cols["points"].reshape(50, 4))
    bad = settings.copy()
    bad[7, 2, [0, 12]] = bad[7, 2, [12, 0]]  # a front above the back: a foul
    with pytest.raises(InvalidDecisionError, match="round 7"):
        cp.settle_batch(bad, "maceplay")  # maceplay refuses fouled settings


def test_summary_arrow_and_parquet(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    run = cp.simulate(400, 4, "shisanshui", seed=1, progress=False)
    summary = run.summary()
    assert len(summary) == 4 and sum(s.mean for s in summary) == pytest.approx(0, abs=1e-9)
    for s in summary:
        assert s.ci_low <= s.mean <= s.ci_high and s.rounds == 400
        assert 0 <= s.scoop_rate <= 1 and s.foul_rate == 0
    table = run.to_arrow()
    assert isinstance(table, pa.Table) and table.num_rows == 1600
    assert table.column("hand").type == pa.list_(pa.uint8(), 13)
    streamed = cp.simulate(400, 4, "shisanshui", seed=1, progress=False, out=tmp_path / "r.parquet")
    assert streamed.columns is None and streamed.rounds == 400
    back = pq.read_table(tmp_path / "r.parquet")
    # the same rows and labels (a Parquet reader keeps only the labels a file uses)
    assert back.to_pylist() == table.to_pylist()
    assert [s.mean for s in streamed.summary()] == [s.mean for s in summary]
    with pytest.raises(InvalidArgumentError, match="read_simulation"):
        streamed.to_arrow()


@pytest.mark.needs("pyarrow")
def test_seat_summary_is_numpy_on_the_columns(tmp_path: Path) -> None:
    rules = "pokerfever_western"  # fouls pay, surrender allowed, naturals declared

    def wild(hand: np.ndarray) -> object:
        # surrenders, fouls and plays, so that every rate of the summary is exercised
        k = int(hand.sum()) % 4
        if k == 0:
            return cp.Surrender()
        if k == 1:
            return _core.fouled_setting(hand, "low")
        return cp.solve(hand, rules, 3).as_decision()

    policies = [cp.TableEV(), wild, cp.Greedy()]
    run = cp.simulate(1500, 3, rules, policies, seed=4, progress=False)
    cols = run.columns
    assert cols is not None
    z = NormalDist().inv_cdf(0.975)
    summary = run.summary()
    for s in summary:
        seat = slice(s.seat, None, 3)
        x = cols["points"][seat].astype(np.float64)
        mean, se = x.mean(), x.std(ddof=1) / np.sqrt(len(x))
        assert s.rounds == len(x) == 1500
        assert s.mean == pytest.approx(mean, rel=1e-12, abs=1e-12)
        assert s.stderr == pytest.approx(se, rel=1e-9)
        assert s.ci_low == pytest.approx(mean - z * se, rel=1e-9, abs=1e-12)
        assert s.ci_high == pytest.approx(mean + z * se, rel=1e-9, abs=1e-12)
        assert s.scoop_rate == np.mean(cols["scoops"][seat] > 0)
        assert s.sweep_rate == np.mean(cols["sweep"][seat])
        status = cols["status"][seat]
        assert s.foul_rate == np.mean(status == _core.STATUS_NAMES.index("fouled"))
        assert s.natural_rate == np.mean(status == _core.STATUS_NAMES.index("natural"))
        assert s.surrender_rate == np.mean(status == _core.STATUS_NAMES.index("surrendered"))
    assert summary[1].foul_rate > 0.1 and summary[1].surrender_rate > 0.1
    assert summary[0].natural_rate > 0
    # a surrender's row holds the hand as dealt, as in a run of built-in policies
    surrendered = cols["choice"] == _core.CHOICE_NAMES.index("surrender")
    assert surrendered.any()
    assert np.array_equal(cols["setting"][surrendered], cols["hand"][surrendered])
    assert np.array_equal(cols["hand"], cp.deal(1500, 3, 4).reshape(-1, 13))
    # streamed in chunks without its rows, the summary is the same
    streamed = cp.simulate(1500, 3, rules, policies, seed=4, progress=False, out=tmp_path / "s.pq")
    assert streamed.summary() == summary


def test_interrupt_returns_the_rounds_done() -> None:
    calls = []

    def stops(hand: np.ndarray) -> cp.Setting:
        calls.append(1)
        if len(calls) > 150:
            raise KeyboardInterrupt
        return cp.solve(hand, None, players=2).setting

    run = cp.simulate(10_000, 2, None, [stops, cp.Greedy()], seed=1, progress=False)
    assert run.interrupted and 0 < run.rounds < 10_000
    assert run.columns is not None and len(run.columns["points"]) == 2 * run.rounds


def test_duel_statistics() -> None:
    same = cp.duel(cp.TableEV(), cp.TableEV(), deals=100, rules="two_four", progress=False)
    assert same.edge == 0 and same.same_share == 1 and np.all(same.edges == 0)
    vs = cp.duel(cp.TableEV(), cp.Greedy(), deals=300, rules="two_four", progress=False)
    assert vs.ci_low > 0.5, str(vs)  # the table objective beats the greedy baseline clearly
    assert vs.ci_low < vs.edge < vs.ci_high and vs.deals_needed < 300
    four = cp.duel(
        cp.TableEV(), cp.RandomLegal(), deals=40, rules="maceplay", players=4, progress=False
    )
    assert four.edge > 0 and four.deals == 40


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rounds": -1},
        {"rounds": 1.5},
        {"players": 5},
        {"seed": -1},
        {"policies": [cp.Greedy()]},
        {"policies": ["nope", "nope"]},
        {"backend": "spark"},
    ],
)
def test_simulate_bad_arguments(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"rounds": 10, "players": 2, "progress": False, **kwargs}
    with pytest.raises(InvalidArgumentError):
        cp.simulate(**args)


def test_policies_are_picklable_values() -> None:
    import pickle

    for p in (cp.TableEV(), cp.MonteCarlo(samples=50), cp.Greedy(), cp.RandomLegal()):
        assert pickle.loads(pickle.dumps(p)) == p
