"""A trio client for Arbiter: one connection, requests matched to replies by request id, a
replica of every room the player follows, and reconnection with the session after a drop.

The replica is :class:`protocol.Tracker`'s: each delta's sequence number and checksum are
checked, and on a gap or a mismatch the client asks the server for a snapshot by itself (both
are counted in :attr:`Client.stats`). When the connection drops the client reconnects with
exponential backoff and says hello with its session and where each room's view stands, so the
server can send only the deltas it missed (or a snapshot when its history no longer has them);
seats stay held by the session, and by their seat tokens if the session is unknown to the
server. Subgame rooms (CR 726) are followed as the server opens and closes them:
:meth:`Client.active_room` is always the innermost open room of a match.

A client may be given several entry URLs (the nodes of a cluster, docs/protocol.md section 14).
It connects to the first that answers; after a drop it tries the node it was on first, then the
others in turn. A ``redirect`` that answers a request moves the client to the node named, where
it says hello with its session and resume and asks again, inside :meth:`Client.request`: the
caller sees only the real answer. A redirect about a room it follows moves it the same way,
and the replica carries on from where it stood.

Usage::

    async with open_client("ws://127.0.0.1:8765/", "Ann") as client:
        room = await client.create({"seats": 2})
        await client.join(room, deck="quick-red")
        async for event in client.events():
            ...
"""

from __future__ import annotations

import contextlib
import itertools
import math
import random
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import trio
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from arbiter.protocol import Tracker, pack, unpack_server
from arbiter.protocol import requests as rq
from arbiter.protocol import server_messages as sm
from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.ids import is_room_id, match_of
from arbiter.protocol.tracker import RoomView

from . import events as ev
from .connection import Connection, connect
from .heartbeat import Heartbeat
from .urls import BadURL, entry_urls, rotation, websocket_url

# Redirects followed in a row before giving up: a node never sends a client to itself or to a
# node it knows is gone, so a longer chain means the cluster disagrees with itself.
MAX_REDIRECTS = 5
LOBBY_LINES = 50  # lobby chat lines kept (the server keeps as many for newcomers)
JOIN_ATTEMPTS = 3  # a join asked again after connections dropped before its answer

# A request waiting for its id: the client picks a fresh one each time it sends (a request
# asked again after a redirect is a new request). A request class with its fields bound, such
# as ``partial(requests.Chat, room=room, text="gg")``, or ``requests.ListRooms`` itself.
Ask = Callable[[int], rq.Request]


