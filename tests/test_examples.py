"""The notebooks of examples/ run from top to bottom, as a reader would run them, and are stored
without outputs; a cell that plots displays a picture (no %matplotlib magic needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.ipynb"))


def test_the_examples_are_there() -> None:
    assert {p.name for p in EXAMPLES} == {"bot.ipynb", "pipeline.ipynb", "house_rules.ipynb"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_is_stored_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, path.name


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(path: Path, tmp_path: Path) -> None:
    if path.name == "pipeline.ipynb":
        for module in ("pyarrow", "pandas", "polars", "duckdb"):
            pytest.importorskip(module)
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError naming the cell on any error
    for cell in nb.cells:
        if cell.cell_type == "code" and "plots." in cell.source:
            kinds = {k for out in cell.outputs for k in out.get("data", {})}
            assert "image/png" in kinds, f"{path.name}: {cell.source[:60]!r} showed no picture"
