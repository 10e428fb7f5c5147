"""The transport's own websocket work (arbiter/server/net/connection.py drives websockets'
sans-I/O protocol itself): a message arriving in many small TCP pieces or as fragments is
handed to the hub whole, pings are answered, invalid UTF-8 and closes follow RFC 6455, and a
shutdown closes with 1012."""

from __future__ import annotations

import socket as stdlib_socket

import msgpack
import trio
from websockets.frames import Close, Frame, Opcode
from websockets.protocol import State

from arbiter.protocol import unpack_server
from arbiter.server.net.server import ArbiterServer

from .harness import Client, RawClient, settle, start_server

HELLO = msgpack.packb({"t": "hello", "i": 1, "v": 1, "name": "Raw"})


async def _connected(nursery: trio.Nursery, tmp_path: object
                     ) -> tuple[ArbiterServer, RawClient]:
    """A server, and a client driven by hand that has finished its handshake."""
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    return server, await RawClient.open(server)


async def _events(raw: RawClient, until: int = 1) -> list[Frame]:
    """Frames from the server, until ``until`` of them have come or it ends its side."""
    frames: list[Frame] = []
    with trio.fail_after(30):
        while len(frames) < until:
            data = await raw.sock.recv(65536)
            if not data:
                raw.protocol.receive_eof()
                break
            raw.protocol.receive_data(data)
            frames += [e for e in raw.protocol.events_received() if isinstance(e, Frame)]
    return frames


async def _send(raw: RawClient) -> None:
    """What the client's protocol has to send, in one write (the frames each in a write of
    their own would wait on Nagle's algorithm for the server's delayed ACK)."""
    await raw.sock.send(b"".join(raw.protocol.data_to_send()))


def _welcomed(frames: list[Frame]) -> bool:
    return any(f.opcode is Opcode.BINARY and unpack_server(bytes(f.data))["t"] == "welcome"
               for f in frames)


async def test_a_message_sent_a_byte_at_a_time_is_handled_whole(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    _server, raw = await _connected(nursery, tmp_path)
    raw.sock.setsockopt(stdlib_socket.IPPROTO_TCP, stdlib_socket.TCP_NODELAY, 1)
    raw.protocol.send_binary(HELLO)
    (wire,) = raw.protocol.data_to_send()
    for n in range(len(wire)):  # each byte its own TCP segment, each read on its own
        await raw.sock.send(wire[n:n + 1])
        await settle()
    assert _welcomed(await _events(raw))
    raw.sock.close()


async def test_a_fragmented_message_is_handled_whole(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    _server, raw = await _connected(nursery, tmp_path)
    third = len(HELLO) // 3
    raw.protocol.send_binary(HELLO[:third], fin=False)  # RFC 6455 5.4: fragments
    raw.protocol.send_continuation(HELLO[third:2 * third], fin=False)
    raw.protocol.send_ping(b"between")  # a control frame may come between fragments
    raw.protocol.send_continuation(HELLO[2 * third:], fin=True)
    await _send(raw)
    frames = await _events(raw, until=2)
    assert frames[0].opcode is Opcode.PONG and frames[0].data == b"between"
    assert _welcomed(frames)
    raw.sock.close()


async def test_a_ping_is_answered_with_its_data(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    _server, raw = await _connected(nursery, tmp_path)
    raw.protocol.send_ping(b"are you there")
    await _send(raw)
    (pong,) = await _events(raw)
    assert pong.opcode is Opcode.PONG and pong.data == b"are you there"  # RFC 6455 5.5.3
    raw.sock.close()


async def test_text_that_is_not_utf8_fails_the_connection_with_1007(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server, raw = await _connected(nursery, tmp_path)
    raw.protocol.send_text(b"\xff\xfe not utf-8")
    await _send(raw)
    frames = await _events(raw, until=10)
    closes = [Close.parse(bytes(f.data)) for f in frames if f.opcode is Opcode.CLOSE]
    assert [c.code for c in closes] == [1007]  # RFC 6455 8.1
    await settle(lambda: not server.connections)
    raw.sock.close()


async def test_a_client_close_is_echoed_and_the_connection_ends(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server, raw = await _connected(nursery, tmp_path)
    raw.protocol.send_binary(HELLO)
    raw.protocol.send_close(1000, "bye")
    await _send(raw)
    frames = await _events(raw, until=10)  # until the server ends its side
    # The message before the close is handled (its answer is not sent: nothing may follow
    # the close the server echoes at once, RFC 6455 5.5.1).
    assert len(server.hub.sessions) == 1
    (echo,) = frames
    close = Close.parse(bytes(echo.data))
    assert echo.opcode is Opcode.CLOSE and (close.code, close.reason) == (1000, "bye")
    # RFC 6455 7.1.1: the server, having both sent and received a close, ended TCP too.
    assert raw.protocol.state is State.CLOSED
    await settle(lambda: not server.connections)
    raw.sock.close()


async def test_a_shutdown_closes_every_connection_with_1012(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server: ArbiterServer = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    ann = await Client.open(nursery, server, "Ann")
    bob = await Client.open(nursery, server, "Bob")
    await server.shutdown()
    await settle(lambda: ann.closed and bob.closed)
    assert ann.close_code == bob.close_code == 1012  # service restart: come back
    assert not server.connections


async def test_permessage_deflate_when_offered(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path, compression=True)  # type: ignore[arg-type]
    ann = await Client.open(nursery, server, "Ann", compression="deflate")
    assert ann.ws.protocol.extensions  # negotiated (RFC 7692)
    bob = await Client.open(nursery, server, "Bob")  # a client that offers nothing still plays
    assert not bob.ws.protocol.extensions
    rooms = [await ann.ok({"t": "rooms"}) for _ in range(3)]  # context kept between messages
    assert rooms[0] == {**rooms[2], "i": rooms[0]["i"]}
