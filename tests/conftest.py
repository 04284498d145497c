"""Hypothesis profiles for the fuzz suite (tests/test_fuzz.py), and a user tables directory of
the suite's own.

``quick`` (the default, part of ``make test``): few examples, derandomised so that CI runs are
reproducible, the whole fuzz file in well under a minute on one core. ``long`` (``make fuzz``,
or ``HYPOTHESIS_PROFILE=long``): many more examples, random each run.
"""

from __future__ import annotations

import os
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
