"""Admission: every TCP connection is counted the moment it is accepted, before a byte of its
request is read, so that slow or half-open HTTP requests cannot take every file descriptor
(docs/architecture.md, "Connections and file descriptors").

The server holds at most ``capacity`` sockets: ``--max-connections`` websocket connections and
some headroom for handshakes under way, never more than the open-file limit leaves after the
files the server needs for itself. A connection is *pending* from accept until its websocket
handshake is done (an HTTP request stays pending until it is answered); at capacity, a new
connection closes the oldest pending one, so that a flood of requests that never finish keeps
turning over while an honest handshake, which finishes in a round trip, gets through. When every
socket is an open websocket connection, a new one is answered 503 and closed at once. Whatever
happens, a handshake never takes longer than ``open_timeout`` (websockets closes it then).

Running out of descriptors or memory anyway (other processes, a low system-wide limit) makes
``accept`` fail; the listener waits a moment and tries again, and says so in the log at most
once a minute, not once per attempt.

States of an :class:`AdmittedStream` (one table)::

    pending ──established (handshake done)──> open ──aclose──> closed
       └──────────────evicted, or aclose───────────────────────────┘
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import resource
from enum import StrEnum
from typing import Any

import trio
from websockets.exceptions import HeaderLineTooLong, RequestLineTooLong, TooManyHeaders
from websockets.http11 import Request
from websockets.streams import StreamReader

log = logging.getLogger("arbiter.net")

# Files the server needs besides its connections: its log (SQLite and its journal), the
# listeners, epoll, a cluster node's pools, the interpreter's own.
RESERVED_FILES = 64
# Pending handshakes held on top of --max-connections: a tenth of it, at least this many.
MIN_HEADROOM = 16
CAPACITY_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
RETRY_AFTER = 0.1  # seconds to wait after accept found no resources (what trio's loop does)
LOG_EVERY = 60.0  # seconds between two lines about the same kind of trouble


def _plain(status: str, text: str) -> bytes:
    """A whole HTTP response, written by hand: these are sent before websockets has a request
    to answer (or instead of it)."""
    body = text.encode("utf-8", "replace")
    return (f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


REFUSAL = _plain("503 Service Unavailable", "this server has reached its connection limit\n")
MAX_HEAD = 16 * 1024  # a request head longer than this is left to websockets' own limits


def raise_open_file_limit() -> tuple[int, int]:
    """Raise this process's soft limit on open files to its hard limit (the soft limit is
    often 1,024, which a few hundred slow clients exhaust); return it before and after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # a platform that will not: keep what we have
            return soft, soft
        return soft, hard
    return soft, soft


def capacity(max_connections: int) -> int:
    """How many sockets the server may hold at once (see the module's docstring)."""
    wanted = max_connections + max(MIN_HEADROOM, max_connections // 10)
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - RESERVED_FILES))


class Throttled:
    """A log line said at most once per :data:`LOG_EVERY` seconds; the times it was not said
    are counted into the next one."""

    def __init__(self, level: int, message: str) -> None:
        self.level = level
        self.message = message
        self.said_at: float | None = None
        self.unsaid = 0
        self.total = 0

    def __call__(self, *args: object) -> None:
        self.total += 1
        now = trio.current_time()
        if self.said_at is not None and now - self.said_at < LOG_EVERY:
            self.unsaid += 1
            return
        more = f" ({self.unsaid} more since the last such line)" if self.unsaid else ""
        log.log(self.level, self.message + more, *args)
        self.said_at, self.unsaid = now, 0


class StreamState(StrEnum):
    PENDING = "pending"
    OPEN = "open"
    CLOSED = "closed"


