"""Bad input, case by case: each gets an error with a stable code for its sender alone, and
changes nothing; a client that keeps sending garbage, or sends too fast, is closed with the
policy code 1008."""

from __future__ import annotations

from typing import Any

import msgpack
import trio

from arbiter.server.rooms.peers import Limits

from .harness import Client, create_room, play, settle, start_server, two_player_game


async def test_each_bad_request_gets_its_own_error_and_changes_nothing(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    ann, bob, room = await two_player_game(nursery, server)
    eve = await Client.open(nursery, server, "Eve")
    await eve.ok({"t": "spectate", "r": room})
    table = server.hub.matches[room].table
    assert table is not None
    before = table.state_hash()
    frames_before = {c.label: len(c.frames) for c in (ann, bob, eve)}
    [(_, decision)] = [p for c in (ann, bob) for p in c.pending()]
    decider, other = (ann, bob) if decision["player"] == 0 else (bob, ann)
    serial = decision["serial"]
    cases: list[tuple[Client, dict[str, Any], str]] = [
        (decider, {"t": "act", "r": room, "s": serial - 1, "a": 0}, "stale_decision"),
        (decider, {"t": "act", "r": room, "s": serial, "a": 99}, "unknown_action"),
        (other, {"t": "act", "r": room, "s": serial, "a": 0}, "not_your_decision"),
        (eve, {"t": "act", "r": room, "s": serial, "a": 0}, "not_seated"),
        (eve, {"t": "concede", "r": room}, "not_seated"),
        (eve, {"t": "draw", "r": room, "op": "propose"}, "not_seated"),
        (decider, {"t": "draw", "r": room, "op": "accept"}, "draw_offer"),
        (decider, {"t": "act", "r": "77", "s": serial, "a": 0}, "unknown_room"),
        (decider, {"t": "act", "r": f"{room}.1.5", "s": serial, "a": 0}, "unknown_room"),
        (decider, {"t": "concede", "r": room, "g": f"{room}.1.5"}, "room_closed"),
        (eve, {"t": "join", "r": room}, "room_full"),
        (eve, {"t": "join", "r": room, "token": "not-a-seat-token"}, "bad_token"),
        (eve, {"t": "judge", "r": room, "seat": 0}, "not_judge"),
        (decider, {"t": "deck", "r": room, "ready": "quick-red"}, "wrong_state"),
        (decider, {"t": "resync", "r": room, "e": 1, "q": 10**9}, None),  # a snapshot
        (decider, {"t": "hello", "v": 1, "name": "Again"}, "already_hello"),
        (decider, {"t": "create", "config": {"variant": "grand_melee"}}, "bad_config"),
        (decider, {"t": "create", "config": {"seats": 2, "seed": 1}}, None),
    ]
    for client, msg, code in cases:
        reply = await client.call(msg)
        if code is None:
            assert reply["t"] != "error", (msg, reply)
        else:
            assert reply["t"] == "error" and reply["code"] == code, (msg, reply)
            assert reply["msg"]
    assert table.state_hash() == before
    # Nobody but the sender heard about any of it (Eve got only her replies).
    assert len(other.frames) - frames_before[other.label] == sum(
        1 for c, _, _ in cases if c is other)
    assert server.hub.stats.internal_errors == 0
    assert await play({0: ann, 1: bob}, max_actions=4) == 4


async def test_frames_that_are_not_requests(nursery: trio.Nursery, tmp_path: object,
                                            autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    raw = await Client.open(nursery, server, hello=False)
    await raw.ws.send(msgpack.packb({"t": "rooms", "i": 1}))
    await raw.ws.send("a text frame")
    await raw.ws.send(b"\x93\x01")
    await raw.ws.send(msgpack.packb({"t": "hello", "i": 2, "v": [7, 8]}))
    await settle(lambda: raw.closed)
    codes = [m["code"] for m in raw.of_type("error")]
    assert codes == ["hello_first", "bad_frame", "bad_frame", "unsupported_version"]
    assert raw.of_type("error")[0]["i"] == 1 and raw.of_type("error")[3]["i"] == 2
    assert raw.close_code == 1002  # no version in common: a protocol error


async def test_too_large_frames(nursery: trio.Nursery, tmp_path: object,
                                autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path, max_ws_frame=8192,  # type: ignore[arg-type]
                                limits=Limits(rate=1e9, burst=10**9, max_frame=1024))
    c = await Client.open(nursery, server, "Ann")
    i = await c.send({"t": "chat", "r": "1", "text": "x" * 1000, "pad": "y" * 500})
    await c.ws.send(msgpack.packb({"t": "chat", "text": "x" * 1100}))  # no id at all
    await c.ws.send(msgpack.packb({"t": "chat", "i": 77}) + b"\xc1")  # broken after the id
    await settle(lambda: len(c.of_type("error")) == 3)
    first, second, third = c.of_type("error")
    # The frame is not decoded, but its id is read so that a client waiting on it hears.
    assert first["code"] == "too_large" and first["i"] == i
    assert second["code"] == "too_large" and second["i"] is None
    assert third["code"] == "bad_frame" and third["i"] == 77
    assert not c.closed
    await c.ws.send(b"\x00" * 10_000)  # beyond the transport's limit: the connection goes
    await settle(lambda: c.closed)
    assert c.close_code == 1009


async def test_a_client_that_keeps_sending_garbage_is_closed(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path,  # type: ignore[arg-type]
                                limits=Limits(rate=1e9, burst=10**9, garbage=5))
    ann, bob, _ = await two_player_game(nursery, server)
    mallory = await Client.open(nursery, server, "Mallory")
    for _ in range(10):
        if mallory.closed:
            break
        await mallory.ws.send(b"\xc1 not msgpack")
        await settle()
    assert mallory.closed and mallory.close_code == 1008
    assert len(mallory.of_type("error")) == 6  # five forgiven, the sixth closes
    assert server.hub.stats.policy_closes == 1
    assert await play({0: ann, 1: bob}, max_actions=3) == 3


async def test_a_client_over_its_rate_limit_is_closed(nursery: trio.Nursery, tmp_path: object,
                                                      autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path,  # type: ignore[arg-type]
                                limits=Limits(rate=2.0, burst=5))
    c = await Client.open(nursery, server, "Ann")  # hello is message 1
    for _ in range(4):
        assert (await c.call({"t": "rooms"}))["t"] == "rooms"
    await trio.sleep(1)  # (mock time) two more messages' worth
    for _ in range(2):
        assert (await c.call({"t": "rooms"}))["t"] == "rooms"
    await c.send({"t": "rooms"})
    await settle(lambda: c.closed)
    assert c.close_code == 1008
    assert server.hub.stats.errors["rate_limited"] == 1


async def test_limits_on_decks_and_on_rooms_per_session(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    c = await Client.open(nursery, server, "Ann")
    room = await create_room(c, {"seats": 2})
    await c.join(room)
    huge = await c.call({"t": "deck", "r": room, "text": "250 Forest\n250 Mountain"})
    assert huge["code"] == "bad_deck" and "at most 250 cards" in huge["msg"]
    bad = await c.call({"t": "deck", "r": room, "text": "4 Lightning Bolt\n2 Nonsense Card"})
    assert bad["code"] == "bad_deck" and "line 2" in bad["msg"]
    # A count too long for Python's int() is a bad deck line, never an internal error.
    nines = await c.call({"t": "deck", "r": room, "text": "9" * 4400 + " Forest"})
    assert nines["code"] == "bad_deck" and "line 1: the count must be" in nines["msg"]
    nines = await c.call({"t": "create", "config": {"seats": [
        {"deck": {"text": "9" * 4400 + " Forest"}}, {}]}})
    assert nines["code"] == "bad_deck"
    assert server.hub.stats.internal_errors == 0
    for _ in range(4):
        await create_room(c, {"seats": 2})
    refused = await c.call({"t": "create", "config": {"seats": 2}})
    assert refused["code"] == "limit"  # five rooms of hers are waiting for players
