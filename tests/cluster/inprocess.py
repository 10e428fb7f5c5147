"""A cluster node in the test's own process (real Redis and PostgreSQL, no sockets), for
tests that drive a node's tasks against each other: a room up for a claim, and a way to run
something in the middle of one of the node's calls."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import msgpack
import trio

from arbiter.server.cluster.node import ClusterNode
from arbiter.server.cluster.pglog import ClusterLog
from arbiter.server.cluster.settings import ClusterSettings
from arbiter.server.net.connection import Connection
from arbiter.server.rooms.effects import Effects
from arbiter.server.rooms.peers import Limits, Peer
from arbiter.server.store.records import RoomCreated, SessionCreated

from ..server.harness import server_config

ROOM = 7


@asynccontextmanager
async def node_with_a_room_to_claim(redis: str, dsn: str, prefix: str, tmp_path: Path
                                    ) -> AsyncIterator[ClusterNode]:
    """Node "B", its services open, and room ROOM, which node "gone" wrote at epoch 1 and
    holds no lease for: it is up for a claim."""
    async with ClusterLog(dsn, node="gone") as log:
        await log.write([SessionCreated("tok-ann", "Ann"),
                         RoomCreated(ROOM, "Room", {"seats": 2}, "tok-ann")], {ROOM: 1})
    node = ClusterNode(server_config(tmp_path), ClusterSettings(
        redis=redis, postgres=dsn, prefix=prefix, node_id="B",
        public_url="ws://127.0.0.1:9/"))
    async with node.services():
        yield node


def wrap_once(obj: Any, name: str, before: Callable[[], Awaitable[None]]) -> None:
    """Make ``obj.name`` run ``before()`` first, the first time it is called."""
    real = getattr(obj, name)
    calls = [0]

    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1:
            await before()
        return await real(*args, **kwargs)

    setattr(obj, name, wrapped)


def connection(node: ClusterNode) -> Peer:
    """A client's connection with no socket behind it: the node queues its frames
    (:func:`frames`) and notes its close (``peer.sink.close_code``)."""
    # No stream and no protocol: with no socket to write to, every frame waits in its queue.
    conn = Connection(None, None, 256, node.metrics)  # type: ignore[arg-type]
    return Peer(conn, "127.0.0.1", Limits(), trio.current_time())


def frames(peer: Peer) -> list[dict[str, Any]]:
    """What the node has sent ``peer`` so far (taken off its queue)."""
    assert isinstance(peer.sink, Connection)
    queue = peer.sink._queue
    out = [msgpack.unpackb(f) for f in queue if f]
    queue.clear()
    return out


async def say(node: ClusterNode, peer: Peer, frame: dict[str, Any]) -> Effects:
    """``frame`` from ``peer``, as the node's transport hands it in; what it caused is
    written (the node's gate flushed) before this returns."""
    effects = node.hub.receive(peer, msgpack.packb(frame), trio.current_time())
    node.apply(effects)
    await node.gate.flush()
    return effects


async def follower(node: ClusterNode, token: str, name: str) -> Peer:
    """A connection of session ``token`` seated in room ROOM (its seat in the log)."""
    node.hub.restore_sessions({token: name})  # what the node's session lookup finds
    peer = connection(node)
    await say(node, peer, {"t": "hello", "i": 1, "v": [1], "session": token})
    await say(node, peer, {"t": "join", "i": 2, "r": str(ROOM)})
    assert str(ROOM) in peer.rooms
    return peer
