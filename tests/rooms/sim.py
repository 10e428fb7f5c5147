"""The room core driven by plain values: no sockets, no event loop, no real time.

:class:`Sim` plays the transport's part: it hands the hub what happened (a frame from a
player, a connection that closed, a deadline that came) with the time it says it is, and
carries out the effects the hub returns: records into a list (or a real SQLite log, for the
recovery tests), frames to the players they name, closes, and deadlines into a table that
:meth:`Sim.advance` fires in order. Everything is synchronous, so a test reads like the
conversation it checks, and runs in microseconds.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable
from typing import Any

from arbiter.bots.strategies import Strategy, random_strategy
from arbiter.protocol import VERSIONS, Tracker, decode, pack, unpack_server
from arbiter.server.rooms.context import HubSettings, SeededEntropy
from arbiter.server.rooms.effects import Effects, Lookup
from arbiter.server.rooms.hub import Counters, Hub
from arbiter.server.rooms.lobby import LobbySettings
from arbiter.server.rooms.peers import Limits
from arbiter.server.rooms.routing import ClusterRouting
from arbiter.server.rules.cards.catalog import cards as catalog_cards
from arbiter.server.store.db import Store
from arbiter.server.store.records import Record

QUICK = ("quick-red", "quick-green")


class Sim:
    def __init__(self, settings: HubSettings | None = None, limits: Limits | None = None, *,
                 store: Store | None = None, seed: int = 7, now: float = 1000.0,
                 cluster: bool = False, lobby: LobbySettings | None = None) -> None:
        ids = Counters(store.next_id("rooms"), store.next_id("games")) if store else None
        self.hub = Hub(settings or HubSettings(allow_scenarios=True),
                       limits or Limits(rate=1e9, burst=10**9), ids=ids,
                       entropy=SeededEntropy(seed),
                       routing=ClusterRouting() if cluster else None, lobby=lobby)
        self.lookups: list[Lookup] = []
        self.now = now
        self.store = store
        self.records: list[Record] = []
        self.deadlines: dict[Hashable, float] = {}
        self._names = itertools.count(1)

    # ------------------------------------------------------------------ the transport's part

    def apply(self, effects: Effects) -> Effects:
        self.records.extend(effects.records)
        if self.store is not None and effects.records:
            self.store.write(effects.records)
        for peers, frame in effects.frames:
            for peer in peers:
                peer.sink.receive(frame)
        for peer, code, reason in effects.closes:
            peer.sink.close_code, peer.sink.close_reason = code, reason
            self.apply(self.hub.disconnect(peer, self.now))
        for key, when in effects.deadlines.items():
            if when is None:
                self.deadlines.pop(key, None)
            else:
                self.deadlines[key] = when
        self.lookups.extend(effects.lookups)
        return effects

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass, waking the core at each deadline on the way, in order."""
        target = self.now + seconds
        while self.deadlines:
            key, when = min(self.deadlines.items(), key=lambda kv: kv[1])
            if when > target:
                break
            del self.deadlines[key]
            self.now = max(self.now, when)
            self.apply(self.hub.wake(key, self.now))
        self.now = target

    def connect(self, name: str | None = None, *, address: str = "10.0.0.1",
                hello: bool = True, session: str | None = None,
                resume: dict[str, Any] | None = None,
                versions: tuple[int, ...] = VERSIONS) -> Player:
        player = Player(self, address, name or f"P{next(self._names)}")
        if hello:
            msg: dict[str, Any] = {"t": "hello", "v": list(versions)}
            if session is not None:
                msg["session"] = session
            else:
                msg["name"] = player.name
            if resume is not None:
                msg["resume"] = resume
            welcome = player.ok(msg)
            player.session = welcome["session"]
        return player

    def match(self, room: str) -> Any:
        match = self.hub.match_of(room)
        assert match is not None, f"no room {room}"
        return match

    # ------------------------------------------------------------------ whole scenes

    def table(self, config: dict[str, Any], names: tuple[str, ...] = ("Ann", "Bob"),
              decks: tuple[str, ...] = QUICK, **connect: Any) -> tuple[list[Player], str]:
        """Players who create a room with ``config``, take its seats in order and submit
        decks, so the match starts."""
        players = [self.connect(n, **connect) for n in names]
        room = players[0].ok({"t": "create", "config": config})["r"]
        for i, p in enumerate(players):
            p.join(room, deck=decks[i % len(decks)])
        return players, room

    def play(self, players: dict[int, Player], *, strategy: Strategy = random_strategy,
             rng: random.Random | None = None, max_actions: int = 20_000,
             choose: Callable[[Player, str, dict[str, Any]], int | None] | None = None,
             until: Callable[[], bool] | None = None) -> int:
        """Answer every pending decision (one is pending at a time) until none is left, or
        ``until()`` holds; returns how many were answered."""
        rng = rng or random.Random(0)
        cards = catalog_cards(test_cards=True)
        n = 0
        while n < max_actions and not (until is not None and until()):
            deciding = [(p, room, d) for p in players.values() for room, d in p.pending()]
            if not deciding:
                break
            assert len(deciding) == 1, [(p.name, r) for p, r, _ in deciding]
            player, room, decision = deciding[0]
            action = choose(player, room, decision) if choose is not None else None
            if action is None:
                action = strategy(player.view(room), decision, rng, cards)
            reply = player.call({"t": "act", "r": room, "s": decision["serial"], "a": action})
            assert reply["t"] in ("d", "ok"), (player.name, reply)
            n += 1
        return n


