"""A node's own tasks meeting each other (in-process, with the session's real Redis and
PostgreSQL, no sockets).

A node taking a room over while requests of its own look the room up: a lookup that meets the
take waits for it, and then finds the room here and restored. Found by bench/cluster.py
failover: a lookup that answered "here" while the room was still being restored told a
returning player the room was closed, and one that read the lease the take had just acquired
let it go as a previous run's. And room lists that ask for the lobby at once share one read; and
the id pools are refilled by a task of their own, not behind the claims."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

from arbiter.server.cluster.directory import Lease
from arbiter.server.cluster.node import ClusterNode
from arbiter.testing.localservers import LocalRedis

from .inprocess import ROOM, connection, frames, node_with_a_room_to_claim, say
from .inprocess import wrap_once as _wrap


@pytest.fixture
async def node(redis_server: LocalRedis, dsn: str, prefix: str, tmp_path: Path
               ) -> AsyncIterator[ClusterNode]:
    async with node_with_a_room_to_claim(redis_server.url, dsn, prefix, tmp_path) as made:
        yield made


async def _held(node: ClusterNode) -> Lease | None:
    return await node.directory.lease(ROOM)


async def test_a_lookup_during_the_restore_waits_for_the_room(node: ClusterNode) -> None:
    answers: list[tuple[str | None, bool]] = []

    async def look() -> None:
        url = await node._where(str(ROOM))
        answers.append((url, str(ROOM) in node.hub.matches))

    async with trio.open_nursery() as nursery:
        async def lookup_meanwhile() -> None:  # the room is claimed, not yet restored
            assert ROOM in node.holdings.epochs and str(ROOM) not in node.hub.matches
            nursery.start_soon(look)
            await trio.sleep(0.05)  # the lookup runs as far as it can

        _wrap(node.log, "stored_rooms", lookup_meanwhile)
        assert await node._take(ROOM)
    assert answers == [(None, True)]  # here, and there: never "closed"
    lease = await _held(node)
    assert lease is not None and (lease.node, lease.epoch) == ("B", 2)


async def test_a_lookup_that_reads_the_lease_a_take_just_acquired_keeps_it(
        node: ClusterNode) -> None:
    answers: list[tuple[str | None, bool]] = []
    claiming = trio.Event()

    async def take_meanwhile() -> None:  # the lookup's lease read happens mid-take
        nursery.start_soon(node._take, ROOM)
        await claiming.wait()  # the take holds the lease and is claiming in PostgreSQL

    async def signal_claiming() -> None:
        claiming.set()
        await trio.sleep(0.05)

    async with trio.open_nursery() as nursery:
        _wrap(node.directory, "lease", take_meanwhile)
        _wrap(node.log, "claim_many", signal_claiming)
        answers.append((await node._where(str(ROOM)), False))
        answers[-1] = (answers[-1][0], str(ROOM) in node.hub.matches)
    assert answers == [(None, True)]
    lease = await _held(node)
    assert lease is not None and (lease.node, lease.epoch) == ("B", 2), lease
    assert node.stats.claims == 1


async def test_room_lists_asking_at_once_share_one_lobby_read(node: ClusterNode) -> None:
    async with trio.open_nursery() as nursery:
        for _ in range(5):
            nursery.start_soon(node._read_lobby)
    assert node.stats.lobby_reads == 1
    # The room of "gone" is not listed: nobody holds it.
    assert node.hub.routing.other_rooms(()) == [] and node.hub.lobby_fresh(trio.current_time())


async def test_game_ids_are_refilled_at_once_while_the_claim_task_is_busy(
        node: ClusterNode) -> None:
    # The claim task is not running here (as when it replays a dead node's rooms for
    # seconds): the pool's own task alone must keep games starting.
    pool = node.game_ids
    await pool.refill()  # as at start (ClusterNode.recover)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(node._keep_ids)
        taken: list[int] = []
        for _ in range(3 * pool.block):  # three blocks' worth of game starts
            taken.append(node.hub.ids.next_game())
            if pool.low:
                with trio.fail_after(10):
                    while pool.low:
                        await trio.sleep(0.001)
        assert len(set(taken)) == len(taken)
        nursery.cancel_scope.cancel()


async def test_a_new_room_is_leased_before_its_creation_is_answered(
        node: ClusterNode) -> None:
    # A room with no lease is one any node's lookup takes over: the creator's opponent,
    # joining through another node a moment after ``created``, took it from its creator
    # (bench/cluster.py chaos). Here the beat is not running: the lease must not wait for it.
    await node.recover()  # id pools, heartbeat: the node is live, and where rooms go
    ann = connection(node)
    node.hub.restore_sessions({"tok-ann": "Ann"})
    await say(node, ann, {"t": "hello", "i": 1, "v": [1], "session": "tok-ann"})
    effects = await say(node, ann, {"t": "create", "i": 2, "config": {"seats": 2}})
    await node.look_up(ann, effects)  # where it goes: here, the only node
    await node.gate.flush()
    [created] = [f for f in frames(ann) if f["t"] == "created"]
    room = int(created["r"])
    lease = await node.directory.lease(room)
    assert lease is not None and (lease.node, lease.epoch) == ("B", 1)
    assert room in node.holdings.leased and node.holdings.to_acquire() == {}
