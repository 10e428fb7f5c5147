"""The SDK's websocket connection: websockets' sans-I/O protocol
(``websockets.client.ClientProtocol``) driven by whichever task reads, frames written straight to
the socket when it takes them.

websockets' trio ``ClientConnection`` runs a reader task per connection (``recv_events``) that
feeds a message assembler, which the SDK's own reader (``Client._read``) then awaits: two tasks
and a wake-up between them for every message, and every send goes through an async context
manager and a lock. A load-test worker holds a thousand connections, and that was about a third
of its CPU. Here, as in the server's connection (arbiter/server/net/connection.py), the task
that wants a message reads the socket itself, feeds the protocol and takes the messages it
completed inline; the SDK has exactly one reader at a time (``_hello_once`` during the hello,
then ``_read``), so no task of our own is needed.

Writing: a frame (masked, as a client's must be: the protocol frames it) goes out with one
non-blocking ``os.write`` when nothing is waiting ahead of it and the socket takes it all. What
the socket does not take waits in :attr:`Connection._out`, ahead of everything written after
it, and is sent by ``stream.send_all`` under a lock, so two frames' bytes never interleave. Any
task may send: requests, the heartbeat's pings, the close.

Closing: :meth:`Connection.aclose` is the closing handshake (bounded by ``close_timeout``), then
the socket is closed; :meth:`Connection.drop` closes the socket at once, without a handshake
(the heartbeat's answer to a silent server), and the reader then ends with a
``ConnectionClosed`` whose ``rcvd`` is None, as it does when the server vanishes.
"""

from __future__ import annotations

import itertools
import os
import ssl
import struct
from collections import OrderedDict, deque
from collections.abc import Sequence
from contextlib import nullcontext

import trio
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK, InvalidMessage
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import USER_AGENT, Response
from websockets.protocol import Event, State
from websockets.uri import parse_uri

RECEIVE_SIZE = 65536  # bytes read at once: a burst of small frames is one read

Message = bytes | str  # a binary message, or a text one decoded

_BROKEN = (trio.BrokenResourceError, trio.ClosedResourceError)
_CLOSED = State.CLOSED
_OPEN = State.OPEN


async def connect(url: str, *, open_timeout: float | None = 10.0,
                  close_timeout: float | None = 10.0,
                  ssl_context: ssl.SSLContext | None = None) -> Connection:
    """Open a websocket connection to ``url`` (``ws://`` or ``wss://``): TCP, TLS for wss, and
    the HTTP upgrade, all within ``open_timeout`` seconds. Raises what websockets' ``connect``
    raises: ``InvalidURI``, ``OSError`` (refused, unreachable, a TLS failure),
    ``InvalidHandshake`` (``InvalidStatus`` for a refusal such as 403 or 503) or
    ``TimeoutError``. No compression, no proxy, no limit on a message's size; HTTP redirects
    are not followed (the server answers an upgrade with 101 or a refusal)."""
    uri = parse_uri(url)  # raises InvalidURI
    try:
        with trio.fail_after(open_timeout) if open_timeout is not None else nullcontext():
            tcp = await trio.open_tcp_stream(uri.host, uri.port)
            stream: trio.abc.Stream = tcp
            try:
                if uri.secure:
                    stream = trio.SSLStream(
                        tcp, ssl_context or ssl.create_default_context(),
                        server_hostname=uri.host, https_compatible=True)
                    try:
                        await stream.do_handshake()
                    except _BROKEN as exc:  # an ssl.SSLError (an OSError), or the peer left
                        cause = exc.__cause__
                        raise (cause if isinstance(cause, OSError) else
                               ConnectionResetError("connection lost during the TLS handshake")
                               ) from exc
                protocol = ClientProtocol(uri, max_size=None)
                connection = Connection(stream, tcp.socket, protocol,
                                        close_timeout=close_timeout)
                await connection._handshake()
            except BaseException:
                await trio.aclose_forcefully(stream)
                raise
    except trio.TooSlowError as exc:
        raise TimeoutError("timed out during opening handshake") from exc
    return connection


