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


async def test_bot_filled_rooms_from_one_address_stop_at_its_cap(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    # The clock stands still: the bots' games do not end (and free their rooms) meanwhile.
    # Loopback addresses stand for remote ones here: counted as the cap counts those.
    server = await start_server(nursery, tmp_path,
                                hub=HubSettings(max_rooms=100, limit_local_addresses=True))
    squat = await Client.open(nursery, server, "Squat")
    answers = []
    for _ in range(30):  # create, bot, bot, leave: each room starts playing at once
        reply = await squat.call({"t": "create", "config": {"seats": 2}})
        answers.append(reply["t"] if reply["t"] == "created" else reply["code"])
        if reply["t"] == "created":
            for _ in range(2):
                await squat.ok({"t": "bot", "r": reply["r"]})
            await squat.ok({"t": "leave", "r": reply["r"]})
    # Five for the session; other sessions of 127.0.0.1 share the address's twenty.
    assert answers == ["created"] * 5 + ["limit"] * 25
    for i in range(3):
        more = await Client.open(nursery, server, f"More {i}")
        for _ in range(5):
            r = (await more.ok({"t": "create", "config": {"seats": 2}}))["r"]
            await more.ok({"t": "bot", "r": r})
            await more.ok({"t": "bot", "r": r})
    extra = await Client.open(nursery, server, "Extra")
    assert (await extra.call({"t": "create", "config": {"seats": 2}}))["code"] == "limit"
    honest = await Client.open(nursery, server, "Honest", local_address="127.0.0.2")
    assert (await honest.call({"t": "create", "config": {"seats": 2}}))["t"] == "created"
    assert len(server.hub.matches) == 21


async def test_a_player_with_a_history_creates_while_many_addresses_flood_the_room_table(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    server = await start_server(nursery, tmp_path, hub=HubSettings(max_rooms=120))
    # Ann has played here (against a bot), from 127.0.0.1.
    ann = await Client.open(nursery, server, "Ann")
    first = (await ann.ok({"t": "create", "config": {"seats": 2}}))["r"]
    await ann.join(first, deck="quick-red")
    await ann.ok({"t": "bot", "r": first})
    # Twelve other addresses create all the waiting rooms their caps allow (20 each).
    codes: list[str] = []
    for a in range(12):
        for s in range(4):
            c = await Client.open(nursery, server, f"F{a}.{s}", local_address=f"127.0.1.{a + 1}")
            for _ in range(5):
                reply = await c.call({"t": "create", "config": {"seats": 2}})
                codes.append(reply["t"] if reply["t"] == "created" else reply["code"])
    assert codes.count("created") == 60 and codes.count("limit") == 12 * 20 - 60
    newcomer = await Client.open(nursery, server, "New", local_address="127.0.2.1")
    assert (await newcomer.call({"t": "create", "config": {"seats": 2}}))["code"] == "limit"
    assert (await ann.call({"t": "create", "config": {"seats": 2}}))["t"] == "created"
