"""What a hostile client can make the room core spend or hold (issue 27, items 10-13 and 15),
and that honest clients are still answered while it tries: decks counted before they are
expanded and refused decks charged per connection and per address; rooms filled with bots
counted against their creator; a share of the room table kept for players with a history;
sessions of closed connections forgotten soon, and bounded per address; the all-seeing
spectators' invitation and delay (docs/architecture.md, "What a client can make the server
hold")."""

from __future__ import annotations

from typing import Any

import pytest

from arbiter.protocol import pack
from arbiter.protocol.errors import Refusal
from arbiter.server.rooms.context import HubSettings
from arbiter.server.rooms.peers import Limits
from arbiter.server.rooms.sessions import SessionSettings
from arbiter.server.rooms.setup import parse_deck
from arbiter.server.rules.view import OMNISCIENT
from arbiter.server.store.records import RoomCreated

from .sim import Player, Sim

FOREST_WALL = "250 Forest\n" * 1800  # 19.8 KB: 450,000 names if expanded


# ------------------------------------------------------------------ item 15: decks


def test_a_deck_list_is_refused_at_the_line_that_goes_past_250_cards() -> None:
    # Counted before expanding: the refusal names line 2, the first that goes past, so the
    # 1,798 lines after it were never turned into names.
    with pytest.raises(Refusal) as refused:
        parse_deck({"text": FOREST_WALL})
    assert refused.value.code == "bad_deck"
    assert refused.value.message.startswith("line 2: a deck has at most 250 cards")
    with pytest.raises(Refusal) as planar:
        parse_deck({"text": "60 Forest\nPlanar deck\n" + "Krosa\n" * 300})
    assert "line 253: a deck has at most 250 cards in its planar deck" in planar.value.message
    assert len(parse_deck({"text": "200 Forest\nSideboard\n50 Mountain"}).main) == 200


def test_refused_decks_are_charged_to_the_connection_and_to_its_address() -> None:
    sim = Sim(limits=Limits(rate=50, burst=200))
    honest = sim.connect("Honest", address="10.0.0.2")
    room = honest.ok({"t": "create", "config": {"seats": 2}})["r"]
    honest.join(room)
    # One connection: a refused deck costs ten messages, so the twenty-first closes it.
    flood = sim.connect("Flood", address="10.6.6.6")
    flood.join(room)
    for _ in range(20):
        assert flood.call({"t": "deck", "r": room, "text": FOREST_WALL})["code"] == "bad_deck"
    assert flood.call({"t": "deck", "r": room, "text": FOREST_WALL})["code"] == "rate_limited"
    assert flood.close_code == 1008
    # Many connections of one address: the address's bucket (50) runs out, and then its
    # deck lists are refused unread, while another address's are read as usual.
    sim.advance(30)
    others = []
    for i in range(12):
        other = sim.connect(f"F{i}", address="10.6.6.6")
        r = other.ok({"t": "create", "config": {"seats": 2}})["r"]
        other.join(r)
        others.append((other, r))
    answers = [other.call({"t": "deck", "r": r, "text": FOREST_WALL})["code"]
               for other, r in others for _ in range(5)]
    assert answers.count("bad_deck") == 50 and answers[-1] == "rate_limited"
    assert "from your address" in others[-1][0].messages[-1]["msg"]
    bad = honest.call({"t": "deck", "r": room, "text": "4 Nonsense"})
    assert bad["code"] == "bad_deck"
    assert honest.ok({"t": "deck", "r": room, "ready": "quick-red"})["t"] == "ok"
    sim.advance(10)  # the address's bucket refills at 5 a second
    again = sim.connect("Later", address="10.6.6.6")
    r = again.ok({"t": "create", "config": {"seats": 2}})["r"]
    again.join(r)
    assert again.call({"t": "deck", "r": r, "text": FOREST_WALL})["code"] == "bad_deck"


# ------------------------------------------------------------------ item 10: bot-only rooms


