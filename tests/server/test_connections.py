"""Connections: frames written straight to the socket stay whole and in order when the socket
takes only part of one; a slow consumer is cut off without delaying anyone; heartbeats find dead
connections; HTTP probes, the Origin check and the connection and room limits."""

from __future__ import annotations

import msgpack
import pytest
import trio
from hypothesis import given
from hypothesis import strategies as st
from websockets.exceptions import InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol

from arbiter.protocol import unpack_server
from arbiter.server.net import connection
from arbiter.server.net.connection import Connection
from arbiter.server.net.server import ArbiterServer
from arbiter.server.rooms.context import HubSettings
from arbiter.server.rooms.peers import Limits

from .checks import assert_converged
from .harness import Client, RawClient, create_room, play, settle, start_server, two_player_game


async def _stalled_reader(server: ArbiterServer) -> tuple[RawClient, Connection]:
    """A client that reads nothing yet, with its connection as the server holds it."""
    raw = await RawClient.open(server, rcvbuf=4096)
    await raw.send({"t": "hello", "i": 1, "v": 1, "name": "Raw"})
    await settle(lambda: len(server.connections) == 1)
    (conn,) = server.connections
    return raw, conn


def _fill(conn: Connection, frames: int = 400, size: int = 3_000) -> tuple[list[bytes], int]:
    """Deliver frames, without yielding, until the socket has taken only part of one; then a
    few more, which queue behind it. Returns them in the order delivered, and which was split."""
    sent: list[bytes] = []
    split = -1
    for n in range(frames):
        frame = msgpack.packb({"n": n, "pad": bytes([n % 251]) * size})
        conn.deliver(frame)
        sent.append(frame)
        if conn.stalls and split < 0:
            split = n
        if split >= 0 and conn.queue_depth >= 2:
            return sent, split
    raise AssertionError(f"{frames} frames of {size} B never filled the socket")


async def test_a_frame_the_socket_takes_in_part_is_finished_before_anything_else_is_written(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path,  # type: ignore[arg-type]
                                limits=Limits(queue=256))
    raw, conn = await _stalled_reader(server)
    sent, split = _fill(conn)
    assert split > 0  # the frames before it went straight out
    # Before the writer has run, the protocol writes something of its own (a heartbeat): it
    # must go after the rest of the frame the socket took only part of, not into its middle.
    conn.ping(b"probe")
    await settle()
    got: list[bytes] = []
    pings: list[bytes] = []
    with trio.fail_after(60):
        while (len(got) < len(sent) or not pings) and raw.protocol.parser_exc is None:
            data = await raw.sock.recv(65536)
            assert data, "the server closed the connection"
            raw.protocol.receive_data(data)
            for event in raw.protocol.events_received():
                if event.opcode is Opcode.PING:
                    pings.append(event.data)
                    pings_at = len(got)
                elif event.opcode is Opcode.BINARY and b"pad" in event.data:
                    got.append(event.data)
    assert raw.protocol.parser_exc is None  # every frame parsed: no bytes out of place
    assert got == sent  # whole, each once, in order
    assert pings == [b"probe"] and pings_at > split  # the heartbeat came after the split frame
    assert conn.stalls >= 1 and conn.open
    # Once the client has caught up, frames go straight out again.
    await settle()
    stalls = conn.stalls
    conn.deliver(msgpack.packb({"n": -1}))
    assert conn.queue_depth == 0 and conn.stalls == stalls
    raw.sock.close()


async def test_a_client_gone_while_a_frame_is_half_written_is_closed_and_forgotten(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path,  # type: ignore[arg-type]
                                limits=Limits(queue=256))
    raw, conn = await _stalled_reader(server)
    _fill(conn)
    raw.sock.close()  # unread data: the kernel resets the connection
    await settle(lambda: not server.connections)
    assert not conn.open


