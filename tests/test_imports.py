"""The package's imports go one way: built from the source with ``ast``, the graph of which module
imports which has no circle. Imports under ``if TYPE_CHECKING:`` do not count (they never run);
an import of the package root from inside it does (the root imports nearly every module)."""

from __future__ import annotations

import ast
from pathlib import Path

import chinese_poker as cp
import pytest

PACKAGE = "chinese_poker"
# the source tree when run from a checkout, the installed package otherwise: both are the code
SOURCE = next(
    p
    for p in (
        Path(__file__).resolve().parents[1] / "python" / PACKAGE,
        Path(cp.__file__).parent,
    )
    if (p / "__init__.py").exists()
)


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out = {}
    for f in sorted(root.rglob("*.py")):
        parts = (PACKAGE, *f.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = (
                test.id
                if isinstance(test, ast.Name)
                else test.attr
                if isinstance(test, ast.Attribute)
                else ""
            )
            if name == "TYPE_CHECKING":
                # the body only: an `else:` branch runs
                skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def imports_of(name: str, path: Path, known: dict[str, Path], extensions: set[str]) -> set[str]:
    """The package's modules that module ``name`` imports when it runs (at any depth of its code,
    including imports inside functions: they run too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".") if is_package else name.split(".")[:-1]
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                # `from . import x` imports the module x if there is one, else a name of base
                found.add(sub if sub in known or sub in extensions else base)
    # a module importing itself is no circle
    return {m for m in found if m in known and m != name}


def import_graph(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    # the compiled extension (`_core`; its stub in a checkout) imports nothing of the package
    extensions = {
        ".".join((PACKAGE, *f.relative_to(root).parent.parts, f.name.split(".")[0]))
        for f in root.rglob("*")
        if f.suffix in (".so", ".pyd", ".pyi")
    }
    return {name: imports_of(name, path, known, extensions) for name, path in known.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each module that is on one (depth-first search, each found once)."""
    found: list[list[str]] = []
    seen: set[frozenset[str]] = set()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                loop = path[path.index(n) :] + [n]
                if frozenset(loop) not in seen:
                    seen.add(frozenset(loop))
                    found.append(loop)
            elif n not in state:
                visit(n)
        path.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return found


def test_the_package_has_no_import_circle() -> None:
    graph = import_graph(SOURCE)
    assert len(graph) > 20, sorted(graph)  # the whole package was read
    found = circles(graph)
    assert not found, "import circles: " + "; ".join(" -> ".join(c) for c in found)


def test_display_imports_no_result_class() -> None:
    """Display is at the bottom: every result class imports it for its layouts."""
    graph = import_graph(SOURCE)
    assert graph[f"{PACKAGE}.display"] <= {f"{PACKAGE}.exceptions"}
    # and the extension is no edge: nothing imports the package root from inside
    assert not any(PACKAGE in deps for deps in graph.values())


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # a circle through a lazy import inside a function counts: it runs
        (
            {"a.py": "from . import b\n", "b.py": "def f():\n    from .a import x\n"},
            "chinese_poker.a -> chinese_poker.b -> chinese_poker.a",
        ),
        # an import of the package root from inside counts, in either spelling
        ({"a.py": "from . import y\n"}, "chinese_poker -> chinese_poker.a -> chinese_poker"),
        ({"a.py": "import chinese_poker\n"}, "chinese_poker -> chinese_poker.a -> chinese_poker"),
    ],
)
def test_a_circle_is_found_and_named(tmp_path: Path, source: dict[str, str], expected: str) -> None:
    root = tmp_path / PACKAGE
    root.mkdir()
    for file, text in {"__init__.py": "from . import a\n", **source}.items():
        (root / file).write_text(text)
    assert [" -> ".join(c) for c in circles(import_graph(root))] == [expected]


def test_type_checking_imports_do_not_count(tmp_path: Path) -> None:
    root = tmp_path / PACKAGE
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "a.py").write_text("from . import b\n")
    (root / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n"
        "else:\n    pass\n"
    )
    assert circles(import_graph(root)) == []
    (root / "b.py").write_text(
        "import typing\nif typing.TYPE_CHECKING:\n    pass\nelse:\n    from . import a\n"
    )
    assert circles(import_graph(root)) == [[f"{PACKAGE}.a", f"{PACKAGE}.b", f"{PACKAGE}.a"]]


def test_moved_modules_keep_their_old_names() -> None:
    """The presets live in `rules` and the strategy-tables files in `strategy_tables`; the names
    the README and existing code use still reach them."""
    from chinese_poker import presets, rules, strategy_tables, tables

    assert presets is rules and cp.presets.MACEPLAY is rules.PRESETS["maceplay"]
    assert tables is strategy_tables
    from chinese_poker.simulate import DuelResult, Greedy, RandomLegal, duel

    assert (DuelResult, duel, Greedy, RandomLegal) == (
        cp.DuelResult,
        cp.duel,
        cp.Greedy,
        cp.RandomLegal,
    )


def test_layouts_are_found_only_for_the_packages_classes() -> None:
    from chinese_poker import display

    class Table:  # another library's class of the same name as the card table's
        pass

    with pytest.raises(TypeError, match="no layout for Table"):
        display.text(Table())
    table = cp.Table(players=2, seed=1)
    assert display.text(table) == str(table)
