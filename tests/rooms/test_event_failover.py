"""A Limited event taken over by a cluster node, in the core (docs/cluster.md, "Events"): the
node restores it from what the log gives for its room alone (no other session than those it
names), with its entrants' sessions; an entrant who came back while it was being taken over
follows it once it is here; an event's own requests for an event elsewhere are looked up and
redirected; a match and its event are linked whichever is restored first, and the node is told
of a match without its event, and of an event without its match; an event let go sends its
followers away and logs nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbiter.protocol import pack
from arbiter.server.rooms.context import HubSettings
from arbiter.server.rooms.effects import LookupKind, Resolved
from arbiter.server.store.db import Store
from arbiter.server.store.rows import StoredRoom

from .sim import Player, Sim

ELSEWHERE = "ws://10.0.0.2:8765/"


def _event(p: Player, room: str) -> dict[str, Any] | None:
    states = [m["ev"] for m in p.messages if m["t"] == "event" and m["r"] == room]
    return states[-1] if states else None


def _drafting(store: Store) -> tuple[Player, str]:
    """Ann drafting at a two-seat event (a bot in the other seat), two picks made."""
    first = Sim(store=store)
    ann = first.connect("Ann")
    room = ann.ok({"t": "create_event", "config": {"kind": "draft", "seats": 2}})["r"]
    ann.ok({"t": "join", "r": room})
    ann.ok({"t": "start", "r": room})
    for _ in range(2):
        ev = _event(ann, room)
        assert ev is not None
        ann.ok({"t": "pick", "r": room, "card": ev["you"]["pack"][0]})
    return ann, room


def _in_round(store: Store) -> tuple[Player, str, str]:
    """Ann's sealed event (a bot in the other seat) in round 1: the event and its match."""
    first = Sim(HubSettings(bot_think=0.01), store=store)
    ann = first.connect("Ann")
    room = ann.ok({"t": "create_event", "config": {"kind": "sealed", "seats": 2,
                                                   "best_of": 1}})["r"]
    ann.ok({"t": "join", "r": room})
    ann.ok({"t": "start", "r": room})
    ev = _event(ann, room)
    assert ev is not None
    pool = ev["you"]["pool"]
    deck = "\n".join([*(f"{n} {c}" for c, n in pool.items()), "17 Forest"])
    ann.ok({"t": "deck", "r": room, "text": deck})
    ev = _event(ann, room)
    assert ev is not None
    return ann, room, ev["you"]["match"]["r"]


def _stored(store: Store) -> dict[str, StoredRoom]:
    return {str(s.room.id): s for s in store.stored_rooms()}


