"""The lobby's people and chat over a real server, through the SDK (docs/protocol.md section
16): the server's own deadlines carry the coalesced presence updates, a client that never
follows the lobby hears nothing of it, and a client that reconnects follows it again without
hearing a chat line twice."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from arbiter.clients.sdk import RequestError, events

from ..server.harness import settle, start_server
from .helpers import sdk_client


def names(people: events.People | None) -> list[str]:
    assert people is not None
    return [p["n"] for p in people.people]


async def test_followers_see_each_other_chat_and_follow_again_after_a_reconnect(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    server = await start_server(nursery, tmp_path)
    bot = await sdk_client(nursery, server, "Bot")
    heard_by_bot = bot.subscribe()
    ann = await sdk_client(nursery, server, "Ann")
    await ann.follow_lobby()
    await settle(lambda: ann.people is not None)
    assert names(ann.people) == ["Ann", "Bot"]
    bob = await sdk_client(nursery, server, "Bob")
    await bob.follow_lobby()
    mock_clock.jump(1.0)  # the next presence update
    await settle(lambda: names(ann.people) == ["Ann", "Bob", "Bot"])
    room = await bob.create({"seats": 2})
    await bob.join(room, deck="quick-red")
    mock_clock.jump(1.0)
    await settle(lambda: ann.people is not None and
                 {"n": "Bob", "s": "playing", "r": room} in ann.people.people)

    await ann.lobby_chat("hello <b>lobby</b>")
    await settle(lambda: len(bob.lobby_lines) == 1)
    assert [(x["from"], x["text"]) for x in bob.lobby_lines] == [("Ann", "hello <b>lobby</b>")]
    count, found = await bob.search_people("an")
    assert (count, [p["n"] for p in found]) == (1, ["Ann"])

    ws = bob.connection  # Bob's connection drops; the SDK comes back and follows again
    assert ws is not None
    await ws.aclose()
    await settle(lambda: not bob.connected)
    mock_clock.jump(1.0)
    await settle(lambda: bob.connected and bob.stats.reconnects == 1)
    await ann.lobby_chat("welcome back")
    await settle(lambda: len(bob.lobby_lines) == 2)
    assert [x["text"] for x in bob.lobby_lines] == ["hello <b>lobby</b>", "welcome back"]

    got: list[events.Event] = []
    while True:
        try:
            got.append(heard_by_bot.receive_nowait())
        except trio.WouldBlock:
            break
    assert not any(isinstance(e, events.People | events.LobbyChat) for e in got)
    try:
        await bot.lobby_chat("not following")
    except RequestError as exc:
        assert exc.code == "not_seated"
    else:
        raise AssertionError("a client that does not follow the lobby chatted in it")
    for c in (ann, bob, bot):
        await c.close()
