"""One client connection: a bounded outgoing queue with its own writer task, and the limits on
what the client may send.

Rooms hand frames to :meth:`Connection.deliver`, which never blocks: when the queue is full the
client has fallen too far behind, and it is disconnected (its seat stays held for the grace
period) rather than slowing anyone else down.
"""

from __future__ import annotations

import itertools
import logging
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

import trio
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

if TYPE_CHECKING:
    from websockets.trio.server import ServerConnection

    from arbiter.server.rooms.hub import Session

    from .metrics import Metrics

log = logging.getLogger("arbiter.net")

POLICY = CloseCode.POLICY_VIOLATION  # 1008


@dataclass(frozen=True)
class Limits:
    queue: int = 256  # frames waiting to be written to one client
    rate: float = 50.0  # messages per second a client may send, on average...
    burst: int = 200  # ...and in a burst
    garbage: float = 20.0  # malformed messages tolerated (one forgiven every 10 s)
    max_frame: int = 64 * 1024  # bytes; larger client messages get a too_large error


class Connection:
    _ids = itertools.count(1)

    def __init__(self, ws: ServerConnection, limits: Limits, metrics: Metrics) -> None:
        self.id = next(self._ids)
        self.ws = ws
        self.limits = limits
        self.metrics = metrics
        self.session: Session | None = None
        self.rooms: set[str] = set()
        self.version: int | None = None
        # A deque and an event, not a memory channel: the same bound and wake-up, at a
        # measured 8 us less per frame (bench, docs/architecture.md).
        self._queue: deque[bytes] = deque()
        self._ready = trio.Event()
        self.closed = False
        self.closing = False  # reading stopped; the queue drains, then the connection closes
        self.drained = trio.Event()
        self.close_code: int | None = None
        self.close_reason = ""
        self.scope: trio.CancelScope | None = None
        now = trio.current_time()
        self._tokens = float(limits.burst)
        self._tokens_at = now
        self._strikes = 0.0
        self._strikes_at = now
        self.frames_sent = 0

    def __repr__(self) -> str:
        return f"<Connection {self.id}>"

    # ------------------------------------------------------------------ outgoing

    def deliver(self, frame: bytes) -> None:
        if self.closed:
            return
        if len(self._queue) >= self.limits.queue:
            self.metrics.slow_disconnects += 1
            log.info("%r fell %d frames behind; disconnecting it", self, self.limits.queue)
            self.shut(POLICY, "send queue full: the client is not reading fast enough")
            return
        self._queue.append(frame)
        self._ready.set()

    @property
    def queue_depth(self) -> int:
        return len(self._queue)

    async def writer(self) -> None:
        queue = self._queue
        try:
            while True:
                while queue:
                    frame = queue.popleft()
                    if not frame:  # the end-of-stream marker queued by finish()
                        self.drained.set()
                        return
                    await self.ws.send(frame)
                    self.frames_sent += 1
                self._ready = trio.Event()
                await self._ready.wait()
        except ConnectionClosed:
            pass
        finally:
            self.shut(None, "")

    def finish(self, code: int, reason: str) -> bytes:
        """Stop reading and close once what is queued has been sent (an error explaining
        why, typically). Returns the marker to queue after those frames."""
        if not self.closing and not self.closed:
            self.closing = True
            self.close_code, self.close_reason = code, reason
            self.metrics.policy_closes += code == POLICY
        return b""

    def shut(self, code: int | None, reason: str) -> None:
        """Stop serving this connection (from any task); ``code`` is the close code to send."""
        if not self.closed:
            self.closed = True
            if code is not None:
                self.close_code, self.close_reason = code, reason
                self.metrics.policy_closes += code == POLICY
        if self.scope is not None:
            self.scope.cancel()

    # ------------------------------------------------------------------ incoming

    def allow(self, now: float) -> bool:
        """Token bucket: may the client send one more message now?"""
        lim = self.limits
        self._tokens = min(float(lim.burst), self._tokens + (now - self._tokens_at) * lim.rate)
        self._tokens_at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def strike(self, now: float) -> bool:
        """Count one malformed message; True when the client has sent too many."""
        self._strikes = max(0.0, self._strikes - (now - self._strikes_at) / 10) + 1
        self._strikes_at = now
        return self._strikes > self.limits.garbage
