"""The Arbiter server: the transport around the room core. It moves bytes and time in and
effects out; every decision about what a frame means is the core's (server/rooms).

Each connection runs two tasks on websockets' sans-I/O protocol (server/net/connection.py): its
own, which does the handshake, then reads the socket, hands every message to the hub inline and
carries out the effects it returns, and a writer that drains the connection's bounded queue
when the socket does not take a frame at once. The effects go out in their order: log records to
the commit gate, frames through the gate (released only once the records before them are
durable), closes after their frames, deadlines to the timer task. No task ever awaits another
connection's socket. /healthz and /metrics share the port.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import http
import logging
import math
import sqlite3
from collections.abc import AsyncIterator, Hashable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
from websockets.datastructures import Headers
from websockets.extensions.base import ServerExtensionFactory
from websockets.extensions.permessage_deflate import enable_server_permessage_deflate
from websockets.frames import CloseCode
from websockets.http11 import Request, Response
from websockets.server import ServerProtocol
from websockets.typing import Origin

from arbiter.server.rooms.context import HubSettings, SeededEntropy
from arbiter.server.rooms.effects import Effects
from arbiter.server.rooms.hub import Counters, Hub
from arbiter.server.rooms.peers import Limits, Peer
from arbiter.server.store.archive import Archive, StoreArchive
from arbiter.server.store.db import Store
from arbiter.server.store.gate import (
    NO_CAUSE,
    CommitGate,
    Sink,
    StoreWriter,
    WriteFailed,
    Writer,
    causes,
)

from .admission import Admission, AdmittedStream, AdmittingListener, capacity
from .archive_reads import answer
from .collector import manage_collector
from .connection import END, Connection
from .metrics import Metrics, Sample, render
from .static import StaticFiles, client_dir
from .timers import Timers

log = logging.getLogger("arbiter.net")


class AddressInUse(Exception):
    """The port asked for is taken (said on one line by ``arbiter serve``)."""


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    data_dir: Path = Path("data")
    hub: HubSettings = field(default_factory=HubSettings)
    limits: Limits = field(default_factory=Limits)
    max_connections: int = 10_000
    max_ws_frame: int = 1024 * 1024  # larger frames close the connection (1009)
    origins: tuple[str, ...] | None = None  # allowed Origin headers; None: any
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    open_timeout: float | None = 10.0
    close_timeout: float | None = 5.0
    compression: bool = False
    synchronous: str = "NORMAL"  # SQLite: NORMAL survives a process crash, FULL a power cut
    gc_freeze_every: float | None = 0.1  # seconds; None leaves the collector alone
    gc_full_every: float = 600.0
    # Tests only: tokens, epochs and game seeds from a generator seeded with this, so that a
    # test driving the server from outside (a browser) plays the same games every run. Never
    # on a public server: seat and session tokens become guessable.
    seed: int | None = None


class ServerBase:
    """What every server shares, embedded or a cluster's node: the websocket endpoint, the
    connections, the timers, the commit gate and the hub. A subclass says where the log is
    (``writer``), what running needs around it (:meth:`services`), how rooms come back at start
    (:meth:`recover`) and what else runs beside the endpoint (:meth:`background`)."""

    fencing = False  # True when the writer may refuse rooms: frames then carry their cause
    archive: Archive | None = None  # where replays and histories are read (archive_reads.py)

    def __init__(self, config: ServerConfig, hub: Hub, writer: Writer) -> None:
        self.config = config
        self.hub = hub
        self.metrics = Metrics()
        self.gate = CommitGate(writer, on_refused=self.refused)
        self.timers = Timers()
        self.connections: set[Connection] = set()
        self.port: int | None = None
        self.closing = False  # shutting down: upgrades are answered 503
        self._accepting = trio.CancelScope()  # cancelled to stop accepting
        self._handlers = 0  # connection tasks running (a shutdown waits for them)
        self._handlers_done = trio.Event()
        self.recovered: list[str] = []
        # Every socket is counted at accept (server/net/admission.py).
        self.admission = Admission(capacity(config.max_connections))
        self.listeners: list[AdmittingListener] = []
        self.static = StaticFiles(client_dir())  # the browser client, on the same port

    # ------------------------------------------------------------------ effects

    def apply(self, effects: Effects) -> None:
        """Carry out what the core asked for, in its order (server/rooms/effects.py)."""
        gate = self.gate
        records = effects.records
        for record in records:
            gate.log(record)
        cause = causes(records) if self.fencing and records else NO_CAUSE
        for peers, frame in effects.frames:
            gate.send([p.sink for p in peers], frame, cause)
        for peer, code, reason in effects.closes:
            conn = peer.sink
            assert isinstance(conn, Connection)
            if conn.finish(code, reason):
                gate.send([conn], END)
        for key, when in effects.deadlines.items():
            self.timers.schedule(key, when)

    def _wake(self, key: Hashable, now: float) -> None:
        if isinstance(key, Connection):  # its heartbeat (the core's keys are never these)
            key.heartbeat(now)
            return
        self.apply(self.hub.wake(key, now))

    # ------------------------------------------------------------------ running

    def refused(self, rooms: frozenset[int], lost: set[Sink], failed: WriteFailed | None
                ) -> None:
        """The writer refused ``rooms`` (see server/store/gate.py); the embedded writer never
        does."""
        raise AssertionError(f"the log refused rooms {sorted(rooms)}: {failed}")

    def services(self) -> AbstractAsyncContextManager[object]:
        """What must be open while the server runs (its log, a cluster's directory)."""
        return contextlib.nullcontext()

    async def recover(self) -> list[str]:
        """Bring back what the log holds at start; return a line for each room."""
        return []

    def background(self, nursery: trio.Nursery) -> None:
        """Start what runs beside the endpoint."""

    async def run(self, task_status: trio.TaskStatus[Any] = trio.TASK_STATUS_IGNORED
                  ) -> None:
        """Recover, then serve until cancelled."""
        async with self.services():
            self.recovered = await self.recover()  # said by whoever runs the server
            await self._serve(task_status)

    async def listen(self) -> None:
        """Open the listening sockets (before anything else, so that a port in use is said at
        once); :meth:`run` does it if the caller did not."""
        if self.listeners:
            return
        cfg = self.config
        try:
            sockets = await trio.open_tcp_listeners(cfg.port, host=cfg.host)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise AddressInUse(f"port {cfg.port} of {cfg.host} is in use; choose another "
                                   "--port") from None
            raise
        self.listeners = [AdmittingListener(s, self.admission) for s in sockets]
        self.port = sockets[0].socket.getsockname()[1]

    async def _serve(self, task_status: trio.TaskStatus[Any]) -> None:
        cfg = self.config
        await self.listen()
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(self.gate.run)
                await nursery.start(self.timers.run, self._wake)
                if cfg.gc_freeze_every:
                    nursery.start_soon(manage_collector, cfg.gc_freeze_every, cfg.gc_full_every)
                self.background(nursery)
                await nursery.start(self._accept, nursery)
                task_status.started(self)
        finally:
            with trio.CancelScope(shield=True):
                await self.gate.flush()  # what was accepted is written before we go

    async def _accept(self, handlers: trio.Nursery,
                      task_status: trio.TaskStatus[Any] = trio.TASK_STATUS_IGNORED) -> None:
        """Accept connections until a shutdown; each one's task runs in ``handlers``, which
        outlives accepting (a shutdown closes the connections after it stops accepting)."""
        with self._accepting:
            await trio.serve_listeners(self._connection, self.listeners,
                                       handler_nursery=handlers, task_status=task_status)

    async def _connection(self, stream: AdmittedStream) -> None:
        """One accepted socket, start to end: the handshake (bounded by ``open_timeout``),
        then, if it became a websocket connection, :meth:`handler`. The socket is closed
        whatever happens."""
        cfg = self.config
        self._handlers += 1
        conn = Connection(stream, ServerProtocol(origins=self._origins,
                                                 extensions=self._extensions,
                                                 max_size=cfg.max_ws_frame),
                          cfg.limits.queue, self.metrics, ping_interval=cfg.ping_interval,
                          ping_timeout=cfg.ping_timeout, schedule=self.timers.schedule)
        try:
            opened = False
            with trio.move_on_after(cfg.open_timeout or math.inf):
                opened = await conn.handshake(self.process_request, self.process_response,
                                              "arbiter", lambda: self.closing)
            if opened:  # else answered over HTTP (or not at all), and closed at once
                await self.handler(conn)
        except Exception:  # never let a connection's failure escape into the server
            log.exception("%r failed", conn)
            self.hub.stats.internal_errors += 1
        finally:
            await trio.aclose_forcefully(stream)
            self._handlers -= 1
            if self.closing and not self._handlers:
                self._handlers_done.set()

    @functools.cached_property
    def _origins(self) -> list[Origin | None] | None:
        if self.config.origins is None:
            return None
        # non-browser clients send no Origin header
        return [*(Origin(o) for o in self.config.origins), None]

    @functools.cached_property
    def _extensions(self) -> list[ServerExtensionFactory] | None:
        if not self.config.compression:
            return None
        return list(enable_server_permessage_deflate(None))

    async def shutdown(self) -> None:
        """Close every connection with 1012 (service restart: come back with your tokens)."""
        self.closing = True
        self._accepting.cancel()
        for conn in list(self.connections):
            conn.shut(CloseCode.SERVICE_RESTART, "the server is restarting")
        if self._handlers:
            with trio.move_on_after(2 * (self.config.close_timeout or 5.0)):
                await self._handlers_done.wait()

    # ------------------------------------------------------------------ HTTP

    def process_request(self, ws: Connection, request: Request) -> Response | None:
        """Answer what is no websocket handshake: GET and HEAD of the probes and the page,
        405 for any other method (docs/protocol.md section 12)."""
        if _is_upgrade(request):
            if len(self.connections) >= self.config.max_connections:
                return ws.respond(http.HTTPStatus.SERVICE_UNAVAILABLE,
                                  "this server has reached its connection limit\n")
            return None
        if request.method not in ALLOWED_METHODS:
            response = ws.respond(http.HTTPStatus.METHOD_NOT_ALLOWED,
                                  f"this server answers {', '.join(ALLOWED_METHODS)} only\n")
            response.headers["Allow"] = ", ".join(ALLOWED_METHODS)
            return response
        response = self._get(ws, request)
        if request.method == "HEAD":  # the GET's headers, Content-Length included; no body
            response.body = b""
        return response

    def _get(self, ws: Connection, request: Request) -> Response:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            problem = self.health()
            if problem is not None:
                return ws.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, problem + "\n")
            return ws.respond(http.HTTPStatus.OK, "ok\n")
        if path == "/metrics":
            response = ws.respond(http.HTTPStatus.OK, self.metrics_text())
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            return response
        page = self.static.response(request)
        if page is not None:
            return page
        return _plain(http.HTTPStatus.UPGRADE_REQUIRED,
                      "this is a websocket endpoint; see docs/protocol.md\n")

    def process_response(self, ws: Connection, request: Request, response: Response
                         ) -> None:
        """A request answered other than by switching to websockets: its reads go through
        again (websockets waits for the client's end after answering; see
        server/net/admission.py). A refused handshake is said in one line (websockets' own log
        says it only at debug level, with a traceback)."""
        stream = ws.stream
        if not isinstance(stream, AdmittedStream) or \
                response.status_code == http.HTTPStatus.SWITCHING_PROTOCOLS:
            return
        stream.answered()
        if response.status_code == http.HTTPStatus.BAD_REQUEST:
            self.admission.bad_request_log(stream.peer[0] if stream.peer else "?",
                                           response.body.decode(errors="replace").strip())

    def health(self) -> str | None:
        """Why this server cannot serve now (for /healthz), or None when it can."""
        return None

    def metrics_text(self) -> str:
        met, stats, hub, door = self.metrics, self.hub.stats, self.hub, self.admission
        now = trio.current_time()
        depths = [c.queue_depth for c in self.connections]
        tables = [mr.table for mr in hub.matches.values() if mr.table is not None]
        rooms = hub.rooms_by_state()
        samples: list[Sample] = [
            ("arbiter_connections", "gauge", "Open websocket connections.",
             [({}, len(self.connections))]),
            ("arbiter_sessions", "gauge", "Sessions the server knows (connected or not).",
             [({}, len(hub.sessions))]),
            ("arbiter_sessions_expired_total", "counter",
             "Idle sessions forgotten after their TTL.", [({}, hub.sessions.expired)]),
            ("arbiter_rooms", "gauge", "Match rooms by state.",
             [({"state": s}, rooms.get(s, 0))
              for s in ("waiting", "playing", "paused", "finished")]),
            ("arbiter_rooms_expired_total", "counter",
             "Waiting rooms closed because their match did not start in time.",
             [({}, stats.rooms_expired)]),
            ("arbiter_subgame_rooms", "gauge", "Open subgame rooms.", [({}, len(hub.index))]),
            ("arbiter_games", "gauge", "Games being played (tables not finished).",
             [({}, sum(1 for t in tables if not t.finished))]),
            ("arbiter_actions_total", "counter", "Commands accepted and applied.",
             [({}, stats.actions_total)]),
            ("arbiter_actions_per_second", "gauge",
             "Commands applied per second over the last 10 seconds.",
             [({}, stats.actions_per_second(now))]),
            ("arbiter_send_queue_depth", "gauge", "Frames waiting in send queues, in total.",
             [({}, sum(depths))]),
            ("arbiter_send_queue_depth_max", "gauge", "The longest send queue.",
             [({}, max(depths, default=0))]),
            ("arbiter_errors_total", "counter", "Errors sent to clients, by code.",
             [({"code": c}, n) for c, n in sorted(stats.errors.items())]),
            ("arbiter_internal_errors_total", "counter", "Unexpected server errors.",
             [({}, stats.internal_errors)]),
            ("arbiter_view_repairs_total", "counter",
             "Views found to differ from the engine's and repaired.",
             [({}, stats.view_repairs)]),
            ("arbiter_slow_consumer_disconnects_total", "counter",
             "Connections closed because their send queue was full.",
             [({}, met.slow_disconnects)]),
            ("arbiter_policy_closes_total", "counter",
             "Connections closed for a policy violation (garbage, rate, slowness).",
             [({}, stats.policy_closes + met.policy_closes)]),
            ("arbiter_connections_total", "counter", "Connections accepted.",
             [({}, met.connections_total)]),
            ("arbiter_sockets", "gauge", "Sockets held: connections and requests under way.",
             [({}, door.held)]),
            ("arbiter_sockets_max", "gauge", "Sockets this server holds at most.",
             [({}, door.capacity)]),
            ("arbiter_requests_evicted_total", "counter",
             "Unfinished requests closed to make room for new connections.",
             [({}, door.evict_log.total)]),
            ("arbiter_connections_refused_total", "counter",
             "Connections refused at accept: every socket held was an open connection.",
             [({}, door.refuse_log.total)]),
            ("arbiter_bad_requests_total", "counter",
             "Malformed HTTP requests and broken handshakes answered 400.",
             [({}, door.bad_request_log.total)]),
            ("arbiter_accept_exhausted_total", "counter",
             "Accepts that failed for want of descriptors or memory.",
             [({}, door.exhausted_log.total)]),
            ("arbiter_games_finished_total", "counter", "Games played to their end.",
             [({}, stats.games_finished)]),
            ("arbiter_catalogs_sent_total", "counter",
             "Catalog replies sent (about 76 KB each; clients should keep theirs).",
             [({}, stats.catalogs_sent)]),
        ]
        samples += self.log_samples()
        return render(samples)

    def log_samples(self) -> list[Sample]:
        """The log's figures for /metrics."""
        return []

    # ------------------------------------------------------------------ websockets

    async def handler(self, conn: Connection) -> None:
        """A websocket connection, from its handshake to its closing handshake."""
        stream = conn.stream
        if isinstance(stream, AdmittedStream):
            stream.established()
            address = stream.peer  # known since accept
        else:  # a stream this server did not accept itself
            try:
                address = stream.socket.getpeername()  # type: ignore[attr-defined]
            except OSError:  # ENOTCONN: the client is gone already; the connection just ends
                return
        peer = self.hub.connect(conn, str(address[0] if address else "?"),
                                trio.current_time())
        self.connections.add(conn)
        self.metrics.connections_total += 1
        conn.start_heartbeats()
        try:
            async with trio.open_nursery() as nursery:
                conn.scope = nursery.cancel_scope
                conn.writer_nursery = nursery  # its writer starts there when needed
                await self._read(conn, peer)
                timeout = self.config.close_timeout or 5.0
                if not conn.open:  # let the explanation reach the client first
                    with trio.move_on_after(timeout):
                        await conn.drained.wait()
                conn.stop_writer()  # what it holds goes out first, if that takes not too long
                nursery.cancel_scope.deadline = trio.current_time() + timeout
        except Exception:  # never let a connection's failure escape into the server
            log.exception("%r failed", conn)
            self.hub.stats.internal_errors += 1
        finally:
            conn.writer_nursery = None
            conn.stop_heartbeats()
            self.connections.discard(conn)
            conn.shut(None, "")
            try:
                self.apply(self.hub.disconnect(peer, trio.current_time()))
            except Exception:
                log.exception("%r: leaving its rooms failed", conn)
                self.hub.stats.internal_errors += 1
        code = CloseCode.NORMAL_CLOSURE if conn.close_code is None else conn.close_code
        await conn.close(code, conn.close_reason, self.config.close_timeout or 5.0)

    async def _read(self, conn: Connection, peer: Peer) -> None:
        hub = self.hub
        while conn.open and peer.reading:
            messages = await conn.receive()
            if messages is None:
                return
            for message in messages:
                effects = hub.receive(peer, message, trio.current_time())
                self.apply(effects)
                if effects.lookups:
                    await self.look_up(peer, effects)
                for read in effects.reads:  # a replay or a history, read from the log
                    self.gate.send([conn], await answer(self.archive, read), NO_CAUSE)
                if not (conn.open and peer.reading):
                    return

    async def look_up(self, peer: Peer, effects: Effects) -> None:
        """Find out what a routing core asked before it could answer ``peer``'s frame, and
        hand the answers back (a cluster node does; the embedded core never asks)."""
        raise AssertionError(f"the embedded core asked for lookups: {effects.lookups}")


