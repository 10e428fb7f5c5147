"""Sessions are kept while they are in use and forgotten once they have been idle (no
connection, no seat, no room followed) for the session TTL, so a server that runs for months
does not keep every name that ever said hello. A session that never mattered (it only said
hello) is not written to the log and is forgotten sooner, and the number of sessions is
bounded. A client that comes back with a forgotten token is told ``unknown_session``; the SDK
then starts a new session under its name."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from arbiter.clients.sdk import Client as SdkClient
from arbiter.server.rooms.context import HubSettings
from arbiter.server.rooms.sessions import SessionSettings

from ..clients.helpers import url
from .harness import Client, create_room, settle, start_server, two_player_game

TTL = 3600.0


def _settings(*, fresh_ttl: float = TTL, max_sessions: int = 1000, grace: float = 60.0
              ) -> HubSettings:
    return HubSettings(allow_scenarios=True, grace=grace, sessions=SessionSettings(
        ttl=TTL, fresh_ttl=fresh_ttl, max_sessions=max_sessions))


async def test_an_idle_session_is_forgotten_after_the_ttl_and_its_token_refused(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    server = await start_server(nursery, tmp_path, hub=_settings(fresh_ttl=60))
    ann = await Client.open(nursery, server, "Ann")
    token = ann.session
    assert token is not None
    await create_room(ann, {"seats": 2})  # her session matters now: it is in the log
    await ann.close()
    await settle()
    assert token in server.store.sessions()

    mock_clock.jump(TTL * 0.75)
    await settle()
    back = await Client.open(nursery, server, session=token)  # still known: resumes
    assert back.session == token
    await back.close()
    await settle()

    # The TTL counts from when the session last became idle, not from when it was created.
    mock_clock.jump(TTL * 0.75)
    await settle()
    assert token in server.hub.sessions
    mock_clock.jump(TTL * 0.5)
    await settle()
    assert token not in server.hub.sessions
    assert server.hub.sessions.expired == 1
    assert token not in server.store.sessions(), "the log forgets it too"

    late = await Client.open(nursery, server, "Late", hello=False)
    reply = await late.call({"t": "hello", "v": [1], "session": token})
    assert reply["t"] == "error" and reply["code"] == "unknown_session"
    # A connected session is never idle, however long it stays.
    mock_clock.jump(TTL * 3)
    await settle()
    assert late.session is None
    assert len(server.hub.sessions) == 0
    fresh = await Client.open(nursery, server, "Fresh")
    mock_clock.jump(TTL * 3)
    await settle()
    assert fresh.session in server.hub.sessions


async def test_a_session_that_only_said_hello_costs_no_log_row_and_goes_soon(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    server = await start_server(nursery, tmp_path, hub=_settings(fresh_ttl=60,
                                                                 max_sessions=3))
    clients = [await Client.open(nursery, server, f"Idle {n}") for n in range(3)]
    full = await Client.open(nursery, server, "Fourth", hello=False)
    reply = await full.call({"t": "hello", "v": [1], "name": "Fourth"})
    assert reply["t"] == "error" and reply["code"] == "limit", "at most max_sessions"
    assert not full.closed  # a full server is no fault of the client's: it may try again
    for c in clients:
        await c.close()
    await settle()
    assert server.store.sessions() == {}, "nothing was written for them"
    mock_clock.jump(59)
    await settle()
    assert len(server.hub.sessions) == 3
    mock_clock.jump(2)
    await settle()
    assert len(server.hub.sessions) == 0 and server.hub.sessions.expired == 3
    reply = await full.call({"t": "hello", "v": [1], "name": "Fourth"})
    assert reply["t"] == "welcome"


async def test_a_session_holding_a_seat_outlives_the_ttl(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    # A grace period longer than the TTL: Ann's seat keeps her session alive while she is away.
    server = await start_server(nursery, tmp_path, hub=_settings(grace=TTL * 2))
    ann, bob, room = await two_player_game(nursery, server, seed=5, actions=10)
    token = ann.session
    await ann.close()
    await settle()
    mock_clock.jump(TTL * 1.5)
    await settle()
    assert token in server.hub.sessions
    back = await Client.open(nursery, server, session=token)
    assert back.seats[room][0] == 0, "her seat came back with her session"

    # Once the match is over and she has gone, the session is idle and its TTL starts.
    await bob.call({"t": "concede", "r": room})
    await settle()
    assert server.hub.matches[room].state == "finished"
    await back.close()
    await settle()
    mock_clock.jump(TTL + 1)
    await settle()
    assert token in server.hub.sessions, "Bob is still in the finished room, so it stays"
    await bob.close()
    await settle()
    mock_clock.jump(TTL + 1)
    await settle()
    assert token not in server.hub.sessions and bob.session not in server.hub.sessions


async def test_the_sdk_starts_a_new_session_when_the_server_forgot_its_own(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path, hub=_settings())
    client = SdkClient(url(server), "Ann", session="a-token-this-server-never-gave")
    await nursery.start(client.run)
    assert client.connected and client.name == "Ann"
    assert client.session is not None and client.session in server.hub.sessions
    assert client.session != "a-token-this-server-never-gave"
    await client.close()
