"""Seats are held by tokens, not connections: a player who drops comes back with their session
(or their seat token) and carries on, receiving the deltas they missed when the history still
has them and a snapshot when it does not. A seat left empty past the grace period is conceded
for its player (CR 104.3a) so the table never waits on someone who has gone."""

from __future__ import annotations

import trio

from arbiter.protocol import decode
from arbiter.server.rooms.context import HubSettings
from arbiter.server.rules.view import SPECTATOR

from .checks import assert_converged
from .harness import Client, create_room, play, settle, start_server


async def _game(nursery: trio.Nursery, server: object, seed: int = 12
                ) -> tuple[Client, Client, Client, str]:
    ann = await Client.open(nursery, server, "Ann")  # type: ignore[arg-type]
    bob = await Client.open(nursery, server, "Bob")  # type: ignore[arg-type]
    eve = await Client.open(nursery, server, "Eve")  # type: ignore[arg-type]
    room = await create_room(ann, {"seats": 2, "seed": seed})
    await eve.ok({"t": "spectate", "r": room})
    await ann.join(room, deck="quick-red")
    await bob.join(room, deck="quick-green")
    await play({0: ann, 1: bob}, max_actions=20)
    return ann, bob, eve, room


async def test_a_returning_spectator_gets_the_deltas_it_missed_or_a_snapshot(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path,  # type: ignore[arg-type]
                                hub=HubSettings(history=16, allow_scenarios=True))
    ann, bob, eve, room = await _game(nursery, server)
    where = eve.tracker.positions()
    await eve.close()
    await play({0: ann, 1: bob}, max_actions=5)
    eve2 = await Client.open(nursery, server, session=eve.session, resume=where)
    await settle()
    assert not eve2.of_type("s")  # no snapshot: just what was missed
    seq = server.hub.matches[room].rooms[room].classes[SPECTATOR].seq
    assert seq > where[room][1]
    assert [m["q"] for m in eve2.of_type("d")] == list(range(where[room][1] + 1, seq + 1))
    # Without a snapshot to start from, the tracker continues from the old view.
    eve2.tracker = eve.tracker
    for m in eve2.messages:
        eve2.tracker.feed(decode(m))
    assert assert_converged(server, [eve2]) == 1

    where = eve2.tracker.positions()
    await eve2.close()
    await play({0: ann, 1: bob}, max_actions=40)  # more than the history keeps
    eve3 = await Client.open(nursery, server, session=eve.session, resume=where)
    await settle()
    assert eve3.of_type("s") and not eve3.of_type("d")
    assert assert_converged(server, [ann, bob, eve3]) == 3


async def test_a_player_who_drops_comes_back_and_plays_on(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    ann, bob, _eve, room = await _game(nursery, server)
    seat_token = bob.seats[room][1]
    await bob.close()
    assert server.hub.matches[room].seats[1].away_deadline is not None
    # Anyone holding the seat token gets the seat back, even in a new session.
    bob2 = await Client.open(nursery, server, "Bob on a phone")
    reply = await bob2.ok({"t": "join", "r": room, "token": seat_token})
    assert reply["seat"] == 1 and reply["token"] == seat_token
    assert server.hub.matches[room].seats[1].away_deadline is None
    await settle()
    assert bob2.of_type("s")
    n = await play({0: ann, 1: bob2}, max_actions=30)
    assert n == 30
    assert assert_converged(server, [ann, bob2]) == 2


async def test_an_empty_seat_is_conceded_after_the_grace_period(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    ann, bob, eve, room = await _game(nursery, server)
    session = bob.session
    await bob.close()
    await trio.sleep(40)
    bob2 = await Client.open(nursery, server, session=session)  # back within the grace period
    assert bob2.seats[room][0] == 1
    await trio.sleep(59)
    await bob2.close()
    await trio.sleep(59.5)
    assert eve.tracker.rooms[room].view["p1"]["s"] == "in"  # still held
    await trio.sleep(1)  # 60 s without a connection
    await settle()
    [result] = eve.of_type("result")
    [out] = [o for o in result["res"]["outcomes"] if o["player"] == 1]
    assert out["reason"] == "concession" and out["rule"] == "104.3a"
    assert result["res"]["winners"] == [0]
    assert server.hub.matches[room].state == "finished"
    assert ann.of_type("result") == [result]


async def test_seats_in_a_waiting_room(nursery: trio.Nursery, tmp_path: object,
                                       autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    ann = await Client.open(nursery, server, "Ann")
    bob = await Client.open(nursery, server, "Bob")
    room = await create_room(ann, {"seats": 3, "variant": "free_for_all"})
    assert await ann.join(room) == 0
    assert await bob.join(room, seat=2) == 2
    refused = await bob.call({"t": "join", "r": room, "seat": 1})
    assert refused["code"] == "already_seated"
    await bob.ok({"t": "leave", "r": room})  # leaving a waiting room frees the seat
    await settle()
    update = ann.of_type("room")[-1]
    assert [s["n"] for s in update["seats"]] == ["Ann", None, None]
    bob_again = await bob.join(room)
    assert bob_again == 1
    await bob.close()
    await trio.sleep(61)  # a seat left empty in a waiting room is given up after the grace
    await settle()
    assert [s["n"] for s in ann.of_type("room")[-1]["seats"]] == ["Ann", None, None]
    await ann.close()
    await trio.sleep(121)  # Ann's seat is given up, then the room nobody is in goes away
    assert room not in server.hub.matches
    listing = await (await Client.open(nursery, server, "Cid")).ok({"t": "rooms"})
    assert listing["rooms"] == []
