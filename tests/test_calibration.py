"""The shipped tables are calibrated: in symmetric self-play (every seat TableEV, so the
realised mean is exactly 0) the mean prediction and each decile of predictions match what is
realised, within the sampling error of a short run. The README's quality report measures the
same with far more rounds (``benches/quality_report.py``)."""

from __future__ import annotations

import json

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker import strategy_tables as tables

ROUNDS = 4000
#: How far a measured mean may stray: the targets (0.01 for the mean, 0.05 per decile) plus
#: four standard errors of this short run's own measurement.
SIGMAS = 4.0


def cases() -> list[tuple[str, int]]:
    return [(name, n) for name in cp.RuleSet.presets() for n in (2, 3, 4)]


@pytest.mark.parametrize(("rules", "players"), cases())
def test_symmetric_self_play_realises_what_tableev_predicts(rules: str, players: int) -> None:
    run = cp.simulate(ROUNDS, players, rules, seed=2024, progress=False)
    assert run.columns is not None
    pred = run.columns["value"]
    real = run.columns["points"].astype(np.float64)
    assert real.sum() == 0  # zero-sum: the realised mean is exactly 0
    se = pred.std() / np.sqrt(len(pred))
    assert abs(pred.mean()) <= 0.01 + SIGMAS * se, (pred.mean(), se)
    for d in np.array_split(np.argsort(pred, kind="stable"), 10):
        gap = pred[d].mean() - real[d].mean()
        se_d = real[d].std() / np.sqrt(len(d))
        assert abs(gap) <= 0.05 + SIGMAS * se_d, (pred[d].mean(), real[d].mean(), se_d)


@pytest.mark.parametrize(("rules", "players"), cases())
def test_shipped_tables_carry_a_trained_model(rules: str, players: int) -> None:
    path = tables.shipped_tables_path(rules, players)
    assert path is not None
    meta = tables.read_tables(path)["meta"]
    model = meta["model"]
    assert len(model["calibration"]) >= 2
    assert model["scoop_for"] > 0 and model["scoop_against"] > 0
    assert meta["converged"]
    # the calibration steps are recorded, each on the hands it played
    steps = meta["calibration"]
    assert steps and all(step["hands"] > 0 for step in steps)
    # the compiled objective carries the same model
    loaded = json.loads(tables.load_tables(rules, players).model)
    assert loaded["calibration"] == model["calibration"]


def test_a_bad_model_is_an_invalid_tables_error(tmp_path: object) -> None:
    import pathlib

    src = tables.shipped_tables_path("maceplay", 2)
    assert src is not None
    t = tables.read_tables(src)
    meta = dict(t["meta"], model=dict(t["meta"]["model"], natural_rate=2.0))
    out = pathlib.Path(str(tmp_path)) / "bad.npz"
    np.savez(out, front=t["front"], middle=t["middle"], back=t["back"], meta=json.dumps(meta))
    with pytest.raises(cp.exceptions.InvalidTablesError, match="natural_rate"):
        tables.load_tables("maceplay", 2, out)


@pytest.mark.filterwarnings("ignore:training 'one_six'")
def test_training_states_its_calibration() -> None:
    res = tables.train_tables("one_six", 3, seed=3, deals=20)
    steps = res["meta"]["calibration"]
    hands = _core.CALIBRATION_HANDS_PER_DEAL * 20  # the default scales with the deals
    assert len(steps) == _core.CALIBRATION_STEPS and all(s["hands"] == hands for s in steps)
    model = json.loads(res["model"])
    assert len(model["calibration"]) >= 2
    again = tables.train_tables("one_six", 3, seed=3, deals=20)
    assert again["model"] == res["model"]  # reproducible from the seed
