"""Where the package's documentation lives, and what a bug report should say about the setup.

The documentation's base URL is the distribution's ``Documentation`` project URL (defined once,
in ``pyproject.toml``); [`docs_url()`][chinese_poker.about.docs_url] builds every link the package
shows a user on it.

    >>> from chinese_poker.about import docs_url
    >>> docs_url("rules/").endswith("/rules/")
    True
"""

from __future__ import annotations

import platform
import sys
from functools import cache
from importlib import metadata

from . import _core

__all__ = ["docs_url", "show_versions", "versions"]

DISTRIBUTION = "chinese-poker"
# what `show_versions` reports besides the package: its dependencies and optional extras
_OTHERS = (
    "numpy",
    "pyarrow",
    "ray",
    "matplotlib",
    "tqdm",
    "tomli-w",
    "platformdirs",
)


@cache
def _project_urls() -> dict[str, str]:
    try:
        entries = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:  # imported from a source tree that was never installed
        return {}
    return dict(
        (label.strip(), url.strip()) for label, _, url in (e.partition(",") for e in entries)
    )


def docs_url(page: str = "") -> str:
    """The address of a page on the documentation site.

    Args:
        page: The page (for example ``"rules/"``); ``""`` for the site itself.

    Returns:
        The address, built on the package's ``Documentation`` project URL.
    """
    base = _project_urls().get("Documentation", "")
    if not base:
        return f"the documentation page {page or 'index'!r}"
    return base.rstrip("/") + "/" + page.lstrip("/")


def versions() -> dict[str, str]:
    """The package, Python, the platform and each dependency's version (``"not installed"``
    where it is missing), as [`show_versions()`][chinese_poker.about.show_versions] prints them."""
    found = {
        DISTRIBUTION: _core.__version__,
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        # compiled into the extension: the service's HTTP front
        "server": _core.SERVER_LIBRARIES,
    }
    for name in _OTHERS:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def show_versions() -> None:
    """Print what a bug report needs: the package, Python, the platform and every library it
    may use (numpy, pyarrow, ray, matplotlib, tqdm, tomli-w, platformdirs), and the
    HTTP libraries compiled into the service (hyper, tokio), one per line."""
    found = versions()
    width = max(map(len, found))
    for name, version in found.items():
        print(f"{name:<{width}}  {version}")
