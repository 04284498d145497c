"""The README and the documentation site: every Python block runs, every README link works on a
package page (absolute, on the one documentation base URL, to a page that exists, or a heading
of the README itself), and what the package shows a user points where the site has a page."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import chinese_poker as cp
import pytest
from chinese_poker.about import docs_url, versions

ROOT = Path(__file__).resolve().parents[1]


def missing(module: str) -> bool:
    """Whether ``module`` cannot be imported here."""
    return importlib.util.find_spec(module) is None


README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.rglob("*.md"))]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
BASE = PYPROJECT["project"]["urls"]["Documentation"]
REPOSITORY = PYPROJECT["project"]["urls"]["Repository"]
# the libraries the docs use that a plain install does not bring: the extras' and dataframes
OPTIONAL = {
    re.split(r"[^A-Za-z0-9_-]", req, maxsplit=1)[0].replace("-", "_")
    for reqs in PYPROJECT["project"]["optional-dependencies"].values()
    for req in reqs
} | {"pandas", "polars", "duckdb"}


def python_blocks() -> list[tuple[Path, int, str]]:
    """Every fenced ```python block of the README and the docs, with the line it starts on."""
    blocks = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"^```python[^\n]*\n(.*?)^```", text, flags=re.S | re.M):
            line = text.count("\n", 0, match.start()) + 1
            blocks.append((page, line, match.group(1)))
    return blocks


def test_there_are_examples_to_run() -> None:
    pages = {page for page, _, _ in python_blocks()}
    assert README in pages and len(pages) >= 8


@pytest.mark.parametrize(
    "block", python_blocks(), ids=lambda b: f"{b[0].relative_to(ROOT)} line {b[1]}"
)
def test_example_runs(
    block: tuple[Path, int, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each block runs on its own, so each must be self-contained (in a scratch directory)."""
    page, line, source = block
    monkeypatch.chdir(tmp_path)
    code = compile("\n" * (line) + source, str(page), "exec")
    try:
        exec(code, {"__name__": f"docs_{page.stem}_{line}"})
    except ModuleNotFoundError as e:
        # an example of an optional library (Parquet, plots, dataframes) where it is not
        # installed, imported by the example or asked for by the package
        # (MissingDependencyError): skipped, but only if that library is really missing
        top = (e.name or "").split(".")[0]
        if top not in OPTIONAL:
            raise
        assert missing(top), f"{e} though {top} is installed"
        pytest.skip(f"needs {top} (not installed)")


def _links(text: str) -> list[str]:
    return re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r"(?<![(\[])https?://[^\s)>]+", text)


def _headings(text: str) -> set[str]:
    slugs = set()
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.M):
        slugs.add(re.sub(r"[^\w\- ]", "", heading.lower()).strip().replace(" ", "-"))
    return slugs


def test_readme_is_a_package_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    links = _links(text)
    assert len(links) >= 10
    for link in links:
        if link.startswith("#"):
            assert link[1:] in _headings(text), link
            continue
        assert link.startswith("https://"), f"{link}: a relative link is dead on a package page"
        if link.startswith(BASE):
            # a page of the site: docs/<page>.md or docs/<page>/index.md
            page = link[len(BASE) :].strip("/")
            found = [DOCS / f"{page}.md", DOCS / page / "index.md"] if page else [DOCS / "index.md"]
            assert any(p.exists() for p in found), f"{link}: no such page in docs/"


def test_one_base_url() -> None:
    """pyproject.toml's Documentation URL is the base every other place builds on."""
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"site_url: {BASE}\n" in mkdocs
    assert f"repo_url: {REPOSITORY}\n" in mkdocs
    urls = PYPROJECT["project"]["urls"]
    assert {"Homepage", "Documentation", "Repository", "Issues", "Changelog"} <= set(urls)
    for url in urls.values():
        assert url.startswith((BASE, REPOSITORY)), url
    assert urls["Changelog"] == BASE + "changelog/" and (DOCS / "changelog.md").exists()


def test_what_the_package_points_to_exists() -> None:
    """docs_url builds on the installed metadata's Documentation URL, and every page the package
    names (in messages and docstrings) is a page of the site."""
    assert docs_url() == BASE
    assert docs_url("rules/") == BASE + "rules/"
    source = ROOT / "python" / "chinese_poker"
    named = set()
    for path in source.rglob("*.py"):
        named |= set(re.findall(r"docs_url\(\s*[\"']([^\"']+)[\"']", path.read_text("utf-8")))
    assert named, "the package names no page"
    for page in named:
        assert (DOCS / f"{page.strip('/')}.md").exists(), page


PUBLIC_MODULES = [
    "chinese_poker", "chinese_poker.rules", "chinese_poker.scoring", "chinese_poker.solver",
    "chinese_poker.simulate", "chinese_poker.policies", "chinese_poker.duels",
    "chinese_poker.provenance", "chinese_poker.table", "chinese_poker.strategy_tables",
    "chinese_poker.plots", "chinese_poker.exceptions", "chinese_poker.about",
]  # fmt: skip


def _public_docstrings() -> dict[str, str]:
    """The docstring of every public module, class, function, method and property, the
    extension's included (read from the installed package, as the API reference is)."""
    import importlib
    import inspect

    docs: dict[str, str] = {}
    for name in PUBLIC_MODULES:
        module = importlib.import_module(name)
        docs[name] = module.__doc__ or ""
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr)
            docs[f"{name}.{attr}"] = inspect.getdoc(obj) or ""
            if inspect.isclass(obj):
                for member, value in vars(obj).items():
                    if not member.startswith("_") or member == "__init__":
                        docs[f"{name}.{attr}.{member}"] = inspect.getdoc(value) or ""
    return docs


def test_docstrings_link_to_the_site_not_to_the_repository() -> None:
    """A pip user has no docs/ folder: docstrings name pages by their address on the site, and
    each address is a page of the site, with the heading its anchor names. No Sphinx role is
    left as raw text (the reference renders Markdown)."""
    docs = _public_docstrings()
    assert len(docs) > 300, len(docs)
    linked = 0
    for name, doc in docs.items():
        assert not re.search(r"\bdocs/[\w/-]+\.md|README", doc), name
        assert not re.search(r":(class|meth|func|data|attr|mod|exc|obj):`", doc), name
        for page, anchor in re.findall(re.escape(BASE) + r"([\w/-]*)(?:#([\w-]+))?", doc):
            path = DOCS / f"{page.strip('/')}.md" if page else DOCS / "index.md"
            assert path.exists(), (name, page)
            if anchor:
                assert anchor in _headings(path.read_text(encoding="utf-8")), (name, anchor)
            linked += 1
    assert linked >= 5


