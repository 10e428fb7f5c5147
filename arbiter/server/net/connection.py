"""One client connection, as the transport sees it: websockets' sans-I/O protocol
(``websockets.server.ServerProtocol``) driven by the connection's own task, frames written
straight to the socket when it takes them, else a bounded outgoing queue drained by a writer
task.

websockets' trio connection runs a background task per connection that reads the socket and
hands frames to a message assembler, which the handler then awaits: two tasks and a wake-up
between them for every message. Here the handler's task reads the bytes itself, feeds the
protocol, takes the messages it completed and hands them to the hub inline (server.py), and
whatever the protocol has to send (the frames, answers to pings, a close) is written at once
when nothing is ahead of it. Heartbeats are deadlines of the server's timer task, not a task
(or a cancel scope around every read) of their own.

The core hands frames to :meth:`Connection.deliver` (through the commit gate), which never
blocks. While nothing is waiting to go out, a frame is framed by the protocol and written to the
socket with one non-blocking ``os.write``, without a task switch (the common case: the kernel's
buffer has room). When the socket takes only part of it, the rest waits in :attr:`_out`, ahead
of everything written after it, and the writer task sends it, then the queue behind it. When
the queue is full the client has fallen too far behind, and it is disconnected (its seat stays
held for the grace period) rather than slowing anyone else down.

States (one table, as in server/rooms/states.py)::

    open ──finish (the core closes it)──> draining ──queue sent──> closed
      └──────────shut (writer ended, queue full, cancelled)───────────┘

The websocket's own states (connecting, open, closing, closed) are the protocol's.
"""

from __future__ import annotations

import http
import itertools
import logging
import os
import socket
import struct
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

import trio
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import Event, State
from websockets.server import ServerProtocol
from websockets.typing import StatusLike

from .admission import AdmittedStream

if TYPE_CHECKING:
    from .metrics import Metrics

log = logging.getLogger("arbiter.net")

POLICY = CloseCode.POLICY_VIOLATION  # 1008
RECEIVE_SIZE = 65536  # bytes read at once: a burst of small frames is one read

Message = bytes | str  # a binary message, or a text one decoded
# process_request and process_response (server.py): the request, or the response about to be
# sent, in; a response to send instead, or None, out.
RequestHook = Callable[["Connection", Request], Response | None]
# The server's timers (server/net/timers.py): wake ``key`` at a time, or never (None).
Schedule = Callable[[Hashable, float | None], None]
ResponseHook = Callable[["Connection", Request, Response], Response | None]


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

_BROKEN = (trio.BrokenResourceError, trio.ClosedResourceError)

_SHORT = bytes((0x82,))  # FIN and the binary opcode (RFC 6455 5.2), then the length
_HEADER16 = struct.Struct("!BBH")
_HEADER64 = struct.Struct("!BBQ")


def _header(length: int) -> bytes:
    """The header of an unmasked, unfragmented binary frame of ``length`` payload bytes."""
    if length < 126:
        return _SHORT + bytes((length,))
    if length < 65536:
        return _HEADER16.pack(0x82, 126, length)
    return _HEADER64.pack(0x82, 127, length)