class Admission:
    """The sockets a server holds, shared by its listeners."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.held = 0
        self.pending: dict[AdmittedStream, None] = {}  # oldest first
        self.evict_log = Throttled(logging.WARNING, "%d sockets held (the most this server "
                                   "takes): closing the oldest unfinished requests")
        self.refuse_log = Throttled(logging.WARNING, "%d connections open (the most this "
                                    "server takes): refusing new ones")
        self.exhausted_log = Throttled(logging.ERROR, "accept failed: %s (%s) with %d sockets "
                                       "held; retrying")
        self.bad_request_log = Throttled(logging.INFO, "malformed HTTP request from %s "
                                         "(answered 400): %s")

    def admit(self, stream: trio.SocketStream, peer: Any) -> AdmittedStream | None:
        """Count a socket just accepted; None when it was refused (and closed)."""
        if self.held >= self.capacity:
            if not self.pending:
                self.refuse_log(self.held)
                _refuse(stream)
                return None
            self.evict_log(self.held)
            next(iter(self.pending)).evict()
        admitted = AdmittedStream(stream, peer, self)
        self.held += 1
        self.pending[admitted] = None
        return admitted


def _refuse(stream: trio.SocketStream) -> None:
    """Say 503 if the socket takes it at once (it has room: nothing was written yet), and
    close: no task, no waiting, nothing read."""
    with contextlib.suppress(OSError):
        os.write(stream.socket.fileno(), REFUSAL)
    stream.socket.close()


def malformed(head: bytes) -> str | None:
    """Why ``head`` (a request line and headers, up to the blank line) is no HTTP request
    websockets would answer, or None if it is one. Lines too long or too many are left to
    websockets, which answers them with their own status."""
    reader = StreamReader()
    reader.feed_data(head)
    reader.feed_eof()
    parser = Request.parse(reader.read_line)
    try:
        next(parser)
    except StopIteration:
        return None
    except (RequestLineTooLong, HeaderLineTooLong, TooManyHeaders):
        return None
    except Exception as exc:  # what websockets' parser raises: ValueError, EOFError, ...
        return str(exc)[:200] or type(exc).__name__
    return "incomplete request"  # pragma: no cover (the head ends with its blank line)


class AdmittedStream(trio.abc.HalfCloseableStream):
    """A counted socket, as websockets sees it (a :class:`trio.SocketStream` inside).

    Until its handshake is answered it also guards websockets from requests it would not
    answer: it reads the request's head whole, answers 400 itself if it is no HTTP request
    (websockets would close without a word), and holds back whatever the client sent after the
    head until the handshake is answered (websockets would read it as frames before it
    answers, fail, and never answer)."""

    def __init__(self, inner: trio.SocketStream, peer: Any, admission: Admission) -> None:
        self.inner = inner
        self.peer = peer  # the address at accept: asking the socket later fails once it is gone
        self.state = StreamState.PENDING
        self.admission = admission
        self._head: bytearray | None = bytearray()  # None once the head is handed over
        self._after = b""  # read after the head, given out once the handshake is answered
        self._through = trio.Event()  # set once reads go straight to the socket
        self._eof_sent = False

    @property
    def socket(self) -> trio.socket.SocketType:
        return self.inner.socket

    def established(self) -> None:
        """The websocket handshake is done: this is a connection now, never evicted, and
        what the client sent after its request is read as frames."""
        if self.state == StreamState.PENDING:
            self.state = StreamState.OPEN
            self.admission.pending.pop(self, None)
            self._through.set()

    def answered(self) -> None:
        """The request was answered, not upgraded: whatever the client sends now goes to
        websockets, which reads until the client's end before it closes."""
        self._through.set()

    def evict(self) -> None:
        """Close at once (a pending socket, at capacity): whatever waits on it is woken with
        ClosedResourceError, which websockets takes as the end of the connection."""
        self._close()
        self.inner.socket.close()

    def _close(self) -> None:
        if self.state != StreamState.CLOSED:
            self.state = StreamState.CLOSED
            self.admission.held -= 1
            self.admission.pending.pop(self, None)
            self._through.set()

    @property
    def handed_over(self) -> bool:
        """A websocket connection that holds nothing back any more: its socket may be read
        directly (server/net/connection.py)."""
        return self.state == StreamState.OPEN and self._head is None and not self._after

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        if not self._eof_sent:
            self._eof_sent = True
            await self.inner.send_eof()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        if self._head is not None:
            return await self._read_head()
        if not self._through.is_set():
            await self._through.wait()
        if self.state == StreamState.CLOSED:
            raise trio.ClosedResourceError("this connection was closed")
        if self._after:
            data, self._after = self._after, b""
            return data
        return await self.inner.receive_some(max_bytes)

    async def _read_head(self) -> bytes:
        head = self._head
        assert head is not None
        while (end := head.find(b"\r\n\r\n")) < 0:
            data = await self.inner.receive_some()
            if not data or len(head) > MAX_HEAD:  # the end, or websockets' own limits
                self._head = None
                self._through.set()
                return bytes(head + data)
            head += data
        end += 4
        self._head = None
        self._after = bytes(head[end:])
        problem = malformed(bytes(head[:end]))
        if problem is None:
            return bytes(head[:end])
        self.admission.bad_request_log(self.peer[0] if self.peer else "?", problem)
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await self.inner.send_all(_plain("400 Bad Request",
                                             f"malformed HTTP request: {problem}\n"))
            await self.send_eof()
        return b""  # websockets sees the end of a request it could not read, and says nothing

    async def aclose(self) -> None:
        self._close()
        await self.inner.aclose()


class AdmittingListener(trio.abc.Listener[AdmittedStream]):
    """A TCP listener that counts what it accepts (see the module's docstring)."""

    def __init__(self, inner: trio.SocketListener, admission: Admission) -> None:
        self.inner = inner
        self.admission = admission

    @property
    def socket(self) -> trio.socket.SocketType:
        return self.inner.socket

    async def accept(self) -> AdmittedStream:
        admission = self.admission
        while True:
            try:
                stream = await self.inner.accept()  # trio skips the errors that mean nothing
            except OSError as exc:
                if exc.errno not in CAPACITY_ERRNOS:
                    raise
                admission.exhausted_log(errno.errorcode[exc.errno], os.strerror(exc.errno),
                                        admission.held)
                await trio.sleep(RETRY_AFTER)
                continue
            try:
                peer = stream.socket.getpeername()
            except OSError:  # gone already (ENOTCONN): nothing to serve
                stream.socket.close()
                continue
            admitted = admission.admit(stream, peer)
            if admitted is not None:
                return admitted

    async def aclose(self) -> None:
        await self.inner.aclose()
