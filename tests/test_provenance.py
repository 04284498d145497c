"""Runs that describe themselves: the provenance in a simulation's Parquet metadata (one file or
the parts of a simulation directory), the code columns as labelled dictionary columns, what
``read_simulation`` restores, ``summary(by="policy")`` against a direct numpy computation, the
``to_dict()`` of a duel and a simulation, and the clear error when an optional library is
missing."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core, _dataset, plots
from chinese_poker.exceptions import InvalidArgumentError, MissingDependencyError
from chinese_poker.provenance import Provenance
from chinese_poker.simulate import COLUMNS

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

RULES = "maceplay"
ROUNDS = 2000
SEED = 7


def _bot(hand: np.ndarray) -> object:
    """A Python policy: the greedy setting, decided in Python."""
    return cp.solve(hand, RULES, 2).as_decision()


@pytest.fixture(scope="module")
def run() -> cp.Simulation:
    """A mixed run: the table objective at two seats, greedy and random at one each."""
    pols: list[Any] = [cp.TableEV(), cp.Greedy(), cp.TableEV(), cp.RandomLegal()]
    return cp.simulate(ROUNDS, 4, RULES, pols, seed=SEED, progress=False)


def _meta(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(pq.read_schema(path).metadata[_dataset.METADATA_KEY])
    return data


def _same_columns(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    for name in COLUMNS:
        assert a[name].dtype == b[name].dtype, name
        assert np.array_equal(a[name], b[name], equal_nan=True), name


def _labels_match_codes(table: Any, cols: dict[str, np.ndarray]) -> None:
    """Every code column is a dictionary column whose labels are the core's names of the
    codes (a natural of none is null)."""
    names = {"choice": _core.CHOICE_NAMES, "status": _core.STATUS_NAMES}
    names["declared"] = _core.NATURAL_NAMES
    for name, labels in names.items():
        assert pa.types.is_dictionary(table.schema.field(name).type), name
        want = [None if c == _core.NO_NATURAL else labels[c] for c in cols[name].tolist()]
        assert table.column(name).to_pylist() == want, name


def test_a_parquet_file_holds_its_provenance_and_labels(run: cp.Simulation, tmp_path: Path) -> None:
    assert run.columns is not None
    path = run.to_parquet(tmp_path / "run.parquet")
    meta = _meta(path)
    assert meta["format"] == _dataset.FORMAT
    assert meta["schema_version"] == _dataset.SCHEMA_VERSION
    assert cp.RuleSet.from_dict(meta["rules"]) == cp.RuleSet.preset(RULES)
    assert meta["players"] == 4 and meta["seed"] == SEED and meta["rounds"] == ROUNDS
    assert meta["policies"] == ["TableEV(tables=None)", "Greedy()", "TableEV(tables=None)"] + [
        "RandomLegal()"
    ]
    assert meta["first"] == 0 and meta["count"] == ROUNDS
    assert meta["package_version"] == cp.__version__
    table = pq.read_table(path)
    _labels_match_codes(table, run.columns)
    assert (run.columns["declared"] != _core.NO_NATURAL).any(), "the run declares naturals"


def test_pandas_and_polars_read_the_labels_as_categories(
    run: cp.Simulation, tmp_path: Path
) -> None:
    pytest.importorskip("pandas")  # optional: not in the release jobs' test dependencies
    table = pq.read_table(run.to_parquet(tmp_path / "run.parquet"))
    assert table.to_pandas()["status"].dtype == "category"
    pl = pytest.importorskip("polars")
    assert run.to_polars()["declared"].dtype == pl.Categorical


def test_read_simulation_restores_rows_summary_and_provenance(
    run: cp.Simulation, tmp_path: Path
) -> None:
    assert run.columns is not None
    back = cp.read_simulation(run.to_parquet(tmp_path / "run.parquet"))
    assert back.columns is not None
    _same_columns(back.columns, run.columns)
    assert back.summary() == run.summary()
    assert back.summary(by="policy") == run.summary(by="policy")
    assert back.provenance == run.provenance
    prov = back.provenance
    assert prov.rules == cp.RuleSet.preset(RULES) and prov.rules.name == RULES
    assert prov.seed == SEED and prov.rounds == ROUNDS and prov.players == 4
    assert prov.package_version == cp.__version__ and prov.first == 0
    assert (back.rounds, back.requested, back.interrupted) == (ROUNDS, ROUNDS, False)


def _small_parts(monkeypatch: pytest.MonkeyPatch, rounds: int) -> None:
    """Chunks of ``rounds`` rounds and a part after each (chunking never changes the rows)."""

    def chunks(total: int, seconds_per_chunk: float = 0.25) -> Any:
        return ((f, min(rounds, total - f)) for f in range(0, total, rounds))

    monkeypatch.setattr("chinese_poker._runner._chunks", chunks)
    monkeypatch.setattr("chinese_poker._runner._PART_ROWS", 1)


def test_every_part_of_a_simulation_directory_describes_itself(
    run: cp.Simulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run.columns is not None
    _small_parts(monkeypatch, 700)
    pols: list[Any] = [cp.TableEV(), cp.Greedy(), cp.TableEV(), cp.RandomLegal()]
    out = tmp_path / "run"
    stored = cp.simulate(ROUNDS, 4, RULES, pols, seed=SEED, progress=False, out=out)
    assert stored.columns is None and stored.provenance == run.provenance
    # pooled by policy from the parts, a block of points at a time, as from the rows kept
    assert stored.summary(by="policy") == run.summary(by="policy")
    manifest = _dataset.load_manifest(out)
    assert len(manifest["parts"]) == 3
    for part in manifest["parts"]:
        meta = _meta(out / part["file"])
        assert (meta["first"], meta["count"]) == (part["first"], part["count"])
        assert meta["package_version"] == cp.__version__
        assert {k: meta[k] for k in _dataset.RUN_KEYS} == {
            k: manifest[k] for k in _dataset.RUN_KEYS
        }
        # a part read alone is the rounds it holds, with the run's provenance
        alone = cp.read_simulation(out / part["file"])
        assert alone.provenance.first == part["first"] and alone.rounds == part["count"]
        assert alone.provenance.rules == run.provenance.rules
    _labels_match_codes(pq.read_table(out), run.columns)
    back = cp.read_simulation(out)
    assert back.columns is not None and back.provenance == run.provenance
    _same_columns(back.columns, run.columns)
    assert back.summary() == run.summary()


def _clustered(x: np.ndarray) -> tuple[float, float]:
    """Mean per hand and its standard error clustered by round, directly: ``x`` is (rounds,
    seats) points of the seats of one policy."""
    rounds, seats = x.shape
    mean = x.mean()
    totals = x.sum(axis=1) - seats * mean  # each round's deviation, summed over its seats
    variance = rounds / (rounds - 1) * np.sum(totals**2) / x.size**2
    return float(mean), float(np.sqrt(variance))


def test_summary_by_policy_pools_seats_with_a_round_clustered_interval(
    run: cp.Simulation,
) -> None:
    assert run.columns is not None
    points = run.columns["points"].reshape(-1, 4).astype(np.float64)
    pooled = run.summary(by="policy")
    assert [(p.policy, p.seats) for p in pooled] == [
        ("TableEV(tables=None)", (0, 2)),
        ("Greedy()", (1,)),
        ("RandomLegal()", (3,)),
    ]
    seats = run.summary()
    for p in pooled:
        x = points[:, list(p.seats)]
        mean, se = _clustered(x)
        assert p.rounds == ROUNDS and p.hands == x.size
        assert p.mean == pytest.approx(mean, rel=1e-12)
        assert p.stderr == pytest.approx(se, rel=1e-9)
        assert p.ci_low == pytest.approx(mean - _core.INTERVAL_Z * se, rel=1e-9)
        assert p.ci_high == pytest.approx(mean + _core.INTERVAL_Z * se, rel=1e-9)
        assert p.scoop_rate == pytest.approx(np.mean([seats[s].scoop_rate for s in p.seats]))
        if len(p.seats) == 1:  # one seat: its own interval
            assert p.stderr == pytest.approx(seats[p.seats[0]].stderr, rel=1e-9)
    # two seats of one policy share their rounds: the naive interval (hands independent) is off
    table = pooled[0]
    x = points[:, [0, 2]]
    naive = x.std(ddof=1) / np.sqrt(x.size)
    assert abs(table.stderr / naive - 1) > 0.1, (table.stderr, naive)
    assert (round(table.stderr, 2), round(float(naive), 2)) == (0.11, 0.16)  # as the guide says
    text = str(table)
    assert "TableEV(tables=None) at P0 P2" in text and "clustered by round" in text
    assert "TableEV(tables=None)" in table._repr_html_()


def test_summary_by_policy_of_one_policy_everywhere_is_exactly_zero() -> None:
    run = cp.simulate(50, 3, RULES, seed=2, progress=False)
    (only,) = run.summary(by="policy")
    assert only.seats == (0, 1, 2) and only.hands == 150
    assert only.mean == 0 and only.stderr == 0  # every round is zero-sum
    empty = cp.simulate(0, 2, RULES, progress=False).summary(by="policy")
    assert np.isnan(empty[0].mean) and np.isnan(empty[0].stderr)
    with pytest.raises(InvalidArgumentError, match='"by"') as e:
        run.summary(by="table")  # type: ignore[call-overload]
    assert e.value.argument == "by"


def test_duel_and_simulation_record_how_they_were_made() -> None:
    mc = cp.MonteCarlo(samples=_core.MIN_SAMPLES, seed=3, threads=1)
    d = cp.duel(mc, cp.Greedy(), deals=4, rules="two_four", seed=11, progress=False)
    data = d.to_dict()
    json.dumps(data)  # plain data
    prov = data["provenance"]
    assert prov["rules"] == cp.RuleSet.preset("two_four").to_dict()
    assert prov["players"] == 2 and prov["seed"] == 11 and prov["rounds"] == 4
    assert prov["policies"][0].startswith(f"MonteCarlo(samples={_core.MIN_SAMPLES}, seed=3")
    assert "threads" not in prov["policies"][0].replace("threads=None", "")
    assert prov["policies"][1] == "Greedy()" and prov["package_version"] == cp.__version__
    assert data["deals"] == 4 and data["edge"] == d.edge and "edges" not in data
    assert Provenance.from_dict(prov) == d.provenance

    sim = cp.simulate(20, 2, RULES, [cp.TableEV(), _bot], seed=9, progress=False)
    data = sim.to_dict()
    json.dumps(data)
    prov = data["provenance"]
    assert prov["policies"] == ["TableEV(tables=None)", f"{_bot.__module__}._bot"]
    assert prov["rules"] == cp.RuleSet.preset(RULES).to_dict()
    assert (prov["seed"], prov["rounds"], prov["players"]) == (9, 20, 2)
    assert prov["package_version"] == cp.__version__
    assert data["schema_version"] == _dataset.SCHEMA_VERSION and data["rounds"] == 20
    assert [s["mean"] for s in data["summary"]] == [s.mean for s in sim.summary()]
    assert Provenance.from_dict(prov) == sim.provenance


def test_damaged_labels_and_an_older_format_are_refused(run: cp.Simulation, tmp_path: Path) -> None:
    path = run.to_parquet(tmp_path / "run.parquet")
    table = pq.read_table(path)
    status = table.column("status").combine_chunks()
    bogus = pa.DictionaryArray.from_arrays(status.indices, pa.array(["bogus"] * 4))
    damaged = table.set_column(table.schema.get_field_index("status"), "status", bogus)
    pq.write_table(damaged, tmp_path / "damaged.parquet")
    with pytest.raises(InvalidArgumentError, match="damaged rows.*bogus") as e:
        cp.read_simulation(tmp_path / "damaged.parquet")
    assert e.value.argument == "path"
    old = {"format": _dataset.FORMAT, "identity": {"version": 1, "players": 4}}
    pq.write_table(
        table.replace_schema_metadata({_dataset.METADATA_KEY: json.dumps(old).encode()}),
        tmp_path / "old.parquet",
    )
    with pytest.raises(InvalidArgumentError, match="format version 1"):
        cp.read_simulation(tmp_path / "old.parquet")


def _hide(monkeypatch: pytest.MonkeyPatch, library: str) -> None:
    """As if ``library`` were not installed: every module of it unimportable."""
    for name in [m for m in sys.modules if m == library or m.startswith(library + ".")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, library, None)


def test_a_missing_optional_library_is_a_clear_error(
    run: cp.Simulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = run.to_parquet(tmp_path / "run.parquet")
    with monkeypatch.context() as m:
        _hide(m, "pyarrow")
        calls = [
            run.to_arrow,
            run.to_pandas,
            run.to_polars,
            lambda: run.to_parquet(tmp_path / "again.parquet"),
            lambda: cp.read_simulation(written),
            lambda: cp.simulate(5, 2, progress=False, out=tmp_path / "out"),
            cp.Table(2, policies=[cp.Greedy()] * 2).to_arrow,
        ]
        for call in calls:
            with pytest.raises(MissingDependencyError, match=r"chinese-poker\[arrow\]") as e:
                call()
            assert isinstance(e.value, ImportError) and e.value.name == "pyarrow"
            assert "pip install" in str(e.value)
    assert not (tmp_path / "out").exists()  # refused before any work
    with monkeypatch.context() as m:
        _hide(m, "polars")
        with pytest.raises(MissingDependencyError, match="pip install polars"):
            run.to_polars()
    with monkeypatch.context() as m:
        _hide(m, "matplotlib")
        with pytest.raises(MissingDependencyError, match=r"chinese-poker\[plot\]"):
            plots.points_distribution(run)
    assert run.to_arrow().num_rows == 4 * ROUNDS  # and all is well again
