"""The SDK's websocket connection (arbiter/clients/sdk/connection.py), on real sockets: against
a real server on 127.0.0.1 where one is needed, and against tiny servers made here (websockets'
sans-I/O ``ServerProtocol`` on a trio listener) for what the real one cannot be made to do:
ping us, close on us, refuse the upgrade, never answer, hold its reads back, speak TLS.

Time is virtual (autojumping when every task has been idle for 20 ms of real time, so bytes in
flight on loopback arrive before a timeout is reached by a jump); every wait is bounded."""

from __future__ import annotations

import select
import ssl
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

import pytest
import trio
import trustme
from trio.testing import MockClock
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK, InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from arbiter.clients.sdk import Client, ConnectError, ConnectionLost
from arbiter.clients.sdk.connection import Connection, connect
from arbiter.protocol import pack, unpack_server
from arbiter.protocol import server_messages as sm
from arbiter.protocol.errors import Code, Refusal

from ..server.harness import start_server
from .helpers import sdk_client, url

BOUND = 30.0  # virtual seconds any wait here takes at most


@pytest.fixture
def clock() -> MockClock:
    return MockClock(autojump_threshold=0.02)


class Peer:
    """The server's side of one connection, driven by the test."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.protocol = ServerProtocol(max_size=None)
        self.frames: list[Frame] = []
        self.ended = False

    async def read(self) -> None:
        """One read: its frames to :attr:`frames`; what the protocol answers is sent."""
        try:
            data = await self.stream.receive_some(65536)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            data = b""
        if data:
            self.protocol.receive_data(data)
        else:
            self.protocol.receive_eof()
            self.ended = True
        for event in self.protocol.events_received():
            if isinstance(event, Frame):
                self.frames.append(event)
            else:
                assert isinstance(event, Request)
                self.request = event
        await self.flush()

    async def flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                await self.stream.send_all(data)

    async def handshake(self, status: int | None = None) -> None:
        """Read the upgrade request and accept it, or refuse it with ``status``."""
        while not hasattr(self, "request"):
            if self.ended:
                raise trio.BrokenResourceError("the client left before its request")
            await self.read()
        if status is None:
            response = self.protocol.accept(self.request)
        else:
            response = self.protocol.reject(status, "Not now.\n")
        self.protocol.send_response(response)
        await self.flush()

    async def frame(self, opcode: Opcode) -> Frame:
        """The next frame of that kind (the others before it stay)."""
        with trio.fail_after(BOUND):
            while True:
                for frame in self.frames:
                    if frame.opcode is opcode:
                        self.frames.remove(frame)
                        return frame
                assert not self.ended, "the client's connection ended"
                await self.read()


Handler = Callable[[Peer], Awaitable[None]]


async def tiny_server(nursery: trio.Nursery, handler: Handler | None = None
                      ) -> tuple[str, trio.MemoryReceiveChannel[Peer]]:
    """A websocket server on 127.0.0.1: each connection's :class:`Peer` goes through
    ``handler`` (by default: accept the upgrade), then to the channel returned, and its socket
    stays open until the test ends."""
    send, receive = trio.open_memory_channel[Peer](10)

    async def serve(stream: trio.SocketStream) -> None:
        peer = Peer(stream)
        await (handler or Peer.handshake)(peer)
        await send.send(peer)
        await trio.sleep_forever()

    listeners = await nursery.start(partial(trio.serve_tcp, serve, 0, host="127.0.0.1"))
    port = listeners[0].socket.getsockname()[1]
    return f"ws://127.0.0.1:{port}/", receive


async def reader(connection: Connection, into: list[bytes | str],
                 ended: list[BaseException | None]) -> None:
    """What ``Client._read`` does: iterate until the end, then say how it ended (None: a
    normal closure, the iteration just stopped)."""
    try:
        async for message in connection:
            into.append(message)
    except ConnectionClosed as exc:
        ended.append(exc)
        return
    ended.append(None)


def reading(nursery: trio.Nursery, connection: Connection
            ) -> tuple[list[bytes | str], list[BaseException | None]]:
    """A :func:`reader` of ``connection`` running: the messages it got, and how it ended."""
    got: list[bytes | str] = []
    ended: list[BaseException | None] = []
    nursery.start_soon(reader, connection, got, ended)
    return got, ended


async def read_from_tiny_server(nursery: trio.Nursery) -> tuple[
        Connection, Peer, list[bytes | str], list[BaseException | None]]:
    """A connection to a :func:`tiny_server`, its peer there, and a :func:`reader` running:
    the messages it got, and how it ended."""
    address, peers = await tiny_server(nursery)
    connection = await connect(address, open_timeout=BOUND)
    peer = await peers.receive()
    got, ended = reading(nursery, connection)
    return connection, peer, got, ended


async def read_from_server(nursery: trio.Nursery, tmp_path: Path) -> tuple[
        Connection, list[bytes | str], list[BaseException | None]]:
    """A connection to a real server, greeted as Ann, and a :func:`reader` running: the
    messages it got, and how it ended."""
    server = await start_server(nursery, tmp_path)
    connection = await connect(url(server), open_timeout=BOUND)
    await hello(connection, "Ann")
    got, ended = reading(nursery, connection)
    return connection, got, ended


async def hello(connection: Connection, name: str) -> sm.Welcome:
    await connection.send(pack({"t": "hello", "i": 1, "v": [1], "name": name}))
    with trio.fail_after(BOUND):
        reply = sm.decode(unpack_server(await connection.recv()))  # type: ignore[arg-type]
    assert isinstance(reply, sm.Welcome), reply
    return reply


async def test_messages_round_trip_with_a_real_server(
        nursery: trio.Nursery, tmp_path: Path, clock: MockClock) -> None:
    server = await start_server(nursery, tmp_path)
    connection = await connect(url(server), open_timeout=BOUND)
    welcome = await hello(connection, "Ann")
    assert welcome.name == "Ann"
    for i in range(2, 50):  # one after another, each answered
        await connection.send(pack({"t": "rooms", "i": i}))
        with trio.fail_after(BOUND):
            reply = unpack_server(await connection.recv())  # type: ignore[arg-type]
        assert reply["t"] == "rooms" and reply["i"] == i, reply
    for i in range(50, 80):  # many at once: their answers arrive in one read, in order
        await connection.send(pack({"t": "rooms", "i": i}))
    with trio.fail_after(BOUND):
        ids = [unpack_server(await connection.recv())["i"]  # type: ignore[arg-type]
               for _ in range(50, 80)]
    assert ids == list(range(50, 80))
    with trio.fail_after(BOUND):
        await connection.aclose()
    assert connection.close_code == 1000
    with pytest.raises(ConnectionClosedOK):
        await connection.send(b"after the end")


async def test_text_and_fragmented_messages_arrive_whole(
        nursery: trio.Nursery, clock: MockClock) -> None:
    address, peers = await tiny_server(nursery)
    connection = await connect(address, open_timeout=BOUND)
    peer = await peers.receive()
    peer.protocol.send_text("héllo".encode())
    peer.protocol.send_binary(b"ab", fin=False)
    peer.protocol.send_continuation(b"cd", fin=False)
    peer.protocol.send_continuation(b"ef", fin=True)
    peer.protocol.send_text(b"wo", fin=False)
    peer.protocol.send_continuation(b"rld", fin=True)
    await peer.flush()
    with trio.fail_after(BOUND):
        got = [await connection.recv() for _ in range(3)]
    assert got == ["héllo", b"abcdef", "world"]
    await connection.send("text back")
    assert (await peer.frame(Opcode.TEXT)).data == b"text back"


async def test_a_ping_from_the_server_is_answered(
        nursery: trio.Nursery, clock: MockClock) -> None:
    _connection, peer, got, ended = await read_from_tiny_server(nursery)
    peer.protocol.send_ping(b"are you there")
    await peer.flush()
    pong = await peer.frame(Opcode.PONG)
    assert pong.data == b"are you there"
    assert not got and not ended


async def test_our_ping_is_answered_by_the_pong(
        nursery: trio.Nursery, tmp_path: Path, clock: MockClock) -> None:
    connection, _got, ended = await read_from_server(nursery, tmp_path)
    first = await connection.ping()
    second = await connection.ping()
    assert not first.is_set()
    with trio.fail_after(BOUND):
        await second.wait()
    assert first.is_set()  # answered before the second, or acknowledged by its pong
    assert not ended


async def test_a_frame_larger_than_the_socket_buffer_goes_whole_with_sends_racing_it(
        nursery: trio.Nursery, clock: MockClock) -> None:
    address, peers = await tiny_server(nursery)
    connection = await connect(address, open_timeout=BOUND)
    peer = await peers.receive()  # it reads nothing until told
    big = bytes(range(256)) * (16 * 4096)  # 16 MiB
    nursery.start_soon(connection.send, big)
    with trio.fail_after(BOUND):
        while not connection._writing:  # the socket took part: the rest waits for room
            await trio.sleep(0.01)

    small = [f"small {i}".encode() for i in range(20)]

    async def smalls() -> None:  # from one task: they arrive in this order
        for message in small:
            await connection.send(message)

    async def pings() -> None:
        for _ in range(5):
            await connection.ping()

    fd = connection._sock.fileno()

    async def racer(message: bytes) -> None:
        """Send when the socket has room again while the big frame is still going out:
        written there and then, its bytes would land inside the big frame's."""
        for _ in range(100_000):  # scheduler turns, not time
            await trio.lowlevel.checkpoint()
            if not connection._writing or select.select([], [fd], [], 0)[1]:
                break
        await connection.send(message)

    raced = {f"racer {i}".encode() for i in range(20)}
    nursery.start_soon(smalls)
    nursery.start_soon(pings)
    for message in raced:
        nursery.start_soon(racer, message)
    await trio.testing.wait_all_tasks_blocked()
    got = [(await peer.frame(Opcode.BINARY)).data for _ in range(1 + len(small) + len(raced))]
    assert len(got[0]) == len(big) and got[0] == big
    assert [m for m in got if m in small] == small
    assert {m for m in got if m in raced} == raced
    assert len([await peer.frame(Opcode.PING) for _ in range(5)]) == 5