def test_rooms_played_by_bots_only_count_against_their_creator() -> None:
    sim = Sim(HubSettings(max_waiting_per_session=2, max_waiting_per_address=3, max_rooms=50))
    squat = sim.connect("Squat")

    def bot_room(p: Player) -> str:
        """Create a room, fill it with bots, leave it: what the room table got ("created")."""
        reply = p.call({"t": "create", "config": {"seats": 2}})
        if reply["t"] == "error":
            return str(reply["code"])
        room = reply["r"]
        for _ in range(2):
            p.ok({"t": "bot", "r": room})
        p.ok({"t": "leave", "r": room})
        assert sim.match(room).state.value == "playing"
        return "created"

    assert [bot_room(squat) for _ in range(3)] == ["created", "created", "limit"]
    assert "played by bots only" in squat.messages[-1]["msg"]
    # Other sessions of the address share its cap; another address does not.
    assert bot_room(sim.connect("Again")) == "created"
    assert bot_room(sim.connect("More")) == "limit"
    assert bot_room(sim.connect("Far", address="10.9.9.9")) == "created"
    # A creator who plays in a room with a bot is not squatting: it does not count.
    ann = sim.connect("Ann", address="10.7.7.7")
    for _ in range(3):
        room = ann.ok({"t": "create", "config": {"seats": 2}})["r"]
        ann.join(room, deck="quick-red")
        ann.ok({"t": "bot", "r": room})
        assert sim.match(room).state.value == "playing"


# ------------------------------------------------------------------ item 12: the session table


def test_sessions_of_closed_connections_are_bounded_per_address_and_go_within_a_minute() -> None:
    settings = SessionSettings()
    assert settings.fresh_ttl <= 60, "a session that held nothing must not linger for long"
    sim = Sim(HubSettings(sessions=SessionSettings(max_sessions=1000)))
    honest = sim.connect("Honest", address="10.0.0.2")
    honest.close()
    # One address: connect, hello, close, 5,000 times (five times the table).
    for i in range(5000):
        sim.connect(f"Flood {i}", address="10.6.6.6").close()
    assert len(sim.hub.sessions) == 1 + settings.fresh_per_address
    # A newcomer is answered, and a session of another address that only just closed
    # resumes with its token.
    assert sim.connect("Newcomer", address="10.0.0.3").session is not None
    assert sim.connect(session=honest.session, address="10.0.0.2").session == honest.session
    # A connection that is still open keeps its session, whatever the address does.
    kept = sim.connect("Kept", address="10.6.6.6")
    for i in range(300):
        sim.connect(f"More {i}", address="10.6.6.6").close()
    assert kept.session in sim.hub.sessions
    kept.close()
    sim.advance(settings.fresh_ttl + 1)
    assert kept.session not in sim.hub.sessions
    assert len(sim.hub.sessions) == 2  # the honest one and the newcomer, still connected


def test_seated_sessions_of_one_address_are_not_lingering() -> None:
    # The load tester runs thousands of players from 127.0.0.1: they take seats, so none is
    # forgotten when their connections close.
    sim = Sim(HubSettings(sessions=SessionSettings(fresh_per_address=3)))
    players = []
    for _ in range(5):
        ann, bob = sim.connect(address="127.0.0.1"), sim.connect(address="127.0.0.1")
        room = ann.ok({"t": "create", "config": {"seats": 2}})["r"]
        ann.join(room, deck="quick-red")
        bob.join(room, deck="quick-green")
        players += [ann, bob]
    for p in players:
        p.close()
    assert all(p.session in sim.hub.sessions for p in players)


# ------------------------------------------------------------------ item 11: many addresses


