"""A browser playing or watching a game in a cluster keeps it through its node's death (issue
27: no connected player loses a game to an outage; docs/protocol.md section 14). A real
Chromium enters through node B and opens a game that lives on node A: B sends it to A. A is
killed. The page does not keep knocking at A's door: it goes back to B, the URL it started
from, which takes the room over when A's lease lapses, and the page plays or follows the game
on from where it stood, the same room, seat and session, nothing but its connection changed.

Real nodes (``arbiter serve --redis --postgres``), Redis and PostgreSQL; waits are conditions
with bounded timeouts."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from websockets.sync.client import connect

from arbiter.protocol.codec import pack, unpack_server
from tests.web.browser import Person, aggressive, chromium

AT = "([m, url]) => window.arbiter.conn.ready && window.arbiter.conn.url === url"
WATCHED = (AT + " && window.arbiter.watching.has(m)"
           " && (window.arbiter.conn.tracker.positions()[m] ?? [0, 0])[1] > 0")
SEATED = AT + " && window.arbiter.mySeat(m) === 0"
ADVANCED = ("([m, url, seq]) => window.arbiter.conn.ready && window.arbiter.conn.url === url"
            " && (window.arbiter.conn.tracker.positions()[m] ?? [0, 0])[1] > seq")


@dataclass
class Entry:
    """What a Person needs of a server: the page's address."""

    url: str


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def _room(url: str, bots: tuple[int, ...]) -> str:
    """A two-player room with server bots in ``bots``' seats, made through ``url``'s node:
    it lives there."""
    ids = itertools.count(1)
    with connect(url, open_timeout=10, close_timeout=2) as ws:
        def ask(message: dict[str, Any]) -> dict[Any, Any]:
            i = next(ids)
            ws.send(pack({**message, "i": i}))
            while True:
                reply = unpack_server(ws.recv(timeout=10))  # type: ignore[arg-type]
                if reply.get("i") == i:
                    assert reply["t"] != "error", reply
                    return reply

        ask({"t": "hello", "v": [2], "name": "Host"})
        room = str(ask({"t": "create", "config": {"seats": 2}})["r"])
        for seat in bots:
            ask({"t": "bot", "r": room, "seat": seat})
    return room


def _only_refusals_logged(person: Person, dead: str) -> None:
    """Chromium logs each refused connection to the dead node; nothing else may be logged."""
    refused = f"WebSocket connection to '{dead}' failed"
    assert [p for p in person.problems if refused not in p] == []


def test_a_page_watching_a_game_follows_it_through_its_nodes_death(
        cluster: dict[str, Any], browser: Any) -> None:
    a, b = cluster["start"](2)
    room = _room(a.url, bots=(0, 1))
    ann = Person(browser, Entry(f"http://127.0.0.1:{b.port}/"), "Ann")  # type: ignore[arg-type]
    try:
        ann.enter(f"#watch={room}")
        ann.page.wait_for_function(WATCHED, arg=[room, a.url], timeout=30_000)  # sent to A
        seq = ann.page.evaluate("m => window.arbiter.conn.tracker.positions()[m][1]", room)
        assert ann.page.evaluate("() => window.arbiter.conn.stats.redirects") >= 1
        a.kill()
        # Back at B (the entry), which took the room over: the game goes on in the page.
        ann.page.wait_for_function(ADVANCED, arg=[room, b.url, seq], timeout=60_000)
        assert ann.page.evaluate("m => window.arbiter.watching.has(m)", room)
        assert ann.page.evaluate("() => window.arbiter.conn.tracker.mismatches") == 0
        _only_refusals_logged(ann, a.url)
    finally:
        ann.close()


def test_a_page_playing_a_game_plays_on_through_its_nodes_death(
        cluster: dict[str, Any], browser: Any) -> None:
    a, b = cluster["start"](2)
    room = _room(a.url, bots=(1,))
    ann = Person(browser, Entry(f"http://127.0.0.1:{b.port}/"), "Ann")  # type: ignore[arg-type]
    try:
        ann.enter(f"#room={room}")  # the free seat, through B: sent on to A
        ann.page.wait_for_function(SEATED, arg=[room, a.url], timeout=30_000)
        ann.page.wait_for_selector("#deck-form")
        ann.page.click("#deck-form button[type=submit]")
        for _ in range(3):
            ann.play_one(aggressive)
        seq = ann.page.evaluate("m => window.arbiter.conn.tracker.positions()[m][1]", room)
        a.kill()
        ann.page.wait_for_function(SEATED, arg=[room, b.url], timeout=60_000)
        for _ in range(3):  # her answers are taken at B, and the bot answers back
            state = ann.play_one(aggressive)
            assert not state["over"], state
        ann.page.wait_for_function(ADVANCED, arg=[room, b.url, seq], timeout=30_000)
        assert ann.page.evaluate("() => window.arbiter.conn.tracker.mismatches") == 0
        _only_refusals_logged(ann, a.url)
    finally:
        ann.close()
