"""Cluster nodes as users run them: real ``arbiter serve --redis --postgres`` processes on
127.0.0.1, a real Redis and a real PostgreSQL, and websocket clients that record every frame
and check every checksum (tests/server/harness.py). docs/cluster.md describes what is checked
here: routing and redirects, the lobby across nodes, sessions from any node, placement,
failover after SIGKILL, handover on a clean shutdown, fencing of a frozen node, and outages of
PostgreSQL.

Every wait is for a condition under a bound; the leases are short (2 s) so that failovers
happen quickly, and no test sleeps for a fixed time.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import psycopg
import trio

from arbiter.bots.strategies import random_strategy
from arbiter.server.cluster.directory import Directory
from arbiter.server.rules.cards.catalog import cards as catalog_cards
from arbiter.testing.localservers import LocalPostgres, LocalRedis
from tests.server.harness import Activity, Client

from .helpers import eventually
from .nodes import LEASE, Node, start_nodes

BOUND = 90  # seconds for a whole test: a hang fails it with a traceback of where it waited


@asynccontextmanager
async def _bounded() -> AsyncIterator[trio.Nursery]:
    with trio.fail_after(BOUND):
        async with trio.open_nursery() as nursery:
            yield nursery


async def _open(nursery: trio.Nursery, node: Node, name: str | None = None, *,
                session: str | None = None, resume: dict[str, Any] | None = None,
                activity: Activity) -> Client:
    return await Client.open(nursery, node.port, name, session=session, resume=resume,
                             activity=activity)


async def _seat_two(nursery: trio.Nursery, node: Node, activity: Activity
                    ) -> tuple[Client, Client, str]:
    ann = await _open(nursery, node, "Ann", activity=activity)
    bob = await _open(nursery, node, "Bob", activity=activity)
    reply = await ann.ok({"t": "create", "config": {"seats": 2, "seed": 5}})
    room = str(reply["r"])
    await ann.join(room, deck="quick-red")
    await bob.join(room, deck="quick-green")
    return ann, bob, room


async def _act(players: list[Client], count: int, activity: Activity,
               rng: random.Random) -> int:
    """Answer ``count`` decisions, whoever has them; return how many were acknowledged."""
    acked = 0
    for _ in range(count):
        await activity.until(lambda: any(c.pending() for c in players)
                             or all(c.closed for c in players))
        deciding = [(c, p) for c in players for p in c.pending() if not c.closed]
        if not deciding:
            break
        client, (room, decision) = deciding[0]
        view = client.tracker.rooms[room].view
        action = random_strategy(view, decision, rng, catalog_cards())
        reply = await client.call({"t": "act", "r": room, "s": decision["serial"],
                                   "a": action})
        if reply["t"] == "error":
            break
        acked += 1
    return acked


async def _claimed(node: Node) -> bool:
    return await trio.to_thread.run_sync(node.counter, "arbiter_cluster_claims_total") > 0


async def _unlisted(directory: Directory, node: Node) -> bool:
    return await directory.node(node.node_id) is None


def _commands(dsn: str, room: str) -> list[tuple[int, int]]:
    """(n, epoch) of every command the log holds for ``room``."""
    with psycopg.connect(dsn, autocommit=True) as db:
        return [(int(n), int(e)) for n, e in db.execute(
            "SELECT n, epoch FROM commands WHERE room = %s ORDER BY game, n", (int(room),))]


async def _reopen(nursery: trio.Nursery, node: Node, old: Client, activity: Activity
                  ) -> Client:
    """``old``'s player back on ``node``: its session, and its replica resumed where it stood
    (so the checksums that follow are checked against what it had)."""
    client = await Client.open(nursery, node.port, hello=False, activity=activity)
    client.tracker, client.label = old.tracker, old.label
    welcome = await client.call({"t": "hello", "v": [1], "session": old.session,
                                 "resume": {r: list(p) for r, p in
                                            old.tracker.positions().items()}})
    assert welcome["t"] == "welcome", welcome
    client.session = welcome["session"]
    for room, seat, token in welcome["seats"]:
        client.seats[room] = (seat, token)
    return client


async def test_any_node_serves_any_session_and_sends_clients_to_the_rooms_owner(
        cluster: dict[str, Any]) -> None:
    a, b = cluster["start"](2)
    activity = Activity()
    async with _bounded() as nursery:
        ann = await _open(nursery, a, "Ann", activity=activity)
        room = str((await ann.ok({"t": "create", "config": {"seats": 2}}))["r"])
        await ann.join(room, deck="quick-red")
        # The lobby of the other node lists the room, once.
        bob = await _open(nursery, b, "Bob", activity=activity)

        async def listed() -> bool:
            rooms = (await bob.ok({"t": "rooms"}))["rooms"]
            return [r["r"] for r in rooms].count(room) == 1
        await eventually(listed, 10, "the room in the other node's lobby")
        # The lobby is read from Redis for room lists, at most once a second: a node whose
        # clients never ask for one never reads it.
        reads = b.counter("arbiter_cluster_lobby_reads_total")
        assert reads >= 1 and a.counter("arbiter_cluster_lobby_reads_total") == 0
        for _ in range(3):
            await bob.ok({"t": "rooms"})
        assert b.counter("arbiter_cluster_lobby_reads_total") <= reads + 1
        # A request cannot name where to be sent: a forged target is refused as such.
        forged = await bob.call({"t": "join", "r": room, "url": "ws://evil.example/"})
        assert forged["t"] == "error" and forged["code"] == "bad_field", forged
        # Joining through the other node: a redirect to the owner's URL, with the request id.
        i = await bob.send({"t": "join", "r": room})
        await activity.until(lambda: i in bob.replies)
        assert bob.replies[i] == {"t": "redirect", "i": i, "url": a.url, "r": room}
        # The session made on node b works on node a.
        bob_again = await _open(nursery, a, session=bob.session, activity=activity)
        assert (await bob_again.join(room, deck="quick-green")) == 1
        # And ann's session works on node b (its seat is listed, though the room is on a).
        ann_on_b = await Client.open(nursery, b.port, session=ann.session, activity=activity)
        assert ann_on_b.session == ann.session
        nursery.cancel_scope.cancel()


async def test_a_resume_or_join_for_a_room_nowhere_is_refused_and_never_redirected(
        cluster: dict[str, Any]) -> None:
    (a,) = cluster["start"](1)
    activity = Activity()
    async with _bounded() as nursery:
        ann = await _open(nursery, a, "Ann", activity=activity)
        stranger = await _open(nursery, a, session=ann.session, resume={"4242": [1, 3]},
                               activity=activity)
        # Told that the room it follows is gone (as a finished room is), never sent on.
        await activity.until(lambda: bool(stranger.of_type("error")))
        [closed] = stranger.of_type("error")
        assert (closed["code"], closed["r"], closed["i"]) == ("room_closed", "4242", None)
        assert stranger.of_type("redirect") == []
        reply = await ann.call({"t": "join", "r": "4242"})
        assert reply["t"] == "error" and reply["code"] == "unknown_room", reply
        assert ann.of_type("redirect") == []
        nursery.cancel_scope.cancel()


async def test_new_rooms_go_to_the_least_loaded_node(cluster: dict[str, Any]) -> None:
    a, b = cluster["start"](2)
    activity = Activity()
    async with _bounded() as nursery:
        ann = await _open(nursery, a, "Ann", activity=activity)
        made = []
        for _ in range(4):
            reply = await ann.call({"t": "create", "config": {"seats": 2}})
            if reply["t"] == "redirect":
                assert reply["url"] == b.url and "r" not in reply
                break
            made.append(reply["r"])
        assert len(made) == 2, made  # a keeps new rooms until it is two ahead of b
        nursery.cancel_scope.cancel()


async def test_a_burst_of_creates_larger_than_a_block_of_room_ids_all_succeed(
        cluster: dict[str, Any]) -> None:
    # A node holds room numbers in blocks of 32 from PostgreSQL's sequence; sixty creates at
    # once (a tournament's rooms) must each wait for a number, not fail for want of one.
    (node,) = cluster["start"](1, extra=("--max-waiting-per-address", "1000"))
    activity = Activity()
    async with _bounded() as nursery:
        clients = [await _open(nursery, node, f"P{n}", activity=activity) for n in range(60)]
        replies: list[dict[str, Any]] = []

        async def create(client: Client) -> None:
            replies.append(await client.call({"t": "create", "config": {"seats": 2}}))

        async with trio.open_nursery() as burst:
            for client in clients:
                burst.start_soon(create, client)
        assert [r["t"] for r in replies] == ["created"] * 60, replies
        assert len({r["r"] for r in replies}) == 60
        nursery.cancel_scope.cancel()


async def test_a_clean_shutdown_hands_rooms_over_before_their_leases_lapse(
        cluster: dict[str, Any]) -> None:
    a, b = cluster["start"](2, lease=30.0)  # a lapse would take 30 s: the test would fail
    activity = Activity()
    rng = random.Random(3)
    async with _bounded() as nursery:
        ann, bob, room = await _seat_two(nursery, a, activity)
        acked = await _act([ann, bob], 10, activity, rng)
        before = _commands(cluster["dsn"], room)
        assert len(before) >= acked > 0
        a.stop()  # SIGTERM: clients are told to come back (1012)
        await activity.until(lambda: ann.closed and bob.closed)
        assert ann.close_code == 1012
        await eventually(lambda: trio.to_thread.run_sync(
            lambda: b.counter("arbiter_cluster_claims_total") >= 1), 10, "b to claim the room")
        ann2 = await _reopen(nursery, b, ann, activity)
        bob2 = await _reopen(nursery, b, bob, activity)
        assert ann2.seats[room][0] == 0 and bob2.seats[room][0] == 1
        await _act([ann2, bob2], 5, activity, rng)
        after = _commands(cluster["dsn"], room)
        assert after[:len(before)] == before and len(after) > len(before)
        assert {e for _, e in after[len(before):]} == {2}  # b writes under the next epoch
        assert ann2.tracker.mismatches == 0 and bob2.tracker.mismatches == 0
        nursery.cancel_scope.cancel()


async def test_a_killed_node_s_rooms_resume_on_a_live_node(cluster: dict[str, Any]) -> None:
    a, b = cluster["start"](2)
    activity = Activity()
    rng = random.Random(4)
    async with _bounded() as nursery:
        ann, bob, room = await _seat_two(nursery, a, activity)
        acked = await _act([ann, bob], 12, activity, rng)
        a.kill()
        await activity.until(lambda: ann.closed and bob.closed)
        # Every acknowledged command is in the log.
        assert len(_commands(cluster["dsn"], room)) >= acked
        # The live node takes the room over once the dead node's lease lapses (until then it
        # sends resumes to the lease holder, which it cannot yet know is gone: an SDK client
        # retries its other entry URLs). Then the players carry on there with their tokens
        # and their replicas.
        await eventually(lambda: _claimed(b), 3 * LEASE + 5, "the room's takeover")
        # Gone from the lobby with its node, the room is listed again, once, by its new one.
        eve = await _open(nursery, b, "Eve", activity=activity)

        async def listed_by_b() -> bool:
            rooms = (await eve.ok({"t": "rooms"}))["rooms"]
            return [r["r"] for r in rooms].count(room) == 1
        await eventually(listed_by_b, 10, "the room back in the lobby")
        with trio.fail_after(10):
            ann2 = await _reopen(nursery, b, ann, activity)
            bob2 = await _reopen(nursery, b, bob, activity)
            await activity.until(lambda: bool(ann2.pending() or bob2.pending()))
        assert await _act([ann2, bob2], 5, activity, rng) == 5
        assert b.counter("arbiter_cluster_claims_total") == 1
        nursery.cancel_scope.cancel()


async def test_a_frozen_node_cannot_write_for_a_room_claimed_meanwhile(
        cluster: dict[str, Any]) -> None:
    a, b = cluster["start"](2)
    activity = Activity()
    rng = random.Random(6)
    async with _bounded() as nursery:
        ann, bob, room = await _seat_two(nursery, a, activity)
        await _act([ann, bob], 6, activity, rng)
        await activity.until(lambda: bool(ann.pending() or bob.pending()))
        a.freeze()
        try:
            await eventually(lambda: trio.to_thread.run_sync(
                lambda: b.counter("arbiter_cluster_claims_total") >= 1), 10 * LEASE,
                "b to claim the frozen node's room")
            claimed = _commands(cluster["dsn"], room)
            # The players' connections to the frozen node are still open: one of them answers
            # its decision there the moment the node wakes up.
            deciding = [(c, p) for c in (ann, bob) for p in c.pending()]
            assert deciding
            client, (r, decision) = deciding[0]
            i = await client.send({"t": "act", "r": r, "s": decision["serial"], "a": 0})
        finally:
            a.thaw()
        await activity.until(lambda: client.closed or i in client.replies)
        # Whatever it answered, nothing reached the log under the old epoch ...
        assert _commands(cluster["dsn"], room) == claimed
        assert client.replies.get(i, {}).get("t") in (None, "error")
        # ... and its players are told: closed with 1012, sent on to b when they come back.
        await activity.until(lambda: ann.closed and bob.closed)
        assert {ann.close_code, bob.close_code} == {1012}, a.errors()[-5000:]
        back = await _reopen(nursery, a, ann, activity)
        await activity.until(lambda: bool(back.of_type("redirect")))
        assert back.of_type("redirect")[0]["url"] == b.url
        assert back.of_type("redirect")[0]["r"] == room
        nursery.cancel_scope.cancel()


async def test_a_room_whose_node_died_is_waited_for_never_redirected_to(
        cluster: dict[str, Any]) -> None:
    (a,) = cluster["start"](1)
    activity = Activity()
    async with _bounded() as nursery:
        ann = await _open(nursery, a, "Ann", activity=activity)
        room = str((await ann.ok({"t": "create", "config": {"seats": 2}}))["r"])
        async with Directory(cluster["redis"], prefix=cluster["prefix"]) as directory:
            async def leased() -> bool:  # the node leases a new room just after creating it
                return await directory.lease(int(room)) is not None

            await eventually(leased, LEASE, "the new room's lease")
            a.kill()
            # The room's lease now names a node that no longer beats: a ghost. A second node
            # must neither send anyone to it nor to itself; once the lease lapses it takes
            # the room. Its heartbeat lapses first (half a lease), its room's lease after.
            await eventually(lambda: _unlisted(directory, a), LEASE, "the dead node's exit")
            lease = await directory.lease(int(room))
            assert lease is not None and lease.node == a.node_id
        (b,) = cluster["start"](1)
        bob = await _open(nursery, b, "Bob", activity=activity)
        # b waits for the lease to lapse, takes the room, and then answers the join itself.
        with trio.fail_after(2 * LEASE + 5):
            reply = await bob.call({"t": "join", "r": room})
        assert reply["t"] == "joined", reply
        assert not bob.of_type("redirect")
        assert b.counter("arbiter_cluster_claims_total") == 1
        nursery.cancel_scope.cancel()


async def test_while_postgres_is_away_a_node_accepts_nothing_and_loses_nothing(
        tmp_path: Path, redis_server: LocalRedis, prefix: str) -> None:
    with LocalPostgres() as pg:
        dsn = pg.create_database("outage")
        (a,) = start_nodes(tmp_path, 1, redis=redis_server.url, dsn=dsn, prefix=prefix,
                           lease=LEASE)
        try:
            activity = Activity()
            rng = random.Random(8)
            async with _bounded() as nursery:
                ann, bob, room = await _seat_two(nursery, a, activity)
                acked = await _act([ann, bob], 6, activity, rng)
                await activity.until(lambda: bool(ann.pending() or bob.pending()))
                pg.freeze()
                try:
                    deciding = [(c, p) for c in (ann, bob) for p in c.pending()]
                    client, (r, decision) = deciding[0]
                    i = await client.send({"t": "act", "r": r, "s": decision["serial"],
                                           "a": 0})
                    await activity.until(lambda: i in client.replies or client.closed)
                    # Not acknowledged (an error, or the connection closed with 1012): the
                    # node could not make it durable.
                    reply = client.replies.get(i, {"t": "error"})
                    assert reply["t"] == "error", reply
                    await eventually(lambda: trio.to_thread.run_sync(
                        lambda: a.health()[0] == 503), 20, "/healthz to report the outage")
                    assert "postgres" in a.health()[1]
                    other = await _open(nursery, a, "Cy", activity=activity)
                    refused = await other.call({"t": "create", "config": {"seats": 2}})
                    assert refused["t"] == "error" and refused["code"] == "unavailable"
                finally:
                    pg.thaw()
                await eventually(lambda: trio.to_thread.run_sync(
                    lambda: a.health()[0] == 200), 20, "the node to recover")
                held = _commands(dsn, room)
                assert len(held) >= acked
                # The players come back and carry on from what the log holds.
                ann2 = await _reopen(nursery, a, ann, activity)
                bob2 = await _reopen(nursery, a, bob, activity)
                assert await _act([ann2, bob2], 4, activity, rng) == 4
                nursery.cancel_scope.cancel()
        finally:
            a.stop()


async def test_while_redis_is_away_a_node_plays_on_and_refuses_what_needs_it(
        tmp_path: Path, own_redis: LocalRedis, dsn: str, prefix: str) -> None:
    # A lease long enough to outlast the outage: the node keeps its rooms, and what it
    # already serves needs nothing of Redis (the log is in PostgreSQL).
    (a,) = start_nodes(tmp_path, 1, redis=own_redis.url, dsn=dsn, prefix=prefix, lease=12)
    try:
        activity = Activity()
        rng = random.Random(9)
        async with _bounded() as nursery:
            ann, bob, room = await _seat_two(nursery, a, activity)
            acked = await _act([ann, bob], 4, activity, rng)
            own_redis.freeze()
            try:
                await eventually(lambda: trio.to_thread.run_sync(
                    lambda: a.health()[0] == 503), 20, "/healthz to report the outage")
                assert "redis" in a.health()[1]
                # The room goes on: its commands are written and acknowledged ...
                assert await _act([ann, bob], 4, activity, rng) == 4
                acked += 4
                # ... while what needs the directory (placing a new room) says why it cannot.
                cy = await _open(nursery, a, "Cy", activity=activity)
                refused = await cy.call({"t": "create", "config": {"seats": 2}})
                assert refused["t"] == "error" and refused["code"] == "unavailable", refused
                assert "directory" in refused["msg"]
            finally:
                own_redis.thaw()
            await eventually(lambda: trio.to_thread.run_sync(
                lambda: a.health()[0] == 200), 20, "the node to recover")
            assert await _act([ann, bob], 4, activity, rng) == 4
            assert len(_commands(dsn, room)) >= acked + 4  # nothing acknowledged was lost
            created = await cy.call({"t": "create", "config": {"seats": 2}})
            assert created["t"] == "created", created
            assert ann.tracker.mismatches == 0 and bob.tracker.mismatches == 0
            nursery.cancel_scope.cancel()
    finally:
        a.stop()