def restart(store: Store, **settings: Any) -> tuple[Sim, list[str]]:
    """A new core on ``store``'s log, as ``arbiter serve`` starts on its data directory:
    sessions, then every unfinished room and event rebuilt; returns it and the lines its
    recovery logged."""
    sim = Sim(HubSettings(allow_scenarios=True, **settings), store=store)
    sim.hub.restore_sessions(store.sessions())
    lines = []
    for stored in store.stored_rooms():
        line, effects = sim.hub.restore_room(stored, sim.now)
        sim.apply(effects)
        lines.append(line)
    sim.apply(sim.hub.resume_idle_sessions(sim.now))
    return sim, lines


class Player:
    """A client as the core sees it: the transport's handle for one connection (frames arrive
    in :meth:`receive`), with a replica of every room it follows."""

    def __init__(self, sim: Sim, address: str, name: str) -> None:
        self.sim = sim
        self.name = name
        self.messages: list[dict[Any, Any]] = []
        self.replies: dict[int, dict[Any, Any]] = {}
        self.tracker = Tracker()
        self.session: str | None = None
        self.close_code: int | None = None
        self.close_reason = ""
        self.seats: dict[str, tuple[int, str]] = {}
        self._ids = itertools.count(1)
        self.peer = sim.hub.connect(self, address, sim.now)

    def __repr__(self) -> str:
        return f"<Player {self.name}>"

    def receive(self, frame: bytes) -> None:
        msg = unpack_server(frame)
        stale = self.tracker.feed(decode(msg))
        assert stale is None, f"{self.name}: room {stale} lost its way"
        self.messages.append(msg)
        if msg.get("i") is not None:
            self.replies.setdefault(msg["i"], msg)

    # ------------------------------------------------------------------ talking

    def send_raw(self, frame: bytes | str) -> Effects:
        return self.sim.apply(self.sim.hub.receive(self.peer, frame, self.sim.now))

    def call(self, msg: dict[str, Any]) -> dict[Any, Any]:
        """Send a request; return its answer (an error included)."""
        i = msg.get("i", next(self._ids))
        self.send_raw(pack({**msg, "i": i}))
        assert i in self.replies, f"{self.name}: no answer to {msg}"
        reply = self.replies[i]
        if msg["t"] == "act":
            self.tracker.acted(msg["r"], msg["s"])
        return reply

    def ok(self, msg: dict[str, Any]) -> dict[Any, Any]:
        reply = self.call(msg)
        assert reply["t"] != "error", (self.name, reply)
        return reply

    def join(self, room: str, seat: int | None = None, deck: str | None = None,
             token: str | None = None) -> int:
        msg: dict[str, Any] = {"t": "join", "r": room}
        if seat is not None:
            msg["seat"] = seat
        if token is not None:
            msg["token"] = token
        reply = self.ok(msg)
        self.seats[room] = (reply["seat"], reply["token"])
        if deck is not None:
            self.ok({"t": "deck", "r": room, "ready": deck})
        return int(reply["seat"])

    def close(self) -> None:
        self.sim.apply(self.sim.hub.disconnect(self.peer, self.sim.now))

    # ------------------------------------------------------------------ reading

    def of_type(self, kind: str) -> list[dict[Any, Any]]:
        return [m for m in self.messages if m["t"] == kind]

    def view(self, room: str) -> dict[Any, Any]:
        return self.tracker.rooms[room].view

    def pending(self) -> list[tuple[str, dict[str, Any]]]:
        return [(room, rv.actions) for room, rv in self.tracker.rooms.items()
                if rv.actions is not None and not rv.closed]

    def decision(self, room: str) -> dict[str, Any] | None:
        rv = self.tracker.rooms.get(room)
        return None if rv is None or rv.closed else rv.actions

    def choose(self, room: str, words: str) -> dict[Any, Any]:
        """Answer the pending decision in ``room`` with the action whose label has ``words``."""
        d = self.decision(room)
        assert d is not None, f"{self.name} has nothing to decide in {room}"
        action = next(a for a in d["actions"] if words in a["label"])
        return self.call({"t": "act", "r": room, "s": d["serial"], "a": action["id"]})


def assert_converged(sim: Sim, players: list[Player]) -> int:
    """Every open room each player follows equals a fresh engine snapshot of that player's
    view (Convergence invariant); returns the number of rooms checked."""
    from arbiter.protocol import checksum
    from arbiter.server.rules.view import snapshot

    checked = 0
    for p in players:
        for room_id, rv in p.tracker.rooms.items():
            match = sim.hub.match_of(room_id)
            if rv.closed or match is None or room_id not in match.rooms:
                continue
            room = match.rooms[room_id]
            cls = room.class_for(match.seating.player_of(p.peer))
            fresh = unpack_server(pack({"v": snapshot(room.game, cls.key)}))["v"]
            assert rv.view == fresh, f"{p.name}: room {room_id} diverged"
            assert rv.state.checksum == checksum(fresh)
            checked += 1
    assert sim.hub.stats.view_repairs == 0
    return checked