async def test_a_dropped_connection_ends_the_reader_with_no_close_frame(
        nursery: trio.Nursery, tmp_path: Path, clock: MockClock) -> None:
    connection, _got, ended = await read_from_server(nursery, tmp_path)
    await trio.testing.wait_all_tasks_blocked()
    connection.drop()
    with trio.fail_after(BOUND):
        while not ended:
            await trio.sleep(0.01)
    [exc] = ended
    assert isinstance(exc, ConnectionClosed) and exc.rcvd is None and exc.sent is None
    assert connection.close_code == 1006
    with pytest.raises(ConnectionClosed):
        await connection.send(b"after the drop")
    with pytest.raises(ConnectionClosed):
        await connection.ping()


async def test_the_servers_close_frame_ends_the_reader_normally_with_its_code(
        nursery: trio.Nursery, clock: MockClock) -> None:
    connection, peer, got, ended = await read_from_tiny_server(nursery)
    peer.protocol.send_binary(b"last words")
    peer.protocol.send_close(1001, "going away")
    await peer.flush()
    echo = await peer.frame(Opcode.CLOSE)  # our answer, then the server ends the TCP
    assert echo.data[:2] == (1001).to_bytes(2, "big")
    await peer.stream.aclose()
    with trio.fail_after(BOUND):
        while not ended:
            await trio.sleep(0.01)
    assert got == [b"last words"] and ended == [None]  # ConnectionClosedOK: the loop just ends
    assert connection.close_code == 1001 and connection.close_reason == "going away"
    with pytest.raises(ConnectionClosedOK) as closed:
        await connection.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    assert closed.value.rcvd_then_sent