class Connection:
    _ids = itertools.count(1)

    def __init__(self, stream: trio.abc.HalfCloseableStream, protocol: ServerProtocol,
                 queue: int, metrics: Metrics, *, ping_interval: float | None = None,
                 ping_timeout: float | None = None, schedule: Schedule | None = None) -> None:
        self.id = next(self._ids)
        self.stream = stream
        self.protocol = protocol
        self.limit = queue
        self.metrics = metrics
        # A deque and the writer parked on it, not a memory channel: the same bound and
        # wake-up for less per frame (docs/architecture.md); parking the task itself instead
        # of waiting on an Event saves making an Event (and its parking lot) per wake-up.
        self._queue: deque[bytes] = deque()
        self._parked: trio.lowlevel.Task | None = None
        # The writer task is started the first time the socket does not take everything (most
        # connections never need it: a task fewer per idle connection); it then parks.
        self.writer_nursery: trio.Nursery | None = None  # where it runs, while it may
        self._running = False  # the writer is started and not parked: it owns the socket
        self.state = ConnState.OPEN
        self.drained = trio.Event()
        self.close_code: int | None = None
        self.close_reason = ""
        self.scope: trio.CancelScope | None = None
        self.frames_sent = 0
        # Writing straight to the socket needs its file descriptor (a plain TCP stream on a
        # POSIX system, counted at accept or not); anything else always goes through the
        # writer task.
        self._fd = (stream.socket.fileno() if os.name == "posix"
                    and isinstance(stream, trio.SocketStream | AdmittedStream) else None)
        self._direct = False  # reads go to the socket itself (see _read_socket)
        self._out = bytearray()  # bytes the socket has not taken yet, in order: the writer's
        self._eof = False  # the protocol asked for the end of our side once _out is sent
        self._eof_sent = False
        self._sending = False  # the writer is inside send_all: cancelled there, bytes are torn
        self._stopping = False  # the writer ends once nothing is left to send
        self.stalls = 0  # times the socket took only part of what was written (slow clients)
        self._early: list[Event] = []  # frames parsed with the handshake's request
        self._parts: list[bytes] | None = None  # a fragmented message under way
        self._text = False  # ... and whether it is text
        # Heartbeats (RFC 6455 5.5.2): a ping every ping_interval, the connection failed when
        # its pong has not come within ping_timeout. The server's timer task calls
        # heartbeat() at the deadline asked with ``schedule`` (this connection is the key):
        # a cancel scope around every read would cost each message a few microseconds.
        self.ping_interval = ping_interval
        self.ping_timeout = ping_timeout
        self._schedule = schedule
        self._pings = itertools.count(1)  # ping payloads: a counter, no randomness needed
        self._ping_sent: tuple[bytes, float] | None = None
        self._heard = False  # bytes came from the client since the last heartbeat

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

    # ------------------------------------------------------------------ the handshake

    def respond(self, status: StatusLike, text: str) -> Response:
        """A plain text HTTP response (for process_request)."""
        return self.protocol.reject(status, text)

    async def handshake(self, process_request: RequestHook, process_response: ResponseHook,
                        server_header: str, closing: Callable[[], bool]) -> bool:
        """Read the request, answer it (what websockets' trio server does, with its hooks), and
        say whether it became a websocket connection. ``closing``: the server is going away,
        so an upgrade is answered 503."""
        protocol = self.protocol
        request: Request | None = None
        while request is None:
            data = await self._read()
            if data:
                protocol.receive_data(data)
            else:
                protocol.receive_eof()
            for event in protocol.events_received():
                if request is None and isinstance(event, Request):
                    request = event
                else:  # frames the client sent right behind its request
                    self._early.append(event)
            if request is None and (not data or protocol.close_expected()):
                await self.flush()  # the protocol's own answer (431, 414), if it made one
                return False
        try:
            response = process_request(self, request)
        except Exception as exc:
            protocol.handshake_exc = exc
            log.exception("process_request failed")
            response = self.respond(http.HTTPStatus.INTERNAL_SERVER_ERROR,
                                    "Failed to open a WebSocket connection.\n")
        if response is None:
            response = protocol.accept(request)  # 101, or 403 (origin), 400, 426
        response.headers["Server"] = server_header
        response = process_response(self, request, response) or response
        if response.status_code == http.HTTPStatus.SWITCHING_PROTOCOLS and closing():
            response = self.respond(http.HTTPStatus.SERVICE_UNAVAILABLE,
                                    "Server is shutting down.\n")
        protocol.send_response(response)
        await self.flush()
        return protocol.state is State.OPEN

    # ------------------------------------------------------------------ incoming

    async def _read(self) -> bytes:
        if self._direct:
            return await self._read_socket()
        try:
            data = await self.stream.receive_some(RECEIVE_SIZE)
        except _BROKEN:
            return b""
        return bytes(data)

    async def _read_socket(self) -> bytes:
        """Read the socket itself (a websocket connection, once the door has handed over what
        it held): wait until bytes are there, then ``os.read`` them. One trip through trio's
        scheduler a read, not two: the stream's ``receive_some`` passes a checkpoint after its
        read even when it has just waited for the socket, a second wake-up of this task for
        every message. Waiting first, not reading first: a read is nearly always made right
        after the last message was handled, before the client can have sent the next (it
        waits for our answer), so a first read found nothing but cost a system call and an
        exception each message; and when bytes are there already, the wait comes back at the
        scheduler's next turn, the checkpoint that a client who never pauses owes the others
        anyway."""
        fd = self._fd
        assert fd is not None
        while True:
            try:
                await trio.lowlevel.wait_readable(fd)
            except _BROKEN:  # closed by another task: the end
                return b""
            try:
                return os.read(fd, RECEIVE_SIZE)
            except BlockingIOError:  # woken for nothing: wait again
                continue
            except OSError:  # reset by the peer: the end, as the stream says it
                return b""

    def start_heartbeats(self) -> None:
        if self.ping_interval is not None:
            self._beat_at(trio.current_time() + self.ping_interval)

    def stop_heartbeats(self) -> None:
        self._beat_at(None)

    def _beat_at(self, when: float | None) -> None:
        if self._schedule is not None:
            self._schedule(self, when)

    async def receive(self) -> list[Message] | None:
        """The messages the client has completed, as soon as there is one; None once the
        connection has ended (the client's close or end, a protocol error, a frame beyond the
        size limit (1009), a heartbeat unanswered)."""
        protocol = self.protocol
        stream = self.stream
        if not self._direct and self._fd is not None and (
                not isinstance(stream, AdmittedStream) or stream.handed_over):
            self._direct = True
        if self._early:
            events, self._early = self._early, []
            messages = self._messages(events)
            if messages:
                return messages
        while protocol.state is State.OPEN:
            data = await self._read()
            if data:
                self._heard = True
                protocol.receive_data(data)
            else:
                protocol.receive_eof()
            messages = self._messages(protocol.events_received())
            self._take_output()  # pongs, the echo of a close, the end of our side
            if messages:
                return messages
        return None

    def _messages(self, events: list[Event]) -> list[Message]:
        """Whole messages among ``events`` (frames), in order; pongs acknowledge pings."""
        out: list[Message] = []
        for frame in events:
            if not isinstance(frame, Frame):
                continue
            opcode, data = frame.opcode, frame.data
            if opcode is Opcode.BINARY or opcode is Opcode.TEXT:
                if frame.fin:
                    message = self._message(bytes(data), opcode is Opcode.TEXT)
                    if message is None:
                        break
                    out.append(message)
                else:  # the protocol checks sizes and continuation order (1009, 1002)
                    self._parts, self._text = [bytes(data)], opcode is Opcode.TEXT
            elif opcode is Opcode.CONT and self._parts is not None:
                self._parts.append(bytes(data))
                if frame.fin:
                    whole, self._parts = b"".join(self._parts), None
                    message = self._message(whole, self._text)
                    if message is None:
                        break
                    out.append(message)
            elif opcode is Opcode.PONG:
                self._ponged(bytes(data))
        return out

    def _message(self, data: bytes, text: bool) -> Message | None:
        if not text:
            return data
        try:
            return data.decode()
        except UnicodeDecodeError as exc:  # RFC 6455 8.1: fail the connection, 1007
            self.protocol.fail(CloseCode.INVALID_DATA, f"{exc.reason} at position {exc.start}")
            self._take_output()
            return None

    # ------------------------------------------------------------------ heartbeats

    def heartbeat(self, now: float) -> None:
        """The timer's call: send the next ping, or fail the connection (1011) when the last
        one's pong has not come within ping_timeout (the client is gone; its task's read is
        cancelled, and it closes).

        A client that sent anything since the last call was there then: it is not pinged
        this time, only asked again an interval later (a keepalive of idle connections, as
        TCP's is). A dead client is still found at most ``ping_interval + ping_timeout``
        after it last spoke, and a server of players who act every few seconds sends and
        reads no pings at all: at 4,000 players pinged every 20 s they were 200 exchanges a
        second, each waking both ends."""
        if self.protocol.state is not State.OPEN or self.ping_interval is None:
            return
        if self._ping_sent is not None:
            self.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
            self._take_output()
            self.shut(None, "")
            return
        if self._heard:
            self._heard = False
            self._beat_at(now + self.ping_interval)
            return
        self.ping(struct.pack("!I", next(self._pings) & 0xFFFFFFFF))
        self._beat_at(now + (self.ping_timeout or self.ping_interval))

    def ping(self, data: bytes) -> None:
        """Send a ping now (behind whatever waits to go out)."""
        self.protocol.send_ping(data)
        if self.ping_timeout and self.ping_interval is not None:
            self._ping_sent = (data, trio.current_time())
        self._take_output()

    def _ponged(self, data: bytes) -> None:
        sent = self._ping_sent
        if sent is not None and sent[0] == data and self.ping_interval is not None:
            self._ping_sent = None
            self._heard = False  # the answer asked for, not news: a quiet client's next ping
            self._beat_at(max(sent[1] + self.ping_interval, trio.current_time()))

    # ------------------------------------------------------------------ outgoing

    def deliver(self, frame: bytes) -> None:
        self.deliver_all((frame,))

    def deliver_all(self, frames: Sequence[bytes]) -> None:
        """Send ``frames``, in order: the frames one batch of the commit gate holds for this
        connection (server/store/gate.py). While nothing is waiting to go out they are framed
        and written with one ``os.write`` (no queue, no task switch): a write is a system call
        and, on loopback, the receiver's wake-up too, so two frames cost one write, not two.
        :data:`END` and whatever follows it go to the queue, for the writer."""
        if self.state == ConnState.CLOSED:
            return
        now = len(frames)
        if END in frames:
            now = frames.index(END)
        if now and not self._running and not self._out and self._fd is not None \
                and self.protocol.state is State.OPEN:
            self._frame(frames[:now] if now < len(frames) else frames)
            self.frames_sent += now
            frames = frames[now:]
        for frame in frames:
            if len(self._queue) >= self.limit:
                self.metrics.slow_disconnects += 1
                log.info("%r fell %d frames behind; disconnecting it", self, self.limit)
                self.shut(POLICY, "send queue full: the client is not reading fast enough")
                return
            self._queue.append(frame)
            self._wake()

    def _frame(self, frames: Sequence[bytes]) -> None:
        """Frame ``frames`` as binary messages and send them, in one piece. Without an
        extension a server frame is a two- to ten-byte header and the payload (RFC 6455 5.2;
        a server never masks), written here directly: the protocol's ``send_binary`` builds a
        ``Frame`` and serializes it, five times the cost, for the same bytes. With
        permessage-deflate the protocol compresses and frames them."""
        protocol = self.protocol
        if protocol.extensions:
            for frame in frames:
                protocol.send_binary(frame)
            self._take_output()
        else:
            self._send(b"".join([_header(len(frame)) + frame for frame in frames]))
            if self._out:
                self._wake()

    def _wake(self) -> None:
        """Have the writer send what waits: wake it, or start it the first time."""
        if self._running:
            return
        if self._parked is not None:
            task, self._parked = self._parked, None
            self._running = True
            trio.lowlevel.reschedule(task)
        elif self.writer_nursery is not None and not self._stopping:
            self._running = True
            self.writer_nursery.start_soon(self.writer)

    def _take_output(self) -> None:
        """Move what the protocol has to send to the socket: now, if nothing is ahead of it
        and the socket takes it; else behind what waits in :attr:`_out`, for the writer (or
        :meth:`flush`). So a heartbeat or a pong never lands inside a frame written in part."""
        writes = self.protocol.data_to_send()
        if writes:
            if not writes[-1]:  # SEND_EOF (always last): the end of our side, once all is out
                self._eof = True
            self._send(b"".join(writes))
        if self._eof and not self._eof_sent and not self._out and not self._running:
            self._shut_write()
        elif self._out or (self._eof and not self._eof_sent):
            self._wake()  # without a writer (the handshake, the close), flush() sends it

    def _send(self, data: bytes) -> None:
        """Write ``data`` at once if nothing is ahead of it; what the socket does not take
        (or all of it) waits in :attr:`_out`, in order."""
        if not data:
            return
        if not self._out and not self._running and self._fd is not None:
            try:
                written = os.write(self._fd, data)
            except OSError:  # full (BlockingIOError), or the peer is gone: the writer
                written = 0  # finds out when it sends the rest
            if written == len(data):
                return
            data = data[written:]
            self.stalls += 1
        self._out += data

    def _shut_write(self) -> None:
        self._eof_sent = True
        sock = getattr(self.stream, "socket", None)
        try:
            if sock is not None:
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    @property
    def queue_depth(self) -> int:
        return len(self._queue)

    async def writer(self) -> None:
        queue = self._queue
        protocol = self.protocol
        try:
            while True:
                if self._out:  # what the socket did not take, then the queue
                    data = bytes(self._out)
                    self._out.clear()
                    self._sending = True
                    await self.stream.send_all(data)
                    self._sending = False
                    continue
                if self._eof and not self._eof_sent:
                    self._shut_write()
                if queue:
                    frames = []  # everything queued up to END goes in one send
                    while queue and queue[0]:
                        frames.append(queue.popleft())
                    if frames and protocol.state is State.OPEN:
                        self._frame(frames)  # into _out: the writer is not parked
                        self.frames_sent += len(frames)
                    elif not frames:  # END
                        queue.popleft()
                        self.drained.set()
                        return
                    continue
                if self._stopping:
                    return
                self._parked = trio.lowlevel.current_task()
                self._running = False
                await trio.lowlevel.wait_task_rescheduled(self._unpark)
        except _BROKEN:
            self._sending = False
        finally:
            self._parked = None
            self._running = False
            self.shut(None, "")

    def stop_writer(self) -> None:
        """Let the writer end once what it holds is sent (not cancelled: a send cut short
        would leave a frame torn, and the close could not follow it)."""
        self._stopping = True
        if self._parked is not None:
            task, self._parked = self._parked, None
            self._running = True
            trio.lowlevel.reschedule(task)

    def _unpark(self, raise_cancel: object) -> trio.lowlevel.Abort:
        self._parked = None  # cancelled while waiting for frames
        return trio.lowlevel.Abort.SUCCEEDED

    async def flush(self) -> None:
        """Send everything waiting, from the task that calls it (the handshake, the close:
        no writer runs then)."""
        self._take_output()
        if self._out:
            data = bytes(self._out)
            self._out.clear()
            await self.stream.send_all(data)
        if self._eof and not self._eof_sent:
            self._shut_write()

    async def close(self, code: int, reason: str, timeout: float) -> None:
        """The closing handshake (RFC 6455 7.1.2): our close frame behind everything queued
        ahead of it, then the client's answer and its end of the connection, for at most
        ``timeout`` seconds; then the socket is closed."""
        protocol = self.protocol
        try:
            if not self._sending:  # else the writer was cancelled mid-frame: nothing fits
                with trio.move_on_after(timeout):
                    if protocol.state is State.OPEN:
                        protocol.send_close(code, reason)
                    await self.flush()
                    while protocol.state is not State.CLOSED:
                        data = await self._read()
                        if data:
                            protocol.receive_data(data)
                        else:
                            protocol.receive_eof()
                        protocol.events_received()
                        await self.flush()
        except _BROKEN:
            pass
        finally:
            await trio.aclose_forcefully(self.stream)

    # ------------------------------------------------------------------ closing

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
