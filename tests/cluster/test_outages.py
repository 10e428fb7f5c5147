"""When Redis or PostgreSQL goes away for a few seconds: the clients report errors within a
bounded time (never hang) and work again, with the same client objects, once it is back.

"Frozen" is SIGSTOP on the whole server (a hung machine: connections stay open, nothing
answers); "killed" is SIGKILL on every process of it (a crash), then a restart on the same port
and data."""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

import psycopg
import pytest
import trio

from arbiter.server.cluster.directory import Directory, DirectoryUnavailable
from arbiter.server.cluster.pglog import ClusterLog, LogUnavailable
from arbiter.server.store.records import CommandAppended, GameStarted, RoomCreated
from arbiter.testing.localservers import LocalPostgres, LocalRedis

TIMEOUT = 1.0  # the clients' deadline in these tests
SLACK = 1.5  # what a bounded error may take beyond it on a busy two-core machine


def _command(n: int) -> CommandAppended:
    return CommandAppended(1, 1, n, {"kind": "act", "player": 0, "serial": n, "action": 0},
                           None, None)


@asynccontextmanager
async def _log(postgres: LocalPostgres) -> AsyncIterator[ClusterLog]:
    """A log with room 1, its game and one command in it."""
    async with ClusterLog(postgres.create_database("outage"), node="A", timeout=TIMEOUT,
                          connect_timeout=TIMEOUT) as log:
        await log.write([RoomCreated(1, "Room", {}, None), GameStarted(1, 1, 1, 7, {}, None),
                         _command(1)], {1: 1})
        yield log


@contextmanager
def _frozen(server: LocalPostgres | LocalRedis) -> Iterator[None]:
    server.freeze()
    try:
        yield
    finally:
        server.thaw()


async def test_the_log_fails_in_bounded_time_while_postgres_hangs_and_recovers(
        own_postgres: LocalPostgres) -> None:
    async with _log(own_postgres) as log:
        with _frozen(own_postgres):
            for call in (lambda: log.write([_command(2)], {1: 1}), lambda: log.commands(1)):
                started = trio.current_time()
                with pytest.raises(LogUnavailable) as failed:
                    await call()
                assert trio.current_time() - started < TIMEOUT + SLACK
            assert "did not answer within" in str(failed.value)
        # The write's answer was lost, not necessarily the write: the log says so, and the
        # caller rebuilds the rooms from what was committed.
        await log.write([_command(3)], {1: 1})
        numbers = [c.n for c in await log.commands(1)]
        assert numbers in ([1, 2, 3], [1, 3])
        assert log.metrics.failures == 2


async def test_a_write_to_a_hung_postgres_has_an_unknown_outcome(
        own_postgres: LocalPostgres) -> None:
    async with _log(own_postgres) as log:
        with _frozen(own_postgres), pytest.raises(LogUnavailable) as failed:
            await log.write([_command(2)], {1: 1})
        assert failed.value.outcome_unknown
        with _frozen(own_postgres), pytest.raises(LogUnavailable) as read:
            await log.owner(1)
        assert not read.value.outcome_unknown  # a read changes nothing


async def test_a_write_given_up_by_its_caller_leaves_the_log_usable(
        own_postgres: LocalPostgres) -> None:
    # A write runs on the event loop; cancelled while PostgreSQL holds its answer, it must not
    # leave its connection to be reused half-way through a batch.
    async with _log(own_postgres) as log:
        with _frozen(own_postgres):
            with trio.move_on_after(TIMEOUT / 4) as scope:
                await log.write([_command(2)], {1: 1})
            assert scope.cancelled_caught
        await log.write([_command(3)], {1: 1})
        assert [c.n for c in await log.commands(1)] in ([1, 2, 3], [1, 3])
        await log.write([_command(4)], {1: 1})  # and the connection it used after is sound
        assert [c.n for c in await log.commands(1)][-2:] == [3, 4]


async def test_the_log_reports_a_crashed_postgres_and_works_after_its_restart(
        own_postgres: LocalPostgres) -> None:
    async with _log(own_postgres) as log:
        own_postgres.kill()
        started = trio.current_time()
        with pytest.raises(LogUnavailable, match="unreachable"):
            await log.commands(1)
        with pytest.raises(LogUnavailable):
            await log.write([_command(2)], {1: 1})
        assert trio.current_time() - started < 2 * (TIMEOUT + SLACK)
        own_postgres.start()
        await log.write([_command(2)], {1: 1})  # the same client, fresh connections
        assert [c.n for c in await log.commands(1)] == [1, 2]  # nothing committed was lost


