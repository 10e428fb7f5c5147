"""The live directory on a real Redis server: heartbeats, placement, leases and the lobby."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from arbiter.server.cluster.directory import Directory, Lease
from arbiter.testing.localservers import LocalRedis

from .helpers import eventually


@pytest.fixture
async def directory(redis_server: LocalRedis, prefix: str) -> AsyncIterator[Directory]:
    async with Directory(redis_server.url, prefix=prefix) as d:
        yield d


@pytest.fixture
async def other(redis_server: LocalRedis, prefix: str) -> AsyncIterator[Directory]:
    """Another node's own client for the same cluster."""
    async with Directory(redis_server.url, prefix=prefix) as d:
        yield d


async def _ids(directory: Directory) -> list[str]:
    return [n.id for n in await directory.nodes()]


# --------------------------------------------------------------------------- nodes

async def test_a_node_is_listed_while_it_beats(directory: Directory) -> None:
    await directory.heartbeat("n1", url="ws://n1:8765", rooms=2, players=7, ttl=30)
    [node] = await directory.nodes()
    assert (node.id, node.url, node.rooms, node.players) == ("n1", "ws://n1:8765", 2, 7)
    assert 25 < node.ttl <= 30
    await directory.heartbeat("n1", url="ws://n1:8765", rooms=3, players=9, ttl=30)
    assert [(n.rooms, n.players) for n in await directory.nodes()] == [(3, 9)]
    found = await directory.node("n1")
    assert found is not None and (found.url, found.rooms) == ("ws://n1:8765", 3)
    assert await directory.node("n2") is None


async def test_a_node_that_stops_beating_expires(directory: Directory, other: Directory
                                                 ) -> None:
    await directory.heartbeat("dies", url="ws://d", rooms=0, players=0, ttl=1.0)
    await other.heartbeat("lives", url="ws://l", rooms=0, players=0, ttl=30)
    assert await _ids(other) == ["dies", "lives"]

    async def only_the_live_one() -> bool:
        return await _ids(other) == ["lives"]

    await eventually(only_the_live_one, what="the silent node's expiry")
    assert await other.node("dies") is None
    await directory.heartbeat("dies", url="ws://d", rooms=0, players=0, ttl=30)
    assert await _ids(other) == ["dies", "lives"]  # a restarted node rejoins


async def test_a_node_that_leaves_is_gone_at_once(directory: Directory) -> None:
    await directory.heartbeat("n1", url="ws://n1", rooms=0, players=0, ttl=30)
    await directory.heartbeat("n2", url="ws://n2", rooms=0, players=0, ttl=30)
    await directory.leave("n1")
    assert await _ids(directory) == ["n2"]


async def test_prefixes_keep_clusters_apart(redis_server: LocalRedis, prefix: str,
                                            directory: Directory) -> None:
    await directory.heartbeat("n1", url="ws://n1", rooms=0, players=0, ttl=30)
    assert await directory.acquire(1, node="n1", epoch=1, ttl=30)
    async with Directory(redis_server.url, prefix=prefix + "elsewhere:") as elsewhere:
        assert await elsewhere.nodes() == []
        assert await elsewhere.acquire(1, node="n2", epoch=1, ttl=30)


# --------------------------------------------------------------------------- placement

async def test_new_rooms_go_to_the_least_loaded_live_node(directory: Directory) -> None:
    await directory.heartbeat("a", url="ws://a", rooms=5, players=10, ttl=30)
    await directory.heartbeat("b", url="ws://b", rooms=2, players=40, ttl=30)
    await directory.heartbeat("c", url="ws://c", rooms=2, players=8, ttl=30)
    await directory.heartbeat("dead", url="ws://dead", rooms=0, players=0, ttl=0.2)

    async def dead_gone() -> bool:
        return "dead" not in await _ids(directory)

    await eventually(dead_gone, what="the dead node's expiry")
    chosen = await directory.place(reserve=False)
    assert chosen is not None and (chosen.id, chosen.url) == ("c", "ws://c")  # fewer players
    excluded = await directory.place(exclude=["c"], reserve=False)
    assert excluded is not None and excluded.id == "b"
    # Each placement counts against its node at once, so a burst of new rooms spreads out
    # before the nodes' next heartbeats.
    picks = []
    for _ in range(5):
        node = await directory.place()
        assert node is not None
        picks.append((node.id, node.rooms))
    assert picks == [("c", 3), ("b", 3), ("c", 4), ("b", 4), ("c", 5)]
    # The next heartbeat reports the truth again.
    await directory.heartbeat("a", url="ws://a", rooms=0, players=0, ttl=30)
    placed = await directory.place()
    assert placed is not None and placed.id == "a"


