"""Real Redis-protocol and PostgreSQL servers for the cluster tests, never fakes.

One of each is started for the whole session (each on a Unix socket in its own temporary
directory: an address no other run on the machine can take) and stopped at its end. Each test
gets a database of its own, a copy of ``arbiter_template``, which already holds the log's
schema, and a key prefix of its own, so tests stay independent while sharing the servers.
Tests that freeze, kill or restart a server start their own (``own_redis``, ``own_postgres``),
from a copy of the session's one ``initdb``.

At the end of the session nothing of any server a test started may still run (whatever the
test did to it): the session fails, naming what was left, and ends it.

Where a server cannot be had, every test that needs one FAILS with the reason (what is missing
and how to get it): a cluster test that silently skips would pass CI on a machine that never
ran it.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from arbiter.server.cluster.pglog import PgLog
from arbiter.testing import processes
from arbiter.testing.localservers import (
    STOP_TIMEOUT,
    LocalPostgres,
    LocalRedis,
    LocalServer,
    ServersUnavailable,
    leftovers,
)

from .nodes import LEASE, Node, nodes_left_running, start_nodes

TEMPLATE = "arbiter_template"  # the database every test's database is a copy of

_names = itertools.count(1)
S = TypeVar("S", bound=LocalServer)


def _make(make: Callable[[], S]) -> S:
    try:
        return make()
    except ServersUnavailable as exc:
        pytest.fail(f"the cluster tests need real servers: {exc}", pytrace=False)


def _started(server: S) -> S:
    try:
        server.start()
    except BaseException:
        server.cleanup()
        raise
    return server


@pytest.fixture(scope="session", autouse=True)
def nothing_left_running() -> Iterator[None]:
    """Every server and node the session started has ended, whatever its test did to it."""
    yield
    left = leftovers() + nodes_left_running()
    if left:
        report = "\n".join(processes.describe(pid) for pid in left)
        processes.end(lambda: leftovers() + nodes_left_running(), "leftovers", STOP_TIMEOUT)
        pytest.fail(f"servers of this run were left running after their tests:\n{report}",
                    pytrace=False)


@pytest.fixture(scope="session")
def postgres_data() -> Iterator[Path]:
    """The data directory of one ``initdb`` (never started), which the session's PostgreSQL
    servers start from a copy of."""
    made = _make(LocalPostgres)
    try:
        made.prepare()
        yield made.data
    finally:
        made.cleanup()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[LocalRedis]:
    server = _started(_make(LocalRedis))
    yield server
    server.cleanup()


@pytest.fixture(scope="session")
def postgres_server(postgres_data: Path) -> Iterator[LocalPostgres]:
    server = _started(_make(lambda: LocalPostgres(template=postgres_data)))
    try:
        db = PgLog(server.create_database(TEMPLATE), node="template")
        try:
            db.ensure_schema()
        finally:
            db.close()  # a template may have no connection while it is copied
        yield server
    finally:
        server.cleanup()


@pytest.fixture
def dsn(postgres_server: LocalPostgres) -> Iterator[str]:
    """A fresh database of the log's (its schema in place, nothing in it) on the shared
    server."""
    name = f"t{os.getpid()}_{next(_names)}"
    yield postgres_server.create_database(name, template=TEMPLATE)
    postgres_server.drop_database(name)


@pytest.fixture
def empty_dsn(postgres_server: LocalPostgres) -> Iterator[str]:
    """A fresh, empty database on the shared server (for creating the schema)."""
    name = f"e{os.getpid()}_{next(_names)}"
    yield postgres_server.create_database(name)
    postgres_server.drop_database(name)


@pytest.fixture
def prefix() -> str:
    """A key prefix of this test's own on the shared Redis server."""
    return f"t{os.getpid()}-{next(_names)}:"


@pytest.fixture
def own_redis() -> Iterator[LocalRedis]:
    server = _started(_make(LocalRedis))
    yield server
    server.cleanup()


@pytest.fixture
def own_postgres(postgres_data: Path) -> Iterator[LocalPostgres]:
    server = _started(_make(lambda: LocalPostgres(template=postgres_data)))
    yield server
    server.cleanup()


@pytest.fixture
def own_dsn(own_postgres: LocalPostgres) -> str:
    """A database with the log's schema on the test's own PostgreSQL (one it may kill)."""
    dsn = own_postgres.create_database("own")
    schema = PgLog(dsn, node="schema")
    try:
        schema.ensure_schema()
    finally:
        schema.close()
    return dsn


@pytest.fixture
def persistent_redis() -> Iterator[LocalRedis]:
    """A Redis of the test's own with its append-only file, as a deployment runs it."""
    server = _started(_make(lambda: LocalRedis(persistent=True)))
    yield server
    server.cleanup()


@pytest.fixture
def cluster(tmp_path: Path, redis_server: LocalRedis, dsn: str, prefix: str
            ) -> Iterator[dict[str, Any]]:
    """``start(count)`` starts cluster nodes sharing the test's Redis prefix and database
    (their leases ``LEASE`` long unless told), each ended at the test's end."""
    started: list[Node] = []

    def start(count: int, lease: float = LEASE, dsn_: str | None = None,
              extra: tuple[str, ...] = ()) -> list[Node]:
        nodes = start_nodes(tmp_path / f"run{len(started)}", count, redis=redis_server.url,
                            dsn=dsn_ or dsn, prefix=prefix, lease=lease, extra=extra)
        started.extend(nodes)
        return nodes

    yield {"start": start, "dsn": dsn, "redis": redis_server.url, "prefix": prefix}
    for node in started:
        if node.proc is not None and node.proc.poll() is None:
            node.thaw()
        node.stop()
