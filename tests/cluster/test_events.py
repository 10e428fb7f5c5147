"""Limited events in a cluster (issue 26; docs/events.md and docs/cluster.md, "Events"): an
event lives on one node, with its round's match rooms, and fails over like a room. Real
``arbiter serve --redis --postgres`` nodes, a real Redis and PostgreSQL, and websocket clients
that record every frame; a node is killed with SIGKILL, and every wait is for a condition under
a bound.

What is checked: an event's node keeps it (and its writes) past its first beats; a pick sent to
another node is redirected to the event's node, and every node lists it; after its node dies
another node takes the event over, with its entrants' sessions, so that they find it again
with their sessions alone and their picks are accepted; and a round's match is taken over
together with its event, so that its result still reaches the event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio

from arbiter.server.cluster.directory import Directory
from tests.e2e.event_views import deck_text, state, you
from tests.server.harness import Activity, Client

from .helpers import eventually
from .nodes import LEASE
from .test_nodes import _bounded, _claimed, _open


async def until(activity: Activity, condition: Callable[[], Any], what: str,
                bound: float = 20) -> None:
    with trio.move_on_after(bound):
        await activity.until(lambda: bool(condition()))
    assert condition(), f"timed out after {bound:g} s waiting for {what}"


async def pick(c: Client, room: str, activity: Activity) -> str:
    """``c`` takes the first card of the pack in front of it, once it has one."""
    await until(activity, lambda: you(c, room).get("pack"), f"a pack for {c.label}")
    before = len(you(c, room)["picks"])
    card = str(you(c, room)["pack"][0])
    await c.ok({"t": "pick", "r": room, "card": card})
    await until(activity, lambda: state(c, room)["phase"] != "drafting"  # type: ignore[index]
                or len(you(c, room)["picks"]) == before + 1, "the pick to show")
    return card


async def holder(cluster: dict[str, Any], room: str) -> str | None:
    async with Directory(cluster["redis"], prefix=cluster["prefix"]) as directory:
        lease = await directory.lease(int(room))
    return None if lease is None else lease.node


async def test_an_event_fails_over_with_its_entrants_and_takes_picks_on_its_new_node(
        cluster: dict[str, Any]) -> None:
    a, b = cluster["start"](2)
    activity = Activity()
    async with _bounded() as nursery:
        ann = await _open(nursery, a, "Ann", activity=activity)
        bob = await _open(nursery, a, "Bob", activity=activity)
        room = str((await ann.ok({"t": "create_event", "config": {
            "kind": "draft", "seats": 2, "rounds": 1, "best_of": 1, "pick_time": 600,
            "bots": False}}))["r"])
        for c in (ann, bob):
            await c.ok({"t": "join", "r": room})
        await ann.ok({"t": "start", "r": room})
        # Past the node's first beats (a lease each: new rooms are leased at once), the event
        # is still its node's and takes picks.
        await eventually(lambda: _is(holder(cluster, room), a.node_id), 10, "the event leased")
        acked = {"Ann": [await pick(ann, room, activity)], "Bob": [await pick(bob, room, activity)]}
        for _ in range(3):
            with trio.fail_after(LEASE * 3):  # a beat or two; the lease stays with node a
                acked["Ann"].append(await pick(ann, room, activity))
                acked["Bob"].append(await pick(bob, room, activity))
        assert await holder(cluster, room) == a.node_id
        # A pick sent to another node is sent on to the event's node.
        eve = await _open(nursery, b, session=ann.session, activity=activity)
        reply = await eve.call({"t": "pick", "r": room, "card": "Forest"})
        assert reply["t"] == "redirect" and reply["url"] == a.url, reply

        async def listed_on_b() -> bool:  # any node lists every node's events
            return [e["r"] for e in (await eve.ok({"t": "events"}))["events"]] == [room]
        await eventually(listed_on_b, 10, "the event in node b's event list")
        await eve.close()

        a.kill()
        await until(activity, lambda: ann.closed and bob.closed, "the connections to end")
        await eventually(lambda: _claimed(b), 3 * LEASE + 5, "the event's takeover")
        # Back with their sessions alone (no join, no resume): the new node knows them as the
        # event's entrants, and sends them the event as it was.
        ann2 = await _open(nursery, b, session=ann.session, activity=activity)
        bob2 = await _open(nursery, b, session=bob.session, activity=activity)
        for c, name in ((ann2, "Ann"), (bob2, "Bob")):
            await until(activity, _has_state(c, room), f"{name}'s event on node b")
            assert you(c, room)["picks"] == acked[name]
        for c in (ann2, bob2):
            await pick(c, room, activity)
        assert [len(you(c, room)["picks"]) for c in (ann2, bob2)] == [5, 5]
        nursery.cancel_scope.cancel()


def _has_state(c: Client, room: str) -> Callable[[], bool]:
    return lambda: state(c, room) is not None


async def _is(value: Any, expected: Any) -> bool:
    return bool(await value == expected)


async def test_a_round_s_match_is_taken_over_with_its_event_and_reports_its_result(
        cluster: dict[str, Any]) -> None:
    a, b, c = cluster["start"](3)
    nodes = {n.node_id: n for n in (a, b, c)}
    activity = Activity()
    async with _bounded() as nursery:
        ann = await _open(nursery, a, "Ann", activity=activity)
        bob = await _open(nursery, a, "Bob", activity=activity)
        room = str((await ann.ok({"t": "create_event", "config": {
            "kind": "sealed", "seats": 2, "rounds": 1, "best_of": 1, "bots": False}}))["r"])
        for cl in (ann, bob):
            await cl.ok({"t": "join", "r": room})
        await ann.ok({"t": "start", "r": room})
        await until(activity, lambda: all(state(cl, room)["phase"] == "building"  # type: ignore[index]
                                          for cl in (ann, bob)), "building")
        for cl in (ann, bob):
            await cl.ok({"t": "deck", "r": room, "text": deck_text(you(cl, room)["pool"])})
        await until(activity, lambda: all("match" in you(cl, room) for cl in (ann, bob)),
                    "round 1's match")
        match = you(ann, room)["match"]["r"]
        await eventually(lambda: _is(holder(cluster, match), a.node_id), 10, "the match leased")

        a.kill()
        await until(activity, lambda: ann.closed and bob.closed, "the connections to end")

        async def together() -> bool:  # both taken over, by one node
            held = {await holder(cluster, room), await holder(cluster, match)}
            return len(held) == 1 and None not in held and a.node_id not in held
        await eventually(together, 3 * LEASE + 10, "the event and its match on one node")
        home = nodes[str(await holder(cluster, room))]
        ann2 = await _open(nursery, home, session=ann.session, activity=activity)
        await until(activity, lambda: state(ann2, room), "the event on its new node")
        assert you(ann2, room)["match"]["r"] == match
        await ann2.ok({"t": "concede", "r": match})
        await until(activity, lambda: state(ann2, room)["phase"] == "finished",  # type: ignore[index]
                    "the event finished with the match's result")
        # Ann conceded her match: Bob (seat 1) won it, as the final standings say.
        standings = state(ann2, room)["standings"]  # type: ignore[index]
        assert [(s["seat"], s["w"], s["l"]) for s in standings] == [(1, 1, 0), (0, 0, 1)]
        nursery.cancel_scope.cancel()
