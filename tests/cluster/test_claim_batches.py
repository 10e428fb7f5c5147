"""Failover at scale (issue 27, item 7; docs/cluster.md, "Failover at scale"): a node takes a
dead node's rooms over in parallel, not one after another. A claim and its replay mostly wait
on PostgreSQL and Redis; one at a time, a node took about 16 ms a room on this machine, so a
dead node's 1,000 rooms waited 16 s past the lease (bench/cluster.py failover-many).

In-process node (no sockets) with the session's real Redis and PostgreSQL; each replay is
slowed down a little, as on a loaded log, so that takes overlap if the node lets them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import trio
from hypothesis import given
from hypothesis import strategies as st

from arbiter.server.cluster.leases import Holdings
from arbiter.server.cluster.node import ClusterNode, ClusterSettings
from arbiter.server.cluster.pglog import ClusterLog, LogUnavailable, StoredRoom
from arbiter.server.store.records import RoomCreated, SessionCreated
from arbiter.testing.localservers import LocalRedis

from ..server.harness import server_config

ROOMS = list(range(1, 25))  # the dead node's rooms


@given(st.lists(st.integers(1, 10_000), unique=True, max_size=200), st.integers(1, 30))
def test_live_nodes_claim_disjoint_shares_that_cover_the_backlog(due: list[int],
                                                                 live: int) -> None:
    # Every live node sees the same due list; each starts at its own place in it, so no two
    # contend for a room, and one round covers the whole backlog.
    shares = [Holdings().to_claim(due, live, rank) for rank in range(live)]
    claimed = [room for share in shares for room in share]
    assert sorted(claimed) == sorted(due)  # each room once: disjoint, and all of them


def test_a_share_left_unclaimed_is_anyone_s_in_the_next_round() -> None:
    due = list(range(1, 13))
    nodes = [Holdings() for _ in range(3)]
    shares = [held.to_claim(due, 3, rank) for rank, held in enumerate(nodes)]
    assert shares == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    # Ranks 0 and 2 claimed theirs; rank 1 stalled. Its rooms are still due, and in the next
    # round the others take them too, whatever their part of the shorter list.
    left = shares[1]
    again = nodes[0].to_claim(left, 3, 0) + nodes[2].to_claim(left, 3, 2)
    assert set(again) == set(left)
    assert Holdings().to_claim(left, 3, 2) == [], "a node that saw them due only now"


@pytest.fixture
async def node(redis_server: LocalRedis, dsn: str, prefix: str, tmp_path: Path
               ) -> AsyncIterator[ClusterNode]:
    # "gone" wrote its rooms at epoch 1 and died: their leases lapsed, they are due.
    async with ClusterLog(dsn, node="gone") as log:
        await log.write([SessionCreated("tok-ann", "Ann"),
                         *(RoomCreated(r, f"Room {r}", {"seats": 2}, "tok-ann") for r in ROOMS)],
                        dict.fromkeys(ROOMS, 1))
    node = ClusterNode(server_config(tmp_path), ClusterSettings(
        redis=redis_server.url, postgres=dsn, prefix=prefix, node_id="B",
        public_url="ws://127.0.0.1:9/", claim_every=0.05, claim_batch=4, claims_at_once=3))
    async with node.services():
        for room in ROOMS:
            assert await node.directory.acquire(room, node="gone", epoch=1, ttl=30)
            assert await node.directory.release(room, node="gone", epoch=1)  # due now
        yield node


async def test_a_dead_node_s_rooms_are_claimed_and_replayed_in_parallel_batches(
        node: ClusterNode) -> None:
    real = node.log.stored_rooms
    taking: list[int] = []  # rooms being taken over at each batch's read
    reads: list[list[int]] = []

    async def slow_read(rooms: Sequence[int]) -> dict[int, StoredRoom]:
        taking.append(len(node.holdings.taking))
        reads.append(list(rooms))
        await trio.sleep(0.05)  # a log answering slowly: what parallel batches overlap
        return await real(rooms)

    node.log.stored_rooms = slow_read  # type: ignore[method-assign]
    await node.recover()  # id pools, heartbeat: the node is live
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(node._claim)
            while len(node.hub.matches) < len(ROOMS):
                await trio.sleep(0.02)
            nursery.cancel_scope.cancel()
    assert sorted(int(r) for r in node.hub.matches) == ROOMS  # every room served again
    assert node.stats.claims == len(ROOMS) and node.stats.claim_failures == 0
    assert sorted(node.holdings.leased) == ROOMS
    # Each batch's logs read at once, never more rooms than a batch holds; several batches
    # in flight, never more than the node allows.
    assert all(1 <= len(rooms) <= node.cluster.claim_batch for rooms in reads), reads
    assert len(reads) < len(ROOMS), "one read per batch, not per room"
    assert max(taking) > node.cluster.claim_batch, taking
    assert max(taking) <= node.cluster.claim_batch * node.cluster.claims_at_once, taking
    assert await node.directory.due() == []


async def test_a_batch_whose_logs_cannot_be_read_hands_its_claims_back(
        node: ClusterNode) -> None:
    real = node.log.stored_rooms

    async def read(rooms: Sequence[int]) -> Any:
        if ROOMS[0] in rooms:
            raise LogUnavailable("PostgreSQL did not answer (in this test)")
        await trio.sleep(0.02)
        return await real(rooms)

    node.log.stored_rooms = read  # type: ignore[method-assign]
    with pytest.raises(LogUnavailable):
        await node._take_all(ROOMS[:12])
    # The other batches ended on their own; none half-way (claimed, leased, and missing from
    # the core): the failed batch's claims were handed back, due again for the next round.
    for room in ROOMS[:12]:
        assert (room in node.holdings.epochs) == (str(room) in node.hub.matches), room
    failed = ROOMS[:node.cluster.claim_batch]
    assert not any(room in node.holdings.epochs for room in failed)
    assert set(failed) <= set(await node.directory.due())
    assert not node.holdings.taking
    node.log.stored_rooms = real  # type: ignore[method-assign]
    assert await node._take_all(failed)  # claimed anew, one epoch further
    assert [node.holdings.epochs[room] for room in failed] == [3] * len(failed)