async def test_the_directory_fails_in_bounded_time_while_redis_hangs_and_recovers(
        own_redis: LocalRedis) -> None:
    async with Directory(own_redis.url, timeout=TIMEOUT) as directory:
        await directory.heartbeat("n1", url="ws://n1", rooms=1, players=2, ttl=30)
        assert await directory.acquire(1, node="n1", epoch=1, ttl=30)
        with _frozen(own_redis):
            for call in (directory.nodes, lambda: directory.renew({1: 1}, node="n1", ttl=30)):
                started = trio.current_time()
                with pytest.raises(DirectoryUnavailable, match="did not answer within"):
                    await call()
                assert trio.current_time() - started < TIMEOUT + SLACK
        # Back: the answers are the right ones (no reply to an abandoned call is taken for
        # the answer to a later one).
        assert [n.id for n in await directory.nodes()] == ["n1"]
        assert await directory.renew({1: 1}, node="n1", ttl=30) == set()
        lease = await directory.lease(1)
        assert lease is not None and lease.node == "n1"
        assert directory.failures == 2


async def test_the_directory_reports_a_crashed_redis_and_works_after_its_restart(
        own_redis: LocalRedis) -> None:
    async with Directory(own_redis.url, timeout=TIMEOUT) as directory:
        await directory.heartbeat("n1", url="ws://n1", rooms=1, players=2, ttl=30)
        own_redis.kill()
        started = trio.current_time()
        with pytest.raises(DirectoryUnavailable, match="unreachable"):
            await directory.nodes()
        assert trio.current_time() - started < TIMEOUT + SLACK
        own_redis.start()
        # A Redis without persistence comes back empty: the nodes beat again and take their
        # leases again (the scripts are loaded again on the way).
        assert await directory.nodes() == []
        await directory.heartbeat("n1", url="ws://n1", rooms=1, players=2, ttl=30)
        assert [n.id for n in await directory.nodes()] == ["n1"]
        assert await directory.acquire(1, node="n1", epoch=1, ttl=30)


async def test_a_persistent_redis_keeps_the_directory_across_a_restart() -> None:
    redis = LocalRedis(persistent=True)
    try:
        redis.start()
        async with Directory(redis.url, timeout=TIMEOUT) as directory:
            await directory.heartbeat("n1", url="ws://n1", rooms=1, players=2, ttl=30)
            assert await directory.acquire(1, node="n1", epoch=1, ttl=30)
            redis.restart()
            assert [n.id for n in await directory.nodes()] == ["n1"]
            lease = await directory.lease(1)
            assert lease is not None and (lease.node, lease.epoch) == ("n1", 1)
    finally:
        redis.cleanup()


async def test_a_batch_whose_answer_was_lost_cannot_commit_once_the_log_is_read_again(
        dsn: str) -> None:
    # A batch that timed out may still be waiting to run in its server process: a frozen server
    # runs it as it thaws, before it notices its client is gone (here, that one process is
    # stopped). A node rebuilds such a room from the log and numbers its next commands after
    # what it read, so the lost batch must be over first, or it commits behind the rebuild and
    # the node's next batch meets the same command numbers (docs/cluster.md, "Failover and
    # handover").
    async with ClusterLog(dsn, node="A", timeout=TIMEOUT) as log:
        await log.write([RoomCreated(1, "Room", {}, None), GameStarted(1, 1, 1, 7, {}, None),
                         _command(1)], {1: 1})
        with psycopg.connect(dsn, autocommit=True) as admin:
            (backend,) = admin.execute("SELECT pid FROM pg_stat_activity "
                                       "WHERE application_name = 'arbiter A'").fetchone() or (0,)
        assert backend, "the log keeps its connection open"
        os.kill(backend, signal.SIGSTOP)
        try:
            with pytest.raises(LogUnavailable) as failed:
                await log.write([_command(2)], {1: 1})
            assert failed.value.outcome_unknown
            with pytest.raises(LogUnavailable, match="still running"):
                await log.end_lost_batches()  # it cannot end while it is stopped
        finally:
            os.kill(backend, signal.SIGCONT)  # left alone, it would now run the batch
        await log.end_lost_batches()
        assert [c.n for c in await log.commands(1)] == [1]
        await log.write([_command(2)], {1: 1})  # what the rebuilt room writes next
        assert [c.n for c in await log.commands(1)] == [1, 2]
