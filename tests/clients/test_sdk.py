"""The SDK against a real server on 127.0.0.1: its replica equals the engine's view after every
delta of a whole game; it finds a corrupted or gapped replica and resyncs by itself; it
reconnects with its session and resumes from the server's history without a snapshot (and with
one when the history no longer reaches back); it refuses nothing silently."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from arbiter.bots.strategies import heuristic_strategy
from arbiter.clients.sdk import Backoff, Client, ConnectError, RequestError, events
from arbiter.clients.sdk.connection import Connection
from arbiter.protocol import pack, parse_request, to_wire
from arbiter.protocol.codec import unpack_client
from arbiter.protocol.errors import Refusal
from arbiter.server.net.server import ArbiterServer
from arbiter.server.rooms.context import HubSettings
from arbiter.server.rules.cards.catalog import cards

from ..server.harness import server_config, settle, start_server
from .helpers import assert_replica_matches, sdk_client, url


async def lockstep(players: list[Client], everyone: list[Client], rng: random.Random,
                   max_actions: int = 5000, check: bool = True,
                   answered: list[int] | None = None) -> int:
    """Let the players' pending decisions be answered one at a time by the heuristic bot,
    checking every replica against the engine after each answer's deltas arrived."""
    server = SERVER[0]
    n = 0
    while n < max_actions:
        await settle()
        if check:
            for c in everyone:
                assert_replica_matches(server, c)
        pending = [(c, r, d) for c in players for r, d in c.decisions()]
        if not pending:
            return n
        [(client, room, decision)] = pending
        action = heuristic_strategy(client.view(room), decision, rng, cards())
        reply = await client.act(room, decision["serial"], action)
        assert reply.TYPE in ("d", "ok"), reply
        if answered is not None:
            answered.append(decision["serial"])
        n += 1
    return n


SERVER: list = []


@pytest.fixture(autouse=True)
def _forget_server() -> None:
    SERVER.clear()


async def two_players(nursery: trio.Nursery, tmp_path: Path, **options: object
                      ) -> tuple[Client, Client, Client, str]:
    hub = options.pop("hub", HubSettings(allow_scenarios=True))
    server = await start_server(nursery, tmp_path, hub=hub)
    SERVER.append(server)
    ann = await sdk_client(nursery, server, "Ann")
    bob = await sdk_client(nursery, server, "Bob", **options)
    eve = await sdk_client(nursery, server, "Eve", **options)
    room = await ann.create({"seats": 2, "seed": 3, "name": "SDK"})
    await eve.spectate(room)
    assert await ann.join(room, deck="gruul-stompy") == 0
    assert await bob.join(room, deck="azorius-skies") == 1
    await settle()
    return ann, bob, eve, room