# Seconds between checkpoints of the embedded log's WAL (ArbiterServer._checkpoints): about a
# thousand pages at a thousand actions a second, the size at which SQLite would checkpoint.
CHECKPOINT_EVERY = 1.0


class ArbiterServer(ServerBase):
    """The embedded server: one process, its log in SQLite under ``config.data_dir``."""

    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self._own_store = store is None
        self.store = store or Store.open_dir(config.data_dir, synchronous=config.synchronous)
        ids = Counters(self.store.next_id("rooms"), self.store.next_id("games"))
        entropy = SeededEntropy(config.seed) if config.seed is not None else None
        super().__init__(config, Hub(config.hub, config.limits, ids=ids, entropy=entropy),
                         StoreWriter(self.store, threaded=config.synchronous == "FULL"))
        self.archive = StoreArchive(self.store.path)

    @contextlib.asynccontextmanager
    async def services(self) -> AsyncIterator[object]:
        try:
            yield self.store
        finally:
            assert isinstance(self.archive, StoreArchive)
            self.archive.close()
            if self._own_store:
                self.store.close()

    def background(self, nursery: trio.Nursery) -> None:
        nursery.start_soon(self._checkpoints)

    async def _checkpoints(self) -> None:
        """Every :data:`CHECKPOINT_EVERY` seconds, copy the log's WAL into its database file in
        a worker thread (Store.checkpoint): the fsync that ends a checkpoint never stops the
        event loop, and the WAL does not grow without bound."""
        while True:
            await trio.sleep(CHECKPOINT_EVERY)
            try:
                await trio.to_thread.run_sync(self.store.checkpoint)
            except sqlite3.Error as exc:  # tried again next time; the log itself is intact
                log.warning("checkpoint of the log failed: %s", exc)

    async def recover(self) -> list[str]:
        """Rebuild every unfinished room from the log; return a line per room."""
        now = trio.current_time()
        self.hub.restore_sessions(self.store.sessions())
        lines = []
        for stored in self.store.stored_rooms():
            line, effects = self.hub.restore_room(stored, now)
            self.apply(effects)
            lines.append(line)
        self.apply(self.hub.resume_idle_sessions(now))
        return lines

    def log_samples(self) -> list[Sample]:
        store = self.store
        return [
            ("arbiter_log_commits_total", "counter", "Log transactions committed.",
             [({}, store.commits)]),
            ("arbiter_log_rows_total", "counter", "Log rows written.",
             [({}, store.rows_written)]),
            ("arbiter_log_commit_seconds_total", "counter", "Time spent committing the log.",
             [({}, round(store.commit_seconds, 6))]),
            ("arbiter_log_checkpoints_total", "counter",
             "Checkpoints of the log's WAL, run beside the event loop.",
             [({}, store.checkpoints)]),
        ]


ALLOWED_METHODS = ("GET", "HEAD")


def _is_upgrade(request: Request) -> bool:
    return any("upgrade" in v.lower() for v in request.headers.get_all("Connection"))


def _plain(status: http.HTTPStatus, body: str) -> Response:
    headers = Headers([("Content-Type", "text/plain; charset=utf-8"),
                       ("Content-Length", str(len(body.encode())))])
    return Response(status.value, status.phrase, headers, body.encode())
