"""Issue 27: a batch PostgreSQL did not take closed every follower of its rooms with 1012, though
they had stayed connected (node.py, ``refused``). The node now tries the batch again for a
bounded time, keeps the followers and tells them ``unavailable``; they are closed only if
PostgreSQL stays away past it (arbiter/server/cluster/write_retry.py).

In-process node, real Redis, and a PostgreSQL of the test's own that is killed and started
again, or frozen and thawed (SIGSTOP, SIGCONT: a batch's answer lost)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

from arbiter.server.cluster.node import ClusterNode
from arbiter.server.net.connection import Connection
from arbiter.server.rooms.effects import SERVICE_RESTART
from arbiter.server.rooms.peers import Peer
from arbiter.testing.localservers import LocalPostgres, LocalRedis

from .inprocess import ROOM, connection, follower, frames, node_with_a_room_to_claim, say


@pytest.fixture
async def node(own_dsn: str, redis_server: LocalRedis, prefix: str,
               tmp_path: Path) -> AsyncIterator[ClusterNode]:
    async with node_with_a_room_to_claim(redis_server.url, own_dsn, prefix, tmp_path) as made:
        assert await made._take(ROOM)
        yield made


async def _bob_joins_while(node: ClusterNode, outage: trio.Event) -> Peer:
    """Bob joins ROOM (a write of the room's) while PostgreSQL is away; returns once the
    node's gate has written or given up on the batch."""
    bob = connection(node)
    node.hub.restore_sessions({"tok-bob": "Bob"})
    await say(node, bob, {"t": "hello", "i": 1, "v": [1], "session": "tok-bob"})
    outage.set()
    await say(node, bob, {"t": "join", "i": 2, "r": str(ROOM)})
    return bob


@pytest.mark.parametrize("outage", ["killed", "frozen"])
async def test_followers_of_a_batch_postgres_did_not_take_stay_connected_told_unavailable(
        node: ClusterNode, own_postgres: LocalPostgres, outage: str) -> None:
    ann = await follower(node, "tok-ann", "Ann")
    frames(ann)
    went = trio.Event()
    joined: list[Peer] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            async def join() -> None:
                joined.append(await _bob_joins_while(node, went))

            if outage == "killed":
                own_postgres.kill()
            else:
                own_postgres.freeze()  # the batch goes out; its answer never comes
            nursery.start_soon(join)
            await went.wait()
            # The batch waits and is tried again: Ann is told, and stays.
            while not node.problems:
                await trio.sleep(0.05)
            await trio.sleep(0.5)  # a few tries
            told = [f for f in frames(ann) if f["t"] == "error"]
            assert [(f["code"], f.get("r")) for f in told] == [("unavailable", str(ROOM))]
            assert _closed_with(ann) is None
            if outage == "killed":
                own_postgres.start()
            else:
                own_postgres.thaw()
    [bob] = joined
    # The batch is in (once: the frozen server's try was looked for before sending again),
    # Bob is seated, nobody was closed, the room was never let go.
    assert _closed_with(ann) is None and _closed_with(bob) is None
    assert str(ROOM) in ann.rooms and str(ROOM) in bob.rooms
    assert ROOM in node.holdings.epochs and ROOM not in node.holdings.reload
    assert node.stats.reloads == 0 and node.writer.retried == 1
    seats = await node.log.seats(ROOM)
    assert [s.name for s in seats if s.session is not None] == ["Ann", "Bob"]
    assert not node.problems, "PostgreSQL answers again"


async def test_a_batch_still_unwritten_when_the_retries_run_out_closes_its_followers(
        node: ClusterNode, own_postgres: LocalPostgres) -> None:
    node.writer.retry_for = 1.0
    ann = await follower(node, "tok-ann", "Ann")
    own_postgres.kill()
    with trio.fail_after(30):
        await _bob_joins_while(node, trio.Event())
    # As before the retries: the room is let go, to be rebuilt once PostgreSQL answers.
    assert _closed_with(ann) == SERVICE_RESTART
    assert ROOM in node.holdings.reload


def _closed_with(peer: Peer) -> int | None:
    assert isinstance(peer.sink, Connection)
    return peer.sink.close_code