async def test_a_spectator_that_stops_reading_is_disconnected_and_delays_nobody(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path,  # type: ignore[arg-type]
                                limits=Limits(rate=1e9, burst=10**9, queue=16))
    ann = await Client.open(nursery, server, "Ann")
    bob = await Client.open(nursery, server, "Bob")
    fast = await Client.open(nursery, server, "Fast")
    room = await create_room(ann, {"seats": 2, "seed": 3})
    slow = await RawClient.open(server, rcvbuf=2048)
    await slow.send({"t": "hello", "i": 1, "v": 1, "name": "Slow"})
    await slow.send({"t": "spectate", "i": 2, "r": room})
    await fast.ok({"t": "spectate", "r": room})
    await ann.join(room, deck="quick-red")
    await bob.join(room, deck="quick-green")
    await settle()
    assert len(server.connections) == 4
    # From now on Slow reads nothing. Everyone else plays and chats as fast as they can.
    start = trio.current_time()
    for n in range(400):
        if server.metrics.slow_disconnects:
            break
        await ann.ok({"t": "chat", "r": room, "text": f"{n:03d} " + "x" * 400})
        await settle()
        chats = fast.of_type("chat")  # the fast spectator is never behind
        assert len(chats) == n + 1 and chats[-1]["text"].startswith(f"{n:03d}")
    assert server.metrics.slow_disconnects == 1
    assert server.metrics.policy_closes == 1
    assert len(server.connections) == 3
    played = await play({0: ann, 1: bob}, max_actions=40)
    assert played == 40
    # Nothing anyone did waited for anything: not a moment of (mock) time passed.
    assert trio.current_time() == start
    assert assert_converged(server, [ann, bob, fast]) == 3
    slow.sock.close()


async def test_heartbeats_find_a_dead_connection_and_its_seat_stays_held(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path, ping_interval=5.0,  # type: ignore[arg-type]
                                ping_timeout=5.0, hub=HubSettings(grace=60.0))
    ann = await Client.open(nursery, server, "Ann", ping_interval=None)
    room = await create_room(ann, {"seats": 2})
    await ann.join(room)
    dead = await RawClient.open(server)  # answers nothing, pings included
    await dead.send({"t": "hello", "i": 1, "v": 1, "name": "Dead"})
    await dead.send({"t": "join", "i": 2, "r": room})
    await settle(lambda: server.hub.matches[room].seats[1].taken)
    seat = server.hub.matches[room].seats[1]
    assert seat.peers
    await trio.sleep(9)
    # No ping yet: it spoke at 0 s, so at 5 s the heartbeat only looked again at 10 s.
    assert seat.peers
    await trio.sleep(10)  # a ping at 10 s, unanswered at 15 s, the close timing out at 17 s
    assert not seat.peers and seat.taken  # gone, but the seat is held for the grace period
    assert seat.away_deadline is not None
    assert len(server.connections) == 1 and not ann.closed  # Ann answers her pings
    await trio.sleep(30)
    assert not ann.closed
    dead.sock.close()


async def _read_for(raw: RawClient, seconds: float) -> list[Frame]:
    """The frames the server sends in the next ``seconds``, its pings answered."""
    frames: list[Frame] = []
    with trio.move_on_after(seconds):
        while True:
            data = await raw.sock.recv(65536)
            assert data, "the server closed the connection"
            raw.protocol.receive_data(data)
            frames += [e for e in raw.protocol.events_received() if isinstance(e, Frame)]
            await raw.flush()  # the pongs
    return frames


