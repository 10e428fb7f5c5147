"""Issue 27, item 4 (the server's side): a node that cannot reach its log keeps its clients'
connections and tells them the room is unavailable, instead of closing them with 1012 each
time they come back (about ten times a second per client in a PostgreSQL outage). In-process
node, real Redis, and a PostgreSQL of the test's own that is killed and started again."""

from __future__ import annotations

from pathlib import Path

import trio

from arbiter.server.net.connection import Connection
from arbiter.server.rooms.effects import SERVICE_RESTART
from arbiter.server.rooms.peers import Peer
from arbiter.testing.localservers import LocalPostgres, LocalRedis

from .helpers import eventually
from .inprocess import ROOM, connection, follower, frames, node_with_a_room_to_claim, say


async def test_a_client_resuming_a_room_while_postgres_is_away_keeps_its_connection(
        own_postgres: LocalPostgres, own_dsn: str, redis_server: LocalRedis, prefix: str,
        tmp_path: Path) -> None:
    async with node_with_a_room_to_claim(redis_server.url, own_dsn, prefix, tmp_path) as node:
        with trio.fail_after(90):
            async with trio.open_nursery() as nursery:
                node.background(nursery)  # its beat and claim loop, which rebuilds rooms
                assert await node._take(ROOM)
                ann = await follower(node, "tok-ann", "Ann")
                node.writer.retry_for = 0.5
                own_postgres.kill()
                # A write of the room's fails, and PostgreSQL stays away past the node's
                # retries (tests/cluster/test_write_retry.py): the room is let go, to be
                # rebuilt from the log, and its followers are closed once (1012).
                bob = connection(node)
                node.hub.restore_sessions({"tok-bob": "Bob"})
                await say(node, bob, {"t": "hello", "i": 1, "v": [1], "session": "tok-bob"})
                await say(node, bob, {"t": "join", "i": 2, "r": str(ROOM)})
                assert _closed_with(ann) == SERVICE_RESTART
                assert ROOM in node.holdings.reload
                # Ann comes back at once, resuming the room: the node cannot rebuild it yet.
                again = connection(node)
                effects = await say(node, again, {"t": "hello", "i": 1, "v": [1],
                                                  "session": "tok-ann",
                                                  "resume": {str(ROOM): [0, 0]}})
                assert [lookup.key for lookup in effects.lookups] == [str(ROOM)]
                await node.look_up(again, effects)
                await node.gate.flush()
                assert _closed_with(again) is None, "kept, not closed to come back at once"
                told = [f for f in frames(again) if f["t"] == "error"]
                assert [(f["code"], f["r"]) for f in told] == [("unavailable", str(ROOM))]
                own_postgres.start()
                # Once PostgreSQL answers, the room is rebuilt, and Ann follows it again on
                # the same connection.
                async def follows() -> bool:
                    return str(ROOM) in again.rooms

                await eventually(follows, 30, "Ann to follow the room again")
                assert _closed_with(again) is None
                nursery.cancel_scope.cancel()


def _closed_with(peer: Peer) -> int | None:
    assert isinstance(peer.sink, Connection)
    return peer.sink.close_code
