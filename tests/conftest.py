"""Hypothesis profiles for the fuzz suite (tests/test_fuzz.py).

``quick`` (the default, part of ``make test``): few examples, derandomised so that CI runs are
reproducible, the whole fuzz file in well under a minute on one core. ``long`` (``make fuzz``,
or ``HYPOTHESIS_PROFILE=long``): many more examples, random each run.
"""

from __future__ import annotations

import os

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
