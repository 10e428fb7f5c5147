"""Sessions are kept while they are in use and forgotten once they have been idle (no
connection, no seat, no room followed) for the session TTL, so a server that runs for months
does not keep every name that ever said hello. A client that comes back with a forgotten token
is told ``unknown_session``; the SDK then starts a new session under its name."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from arbiter.clients.sdk import Client as SdkClient
from arbiter.server.rooms.hub import HubSettings

from ..clients.helpers import url
from .harness import Client, create_room, play, settle, start_server

TTL = 3600.0


def _settings(**kw: float) -> HubSettings:
    return HubSettings(allow_scenarios=True, session_ttl=TTL, **kw)  # type: ignore[arg-type]


async def test_an_idle_session_is_forgotten_after_the_ttl_and_its_token_refused(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    server = await start_server(nursery, tmp_path, hub=_settings())
    ann = await Client.open(nursery, server, "Ann")
    token = ann.session
    assert token is not None
    await ann.close()
    await settle()

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
    assert server.metrics.sessions_expired == 1
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


async def test_a_session_holding_a_seat_outlives_the_ttl(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    # A grace period longer than the TTL: Ann's seat keeps her session alive while she is away.
    server = await start_server(nursery, tmp_path, hub=_settings(grace=TTL * 2))
    ann = await Client.open(nursery, server, "Ann")
    bob = await Client.open(nursery, server, "Bob")
    room = await create_room(ann, {"seats": 2, "seed": 5})
    await ann.join(room, deck="quick-red")
    await bob.join(room, deck="quick-green")
    await play({0: ann, 1: bob}, max_actions=10)
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