async def test_heartbeats_ping_only_a_connection_that_has_gone_quiet(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    """A client that spoke within the last interval was there: the server pings only a
    connection quiet for a whole interval, so players who act every few seconds cost no ping
    exchanges (each wakes both ends); a quiet client is pinged, answers, and stays."""
    server = await start_server(nursery, tmp_path, ping_interval=5.0,  # type: ignore[arg-type]
                                ping_timeout=5.0)
    raw = await RawClient.open(server)
    await raw.send({"t": "hello", "i": 1, "v": 1, "name": "Talker"})
    talking: list[Frame] = []
    for n in range(2, 9):  # a request every 3 s for 21 s
        await raw.send({"t": "ping", "i": n})
        talking += await _read_for(raw, 3)
    answers = [unpack_server(bytes(f.data)) for f in talking if f.opcode is Opcode.BINARY]
    assert [a["t"] for a in answers] == ["welcome"] + ["ok"] * 7
    assert not [f for f in talking if f.opcode is Opcode.PING]
    quiet = await _read_for(raw, 21)
    assert len([f for f in quiet if f.opcode is Opcode.PING]) >= 3  # one every 5 s or so
    assert len(server.connections) == 1  # its pongs keep it
    raw.sock.close()


async def _http_get(port: int, path: str) -> tuple[int, dict[str, str], str]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    data = b""
    while True:
        chunk = await stream.receive_some()
        if not chunk:
            break
        data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        headers = dict(line.split(": ", 1) for line in head.decode().split("\r\n")[1:])
        if len(body) >= int(headers.get("Content-Length", "10000000")):
            break
    await stream.aclose()
    status = int(head.split(b" ")[1])
    return status, headers, body.decode()


async def test_healthz_and_metrics_on_the_same_port(nursery: trio.Nursery, tmp_path: object,
                                                    autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    _ann, bob, room = await two_player_game(nursery, server, seed=2,
                                           decks=("quick-red", "quick-red"), actions=25)
    await bob.call({"t": "act", "r": room, "s": 0, "a": 0})  # an error
    status, _, body = await _http_get(server.port, "/healthz")
    assert (status, body) == (200, "ok\n")
    status, headers, text = await _http_get(server.port, "/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain; version=0.0.4")
    lines = dict(line.rsplit(" ", 1) for line in text.splitlines() if not line.startswith("#"))
    assert lines["arbiter_connections"] == "2"
    assert lines["arbiter_sessions"] == "2" and lines["arbiter_sessions_expired_total"] == "0"
    assert lines['arbiter_rooms{state="playing"}'] == "1"
    assert lines["arbiter_games"] == "1"
    assert lines["arbiter_actions_total"] == "25"
    assert float(lines["arbiter_actions_per_second"]) == 2.5  # 25 in the last 10 s
    assert lines['arbiter_errors_total{code="stale_decision"}'] == "1"
    assert lines["arbiter_send_queue_depth"] == "0"
    assert "# TYPE arbiter_actions_total counter" in text
    status, _, _ = await _http_get(server.port, "/elsewhere")  # "/" is the browser client's
    assert status == 426


async def test_the_origin_check(nursery: trio.Nursery, tmp_path: object,
                                autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path,  # type: ignore[arg-type]
                                origins=("https://play.example",))
    ok = await Client.open(nursery, server, "Ann", origin="https://play.example")
    assert ok.session
    cli = await Client.open(nursery, server, "Bot")  # no Origin header: not a browser
    assert cli.session
    try:
        await Client.open(nursery, server, "Eve", origin="https://evil.example")
    except InvalidStatus as exc:
        assert exc.response.status_code == 403
    else:  # pragma: no cover
        raise AssertionError("a foreign origin was let in")


async def test_connection_and_room_limits(nursery: trio.Nursery, tmp_path: object,
                                          autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path, max_connections=2,  # type: ignore[arg-type]
                                hub=HubSettings(max_rooms=1))
    a = await Client.open(nursery, server, "Ann")
    await Client.open(nursery, server, "Bob")
    try:
        await Client.open(nursery, server, "Cid")
    except InvalidStatus as exc:
        assert exc.response.status_code == 503
    else:  # pragma: no cover
        raise AssertionError("a third connection was accepted")
    await create_room(a, {"seats": 2})
    refused = await a.call({"t": "create", "config": {"seats": 2}})
    assert refused["code"] == "limit"


async def test_the_frames_of_one_batch_leave_in_one_write_whole_and_in_order(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    raw, conn = await _stalled_reader(server)
    writes: list[int] = []
    real_write = connection.os.write

    def counted(fd: int, data: bytes) -> int:
        writes.append(len(data))
        return real_write(fd, data)

    monkeypatch.setattr(connection.os, "write", counted)
    # Sizes on each side of the header's two length boundaries (RFC 6455 5.2: 126, 65536).
    frames = [bytes([n]) * size for n, size in enumerate((1, 125, 126, 65535, 65536))]
    sent = conn.frames_sent
    conn.deliver_all(frames)
    assert len(writes) == 1 and conn.frames_sent == sent + len(frames)
    got: list[bytes] = []
    with trio.fail_after(60):
        while len(got) < len(frames) + 1:  # the welcome first
            data = await raw.sock.recv(1 << 20)
            assert data, "the server closed the connection"
            raw.protocol.receive_data(data)
            got += [e.data for e in raw.protocol.events_received() if e.opcode is Opcode.BINARY]
    assert raw.protocol.parser_exc is None
    assert got[1:] == frames
    raw.sock.close()


@given(st.integers(min_value=0, max_value=70_000))
def test_a_frame_is_framed_as_websockets_frames_it(length: int) -> None:
    protocol = ServerProtocol()
    protocol.state = State.OPEN
    payload = b"x" * length
    protocol.send_binary(payload)
    assert connection._header(length) + payload == b"".join(protocol.data_to_send())
