"""Load-generating clients shared by bench/server.py and bench/baseline.py.

N rooms of 4 bot players, each player on its own websocket connection. In every room exactly
one player decides at a time; when told it is its turn it sends an action, and the time from
sending to receiving the frame that acknowledges it is its latency. The same code drives the
Arbiter server (adapter ``ArbiterBots``) and the bare fan-out server (``BaselineBots``), so the
two rates are comparable.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import ClientConnection, connect

from arbiter.bots.strategies import random_strategy
from arbiter.protocol import pack
from arbiter.protocol import requests as rq

# The ready-made decks the four seats play; bench/server.py --set M10 puts the six Magic 2010
# decks here, and each room slot then starts at another of them (slot * 4, so four decks give
# every room the same seats).
DECKS = ["quick-red", "quick-green", "quick-infect", "quick-red"]


@dataclass
class Stats:
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    delta_sizes: list[int] = field(default_factory=list)  # per viewer per decision
    delta_frame_sizes: list[int] = field(default_factory=list)  # as sent, with extras
    action_msg_sizes: list[int] = field(default_factory=list)  # legal actions, packed
    bytes_received: int = 0
    sample: list[bytes] = field(default_factory=list)  # one viewer's frames, in order
    views: list[bytes] | None = None  # every view-only delta, when bench/server.py --dump
    games: int = 0
    errors: int = 0
    started: float = 0.0
    elapsed: float = 0.0
    client_cpu: float = 0.0

    def _deflated(self, p: float) -> float:
        """Wire size of the sampled viewer's delta frames under permessage-deflate."""
        pairs = zip(self.sample, deflated_sizes(self.sample), strict=True)
        return _pct([n for f, n in pairs if f[1:4] == b"\xa1t\xa1" and f[4:5] == b"d"], p)

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies)

        def pct(values: list[float] | list[int], p: float) -> float:
            return float(values[min(len(values) - 1, int(len(values) * p))]) if values else 0.0

        sizes = sorted(self.delta_sizes)
        return {
            "actions": self.actions, "seconds": round(self.elapsed, 2),
            "actions_per_s": round(self.actions / self.elapsed, 1) if self.elapsed else 0.0,
            "latency_p50_ms": round(pct(lat, 0.5) * 1000, 2),
            "latency_p99_ms": round(pct(lat, 0.99) * 1000, 2),
            "delta_median_bytes": statistics.median(sizes) if sizes else 0,
            "delta_p99_bytes": pct(sizes, 0.99),
            "delta_bytes_per_viewer_per_decision": round(
                sum(sizes) / (4 * self.actions), 1) if self.actions else 0.0,
            "delta_frame_median_bytes": statistics.median(self.delta_frame_sizes)
            if self.delta_frame_sizes else 0,
            "delta_frame_p99_bytes": pct(sorted(self.delta_frame_sizes), 0.99),
            "legal_actions_median_bytes": statistics.median(self.action_msg_sizes)
            if self.action_msg_sizes else 0,
            # Everything the room's clients received (websocket payloads), per action: what
            # a server sends for one decision, for the egress (docs/cluster.md, "Capacity").
            "received_bytes_per_action": round(self.bytes_received / self.actions, 1)
            if self.actions else 0.0,
            "deflated_delta_median_bytes": self._deflated(0.5),
            "deflated_delta_p99_bytes": self._deflated(0.99),
            "games_finished": self.games, "errors": self.errors,
            "client_cpu_share": round(self.client_cpu / self.elapsed, 2) if self.elapsed else 0,
        }


COMPRESSION: list[str | None] = [None]  # set to "deflate" to offer permessage-deflate


async def _open(nursery: trio.Nursery, port: int) -> ClientConnection:
    """A connection whose background tasks live in ``nursery``."""
    ws: ClientConnection = await connect(
        f"ws://127.0.0.1:{port}/", compression=COMPRESSION[0], proxy=None, open_timeout=30,
        ping_interval=None, max_size=None).connect(nursery)
    return ws


