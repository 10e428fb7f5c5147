"""Real servers on 127.0.0.1 (port 0) and real websocket clients, for the server tests.

Everything runs in one trio run under ``MockClock(autojump_threshold=0)``. Nothing here waits
on time: :func:`settle` waits until every task (server and clients) is blocked, which on
loopback means every frame sent has been received and handled. Server-side deadlines (grace
periods, clocks, heartbeats) fire when the test lets the run go idle, exactly as the mock clock
jumps to them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import trio
import trio.testing
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import ClientConnection, connect

from arbiter.bots.strategies import Strategy, random_strategy
from arbiter.protocol import VERSIONS, Tracker, decode, pack, unpack_server
from arbiter.server.net.server import ArbiterServer, ServerConfig
from arbiter.server.rooms.context import HubSettings
from arbiter.server.rooms.peers import Limits
from arbiter.server.rules.cards.catalog import cards as catalog_cards


def server_config(data_dir: Path, **overrides: Any) -> ServerConfig:
    hub = overrides.pop("hub", HubSettings(allow_scenarios=True))
    limits = overrides.pop("limits", Limits(rate=1e9, burst=10**9))
    base = ServerConfig(host="127.0.0.1", port=0, data_dir=data_dir, hub=hub, limits=limits,
                        ping_interval=None, ping_timeout=None, open_timeout=None,
                        close_timeout=2.0, gc_freeze_every=None)
    return replace(base, **overrides)


async def start_server(nursery: trio.Nursery, data_dir: Path, **overrides: Any
                       ) -> ArbiterServer:
    server: ArbiterServer = await nursery.start(
        ArbiterServer(server_config(data_dir, **overrides)).run)
    return server


async def settle(until: Callable[[], bool] | None = None, tries: int = 200) -> None:
    """Wait until nothing can run; with ``until``, keep waiting until it holds."""
    for _ in range(tries):
        await trio.testing.wait_all_tasks_blocked()
        if until is None or until():
            return
    raise AssertionError("the server made no progress")


class Activity:
    """Wakes waiters whenever any client receives something. For a server in another process,
    where "every task here is blocked" says nothing about the server's progress."""

    def __init__(self) -> None:
        self._event = trio.Event()

    def poke(self) -> None:
        self._event.set()
        self._event = trio.Event()

    async def until(self, predicate: Callable[[], bool]) -> None:
        while True:
            event = self._event
            if predicate():
                return
            await event.wait()


class Client:
    """A websocket client that records every frame and keeps its views with the protocol's
    :class:`~protocol.Tracker` (checking sequence numbers and checksums).

    With ``activity`` (a server in another process) replies are awaited as they arrive;
    without, by letting the run settle.
    """

    def __init__(self, ws: ClientConnection, nursery: trio.Nursery, label: str,
                 activity: Activity | None = None) -> None:
        self.ws = ws
        self.label = label
        self.activity = activity
        self.frames: list[bytes] = []
        self.messages: list[dict[Any, Any]] = []
        self.replies: dict[int, dict[Any, Any]] = {}
        self.tracker = Tracker()
        self.resyncs: list[str] = []
        self.closed = False
        self.close_code: int | None = None
        self.session: str | None = None
        self.seats: dict[str, tuple[int, str]] = {}  # room -> (seat, token)
        self._ids = 0
        nursery.start_soon(self._reader)

    @classmethod
    async def open(cls, nursery: trio.Nursery, server: ArbiterServer | int,
                   name: str | None = None, *, session: str | None = None,
                   resume: dict[str, Any] | None = None, hello: bool = True,
                   activity: Activity | None = None, **kwargs: Any) -> Client:
        options: dict[str, Any] = {"open_timeout": None, "ping_interval": None,
                                   "close_timeout": 2.0, "compression": None, "proxy": None,
                                   "max_size": None}
        options.update(kwargs)
        port = server if isinstance(server, int) else server.port
        ws = await connect(f"ws://127.0.0.1:{port}/", **options).connect(nursery)
        client = cls(ws, nursery, name or session or "?", activity)
        if hello:
            msg: dict[str, Any] = {"t": "hello", "v": list(VERSIONS)}
            if name is not None:
                msg["name"] = name
            if session is not None:
                msg["session"] = session
            if resume is not None:
                msg["resume"] = resume
            welcome = await client.call(msg)
            assert welcome["t"] == "welcome", welcome
            client.session = welcome["session"]
            for room, seat, token in welcome["seats"]:
                client.seats[room] = (seat, token)
        return client

    async def _reader(self) -> None:
        try:
            async for frame in self.ws:
                assert isinstance(frame, bytes)
                self.frames.append(frame)
                msg = unpack_server(frame)
                typed = decode(msg)  # checks the message's shape
                self.messages.append(msg)
                if msg.get("i") is not None:
                    self.replies.setdefault(msg["i"], msg)
                stale = self.tracker.feed(typed)
                if stale is not None:
                    self.resyncs.append(stale)
                if self.activity is not None:
                    self.activity.poke()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.close_code = self.ws.close_code
            if self.activity is not None:
                self.activity.poke()

    async def send(self, msg: dict[str, Any]) -> int:
        if "i" not in msg:
            self._ids += 1
            msg = {**msg, "i": self._ids}
        await self.ws.send(pack(msg))
        if msg.get("t") == "act":
            self.tracker.acted(msg["r"], msg["s"])
        return int(msg["i"])

    async def call(self, msg: dict[str, Any]) -> dict[Any, Any]:
        """Send a request and wait for its reply (or error)."""
        i = await self.send(msg)
        if self.activity is not None:
            await self.activity.until(lambda: i in self.replies or self.closed)
        else:
            await settle(lambda: i in self.replies or self.closed)
        assert i in self.replies, f"{self.label}: no reply to {msg} (closed={self.closed})"
        return self.replies[i]

    async def ok(self, msg: dict[str, Any]) -> dict[Any, Any]:
        reply = await self.call(msg)
        assert reply["t"] != "error", reply
        return reply

    async def join(self, room: str, seat: int | None = None, deck: str | None = None
                   ) -> int:
        msg: dict[str, Any] = {"t": "join", "r": room}
        if seat is not None:
            msg["seat"] = seat
        reply = await self.ok(msg)
        self.seats[room] = (reply["seat"], reply["token"])
        if deck is not None:
            await self.ok({"t": "deck", "r": room, "ready": deck})
        return int(reply["seat"])

    def of_type(self, kind: str) -> list[dict[Any, Any]]:
        return [m for m in self.messages if m["t"] == kind]

    def decisions(self) -> list[dict[str, Any]]:
        """Every set of legal actions this client was sent (alone, or inside a delta)."""
        return [m["d"] if m["t"] == "a" else m["a"] for m in self.messages
                if m["t"] == "a" or (m["t"] == "d" and "a" in m)]

    def pending(self) -> list[tuple[str, dict[str, Any]]]:
        return [(room, rv.actions) for room, rv in self.tracker.rooms.items()
                if rv.actions is not None and not rv.closed]

    async def close(self) -> None:
        await self.ws.aclose()
        await settle(lambda: self.closed)


async def create_room(client: Client, config: dict[str, Any]) -> str:
    reply = await client.ok({"t": "create", "config": config})
    return str(reply["r"])


async def two_player_game(nursery: trio.Nursery, server: ArbiterServer, *, seed: int = 9,
                          decks: tuple[str, str] = ("quick-red", "quick-green"),
                          names: tuple[str, str] = ("Ann", "Bob"), actions: int = 6,
                          ) -> tuple[Client, Client, str]:
    """Two players in a new two-player room, its match started and ``actions`` decisions
    into its first game."""
    ann = await Client.open(nursery, server, names[0])
    bob = await Client.open(nursery, server, names[1])
    room = await create_room(ann, {"seats": 2, "seed": seed})
    await ann.join(room, deck=decks[0])
    await bob.join(room, deck=decks[1])
    await play({0: ann, 1: bob}, max_actions=actions)
    return ann, bob, room


async def play(players: dict[int, Client], *, strategy: Strategy = random_strategy,
               rng: random.Random | None = None, max_actions: int = 20_000,
               before: Callable[[int], Any] | None = None,
               choose: Callable[[int, str, dict[str, Any], dict[Any, Any]], int | None] | None
               = None, until: Callable[[], bool] | None = None) -> int:
    """Let bots play until nobody has a decision (or ``max_actions``); returns actions taken.

    ``before(n)`` may be an async callback run before action ``n``; ``choose`` may pick an
    action instead of the strategy (return None to let the strategy choose); play stops early
    when ``until()`` holds.
    """
    rng = rng or random.Random(0)
    n = 0
    while n < max_actions:
        await settle()
        if until is not None and until():
            return n
        deciding = [(c, room, d) for c in players.values() for room, d in c.pending()]
        if not deciding:
            return n
        assert len(deciding) == 1, [(c.label, r) for c, r, _ in deciding]
        client, room, decision = deciding[0]
        if before is not None:
            await before(n)
            await settle()
            if client.tracker.rooms[room].actions is not decision:
                continue
        view = client.tracker.rooms[room].view
        action = choose(n, room, decision, view) if choose is not None else None
        if action is None:
            action = strategy(view, decision, rng, catalog_cards())
        reply = await client.call({"t": "act", "r": room, "s": decision["serial"],
                                   "a": action})
        assert reply["t"] in ("d", "ok"), (client.label, reply)
        n += 1
    return n


class RawClient:
    """A websocket client driven by hand (websockets' sans-I/O protocol over a trio socket),
    for clients that misbehave at the transport level: one that stops reading, one that never
    answers a heartbeat."""

    def __init__(self, sock: trio.socket.SocketType) -> None:
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri

        self.sock = sock
        self.protocol = ClientProtocol(parse_uri("ws://127.0.0.1/"))

    @classmethod
    async def open(cls, server: ArbiterServer, rcvbuf: int | None = None) -> RawClient:
        import socket as stdlib_socket

        sock = trio.socket.socket(stdlib_socket.AF_INET, stdlib_socket.SOCK_STREAM)
        if rcvbuf is not None:
            sock.setsockopt(stdlib_socket.SOL_SOCKET, stdlib_socket.SO_RCVBUF, rcvbuf)
        await sock.connect(("127.0.0.1", server.port))
        client = cls(sock)
        client.protocol.send_request(client.protocol.connect())
        await client.flush()
        from websockets.http11 import Response

        while not any(isinstance(e, Response) for e in client.protocol.events_received()):
            data = await sock.recv(65536)
            assert data, "the server closed the connection during the handshake"
            client.protocol.receive_data(data)
        return client

    async def flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                await self.sock.send(data)

    async def send(self, msg: dict[str, Any]) -> None:
        self.protocol.send_binary(pack(msg))
        await self.flush()
