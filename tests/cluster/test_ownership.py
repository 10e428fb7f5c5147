"""Taking rooms over with both real servers: the lease first, then the claim; the old owner
learns it from its renewal and is fenced by PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import psycopg
import pytest
import trio

from arbiter.server.cluster.directory import Directory
from arbiter.server.cluster.ownership import hand_over, take_over
from arbiter.server.cluster.pglog import ClusterLog, Fenced, RoomBusy, RoomOwner
from arbiter.server.store.records import (
    CommandAppended,
    GameStarted,
    RoomCreated,
    RoomStateSet,
)
from arbiter.testing.localservers import LocalRedis

from .helpers import eventually


@pytest.fixture
async def nodes(dsn: str, redis_server: LocalRedis, prefix: str
                ) -> AsyncIterator[dict[str, tuple[ClusterLog, Directory]]]:
    """Three nodes' clients (log and directory) on one cluster."""
    async with ClusterLog(dsn, node="A") as a_log, ClusterLog(dsn, node="B") as b_log, \
            ClusterLog(dsn, node="C") as c_log, \
            Directory(redis_server.url, prefix=prefix) as a_dir, \
            Directory(redis_server.url, prefix=prefix) as b_dir, \
            Directory(redis_server.url, prefix=prefix) as c_dir:
        yield {"A": (a_log, a_dir), "B": (b_log, b_dir), "C": (c_log, c_dir)}


def _command(room: int, n: int) -> CommandAppended:
    return CommandAppended(room, room, n, {"kind": "act", "player": 0, "serial": n,
                                           "action": 0}, None, None)


async def _create(nodes: dict[str, tuple[ClusterLog, Directory]], *, ttl: float) -> int:
    """A room created by node A: id from the sequence, lease at epoch 1, then its record."""
    log, directory = nodes["A"]
    [room] = await log.allocate_ids("rooms", 1)
    assert await directory.acquire(room, node="A", epoch=1, ttl=ttl)
    await log.write([RoomCreated(room, f"Room {room}", {}, None),
                     GameStarted(room, room, 1, 7, {}, None), _command(room, 1)], {room: 1})
    return room


async def _take(nodes: dict[str, tuple[ClusterLog, Directory]], node: str, room: int
                ) -> int | None:
    log, directory = nodes[node]
    return await take_over(room, node=node, log=log, directory=directory, ttl=30)


async def test_a_dead_owners_room_is_taken_over_and_the_old_owner_fenced(
        nodes: dict[str, tuple[ClusterLog, Directory]]) -> None:
    room = await _create(nodes, ttl=0.3)
    a_log, a_dir = nodes["A"]
    b_log, b_dir = nodes["B"]

    async def due() -> bool:
        return room in await b_dir.due()

    await eventually(due, what="the room to fall due")  # A stopped renewing: it "died"
    assert await _take(nodes, "B", room) == 2
    lease = await b_dir.lease(room)
    assert lease is not None and (lease.node, lease.epoch) == ("B", 2)
    assert await b_log.owner(room) == RoomOwner(room, "B", 2, "waiting")
    assert [c.n for c in await b_log.commands(room)] == [1]  # what B replays
    # A comes back: its renewal says the room is gone, and its writes are refused.
    assert await a_dir.renew({room: 1}, node="A", ttl=30) == {room}
    with pytest.raises(Fenced):
        await a_log.write([_command(room, 2)], {room: 1})
    await b_log.write([_command(room, 2)], {room: 2})
    assert await b_dir.due() == []


async def test_a_room_whose_lease_is_held_is_not_taken(
        nodes: dict[str, tuple[ClusterLog, Directory]]) -> None:
    room = await _create(nodes, ttl=30)
    assert await _take(nodes, "B", room) is None
    assert await nodes["B"][0].owner(room) == RoomOwner(room, "A", 1, "waiting")