async def test_a_close_frame_with_an_error_code_raises_from_the_reader(
        nursery: trio.Nursery, clock: MockClock) -> None:
    connection, peer, _got, ended = await read_from_tiny_server(nursery)
    peer.protocol.send_close(1011, "broken")
    await peer.flush()
    await peer.frame(Opcode.CLOSE)
    await peer.stream.aclose()
    with trio.fail_after(BOUND):
        while not ended:
            await trio.sleep(0.01)
    [exc] = ended
    assert isinstance(exc, ConnectionClosed) and not isinstance(exc, ConnectionClosedOK)
    assert exc.rcvd is not None and exc.rcvd.code == 1011
    assert connection.close_code == 1011


async def test_aclose_waits_for_the_servers_answer_at_most_the_close_timeout(
        nursery: trio.Nursery, clock: MockClock) -> None:
    address, peers = await tiny_server(nursery)  # the peer never reads: no answer comes
    connection = await connect(address, open_timeout=BOUND, close_timeout=2.0)
    await peers.receive()
    start = trio.current_time()
    with trio.fail_after(BOUND):
        await connection.aclose(1000, "redirected")
    assert trio.current_time() - start == pytest.approx(2.0, abs=0.1)
    assert connection._sock_closed
    with pytest.raises(ConnectionClosed) as closed:
        await connection.recv()
    assert closed.value.sent is not None and closed.value.sent.reason == "redirected"
    assert closed.value.rcvd is None


