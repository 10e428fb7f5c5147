"""Seats and spectators in the core: seats belong to sessions and are held by tokens; a seat
taken over with its token tells the previous holder; an empty seat is held for the grace
period, then conceded for its player (CR 104.3a); spectators see public information only."""

from __future__ import annotations

from arbiter.server.rooms.context import HubSettings

from .sim import Sim, assert_converged


def test_seats_take_unique_names_and_a_waiting_seat_is_freed_on_leave() -> None:
    sim = Sim()
    ann, ann2 = sim.connect("Ann"), sim.connect("Ann")
    room = ann.ok({"t": "create", "config": {"seats": 3, "variant": "free_for_all"}})["r"]
    ann.join(room)
    ann2.join(room)
    seats = sim.match(room).seats
    assert [s.name for s in seats] == ["Ann", "Ann (2)", None]
    assert ann2.call({"t": "join", "r": room, "seat": 2})["code"] == "already_seated"
    ann2.ok({"t": "leave", "r": room})
    assert seats[1].token is None and seats[1].session is None
    assert ann.call({"t": "join", "r": room, "seat": 9})["code"] == "already_seated"
    bob = sim.connect("Bob")
    assert bob.call({"t": "join", "r": room, "seat": 9})["code"] == "bad_field"
    assert bob.call({"t": "join", "r": room, "seat": 0})["code"] == "seat_taken"


def test_a_seat_taken_over_with_its_token_tells_the_previous_holder() -> None:
    sim = Sim()
    (ann, bob), room = sim.table({"seats": 2, "seed": 5})
    seat, token = bob.seats[room]
    phone = sim.connect("Bob on a phone")
    assert phone.join(room, token=token) == seat
    [lost] = bob.of_type("seat_lost")
    assert lost == {"t": "seat_lost", "r": room, "seat": seat}
    reply = bob.call({"t": "concede", "r": room})
    assert reply["code"] == "not_seated", "the old connection holds nothing any more"
    assert phone.of_type("s"), "the new holder gets the view"
    match = sim.match(room)
    assert match.seats[seat].session is sim.hub.sessions.get(phone.session or "")
    sim.play({0: ann, 1: phone} if seat == 1 else {0: phone, 1: ann}, max_actions=20)
    assert assert_converged(sim, [ann, phone]) == 2


def test_104_3a_an_empty_seat_is_conceded_after_the_grace_period() -> None:
    sim = Sim(HubSettings(grace=30, allow_scenarios=True))
    (ann, bob, cid), room = sim.table({"seats": 3, "variant": "free_for_all", "seed": 2},
                                      ("Ann", "Bob", "Cid"))
    cid.close()
    sim.advance(29)
    assert ann.view(room)["p2"]["s"] == "in"
    bob.close()
    back = sim.connect(session=bob.session)  # Bob is back within his grace period
    assert back.seats == {} and back.of_type("s")
    sim.advance(2)
    view = ann.view(room)
    assert view["p2"]["s"] == "lost" and view["p1"]["s"] == "in"
    match = sim.match(room)
    assert match.state == "playing"
    lines = [line for m in ann.of_type("d") for line in m.get("l", [])]
    assert "Cid loses the game (concession, CR 104.3a)." in lines


def test_public_spectators_see_no_hidden_card() -> None:
    sim = Sim()
    (ann, bob), room = sim.table({"seats": 2, "seed": 9})
    eve = sim.connect("Eve", address="10.0.0.9")
    eve.ok({"t": "spectate", "r": room})
    sim.play({0: ann, 1: bob}, max_actions=40)
    for m in eve.messages:
        for key, value in (m.get("v") if m["t"] == "s" else {}).items():
            assert not (isinstance(key, int) and value.get("z") == "h"), "a hand card"
        for op in m.get("o") or []:
            assert not (op[0] == "s" and isinstance(op[1], int) and op[2].get("z") == "h")
    assert assert_converged(sim, [ann, bob, eve]) == 3


def test_a_player_may_not_watch_an_all_seeing_room_from_their_address() -> None:
    sim = Sim()
    (_ann, _bob), room = sim.table({"seats": 2, "seed": 9, "spectators": "all"})
    ghost = sim.connect("Ghost")  # the same address as the players
    assert ghost.call({"t": "spectate", "r": room})["code"] == "seated_player"
    eve = sim.connect("Eve", address="10.0.0.9")
    # Another address is not enough: the creator's invitation is (see tests/rooms/test_abuse.py).
    eve.ok({"t": "spectate", "r": room, "token": sim.match(room).settings.invite})
    hands = [v for k, v in eve.view(room).items() if isinstance(k, int) and v["z"] == "h"]
    assert len(hands) == 14
