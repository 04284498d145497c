"""A MkDocs hook (mkdocs.yml): the notebooks of examples/ as pages of the site, executed. ``make
examples`` runs them into ``target/executed/examples/`` (``tools/run_examples.py``); this hook
adds those files to the site as ``examples/<name>.ipynb`` before mkdocs-jupyter renders
notebooks, so the pages show every output. Without them (``make examples`` not run) the build
fails, naming the missing notebooks through the navigation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

EXECUTED = Path(__file__).resolve().parents[1] / "target" / "executed"


@event_priority(100)  # before mkdocs-jupyter's on_files, which turns .ipynb files into pages
def on_files(files: Files, config: Any) -> Files:
    for path in sorted((EXECUTED / "examples").glob("*.ipynb")):
        files.append(
            File(
                f"examples/{path.name}",
                str(EXECUTED),
                config["site_dir"],
                config["use_directory_urls"],
            )
        )
    return files