async def test_nothing_is_placed_without_a_live_node(directory: Directory) -> None:
    assert await directory.place() is None
    await directory.heartbeat("only", url="ws://o", rooms=0, players=0, ttl=30)
    assert await directory.place(exclude=["only"]) is None


# --------------------------------------------------------------------------- leases

async def test_a_lease_is_taken_only_when_free(directory: Directory, other: Directory
                                               ) -> None:
    assert await directory.acquire(1, node="A", epoch=1, ttl=30)
    assert not await other.acquire(1, node="B", epoch=2, ttl=30)
    # The same lease again is no conflict (a retry after a lost answer) ...
    assert await directory.acquire(1, node="A", epoch=1, ttl=30)
    # ... but the same node under another epoch is another lease.
    assert not await directory.acquire(1, node="A", epoch=2, ttl=30)
    lease = await other.lease(1)
    assert lease is not None and (lease.room, lease.node, lease.epoch) == (1, "A", 1)
    assert 25 < lease.ttl <= 30
    both = await other.leases([1, 2])
    assert both[2] is None and both[1] is not None and (both[1].node, both[1].epoch) == ("A", 1)


async def test_a_claim_batch_takes_each_free_lease_in_one_call(directory: Directory,
                                                                 other: Directory) -> None:
    assert await other.acquire(2, node="B", epoch=1, ttl=30)
    assert await directory.acquire(3, node="A", epoch=4, ttl=30)
    taken = await directory.acquire_many({1: 2, 2: 2, 3: 4, 4: 1}, node="A", ttl=30)
    assert taken == {1, 3, 4}  # 2 is B's; 3 was this very lease already
    for room, epoch in ((1, 2), (3, 4), (4, 1)):
        lease = await other.lease(room)
        assert lease is not None and (lease.node, lease.epoch) == ("A", epoch)
        assert 25 < lease.ttl <= 30
    assert await directory.acquire_many({}, node="A", ttl=30) == set()


async def test_only_the_holder_renews(directory: Directory, other: Directory) -> None:
    assert await directory.acquire(1, node="A", epoch=1, ttl=5)
    assert await directory.acquire(2, node="A", epoch=3, ttl=30)
    assert await other.acquire(3, node="B", epoch=1, ttl=30)
    lost = await directory.renew({1: 1, 2: 3, 3: 1}, node="A", ttl=30)
    assert lost == {3}  # B's lease is not A's to renew
    renewed = await directory.lease(1)
    assert renewed is not None and renewed.ttl > 25
    assert await directory.renew({2: 2}, node="A", ttl=30) == {2}  # not under a wrong epoch
    b_lease = await other.lease(3)
    assert b_lease is not None and b_lease.node == "B" and b_lease.ttl <= 30


async def test_a_lapsed_lease_is_due_and_another_node_takes_it(directory: Directory,
                                                               other: Directory) -> None:
    assert await directory.acquire(5, node="A", epoch=1, ttl=0.3)
    assert await directory.acquire(6, node="A", epoch=1, ttl=30)  # lives on: never due

    async def due() -> bool:
        return await other.due() == [5]

    await eventually(due, what="the lapsed lease to be due")
    assert await directory.lease(5) is None
    assert await other.acquire(5, node="B", epoch=2, ttl=30)  # stolen after expiry
    assert await other.due() == []
    assert await directory.renew({5: 1}, node="A", ttl=30) == {5}  # A learns it lost it
    lease = await directory.lease(5)
    assert lease is not None and (lease.node, lease.epoch) == ("B", 2)


async def test_only_the_holder_releases_and_a_release_is_due_at_once(
        directory: Directory, other: Directory) -> None:
    assert await directory.acquire(6, node="A", epoch=1, ttl=30)
    assert not await other.release(6, node="B", epoch=1)
    assert not await directory.release(6, node="A", epoch=2)
    assert (await other.lease(6)) is not None
    assert await directory.release(6, node="A", epoch=1)
    assert await other.lease(6) is None
    assert await other.due() == [6]  # a handover does not wait for an expiry
    assert await other.acquire(6, node="B", epoch=2, ttl=30)
    assert await other.due() == []