async def test_the_replica_equals_the_engine_view_after_every_delta_of_a_whole_game(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    ann, bob, eve, room = await two_players(nursery, tmp_path)
    everyone = [ann, bob, eve]
    received = {c.name: c.subscribe() for c in everyone}
    offered: list[int] = []
    answered: list[int] = []
    n = await lockstep([ann, bob], everyone, random.Random(7), answered=answered)
    assert n > 50 and len(answered) == n
    for c in everyone:
        assert c.match_over(room)
        [result] = c.results[room]
        assert result.over and len(result.result["winners"]) == 1
        assert c.stats.desyncs == 0 and c.stats.resyncs == 0
        assert c.stats.snapshots == 1  # the one on joining: everything else came as deltas
        assert c.tracker.rooms[room].seq == c.stats.deltas > n // 2
        deltas = []
        while True:
            try:
                event = received[c.name].receive_nowait()
            except trio.WouldBlock:
                break
            if isinstance(event, events.Delta):
                deltas.append(event.seq)
            elif isinstance(event, events.Actions):
                offered.append(event.decision["serial"])
        assert deltas == list(range(deltas[0], deltas[0] + len(deltas)))
    # Every decision was announced to its player exactly once, as an event (the first one
    # came with the game's start, before we subscribed).
    assert sorted(offered) == sorted(answered[1:])
    # Legal actions reach only the deciding player; the spectator never had any.
    assert not eve.decisions()


async def test_a_corrupted_or_gapped_replica_is_found_and_resynced(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    ann, bob, eve, room = await two_players(nursery, tmp_path)
    everyone = [ann, bob, eve]
    await lockstep([ann, bob], everyone, random.Random(1), max_actions=10)
    # A cosmic ray flips Eve's copy of Ann's life: the next checksum cannot match.
    rv = eve.tracker.rooms[room]
    rv.state.set("p0", {**rv.view["p0"], "l": 99})
    # And Bob's replica believes it is one delta behind: the next delta leaves a gap.
    bob.tracker.rooms[room].seq -= 1
    await lockstep([ann, bob], everyone, random.Random(1), max_actions=3, check=False)
    await settle()
    for c in (eve, bob):
        assert c.stats.desyncs == 1 and c.stats.resyncs == 1
        assert c.stats.snapshots == 2
        assert assert_replica_matches(SERVER[0], c) == 1
    assert ann.stats.desyncs == 0
    await lockstep([ann, bob], everyone, random.Random(1), max_actions=40)


async def test_a_player_who_drops_mid_game_resumes_from_the_history_without_a_snapshot(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    ann, bob, eve, room = await two_players(nursery, tmp_path)
    everyone = [ann, bob, eve]
    rng = random.Random(2)
    await lockstep([ann, bob], everyone, rng, max_actions=30)
    # Play on until Ann must decide, so she can act while Bob is away.
    while not ann.decisions():
        await lockstep([ann, bob], everyone, rng, max_actions=1)
    seq = bob.tracker.rooms[room].seq
    ws = bob.connection
    assert ws is not None
    await ws.aclose()  # the connection drops; Bob did not ask to leave
    await settle(lambda: not bob.connected)
    missed = await lockstep([ann], [ann, eve], rng, max_actions=20)
    assert missed >= 1
    server = SERVER[0]
    behind = server.hub.matches[room].rooms[room].classes[1].seq
    assert behind > seq  # Bob's class moved on without him

    mock_clock.jump(1.0)  # past the backoff: Bob reconnects with his session
    await settle(lambda: bob.connected)
    await settle()
    assert bob.stats.disconnects == 1 and bob.stats.reconnects == 1
    assert bob.stats.snapshots == 1, "resumed from the history, not a new snapshot"
    assert bob.tracker.rooms[room].seq == behind
    assert bob.stats.desyncs == 0
    assert bob.seats[room].seat == 1
    assert_replica_matches(server, bob)
    n = await lockstep([ann, bob], everyone, rng)
    assert n > 0 and all(c.match_over(room) for c in everyone)


async def test_a_spectator_away_longer_than_the_history_gets_a_snapshot(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    ann, bob, eve, _ = await two_players(
        nursery, tmp_path, hub=HubSettings(allow_scenarios=True, history=4))
    rng = random.Random(4)
    await lockstep([ann, bob], [ann, bob, eve], rng, max_actions=10)
    ws = eve.connection
    assert ws is not None
    await ws.aclose()
    await settle(lambda: not eve.connected)
    assert await lockstep([ann, bob], [ann, bob], rng, max_actions=30) == 30
    mock_clock.jump(1.0)
    await settle(lambda: eve.connected)
    await settle()
    assert eve.stats.reconnects == 1 and eve.stats.snapshots == 2
    assert eve.stats.desyncs == 0
    assert_replica_matches(SERVER[0], eve)


async def test_refusals_raise_and_a_dead_address_fails_to_connect(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    ann, bob, eve, room = await two_players(nursery, tmp_path)
    with pytest.raises(RequestError) as refused:
        await eve.join(room)
    assert refused.value.code == "room_full"
    decision = next(d for c in (ann, bob) for _, d in c.decisions())
    other = bob if decision["player"] == 0 else ann
    with pytest.raises(RequestError) as refused:
        await other.act(room, decision["serial"], decision["actions"][0]["id"])
    assert refused.value.code in ("not_your_decision", "stale_decision")
    with pytest.raises(ConnectError):
        await nursery.start(Client("ws://127.0.0.1:9/", "Nobody", reconnect=False,
                                   open_timeout=5, backoff=Backoff()).run)
    assert url(SERVER[0]).startswith("ws://127.0.0.1:")


async def test_a_draw_offered_and_accepted_ends_the_game_in_a_draw_and_chat_reaches_everyone(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    ann, bob, eve, room = await two_players(nursery, tmp_path)
    heard = eve.subscribe()
    await lockstep([ann, bob], [ann, bob, eve], random.Random(3), max_actions=6)
    await ann.chat(room, "a draw?")
    await ann.draw(room, "propose")
    await settle()
    assert eve.view(room)["d"][0] == 0  # everyone sees the offer (CR 104.4i)
    with pytest.raises(RequestError):
        await eve.draw(room, "accept")  # a spectator has no say
    await bob.draw(room, "accept")
    await settle()
    for c in (ann, bob, eve):
        [result] = c.results[room]
        assert result.result["draw"] and not result.result["winners"] and result.over
        assert {o["outcome"] for o in result.result["outcomes"]} == {"drew"}
    got = []
    while True:
        try:
            got.append(heard.receive_nowait())
        except trio.WouldBlock:
            break
    [chat] = [e for e in got if isinstance(e, events.ChatMessage)]
    assert (chat.room, chat.sender, chat.seat, chat.text) == (room, "Ann", 0, "a draw?")


async def test_requests_and_bots_waiting_through_failed_reconnects_go_on_when_it_is_back(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    """The server goes away and the SDK's first attempts to reconnect fail (nothing listens):
    whoever waits for the connection (a request, a bot after a lost answer) must be woken by the
    attempt that succeeds. Once, a failed attempt replaced the event they waited on, so after
    a server restart the bots reconnected and never played again."""
    scope = trio.CancelScope()

    async def serve(port: int, task_status: trio.TaskStatus[ArbiterServer]) -> None:
        with scope:
            config = server_config(tmp_path, port=port)
            await ArbiterServer(config).run(task_status=task_status)

    server: ArbiterServer = await nursery.start(serve, 0)
    port = server.port
    assert port is not None
    ann = await sdk_client(nursery, server, "Ann")
    room = await ann.create({"seats": 2, "seed": 3})
    await ann.join(room, deck="quick-red")
    scope.cancel()  # the server is gone, and its connections with it
    await settle(lambda: not ann.connected)
    woken = trio.Event()

    async def waits() -> None:
        await ann.wait_connected()
        woken.set()

    nursery.start_soon(waits)
    attempts = ann.stats.reconnects
    await trio.sleep(2.0)  # several backoff periods: every attempt is refused
    assert ann.stats.reconnects > attempts + 2 and not woken.is_set()
    scope = trio.CancelScope()
    again: ArbiterServer = await nursery.start(serve, port)  # the same log: a restart
    with trio.fail_after(30):
        await woken.wait()
    assert ann.connected and ann.seats[room].seat == 0
    assert [r["r"] for r in await ann.list_rooms()] == [room]
    scope.cancel()
    assert again.port == port


async def test_a_match_room_the_server_closes_is_over_for_the_client(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    # A waiting room that does not fill in time is closed (room_closed, with no request): for
    # the SDK that match is over and its seat gone, so a bot waiting in it stops.
    server = await start_server(nursery, tmp_path,
                                hub=HubSettings(allow_scenarios=True, waiting_ttl=30))
    ann = await sdk_client(nursery, server, "Ann")
    room = await ann.create({"seats": 2})
    await ann.join(room, deck="quick-red")
    assert not ann.match_over(room) and room in ann.seats
    with trio.fail_after(60):
        while not ann.match_over(room):
            await ann.wait_changed()
    assert room not in ann.seats


async def test_a_join_whose_answer_is_lost_with_the_connection_is_found_taken_on_reconnect(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    # A node killed after committing a join but before its answer left: the client cannot
    # know whether it holds the seat. The welcome on its next connection lists its session's
    # seats, and join() returns the seat from there instead of failing (or taking another).
    server = await start_server(nursery, tmp_path)
    ann = await sdk_client(nursery, server, "Ann")
    bob = await sdk_client(nursery, server, "Bob")
    room = await ann.create({"seats": 2, "name": "Lost answer"})
    ws = bob.connection
    assert ws is not None
    send, on_frame = ws.send, bob._on_frame

    async def send_then_drop(message: bytes) -> None:
        await send(message)
        if unpack_client(message).get("t") == "join":
            bob._on_frame = lambda frame: None  # type: ignore[method-assign]  # answer lost
            nursery.start_soon(ws.aclose)  # after the join: the server reads it first

    ws.send = send_then_drop  # type: ignore[method-assign]

    async def reconnect_when_dropped() -> None:
        await settle(lambda: not bob.connected)
        bob._on_frame = on_frame  # type: ignore[method-assign]
        mock_clock.jump(1.0)  # past the backoff

    nursery.start_soon(reconnect_when_dropped)
    assert await bob.join(room, 1) == 1
    assert bob.stats.reconnects == 1 and bob.seats[room].seat == 1
    seat = server.hub.matches[room].seating.seats[1]
    assert seat.session is not None and seat.session.token == bob.session
    assert await ann.join(room, 0, deck="gruul-stompy") == 0  # the room fills as it should
    with pytest.raises(RequestError) as taken:
        await ann.join(room, 1)
    assert taken.value.code == "already_seated"


async def test_every_request_the_sdk_sends_is_read_back_by_the_server_as_it_was_sent(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Requests leave the SDK through protocol/requests.py's typed path: each frame is a
    request the server's strict parser takes, and encoding what it read gives the same map (no
    key it would drop, no nil where a field should be left out)."""
    sent: list[dict[Any, Any]] = []
    send = Connection.send

    async def recording(self: Connection, message: Any, *args: Any) -> None:
        sent.append(unpack_client(message))
        await send(self, message, *args)

    monkeypatch.setattr(Connection, "send", recording)
    ann, bob, eve, room = await two_players(nursery, tmp_path)
    await ann.list_rooms()
    await ann.catalog()
    await ann.chat(room, "hello")
    await ann.draw(room, "propose", room)
    await ann.draw(room, "withdraw")
    await lockstep([ann, bob], [ann, bob, eve], random.Random(2), max_actions=2)
    await bob.resync(room)
    ws = bob.connection
    assert ws is not None
    await ws.aclose()  # Bob comes back with his session and where his view stands
    with trio.fail_after(30):
        while bob.connection is None or bob.connection is ws:
            await bob.wait_changed()
    await ann.concede(room, room)
    await eve.leave(room)
    kinds = {m["t"] for m in sent}
    assert kinds >= {"hello", "rooms", "catalog", "create", "join", "deck", "spectate", "chat",
                     "draw", "act", "resync", "concede", "leave"}, kinds
    assert any("session" in m and "resume" in m for m in sent if m["t"] == "hello")
    for message in sent:
        assert to_wire(parse_request(message)) == message


async def test_a_server_frame_naming_no_room_is_refused_before_the_replica_takes_it(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    """A room id outside the grammar (docs/protocol.md, section 7) makes the frame malformed:
    the client refuses it (and would connect again) instead of following a room it cannot
    place in any match."""
    _, _, eve, room = await two_players(nursery, tmp_path)
    rooms = set(eve.tracker.rooms)
    for bad in (f"{room}.1", "", "x", f"0{room}"):
        frame = pack({"t": "s", "r": bad, "e": 1, "q": 0, "c": 0, "v": {}, "g": 1, "l": []})
        with pytest.raises(Refusal, match="names no room"):
            eve._on_frame(frame)
    assert set(eve.tracker.rooms) == rooms


async def test_the_creator_keeps_the_invitation_of_an_all_seeing_room(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)
    ann = await sdk_client(nursery, server, "Ann")
    eve = await sdk_client(nursery, server, "Eve")
    room = await ann.create({"seats": 2, "spectators": "all"})
    assert len(ann.invites[room]) >= 16
    assert await ann.create({"seats": 2}) not in ann.invites
    with pytest.raises(RequestError) as refused:
        await eve.spectate(room)
    assert refused.value.code == "not_invited"
    await eve.spectate(room, invite=ann.invites[room])
    assert room in eve.spectating and eve.invites[room] == ann.invites[room]
    await ann.spectate(room)  # the creator's own invitation goes by itself
    assert room in ann.spectating
