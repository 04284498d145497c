"""A Griffe extension for the API reference (mkdocs.yml): the classes of the extension module
are built by ``__new__`` (PyO3's ``#[new]``), whose parameters the stubs (``_core.pyi``)
declare, but mkdocstrings shows a class's constructor signature from its ``__init__``. Each
class with a ``__new__`` and no ``__init__`` of its own gets, in the reference only, an
``__init__`` of the same parameters."""

from __future__ import annotations

from typing import Any

import griffe


class NewAsInit(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name == "chinese_poker":
            self._visit(pkg, set())

    def _visit(self, obj: Any, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        for member in list(obj.members.values()):
            target = _target(member)
            if target is not None and (target.is_module or target.is_class):
                self._visit(target, seen)
        new = _target(obj.members["__new__"]) if obj.is_class and "__new__" in obj.members else None
        if new is None or not new.is_function or "__init__" in obj.members:
            return
        params = list(new.parameters)[1:]  # without `cls`
        if all(
            p.kind in (griffe.ParameterKind.var_positional, griffe.ParameterKind.var_keyword)
            for p in params
        ):
            return  # no constructor of its own (`*args, **kwargs`): built by the package only
        init = griffe.Function(
            "__init__",
            parameters=griffe.Parameters(griffe.Parameter("self"), *params),
            returns="None",
            lineno=new.lineno,
            endlineno=new.endlineno,
            docstring=new.docstring,
        )
        obj.set_member("__init__", init)


def _target(member: Any) -> Any:
    """The object an alias stands for (None where it cannot be resolved: outside the package)."""
    try:
        return member.final_target if member.is_alias else member
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None