async def test_a_finished_room_is_forgotten_by_its_holder_only(directory: Directory,
                                                               other: Directory) -> None:
    assert await directory.acquire(7, node="A", epoch=1, ttl=30)
    assert await directory.publish(7, {"name": "Room 7"}, node="A", epoch=1)
    assert not await other.forget(7, node="B", epoch=1)
    assert len(await other.lobby(100)) == 1
    assert await directory.forget(7, node="A", epoch=1)
    assert await other.lease(7) is None
    assert await other.due() == [] and await other.lobby(100) == []


# --------------------------------------------------------------------------- lobby

async def test_the_lobby_lists_each_room_once_across_nodes(directory: Directory,
                                                           other: Directory) -> None:
    for room, node, d in ((1, "A", directory), (2, "A", directory), (3, "B", other)):
        assert await d.acquire(room, node=node, epoch=1, ttl=30)
        assert await d.publish(room, {"name": f"Room {room}", "seats": 2, "taken": 0},
                               node=node, epoch=1)
    assert await directory.publish(1, {"name": "Room 1", "seats": 2, "taken": 1},
                                   node="A", epoch=1)
    for view in (directory, other):
        lobby = await view.lobby(100)
        assert [(room, summary["taken"], lease.node) for room, summary, lease in lobby] == [
            (1, 1, "A"), (2, 0, "A"), (3, 0, "B")]
        assert all(isinstance(lease, Lease) and lease.ttl > 25 for _, _, lease in lobby)


async def test_only_the_rooms_holder_lists_it(directory: Directory, other: Directory
                                              ) -> None:
    assert await directory.acquire(1, node="A", epoch=1, ttl=30)
    assert not await other.publish(1, {"name": "mine"}, node="B", epoch=1)
    assert not await directory.publish(1, {"name": "stale"}, node="A", epoch=2)
    assert not await other.publish(2, {"name": "nobody's"}, node="B", epoch=1)
    assert await other.lobby(100) == []


async def test_a_dead_nodes_rooms_leave_the_lobby_until_claimed(directory: Directory,
                                                                 other: Directory) -> None:
    assert await directory.acquire(1, node="A", epoch=1, ttl=0.3)
    assert await directory.acquire(2, node="A", epoch=1, ttl=30)
    for room in (1, 2):
        assert await directory.publish(room, {"name": f"Room {room}"}, node="A", epoch=1)

    async def only_room_2() -> bool:
        return [room for room, _, _ in await other.lobby(100)] == [2]

    await eventually(only_room_2, what="the lapsed room to leave the lobby")
    assert await other.acquire(1, node="B", epoch=2, ttl=30)  # claimed: back, once
    assert [(room, lease.node) for room, _, lease in await other.lobby(100)] == [
        (1, "B"), (2, "A")]
    assert await other.publish(1, {"name": "Room 1", "resumed": True}, node="B", epoch=2)
    [(room, summary, _), _] = await other.lobby(100)
    assert (room, summary) == (1, {"name": "Room 1", "resumed": True})


async def test_a_lobby_read_takes_the_first_live_rooms_in_order_and_no_more(
        directory: Directory, other: Directory) -> None:
    # A room list shows a bounded page: a read costs Redis that page, not the whole cluster.
    # Rooms listed out of order, a dead node's in front: they are passed over, in order.
    for room in (12, 3, 7, 1, 30, 5):
        ttl = 0.3 if room in (1, 5) else 30  # rooms 1 and 5: their node is dead
        assert await directory.acquire(room, node="A", epoch=1, ttl=ttl)
        assert await directory.publish(room, {"name": f"Room {room}"}, node="A", epoch=1)

    async def rooms_1_and_5_gone() -> bool:
        return not {1, 5} & {room for room, _, _ in await other.lobby(10)}

    await eventually(rooms_1_and_5_gone, what="the dead node's leases to lapse")
    assert [room for room, _, _ in await other.lobby(3)] == [3, 7, 12]
    assert [room for room, _, _ in await other.lobby(1)] == [3]
    assert [room for room, _, _ in await other.lobby(10)] == [3, 7, 12, 30]
    assert await directory.publish(7, None, node="A", epoch=1)  # off the list
    assert await directory.forget(12, node="A", epoch=1)  # finished
    assert [room for room, _, _ in await other.lobby(3)] == [3, 30]


async def test_a_room_taken_off_the_list_keeps_its_lease(directory: Directory) -> None:
    assert await directory.acquire(1, node="A", epoch=1, ttl=30)
    assert await directory.publish(1, {"name": "Room 1"}, node="A", epoch=1)
    assert await directory.publish(1, None, node="A", epoch=1)
    assert await directory.lobby(100) == []
    assert await directory.lease(1) is not None
