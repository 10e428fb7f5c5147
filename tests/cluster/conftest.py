"""Real Redis-protocol and PostgreSQL servers for the cluster tests, never fakes.

One of each is started for the whole session (on free ports, in temporary directories) and
stopped at its end; each test gets its own database and its own key prefix, so tests stay
independent while sharing the servers. Tests that freeze, kill or restart a server start their
own (``own_redis``, ``own_postgres``).

Where a server cannot be had, every test that needs one FAILS with the reason (what is missing
and how to get it): a cluster test that silently skips would pass CI on a machine that never
ran it.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import pytest

from arbiter.testing.localservers import LocalPostgres, LocalRedis, ServersUnavailable

_names = itertools.count(1)


def _start(kind: type[LocalRedis] | type[LocalPostgres]) -> LocalRedis | LocalPostgres:
    missing = None
    try:
        server = kind()
    except ServersUnavailable as exc:
        missing = str(exc)
    if missing is not None:
        pytest.fail(f"the cluster tests need real servers: {missing}", pytrace=False)
    try:
        server.start()
    except BaseException:
        server.cleanup()
        raise
    return server


@pytest.fixture(scope="session")
def redis_server() -> Iterator[LocalRedis]:
    server = _start(LocalRedis)
    assert isinstance(server, LocalRedis)
    yield server
    server.cleanup()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[LocalPostgres]:
    server = _start(LocalPostgres)
    assert isinstance(server, LocalPostgres)
    yield server
    server.cleanup()


@pytest.fixture
def dsn(postgres_server: LocalPostgres) -> Iterator[str]:
    """A fresh, empty database on the shared server."""
    name = f"t{os.getpid()}_{next(_names)}"
    yield postgres_server.create_database(name)
    postgres_server.drop_database(name)


@pytest.fixture
def prefix() -> str:
    """A key prefix of this test's own on the shared Redis server."""
    return f"t{os.getpid()}-{next(_names)}:"


@pytest.fixture
def own_redis() -> Iterator[LocalRedis]:
    server = _start(LocalRedis)
    assert isinstance(server, LocalRedis)
    yield server
    server.cleanup()


@pytest.fixture
def own_postgres() -> Iterator[LocalPostgres]:
    server = _start(LocalPostgres)
    assert isinstance(server, LocalPostgres)
    yield server
    server.cleanup()