def test_a_player_with_a_history_creates_while_many_addresses_fill_the_table() -> None:
    sim = Sim(HubSettings(max_rooms=40, max_waiting_per_session=5, max_waiting_per_address=4))
    # Ann has played here: a game against a bot has started with her in a seat.
    ann = sim.connect("Ann", address="10.0.0.2")
    first = ann.ok({"t": "create", "config": {"seats": 2}})["r"]
    ann.join(first, deck="quick-red")
    ann.ok({"t": "bot", "r": first})
    # Forty-nine addresses each create all the rooms they may.
    refused = created = 0
    for a in range(49):
        flood = sim.connect(f"Flood {a}", address=f"10.6.{a}.1")
        for _ in range(4):
            reply = flood.call({"t": "create", "config": {"seats": 2}})
            created += reply["t"] == "created"
            refused += reply.get("code") == "limit"
    assert created == 20 and refused == 49 * 4 - 20  # newcomers fill half the table
    assert "new players' rooms" in flood.messages[-1]["msg"]
    # An honest newcomer is refused too, but Ann, who has played, is answered.
    assert sim.connect("New", address="10.0.0.3").call(
        {"t": "create", "config": {"seats": 2}})["code"] == "limit"
    assert ann.ok({"t": "create", "config": {"seats": 2}})["t"] == "created"
    # The newcomers' rooms expire like any waiting room, and the share opens again.
    sim.advance(HubSettings().waiting_ttl + 1)
    assert sim.connect("Later", address="10.0.0.4").ok(
        {"t": "create", "config": {"seats": 2}})["t"] == "created"


# ------------------------------------------------------------------ item 13: ghosting


def _hands(p: Player, room: str) -> list[Any]:
    return [v for k, v in p.view(room).items() if isinstance(k, int) and v["z"] == "h"]


def test_an_all_seeing_room_is_watched_only_with_its_creators_invitation() -> None:
    sim = Sim()
    ann, bob = sim.connect("Ann"), sim.connect("Bob")
    created = ann.ok({"t": "create", "config": {"seats": 2, "seed": 9, "spectators": "all"}})
    room, invite = created["r"], created["invite"]
    assert isinstance(invite, str) and len(invite) >= 16
    assert "invite" not in ann.ok({"t": "create", "config": {"seats": 2}})
    ann.join(room, deck="quick-red")
    bob.join(room, deck="quick-green")
    # Bob's second device: another address, a new session. Not invited, not let in.
    ghost = sim.connect("Bob's phone", address="10.0.0.77")
    assert ghost.call({"t": "spectate", "r": room})["code"] == "not_invited"
    assert ghost.call({"t": "spectate", "r": room, "token": "x" * 24})["code"] == "not_invited"
    assert room not in ghost.tracker.rooms
    # Ann hands the invitation to Eve, who sees every hand, and again after a reconnect.
    eve = sim.connect("Eve", address="10.0.0.9")
    eve.ok({"t": "spectate", "r": room, "token": invite})
    assert len(_hands(eve, room)) == 14
    eve.close()
    back = sim.connect(session=eve.session, address="10.0.0.9")
    assert len(_hands(back, room)) == 14
    # The invitation is logged with the room's settings: a restart keeps it.
    [record] = [r for r in sim.records if isinstance(r, RoomCreated) and str(r.room) == room]
    assert record.config["invite"] == invite


def test_invitations_and_delays_are_settings_of_all_seeing_rooms_only() -> None:
    sim = Sim()
    ann = sim.connect("Ann")
    for config in ({"spectators": "public", "spectator_delay": 30},
                   {"spectators": "public", "invite": "a-long-enough-token"},
                   {"spectators": "all", "invite": "short"},
                   {"spectators": "all", "spectator_delay": -1},
                   {"spectators": "all", "spectator_delay": True}):
        assert ann.call({"t": "create", "config": config})["code"] == "bad_config", config
    chosen = ann.ok({"t": "create", "config": {"spectators": "all", "spectator_delay": 30,
                                               "invite": "a-long-enough-token"}})
    assert chosen["invite"] == "a-long-enough-token"


