"""The one importer of the optional libraries: pyarrow (Arrow and Parquet), matplotlib (plots),
pandas and polars. A call that needs one it cannot import raises
`MissingDependencyError` saying what to install, never a bare
``ModuleNotFoundError`` from deep inside the call."""

from __future__ import annotations

import importlib
from types import ModuleType

from .exceptions import MissingDependencyError

# What installs each optional library: the package's extra where it has one (pyproject.toml's
# [project.optional-dependencies]), else the library itself.
_INSTALL = {
    "pyarrow": '"chinese-poker[arrow]"',
    "matplotlib": '"chinese-poker[plot]"',
    "pandas": "pandas",
    "polars": "polars",
}


def message(module: str, purpose: str) -> str:
    """``"<purpose> needs <module>: pip install <what installs it>"``."""
    return f"{purpose} needs {module}: pip install {_INSTALL[module]}"


def available(module: str) -> bool:
    """Whether ``module`` (one of the optional libraries) can be imported."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def require(module: str, purpose: str) -> ModuleType:
    """``module`` imported (``"pyarrow.parquet"`` imports pyarrow first), or a
    ``MissingDependencyError`` saying that ``purpose`` needs its library and how to install
    it."""
    top = module.partition(".")[0]
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependencyError(message(top, purpose), name=top) from None