class Connection:
    """One websocket connection to a server (made by :func:`connect`). ``recv`` and ``async
    for`` read messages (one reading task at a time); ``send``, ``ping``, ``aclose`` and
    ``drop`` may come from any task."""

    _ids = itertools.count(1)

    def __init__(self, stream: trio.abc.Stream, sock: trio.socket.SocketType,
                 protocol: ClientProtocol, *, close_timeout: float | None = 10.0) -> None:
        self.id = next(self._ids)
        self.stream = stream
        self.protocol = protocol
        self.close_timeout = close_timeout
        self._sock = sock
        # Reads and direct writes go to the socket itself when the stream is plain TCP on a
        # POSIX system; TLS goes through the stream both ways.
        self._fd = sock.fileno() if os.name == "posix" \
            and isinstance(stream, trio.SocketStream) else None
        self._sock_closed = False
        self._messages: deque[Message] = deque()  # read, not yet taken by recv
        self._parts: list[bytes] | None = None  # a fragmented message under way
        self._text = False  # ... and whether it is text
        self._reading = False  # a task is reading the socket (only one may)
        self._idle = trio.lowlevel.ParkingLot()  # tasks waiting for that read to finish
        self._done = False  # the protocol is closed and the socket with it
        self._close_deadline: float | None = None  # the closing handshake's end, once begun
        self._out = bytearray()  # bytes the socket has not taken yet, in order
        self._writing = False  # a task is inside stream.send_all
        self._write_failed = False  # the socket refused a write: the peer is gone
        self._lock = trio.Lock()  # one task sends what waits in _out
        self._pings: OrderedDict[bytes, trio.Event] = OrderedDict()  # waiting for their pong
        self._ping_ids = itertools.count(1)  # ping payloads: a counter, no randomness needed

    def __repr__(self) -> str:
        return f"<sdk.Connection {self.id} {self.protocol.state.name}>"

    @property
    def state(self) -> State:
        return self.protocol.state

    @property
    def close_code(self) -> int | None:
        """The close code received (1006 when the connection ended without one), None while
        the connection is open: as websockets' connections have it."""
        return self.protocol.close_code

    @property
    def close_reason(self) -> str | None:
        return self.protocol.close_reason

    # ------------------------------------------------------------------ the handshake

    async def _handshake(self) -> None:
        """Send the upgrade request and read until its response; raise the protocol's
        handshake error (``InvalidStatus`` for a refusal). Frames behind the response wait for
        the first ``recv``."""
        protocol = self.protocol
        request = protocol.connect()
        request.headers.setdefault("User-Agent", USER_AGENT)
        protocol.send_request(request)
        try:
            await self.stream.send_all(b"".join(protocol.data_to_send()))
        except _BROKEN as exc:
            raise ConnectionResetError("connection lost during the opening handshake") from exc
        response: Response | None = None
        while response is None:
            data = await self._read()
            if data:
                protocol.receive_data(data)
            else:
                protocol.receive_eof()
            events = protocol.events_received()
            for i, event in enumerate(events):
                if isinstance(event, Response):
                    response, events = event, events[i + 1:]
                    break
            if protocol.handshake_exc is not None:
                raise protocol.handshake_exc
            if response is None and not data:
                raise InvalidMessage("did not receive a valid HTTP response")
        self._handle(events)
        self._take_output()

    # ------------------------------------------------------------------ reading

    def __aiter__(self) -> Connection:
        return self

    async def __anext__(self) -> Message:
        """The next message; the iteration ends after a normal closure (1000, 1001) and
        raises ``ConnectionClosedError`` after any other end, as websockets' does."""
        messages = self._messages
        while not messages:  # recv(), inline: one coroutine fewer a message
            if self._done:
                exc = self.protocol.close_exc
                if isinstance(exc, ConnectionClosedOK):
                    raise StopAsyncIteration
                raise exc
            if self._reading:
                await self._idle.park()
            else:
                await self._receive()
        return messages.popleft()

    async def recv(self) -> Message:
        """The next message (bytes, or str for a text frame); raises ``ConnectionClosed``
        once the connection has ended and every message read before has been taken."""
        messages = self._messages
        while not messages:
            if self._done:
                raise self.protocol.close_exc
            if self._reading:  # another task reads (aclose): wait for its turn to end
                await self._idle.park()
            else:
                await self._receive()
        return messages.popleft()

    async def _receive(self) -> None:
        """One read: feed the protocol, keep the messages, answer what asks for an answer
        (pings, a close), acknowledge pongs. The caller checked no other task reads."""
        protocol = self.protocol
        self._reading = True
        try:
            if protocol.state is not _OPEN and self.close_timeout is not None \
                    and protocol.close_expected():
                # Closing: the server ends the TCP connection, or we do at the deadline.
                if self._close_deadline is None:
                    self._close_deadline = trio.current_time() + self.close_timeout
                data = b""
                with trio.move_on_at(self._close_deadline):
                    data = await self._read()
            else:
                data = await self._read()
        finally:
            self._reading = False
            if self._idle:
                self._idle.unpark_all()
        if data and not self._sock_closed:  # else the protocol is closed already
            protocol.receive_data(data)
        else:
            protocol.receive_eof()
        events = protocol.events_received()
        if events:
            self._handle(events)
        self._take_output()
        if protocol.state is _CLOSED:
            self._finish()
        elif self._out and not self._writing:
            await self._flush()  # a pong or our close echo, behind a frame written in part

    async def _read(self) -> bytes:
        """The next bytes from the server; b"" once the connection has ended."""
        fd = self._fd
        if fd is None:
            if self._sock_closed:
                return b""
            try:
                return bytes(await self.stream.receive_some(RECEIVE_SIZE))
            except (*_BROKEN, OSError):
                return b""
        # Wait until bytes are there, then os.read them: one trip through trio's scheduler a
        # read, not the two of the stream's receive_some (see the server's _read_socket).
        while True:
            if self._sock_closed:  # dropped by another task: the fd may be another's now
                return b""
            try:
                await trio.lowlevel.wait_readable(fd)
            except _BROKEN:  # closed by another task while we waited
                return b""
            if self._sock_closed:
                return b""
            try:
                return os.read(fd, RECEIVE_SIZE)
            except BlockingIOError:  # woken for nothing: wait again
                continue
            except OSError:  # reset by the peer: the end, as the stream says it
                return b""

    def _handle(self, events: Sequence[Event]) -> None:
        """Whole messages among ``events`` (frames) to :attr:`_messages`, in order; pongs
        acknowledge pings. (Pings and closes the protocol answers by itself.)"""
        messages = self._messages
        for frame in events:
            if not isinstance(frame, Frame):
                continue
            opcode = frame.opcode
            if opcode is Opcode.BINARY:
                if frame.fin:
                    messages.append(bytes(frame.data))
                else:
                    self._parts, self._text = [bytes(frame.data)], False
            elif opcode is Opcode.TEXT:
                if frame.fin:
                    if not self._message(bytes(frame.data), True):
                        return
                else:
                    self._parts, self._text = [bytes(frame.data)], True
            elif opcode is Opcode.CONT and self._parts is not None:
                self._parts.append(bytes(frame.data))
                if frame.fin:
                    whole, self._parts = b"".join(self._parts), None
                    if not self._message(whole, self._text):
                        return
            elif opcode is Opcode.PONG:
                self._ponged(bytes(frame.data))

    def _message(self, data: bytes, text: bool) -> bool:
        if not text:
            self._messages.append(data)
            return True
        try:
            self._messages.append(data.decode())
        except UnicodeDecodeError as exc:  # RFC 6455 8.1: fail the connection, 1007
            self.protocol.fail(CloseCode.INVALID_DATA, f"{exc.reason} at position {exc.start}")
            return False
        return True

    def _ponged(self, data: bytes) -> None:
        """A pong acknowledges its ping and every ping sent before it (a server may answer
        only the latest)."""
        pings = self._pings
        if data not in pings:
            return  # unsolicited
        while pings:
            key, event = pings.popitem(last=False)
            event.set()
            if key == data:
                return

    # ------------------------------------------------------------------ writing

    async def send(self, message: bytes | str) -> None:
        """Send one message: binary for bytes, text for str. Raises ``ConnectionClosed`` on a
        connection that has ended (or is closing: once it has)."""
        protocol = self.protocol
        if protocol.state is not _OPEN:
            raise await self._closed()
        if isinstance(message, str):
            protocol.send_text(message.encode())
        else:
            protocol.send_binary(message)
        await self._send_output()

    async def ping(self, data: bytes | None = None) -> trio.Event:
        """Send a ping; the event returned is set when its pong (or a later one) comes."""
        protocol = self.protocol
        if protocol.state is not _OPEN:
            raise await self._closed()
        if data is None:
            data = struct.pack("!I", next(self._ping_ids) & 0xFFFFFFFF)
        event = self._pings.get(data)
        if event is None:
            event = self._pings[data] = trio.Event()
        protocol.send_ping(data)
        await self._send_output()
        return event

    async def _send_output(self) -> None:
        """Write what the protocol has to send (a frame just made): at once if the socket
        takes it, else through :meth:`_flush`; raise ``ConnectionClosed`` if the socket
        refused it (the peer is gone)."""
        self._take_output()
        if self._out or self._write_failed:
            await self._flush()
            if self._write_failed:
                raise await self._closed()

    def _take_output(self) -> None:
        """Move what the protocol has to send towards the socket: written at once if nothing
        waits ahead of it and the socket takes it, else behind what waits in :attr:`_out`
        (then a :meth:`_flush` must follow). The end of our side (the protocol's b"") is not
        written: the socket is closed whole once the protocol is closed."""
        writes = self.protocol.data_to_send()
        if not writes:
            return
        data = writes[0] if len(writes) == 1 else b"".join(writes)
        if not data or self._sock_closed or self._write_failed:
            return
        if not self._out and not self._writing and self._fd is not None:
            try:
                written = os.write(self._fd, data)
            except BlockingIOError:  # the socket's buffer is full: the rest waits
                written = 0
            except OSError:  # the peer is gone: the reader finds out how
                self._write_failed = True
                return
            if written == len(data):
                return
            data = data[written:]
        self._out += data

    async def _flush(self) -> None:
        """Send what waits in :attr:`_out`, in order, under the lock (whoever holds it sends
        what others added meanwhile). A send cut short by a cancellation leaves a frame torn:
        the connection is dropped then."""
        async with self._lock:
            while self._out and not self._sock_closed and not self._write_failed:
                data = bytes(self._out)
                self._out.clear()
                self._writing = True
                try:
                    await self.stream.send_all(data)
                except (*_BROKEN, OSError):
                    self._write_failed = True
                except BaseException:
                    self._abort()
                    raise
                finally:
                    self._writing = False
            if self._sock_closed or self._write_failed:
                self._out.clear()

    async def _closed(self) -> ConnectionClosed:
        """The exception for a send on a connection that is closing or broken: once it has
        ended (read to its end by this task if none other reads, for at most
        ``close_timeout``)."""
        await self._wait_closed()
        return self.protocol.close_exc

    async def _wait_closed(self) -> None:
        protocol = self.protocol
        if protocol.state is not _CLOSED:
            timeout = self.close_timeout
            with trio.move_on_after(timeout) if timeout is not None else nullcontext():
                while protocol.state is not _CLOSED:
                    if self._reading:
                        await self._idle.park()
                    else:
                        await self._receive()
        if protocol.state is not _CLOSED:
            self._abort()
        self._finish()

    # ------------------------------------------------------------------ closing

    async def aclose(self, code: int = CloseCode.NORMAL_CLOSURE, reason: str = "") -> None:
        """The closing handshake: our close frame, then the server's answer and its end of
        the connection, for at most ``close_timeout`` seconds in all; then the socket is
        closed. Nothing happens on a connection already closed."""
        protocol = self.protocol
        try:
            if protocol.state is _OPEN:
                protocol.send_close(code, reason)
                self._take_output()
                timeout = self.close_timeout
                if timeout is not None and self._close_deadline is None:
                    self._close_deadline = trio.current_time() + timeout
                if self._out:
                    with trio.move_on_at(self._close_deadline or float("inf")):
                        await self._flush()
            await self._wait_closed()
        finally:
            if protocol.state is not _CLOSED:  # cancelled meanwhile
                self._abort()

    def drop(self) -> None:
        """Close the socket at once, without a closing handshake: the reader ends with a
        ``ConnectionClosed`` whose ``rcvd`` is None (no close frame came)."""
        self._abort()

    def _abort(self) -> None:
        protocol = self.protocol
        if protocol.state is not _CLOSED:
            protocol.receive_eof()  # the end of the data: the protocol is closed, 1006
            protocol.data_to_send()  # the end of our side, which closing the socket is
        self._finish()

    def _finish(self) -> None:
        """The protocol is closed: close the socket (waking a reader waiting on it)."""
        if self._done:
            return
        self._done = True
        if not self._sock_closed:
            self._sock_closed = True
            self._out.clear()
            self._sock.close()  # trio's close tells whoever waits on the fd (notify_closing)
        if self._idle:
            self._idle.unpark_all()
