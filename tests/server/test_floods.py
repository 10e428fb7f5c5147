"""Floods over real sockets (issue 27): a client looping connect, hello, close from one address
must not fill the session table, and one looping create, bot, bot, leave must not fill the
room table; an honest client is answered while either goes on."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from arbiter.server.rooms.context import HubSettings
from arbiter.server.rooms.sessions import SessionSettings

from .harness import Client, start_server


async def test_an_honest_hello_is_answered_while_one_address_floods_the_session_table(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    hub = HubSettings(sessions=SessionSettings(max_sessions=200))  # 100 lingering an address
    server = await start_server(nursery, tmp_path, hub=hub)
    honest: list[Client] = []
    for i in range(600):  # three times the table, from 127.0.0.1
        c = await Client.open(nursery, server, f"Flood {i}")
        await c.close()
        if i % 100 == 99:  # an honest newcomer, in the middle of it, is welcomed
            honest.append(await Client.open(nursery, server, f"Honest {i}"))
    assert all(c.session in server.hub.sessions for c in honest)
    assert len(server.hub.sessions) <= 100 + len(honest)
