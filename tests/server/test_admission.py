"""The transport's door (arbiter/server/net/admission.py): sockets counted at accept, the oldest
unfinished request closed when the server is full, requests websockets cannot read answered 400
in one log line, a client gone before it is served, and accept failing for want of descriptors
said once, not per attempt."""

from __future__ import annotations

import errno
import logging
import socket as stdlib_socket
import struct
from typing import Any, cast

import pytest
import trio
from websockets.protocol import State
from websockets.server import ServerProtocol

from arbiter.server.net.admission import Admission, AdmittingListener
from arbiter.server.net.connection import Connection
from arbiter.server.net.server import ArbiterServer

from .harness import Client, start_server

KEY = "dGhlIHNhbXBsZSBub25jZQ=="
UPGRADE = (b"GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
           b"Sec-WebSocket-Version: 13\r\n")


def port_of(server: ArbiterServer) -> int:
    assert server.port is not None
    return server.port


async def exchange(server: ArbiterServer, *parts: bytes) -> bytes:
    """Send ``parts`` (one write each) and read until the server closes (bounded)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port_of(server))
    got = b""
    with trio.fail_after(10):
        for part in parts:
            await stream.send_all(part)
            await trio.sleep(0.01)
        try:
            while data := await stream.receive_some():
                got += data
        except trio.BrokenResourceError:
            pass
    await stream.aclose()
    return got


async def test_broken_handshakes_are_answered_400_in_one_log_line(
        nursery: trio.Nursery, tmp_path: object, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    broken = [
        # a bad key, with junk after the request in the same write
        [UPGRADE + b"Sec-WebSocket-Key: !!!!\r\n\r\n\x00\xff junk junk\r\n\r\n"],
        [UPGRADE + b"Sec-WebSocket-Key: !!!!\r\njunk without a colon\r\n\r\n"],
        [UPGRADE + b"Sec-WebSocket-Key: !!!!\r\nX-Junk: \xff\xfe\x00\r\n\r\n"],
        [UPGRADE + b"Sec-WebSocket-Key: !!!!\r\n\r\n", b"junk sent after the request"],
        [b"GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"],
        [b"\x16\x03\x01 junk junk\r\n\r\n"],
    ]
    for parts in broken:
        answer = await exchange(server, *parts)
        assert answer.startswith(b"HTTP/1.1 400 "), (parts, answer)
    # What `arbiter serve` shows: its own INFO, the libraries' WARNING (server/serve_cmd.py).
    said = [r for r in caplog.records
            if r.levelno >= (logging.INFO if r.name.startswith("arbiter") else logging.WARNING)]
    assert not [r for r in said if r.exc_info], "a traceback was logged"
    lines = [r.getMessage() for r in said if "400" in r.getMessage()]
    assert len(lines) == 1 and "more since" not in lines[0], lines  # said once a minute
    assert server.admission.bad_request_log.total == len(broken)
    assert f"arbiter_bad_requests_total {len(broken)}\n" in server.metrics_text()
    assert server.hub.stats.internal_errors == 0
    # A valid handshake with frames right behind it is answered before they are read.
    request = UPGRADE + f"Sec-WebSocket-Key: {KEY}\r\n\r\n".encode()
    answer = await exchange(server, request + b"\x88\x80\x00\x00\x00\x00")  # masked close
    assert answer.startswith(b"HTTP/1.1 101 ")
    with trio.fail_after(1):  # every socket closed, none left waiting on a timeout
        while server.admission.held:
            await trio.sleep(0.01)


async def test_a_client_gone_before_its_connection_is_served_just_ends(
        nursery: trio.Nursery, tmp_path: object, caplog: pytest.LogCaptureFixture) -> None:
    """ENOTCONN: asking a socket for its peer once the peer has reset it fails."""
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    listener = trio.socket.socket()
    await listener.bind(("127.0.0.1", 0))
    listener.listen()
    client = stdlib_socket.create_connection(listener.getsockname())
    accepted, _ = await listener.accept()
    client.setsockopt(stdlib_socket.SOL_SOCKET, stdlib_socket.SO_LINGER, struct.pack("ii", 1, 0))
    client.close()  # a reset
    with trio.fail_after(5):
        while True:
            try:
                accepted.getpeername()
            except OSError as exc:
                assert exc.errno == errno.ENOTCONN
                break
            await trio.sleep(0.01)
    protocol = ServerProtocol()
    protocol.state = State.OPEN  # as after a handshake
    conn = Connection(trio.SocketStream(accepted), protocol, 16, server.metrics)
    with trio.fail_after(5):
        await server.handler(conn)  # before: OSError escaped ("connection handler failed")
    assert server.hub.stats.internal_errors == 0 and not server.connections
    listener.close()


async def test_a_client_gone_before_it_is_accepted_is_skipped_at_accept() -> None:
    """The address is taken at accept (issue 28: ENOTCONN on it later); a socket whose client
    reset it while it waited in the backlog is closed there and the next one is accepted."""
    inner = trio.socket.socket()
    await inner.bind(("127.0.0.1", 0))
    inner.listen()
    admission = Admission(8)
    listener = AdmittingListener(trio.SocketListener(inner), admission)
    gone = stdlib_socket.create_connection(inner.getsockname())
    gone.setsockopt(stdlib_socket.SOL_SOCKET, stdlib_socket.SO_LINGER, struct.pack("ii", 1, 0))
    gone.close()  # a reset, before the server accepted it
    honest = stdlib_socket.create_connection(inner.getsockname())
    with trio.fail_after(5):
        stream = await listener.accept()
    assert stream.peer == honest.getsockname()  # the reset one was never handed on
    assert admission.held == 1
    await stream.aclose()
    honest.close()
    await listener.aclose()


async def test_a_full_server_closes_the_oldest_unfinished_request_for_a_new_one(
        nursery: trio.Nursery, tmp_path: object, caplog: pytest.LogCaptureFixture) -> None:
    server = await start_server(nursery, tmp_path, max_connections=4,  # type: ignore[arg-type]
                                open_timeout=60.0)
    capacity = server.admission.capacity
    assert capacity == 4 + 16
    slow = []
    for _ in range(capacity * 2):  # requests that never finish
        stream = await trio.open_tcp_stream("127.0.0.1", port_of(server))
        await stream.send_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        slow.append(stream)
    with trio.fail_after(5):  # long before any handshake times out
        while server.admission.evict_log.total < capacity:
            await trio.sleep(0.01)
        ann = await Client.open(nursery, server, "Ann")
    assert ann.session
    assert server.admission.held <= capacity
    warned = [r for r in caplog.records if "oldest unfinished" in r.getMessage()]
    assert len(warned) == 1
    assert f"arbiter_sockets_max {capacity}\n" in server.metrics_text()
    # Every socket an open connection: the next one is refused at once, with a 503.
    server.admission.capacity = server.admission.held
    for stream in slow:
        await stream.aclose()
    with trio.fail_after(5):
        while server.admission.pending:
            await trio.sleep(0.01)
    server.admission.capacity = server.admission.held
    refused = await exchange(server, b"GET /healthz HTTP/1.1\r\n\r\n")
    assert refused.startswith(b"HTTP/1.1 503 ")


class _Exhausted:
    """A listener whose accept fails for want of descriptors ``times`` times."""

    def __init__(self, times: int) -> None:
        self.times = times
        self.socket = None

    async def accept(self) -> trio.SocketStream:
        await trio.lowlevel.checkpoint()
        if self.times:
            self.times -= 1
            raise OSError(errno.EMFILE, "Too many open files")
        a, b = trio.socket.socketpair()
        b.close()
        return trio.SocketStream(a)


async def test_running_out_of_descriptors_is_said_once_not_per_accept(
        autojump_clock: object, caplog: pytest.LogCaptureFixture) -> None:
    admission = Admission(10)
    listener = AdmittingListener(cast(Any, _Exhausted(200)), admission)
    with trio.fail_after(60):
        stream = await listener.accept()  # 200 failures, 0.1 s apart: 20 s
    assert stream.peer == ""  # a socketpair's peer has no address
    lines = [r for r in caplog.records if "EMFILE" in r.getMessage()]
    assert len(lines) == 1 and not lines[0].exc_info
    assert admission.exhausted_log.total == 200
