"""Issue 27, items 1-3: a node's own tasks racing over one room after an outage, each of which
ended live games. The decisions are checked with plain values (no servers, no clock); the
races are driven in-process against the session's real Redis and PostgreSQL, with a node's
call made to let another task run in its middle (tests/cluster/inprocess.py).

1. A PostgreSQL outage: a lookup's rebuild of a room raced the claim loop's rebuild of it; the
   loser answered "here" while the winner was still replaying, and a returning player was told
   the room was closed.
2. After a Redis outage, a room whose lease Redis lost was claimed again by the node serving
   it, and restored over the live room: its players' next actions were refused.
3. A beat in the middle of a takeover's replay saw a leased room the core did not hold yet,
   and deleted its lease: a second claim by the same node, or a room with no lease at all.

A rebuild whose log read failed once its owner was checked (found by the chaos test: three
players told their room was closed, who then lost by concession) left the room held, not in the
core and no longer due for a rebuild: lookups answered "here" for it.

And the chaos test's stalled room: a resume put off (the room's node silent) while the claim
loop took the room over here; the seat's next request was refused `not_seated`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

from arbiter.server.cluster.leases import Holdings
from arbiter.server.cluster.lookups import AwaitTake, Here, ReadLease, Rebuild, RoomLookup
from arbiter.server.cluster.node import ClusterNode, OwnerSilent
from arbiter.server.cluster.pglog import LogUnavailable
from arbiter.server.net.connection import Connection
from arbiter.server.rooms.effects import SERVICE_RESTART, Lookup, LookupKind
from arbiter.server.store.gate import WriteFailed
from arbiter.server.store.records import SeatSet
from arbiter.testing.localservers import LocalRedis

from ..server.harness import server_config
from .inprocess import (
    ROOM,
    connection,
    follower,
    frames,
    node_with_a_room_to_claim,
    say,
    wrap_once,
)

ME = "B"


def _lookup() -> RoomLookup:
    return RoomLookup(ROOM, node=ME, url="ws://b:8765/", pause=0.5, patience=5.0)


def _rebuilding(held: Holdings) -> RoomLookup:
    """A lookup that met the room waiting to be rebuilt (a write's answer was lost)."""
    held.claimed(ROOM, 2)
    held.outcome_unknown([ROOM])
    look = _lookup()
    assert look.next(held, 0.0) == Rebuild()
    return look


# ---------------------------------------------------------------------- decisions


def test_a_lookup_whose_rebuild_another_task_is_doing_waits_for_that_task() -> None:
    # Item 1: the lookup's rebuild read the log, then found the claim loop already
    # rebuilding the room (and left it to it): the room is not back yet.
    held = Holdings()
    look = _rebuilding(held)
    held.reload.discard(ROOM)  # the claim loop's rebuild found it still this node's ...
    held.taking.add(ROOM)  # ... and is replaying it
    assert look.next(held, 0.1) == AwaitTake(), "never 'here' before the room is back"
    held.taking.discard(ROOM)
    assert look.next(held, 0.3) == Here()


def test_a_lookup_whose_rebuild_found_the_room_another_node_s_asks_where_it_is() -> None:
    held = Holdings()
    look = _rebuilding(held)
    assert not held.still_ours(ROOM, "C", 3, node=ME)  # C claimed it while the log was away
    assert look.next(held, 0.1) == ReadLease(), "not 'here': C's, to be sent there"


def test_a_room_being_restored_keeps_its_lease_when_a_beat_comes_mid_replay() -> None:
    # Item 3: leased from its claim (so that long replays are renewed), held by the core only
    # once restored: the beat must not take it for a finished room.
    held = Holdings()
    held.claimed(ROOM, 2)
    held.taking.add(ROOM)
    assert held.finished(open_rooms=set(), writing=False) == []
    assert held.renewals() == {ROOM: 2}, "renewed meanwhile"
    held.taking.discard(ROOM)
    assert held.finished(open_rooms=set(), writing=False) == [ROOM], "a finished room goes"


# ---------------------------------------------------------------------- the node's tasks


@pytest.fixture
async def node(redis_server: LocalRedis, dsn: str, prefix: str, tmp_path: Path
               ) -> AsyncIterator[ClusterNode]:
    async with node_with_a_room_to_claim(redis_server.url, dsn, prefix, tmp_path) as made:
        with trio.fail_after(60):  # a hang fails with a traceback of where it waited
            yield made


async def test_a_lookup_racing_the_claim_loop_to_rebuild_a_room_answers_once_it_is_back(
        node: ClusterNode) -> None:
    assert await node._take(ROOM)
    # PostgreSQL went away under a batch of the room's: its outcome is unknown, the room is
    # let go, to be rebuilt from the log once it answers.
    node.refused(frozenset({ROOM}), set(), WriteFailed("the answer was lost"))
    assert ROOM in node.holdings.reload and str(ROOM) not in node.hub.matches
    replaying = trio.Event()

    async def claim_loop_rebuilds_first() -> None:  # as the lookup's rebuild reads the owner
        nursery.start_soon(node._reload, ROOM)
        await replaying.wait()

    async def replay_slowly() -> None:
        replaying.set()
        await trio.sleep(0.1)  # the lookup goes on meanwhile

    async with trio.open_nursery() as nursery:
        wrap_once(node.log, "owner", claim_loop_rebuilds_first)
        wrap_once(node.log, "stored_room", replay_slowly)
        url = await node._where(str(ROOM))
        answer = (url, str(ROOM) in node.hub.matches)
    assert answer == (None, True), "here, and there: a 'here' for a room not held is 'closed'"
    assert node.stats.reloads == 1


async def test_a_rebuild_whose_log_read_fails_is_tried_again_never_answered_here(
        node: ClusterNode) -> None:
    assert await node._take(ROOM)
    node.refused(frozenset({ROOM}), set(), WriteFailed("the answer was lost"))

    async def postgres_goes_away_again() -> None:  # after the owner was read: it is ours
        raise LogUnavailable("PostgreSQL unreachable: the server closed the connection")

    wrap_once(node.log, "stored_room", postgres_goes_away_again)
    with pytest.raises(LogUnavailable):
        await node._reload(ROOM)
    assert ROOM in node.holdings.reload, "still to be rebuilt"
    assert node.holdings.finished(node.hub.matches.keys(), writing=False) == [], \
        "not taken by the beat for a finished room (its lease and due entry deleted)"
    url = await node._where(str(ROOM))  # a returning player's lookup, PostgreSQL back
    assert (url, str(ROOM) in node.hub.matches) == (None, True), \
        "'here' for a room the core does not hold tells its players it is closed"


async def test_a_room_served_here_is_not_claimed_again_when_redis_lost_its_lease(
        node: ClusterNode) -> None:
    assert await node._take(ROOM)
    live = node.hub.matches[str(ROOM)]
    ann = await follower(node, "tok-ann", "Ann")
    # Redis lost the lease (restarted a second behind its append-only file): the room is
    # due, and a claim loop or a lookup working from a view of a moment ago comes to it.
    await node.directory.release(ROOM, node=ME, epoch=2)
    assert ROOM in await node.directory.due()
    assert await node._take(ROOM)
    assert node.hub.matches[str(ROOM)] is live and ann in live.members()
    assert node.holdings.epochs[ROOM] == 2 and node.stats.claims == 1
    owner = await node.log.owner(ROOM)
    assert owner is not None and (owner.owner, owner.epoch) == (ME, 2)


async def test_a_room_is_never_restored_over_a_live_one_its_followers_come_back(
        node: ClusterNode) -> None:
    assert await node._take(ROOM)
    live = node.hub.matches[str(ROOM)]
    ann = await follower(node, "tok-ann", "Ann")
    # Served here but owned no more, with no lease (what item 3 left behind): a claim of it
    # replays the log; the live room must not stay behind with Ann attached to it.
    node.holdings.forget(ROOM)
    await node.directory.release(ROOM, node=ME, epoch=2)
    assert await node._take(ROOM)
    restored = node.hub.matches[str(ROOM)]
    assert restored is not live and node.holdings.epochs[ROOM] == 3
    # Ann is not left following the room replaced (her actions would be refused there):
    # she is closed with 1012 and resumes the restored room when she comes back.
    assert isinstance(ann.sink, Connection)
    assert str(ROOM) not in ann.rooms and ann.sink.close_code == SERVICE_RESTART


async def test_a_beat_in_the_middle_of_a_takeover_keeps_the_room_s_lease(
        node: ClusterNode) -> None:
    async def a_beat_meanwhile() -> None:  # the room is claimed and leased, not yet restored
        assert ROOM in node.holdings.leased and str(ROOM) not in node.hub.matches
        await node._keep_leases()

    wrap_once(node.log, "stored_rooms", a_beat_meanwhile)
    assert await node._take(ROOM)
    lease = await node.directory.lease(ROOM)
    assert lease is not None and (lease.node, lease.epoch) == (ME, 2), lease
    assert node.holdings.epochs.get(ROOM) == 2 and str(ROOM) in node.hub.matches
    await node._keep_leases()  # the next beat renews it, and leaves it alone
    assert node.holdings.leased == {ROOM} and node.stats.leases_lost == 0


async def test_a_restart_puts_up_for_a_claim_a_room_of_its_own_whose_lease_is_gone(
        node: ClusterNode, tmp_path: Path) -> None:
    # Item 3's second outcome: the room is this node's in the log, but its lease and its
    # place among the rooms due are gone. The node's next run must not leave it so.
    assert await node._take(ROOM)
    await node.directory.forget(ROOM, node=ME, epoch=2)
    assert await node.directory.lease(ROOM) is None and await node.directory.due() == []
    settings = node.cluster
    again = ClusterNode(server_config(tmp_path / "again"), settings)
    async with again.services():
        lines = await again.recover()
        assert lines == [f"room {ROOM} (held by this node's previous run) is up for a claim"]
        assert await again.directory.due() == [ROOM]
        assert await again._take(ROOM) and str(ROOM) in again.hub.matches


async def test_a_seat_whose_resume_was_put_off_is_resumed_by_its_own_request(
        node: ClusterNode) -> None:
    # The chaos test's stalled room (paused under a subgame, every seat connected, nobody
    # acting): Ann's hello named her room while its old node was silent, so the node kept
    # her connection and put her resume off; meanwhile the claim loop took the room over,
    # and Ann's next request, sent before the put-off resume, was refused `not_seated`.
    await node.log.write([SeatSet(ROOM, 0, "seat-ann", "tok-ann", "Ann", None)], {ROOM: 1})
    node.hub.restore_sessions({"tok-ann": "Ann"})
    ann = connection(node)

    async def silent() -> None:
        raise OwnerSilent("room 7's node has stopped answering and still holds it")

    wrap_once(node, "_find", silent)
    hello = await say(node, ann, {"t": "hello", "i": 1, "v": [1], "session": "tok-ann",
                                  "resume": {str(ROOM): [0, 0]}})
    await node.look_up(ann, hello)
    await node.gate.flush()
    told = [f for f in frames(ann) if f.get("code") == "unavailable"]
    assert told and told[0]["r"] == str(ROOM) and str(ROOM) not in ann.rooms
    assert await node._take(ROOM)  # the claim loop, before the node looks again for Ann
    await say(node, ann, {"t": "chat", "i": 2, "r": str(ROOM), "text": "still here"})
    [reply] = [f for f in frames(ann) if f.get("i") == 2]
    assert reply["t"] == "ok", reply
    assert str(ROOM) in ann.rooms and node.hub.matches[str(ROOM)].seats[0].present


async def test_a_room_said_here_but_not_served_is_looked_for_again_not_called_closed(
        node: ClusterNode) -> None:
    # The chaos test once had a player of a live room told `room_closed` on a resume: a lookup
    # that answers "here" for a room the core does not serve (a rebuild or hand-over under
    # way) was taken for "nowhere". Only the log's word that the match is over closes a room.
    await node.log.write([SeatSet(ROOM, 0, "seat-ann", "tok-ann", "Ann", None)], {ROOM: 1})
    node.hub.restore_sessions({"tok-ann": "Ann"})
    assert await node._take(ROOM)
    live = node.hub.matches.pop(str(ROOM))  # held, its lease ours, but not in the core
    ann = connection(node)
    hello = await say(node, ann, {"t": "hello", "i": 1, "v": [1], "session": "tok-ann",
                                  "resume": {str(ROOM): [0, 0]}})
    await node.look_up(ann, hello)
    await node.gate.flush()
    codes = [f.get("code") for f in frames(ann) if f.get("t") == "error"]
    assert "room_closed" not in codes and "unavailable" in codes, codes
    assert str(ROOM) in ann.session.seats, "the seat stays Ann's"  # type: ignore[union-attr]
    node.hub.matches[str(ROOM)] = live  # the rebuild done: the next look attaches Ann
    again = Lookup(LookupKind.ROOM, str(ROOM), ann, None, {str(ROOM): (0, 0)})
    assert await node._follow(ann, again, retry=False)
    assert str(ROOM) in ann.rooms