async def test_nodes_racing_for_due_rooms_take_each_exactly_once(
        nodes: dict[str, tuple[ClusterLog, Directory]]) -> None:
    rooms = [await _create(nodes, ttl=0.2) for _ in range(6)]
    _, b_dir = nodes["B"]

    async def all_due() -> bool:
        return set(rooms) <= set(await b_dir.due())

    await eventually(all_due, what="the rooms to fall due")
    won: dict[int, list[str]] = {room: [] for room in rooms}

    async def contend(node: str, room: int) -> None:
        if await _take(nodes, node, room) == 2:
            won[room].append(node)

    async with trio.open_nursery() as nursery:
        for room in rooms:
            for node in ("B", "C"):
                nursery.start_soon(contend, node, room)
    for room, winners in won.items():
        assert len(winners) == 1, (room, winners)
        lease = await b_dir.lease(room)
        owner = await nodes["B"][0].owner(room)
        assert lease is not None and owner is not None
        assert (lease.node, lease.epoch) == (owner.owner, owner.epoch) == (winners[0], 2)


async def test_a_claim_lost_in_postgres_gives_the_lease_back(
        nodes: dict[str, tuple[ClusterLog, Directory]], dsn: str) -> None:
    room = await _create(nodes, ttl=30)
    _, a_dir = nodes["A"]
    assert await nodes["A"][1].release(room, node="A", epoch=1)  # handed over: due
    # Node C claims in PostgreSQL (not yet committed) without the lease, as a node whose
    # lease lapsed mid-takeover would; B's takeover reads epoch 1, takes the lease, and its
    # claim waits for C's.
    with psycopg.connect(dsn) as other, psycopg.connect(dsn, autocommit=True) as monitor:
        other.execute("UPDATE rooms SET epoch = epoch + 1, owner = 'C' WHERE id = %s", (room,))
        result: list[int | None] = []

        async def b_takes() -> None:
            result.append(await _take(nodes, "B", room))

        async def b_waits() -> bool:
            row = monitor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'arbiter B' "
                "AND wait_event_type = 'Lock'").fetchone()
            return row is not None and row[0] == 1

        async with trio.open_nursery() as nursery:
            nursery.start_soon(b_takes)
            await eventually(b_waits, what="B's claim to wait for C's")
            lease = await a_dir.lease(room)
            assert lease is not None and (lease.node, lease.epoch) == ("B", 2)
            other.commit()
        assert result == [None]
    assert await a_dir.lease(room) is None  # given back ...
    assert room in await a_dir.due()  # ... and due again
    assert await nodes["A"][0].owner(room) == RoomOwner(room, "C", 2, "waiting")


async def test_a_claim_that_fails_leaves_no_lease(
        nodes: dict[str, tuple[ClusterLog, Directory]], dsn: str) -> None:
    room = await _create(nodes, ttl=30)
    a_log, a_dir = nodes["A"]
    assert await a_dir.release(room, node="A", epoch=1)
    async with ClusterLog(dsn, node="B", lock_timeout=0.2) as impatient:
        with psycopg.connect(dsn, autocommit=True) as writer, writer.transaction():
            # A writer holds the room's row.
            writer.execute("SELECT 1 FROM rooms WHERE id = %s FOR SHARE", (room,))
            with pytest.raises(RoomBusy):
                await take_over(room, node="B", log=impatient, directory=nodes["B"][1],
                                ttl=30)
    assert await a_dir.lease(room) is None
    assert await a_log.owner(room) == RoomOwner(room, "A", 1, "waiting")


async def test_a_clean_handover_makes_the_room_due_at_once(
        nodes: dict[str, tuple[ClusterLog, Directory]]) -> None:
    room = await _create(nodes, ttl=30)
    _, a_dir = nodes["A"]
    assert not await hand_over(room, node="A", epoch=2, directory=a_dir)  # not that lease
    assert await hand_over(room, node="A", epoch=1, directory=a_dir)
    assert await a_dir.due() == [room]
    assert await _take(nodes, "C", room) == 2
    assert await _take(nodes, "B", room) is None


async def test_a_finished_or_unknown_room_is_not_taken(
        nodes: dict[str, tuple[ClusterLog, Directory]]) -> None:
    room = await _create(nodes, ttl=30)
    a_log, a_dir = nodes["A"]
    await a_log.write([_command(room, 2)], {room: 1})
    await a_log.write([RoomStateSet(room, "finished")], {room: 1})
    assert await a_dir.forget(room, node="A", epoch=1)
    assert await _take(nodes, "B", room) is None
    assert await _take(nodes, "B", room + 1000) is None
    assert await a_dir.lease(room) is None and await a_dir.lease(room + 1000) is None
