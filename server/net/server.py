"""The Arbiter server: a websockets (trio) endpoint in front of the hub, with the commit gate,
the room timers, and /healthz and /metrics on the same port.

Each connection runs two tasks: a reader that decodes, validates and hands each request to the
hub (which answers synchronously), and a writer that drains the connection's bounded queue. No
task ever awaits another connection's socket.
"""

from __future__ import annotations

import functools
import http
import logging
from dataclasses import dataclass, field
from pathlib import Path

import trio
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.http11 import Request, Response
from websockets.trio.server import Server, ServerConnection, serve

from arbiter.protocol import messages as m
from arbiter.protocol.codec import unpack_client
from arbiter.protocol.errors import Code, ProtocolError
from arbiter.server.rooms.hub import Hub, HubSettings
from arbiter.server.rooms.timers import Timers
from arbiter.server.store.db import Store
from arbiter.server.store.gate import CommitGate

from .collector import manage_collector
from .connection import POLICY, Connection, Limits
from .metrics import Metrics, render

log = logging.getLogger("arbiter.net")


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
    gc_freeze_every: float | None = None  # seconds; None leaves the collector alone
    gc_full_every: float = 600.0


class ArbiterServer:
    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self._own_store = store is None
        self.store = store or Store.open_dir(config.data_dir, synchronous=config.synchronous)
        self.metrics = Metrics()
        self.gate = CommitGate(self.store, threaded=config.synchronous == "FULL")
        self.timers = Timers()
        self.hub = Hub(config.hub, self.store, self.gate, self.timers, self.metrics)
        self.connections: set[Connection] = set()
        self.port: int | None = None
        self.ws_server: Server | None = None
        self.recovered: list[str] = []
        lim = config.limits
        self.limits_wire = {"frame": lim.max_frame, "rate": lim.rate, "burst": lim.burst,
                            "queue": lim.queue, "grace": config.hub.grace}

    async def run(self, task_status: trio.TaskStatus[ArbiterServer] = trio.TASK_STATUS_IGNORED
                  ) -> None:
        """Recover unfinished rooms, then serve until cancelled."""
        self.recovered = self.hub.recover()
        for line in self.recovered:
            log.info("%s", line)
        cfg = self.config
        origins: list[str | None] | None = None
        if cfg.origins is not None:
            origins = [*cfg.origins, None]  # non-browser clients send no Origin header
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(self.gate.run)
                await nursery.start(self.timers.run)
                if cfg.gc_freeze_every:
                    nursery.start_soon(manage_collector, cfg.gc_freeze_every, cfg.gc_full_every)
                self.ws_server = await nursery.start(functools.partial(
                    serve, self.handler, cfg.port, host=cfg.host,
                    process_request=self.process_request, origins=origins,  # type: ignore[arg-type]
                    compression="deflate" if cfg.compression else None,
                    max_size=cfg.max_ws_frame, ping_interval=cfg.ping_interval,
                    ping_timeout=cfg.ping_timeout, open_timeout=cfg.open_timeout,
                    close_timeout=cfg.close_timeout, server_header="arbiter"))
                assert self.ws_server is not None
                self.port = self.ws_server.listeners[0].socket.getsockname()[1]
                task_status.started(self)
        finally:
            with trio.CancelScope(shield=True):
                await self.gate.flush()  # what was accepted is written before we go
            if self._own_store:
                self.store.close()

    async def shutdown(self) -> None:
        """Close every connection with 1012 (service restart: come back with your tokens)."""
        if self.ws_server is not None:
            with trio.move_on_after(self.config.close_timeout or 5.0):
                await self.ws_server.aclose(code=CloseCode.SERVICE_RESTART,
                                            reason="the server is restarting")

    # ------------------------------------------------------------------ HTTP

    def process_request(self, ws: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return ws.respond(http.HTTPStatus.OK, "ok\n")
        if path == "/metrics":
            response = ws.respond(http.HTTPStatus.OK, self.metrics_text())
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            return response
        if len(self.connections) >= self.config.max_connections:
            return ws.respond(http.HTTPStatus.SERVICE_UNAVAILABLE,
                              "this server has reached its connection limit\n")
        if not any("upgrade" in v.lower() for v in request.headers.get_all("Connection")):
            return _plain(http.HTTPStatus.UPGRADE_REQUIRED,
                          "this is a websocket endpoint; see docs/protocol.md\n")
        return None

    def metrics_text(self) -> str:
        met = self.metrics
        now = trio.current_time()
        depths = [c.queue_depth for c in self.connections]
        tables = [mr.table for mr in self.hub.matches.values() if mr.table is not None]
        rooms = self.hub.rooms_by_state()
        samples: list[tuple[str, str, str, list[tuple[dict[str, str], float]]]] = [
            ("arbiter_connections", "gauge", "Open websocket connections.",
             [({}, len(self.connections))]),
            ("arbiter_sessions", "gauge", "Sessions the server knows (connected or not).",
             [({}, len(self.hub.sessions))]),
            ("arbiter_sessions_expired_total", "counter",
             "Idle sessions forgotten after the session TTL.",
             [({}, self.metrics.sessions_expired)]),
            ("arbiter_rooms", "gauge", "Match rooms by state.",
             [({"state": s}, rooms.get(s, 0))
              for s in ("waiting", "playing", "paused", "finished")]),
            ("arbiter_subgame_rooms", "gauge", "Open subgame rooms.",
             [({}, sum(1 for r in self.hub.index if "." in r))]),
            ("arbiter_games", "gauge", "Games being played (tables not finished).",
             [({}, sum(1 for t in tables if not t.finished))]),
            ("arbiter_actions_total", "counter", "Commands accepted and applied.",
             [({}, met.actions_total)]),
            ("arbiter_actions_per_second", "gauge",
             "Commands applied per second over the last 10 seconds.",
             [({}, met.actions_per_second(now))]),
            ("arbiter_send_queue_depth", "gauge", "Frames waiting in send queues, in total.",
             [({}, sum(depths))]),
            ("arbiter_send_queue_depth_max", "gauge", "The longest send queue.",
             [({}, max(depths, default=0))]),
            ("arbiter_errors_total", "counter", "Errors sent to clients, by code.",
             [({"code": c}, n) for c, n in sorted(met.errors.items())]),
            ("arbiter_internal_errors_total", "counter", "Unexpected server errors.",
             [({}, met.internal_errors)]),
            ("arbiter_view_repairs_total", "counter",
             "Views found to differ from the engine's and repaired.", [({}, met.view_repairs)]),
            ("arbiter_slow_consumer_disconnects_total", "counter",
             "Connections closed because their send queue was full.",
             [({}, met.slow_disconnects)]),
            ("arbiter_policy_closes_total", "counter",
             "Connections closed for a policy violation (garbage, rate, slowness).",
             [({}, met.policy_closes)]),
            ("arbiter_connections_total", "counter", "Connections accepted.",
             [({}, met.connections_total)]),
            ("arbiter_games_finished_total", "counter", "Games played to their end.",
             [({}, met.games_finished)]),
            ("arbiter_log_commits_total", "counter", "Log transactions committed.",
             [({}, self.store.commits)]),
            ("arbiter_log_rows_total", "counter", "Log rows written.",
             [({}, self.store.rows_written)]),
            ("arbiter_log_commit_seconds_total", "counter", "Time spent committing the log.",
             [({}, round(self.store.commit_seconds, 6))]),
        ]
        return render(samples)

    # ------------------------------------------------------------------ websockets

    async def handler(self, ws: ServerConnection) -> None:
        conn = Connection(ws, self.config.limits, self.metrics)
        self.connections.add(conn)
        self.metrics.connections_total += 1
        try:
            async with trio.open_nursery() as nursery:
                conn.scope = nursery.cancel_scope
                nursery.start_soon(conn.writer)
                await self._read(conn)
                if conn.closing:  # let the explanation reach the client first
                    with trio.move_on_after(self.config.close_timeout or 5.0):
                        await conn.drained.wait()
                nursery.cancel_scope.cancel()
        except Exception:  # never let a connection's failure escape into the server
            log.exception("%r failed", conn)
            self.metrics.internal_errors += 1
        finally:
            self.connections.discard(conn)
            conn.closed = True
            try:
                self.hub.disconnected(conn)
            except Exception:
                log.exception("%r: leaving its rooms failed", conn)
                self.metrics.internal_errors += 1
        if conn.close_code is not None:
            with trio.move_on_after(self.config.close_timeout or 5.0):
                await ws.aclose(conn.close_code, conn.close_reason)

    async def _read(self, conn: Connection) -> None:
        while not conn.closed and not conn.closing:
            try:
                frame = await conn.ws.recv()
            except ConnectionClosed:
                return
            now = trio.current_time()
            if not conn.allow(now):
                self.hub.error(conn, Code.RATE_LIMITED,
                               f"more than {self.config.limits.rate:g} messages per second",
                               None)
                self._finish(conn, POLICY, "rate limit exceeded")
                return
            self.on_frame(conn, frame, now)

    def on_frame(self, conn: Connection, frame: str | bytes, now: float) -> None:
        """Handle one client frame. Whatever it holds, the client gets an answer or an error,
        and nothing escapes."""
        request_id = None
        try:
            try:
                if isinstance(frame, str):
                    raise ProtocolError(Code.BAD_FRAME,
                                        "text frames are not accepted: send binary msgpack")
                message = unpack_client(frame, max_size=self.config.limits.max_frame)
                request = m.parse_request(message)
                request_id = request.i
                if conn.session is None:
                    if not isinstance(request, m.Hello):
                        raise ProtocolError(Code.HELLO_FIRST, "say hello first", request.i)
                    conn.version = self.hub.hello(conn, request, self.limits_wire)
                else:
                    self.hub.handle(conn, request)
            except ProtocolError as exc:
                self.hub.error(conn, exc.code, exc.message, exc.request_id)
                if exc.code == Code.UNSUPPORTED_VERSION:
                    self._finish(conn, CloseCode.PROTOCOL_ERROR, "no common protocol version")
                elif exc.code not in (Code.UNKNOWN_SESSION, Code.ALREADY_HELLO) and \
                        conn.strike(now):
                    self._finish(conn, POLICY, "too many malformed messages")
        except Exception:
            log.exception("%r: request failed", conn)
            self.metrics.internal_errors += 1
            self.hub.error(conn, Code.INTERNAL, "the server failed to handle this request; "
                                                "nothing changed", request_id)


    def _finish(self, conn: Connection, code: int, reason: str) -> None:
        self.gate.send([conn], conn.finish(code, reason))


def _plain(status: http.HTTPStatus, body: str) -> Response:
    headers = Headers([("Content-Type", "text/plain; charset=utf-8"),
                       ("Content-Length", str(len(body.encode())))])
    return Response(status.value, status.phrase, headers, body.encode())


