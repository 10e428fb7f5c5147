"""The session rules, in the core: hello first, the version check, the message rate (which a
player answering their own decisions never runs into), malformed messages counted, and the
limits on what a client can make the server hold."""

from __future__ import annotations

import msgpack

from arbiter.server.rooms.context import HubSettings
from arbiter.server.rooms.peers import Limits
from arbiter.server.rooms.sessions import SessionSettings
from arbiter.server.rooms.states import PeerState

from .sim import QUICK, Sim


def test_hello_comes_first_and_a_version_in_common_is_required() -> None:
    sim = Sim()
    p = sim.connect("Ann", hello=False)
    assert p.call({"t": "rooms"})["code"] == "hello_first"
    assert p.peer.state == PeerState.HELLO_WAIT
    assert p.call({"t": "hello", "v": [7, 8], "name": "Ann"})["code"] == "unsupported_version"
    assert p.close_code == 1002 and p.peer.state == PeerState.GONE
    q = sim.connect("Bob", hello=False)
    welcome = q.ok({"t": "hello", "v": [1, 9], "name": "Bob"})
    assert welcome["v"] == 1 and welcome["limits"]["rate"] == 1e9
    assert q.call({"t": "hello", "v": [1], "name": "Bob"})["code"] == "already_hello"


def test_answering_your_own_decisions_never_counts_against_the_rate() -> None:
    """A bot answering each decision at once is playing, not flooding (docs/protocol.md
    section 1): its accepted acts are given back; anything else is charged."""
    sim = Sim(limits=Limits(rate=1.0, burst=5))
    players, room = sim.table({"seats": 2, "seed": 3})
    sim.advance(10)  # the bucket refills after the four messages of the setup
    played = sim.play(dict(enumerate(players)), max_actions=60)  # no time passes at all
    assert played == 60 and all(p.close_code is None for p in players)
    ann = players[0]
    for _ in range(5):
        ann.call({"t": "chat", "r": room, "text": "hi"})
    assert ann.close_code is None
    reply = ann.call({"t": "chat", "r": room, "text": "one too many"})
    assert reply["code"] == "rate_limited" and ann.close_code == 1008
    assert sim.hub.stats.policy_closes == 1


def test_a_stale_act_is_charged_like_any_message() -> None:
    sim = Sim(limits=Limits(rate=1.0, burst=7))
    (ann, bob), room = sim.table({"seats": 2, "seed": 3})  # four messages each
    decider, other = (ann, bob) if ann.pending() else (bob, ann)
    for _ in range(3):
        assert other.call({"t": "act", "r": room, "s": 1, "a": 0})["t"] == "error"
    assert other.call({"t": "act", "r": room, "s": 1, "a": 0})["code"] == "rate_limited"
    assert other.close_code == 1008 and decider.close_code is None


def test_malformed_messages_are_counted_and_too_many_close_the_connection() -> None:
    sim = Sim(limits=Limits(rate=1e9, burst=10**9, garbage=3))
    p = sim.connect("Mallory")
    p.send_raw(b"\xc1")
    p.send_raw("text")
    p.send_raw(msgpack.packb([1, 2]))
    assert [m["code"] for m in p.of_type("error")] == ["bad_frame", "bad_frame", "bad_message"]
    assert p.close_code is None
    sim.advance(30)  # one forgiven every 10 seconds
    for _ in range(3):
        p.send_raw(b"\xc1")
    assert p.close_code is None
    p.send_raw(b"\xc1")
    assert p.close_code == 1008
    p.send_raw(b"\xc1")  # nothing more is read from a closing connection
    assert len(p.of_type("error")) == 7


def test_a_session_that_only_said_hello_is_not_logged_and_the_count_is_bounded() -> None:
    sim = Sim(HubSettings(sessions=SessionSettings(fresh_ttl=60, max_sessions=2)))
    a, b = sim.connect("A"), sim.connect("B")
    refused = sim.connect("C", hello=False).call({"t": "hello", "v": [1], "name": "C"})
    assert refused["code"] == "limit"
    assert sim.records == []
    a.close()
    b.close()
    sim.advance(61)
    assert len(sim.hub.sessions) == 0
    sim.connect("C")
    assert len(sim.hub.sessions) == 1


def test_waiting_rooms_are_limited_per_session_and_per_address() -> None:
    sim = Sim(HubSettings(max_waiting_per_session=2, max_waiting_per_address=3))
    ann, bob = sim.connect("Ann"), sim.connect("Bob")
    far = sim.connect("Far", address="10.9.9.9")
    for _ in range(2):
        ann.ok({"t": "create", "config": {"seats": 2}})
    assert ann.call({"t": "create", "config": {"seats": 2}})["code"] == "limit"
    bob.ok({"t": "create", "config": {"seats": 2}})
    # Bob is another session at the same address: sessions are free, addresses are not.
    assert bob.call({"t": "create", "config": {"seats": 2}})["code"] == "limit"
    far.ok({"t": "create", "config": {"seats": 2}})


def test_a_waiting_room_that_never_fills_is_closed_and_frees_its_seat() -> None:
    sim = Sim(HubSettings(waiting_ttl=300, grace=60))
    ann = sim.connect("Ann")
    room = ann.ok({"t": "create", "config": {"seats": 2}})["r"]
    ann.join(room, deck=QUICK[0])
    sim.advance(299)
    assert sim.hub.match_of(room) is not None
    sim.advance(2)
    assert sim.hub.match_of(room) is None and sim.hub.stats.rooms_expired == 1
    [notice] = [m for m in ann.of_type("error") if m.get("r") == room]
    assert notice["code"] == "room_closed" and notice["i"] is None
    session = sim.hub.sessions.get(ann.session or "")
    assert session is not None and session.seats == {}
    assert ann.ok({"t": "rooms"})["rooms"] == []


def test_an_empty_waiting_room_goes_after_the_grace_period() -> None:
    sim = Sim(HubSettings(grace=60))
    ann = sim.connect("Ann")
    room = ann.ok({"t": "create", "config": {"seats": 2}})["r"]
    sim.advance(61)
    assert sim.hub.match_of(room) is None


def test_a_ping_is_answered_ok_at_once_and_costs_one_token() -> None:
    """A browser cannot send WebSocket pings: ``ping`` tells it the server is there
    (docs/protocol.md section 1, "Heartbeats"). It is a request like any other for the rate."""
    sim = Sim(limits=Limits(rate=1.0, burst=4))
    ann = sim.connect("Ann")  # the hello took one token
    for _ in range(3):
        reply = ann.call({"t": "ping"})
        assert reply["t"] == "ok" and reply["i"] is not None
    assert ann.call({"t": "ping"})["code"] == "rate_limited"
    assert ann.close_code == 1008
    assert sim.connect("Bob").call({"t": "ping", "x": 1})["code"] == "bad_field"
