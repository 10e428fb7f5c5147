"""A Redis outage longer than a lease does not let rooms go (issue 27, item 6; docs/cluster.md,
"Redis away").

While Redis is away no node renews, so every lease lapses; yet every node still holds its
rooms' epochs in PostgreSQL, and PostgreSQL is what fences writes. So each node keeps serving
its rooms through the outage, takes their leases again at its first beat once Redis answers
(unless the log says another node claimed the room), and the other nodes wait a grace before
claiming rooms that look due only because the outage lapsed them.

The decisions are pure (arbiter/server/cluster/leases.py: ``Holdings.reassert``,
``ClaimGrace``) and tested with plain numbers; the last test runs two real nodes, a real
Redis frozen for longer than two leases and a real PostgreSQL."""

from __future__ import annotations

import random
from pathlib import Path

import psycopg
import pytest
import trio
from hypothesis import given
from hypothesis import strategies as st

from arbiter.server.cluster.directory import Directory
from arbiter.server.cluster.leases import ClaimGrace, Holdings
from arbiter.server.cluster.settings import ClusterSettings
from arbiter.testing.localservers import LocalRedis
from tests.server.harness import Activity

from .helpers import eventually
from .nodes import start_nodes
from .test_nodes import _act, _bounded, _seat_two

ME = "A"


def _holding(epochs: dict[int, int]) -> Holdings:
    held = Holdings()
    for room, epoch in epochs.items():
        held.claimed(room, epoch)
    return held


def test_a_lapsed_lease_the_log_still_gives_this_node_is_taken_again() -> None:
    held = _holding({1: 1, 2: 3, 3: 2, 4: 1})
    owners = {1: (ME, 1),  # still ours: keep it
              2: ("B", 4),  # another node claimed it: let it go
              3: (ME, 3)}  # ours at a later epoch than ours: not this process's
    # room 4 is not in the log's unfinished rooms: finished or gone, let it go
    keep, gone = held.reassert({1, 2, 3, 4}, owners, ME)
    assert keep == [1]
    assert gone == [2, 3, 4]


@given(st.dictionaries(st.integers(1, 50), st.integers(1, 5), max_size=20),
       st.dictionaries(st.integers(1, 50), st.tuples(st.sampled_from([ME, "B", "C"]),
                                                     st.integers(1, 6)), max_size=30))
def test_reasserting_keeps_exactly_the_rooms_the_log_gives_this_node_at_its_epoch(
        epochs: dict[int, int], owners: dict[int, tuple[str, int]]) -> None:
    held = _holding(epochs)
    keep, gone = held.reassert(set(epochs), owners, ME)
    assert sorted(keep + gone) == sorted(epochs)  # every lapsed room is decided, once
    for room in keep:
        assert owners[room] == (ME, epochs[room])  # never a room another node fenced us out of
    for room in gone:
        assert owners.get(room) != (ME, epochs[room])


def test_claims_wait_a_grace_after_the_directory_comes_back() -> None:
    grace = ClaimGrace(3.0)
    assert grace.wait(100.0) == 0.0  # no outage seen: claim at once (a dead node's rooms)
    grace.back(100.0)
    assert grace.wait(100.0) == 3.0
    assert grace.wait(101.5) == 1.5
    assert grace.wait(103.0) == 0.0  # still due after the grace: no live owner took it again
    grace.back(110.0)  # another outage: another grace
    assert grace.wait(111.0) == 2.0


def test_the_grace_outlasts_an_owner_s_beat_caught_in_the_outage() -> None:
    # An owner's beat that started just before Redis came back waits out its call's timeout,
    # then beats again: the claimers' grace must cover that, at the default lease and the
    # tests' short one.
    for lease in (4.0, 2.0):
        s = ClusterSettings(redis="redis://unused", postgres="unused", lease=lease)
        assert s.claim_grace >= s.directory_timeout + s.beat


OUTAGE = 5.0  # seconds: longer than two leases
LEASE = 2.0


@pytest.mark.parametrize("outage", ["frozen", "stopped"])
async def test_a_redis_outage_longer_than_a_lease_lets_no_room_go(
        tmp_path: Path, persistent_redis: LocalRedis, dsn: str, prefix: str,
        outage: str) -> None:
    # "frozen": Redis hangs (SIGSTOP), its clients' calls time out; "stopped": it is killed
    # and started again from its append-only file, the expired leases still listed as due.
    own_redis = persistent_redis
    a, b = start_nodes(tmp_path, 2, redis=own_redis.url, dsn=dsn, prefix=prefix, lease=LEASE)
    try:
        activity = Activity()
        rng = random.Random(27)
        async with _bounded() as nursery:
            # A room on each node: each node is a claimer of the other's.
            *on_a, room_a = await _seat_two(nursery, a, activity)
            *on_b, room_b = await _seat_two(nursery, b, activity)
            players = on_a + on_b
            async with Directory(own_redis.url, prefix=prefix) as directory:
                for room, node in ((room_a, a), (room_b, b)):
                    async def leased(room: str = room, node_id: str = node.node_id) -> bool:
                        lease = await directory.lease(int(room))
                        return lease is not None and lease.node == node_id
                    await eventually(leased, 20, f"room {room}'s lease")
            assert await _act(on_a, 2, activity, rng) == 2
            assert await _act(on_b, 2, activity, rng) == 2
            if outage == "frozen":
                own_redis.freeze()
            else:
                own_redis.kill()
            try:
                frozen_at = trio.current_time()
                # Both rooms keep accepting actions through the whole outage: their writes
                # go to PostgreSQL under the epochs the nodes hold.
                while trio.current_time() - frozen_at < OUTAGE:
                    assert await _act(on_a, 1, activity, rng) == 1
                    assert await _act(on_b, 1, activity, rng) == 1
                    await trio.sleep(0.5)
                assert a.health()[0] == 503 and "redis" in a.health()[1]
            finally:
                if outage == "frozen":
                    own_redis.thaw()
                else:
                    own_redis.start()
            async with Directory(own_redis.url, prefix=prefix) as directory:
                for room, node in ((room_a, a), (room_b, b)):
                    async def reasserted(room: str = room, node: str = node.node_id) -> bool:
                        lease = await directory.lease(int(room))
                        return lease is not None and (lease.node, lease.epoch) == (node, 1)
                    await eventually(reasserted, 20, f"room {room}'s lease taken again")
                # Past every claimer's grace, nothing is due any more: nobody claims them.
                settings = ClusterSettings(redis="", postgres="", lease=LEASE)
                await trio.sleep(settings.claim_grace + settings.claim_every)
                assert await directory.due() == []
            assert await _act(on_a, 2, activity, rng) == 2
            assert await _act(on_b, 2, activity, rng) == 2
            for client in players:
                assert not client.closed, (client.label, client.close_code)
                assert client.tracker.mismatches == 0
            for node in (a, b):
                assert node.counter("arbiter_cluster_claims_total") == 0, node.errors()[-3000:]
                assert node.counter("arbiter_cluster_leases_lost_total") == 0
                assert node.counter("arbiter_cluster_leases_reasserted_total") >= 1
            with psycopg.connect(dsn, autocommit=True) as db:
                epochs = dict(db.execute("SELECT id, epoch FROM rooms WHERE id = ANY(%s)",
                                         ([int(room_a), int(room_b)],)).fetchall())
            assert epochs == {int(room_a): 1, int(room_b): 1}  # never claimed
            nursery.cancel_scope.cancel()
    finally:
        a.stop()
        b.stop()