def test_a_node_taking_an_event_over_restores_its_entrants_sessions(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    ann, room = _drafting(store)
    stored = _stored(store)[room]
    assert stored.sessions == {ann.session: "Ann"}  # named by its join command: no seat rows
    node = Sim(cluster=True)  # knows only what the log gave for this room
    node.apply(node.hub.restore_room(stored, node.now)[1])
    back = node.connect(session=ann.session)  # no lookup, no join, no resume
    ev = _event(back, room)
    assert ev is not None and len(ev["you"]["picks"]) == 2


def test_an_entrant_back_during_the_takeover_follows_the_event_once_restored(
        tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    ann, room = _drafting(store)
    node = Sim(cluster=True)
    node.hub.restore_sessions({ann.session: "Ann"})  # its hello's session lookup, answered
    back = node.connect(session=ann.session, resume={room: [0, 0]})
    [lookup] = node.lookups  # where is the event? The node takes it over, then answers.
    assert (lookup.kind, lookup.key, lookup.frame) == (LookupKind.ROOM, room, None)
    assert _event(back, room) is None
    node.apply(node.hub.restore_room(_stored(store)[room], node.now)[1])
    node.apply(node.hub.redirect(back.peer, room, None, node.now, lookup.resume))
    ev = _event(back, room)
    assert ev is not None and len(ev["you"]["picks"]) == 2
    assert not back.of_type("error") and not back.of_type("redirect")
    back.ok({"t": "pick", "r": room, "card": ev["you"]["pack"][0]})


def test_an_event_s_own_request_for_an_event_elsewhere_is_redirected() -> None:
    sim = Sim(cluster=True)
    ann = sim.connect("Ann")
    for i, msg in enumerate(({"t": "pick", "r": "42", "card": "Forest"},
                             {"t": "start", "r": "42"}, {"t": "drop", "r": "42"}), start=10):
        ann.send_raw(pack({**msg, "i": i}))
        lookup = sim.lookups.pop()
        assert (lookup.kind, lookup.key) == (LookupKind.ROOM, "42") and i not in ann.replies
        assert lookup.frame is not None
        sim.apply(sim.hub.receive(ann.peer, lookup.frame, sim.now,
                                  Resolved(rooms={"42": ELSEWHERE})))
        assert ann.replies[i] == {"t": "redirect", "i": i, "url": ELSEWHERE, "r": "42"}
    ann.send_raw(pack({"t": "pick", "r": "43", "card": "Forest", "i": 99}))
    lookup = sim.lookups.pop()
    assert lookup.frame is not None
    sim.apply(sim.hub.receive(ann.peer, lookup.frame, sim.now, Resolved(rooms={"43": None})))
    assert ann.replies[99]["code"] == "unknown_room"  # nowhere


def test_a_match_and_its_event_are_linked_in_either_order_and_strays_are_named(
        tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    ann, room, match = _in_round(store)
    stored = _stored(store)
    assert set(stored) == {room, match}
    # The match first (another node's claim had the event): it reports to an event not here.
    node = Sim(cluster=True)
    node.apply(node.hub.restore_room(stored[match], node.now)[1])
    assert node.hub.desk.stray_match(match) == room
    node.apply(node.hub.restore_room(stored[room], node.now)[1])
    assert node.hub.desk.stray_match(match) is None and node.hub.desk.incomplete_events() == []
    back = node.connect(session=ann.session)
    ev = _event(back, room)
    assert ev is not None and ev["you"]["match"]["r"] == match  # linked: Ann finds her match
    back.ok({"t": "concede", "r": match})
    ev = _event(back, room)
    assert ev is not None and ev["phase"] == "finished"  # its end reached the event
    # The event alone: the node is told it lacks the round's match.
    alone = Sim(cluster=True)
    alone.apply(alone.hub.restore_room(stored[room], alone.now)[1])
    assert alone.hub.desk.incomplete_events() == [room]


def test_an_event_let_go_closes_its_followers_and_logs_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    ann, room = _drafting(store)
    node = Sim(cluster=True)
    node.apply(node.hub.restore_room(_stored(store)[room], node.now)[1])
    back = node.connect(session=ann.session)
    assert _event(back, room) is not None
    logged = len(node.records)
    node.apply(node.hub.release_room(room, None, node.now))
    assert len(node.records) == logged and room not in node.hub.events
    assert back.close_code == 1012 and room not in node.deadlines


def test_a_seat_taken_up_from_another_session_stays_there_after_a_restart(
        tmp_path: Path) -> None:
    # Ann comes back on a new device with her seat's token: the seat is that session's from
    # then on, in the log too, so that a restart (or another node) gives it to her new
    # session, and her old one follows the event no more (nor sees her pack).
    store = Store(tmp_path / "log.sqlite3")
    ann, room = _drafting(store)
    first = ann.sim
    token = ann.replies[max(i for i, r in ann.replies.items() if r["t"] == "joined")]["token"]
    phone = first.connect("Ann's phone")
    phone.ok({"t": "join", "r": room, "token": token})
    node = Sim(cluster=True)
    node.apply(node.hub.restore_room(_stored(store)[room], node.now)[1])
    old = node.connect(session=ann.session)
    new = node.connect(session=phone.session)
    assert _event(old, room) is None
    ev = _event(new, room)
    assert ev is not None and ev["you"]["seat"] == 0 and len(ev["you"]["picks"]) == 2


def test_the_event_list_holds_every_node_s_events_and_the_room_list_none(
        tmp_path: Path) -> None:
    # A node publishes its events in the cluster's lobby, marked as events: any node lists
    # them with the events (an event lives on one node; its players are on any), never with
    # the rooms, and its own events once.
    store = Store(tmp_path / "log.sqlite3")
    _, room = _drafting(store)
    node = Sim(cluster=True)
    node.apply(node.hub.restore_room(_stored(store)[room], node.now)[1])
    published = node.hub.summaries()
    assert published[room]["event"] is True and published[room]["kind"] == "draft"
    there = {**published[room], "r": "9", "name": "there"}
    node.apply(node.hub.remote_lobby({"9": there, room: {**there, "r": room}}, node.now))
    eve = node.connect("Eve")
    events = eve.ok({"t": "events"})["events"]
    assert [(e["r"], e["name"]) for e in events] == [(room, f"Event {room}"), ("9", "there")]
    assert all("event" not in e for e in events)
    assert eve.ok({"t": "rooms"})["rooms"] == []


def test_an_event_s_open_matches_are_named_so_they_go_with_it(tmp_path: Path) -> None:
    """A cluster node that loses an event gives up the event's matches it holds too
    (docs/cluster.md, "Events"): the desk names them, and only them."""
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(HubSettings(bot_think=0.01), store=store)
    ann = first.connect("Ann")
    room = ann.ok({"t": "create_event", "config": {"kind": "sealed", "seats": 2,
                                                   "best_of": 1}})["r"]
    other = ann.ok({"t": "create", "config": {"seats": 2}})["r"]
    ann.ok({"t": "join", "r": room})
    ann.ok({"t": "start", "r": room})
    ev = _event(ann, room)
    assert ev is not None
    deck = "\n".join([*(f"{n} {c}" for c, n in ev["you"]["pool"].items()), "17 Forest"])
    ann.ok({"t": "deck", "r": room, "text": deck})
    ev = _event(ann, room)
    assert ev is not None
    match = ev["you"]["match"]["r"]
    assert first.hub.desk.matches_of(room) == [match]
    assert other not in first.hub.desk.matches_of(room) and first.hub.desk.matches_of(other) == []
