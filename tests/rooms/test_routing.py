"""A cluster node's core (docs/cluster.md): before it says a session or a room does not exist,
it asks (a lookup the node answers by handing the frame back); a room that lives on another
node gets the client a redirect; new rooms go where the node places them; a room the node no
longer owns is let go; while the log cannot be reached nothing is accepted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbiter.protocol import pack
from arbiter.server.rooms.effects import LookupKind, Resolved
from arbiter.server.rooms.routing import LOBBY_FRESH
from arbiter.server.store.db import Store

from .sim import Player, Sim, assert_converged
from .test_lifecycle import shahrazad_scene

ELSEWHERE = "ws://10.0.0.2:8765/"


def _again(sim: Sim, player: Player, resolved: Resolved) -> None:
    """The node found out: hand the frame of the last lookup back with what it found."""
    lookup = sim.lookups.pop()
    assert lookup.peer is player.peer and lookup.frame is not None
    sim.apply(sim.hub.receive(player.peer, lookup.frame, sim.now, resolved))


def _send(player: Player, msg: dict[str, Any]) -> int:
    i = msg.setdefault("i", 900 + len(player.messages))
    player.send_raw(pack(msg))
    return int(i)


def test_an_unknown_session_is_looked_up_before_it_is_refused() -> None:
    sim = Sim(cluster=True)
    p = sim.connect("x", hello=False)
    i = _send(p, {"t": "hello", "v": [1], "session": "from-another-node"})
    [lookup] = sim.lookups
    assert (lookup.kind, lookup.key) == (LookupKind.SESSION, "from-another-node")
    assert i not in p.replies
    sim.hub.restore_sessions({"from-another-node": "Ann"})  # the node found it in the log
    _again(sim, p, Resolved(sessions={"from-another-node"}))
    assert p.replies[i]["t"] == "welcome" and p.replies[i]["name"] == "Ann"
    q = sim.connect("y", hello=False)
    j = _send(q, {"t": "hello", "v": [1], "session": "nowhere"})
    _again(sim, q, Resolved(sessions={"nowhere"}))  # looked up, not found
    assert q.replies[j]["code"] == "unknown_session"


def test_a_room_on_another_node_gets_a_redirect_and_one_nowhere_is_unknown() -> None:
    sim = Sim(cluster=True)
    ann = sim.connect("Ann")
    i = _send(ann, {"t": "join", "r": "42"})
    [lookup] = sim.lookups
    assert (lookup.kind, lookup.key) == (LookupKind.ROOM, "42")
    _again(sim, ann, Resolved(rooms={"42": ELSEWHERE}))
    assert ann.replies[i] == {"t": "redirect", "i": i, "url": ELSEWHERE, "r": "42"}
    j = _send(ann, {"t": "resync", "r": "43.1.7"})  # a subgame's room: its match is asked for
    assert sim.lookups.pop().key == "43"
    sim.apply(sim.hub.receive(ann.peer, pack({"t": "resync", "r": "43.1.7", "i": j}), sim.now,
                              Resolved(rooms={"43": None})))
    assert ann.replies[j]["code"] == "unknown_room"
    assert sim.hub.stats.redirects == 1


def test_new_rooms_go_where_the_node_places_them() -> None:
    sim = Sim(cluster=True)
    ann = sim.connect("Ann")
    i = _send(ann, {"t": "create", "config": {"seats": 2}})
    assert sim.lookups[-1].kind is LookupKind.PLACE
    _again(sim, ann, Resolved(placed=True, place=ELSEWHERE))
    assert ann.replies[i] == {"t": "redirect", "i": i, "url": ELSEWHERE}
    j = _send(ann, {"t": "create", "config": {"seats": 2}})
    _again(sim, ann, Resolved(placed=True))  # here
    assert ann.replies[j]["t"] == "created"


def test_a_resuming_client_is_sent_on_for_the_rooms_that_are_not_here() -> None:
    sim = Sim(cluster=True)
    sim.hub.restore_sessions({"tok": "Ann"})
    ann = sim.connect(session="tok", resume={"7": [1, 2], "7.1.3": [4, 5]})
    [lookup] = sim.lookups
    assert (lookup.kind, lookup.key, lookup.frame) == (LookupKind.ROOM, "7", None)
    sim.apply(sim.hub.redirect(ann.peer, "7", ELSEWHERE, sim.now))
    assert ann.of_type("redirect") == [{"t": "redirect", "i": None, "url": ELSEWHERE,
                                        "r": "7"}]


def test_a_room_let_go_sends_its_followers_on_or_away() -> None:
    sim = Sim(cluster=True)
    ann, bob = sim.connect("Ann"), sim.connect("Bob")
    create = _send(ann, {"t": "create", "config": {"seats": 2, "seed": 1}})
    _again(sim, ann, Resolved(placed=True))
    room = ann.replies[create]["r"]
    ann.join(room, deck="quick-red")
    bob.join(room, deck="quick-green")
    logged = len(sim.records)
    sim.apply(sim.hub.release_room(room, ELSEWHERE, sim.now))
    assert len(sim.records) == logged, "nothing is logged for a room this node lost"
    assert sim.hub.match_of(room) is None and room not in sim.deadlines
    for p in (ann, bob):
        assert p.of_type("redirect")[-1] == {"t": "redirect", "i": None, "url": ELSEWHERE,
                                             "r": room}
    eve = sim.connect("Eve")
    other = _send(eve, {"t": "create", "config": {"seats": 2}})
    _again(sim, eve, Resolved(placed=True))
    room2 = eve.replies[other]["r"]
    eve.join(room2)
    sim.apply(sim.hub.release_room(room2, None, sim.now))  # nobody known has it
    assert eve.close_code == 1012


def test_while_the_log_cannot_be_reached_nothing_is_accepted() -> None:
    sim = Sim(cluster=True)
    ann = sim.connect("Ann")
    create = _send(ann, {"t": "create", "config": {"seats": 2, "seed": 1}})
    _again(sim, ann, Resolved(placed=True))
    room = ann.replies[create]["r"]
    ann.join(room, deck="quick-red")
    sim.apply(sim.hub.log_availability(False, sim.now))
    assert ann.call({"t": "concede", "r": room})["code"] == "unavailable"
    assert ann.call({"t": "create", "config": {"seats": 2}})["code"] == "unavailable"
    assert ann.call({"t": "chat", "r": room, "text": "still here"})["t"] == "ok"
    sim.apply(sim.hub.log_availability(True, sim.now))
    assert ann.call({"t": "deck", "r": room, "ready": "quick-green"})["t"] == "ok"


def test_the_room_list_holds_every_node_s_rooms_once() -> None:
    sim = Sim(cluster=True)
    ann = sim.connect("Ann")
    create = _send(ann, {"t": "create", "config": {"seats": 2, "name": "here"}})
    _again(sim, ann, Resolved(placed=True))
    room = ann.replies[create]["r"]
    local = sim.hub.summaries()[room]
    sim.apply(sim.hub.remote_lobby({"9": {**local, "r": "9", "name": "there"},
                                    room: {**local, "name": "stale copy of a local room"}},
                                   sim.now))  # the node has just read the lobby
    names = [r["name"] for r in ann.ok({"t": "rooms"})["rooms"]]
    assert names == ["here", "there"]


def test_the_lobby_is_read_when_a_room_list_asks_and_at_most_once_a_second() -> None:
    # Reading every node's rooms on every beat cost Redis the whole cluster's lobby per node
    # per beat (docs/cluster.md, "Capacity"): the node reads it for a room list instead.
    sim = Sim(cluster=True)
    ann = sim.connect("Ann")
    i = _send(ann, {"t": "rooms"})
    [lookup] = sim.lookups
    assert lookup.kind is LookupKind.LOBBY and i not in ann.replies
    # What the node does before handing the frame back:
    sim.apply(sim.hub.remote_lobby({"9": {"r": "9", "name": "there", "state": "waiting"}},
                                   sim.now))
    _again(sim, ann, Resolved(lobby=True))
    assert [r["name"] for r in ann.replies[i]["rooms"]] == ["there"]
    sim.advance(LOBBY_FRESH / 2)
    assert [r["name"] for r in ann.ok({"t": "rooms"})["rooms"]] == ["there"]  # no lookup
    assert not sim.lookups
    sim.advance(LOBBY_FRESH / 2)
    j = _send(ann, {"t": "rooms"})
    assert sim.lookups[-1].kind is LookupKind.LOBBY and j not in ann.replies  # stale: read again


def test_a_client_that_resumed_before_its_room_was_taken_over_is_picked_up(
        tmp_path: Path) -> None:
    # A node asked about a room whose previous node died waits for the lease, takes the room
    # over and only then answers the lookup: the client that said hello meanwhile follows the
    # room from where its replica stood, with no second hello.
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(store=store)
    (ann, bob), room = first.table({"seats": 2, "seed": 13})
    first.play({0: ann, 1: bob}, max_actions=30)
    node = Sim(cluster=True, store=store)
    node.hub.restore_sessions(store.sessions())
    ann2 = node.connect(session=ann.session, resume=ann.tracker.positions())
    [lookup] = node.lookups
    assert (lookup.kind, lookup.key, lookup.frame) == (LookupKind.ROOM, room, None)
    assert not ann2.of_type("s") and not ann2.of_type("d")
    [stored] = store.stored_rooms()
    node.apply(node.hub.restore_room(stored, node.now)[1])
    node.apply(node.hub.redirect(ann2.peer, room, None, node.now, lookup.resume))
    assert ann2.of_type("s") or ann2.of_type("d"), "the replica is brought up to date"
    assert not ann2.of_type("redirect")
    bob2 = node.connect(session=bob.session, resume=bob.tracker.positions())
    node.play({0: ann2, 1: bob2}, max_actions=10)
    assert assert_converged(node, [ann2, bob2]) == 2


def test_a_spectator_that_resumed_before_its_room_was_taken_over_is_picked_up(
        tmp_path: Path) -> None:
    # The same for a spectator, which the log does not know as one (what a session watches is
    # not logged): its resume is what says it follows the room. Before, it was left with its
    # replica where it stood and heard nothing more (a page watching a game whose node died).
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(store=store)
    (ann, bob), room = first.table({"seats": 2, "seed": 13})
    wes = first.connect("Wes")
    wes.ok({"t": "spectate", "r": room})
    first.play({0: ann, 1: bob}, max_actions=30)
    assert wes.tracker.positions()
    node = Sim(cluster=True, store=store)
    node.hub.restore_sessions({wes.session: "Wes"} | store.sessions())
    wes2 = node.connect(session=wes.session, resume=wes.tracker.positions())
    [lookup] = node.lookups
    assert (lookup.kind, lookup.key, lookup.frame) == (LookupKind.ROOM, room, None)
    [stored] = store.stored_rooms()
    node.apply(node.hub.restore_room(stored, node.now)[1])
    node.apply(node.hub.redirect(wes2.peer, room, None, node.now, lookup.resume))
    assert wes2.of_type("s") or wes2.of_type("d"), "the spectator's replica is brought up to date"
    ann2 = node.connect(session=ann.session, resume=ann.tracker.positions())
    bob2 = node.connect(session=bob.session, resume=bob.tracker.positions())
    node.play({0: ann2, 1: bob2}, max_actions=10)
    assert assert_converged(node, [ann2, bob2, wes2]) == 3


def test_a_seat_s_answer_sent_before_its_delayed_resume_is_taken_in_a_paused_room(
        tmp_path: Path) -> None:
    # Issue 27, the chaos test's stalled room: paused under a subgame (CR 726.1a) on the node
    # that took it over, every seat connected, nobody acting. A player's client said hello
    # naming its room while the node could not tell where the room was (the old holder
    # silent, Redis or PostgreSQL away): its resume was put off (the node looks again later)
    # and the connection kept. The claim loop then took the room over, and the client
    # answered the decision its replica held, in the subgame's room. That answer came before
    # the put-off resume and was refused `not_seated`; the bot, having answered that decision,
    # ignored it when the resume offered it again. A seat's own request now resumes it first.
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(store=store)
    (ann, bob), main = shahrazad_scene(first)
    ann.choose(main, "Cast Shahrazad")
    first.play({0: ann, 1: bob}, until=lambda: bool(ann.of_type("opened")))
    sub = ann.of_type("opened")[0]["r"]
    first.play({0: ann, 1: bob}, max_actions=3)
    [(player, room, decision)] = [(p, r, d) for p in (ann, bob) for r, d in p.pending()]
    assert room == sub
    node = Sim(cluster=True, store=store)
    node.hub.restore_sessions(store.sessions())
    again = node.connect(session=player.session, resume=player.tracker.positions())
    lookup = node.lookups.pop()
    node.apply(node.hub.lookup_failed(again.peer, None, "the directory cannot be reached",
                                      node.now, main))
    [stored] = store.stored_rooms()
    node.apply(node.hub.restore_room(stored, node.now)[1])  # the claim loop took it
    assert node.match(main).state == "paused"
    reply = again.call({"t": "act", "r": sub, "s": decision["serial"], "a": 0})
    assert reply["t"] in ("d", "ok"), reply
    assert node.match(main).commands == first.match(main).commands + 1
    # The put-off resume, when the node looks again, finds the connection following already.
    follows = len(again.messages)
    node.apply(node.hub.redirect(again.peer, main, None, node.now, lookup.resume))
    assert len(again.messages) == follows
    other = bob if player is ann else ann
    other2 = node.connect(session=other.session, resume=other.tracker.positions())
    seats = {player.seats[main][0]: again, other.seats[main][0]: other2}
    node.play(seats, max_actions=10)
    assert assert_converged(node, [again, other2]) >= 1


def test_a_resumed_room_that_no_node_holds_is_closed_for_the_client() -> None:
    # A match that finished while its player was away from the cluster (or never was): the
    # lookup finds it nowhere, and the client learns the room closed and its seat is gone.
    sim = Sim(cluster=True)
    sim.hub.restore_sessions({"tok": "Ann"})
    ann = sim.connect(session="tok", resume={"7": [1, 2]})
    [lookup] = sim.lookups
    sim.apply(sim.hub.redirect(ann.peer, "7", None, sim.now, lookup.resume))
    [closed] = ann.of_type("error")
    assert (closed["code"], closed["r"], closed["i"]) == ("room_closed", "7", None)
    assert not ann.of_type("redirect")


def test_a_server_alone_never_asks() -> None:
    # The embedded server's routing: what it does not hold does not exist, and it has no
    # other nodes whose rooms it could list.
    sim = Sim()
    p = sim.connect("x", hello=False)
    assert p.call({"t": "hello", "v": [1], "session": "nowhere"})["code"] == "unknown_session"
    ann = sim.connect("Ann")
    assert ann.call({"t": "join", "r": "42"})["code"] == "unknown_room"
    room = ann.ok({"t": "create", "config": {"seats": 2, "name": "here"}})["r"]
    assert [r["r"] for r in ann.ok({"t": "rooms"})["rooms"]] == [room]
    assert not sim.lookups
    with pytest.raises(ValueError):
        sim.hub.remote_lobby({"9": {"r": "9"}}, sim.now)


def test_a_lookup_the_node_cannot_answer_is_unavailable_and_changes_nothing() -> None:
    sim = Sim(cluster=True)
    ann = sim.connect("Ann")
    i = _send(ann, {"t": "join", "r": "42"})
    lookup = sim.lookups.pop()
    sim.apply(sim.hub.lookup_failed(ann.peer, lookup.frame, "the directory cannot be reached",
                                    sim.now))
    reply = ann.replies[i]
    assert (reply["code"], reply["i"]) == ("unavailable", i)
    assert reply["msg"].startswith("the directory cannot be reached: nothing was done")
    assert sim.hub.stats.errors["unavailable"] == 1 and ann.close_code is None
    assert not sim.records
    # A client resuming a room that cannot be found keeps its connection (closing it made
    # every client reconnect ten times a second, issue 27.4): it hears that the room is
    # unavailable, and the node sends it on once it can tell where the room is.
    sim.hub.restore_sessions({"tok": "Bob"})
    bob = sim.connect(session="tok", resume={"7": [1, 2]})
    lookup = sim.lookups.pop()
    assert lookup.frame is None
    sim.apply(sim.hub.lookup_failed(bob.peer, None, "the directory cannot be reached", sim.now,
                                    "7"))
    assert bob.close_code is None
    (told,) = bob.of_type("error")
    assert (told["code"], told["r"], told["i"]) == ("unavailable", "7", None)
