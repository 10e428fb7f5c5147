"""Test configuration shared by the whole suite.

Hypothesis runs derandomized (the same examples on every run) so the suite is deterministic;
set ``HYPOTHESIS_PROFILE=explore`` to search with fresh random examples instead.

Every child process a test starts through tests/processes.py leads a process group of its own:
the group is ended after the test whatever the test did to it, and the session fails if any
process of the run is still alive at its end.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests import processes

settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("explore", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _end_the_test_processes() -> Iterator[None]:
    """End every process group the test (or its function-scoped fixtures) started, after their
    own teardown: wider fixtures are set up before this one, so their processes are not
    ended here but by themselves."""
    since = processes.mark()
    yield
    processes.end_since(since)


@pytest.fixture(scope="session", autouse=True)
def _no_process_outlives_the_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Set up first, torn down last (after the cluster's servers): anything of the run still
    alive then is a leak: it is killed and the session fails, loudly."""
    base = f"{tmp_path_factory.getbasetemp()}{os.sep}"  # pytest-1/ must not match pytest-12/
    yield
    left = processes.leftovers(base)
    for pid, _ in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    if left:
        pytest.fail("processes of this test run outlived it (killed now):\n"
                    + "\n".join(f"  {pid}: {cmdline}" for pid, cmdline in left), pytrace=False)