def test_the_api_reference_documents_every_parameter() -> None:
    """Every object the API reference renders (docs/reference/api.md), read as mkdocstrings
    reads it (the installed package, the extension's stubs merged, Google-style docstrings):
    each parameter of each public function, method and constructor is in an Args (or, for a
    result class, Attributes) section."""
    griffe = pytest.importorskip("griffe")
    pkg = griffe.load("chinese_poker", docstring_parser="google", allow_inspection=True)
    api = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    targets = re.findall(r"^::: chinese_poker\.(\S+)", api, flags=re.M)
    assert len(targets) > 60

    def documented(obj: Any) -> set[str]:
        names: set[str] = set()
        for section in obj.docstring.parsed if obj.docstring else []:
            if section.kind.value in ("parameters", "attributes", "other parameters"):
                names |= {p.name.lstrip("*") for p in section.value}
        return names

    missing: dict[str, list[str]] = {}
    callables = 0

    def visit(obj: Any, path: str) -> None:
        nonlocal callables
        obj = obj.final_target if obj.is_alias else obj
        if obj.is_function:
            generic = {"args", "kwargs"} >= {p.name for p in obj.parameters} - {"self", "cls"}
            if obj.name == "__new__" and generic:
                return  # no constructor of its own: built by the package only
            params = [p.name for p in obj.parameters if p.name not in ("self", "cls")]
            params = [p for p in params if not p.startswith("_")]  # private, set internally
            init = obj.name in ("__init__", "__new__")
            have = documented(obj) | (documented(obj.parent) if init else set())
            callables += 1
            if gaps := [p for p in params if p not in have]:
                missing[path] = gaps
        elif obj.is_class or obj.is_module:
            exports = {str(e) for e in obj.exports} if obj.is_module and obj.exports else None
            for name, member in obj.members.items():
                private = name.startswith("_") and name not in ("__init__", "__new__")
                if not private and (exports is None or name in exports):
                    visit(member, f"{path}.{name}")

    for target in targets:
        visit(pkg[target], target)
    assert callables > 100
    assert not missing, missing


def test_every_make_target_the_docs_name_exists() -> None:
    """`make X` in the README or a page is a rule of the Makefile (make prints "Nothing to be
    done" and succeeds for a name that is a file or directory, such as `examples`)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    rules = set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.M))
    phony = set(" ".join(re.findall(r"^\.PHONY:((?:.*\\\n)*.*)$", makefile, flags=re.M)).split())
    named = set()
    for page in PAGES:
        named |= set(re.findall(r"`make ([a-z][\w-]*)", page.read_text(encoding="utf-8")))
    assert {"demo", "test", "examples"} <= named
    for target in named:
        assert target in rules, f"make {target}: no such rule"
        assert target in phony, f"make {target}: not .PHONY"


@pytest.mark.posix_only  # a shell script as the old Python
@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_demo_says_first_that_the_python_is_too_old(tmp_path: Path) -> None:
    """Before any virtualenv or build: a Python older than 3.11, or none, is named with what to
    do; this Python passes the check."""
    old = tmp_path / "python3.10"
    old.write_text('#!/bin/sh\n[ "$1" = --version ] && echo "Python 3.10.12" && exit 0\nexit 1\n')
    old.chmod(0o755)
    venv = tmp_path / "venv"
    for python, says in ((old, "is Python 3.10.12"), (tmp_path / "nowhere", "is not found")):
        result = subprocess.run(
            ["make", "-C", str(ROOT), "demo", f"PYTHON={python}", f"VENV={venv}"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode != 0 and "needs Python >= 3.11" in result.stderr, result
        assert says in result.stderr and "PYTHON=python3.12" in result.stderr, result.stderr
        assert not venv.exists()  # nothing was installed
    ok = subprocess.run(
        ["make", "-C", str(ROOT), "python-version", f"PYTHON={sys.executable}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr


def test_show_versions(capsys: pytest.CaptureFixture[str]) -> None:
    cp.show_versions()
    out = capsys.readouterr().out
    for name in ("chinese-poker", "python", "numpy", "pyarrow", "ray", "platform"):
        assert re.search(rf"^{name} +\S", out, flags=re.M), name
    assert versions()["chinese-poker"] == cp.__version__
