"""The hub: sessions, the room list, and routing each request to its room.

A session is a player's identity on this server, held by a random token that survives
reconnects and server restarts; seats are held by seat tokens of their own. The hub handles a
request synchronously, start to end: it never awaits, so one room's work cannot interleave with
another's and no request can leave a room half-changed while another runs.
"""

from __future__ import annotations

import logging
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import trio

from arbiter.protocol import messages as m
from arbiter.protocol.codec import pack
from arbiter.protocol.errors import Code, ProtocolError
from arbiter.server.rules import Table
from arbiter.server.rules.commands import from_record
from arbiter.server.store.db import Store
from arbiter.server.store.gate import CommitGate
from arbiter.server.store.records import RoomCreated, SessionCreated, SessionForgotten

from .match import FINISHED, WAITING, MatchRoom, Peer, RecoveryError, Refusal
from .setup import config_from_wire, deck_from_wire, parse_settings
from .timers import Timers

if TYPE_CHECKING:
    from arbiter.server.net.metrics import Metrics

log = logging.getLogger("arbiter.rooms")


# Requests addressed to a room (they all carry its id in ``r``), and the room's method for each.
ROOM_REQUESTS: dict[type[m.Request], Callable[[MatchRoom, Peer, Any], None]] = {
    m.Join: MatchRoom.join, m.Spectate: MatchRoom.spectate, m.SubmitDeck: MatchRoom.submit_deck,
    m.Act: MatchRoom.act, m.Concede: MatchRoom.concede, m.Draw: MatchRoom.draw,
    m.Judge: MatchRoom.judge, m.Chat: MatchRoom.chat, m.Resync: MatchRoom.resync,
    m.Leave: MatchRoom.leave,
}


@dataclass(frozen=True)
class HubSettings:
    grace: float = 60.0  # seconds an empty seat stays held before its player concedes
    history: int = 256  # deltas kept per viewer class for reconnecting clients
    hash_every: int = 100  # record the state hash in the log every this many commands
    allow_scenarios: bool = False
    max_rooms: int = 1000
    max_waiting_per_session: int = 5  # rooms a session created that are still waiting
    session_ttl: float = 24 * 3600.0  # an idle session is forgotten after this many seconds


@dataclass(eq=False)
class Session:
    token: str
    name: str
    seats: dict[str, int] = field(default_factory=dict)  # match room id -> seat index
    spectating: set[str] = field(default_factory=set)
    peers: set[Peer] = field(default_factory=set)
    idle_since: float | None = None  # when it last came to hold nothing and have no connection

    @property
    def idle(self) -> bool:
        return not (self.peers or self.seats or self.spectating)


class Hub:
    def __init__(self, settings: HubSettings, store: Store, gate: CommitGate, timers: Timers,
                 metrics: Metrics) -> None:
        self.settings = settings
        self.store = store
        self.gate = gate
        self.timers = timers
        self.metrics = metrics
        self.sessions: dict[str, Session] = {}
        self.matches: dict[str, MatchRoom] = {}
        self.index: dict[str, MatchRoom] = {}  # every open room id -> its match
        self._next_room = store.next_id("rooms")
        self._next_game = store.next_id("games")
        # Sessions in the order they became idle, with when each may be forgotten: the TTL is
        # the same for all, so the earliest expiry is always at the front.
        self._idle: deque[tuple[float, Session]] = deque()

    # ------------------------------------------------------------------ bookkeeping

    def next_game_id(self) -> int:
        n = self._next_game
        self._next_game += 1
        return n

    def register(self, room_id: str, match: MatchRoom) -> None:
        self.index[room_id] = match

    def unregister(self, room_id: str) -> None:
        self.index.pop(room_id, None)

    def drop(self, match: MatchRoom) -> None:
        """Forget a finished (or abandoned) match; its log stays in the store."""
        self.matches.pop(match.id, None)
        for rid in [r for r, mr in self.index.items() if mr is match]:
            del self.index[rid]
        for session in self.sessions.values():
            if match.id in session.seats or match.id in session.spectating:
                session.seats.pop(match.id, None)
                session.spectating.discard(match.id)
                self.released(session)
        self.timers.schedule(match, None)

    # ------------------------------------------------------------------ idle sessions

    def released(self, session: Session) -> None:
        """``session`` may just have lost its last connection, seat or room: if it now holds
        nothing, it starts counting down to being forgotten."""
        if not session.idle or session.idle_since is not None:
            return
        now = trio.current_time()
        session.idle_since = now
        self._idle.append((now + self.settings.session_ttl, session))
        if len(self._idle) == 1:
            self.timers.schedule(self, now + self.settings.session_ttl)

    def on_timer(self, now: float) -> None:
        """Forget the sessions that have been idle for the whole TTL: a server that runs for
        months must not keep every name that ever said hello. Their tokens stop working, and
        a client that comes back with one is told ``unknown_session``."""
        ttl = self.settings.session_ttl
        while self._idle and self._idle[0][0] <= now:
            deadline, session = self._idle.popleft()
            if (session.idle and session.idle_since is not None
                    and session.idle_since + ttl == deadline
                    and self.sessions.get(session.token) is session):
                del self.sessions[session.token]
                self.gate.log(SessionForgotten(session.token))
                self.metrics.sessions_expired += 1
        if self._idle:
            self.timers.schedule(self, self._idle[0][0])

    def rooms_by_state(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for match in self.matches.values():
            out[match.state] = out.get(match.state, 0) + 1
        return out

    def error(self, peer: Peer, code: str, message: str, request_id: int | None,
              room: str | None = None) -> None:
        self.metrics.count_error(code)
        self.gate.send([peer], pack(m.error(code, message, request_id, room)))

    # ------------------------------------------------------------------ requests

    def hello(self, peer: Peer, req: m.Hello, limits: dict[str, Any]) -> int:
        """Start (or resume) a session; return the protocol version agreed."""
        if peer.session is not None:
            raise ProtocolError(Code.ALREADY_HELLO, "this connection has already said hello",
                                req.i)
        common = set(req.v) & set(m.VERSIONS)
        if not common:
            raise ProtocolError(Code.UNSUPPORTED_VERSION,
                                f"this server speaks protocol versions "
                                f"{', '.join(map(str, m.VERSIONS))}", req.i)
        version = max(common)
        if req.session is not None:
            session = self.sessions.get(req.session)
            if session is None:
                raise ProtocolError(Code.UNKNOWN_SESSION, "no session has that token; say "
                                                          "hello with a name instead", req.i)
        else:
            if req.name is None:
                raise ProtocolError(Code.MISSING_FIELD, "hello needs a name or a session",
                                    req.i)
            session = Session(secrets.token_urlsafe(18), req.name.strip())
            self.sessions[session.token] = session
            self.gate.log(SessionCreated(session.token, session.name))
        peer.session = session
        session.peers.add(peer)
        session.idle_since = None
        seats = []
        for rid, index in sorted(session.seats.items()):
            match = self.matches.get(rid)
            if match is not None:
                seats.append([rid, index, match.seats[index].token])
        self.gate.send([peer], pack({"t": "welcome", "i": req.i, "v": version,
                                     "session": session.token, "name": session.name,
                                     "seats": seats, "limits": limits}))
        for rid in sorted(set(session.seats) | session.spectating):
            match = self.matches.get(rid)
            if match is not None:
                match.attach(peer, req.resume)
        return version

    def handle(self, peer: Peer, req: m.Request) -> None:
        """Route one request (after hello); refusals become errors for ``peer`` alone."""
        room = getattr(req, "r", None)
        try:
            self._dispatch(peer, req)
        except Refusal as exc:
            self.error(peer, exc.code, exc.message, req.i, room)
        except ProtocolError as exc:
            self.error(peer, exc.code, exc.message, req.i, room)

    def _match(self, room_id: str) -> MatchRoom:
        match = self.index.get(room_id) or self.matches.get(room_id)
        if match is None:
            raise Refusal(Code.UNKNOWN_ROOM, f"there is no room {room_id[:40]!r}")
        return match

    def _dispatch(self, peer: Peer, req: m.Request) -> None:
        handler = ROOM_REQUESTS.get(type(req))
        if handler is not None:
            handler(self._match(req.r), peer, req)  # type: ignore[attr-defined]
        elif isinstance(req, m.ListRooms):
            rooms = [mr.summary() for mr in self.matches.values() if mr.state != FINISHED]
            self.gate.send([peer], pack({"t": "rooms", "i": req.i, "rooms": rooms[:200]}))
        elif isinstance(req, m.CreateRoom):
            self._create(peer, req)
        elif isinstance(req, m.Hello):
            raise ProtocolError(Code.ALREADY_HELLO, "this connection has already said hello")
        else:  # pragma: no cover - parse_request only builds the types above
            raise ProtocolError(Code.UNKNOWN_TYPE, f"unhandled request {req.TYPE}")

    def _create(self, peer: Peer, req: m.CreateRoom) -> None:
        if len(self.matches) >= self.settings.max_rooms:
            raise Refusal(Code.LIMIT, f"this server holds at most {self.settings.max_rooms} "
                                      "rooms")
        creator = peer.session.token if peer.session is not None else None
        waiting = sum(1 for mr in self.matches.values()
                      if mr.creator == creator and mr.state == WAITING)
        if waiting >= self.settings.max_waiting_per_session:
            raise Refusal(Code.LIMIT, f"you already have {waiting} rooms waiting for players")
        number = self._next_room
        settings = parse_settings(req.config, default_name=f"Room {number}",
                                  allow_scenarios=self.settings.allow_scenarios)
        self._next_room += 1
        match = MatchRoom(self, number, settings, creator)
        self.matches[match.id] = match
        self.index[match.id] = match
        self.gate.log(RoomCreated(number, settings.name, req.config, creator))
        self.gate.send([peer], pack({"t": "created", "i": req.i, "r": match.id}))
        match.reschedule()

    def disconnected(self, peer: Peer) -> None:
        for rid in list(peer.rooms):
            match = self.matches.get(rid)
            if match is not None:
                match.detach(peer)
        peer.rooms.clear()
        if peer.session is not None:
            peer.session.peers.discard(peer)
            self.released(peer.session)

    # ------------------------------------------------------------------ recovery

    def recover(self) -> list[str]:
        """Rebuild every unfinished room from the log; return a line per room for the log."""
        report = []
        for token, name in self.store.sessions().items():
            self.sessions[token] = Session(token, name)
        for row in self.store.rooms(unfinished=True):
            try:
                match = self._restore(row.id, row.name, row.config, row.creator)
            except (RecoveryError, ProtocolError) as exc:
                log.error("room %s cannot be resumed: %s", row.id, exc)
                report.append(f"room {row.id} NOT resumed: {exc}")
                continue
            self.matches[match.id] = match
            self.index[match.id] = match
            match.reschedule()
            table = match.table
            if table is None:
                report.append(f"room {match.id} resumed (waiting for players)")
            else:
                report.append(f"room {match.id} resumed: game {match.game_id} "
                              f"(match game {match.match_game}), {match.commands} commands, "
                              f"state hash {table.state_hash()}")
        for session in self.sessions.values():
            self.released(session)  # a restart gives idle sessions a fresh TTL
        return report

    def _restore(self, number: int, name: str, raw: dict[str, Any], creator: str | None
                 ) -> MatchRoom:
        settings = parse_settings(raw, default_name=name, allow_scenarios=True)
        match = MatchRoom(self, number, settings, creator)
        for s in self.store.seats(number):
            if s.seat >= len(match.seats):
                continue
            seat = match.seats[s.seat]
            seat.token, seat.name = s.token, s.name
            seat.deck = deck_from_wire(s.deck) if s.deck is not None else seat.deck
            session = self.sessions.get(s.session) if s.session is not None else None
            if session is not None and s.token is not None:
                seat.session = session
                session.seats[match.id] = seat.index
        games = self.store.games(number)
        current = games[-1] if games and games[-1].result is None else None
        for g in games:
            if g.result is None:
                continue
            match.results.append(g.result)
            match.match_game = g.number
            for w in g.result["winners"]:
                match.wins[w] += 1
        if current is not None:
            rows = list(self.store.commands(current.id))
            table = Table(config_from_wire(current.config), current.seed)
            commands = [(from_record(r.command), r.hash) for r in rows]
            clocks = rows[-1].clocks if rows else None
            match.restore_game(table, current.id, current.number, current.chooser, commands,
                               clocks)
        else:
            now = trio.current_time()
            for seat in match.seats:
                if seat.taken:
                    match.idle_deadline = None
                    seat.away_deadline = now + self.settings.grace
        return match
