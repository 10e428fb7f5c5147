"""Test configuration shared by the whole suite.

What a test needs beyond Python is a marker (pyproject.toml registers them): ``servers`` (real
sockets: in-process servers and ``arbiter serve`` processes), ``cluster`` (real Redis and
PostgreSQL), ``browser`` (Chromium, Node.js), ``e2e`` (real processes killed and restarted) and
``slow`` (the long property runs). Each test gets its marker from where it lives (KINDS below),
so nobody forgets a decorator; a file that mixes kinds is listed with the kind most of its
tests share and marks the others itself. ``python3 dev.py check`` runs the tests with none of
them; ``python3 dev.py test -m cluster`` (any marker expression) runs a part.

Hypothesis runs derandomized (the same examples on every run) so the suite is deterministic;
set ``HYPOTHESIS_PROFILE=explore`` to search with fresh random examples instead. ``dev.py
check`` loads the ``check`` profile: fewer examples for the tests that do not set their own
count; the whole suite keeps hypothesis's.

Every child process a test starts through tests/processes.py leads a process group of its own:
the group is ended after the test whatever the test did to it, and the session fails if any
process of the run is still alive at its end.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, settings

from tests import processes

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")

_SETTINGS = {"derandomize": True, "deadline": None, "print_blob": True,
             "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
settings.register_profile("ci", **_SETTINGS)  # type: ignore[arg-type]
settings.register_profile("check", max_examples=20, **_SETTINGS)  # type: ignore[arg-type]
settings.register_profile("explore", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Where a test lives -> what it needs: the first pattern that matches its file wins, so files
# come before their folder. A folder not listed is pure (no sockets, no processes but a quick
# ``python -c``, nothing slow).
KINDS: list[tuple[str, tuple[str, ...]]] = [
    ("tests/rules/test_*properties.py", ("slow",)),  # hypothesis games: about 70 s in all
    ("tests/clients/test_render.py", ()),  # renders views: no server
    ("tests/clients/test_loadtest.py", ()),  # mixed: its server test is marked in the file
    ("tests/web/test_static.py", ("servers",)),  # arbiter serve only: no Chromium, no Node
    ("tests/server/*", ("servers",)),
    ("tests/clients/*", ("servers",)),  # SDK, bots, TUI against in-process servers
    ("tests/e2e/*", ("e2e",)),
    ("tests/cluster/test_browser_failover.py", ("cluster", "browser")),  # Chromium too
    ("tests/cluster/*", ("cluster",)),
    ("tests/web/*", ("browser",)),
]

# Tests that must share one xdist worker (``--dist loadgroup``): those that may run ``npm ci``
# into the one arbiter/clients/web/node_modules, and the browser tests, which share one
# Chromium per module.
GROUPS: list[tuple[str, str]] = [
    ("tests/web/test_build.py", "node_modules"),
    ("tests/web/test_js.py", "node_modules"),
    ("tests/web/test_browser.py", "chromium"),
]


# The longest runs, started first so that no worker is left with one at the end (the chaos
# test alone takes a worker for about three minutes; the browser tests share one worker).
LONGEST = ("tests/cluster/test_chaos.py", "tests/web/test_browser*.py", "tests/e2e/*")


def _first(table: list[tuple[str, T]], path: str) -> T | None:
    return next((value for pattern, value in table if fnmatchcase(path, pattern)), None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    xdist = config.pluginmanager.hasplugin("xdist")  # which registers xdist_group

    def rank(item: pytest.Item) -> int:
        path = item.path.relative_to(ROOT).as_posix()
        return next((i for i, pattern in enumerate(LONGEST) if fnmatchcase(path, pattern)),
                    len(LONGEST))

    items.sort(key=rank)  # stable: the order within each rank is the collection's
    for item in items:
        path = item.path.relative_to(ROOT).as_posix()
        for kind in _first(KINDS, path) or ():
            item.add_marker(kind)
        group = _first(GROUPS, path) if xdist else None
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


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