class RequestError(Exception):
    """The server refused a request; ``code`` is one of docs/protocol.md's error codes, or one
    of the SDK's own: ``redirect_loop`` (more than :data:`MAX_REDIRECTS` redirects in a row)
    and ``bad_redirect`` (a redirect to anything but a ws:// or wss:// URL)."""

    def __init__(self, code: str, message: str, request_id: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.request_id = request_id


class ConnectionLost(Exception):
    """The connection dropped before the request was answered: it may or may not have been
    applied. The client is reconnecting; the replica will tell."""


class ConnectError(Exception):
    """The first connection could not be made (or the server refused our hello)."""


_RETRYABLE = (OSError, ConnectionClosed, InvalidHandshake, InvalidURI, trio.TooSlowError,
              TimeoutError, Refusal, RequestError)


# Heartbeats (websocket pings) the client sends: a server that stops answering (frozen, or
# cut off without a close) is noticed within PING_INTERVAL + PING_TIMEOUT seconds and the
# client goes to another entry (.heartbeat). A frozen node's socket still accepts, so nothing
# else tells (issue 27: 37-40 s with 20 s heartbeats, against a 4 s failover).
PING_INTERVAL = 2.5
PING_TIMEOUT = 2.5


@dataclass
class Backoff:
    """Delays between reconnection attempts: exponential, capped, with jitter. They start
    afresh only after a connection that lasted ``stable`` seconds, or that served until its
    server fell silent (.heartbeat): a node that accepts and drops at once (or a redirect
    back to a dead node) must not make every client reconnect at the first delay forever
    (issue 27: a storm of a connect every 80-100 ms a client)."""

    initial: float = 0.1
    maximum: float = 5.0
    factor: float = 2.0
    jitter: float = 0.5  # each delay is scaled by a random factor in [1 - jitter, 1]
    stable: float = 10.0

    def delays(self, rng: random.Random) -> Iterator[float]:
        delay = self.initial
        while True:
            yield delay * (1 - self.jitter * rng.random())
            delay = min(self.maximum, delay * self.factor)


@dataclass
class Stats:
    frames: int = 0
    deltas: int = 0
    delta_bytes: int = 0
    snapshots: int = 0
    snapshot_bytes: int = 0
    resyncs: int = 0  # snapshots asked for after a gap or a checksum mismatch
    desyncs: int = 0  # gaps and checksum mismatches found
    connects: int = 0
    reconnects: int = 0
    disconnects: int = 0  # connections lost without our asking
    redirects: int = 0  # moves to another node of a cluster, asked for by a redirect
    errors: int = 0  # error messages received


@dataclass(frozen=True)
class SeatTicket:
    """A seat held in a match room: its index and the token that reclaims it."""

    room: str
    seat: int
    token: str


@dataclass
class _Pending:
    event: trio.Event
    reply: sm.ServerMessage | None = None


R = TypeVar("R", bound=sm.ServerMessage)


class _Bucket:
    """Client-side pacing within the server's announced message rate (docs/protocol.md,
    ``welcome.limits``), with a margin, so a busy client is slowed rather than disconnected."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate * 0.9
        self.burst = max(1.0, burst * 0.9)
        self.tokens = self.burst
        self.at = trio.current_time()

    async def take(self) -> None:
        now = trio.current_time()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            wait = (1 - self.tokens) / self.rate
            await trio.sleep(wait)
            self.tokens += wait * self.rate
            self.at = trio.current_time()
        self.tokens -= 1


class Client:
    """One session's connection to a server or a cluster. ``urls``: one websocket URL, several
    (a sequence, or one string with commas), tried in order; :attr:`url` is the node the
    client is on (or trying)."""

    def __init__(self, urls: str | Sequence[str], name: str | None = None, *,
                 session: str | None = None,
                 reconnect: bool = True, backoff: Backoff | None = None,
                 ping_interval: float | None = PING_INTERVAL,
                 ping_timeout: float | None = PING_TIMEOUT,
                 open_timeout: float | None = 10.0, strict: bool = False, pace: bool = True,
                 rng: random.Random | None = None) -> None:
        if name is None and session is None:
            raise ValueError("a client needs a name or a session to resume")
        self.urls = entry_urls(urls)  # raises BadURL (a ValueError)
        self.url = self.urls[0]
        self.name = name
        self.session = session
        self.reconnect = reconnect
        self.backoff = backoff or Backoff()
        self.strict = strict  # check every server message's shape
        self.pace = pace
        self.rng = rng or random.Random()
        # Our own heartbeat, not the library's keepalive (see .heartbeat for why).
        self._ping = (ping_interval, ping_timeout or ping_interval) \
            if ping_interval is not None else None
        self._heartbeat: Heartbeat | None = None
        # The connection's own (.connection): no compression, no proxy, no size limit.
        self._open_timeout = open_timeout
        self._close_timeout = 2.0
        self.tracker = Tracker()
        self.stats = Stats()
        self.seats: dict[str, SeatTicket] = {}  # match room id -> the seat we hold there
        self.spectating: set[str] = set()
        # Invitations to rooms whose spectators see everything: those of the rooms this client
        # created (``created.invite``) and those it was given (docs/protocol.md section 7).
        self.invites: dict[str, str] = {}
        self.summaries: dict[str, dict[str, Any]] = {}  # match room id -> latest summary
        self.results: dict[str, list[ev.Result]] = {}  # match room id -> its games' results
        self.closed: set[str] = set()  # match rooms the server said are gone (room_closed)
        # Limited events followed: each one's latest state, sent whole (docs/protocol.md
        # section 15). A new state is a new map, so ``wait_event`` can tell one from the next.
        self.event_states: dict[str, dict[str, Any]] = {}
        # The lobby, while following it (docs/protocol.md section 16): the latest people
        # event and the chat's latest lines; followed again after a reconnect.
        self.lobby: tuple[bool, bool] | None = None  # (follow, hidden) as last asked
        self.people: ev.People | None = None
        self.lobby_lines: deque[dict[str, Any]] = deque(maxlen=LOBBY_LINES)
        self.limits: dict[str, Any] = {}
        self._ids = itertools.count(1)
        self._waiting: dict[int, _Pending] = {}
        self._subscribers: list[trio.MemorySendChannel[ev.Event]] = []
        self._changed = trio.Event()
        self._connected = trio.Event()
        self._ws: Connection | None = None
        self._nursery: trio.Nursery | None = None
        self._closing = False
        self._scope: trio.CancelScope | None = None
        self._bucket: _Bucket | None = None
        self._ever_connected = False
        self._delays: Iterator[float] | None = None
        self._connected_at = 0.0  # when the current (or last) connection was made
        self._catalog: dict[str, Any] | None = None
        self._stopped = False  # run() has returned: no connection will come
        self._moving: str | None = None  # the node a redirect sends us to, until we are there
        self._hops = 0  # redirects about rooms followed in a row, with no frame of a room between
        self._silent = False  # the last connection ended with no close frame from the server
        self._here: set[str] = set()  # matches this connection has sent us frames about

    # ------------------------------------------------------------------ the connection

    @property
    def connected(self) -> bool:
        return self._ws is not None

    @property
    def connection(self) -> Connection | None:
        """The current websocket (None while reconnecting)."""
        return self._ws

    async def run(self, task_status: trio.TaskStatus[Client] = trio.TASK_STATUS_IGNORED
                  ) -> None:
        """Connect, and stay connected until :meth:`close`. Reports started after the first
        welcome; raises :class:`ConnectError` if that first connection fails at every entry
        URL (each is tried once, in order)."""
        with trio.CancelScope() as scope:
            self._scope = scope
            try:
                await self._stay_connected(task_status)
            finally:
                self._stopped = True
                self._notify()  # whoever waits for a connection learns there will be none
        self._scope = None

    async def _stay_connected(self, task_status: trio.TaskStatus[Client]) -> None:
        targets: Iterator[str] = iter(self.urls)
        failures: list[tuple[str, BaseException]] = []
        arriving = False  # this attempt goes where a redirect sent us
        while not self._closing:
            url = next(targets, None)
            if url is None:  # only the first connection's targets run out
                raise self._connect_error(failures)
            self.url = url
            connects = self.stats.connects
            failure, reason = await self._attempt(task_status)
            connected = self.stats.connects > connects
            if arriving and not connected:
                # The node we were sent to is not there (it died, and the directory does not
                # know yet): no hop towards a loop. We go back to the entry URLs, and the
                # backoff paces the next try while the cluster catches up.
                self._hops = max(0, self._hops - 1)
            arriving = False
            if failure is not None and not self._ever_connected:
                failures.append((url, failure))
                continue  # the next entry URL, at once
            moved, self._moving = self._moving, None
            if connected and (trio.current_time() - self._connected_at >= self.backoff.stable
                              or (self._heartbeat is not None and self._heartbeat.silent)):
                # It held, or it served until the server fell silent (a frozen node): the
                # next try starts the backoff afresh. A silent drop took a heartbeat timeout
                # of waiting already, so it cannot make a storm; escalated delays would only
                # add seconds to a failover (issue 27.5: 4.8 s once, after a 2.5 s silence).
                self._delays = None
            self._lost(reason, moved=moved is not None)
            if self._closing or (not self.reconnect and moved is None):
                break
            if moved is not None:  # we asked for this: go at once
                targets = itertools.cycle(rotation(moved, self.urls))
                arriving = True
                continue
            if connected:  # the node we were on first (last if it fell silent), then the others
                targets = itertools.cycle(rotation(url, self.urls, silent=self._silent))
            if self._delays is None:
                self._delays = self.backoff.delays(self.rng)
            await trio.sleep(next(self._delays))
            self.stats.reconnects += 1

    async def _attempt(self, task_status: trio.TaskStatus[Client]
                       ) -> tuple[BaseException | None, str]:
        """One connection to :attr:`url`, until it closes: what went wrong (None for a plain
        close), and why it ended."""
        failure: BaseException | None = None
        reason = "closed"
        try:
            async with trio.open_nursery() as nursery:
                try:
                    reason = await self._connection(nursery, task_status)
                except _RETRYABLE as exc:
                    failure = exc
                nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:  # from the websocket's own tasks
            rest = group.split(_RETRYABLE)[1]
            if rest is not None:
                raise
            failure = group
        if failure is not None:
            reason = f"{type(failure).__name__}: {failure}"
        return failure, reason

    def _connect_error(self, failures: list[tuple[str, BaseException]]) -> ConnectError:
        """Why no entry URL gave us a first connection (the last failure is the cause)."""
        def why(url: str, failure: BaseException) -> str:
            if isinstance(failure, RequestError):
                return f"{url} refused our hello: {failure}"
            return f"cannot connect to {url}: {type(failure).__name__}: {failure}"

        error = ConnectError("; ".join(why(url, failure) for url, failure in failures))
        error.__cause__ = failures[-1][1] if failures else None
        error.__suppress_context__ = True
        return error

    async def _connection(self, nursery: trio.Nursery, task_status: trio.TaskStatus[Client]
                          ) -> str:
        """One connection: connect, say hello, read until it closes."""
        ws = await connect(self.url, open_timeout=self._open_timeout,
                           close_timeout=self._close_timeout)
        self._heartbeat = None
        if self._ping is not None:
            self._heartbeat = Heartbeat(*self._ping)
            nursery.start_soon(self._heartbeat.run, ws)
        try:
            await self._hello(ws, nursery)
        except BaseException:
            with trio.CancelScope(shield=True), trio.move_on_after(2):
                await ws.aclose()
            raise
        self._nursery = nursery
        self._ws = ws
        self._here = set()
        self._connected.set()
        self._notify()
        self._connected_at = trio.current_time()  # a long connection resets the backoff
        if not self._ever_connected:
            self._ever_connected = True
            task_status.started(self)
        try:
            return await self._read(ws)
        finally:
            # However reading ended (a frame refused, a cancellation), the socket is closed
            # with it, as the library's reader task did when its nursery was cancelled; after
            # a close, this does nothing.
            ws.drop()

    async def close(self) -> None:
        """Close the connection and stop reconnecting (seats stay held by the server for its
        grace period; :meth:`leave` gives them up)."""
        self._closing = True
        self._notify()
        ws = self._ws
        if ws is not None:
            with trio.move_on_after(3):
                await ws.aclose()
        if self._scope is not None:
            self._scope.cancel()

    async def _hello(self, ws: Connection, nursery: trio.Nursery) -> None:
        fresh = partial(rq.Hello, versions=rq.VERSIONS, name=self.name)
        resumed = self.session is not None
        if self.session is not None:
            positions = self.tracker.positions()
            # Rooms we sit or watch in but have no view of yet (joined before the game began)
            # are named too, at no position: a node of a cluster must know to find them.
            for room in (*self.seats, *self.spectating):
                positions.setdefault(room, (0, 0))
            reply = await self._hello_once(ws, partial(
                rq.Hello, versions=rq.VERSIONS, session=self.session, resume=positions or None))
        else:
            reply = await self._hello_once(ws, fresh)
        reclaim = False
        if isinstance(reply, sm.Error) and reply.code == "unknown_session" and self.name:
            # The server forgot us: start a new session and reclaim seats by their tokens.
            reply = await self._hello_once(ws, fresh)
            reclaim = resumed = True
        if isinstance(reply, sm.Error):
            raise RequestError(reply.code, reply.message, reply.request)
        assert isinstance(reply, sm.Welcome)
        self.session = reply.session
        self.name = reply.name
        self.limits = dict(reply.limits)
        rate, burst = self.limits.get("rate"), self.limits.get("burst")
        self._bucket = _Bucket(float(rate), float(burst)) if self.pace and rate and burst \
            else None
        for room, seat, token in reply.seats:
            self.seats[room] = SeatTicket(room, int(seat), str(token))
        self.stats.connects += 1
        self._emit(ev.Connected(self.session, self.name, resumed))
        if reclaim:
            nursery.start_soon(self._reclaim)
        if self.lobby is not None and self.lobby != (False, False):
            nursery.start_soon(self._follow_lobby_again)

    async def _hello_once(self, ws: Connection, hello: Ask) -> sm.ServerMessage:
        await ws.send(pack(rq.to_wire(hello(next(self._ids)))))
        while True:
            frame = await ws.recv()
            if isinstance(frame, bytes):
                reply = sm.decode(unpack_server(frame))
                if isinstance(reply, sm.Welcome | sm.Error):
                    return reply

    async def _reclaim(self) -> None:
        for ticket in list(self.seats.values()):
            try:
                await self.join(ticket.room, token=ticket.token)
            except (RequestError, ConnectionLost):
                self.seats.pop(ticket.room, None)
        for room in list(self.spectating):
            try:
                await self.spectate(room)
            except (RequestError, ConnectionLost):
                self.spectating.discard(room)

    async def _read(self, ws: Connection) -> str:
        self._silent = False
        heartbeat = self._heartbeat
        try:
            async for frame in ws:
                if heartbeat is not None:
                    heartbeat.heard()
                if isinstance(frame, bytes):
                    self._on_frame(frame)
        except ConnectionClosed as exc:
            self._silent = exc.rcvd is None  # no goodbye: frozen, cut off or killed
            if heartbeat is not None and heartbeat.silent:
                return f"connection dropped ({heartbeat.reason})"
            return f"connection closed ({exc})"
        return f"connection closed ({ws.close_code})"

    def _lost(self, reason: str, *, moved: bool = False) -> None:
        """The connection ended: by a drop, or because we moved to another node (then it is
        no disconnect: the :class:`~clients.sdk.events.Redirected` event said where)."""
        was_connected = self._ws is not None
        self._ws = None
        self._nursery = None
        self._here = set()
        if self._connected.is_set():
            # A fresh event for the next connection, made once: a failed attempt to reconnect
            # must not orphan the event that requests and bots are already waiting on (they
            # would wait forever: the server restarted, the bots reconnected, nobody played).
            self._connected = trio.Event()
        for pending in self._waiting.values():
            pending.event.set()
        self._waiting.clear()
        if was_connected and not self._closing and not moved:
            self.stats.disconnects += 1
            self._emit(ev.Disconnected(reason))
        self._notify()

    # ------------------------------------------------------------------ incoming

    def _on_frame(self, frame: bytes) -> None:
        msg = sm.decode(unpack_server(frame))
        room = getattr(msg, "room", None)
        if room is not None and not is_room_id(room):
            # Refused like any malformed frame (the connection is tried again), before the
            # replica or the bookkeeping by match takes it in.
            raise Refusal(Code.BAD_MESSAGE, f"{msg.TYPE} names no room: {room!r:.40}")
        stats = self.stats
        stats.frames += 1
        stale = self.tracker.feed(msg)
        self._event_for(msg, len(frame))
        if stale is not None:
            stats.desyncs += 1
            self._emit(ev.Resynced(stale))
            if self._nursery is not None:
                self._nursery.start_soon(self._resync, stale)
        rid = getattr(msg, "request", None)
        if rid is not None:
            pending = self._waiting.pop(rid, None)
            if pending is not None:
                pending.reply = msg
                pending.event.set()
        self._notify()

    def _event_for(self, msg: sm.ServerMessage, size: int) -> None:
        """Hand the application the event a server message means."""
        stats = self.stats
        if isinstance(msg, sm.RoomUpdate | sm.Snapshot | sm.Delta | sm.Actions):
            self._here.add(match_of(msg.room))  # this node serves that match
        if isinstance(msg, sm.Snapshot | sm.Delta):
            self._hops = 0  # a room goes on here: the redirects before this one settled
        if isinstance(msg, sm.Delta):
            rv = self.tracker.rooms.get(msg.room)
            if rv is not None and not rv.stale and rv.seq == msg.seq:
                stats.deltas += 1
                stats.delta_bytes += size
                self._emit(ev.Delta(msg.room, msg.seq, msg.ops, size, tuple(msg.log or ())))
                if msg.actions is not None:  # the decider's next legal actions ride along
                    self._emit(ev.Actions(msg.room, msg.actions))
        elif isinstance(msg, sm.Snapshot):
            stats.snapshots += 1
            stats.snapshot_bytes += size
            # A copy: the replica moves on with the next delta, the event must not.
            self._emit(ev.Snapshot(msg.room, dict(self.tracker.rooms[msg.room].view),
                                   tuple(msg.log)))
        elif isinstance(msg, sm.Actions):
            self._emit(ev.Actions(msg.room, msg.decision))
        elif isinstance(msg, sm.RoomUpdate):
            summary = sm.encode(msg)
            del summary["t"]
            self.summaries[msg.room] = summary
            self._prune(msg.room, summary)
            self._emit(ev.RoomUpdate(msg.room, summary))
        elif isinstance(msg, sm.RoomList):
            self._emit(ev.RoomList(list(msg.rooms)))
        elif isinstance(msg, sm.Result):
            result = ev.Result(msg.room, msg.result, msg.match or {})
            self.results.setdefault(match_of(msg.room), []).append(result)
            self._emit(result)
        elif isinstance(msg, sm.Opened):
            self._emit(ev.SubgameOpened(msg.room, msg.parent, msg.game, msg.depth,
                                        list(msg.players)))
        elif isinstance(msg, sm.Closed):
            self._emit(ev.SubgameClosed(msg.room, msg.parent, msg.result))
        elif isinstance(msg, sm.Paused):
            self._emit(ev.Paused(msg.room, msg.subgame))
        elif isinstance(msg, sm.Resumed):
            self._emit(ev.Resumed(msg.room))
        elif isinstance(msg, sm.Restarted):
            self._emit(ev.Restarted(msg.room, msg.game, msg.old, msg.starting))
        elif isinstance(msg, sm.EventState):
            self.event_states[msg.room] = msg.event
            self._emit(ev.EventUpdate(msg.room, msg.event))
        elif isinstance(msg, sm.ChatLine):
            self._emit(ev.ChatMessage(msg.room, msg.sender, msg.seat, msg.text))
        elif isinstance(msg, sm.PeopleList) and msg.request is None:
            self.people = ev.People(msg.count, list(msg.people))
            self._emit(self.people)
        elif isinstance(msg, sm.LobbyChatLines):
            # A reconnect's follow sends the latest lines again: keep each line once.
            known = {line.get("n") for line in self.lobby_lines}
            self.lobby_lines.extend(line for line in msg.lines if line.get("n") not in known)
            self._emit(ev.LobbyChat(list(msg.lines)))
        elif isinstance(msg, sm.Clock):
            self._emit(ev.Clock(msg.room, list(msg.left), msg.running))
        elif isinstance(msg, sm.SeatLost):
            self.seats.pop(msg.room, None)
            for rid, rv in self.tracker.rooms.items():
                if match_of(rid) == msg.room:
                    rv.closed = True
                    rv.actions = None
            self._emit(ev.SeatLost(msg.room, msg.seat))
        elif isinstance(msg, sm.Error):
            stats.errors += 1
            if msg.request is None and msg.code == "room_closed" and msg.room is not None \
                    and msg.room == match_of(msg.room):
                self._match_closed(msg.room)
            if msg.request is None or msg.request not in self._waiting:
                self._emit(ev.ServerError(msg.code, msg.message, msg.request, msg.room))
        elif isinstance(msg, sm.Redirect) and msg.request is None:
            self._redirected(msg)

    # ------------------------------------------------------------------ moving between nodes

    def _redirected(self, msg: sm.Redirect) -> None:
        """A room we follow lives on another node (it moved, or we resumed it on the wrong
        node): go there and say hello with resume. Not while this node serves another room
        of ours: a client follows one node's rooms at a time, and moving would only bounce
        it between two nodes, each sending it back for the other's room."""
        if msg.room is not None:
            self._here.discard(match_of(msg.room))
        try:
            url = websocket_url(msg.url)
        except BadURL as exc:
            self._refuse("bad_redirect", f"a redirect not followed: {exc}", msg.room)
            return
        if self._moving is not None or url == self.url:
            return  # already on our way; or a node naming itself, which it never should
        if any(m in self.seats or m in self.spectating for m in self._here):
            return
        pause = 0.0
        if self._hops >= MAX_REDIRECTS:
            # The cluster keeps sending us around (it disagrees with itself for a moment, as
            # while a dead node's rooms are taken over): not giving up, which would leave the
            # room unfollowed for good, but slowing down, and saying so.
            self._refuse("redirect_loop", f"{MAX_REDIRECTS} redirects in a row; following the "
                                          f"next after {self.backoff.maximum:g} s", msg.room)
            pause, self._hops = self.backoff.maximum, 0
        self._hops += 1
        self._move(url, msg.room, pause)

    def _refuse(self, code: str, message: str, room: str | None) -> None:
        """A message from the server that the SDK will not act on, told to the application
        as an error event with the SDK's own code."""
        self.stats.errors += 1
        self._emit(ev.ServerError(code, message, None, room))

    def _move(self, url: str, room: str | None, pause: float = 0.0) -> None:
        """Leave this connection for the node at ``url`` (run() connects there as soon as
        it closed, ``pause`` seconds from now)."""
        ws, nursery = self._ws, self._nursery
        self._moving = url
        self.stats.redirects += 1
        self._emit(ev.Redirected(url, room))
        if ws is not None and nursery is not None:
            nursery.start_soon(self._hang_up, ws, nursery, pause)

    async def _hang_up(self, ws: Connection, nursery: trio.Nursery,
                       pause: float = 0.0) -> None:
        await trio.sleep(pause)
        with trio.move_on_after(2):
            await ws.aclose(1000, "redirected")
        nursery.cancel_scope.cancel()  # in case the server never answered our close

    async def _follow(self, reply: sm.Redirect, ws: Connection) -> bool:
        """A request was answered with a redirect on ``ws``: move to the node it names
        (unless we are already moving or have moved), and return once connected again:
        whether there, or (the node named was not there) at another entry URL."""
        try:
            url = websocket_url(reply.url)
        except BadURL as exc:
            raise RequestError("bad_redirect", f"a redirect not followed: {exc}",
                               reply.request) from None
        if self._ws is ws and self._moving is None:
            self._move(url, reply.room)
        await self._reached(ws)
        return self.url == url

    async def _reached(self, old: Connection | None) -> None:
        """Wait for a connection other than ``old``: the move's, or any one after it."""
        while self._ws is None or self._ws is old:
            if self._closing or self._stopped:
                raise ConnectionLost("the client is closed")
            await self._changed.wait()

    def _match_closed(self, match: str) -> None:
        """The server closed a match room we were in (a waiting room that expired, or one that
        ended while we were away from a cluster): it is over for us, and its seat is gone."""
        self.closed.add(match)
        self.seats.pop(match, None)
        self.spectating.discard(match)
        for rid, rv in self.tracker.rooms.items():
            if match_of(rid) == match:
                rv.closed = True
                rv.actions = None

    def _prune(self, match: str, summary: dict[str, Any]) -> None:
        """Rooms of ``match`` the summary no longer lists closed while we were away."""
        current = {match, *summary.get("rooms", ())}
        for rid, rv in self.tracker.rooms.items():
            if match_of(rid) == match and rid not in current and not rv.closed:
                rv.closed = True
                rv.actions = None

    async def _resync(self, room: str) -> None:
        self.stats.resyncs += 1
        # If the room closed, or the connection dropped (we resume on reconnecting), there is
        # nothing more to do.
        with contextlib.suppress(RequestError, ConnectionLost):
            await self.request(partial(rq.Resync, room=room))

    def _emit(self, event: ev.Event) -> None:
        for channel in list(self._subscribers):
            try:
                channel.send_nowait(event)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self._subscribers.remove(channel)

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    # ------------------------------------------------------------------ for the application

    def subscribe(self) -> trio.MemoryReceiveChannel[ev.Event]:
        """A new channel that receives every event from now on (close it when done)."""
        send, receive = trio.open_memory_channel[ev.Event](math.inf)
        self._subscribers.append(send)
        return receive

    async def events(self) -> AsyncIterator[ev.Event]:
        """Every event from now on, for as long as the caller iterates."""
        receive = self.subscribe()
        async with receive:
            async for event in receive:
                yield event

    async def wait_changed(self) -> None:
        """Wait until the next server message has been processed (or the connection
        changed). Check the state first, then wait, with no await in between."""
        await self._changed.wait()

    async def wait_connected(self) -> None:
        await self._connected.wait()

    def room(self, room: str) -> RoomView | None:
        return self.tracker.rooms.get(room)

    def view(self, room: str) -> dict[Any, Any]:
        """The replica of ``room``'s view (empty if the room is not followed)."""
        rv = self.tracker.rooms.get(room)
        return rv.view if rv is not None else {}

    def rooms_of(self, match: str) -> list[str]:
        """The open rooms of a match, the main game first and the innermost subgame last."""
        rooms = [(rv.view.get("g", {}).get("depth", 0), rid)
                 for rid, rv in self.tracker.rooms.items()
                 if match_of(rid) == match and not rv.closed]
        return [rid for _, rid in sorted(rooms)]

    def active_room(self, match: str) -> str | None:
        """The room whose game is being played: the innermost open subgame, else the main
        room (CR 726.1a: only the top game runs)."""
        rooms = self.rooms_of(match)
        return rooms[-1] if rooms else None

    def depth(self, match: str) -> int:
        room = self.active_room(match)
        return int(self.view(room).get("g", {}).get("depth", 0)) if room else 0

    def decisions(self, match: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """The decisions waiting for us: (room, decision) with current legal actions."""
        return [(rid, rv.actions) for rid, rv in self.tracker.rooms.items()
                if rv.actions is not None and not rv.closed and not rv.stale
                and (match is None or match_of(rid) == match)]

    def match_over(self, match: str) -> bool:
        if match in self.closed:
            return True
        results = self.results.get(match)
        if results and results[-1].over:
            return True
        return self.summaries.get(match, {}).get("state") == "finished"

    # ------------------------------------------------------------------ requests

    async def request(self, ask: Ask) -> sm.ServerMessage:
        """Send a request (:data:`Ask`: the client gives it its id) and return its reply;
        raise :class:`RequestError` if refused or :class:`ConnectionLost` if the connection
        drops first. A redirect (the room lives on another node of a cluster) is followed
        here: the client moves there and asks again, up to :data:`MAX_REDIRECTS` times in a
        row (then ``redirect_loop``)."""
        hops = 0
        while True:
            sent, reply, ws = await self._request_once(ask)
            if not isinstance(reply, sm.Redirect):
                return reply
            hops += 1
            if hops > MAX_REDIRECTS:
                raise RequestError("redirect_loop",
                                   f"{sent.TYPE!r} was redirected {MAX_REDIRECTS} times in "
                                   f"a row, last to {reply.url[:80]!r}", reply.request)
            if not await self._follow(reply, ws):
                hops -= 1  # the node named was not there: not a loop (see _stay_connected)

    async def _request_once(self, ask: Ask
                            ) -> tuple[rq.Request, sm.ServerMessage, Connection]:
        """Send a request on the current connection: the request sent, its reply, and that
        connection."""
        if self._ws is None:
            await self._reached(None)
        ws = self._ws
        assert ws is not None
        if self._bucket is not None:
            await self._bucket.take()
            if self._ws is not ws:
                raise ConnectionLost("the connection dropped")
        rid = next(self._ids)
        sent = ask(rid)
        pending = _Pending(trio.Event())
        self._waiting[rid] = pending
        try:
            await ws.send(pack(rq.to_wire(sent)))
        except ConnectionClosed:
            self._waiting.pop(rid, None)
            raise ConnectionLost("the connection dropped") from None
        await pending.event.wait()
        reply = pending.reply
        if reply is None:
            raise ConnectionLost("the connection dropped before the reply")
        if isinstance(reply, sm.Error):
            raise RequestError(reply.code, reply.message, rid)
        return sent, reply, ws

    async def _expect(self, ask: Ask, kind: type[R]) -> R:
        reply = await self.request(ask)
        if not isinstance(reply, kind):
            raise Refusal(Code.BAD_MESSAGE,
                          f"{kind.TYPE} expected, the answer was {reply.TYPE}")
        return reply

    async def list_rooms(self) -> list[dict[str, Any]]:
        return list((await self._expect(rq.ListRooms, sm.RoomList)).rooms)

    async def catalog(self) -> dict[str, Any]:
        """Card data, ready-made decks and variants (fetched once, then kept)."""
        if self._catalog is None:
            reply = await self._expect(rq.GetCatalog, sm.Catalog)
            self._catalog = {"cards": reply.cards, "decks": reply.decks,
                             "variants": reply.variants}
        return self._catalog

    def keep_catalog(self, catalog: dict[str, Any]) -> None:
        """Use ``catalog``, which another client fetched from the same server, instead of
        asking for it: the catalog is the same for every client (docs/protocol.md, "The
        catalog"), so many clients in one process need only one copy of it."""
        self._catalog = catalog

    async def create(self, config: dict[str, Any] | None = None) -> str:
        """Create a match room (docs/protocol.md, "create", lists the settings)."""
        create = partial(rq.CreateRoom, config=config or {})
        created = await self._expect(create, sm.Created)
        if created.invite is not None:  # spectators see all: hand it to those you invite
            self.invites[created.room] = created.invite
        return created.room

    async def join(self, room: str, seat: int | None = None, *, deck: str | None = None,
                   deck_text: str | None = None, token: str | None = None) -> int:
        """Take a seat (or reclaim one with its token) and optionally submit a deck: a
        ready-made deck's name (``deck``) or a deck list (``deck_text``)."""
        join = partial(rq.Join, room=room, seat=seat, token=token)
        ticket = await self._join_once_or_found(room, join)
        if deck is not None or deck_text is not None:
            await self.submit_deck(room, ready=deck, text=deck_text)
        return ticket.seat

    async def _join_once_or_found(self, room: str, join: Ask) -> SeatTicket:
        """Ask for the seat; if the connection drops before the answer, the join may or may not
        have been taken (a cluster node killed after committing it): the welcome on the next
        connection lists the seats this session holds, and says which. Asked again only if it
        was not, at most :data:`JOIN_ATTEMPTS` times."""
        held = self.seats.get(room)  # a seat reclaimed by its token is known already
        for attempt in range(1, JOIN_ATTEMPTS + 1):
            old = self._ws
            try:
                reply = await self._expect(join, sm.Joined)
            except ConnectionLost:
                if attempt == JOIN_ATTEMPTS or held is not None:
                    raise
                await self._reached(old)
                if room in self.seats:  # the join took before the drop: the welcome says so
                    return self.seats[room]
                continue
            assert reply.seat is not None and reply.token is not None
            self.seats[room] = SeatTicket(room, reply.seat, reply.token)
            return self.seats[room]
        raise AssertionError("unreachable")  # pragma: no cover

    async def spectate(self, room: str, *, invite: str | None = None) -> None:
        """Watch ``room``; one whose spectators see everything needs its ``invite`` (its
        creator's ``invites[room]``), kept in ``invites`` and presented again on reconnects
        (the invitation of a room this client created is used without asking)."""
        if invite is not None:
            self.invites[room] = invite
        token = self.invites.get(room)  # a room we created, or were invited to before
        await self.request(partial(rq.Spectate, room=room, token=token))
        if room not in self.seats:
            self.spectating.add(room)

    async def submit_deck(self, room: str, *, ready: str | None = None,
                          text: str | None = None) -> None:
        await self.request(partial(rq.SubmitDeck, room=room, text=text, ready=ready))

    async def act(self, room: str, serial: int, action: int, *,
                  manual: bool = False) -> sm.ServerMessage:
        """Choose ``action`` of the decision ``serial`` in ``room``; returns the reply (your
        delta, already applied to the replica, or ``ok``). ``manual``: pay the mana of the
        spell or ability it casts or activates by hand (a ``pay_mana`` decision follows)."""
        return await self.request(partial(rq.Act, room=room, serial=serial, action=action,
                                          manual=True if manual else None))

    async def concede(self, room: str, game_room: str | None = None) -> None:
        """Concede (CR 104.3a) the game in ``game_room`` (default: the innermost game you are
        in); ``room`` is any room of the match."""
        await self.request(partial(rq.Concede, room=room, game=game_room))

    async def draw(self, room: str, op: str, game_room: str | None = None) -> None:
        """Propose, accept, decline or withdraw an intentional draw (CR 104.4i)."""
        await self.request(partial(rq.Draw, room=room, op=op, game=game_room))

    async def chat(self, room: str, text: str) -> None:
        await self.request(partial(rq.Chat, room=room, text=text))

    async def leave(self, room: str) -> None:
        """Give up a seat (or stop spectating). A room that is gone already (the server
        closed it, or no node of a cluster holds it any more: its match ended while we were
        away) is left all the same."""
        if room not in self.closed:
            try:
                await self.request(partial(rq.Leave, room=room))
            except RequestError as exc:
                if exc.code not in ("unknown_room", "room_closed"):
                    raise
        self.seats.pop(room, None)
        self.spectating.discard(room)
        for rid, rv in self.tracker.rooms.items():
            if match_of(rid) == room:
                rv.closed = True
                rv.actions = None

    async def resync(self, room: str) -> None:
        """Ask for a fresh snapshot of ``room``."""
        await self._resync(room)

    # ------------------------------------------------------------------ the lobby

    async def follow_lobby(self, follow: bool = True, *, hidden: bool = False) -> None:
        """Follow the lobby's people and chat (or stop); ``hidden``: this connection does not
        list our session among the people online. Kept across reconnects."""
        self.lobby = (follow, hidden)
        if not follow:
            self.people = None
        await self.request(partial(rq.Lobby, follow=follow, hidden=hidden))

    async def _follow_lobby_again(self) -> None:
        if self.lobby is not None:
            with contextlib.suppress(RequestError, ConnectionLost):
                await self.request(partial(rq.Lobby, follow=self.lobby[0], hidden=self.lobby[1]))

    async def search_people(self, query: str) -> tuple[int, list[dict[str, Any]]]:
        """The people online whose name holds ``query`` (any case): how many, and the first
        of them by name."""
        reply = await self._expect(partial(rq.People, query=query), sm.PeopleList)
        return reply.count, list(reply.people)

    async def lobby_chat(self, text: str) -> None:
        """Say ``text`` in the lobby's chat (we must follow the lobby)."""
        await self.request(partial(rq.LobbyChat, text=text))

    # ------------------------------------------------------------------ Limited events
    # An event's id is a room id: ``join`` enters it (its seat and token are kept in
    # ``seats``, so a reconnect's hello names it and the server attaches us again, and a
    # server that forgot the session gives the seat back for its token), ``spectate``
    # follows it, ``leave`` stops following it (in its lobby, giving up the seat) and
    # ``chat`` talks to it, as for rooms.

    async def create_event(self, config: dict[str, Any]) -> str:
        """Host a sealed or booster-draft event (docs/protocol.md section 15 lists the
        settings); returns its id. Creating does not enter it: ``join`` does."""
        return (await self._expect(partial(rq.CreateEvent, config=config), sm.Created)).room

    async def list_events(self) -> list[dict[str, Any]]:
        """The server's events that have not finished, as summaries."""
        return list((await self._expect(rq.ListEvents, sm.EventList)).events)

    async def start_event(self, event: str) -> None:
        """The host starts the event (empty seats get bots when it has them)."""
        await self.request(partial(rq.StartEvent, room=event))

    async def pick(self, event: str, card: str) -> None:
        """Take ``card`` from the pack in front of us (a draft)."""
        await self.request(partial(rq.Pick, room=event, card=card))

    async def submit_event_deck(self, event: str, deck: Mapping[str, int]) -> None:
        """Our deck for the event, as card counts from our pool plus basic lands."""
        await self.submit_deck(event, text=deck_list(deck))

    async def drop_event(self, event: str) -> None:
        """No more pairings for us (a match being played goes on)."""
        await self.request(partial(rq.DropEvent, room=event))

    def event_state(self, event: str) -> dict[str, Any] | None:
        """The latest state of ``event`` we were sent (None before the first)."""
        return self.event_states.get(event)

    async def wait_event(self, event: str, since: dict[str, Any] | None = None
                         ) -> dict[str, Any]:
        """The first state of ``event`` other than ``since`` (the state last looked at;
        None: any state), waiting for it to arrive. Raises :class:`ConnectionLost` once the
        client is closed. States survive reconnects: the server sends the event again when
        the session comes back."""
        while True:
            state = self.event_states.get(event)
            if state is not None and state is not since:
                return state
            if self._closing or self._stopped:
                raise ConnectionLost("the client is closed")
            await self._changed.wait()


def deck_list(deck: Mapping[str, int]) -> str:
    """A deck list (docs/protocol.md, "deck") of card counts: one ``N Name`` a line."""
    return "\n".join(f"{n} {name}" for name, n in sorted(deck.items()) if n > 0)


@asynccontextmanager
async def open_client(urls: str | Sequence[str], name: str | None = None, **options: Any
                      ) -> AsyncIterator[Client]:
    """Connect (raising :class:`ConnectError` if that fails) and close on exit.

    The client runs in a nursery of its own, which wraps whatever escapes it in an exception
    group; a group of one is unwrapped, so that ``except ConnectError`` (or ``RequestError``
    from the body) works as it reads."""
    client = Client(urls, name, **options)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(client.run)
            try:
                yield client
            finally:
                await client.close()
    except BaseExceptionGroup as group:
        only = _single(group)
        if only is None:
            raise
        raise only from None


def _single(group: BaseExceptionGroup[BaseException]) -> BaseException | None:
    """The one exception inside ``group`` (however deeply nested), or None."""
    inner: list[BaseException] = []

    def collect(g: BaseExceptionGroup[BaseException]) -> None:
        for exc in g.exceptions:
            if isinstance(exc, BaseExceptionGroup):
                collect(exc)
            else:
                inner.append(exc)

    collect(group)
    return inner[0] if len(inner) == 1 else None