def deflated_sizes(frames: list[bytes]) -> list[int]:
    """What permessage-deflate (RFC 7692, with context takeover, as websockets negotiates it
    by default) would put on the wire for each of these messages, in order."""
    import zlib

    encoder = zlib.compressobj(wbits=-15)
    out = []
    for frame in frames:
        data = encoder.compress(frame) + encoder.flush(zlib.Z_SYNC_FLUSH)
        out.append(len(data) - 4 if data.endswith(b"\x00\x00\xff\xff") else len(data))
    return out


def _typed(request: rq.Request) -> bytes:
    """A request outside the measured loop, built the way every client builds it."""
    return pack(rq.to_wire(request))


class Player:
    """One connection: sends requests, measures how long each takes to be acknowledged."""

    def __init__(self, ws: ClientConnection, stats: Stats) -> None:
        self.ws = ws
        self.stats = stats
        self.next_id = 0
        self.sent: dict[int, float] = {}
        self.measuring = False

    async def send(self, msg: dict[str, Any]) -> int:
        # Raw maps on purpose: the measured requests (``act``) cost the client the same against
        # both servers, and the baseline's are not Arbiter requests at all; a typed request and
        # to_wire would add about 1.6 µs of client CPU per action to Arbiter's side only.
        self.next_id += 1
        msg["i"] = self.next_id
        self.sent[self.next_id] = time.perf_counter()
        await self.ws.send(msgpack.packb(msg, use_bin_type=True))
        return self.next_id

    def acknowledged(self, request_id: Any) -> None:
        t = self.sent.pop(request_id, None)
        if t is not None and self.measuring:
            self.stats.latencies.append(time.perf_counter() - t)


class ArbiterBots:
    """Four random bots playing Arbiter games back to back in one room slot."""

    def __init__(self, port: int, slot: int, stats: Stats, seed: int) -> None:
        self.port, self.slot, self.stats = port, slot, stats
        self.rng = random.Random(seed)
        self.seed = seed

    async def run(self, deadline: float) -> None:
        async with trio.open_nursery() as conns:
            players = [Player(await _open(conns, self.port), self.stats) for _ in range(4)]
            await self._games(players, deadline)
            for p in players:
                await p.ws.aclose()

    async def _games(self, players: list[Player], deadline: float) -> None:
        self.first = players[0]
        for n, p in enumerate(players):
            await p.ws.send(_typed(rq.Hello(0, rq.VERSIONS, name=f"bot{n}")))
            await p.ws.recv()
        game = 0
        while trio.current_time() < deadline:
            game += 1
            await players[0].ws.send(_typed(rq.CreateRoom(0, {
                "variant": "free_for_all", "seats": 4, "seed": self.seed * 1000 + game})))
            room = None
            while room is None:
                reply = msgpack.unpackb(await players[0].ws.recv(), strict_map_key=False)
                if reply.get("t") == "created":
                    room = reply["r"]
                elif reply.get("t") == "error":
                    raise RuntimeError(f"the server refused to create a room: {reply}")
            for n, p in enumerate(players):
                await p.ws.send(_typed(rq.Join(0, room)))
                deck = DECKS[(self.slot * len(players) + n) % len(DECKS)]
                await p.ws.send(_typed(rq.SubmitDeck(0, room, ready=deck)))
            async with trio.open_nursery() as nursery:
                over = trio.Event()
                for p in players:
                    nursery.start_soon(self._play, p, room, over, deadline)
                await over.wait()
                nursery.cancel_scope.cancel()
            self.stats.games += 1

    async def _play(self, p: Player, room: str, over: trio.Event, deadline: float) -> None:
        p.measuring = True
        sampled = self.slot == 0 and p is self.first
        try:
            while True:
                frame = await p.ws.recv()
                assert isinstance(frame, bytes)
                self.stats.bytes_received += len(frame)
                if sampled and len(self.stats.sample) < 20_000:
                    self.stats.sample.append(frame)
                msg = msgpack.unpackb(frame, strict_map_key=False)
                kind = msg.get("t")
                decision = None
                decision_size = 0
                if kind == "d":
                    decision = msg.get("a")
                    view_size = len(frame)
                    if decision is not None or "i" in msg:
                        # The view change alone: without the legal actions (for the decider)
                        # and the request id (for the actor) that this copy also carries. Their
                        # entries' sizes, not a second encoding of the rest: the same figure for
                        # less of the client's time per action, which bench/server.py compares
                        # with the baseline's client (a map's header is one byte either way).
                        if decision is not None:
                            decision_size = len(msgpack.packb(decision))
                            view_size -= len(b"\xa1a") + decision_size
                        if "i" in msg:
                            view_size -= len(b"\xa1i") + len(msgpack.packb(msg["i"]))
                    self.stats.delta_sizes.append(view_size)
                    if self.stats.views is not None:  # --dump: what made the view change
                        self.stats.views.append(msgpack.packb(
                            {k: v for k, v in msg.items() if k not in ("a", "i")}))
                    self.stats.delta_frame_sizes.append(len(frame))
                    if "i" in msg:
                        p.acknowledged(msg["i"])
                        self.stats.actions += 1
                elif kind == "ok":
                    if msg["i"] in p.sent:
                        self.stats.actions += 1
                    p.acknowledged(msg["i"])
                elif kind == "a":
                    decision = msg["d"]
                    decision_size = len(msgpack.packb(decision))
                if decision is not None:
                    self.stats.action_msg_sizes.append(decision_size)
                    if trio.current_time() >= deadline:
                        over.set()
                        return
                    await p.send({"t": "act", "r": msg["r"], "s": decision["serial"],
                                  "a": random_strategy({}, decision, self.rng)})
                elif kind == "result" and msg["r"] == room and msg["m"]["over"]:
                    over.set()
                    return
                elif kind == "error":
                    self.stats.errors += 1
        except ConnectionClosed:
            over.set()


