"""Hypothesis profiles for the fuzz suite (tests/test_fuzz.py), and a user tables directory of
the suite's own.

``quick`` (the default, part of ``make test``): few examples, derandomised so that CI runs are
reproducible, the whole fuzz file in well under a minute on one core. ``long`` (``make fuzz``,
or ``HYPOTHESIS_PROFILE=long``): many more examples, random each run.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

_SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "quick",
    max_examples=60,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=_SLOW_IS_FINE,
)
settings.register_profile(
    "long",
    max_examples=3000,
    deadline=None,
    print_blob=True,
    suppress_health_check=_SLOW_IS_FINE,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))


@pytest.fixture(autouse=True, scope="session")
def _own_user_tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Points ``CHINESE_POKER_TABLES`` at an empty directory for the whole run (commands the
    tests start inherit it): tables a developer installed for real never change what a test
    sees, and a test that installs tables never touches the developer's. A test that installs
    sets its own directory (``monkeypatch.setenv``)."""
    from chinese_poker.strategy_tables import TABLES_ENV

    before = os.environ.get(TABLES_ENV)
    os.environ[TABLES_ENV] = str(tmp_path_factory.mktemp("user-tables"))
    yield
    if before is None:
        del os.environ[TABLES_ENV]
    else:
        os.environ[TABLES_ENV] = before


# -- optional libraries and platforms ----------------------------------------------------------
#
# The release jobs test each wheel with a smaller dependency set than `make test` (musllinux
# and the sdist: no pyarrow, no matplotlib; `make wheel-tests-min` runs that set here), and on
# macOS and Windows. A test that needs an optional library says so with
# `@pytest.mark.needs("pyarrow", ...)` and is skipped, naming what is missing, where it is not
# installed; one that needs POSIX signals, `/proc` or fork says so with `posix_only` /
# `linux_only`.


def missing(*modules: str) -> list[str]:
    """The modules of ``modules`` that cannot be imported here."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "needs(*modules): skipped where a module is not installed")
    config.addinivalue_line("markers", "posix_only: needs POSIX signals (not on Windows)")
    config.addinivalue_line("markers", "linux_only: needs Linux's /proc")


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs"):
        if absent := missing(*mark.args):
            pytest.skip(f"needs {', '.join(absent)} (not installed)")
    if item.get_closest_marker("posix_only") and sys.platform == "win32":
        pytest.skip("POSIX signals: not on Windows")
    if item.get_closest_marker("linux_only") and not sys.platform.startswith("linux"):
        pytest.skip("reads /proc: Linux only")
