"""Runs the notebooks of examples/ from top to bottom, as a reader would (each in a scratch
directory of its own), and writes them, outputs included, under ``OUT/examples/`` for the
documentation site (``make examples``; the site's hook ``tools/mkdocs_examples.py`` adds them).
The notebooks themselves stay stored without outputs. Usage: python tools/run_examples.py OUT"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import nbclient
import nbformat

ROOT = Path(__file__).resolve().parents[1]


def main(out: Path) -> int:
    (out / "examples").mkdir(parents=True, exist_ok=True)
    for path in sorted((ROOT / "examples").glob("*.ipynb")):
        start = time.perf_counter()
        nb = nbformat.read(path, as_version=4)
        with tempfile.TemporaryDirectory() as scratch:
            client = nbclient.NotebookClient(
                nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": scratch}}
            )
            client.execute()  # raises CellExecutionError naming the cell on any error
        nbformat.write(nb, out / "examples" / path.name)
        print(f"{path.name}: ran in {time.perf_counter() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "target/executed")))