class BaselineBots:
    """The same four players against the bare fan-out server: a "turn" frame says who acts."""

    def __init__(self, port: int, slot: int, stats: Stats, seed: int) -> None:
        self.port, self.slot, self.stats = port, slot, stats

    async def run(self, deadline: float) -> None:
        async with trio.open_nursery() as conns:
            players = [Player(await _open(conns, self.port), self.stats) for _ in range(4)]
            for n, p in enumerate(players):
                await p.ws.send(msgpack.packb({"t": "join", "r": str(self.slot), "seat": n}))
            async with trio.open_nursery() as nursery:
                over = trio.Event()
                for n, p in enumerate(players):
                    nursery.start_soon(self._play, p, n, over, deadline)
                await over.wait()
                nursery.cancel_scope.cancel()
            for p in players:
                await p.ws.aclose()

    async def _play(self, p: Player, seat: int, over: trio.Event, deadline: float) -> None:
        p.measuring = True
        try:
            while True:
                frame = await p.ws.recv()
                assert isinstance(frame, bytes)
                self.stats.bytes_received += len(frame)
                msg = msgpack.unpackb(frame, strict_map_key=False)
                if msg.get("i") is not None and msg.get("by") == seat:
                    p.acknowledged(msg["i"])
                    self.stats.actions += 1
                self.stats.delta_sizes.append(len(frame))
                if msg.get("p") == seat:
                    if trio.current_time() >= deadline:
                        over.set()
                        return
                    await p.send({"t": "act", "r": str(self.slot)})
        except ConnectionClosed:
            over.set()


async def load(port: int, kind: str, rooms: int, seconds: float, seed: int = 1,
               compression: bool = False, keep_views: bool = False) -> Stats:
    """Run ``rooms`` rooms of four bots against the server on ``port`` for ``seconds``
    (``keep_views``: keep every view-only delta in ``stats.views``)."""
    COMPRESSION[0] = "deflate" if compression else None
    stats = Stats(views=[] if keep_views else None)
    bots_cls = ArbiterBots if kind == "arbiter" else BaselineBots
    cpu0 = time.process_time()
    stats.started = time.perf_counter()
    deadline = trio.current_time() + seconds
    async with trio.open_nursery() as nursery:
        for slot in range(rooms):
            nursery.start_soon(bots_cls(port, slot, stats, seed * 100 + slot).run, deadline)
    stats.elapsed = time.perf_counter() - stats.started
    stats.client_cpu = time.process_time() - cpu0
    return stats


def _pct(values: list[int], p: float) -> float:
    values = sorted(values)
    return float(values[min(len(values) - 1, int(len(values) * p))]) if values else 0.0


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks
