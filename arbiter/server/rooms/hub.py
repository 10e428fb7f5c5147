"""The hub: the core's front door. It takes what happened (a frame from a connection, a
connection that closed, a deadline that came, a room read back from the log) together with the
time, and returns what must happen (:class:`~.effects.Effects`).

It keeps the session rules (hello first, the version check, the message rate, which mistakes
count against a client), the sessions, the match rooms and the routing of every room id to its
match. Each input is handled start to end without awaiting anything, so no request sees a room
half-changed, and one room's work never interleaves with another's.

What it does not hold is the routing strategy's to decide (:mod:`.routing`: a server alone, or a
cluster node that asks first). A cluster node's facts come in as inputs too (the log's
availability, the other nodes' rooms, where a room turned out to be, a room it lost), each
answered with effects like a frame.
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from arbiter.protocol import ids as room_ids
from arbiter.protocol import requests as rq
from arbiter.protocol.codec import extend, pack, peek_request_id, unpack_client
from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.server_messages import (
    Catalog,
    Created,
    Error,
    EventList,
    Ok,
    Redirect,
    RoomList,
    ServerMessage,
    Welcome,
    encode,
)
from arbiter.server.rules.cards import catalog
from arbiter.server.store.records import RoomCreated
from arbiter.server.store.rows import StoredRoom

from .addresses import AddressBook, AddressLimits, is_local
from .context import Entropy, HubSettings, RoomContext, SecretEntropy
from .delays import WAKE_KEY as DELAY_KEY
from .effects import (
    POLICY_VIOLATION,
    PROTOCOL_ERROR,
    SERVICE_RESTART,
    Effects,
    LookupKind,
    Read,
    Resolved,
)
from .event_desk import EventDesk
from .event_room import EventRoom
from .lobby import WAKE_KEY as LOBBY_KEY
from .lobby import Lobby, LobbySettings
from .match import MatchRoom
from .peers import Limits, Peer
from .presence import EVENT, LOBBY, PLAYING, WATCHING, Whereabouts
from .recovery import RecoveryError, rebuild
from .routing import LocalRouting, Routing
from .sessions import WAKE_KEY, Session, SessionBook
from .setup import parse_settings, variants
from .states import PeerState, RoomState
from .stats import Stats

log = logging.getLogger("arbiter.rooms")

# Mistakes that say nothing about a client's good faith: they do not count as malformed.
FORGIVEN = frozenset({Code.UNKNOWN_SESSION, Code.ALREADY_HELLO, Code.LIMIT})

# Requests addressed to a room (they all carry its id), and the match's method for each.
ROOM_REQUESTS: dict[type[rq.Request], Callable[[MatchRoom, Peer, Any], None]] = {
    rq.Join: MatchRoom.join, rq.Spectate: MatchRoom.spectate, rq.AddBot: MatchRoom.add_bot,
    rq.SubmitDeck: MatchRoom.submit_deck, rq.Act: MatchRoom.act,
    rq.Concede: MatchRoom.concede, rq.Draw: MatchRoom.draw, rq.Judge: MatchRoom.judge,
    rq.Chat: MatchRoom.chat, rq.Resync: MatchRoom.resync, rq.Leave: MatchRoom.leave,
}


# Requests addressed to an event (its id is a room id), and the event's method for each
# (docs/protocol.md section 15).
EVENT_REQUESTS: dict[type[rq.Request], Callable[[EventRoom, Peer, Any], None]] = {
    rq.Join: EventRoom.join, rq.Spectate: EventRoom.spectate, rq.Leave: EventRoom.leave,
    rq.SubmitDeck: EventRoom.submit_deck, rq.Chat: EventRoom.chat,
    rq.Resync: EventRoom.resync, rq.StartEvent: EventRoom.start, rq.Pick: EventRoom.pick,
    rq.DropEvent: EventRoom.drop,
}
EVENT_ONLY = (rq.StartEvent, rq.Pick, rq.DropEvent)

# Requests a seated player sends while playing: from a connection that does not follow its
# seat's room yet (its resume put off: Hub._resume_seat), they resume the seat first.
SEAT_PLAY = frozenset({rq.Act, rq.Concede, rq.Draw, rq.Judge, rq.Chat, rq.Resync})

ROOM_LIST_MAX = 200  # rooms in one room list (docs/protocol.md, "rooms")
EVENT_MARK = "event"  # in a lobby entry a cluster node publishes: the entry is an event's

# Room requests that change what the log holds, refused while a cluster node cannot reach it.
WRITES = frozenset({rq.Join, rq.Spectate, rq.AddBot, rq.SubmitDeck, rq.Act, rq.Concede,
                    rq.Draw, rq.Judge, rq.StartEvent, rq.Pick, rq.DropEvent})
EVENT_WRITES = WRITES | {rq.Leave}  # leaving an event's lobby gives up its seat


# Requests whose refusal costs real work (reading a deck list, checking a deck or a room's
# settings against a format): a refused one is charged to its sender's connection and address
# (rooms/addresses.py, docs/protocol.md section 1). Which requests those are: _costly.
COSTLY_CODES = frozenset({Code.BAD_DECK, Code.BAD_CONFIG})
COSTLY_REFUSAL = 10  # tokens a refused deck or configuration takes from its connection


def _costly(req: rq.Request) -> bool:
    """A deck list to read (a deck submitted or given to a bot), or a room's settings."""
    if isinstance(req, rq.SubmitDeck):
        return req.text is not None
    if isinstance(req, rq.AddBot):
        return req.deck is not None
    return isinstance(req, rq.CreateRoom)


class Ids(Protocol):
    """Where new room and game numbers come from (the log's next free ones, or a cluster's
    shared sequences)."""

    def next_room(self) -> int: ...

    def next_game(self) -> int: ...


@dataclass
class Counters:
    room: int = 1
    game: int = 1

    def next_room(self) -> int:
        self.room += 1
        return self.room - 1

    def next_game(self) -> int:
        self.game += 1
        return self.game - 1


def _resumed(resume: dict[str, tuple[int, int]] | None) -> set[str]:
    """The matches a hello's ``resume`` names, by their own rooms or their subgames' (a
    "room" that is no room id is nowhere: neither followed nor asked for)."""
    return {room_ids.match_of(r) for r in (resume or {}) if room_ids.is_room_id(r)}


class Hub:
    def __init__(self, settings: HubSettings | None = None, limits: Limits | None = None, *,
                 ids: Ids | None = None, entropy: Entropy | None = None,
                 welcome_limits: dict[str, Any] | None = None,
                 routing: Routing | None = None,
                 address_limits: AddressLimits | None = None,
                 lobby: LobbySettings | None = None) -> None:
        self.settings = settings or HubSettings()
        self.limits = limits or Limits()
        self.addresses = AddressBook(address_limits)
        self.ids: Ids = ids or Counters()
        self.stats = Stats()
        entropy = entropy or SecretEntropy()
        self.sessions = SessionBook(self.settings.sessions, entropy.token)
        self.matches: dict[str, MatchRoom] = {}
        self.index: dict[str, MatchRoom] = {}  # every open subgame room id -> its match
        self.ctx = RoomContext(self.settings, self.stats, self.sessions, entropy,
                               next_game_id=self.ids.next_game, route=self._route,
                               drop=self._drop, catalog=self._catalog,
                               finished=lambda match: self.desk.match_finished(match))
        # Limited events (rooms/event_desk.py); ``events`` is the desk's, by id (a room id).
        self.desk = EventDesk(self.ctx, self.matches, self.ids.next_room, self.ids.next_game)
        self.events = self.desk.events
        # The lobby's people and chat (rooms/lobby.py), for the connections that follow it.
        self.lobby = Lobby(self._whereabouts, lobby)
        # Alone, or one node of a cluster (docs/cluster.md) whose sessions and rooms may live
        # elsewhere, so that it asks (Effects.lookups) before saying they do not exist.
        self.routing: Routing = routing or LocalRouting()
        self._writable = True  # False while a cluster node cannot reach its log
        self._resolved: Resolved | None = None  # what the node found out for this frame
        self._frame: bytes | None = None  # the frame being handled, for lookups
        lim = self.limits
        self.welcome_limits = welcome_limits or {
            "frame": lim.max_frame, "rate": lim.rate, "burst": lim.burst, "queue": lim.queue,
            "grace": self.settings.grace}

    # ------------------------------------------------------------------ inputs

    def connect(self, sink: Any, address: str, now: float) -> Peer:
        """A connection opened (from ``address``); the transport keeps the peer and passes it
        with every later input."""
        return Peer(sink, address, self.limits, now)

    def receive(self, peer: Peer, frame: bytes | str, now: float,
                resolved: Resolved | None = None) -> Effects:
        """One frame from ``peer``. Whatever it holds, the client gets an answer or an error
        (or, on a cluster node, a lookup the node answers by handing the frame back with what
        it ``resolved``), and nothing escapes."""
        out = self._begin(now)
        self._resolved = resolved
        if not peer.reading:
            return out
        if resolved is not None:
            peer.refund()  # the frame was charged when it first came
        if not peer.allow(self.limits, now):
            rid = peek_request_id(frame) if isinstance(frame, bytes) else None
            self._error(peer, Code.RATE_LIMITED,
                        f"more than {self.limits.rate:g} messages per second (answering your "
                        "own decisions does not count: docs/protocol.md section 1)", rid)
            self._close(peer, POLICY_VIOLATION, "rate limit exceeded")
            return out
        request_id = None
        routed: rq.Request | None = None  # the request, once the session rules let it through
        self._frame = frame if isinstance(frame, bytes) else None
        try:
            try:
                if isinstance(frame, str):
                    raise Refusal(Code.BAD_FRAME,
                                  "text frames are not accepted: send binary msgpack")
                message = unpack_client(frame, max_size=self.limits.max_frame)
                request = rq.parse_request(message)
                request_id = request.id
                if self._session_rules(peer, request):
                    routed = request
                    if _costly(request) and not self.addresses.has_token(peer.address, now):
                        raise Refusal(Code.RATE_LIMITED, "too many refused decks or room "
                                      "settings from your address: wait a few seconds")
                    self._dispatch(peer, request)
            except Refusal as exc:
                self._refused(peer, exc, frame, routed, now)
        except Exception:
            log.exception("%r: request failed", peer)
            self.stats.internal_errors += 1
            self._error(peer, Code.INTERNAL, "the server failed to handle this request; "
                                             "nothing changed", request_id)
            if peer.strike(self.limits, now):  # a client that keeps hitting a bug
                self._close(peer, POLICY_VIOLATION, "too many requests the server failed on")
        return out

    def disconnect(self, peer: Peer, now: float) -> Effects:
        """The transport closed ``peer``'s connection (for whatever reason)."""
        out = self._begin(now)
        if peer.state == PeerState.GONE:
            return out
        peer.move(PeerState.GONE)
        self.ctx.delays.gone(peer)
        for rid in list(peer.rooms):
            match = self.matches.get(rid)
            if match is not None:
                match.detach(peer)
            event = self.events.get(rid)
            if event is not None:
                event.detach(peer)
        peer.rooms.clear()
        if peer.session is not None:
            peer.session.peers.discard(peer)
            self.sessions.released(peer.session, now, out)
        self.lobby.gone(peer)
        return out

    def wake(self, key: Hashable, now: float) -> Effects:
        """A deadline the core asked for (``Effects.deadlines``) has come."""
        out = self._begin(now)
        if key == WAKE_KEY:
            self.sessions.expire(now, out)
            return out
        if key == DELAY_KEY:
            self.ctx.delays.release(now, out)
            return out
        if key == LOBBY_KEY:
            self.lobby.tick(now, out)
            return out
        room: EventRoom | MatchRoom | None = self.events.get(str(key)) or \
            self.matches.get(str(key))
        if room is not None:
            try:
                room.on_timer()
            except Exception:  # a timer must never take the server down
                log.exception("room %s: timer handling failed", room.id)
                self.stats.internal_errors += 1
                room.reschedule()
        return out

    def _begin(self, now: float) -> Effects:
        delays = self.ctx.delays
        self.ctx.now = delays.now = now
        self.ctx.out = delays.out = Effects(hold=delays.hold)
        return self.ctx.out

    # ------------------------------------------------------------------ answering

    def _send(self, peer: Peer, message: ServerMessage) -> None:
        self.ctx.out.message([peer], message)

    def _error(self, peer: Peer, code: str, message: str, request_id: int | None,
               room: str | None = None) -> None:
        self.stats.errors[code] += 1
        self._send(peer, Error(code, message, request_id, room))

    def _refused(self, peer: Peer, exc: Refusal, frame: bytes | str,
                 routed: rq.Request | None, now: float) -> None:
        """The one place a refusal (the decoder's, the session rules', a room's or the
        engine's) becomes the ``error`` its sender gets. A well-formed request that reached
        the rooms (``routed``) is answered with its room and never counts against the client;
        a frame refused before that may be malformed (docs/protocol.md section 10)."""
        if routed is not None:
            self._error(peer, exc.code, exc.message, routed.id, getattr(routed, "room", None))
            if exc.code in COSTLY_CODES and _costly(routed):
                # Reading and checking it cost real work: charged to the connection and to
                # its address, which may have many (rooms/addresses.py).
                peer.charge(COSTLY_REFUSAL - 1)
                self.addresses.take(peer.address, now)
            return
        rid = exc.request_id
        if rid is None and isinstance(frame, bytes):
            rid = peek_request_id(frame)  # too large or broken: the id may be there
        self._error(peer, exc.code, exc.message, rid)
        if exc.code == Code.UNSUPPORTED_VERSION:
            self._close(peer, PROTOCOL_ERROR, "no common protocol version")
        elif exc.code not in FORGIVEN and peer.strike(self.limits, now):
            self._close(peer, POLICY_VIOLATION, "too many malformed messages")

    def _close(self, peer: Peer, code: int, reason: str) -> None:
        """Stop reading ``peer`` and close it once the frames before (the error that explains
        why) have been sent."""
        if peer.reading:
            peer.move(PeerState.CLOSING)
            self.stats.policy_closes += code == POLICY_VIOLATION
            self.ctx.out.close(peer, code, reason)

    # ------------------------------------------------------------------ requests

    def _session_rules(self, peer: Peer, req: rq.Request) -> bool:
        """Hello first, and only once: True when ``req`` goes on to the rooms (a hello is
        answered here)."""
        if peer.state == PeerState.HELLO_WAIT:
            if not isinstance(req, rq.Hello):
                raise Refusal(Code.HELLO_FIRST, "say hello first", req.id)
            self._hello(peer, req)
            return False
        if isinstance(req, rq.Hello):
            raise Refusal(Code.ALREADY_HELLO, "this connection has already said hello", req.id)
        return True

    def _ask(self, kind: LookupKind, key: str, peer: Peer) -> bool:
        """Ask the node for ``key`` when the routing says so: True when the frame must wait
        for the answer."""
        if not self.routing.must_ask(kind, key, self._resolved, self.ctx.now):
            return False
        self.ctx.out.lookup(kind, key, peer, self._frame)
        return True

    def _hello(self, peer: Peer, req: rq.Hello) -> None:
        if req.session is not None and req.session not in self.sessions and \
                self._ask(LookupKind.SESSION, req.session, peer):
            return
        session, version = self.sessions.hello(peer, req, self.ctx.now)
        peer.session = session
        peer.version = version
        peer.move(PeerState.ACTIVE)
        self.lobby.arrived(peer)
        seats = []
        for rid, index in sorted(session.seats.items()):
            match = self.matches.get(rid)
            if match is not None:
                seats.append([rid, index, match.seats[index].token])
        self._send(peer, Welcome(req.id, version, session.token, session.name, seats,
                                 self.welcome_limits))
        followed = _resumed(req.resume) | set(session.seats) | session.spectating
        # The rooms the client says it follows are followed again, not only those the session
        # lists: what a session watches is not in the log, so after a restart only its client
        # knows (issue 27.18). attach applies the spectate rules as a spectate would.
        for rid in sorted(followed):
            match = self.matches.get(rid)
            if match is not None:
                match.attach(peer, req.resume)
            event = self.events.get(rid)
            if event is not None:
                event.attach(peer)
        # Rooms the client was following, or holds a seat in, that are not here: a cluster
        # node finds where they are and redirects the client there (a lookup with no frame).
        for rid in self.routing.followed_elsewhere(followed - set(self.events), self.matches):
            self.ctx.out.lookup(LookupKind.ROOM, rid, peer, None, req.resume)

    def match_of(self, room_id: str) -> MatchRoom | None:
        """The match a room id (a match's or one of its subgames') belongs to."""
        return self.matches.get(room_id) or self.index.get(room_id)

    def _match(self, room_id: str, peer: Peer, request: int) -> MatchRoom | None:
        """The match of ``room_id``; None when a cluster node must first find where it is,
        or when it lives on another node (the client is then redirected there)."""
        match = self.match_of(room_id)
        if match is not None:
            return match
        try:
            home = room_ids.match_of(room_id)
        except room_ids.RoomIdError as exc:  # no such room anywhere: no cluster lookup for it
            raise Refusal(Code.UNKNOWN_ROOM, str(exc)) from None
        if self._ask(LookupKind.ROOM, home, peer):
            return None
        url = self._resolved.rooms.get(home) if self._resolved else None
        if url is not None:
            self._redirect(peer, request, url, room_id)
            return None
        raise Refusal(Code.UNKNOWN_ROOM, f"there is no room {room_id[:40]!r}")

    def _resume_seat(self, peer: Peer, match: MatchRoom) -> None:
        """Resume ``peer``'s seat in ``match`` now if its session holds one there that the
        connection does not follow yet. That happens on a cluster node when the hello named
        the room while the node could not tell where it was (a silent holder, Redis or
        PostgreSQL away): the connection is kept and the node looks again later
        (:meth:`redirect`), and meanwhile the room may be taken over here and the client
        answer the decision its replica holds. Refused ``not_seated``, that answer was lost
        for good: a bot that has answered a decision does not answer it again when it is
        offered again, and a room (paused under a subgame, CR 726.1a) stayed where it was
        with every seat connected (issue 27, the chaos test). The seat is resumed as the
        later look would (from a snapshot: the hello's positions are the node's), and the
        request is then the seat's."""
        session = peer.session
        if session is not None and match.id in session.seats and match.id not in peer.rooms:
            match.attach(peer, None)

    def _event_elsewhere(self, peer: Peer, room_id: str, request: int) -> None:
        """An event's own request (``pick``, ``start``, ``drop``) for an event not here: a
        cluster node finds where it is and sends the client there, as for a room (once taken
        over here, the frame handed back finds it); otherwise there is no such event."""
        if room_ids.is_room_id(room_id) and self._ask(LookupKind.ROOM, room_id, peer):
            return
        url = self._resolved.rooms.get(room_id) if self._resolved else None
        if url is not None:
            self._redirect(peer, request, url, room_id)
            return
        raise Refusal(Code.UNKNOWN_ROOM, f"there is no event {room_id[:40]!r}")

    def _dispatch(self, peer: Peer, req: rq.Request) -> None:
        event = self.events.get(getattr(req, "room", None))  # type: ignore[arg-type]
        if event is not None:
            on_event = EVENT_REQUESTS.get(type(req))
            if on_event is None:
                raise Refusal(Code.WRONG_STATE, f"{event.id} is an event, not a game room: "
                                                f"{req.TYPE} is for its matches' rooms")
            if not self._writable and type(req) in EVENT_WRITES:
                raise Refusal(Code.UNAVAILABLE, "this server cannot reach its game log just "
                                                "now: nothing was accepted; try again shortly")
            on_event(event, peer, req)
            return
        if isinstance(req, EVENT_ONLY):
            if self.match_of(req.room) is not None:
                raise Refusal(Code.WRONG_STATE, f"room {req.room} is a game room, not an event")
            self._event_elsewhere(peer, req.room, req.id)
            return
        handler = ROOM_REQUESTS.get(type(req))
        if handler is not None:
            if not self._writable and type(req) in WRITES:
                raise Refusal(Code.UNAVAILABLE, "this server cannot reach its game log just "
                                                "now: nothing was accepted; try again shortly")
            match = self._match(req.room, peer, req.id)  # type: ignore[attr-defined]
            if match is None:
                return
            if type(req) in SEAT_PLAY:
                self._resume_seat(peer, match)
            handler(match, peer, req)
            if isinstance(req, rq.Act):
                peer.refund()  # a player answering their decision is playing, not flooding
        elif isinstance(req, rq.Ping):
            self._send(peer, Ok(req.id))
        elif isinstance(req, rq.ListRooms):
            if self._ask(LookupKind.LOBBY, "", peer):
                return
            rooms = [*self._room_summaries().values(),
                     *(r for r in self._other_entries() if EVENT_MARK not in r)]
            self._send(peer, RoomList(req.id, rooms[:ROOM_LIST_MAX]))
        elif isinstance(req, rq.GetCatalog):
            self.stats.catalogs_sent += 1
            self.ctx.out.send([peer], extend(self._catalog_frame, {"i": req.id}))
        elif isinstance(req, rq.CreateRoom):
            self._create(peer, req)
        elif isinstance(req, rq.CreateEvent):
            if not self._writable:
                raise Refusal(Code.UNAVAILABLE, "this server cannot reach its game log just "
                                                "now: no event was created; try again shortly")
            self.desk.create(peer, req)
        elif isinstance(req, (rq.Replay, rq.History)):
            # Read from the log off the event loop (server/net/archive_reads.py); replaying a
            # game costs real work, so it is charged as a refused deck is, to the connection
            # and to its address (rooms/replays.py).
            if isinstance(req, rq.Replay):
                if not self.addresses.has_token(peer.address, self.ctx.now):
                    raise Refusal(Code.RATE_LIMITED, "too many replays from your address: "
                                                     "wait a few seconds")
                peer.charge(COSTLY_REFUSAL - 1)
                self.addresses.take(peer.address, self.ctx.now)
            token = peer.session.token if peer.session is not None else None
            self.ctx.out.reads.append(Read(peer, req, token))
        elif isinstance(req, rq.ListEvents):
            if self._ask(LookupKind.LOBBY, "", peer):  # a cluster's events live on any node
                return
            events = [*self.desk.summaries().values(),
                      *({k: v for k, v in r.items() if k != EVENT_MARK}
                        for r in self._other_entries() if EVENT_MARK in r)]
            self._send(peer, EventList(req.id, events[:ROOM_LIST_MAX]))
        elif isinstance(req, rq.Lobby):
            self.lobby.follow(peer, req, self.ctx.now, self.ctx.out)
        elif isinstance(req, rq.People):
            self.lobby.search(peer, req, self.ctx.out)
        elif isinstance(req, rq.LobbyChat):
            self.lobby.say(peer, req, self.ctx.now, self.ctx.out)
        else:  # pragma: no cover - parse_request builds only the types above
            raise Refusal(Code.UNKNOWN_TYPE, f"unhandled request {req.TYPE}")

    def _catalog(self) -> dict[str, Any]:
        return {"cards": catalog.cards(), "decks": catalog.decks(), "variants": variants()}

    @functools.cached_property
    def _catalog_frame(self) -> bytes:
        """The catalog packed once, without a request id (each reply appends its own): 76 KB
        that took half a millisecond to pack, asked by every bot of a load test (4,000 at
        once); the cards, decks and variants do not change while the server runs."""
        message = encode(Catalog(0, **self._catalog()))
        del message["i"]
        return pack(message)

    def _create(self, peer: Peer, req: rq.CreateRoom) -> None:
        s = self.settings
        if not self._writable:
            raise Refusal(Code.UNAVAILABLE, "this server cannot reach its game log just now: "
                                            "no room was created; try again shortly")
        if self._ask(LookupKind.PLACE, "", peer):
            return
        resolved = self._resolved
        if resolved is not None and resolved.place is not None:
            # The least-loaded node of the cluster takes new rooms (docs/cluster.md).
            self._redirect(peer, req.id, resolved.place, None)
            return
        if len(self.matches) + len(self.events) >= s.max_rooms:
            raise Refusal(Code.LIMIT, f"this server holds at most {s.max_rooms} rooms")
        session = peer.session
        assert session is not None
        held = [mr for mr in self.matches.values() if mr.held_for_creator]
        mine = sum(1 for mr in held if mr.creator == session.token)
        if mine >= s.max_waiting_per_session:
            raise Refusal(Code.LIMIT, f"you already have {mine} rooms waiting for players "
                                      "or played by bots only")
        counted = s.limit_local_addresses or not is_local(peer.address)  # addresses.py
        here = sum(1 for mr in held if mr.address == peer.address) if counted else 0
        if here >= s.max_waiting_per_address:
            raise Refusal(Code.LIMIT, f"{here} rooms created from your address are waiting "
                                      "for players or played by bots only")
        # Many addresses can fill the table however small each one's share (49 made 975
        # rooms in 2 s: issue 27, item 11). Newcomers' rooms may fill only part of it; the
        # rest stays open to players who have played here.
        newcomers = sum(1 for mr in held if mr.newcomer)
        if not session.played and newcomers >= math.ceil(s.max_rooms * s.newcomer_share):
            raise Refusal(Code.LIMIT, "this server holds as many new players' rooms as it "
                                      "may: join a waiting room, or try again later")
        if resolved is not None and resolved.number is not None:
            number = resolved.number  # set aside by the node (a refused create leaves a gap)
        else:
            number = self.ids.next_room()
        settings = parse_settings(req.config, default_name=f"Room {number}",
                                  allow_scenarios=s.allow_scenarios)
        config = req.config
        if settings.spectators == "all" and settings.invite is None:
            # The all-seeing spectators' invitation, for the creator to hand out; logged with
            # the settings, so that it survives a restart (docs/protocol.md section 7).
            settings = replace(settings, invite=self.ctx.entropy.token())
            config = {**config, "invite": settings.invite}
        match = MatchRoom(self.ctx, number, settings, session.token, peer.address)
        match.newcomer = not session.played
        self.matches[match.id] = match
        self.sessions.matters(session, self.ctx.out)
        self.ctx.out.log(RoomCreated(number, settings.name, config, session.token))
        self._send(peer, Created(req.id, match.id, settings.invite))
        match.reschedule()

    # ------------------------------------------------------------------ rooms' services

    def _route(self, room_id: str, match: MatchRoom | None) -> None:
        if match is None:
            self.index.pop(room_id, None)
        else:
            self.index[room_id] = match

    def _drop(self, match: MatchRoom) -> None:
        """Forget a finished (or abandoned) match; its log stays in the store."""
        self.matches.pop(match.id, None)
        for peer in match.seating.spectators:
            self.ctx.delays.unwatch(peer, match.id)
        for rid in [r for r, mr in self.index.items() if mr is match]:
            del self.index[rid]
        for session in self.sessions.sessions.values():
            if match.id in session.seats or match.id in session.spectating:
                session.seats.pop(match.id, None)
                session.spectating.discard(match.id)
                self.sessions.released(session, self.ctx.now, self.ctx.out)
        self.ctx.out.wake(match.id, None)

    def _whereabouts(self, session: Session) -> Whereabouts:
        """What ``session`` is doing, as far as that is public (rooms/presence.py): a seat in
        a match first, then a match it watches (which one only when its spectators see public
        information), then an event it entered or follows (entrants are public)."""
        for rid in sorted(session.seats):
            if rid in self.matches:
                return PLAYING, rid
        for rid in sorted(session.spectating):
            match = self.matches.get(rid)
            if match is not None:
                return WATCHING, rid if match.settings.spectators == "public" else None
        for rid in sorted(session.seats.keys() | session.spectating):
            if rid in self.events:
                return EVENT, rid
        return LOBBY, None

    def rooms_by_state(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for match in self.matches.values():
            out[match.state.value] = out.get(match.state.value, 0) + 1
        return out

    # ------------------------------------------------------------------ a cluster node's inputs

    def log_availability(self, available: bool, now: float) -> Effects:
        """Whether the node can reach its log now. While it cannot (or is shutting down), room
        requests that would write and new rooms are refused with ``unavailable``; the rest
        (chat, resync, room lists) go on."""
        out = self._begin(now)
        self._writable = available
        return out

    def remote_lobby(self, entries: dict[str, dict[str, Any]], now: float) -> Effects:
        """The other nodes' room summaries by room id, read from the directory at ``now``:
        room lists show them until they are LOBBY_FRESH old (rooms/routing.py)."""
        out = self._begin(now)
        self.routing.remote_lobby(entries, now)
        return out

    def lobby_fresh(self, now: float) -> bool:
        """Whether a room list may be answered without reading the other nodes' rooms."""
        return self.routing.lobby_fresh(now)

    def lookup_failed(self, peer: Peer, frame: bytes | None, why: str, now: float,
                      room: str | None = None) -> Effects:
        """The node could not find out what a lookup asked (its directory or log did not
        answer, or a room's silent holder did not let it go in time): ``frame`` is answered
        ``unavailable`` and nothing is done. A client resuming ``room`` (no frame) keeps its
        connection and hears ``unavailable`` for the room; the node looks again and sends it
        on (:meth:`redirect`) once it can. Closing it instead made every client of a node
        without its log reconnect about ten times a second (issue 27.4)."""
        out = self._begin(now)
        if frame is not None:
            self._error(peer, Code.UNAVAILABLE, f"{why}: nothing was done; try again shortly",
                        peek_request_id(frame))
        elif peer.reading:
            self._send(peer, Error(Code.UNAVAILABLE, f"{why}: room {room} is followed again "
                                   "as soon as it is found; stay connected", None, room))
        return out

    def redirect(self, peer: Peer, room: str, url: str | None, now: float,
                 resume: dict[str, tuple[int, int]] | None = None) -> Effects:
        """Where ``room``, which ``peer`` was following when it said hello, turned out to be
        (a lookup without a frame): at ``url``, where ``peer`` is sent; or here after all (the
        node took it over meanwhile), and ``peer`` follows it from ``resume`` as its hello
        asked; or nowhere: its match finished (or it never was), and ``peer`` is told that it
        closed, as a waiting room that expires tells its members."""
        out = self._begin(now)
        session = peer.session
        if not peer.reading or session is None:
            return out
        if url is not None:
            self._redirect(peer, None, url, room)
            return out
        event = self.events.get(room)
        if event is not None:  # an event this node took over meanwhile
            if room not in peer.rooms:
                event.attach(peer)
            return out
        match = self.matches.get(room)
        if match is None:
            session.seats.pop(room, None)
            session.spectating.discard(room)
            self._send(peer, Error(Code.ROOM_CLOSED, f"room {room} is over or gone: no node "
                                   "holds it", None, room))
        elif room not in peer.rooms and (room in session.seats or room in session.spectating
                                         or room in _resumed(resume)):
            # A room the hello's resume named is followed again as the hello would have, had
            # the room been here: what a session watches is not in the log, so a node that
            # takes over a room knows its spectators only by their resume (a page watching a
            # game heard nothing more after its node died). attach applies the spectate rules.
            match.attach(peer, resume)
        return out

    def _redirect(self, peer: Peer, request: int | None, url: str, room: str | None) -> None:
        """Send ``peer`` to the node at ``url``. Its session is logged first (the frame waits
        for it), so that the node it goes to knows the token it will say hello with."""
        if peer.session is not None:
            self.sessions.matters(peer.session, self.ctx.out)
        self._send(peer, Redirect(request, url, room))
        self.stats.redirects += 1

    def release_room(self, room: str, url: str | None, now: float) -> Effects:
        """This node no longer owns ``room`` (another node claimed it, or its writes could not
        be made durable): forget it without logging anything. Its followers are redirected to
        ``url`` when the new owner is known; otherwise their connections are closed with 1012,
        and they come back with their sessions and are sent on from there."""
        out = self._begin(now)
        match = self.matches.pop(room, None)
        event = self.events.pop(room, None)
        if match is not None:
            followers = match.members()
            for rid in [r for r, mr in self.index.items() if mr is match]:
                del self.index[rid]
        elif event is not None:
            followers = event.members()
        else:
            return out
        for session in self.sessions.sessions.values():
            session.seats.pop(room, None)
            session.spectating.discard(room)
        out.wake(room, None)
        for peer in followers:
            peer.rooms.discard(room)
            if url is not None:
                self._redirect(peer, None, url, room)
            else:
                self._close(peer, SERVICE_RESTART, f"room {room} moved to another server")
        return out

    def load(self) -> tuple[int, int]:
        """This node's load for placing new rooms: (rooms, players connected)."""
        players = sum(len(s.peers) for mr in self.matches.values() for s in mr.seats)
        return len(self.matches), players

    def summaries(self) -> dict[str, dict[str, Any]]:
        """The lobby entries of this node's rooms and events (finished ones left out), as a
        cluster node publishes them: an event's marked (``EVENT_MARK``), so that the other
        nodes list it with the events, not with the rooms."""
        events = {rid: {**e, EVENT_MARK: True} for rid, e in self.desk.summaries().items()}
        return {**self._room_summaries(), **events}

    def _room_summaries(self) -> dict[str, dict[str, Any]]:
        out = {}
        for mr in self.matches.values():
            if mr.state != RoomState.FINISHED:
                summary = encode(mr.summary())
                del summary["t"]
                out[mr.id] = summary
        return out

    def _other_entries(self) -> list[dict[str, Any]]:
        """The other nodes' lobby entries, rooms and events (a cluster node's; none alone)."""
        return self.routing.other_rooms(self.matches.keys() | self.events.keys())

    # ------------------------------------------------------------------ recovery

    def restore_sessions(self, sessions: dict[str, str]) -> None:
        for token, name in sessions.items():
            self.sessions.restore(token, name)

    def restore_room(self, stored: StoredRoom, now: float) -> tuple[str, Effects]:
        """Rebuild an unfinished room read back from the log; return a line for the server's
        log (saying whether it could be resumed) and the effects (its timers)."""
        out = self._begin(now)
        row = stored.room
        self.restore_sessions(stored.sessions)
        if "event" in row.config:
            return self.desk.restore(stored), out
        try:
            match = rebuild(self.ctx, self.sessions, stored)
        except RecoveryError as exc:
            log.error("room %s cannot be resumed: %s", row.id, exc)
            return f"room {row.id} NOT resumed: {exc}", out
        self.matches[match.id] = match
        self.desk.restored_match(match)
        match.reschedule()
        table = match.table
        if table is None:
            return f"room {match.id} resumed (waiting for players)", out
        return (f"room {match.id} resumed: game {match.game_id} (match game "
                f"{match.score.game}), {match.commands} commands, state hash "
                f"{table.state_hash()}"), out

    def resume_idle_sessions(self, now: float) -> Effects:
        """After recovery: a restart gives every idle session a fresh TTL."""
        out = self._begin(now)
        self.sessions.released_all(list(self.sessions.sessions.values()), now, out)
        return out