@pytest.mark.parametrize("status", [403, 503])
async def test_a_refused_upgrade_raises_and_the_clients_error_gives_the_status(
        nursery: trio.Nursery, clock: MockClock, status: int) -> None:
    async def refuse(peer: Peer) -> None:
        await peer.handshake(status)

    address, _ = await tiny_server(nursery, refuse)
    with trio.fail_after(BOUND), pytest.raises(InvalidStatus) as refused:
        await connect(address, open_timeout=BOUND)
    assert refused.value.response.status_code == status

    client = Client(address, "Ann", reconnect=False, ping_interval=None)
    with trio.fail_after(BOUND), pytest.raises(ConnectError) as failed:
        await client.run()
    assert f"HTTP {status}" in str(failed.value), failed.value
    assert isinstance(failed.value.__cause__, InvalidStatus)


async def test_the_open_timeout_bounds_a_server_that_never_answers(
        nursery: trio.Nursery, clock: MockClock) -> None:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")  # never accepts
    port = listeners[0].socket.getsockname()[1]
    address = f"ws://127.0.0.1:{port}/"
    start = trio.current_time()
    with trio.fail_after(BOUND), pytest.raises(TimeoutError):
        await connect(address, open_timeout=5.0)
    assert trio.current_time() - start == pytest.approx(5.0, abs=0.1)

    client = Client(address, "Ann", reconnect=False, ping_interval=None, open_timeout=5.0)
    with trio.fail_after(BOUND), pytest.raises(ConnectError) as failed:
        await client.run()
    assert "TimeoutError" in str(failed.value), failed.value
    for listener in listeners:
        await listener.aclose()


async def test_a_wss_connection_speaks_tls(
        nursery: trio.Nursery, tmp_path: Path, clock: MockClock) -> None:
    """A certificate for 127.0.0.1 from a test authority (trustme): refused by the default
    context, which does not trust it, and spoken over once trusted."""
    authority = trustme.CA()
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(server_context)
    peers_in, peers = trio.open_memory_channel[Peer](1)

    async def serve(stream: trio.SocketStream) -> None:
        peer = Peer(trio.SSLStream(stream, server_context, server_side=True))
        try:
            await peer.handshake()
        except trio.BrokenResourceError:  # the client did not trust us
            return
        await peers_in.send(peer)
        await trio.sleep_forever()

    listeners = await nursery.start(partial(trio.serve_tcp, serve, 0, host="127.0.0.1"))
    address = f"wss://127.0.0.1:{listeners[0].socket.getsockname()[1]}/"

    with trio.fail_after(BOUND), pytest.raises(OSError):  # not trusted by default
        await connect(address, open_timeout=BOUND)

    trusting = ssl.create_default_context()
    authority.configure_trust(trusting)
    connection = await connect(address, open_timeout=BOUND, ssl_context=trusting)
    peer = await peers.receive()
    got, ended = reading(nursery, connection)
    await connection.send(b"over tls")
    assert (await peer.frame(Opcode.BINARY)).data == b"over tls"
    peer.protocol.send_binary(b"back over tls")
    peer.protocol.send_ping(b"p")
    await peer.flush()
    assert (await peer.frame(Opcode.PONG)).data == b"p"
    pong = await connection.ping()
    await peer.frame(Opcode.PING)  # read, and answered by the peer's protocol
    with trio.fail_after(BOUND):
        await pong.wait()
    assert got == [b"back over tls"]
    connection.drop()
    with trio.fail_after(BOUND):
        while not ended:
            await trio.sleep(0.01)
    assert isinstance(ended[0], ConnectionClosed) and ended[0].rcvd is None


async def test_a_connection_left_on_a_refused_frame_is_closed(
        nursery: trio.Nursery, tmp_path: Path, clock: MockClock) -> None:
    """The client's reader gives a connection up when a frame is malformed (it connects
    again): that connection's socket is closed with it, not left open to the server."""
    server = await start_server(nursery, tmp_path)
    ann = await sdk_client(nursery, server, "Ann")
    old = ann.connection
    assert old is not None
    on_frame = ann._on_frame

    def refuse(frame: bytes) -> None:
        ann._on_frame = on_frame  # type: ignore[method-assign]
        raise Refusal(Code.BAD_MESSAGE, "a frame refused, as a malformed one is")

    ann._on_frame = refuse  # type: ignore[method-assign]
    with pytest.raises(ConnectionLost):
        await ann.list_rooms()
    with trio.fail_after(BOUND):
        while ann.connection is None or ann.connection is old:
            await ann.wait_changed()
    assert old.state is State.CLOSED and old._sock.fileno() == -1
    assert ann.stats.reconnects == 1
    await ann.list_rooms()
