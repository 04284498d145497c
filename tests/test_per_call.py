"""A call per hand as fast as a batch: `solve()` under the table objective finds the best play by
the batch's search and lists its `top_k` plays only when they are first read; a hand given as a
numpy row is read from its buffer. Neither may change a single figure."""

from __future__ import annotations

import pickle

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker.exceptions import DuplicateCardError, InvalidCardError

FIELDS = (
    "decision",
    "natural",
    "value",
    "raw_ranks",
    "play_value",
    "surrender_value",
    "natural_held",
    "objective",
    "players",
    "rules",
)


def hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(52)[:13] for _ in range(n)], np.uint8)


@pytest.mark.parametrize("preset", _core.PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_best_play_is_the_listings_first_and_the_batchs(preset: str, players: int) -> None:
    rows = hands(60, players)
    bot = cp.Solver(preset, players)
    batch = bot.solve_batch(rows, threads=1)
    for i, row in enumerate(rows):
        lazy = bot.solve(row)
        best = [getattr(lazy, f) for f in FIELDS]
        setting = str(lazy.setting)
        listed = bot.solve(row)
        alternatives = listed.alternatives  # the listing, run now
        assert [getattr(listed, f) for f in FIELDS] == best
        assert lazy == listed and lazy.to_dict() == listed.to_dict()
        assert [getattr(lazy, f) for f in FIELDS] == best and str(lazy.setting) == setting
        assert lazy.value == batch.values[i]
        if lazy.decision == "play":
            assert alternatives[0].value == lazy.value
            assert str(alternatives[0].setting) == setting
            assert np.array_equal(
                batch.settings[i], [c.code for r in lazy.setting.rows() for c in r]
            )
        assert 1 <= len(alternatives) <= 5 and lazy.candidates >= len(alternatives)


def test_a_listed_solution_pickles_prints_and_compares() -> None:
    sol = cp.solve(hands(1, 9)[0], "two_four", 2, top_k=3)
    back = pickle.loads(pickle.dumps(sol))
    assert back == sol and back.to_dict() == sol.to_dict()
    assert len(back.alternatives) == len(sol.alternatives) <= 3
    assert "Next best" in sol.explain() and str(sol) == sol.explain()
    assert cp.solve(hands(1, 9)[0], "two_four", 2, top_k=1).alternatives[0] == sol.alternatives[0]


def test_a_numpy_row_reads_as_a_list_of_codes() -> None:
    row = hands(1, 4)[0]
    assert cp.solve(row, "maceplay") == cp.solve(row.tolist(), "maceplay")
    assert cp.solve(row[::-1], "maceplay").value == cp.solve(row.tolist(), "maceplay").value
    bad = row.copy()
    bad[4] = 60
    for given in (bad, bad.tolist()):
        with pytest.raises(InvalidCardError, match="60.*position 5|position 5.*60"):
            cp.solve(given, "maceplay")
    bad[4] = bad[2]
    for given in (bad, bad.tolist()):
        with pytest.raises(DuplicateCardError):
            cp.solve(given, "maceplay")
