"""Test configuration shared by the whole suite.

Hypothesis runs derandomized (the same examples on every run) so the suite is deterministic;
set ``HYPOTHESIS_PROFILE=explore`` to search with fresh random examples instead.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("explore", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