def test_all_seeing_spectators_see_the_game_the_rooms_delay_late() -> None:
    sim = Sim()
    ann, bob = sim.connect("Ann"), sim.connect("Bob")
    config = {"seats": 2, "seed": 9, "spectators": "all", "spectator_delay": 30}
    created = ann.ok({"t": "create", "config": config})
    room = created["r"]
    ann.join(room, deck="quick-red")
    bob.join(room, deck="quick-green")
    eve = sim.connect("Eve", address="10.0.0.9")
    before = len(eve.messages)
    eve.send_raw(pack({"t": "spectate", "i": 100, "r": room, "token": created["invite"]}))
    assert len(eve.messages) == before  # even the answer waits in the line
    sim.advance(29.9)
    assert len(eve.messages) == before
    sim.advance(0.1)
    assert eve.replies[100]["t"] == "joined" and len(_hands(eve, room)) == 14
    # The players play on at once; Eve's replica follows thirty seconds later, in order (her
    # tracker checks every sequence number and checksum), and catches up exactly.
    seen = dict(eve.view(room))
    shown = sim.match(room).play.game_room(room).classes[OMNISCIENT].state
    sim.play({0: ann, 1: bob}, max_actions=6)
    then = dict(shown.view)
    assert then != seen
    sim.advance(29.9)
    assert eve.view(room) == seen
    sim.advance(0.2)
    assert eve.view(room) == then
    # Leaving ends the delay once the frames in the line are out.
    eve.send_raw(pack({"t": "leave", "i": 101, "r": room}))
    assert 101 not in eve.replies
    sim.advance(30)
    assert eve.replies[101]["t"] == "ok"
    assert not sim.hub.ctx.delays.watching and not sim.hub.ctx.delays.held
    # Nobody else waits: the players got every frame at once, and so does a public room's
    # spectator.
    public = ann.ok({"t": "create", "config": {"seats": 2}})["r"]
    watcher = sim.connect("Watcher", address="10.0.0.10")
    assert watcher.call({"t": "spectate", "r": public})["t"] == "joined"


# ------------------------------------------------------------------ issue 28: one local address


def _ramp(settings: HubSettings, address: str, rooms: int = 100) -> tuple[list[str], int]:
    """``arbiter loadtest``'s ramp, from one address: a room of four every 0.02 s (the rate
    of 4,000 players over 20 s), each created by its first player, whose four players then
    join one a second (a loaded server's round trip): up to 100 rooms wait at once, where
    the per-address cap is 20. Returns the codes of the refused creates and how many
    matches started."""
    sim = Sim(settings)
    plan = sorted((0.02 * slot + step * 1.0, slot, step)
                  for slot in range(rooms) for step in range(5))
    players: dict[int, list[Player]] = {}
    made: dict[int, str] = {}
    refused: list[str] = []
    for when, slot, step in plan:
        sim.advance(max(0.0, when - sim.now))
        if step == 0:
            players[slot] = [sim.connect(f"p{slot}-{n}", address=address) for n in range(4)]
            reply = players[slot][0].call({"t": "create", "config": {
                "seats": 4, "variant": "free_for_all"}})
            if reply["t"] == "error":
                refused.append(str(reply["code"]))
            else:
                made[slot] = reply["r"]
        elif slot in made:
            players[slot][step - 1].join(made[slot], step - 1, deck="quick-red")
    started = sum(1 for r in made.values() if sim.match(r).state.value == "playing")
    return refused, started


def test_a_load_test_from_this_machine_is_not_counted_as_one_squatting_address() -> None:
    # Loopback is left out of the per-address cap with the defaults (rooms/addresses.py)...
    assert _ramp(HubSettings(), "127.0.0.1") == ([], 100)
    assert _ramp(HubSettings(), "::1", rooms=40) == ([], 40)
    # ...while any other address keeps its cap of 20 waiting rooms, and so does loopback when
    # the operator asks for it.
    refused, started = _ramp(HubSettings(), "203.0.113.9", rooms=40)
    assert refused and set(refused) == {"limit"} and started == 40 - len(refused)
    refused, _ = _ramp(HubSettings(limit_local_addresses=True), "127.0.0.1", rooms=40)
    assert refused and set(refused) == {"limit"}
