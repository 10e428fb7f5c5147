"""One client connection, as the transport sees it: frames written straight to the socket when
it takes them, else a bounded outgoing queue drained by its own writer task.

The core hands frames to :meth:`Connection.deliver` (through the commit gate), which never
blocks. While nothing is waiting to go out, a frame is framed by websockets' protocol and
written to the socket at once, without a task switch (the common case: the kernel's buffer has
room). When the socket takes only part of it, the rest goes back to the front of the protocol's
outgoing data and the writer task sends it, then the queue behind it, through websockets' own
send path. When the queue is full the client has fallen too far behind, and it is disconnected
(its seat stays held for the grace period) rather than slowing anyone else down.

States (one table, as in server/rooms/states.py)::

    open ──finish (the core closes it)──> draining ──queue sent──> closed
      └──────────shut (writer ended, queue full, cancelled)───────────┘
"""

from __future__ import annotations

import itertools
import logging
import os
from collections import deque
from enum import StrEnum
from typing import TYPE_CHECKING

import trio
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.protocol import State

from .admission import AdmittedStream

if TYPE_CHECKING:
    from websockets.trio.server import ServerConnection

    from .metrics import Metrics

log = logging.getLogger("arbiter.net")

POLICY = CloseCode.POLICY_VIOLATION  # 1008


class ConnState(StrEnum):
    OPEN = "open"
    DRAINING = "draining"  # reading has stopped; queued frames go out, then it closes
    CLOSED = "closed"


TRANSITIONS: dict[ConnState, frozenset[ConnState]] = {
    ConnState.OPEN: frozenset({ConnState.DRAINING, ConnState.CLOSED}),
    ConnState.DRAINING: frozenset({ConnState.CLOSED}),
    ConnState.CLOSED: frozenset(),
}

END = b""  # queued (through the commit gate) after a connection's last frames: the writer stops


class Connection:
    _ids = itertools.count(1)

    def __init__(self, ws: ServerConnection, queue: int, metrics: Metrics) -> None:
        self.id = next(self._ids)
        self.ws = ws
        self.limit = queue
        self.metrics = metrics
        # A deque and the writer parked on it, not a memory channel: the same bound and
        # wake-up for less per frame (docs/architecture.md); parking the task itself instead
        # of waiting on an Event saves making an Event (and its parking lot) per wake-up.
        self._queue: deque[bytes] = deque()
        self._parked: trio.lowlevel.Task | None = None
        self.state = ConnState.OPEN
        self.drained = trio.Event()
        self.close_code: int | None = None
        self.close_reason = ""
        self.scope: trio.CancelScope | None = None
        self.frames_sent = 0
        # Writing straight to the socket needs its file descriptor (a plain TCP stream on a
        # POSIX system, counted at accept or not); anything else always goes through the
        # writer task.
        stream = ws.stream
        self._fd = (stream.socket.fileno() if os.name == "posix"
                    and isinstance(stream, trio.SocketStream | AdmittedStream) else None)
        self._stalled = False  # part of a frame waits in the protocol for the writer
        self.stalls = 0  # how many times that happened (tests, and a sign of slow clients)

    def __repr__(self) -> str:
        return f"<Connection {self.id} {self.state}>"

    def _move(self, state: ConnState) -> bool:
        if state == self.state:
            return False
        if state not in TRANSITIONS[self.state]:
            return False  # a later word on a connection already closing or closed
        self.state = state
        return True

    @property
    def open(self) -> bool:
        return self.state == ConnState.OPEN

    # ------------------------------------------------------------------ outgoing

    def deliver(self, frame: bytes) -> None:
        if self.state == ConnState.CLOSED:
            return
        task = self._parked
        if task is not None and frame and self._may_write_now():
            self._write_now(frame)
            if not self._stalled:
                return
        elif len(self._queue) >= self.limit:
            self.metrics.slow_disconnects += 1
            log.info("%r fell %d frames behind; disconnecting it", self, self.limit)
            self.shut(POLICY, "send queue full: the client is not reading fast enough")
            return
        else:
            self._queue.append(frame)
        if task is not None:
            self._parked = None
            trio.lowlevel.reschedule(task)

    def _may_write_now(self) -> bool:
        """Whether every earlier byte is on the socket, so that a frame written now is next:
        the writer is parked with nothing queued or stalled (the caller checks it is parked),
        and websockets itself is not writing (its send lock is free, no fragmented message is
        under way) and has nothing of its own waiting."""
        ws = self.ws
        return not (self._fd is None or self._stalled or self._queue
                    or ws.protocol.state is not State.OPEN or ws.send_lock.locked()
                    or ws.send_in_progress is not None or ws.protocol.writes)

    def _write_now(self, frame: bytes) -> None:
        """Frame ``frame`` and write it to the socket without waiting. A send through trio
        costs two trips through the scheduler and the writer's wake-up a third; a frame the
        kernel takes whole here costs none (docs/architecture.md).

        Whatever the socket does not take, for any reason (a full buffer, an error), goes back
        to the front of the protocol's outgoing data and the connection is stalled: the writer
        sends that rest through websockets' send path before anything else can be written
        (websockets writes only what its protocol hands out, in order), and an error there
        closes the connection as websockets does."""
        protocol = self.ws.protocol
        protocol.send_binary(frame)
        data = b"".join(protocol.data_to_send())  # this frame alone: nothing else was waiting
        assert self._fd is not None
        try:
            written = os.write(self._fd, data)
        except OSError:  # full (BlockingIOError), or the peer is gone: websockets finds out
            written = 0
        self.frames_sent += 1
        if written < len(data):
            protocol.writes.insert(0, data[written:])
            self._stalled = True
            self.stalls += 1

    @property
    def queue_depth(self) -> int:
        return len(self._queue)

    async def writer(self) -> None:
        queue = self._queue
        try:
            while True:
                if self._stalled:  # the rest of a frame written in part, then the queue
                    async with self.ws.send_context():
                        pass
                    self._stalled = False
                while queue:
                    frame = queue.popleft()
                    if not frame:  # END
                        self.drained.set()
                        return
                    await self.ws.send(frame)
                    self.frames_sent += 1
                self._parked = trio.lowlevel.current_task()
                await trio.lowlevel.wait_task_rescheduled(self._unpark)
        except ConnectionClosed:
            pass
        finally:
            self.shut(None, "")

    def _unpark(self, raise_cancel: object) -> trio.lowlevel.Abort:
        self._parked = None  # cancelled while waiting for frames
        return trio.lowlevel.Abort.SUCCEEDED

    def finish(self, code: int, reason: str) -> bool:
        """Stop reading, and close with ``code`` once the writer reaches :data:`END`, which the
        caller queues after the frames that must go first (the error explaining why). False if
        the connection is already closing."""
        if not self._move(ConnState.DRAINING):
            return False
        self.close_code, self.close_reason = code, reason
        return True

    def shut(self, code: int | None, reason: str) -> None:
        """Stop serving this connection (from any task); ``code`` is the close code to send."""
        if self._move(ConnState.CLOSED) and code is not None:
            self.close_code, self.close_reason = code, reason
            self.metrics.policy_closes += code == POLICY
        if self.scope is not None:
            self.scope.cancel()
