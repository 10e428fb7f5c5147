"""The SDK's heartbeat (issue 27, item 5): a server that falls silent (frozen, or cut off without
a close) is dropped one ping and its timeout after it last answered, with no closing handshake
to wait out, and the client goes on to another entry URL; a server that is busy rather than
silent (its pong late behind other frames) is kept.

The silent server is a real in-process server behind a TCP relay that stops relaying, as a
SIGSTOPped node keeps its sockets open and says nothing (tests/e2e/test_frozen_server.py does
it with a real ``arbiter serve`` and SIGSTOP)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from arbiter.clients.sdk import Backoff
from arbiter.clients.sdk import events as ev
from arbiter.clients.sdk.client import PING_INTERVAL, PING_TIMEOUT
from arbiter.clients.sdk.heartbeat import Heartbeat
from arbiter.server.net.server import ArbiterServer

from ..server.harness import server_config
from .helpers import client_at, url

BOUND = 30.0  # virtual seconds any wait here takes at most


@pytest.fixture
def clock() -> MockClock:
    # Virtual time that jumps only after 20 ms of real idleness: loopback bytes in flight
    # arrive before a ping's timeout is reached by a jump.
    return MockClock(autojump_threshold=0.02)


class Relay:
    """A TCP relay to ``port`` on 127.0.0.1 that can go silent: frozen, it keeps every socket
    open and passes nothing either way, as a stopped process does."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.frozen = False
        self.port = 0

    async def serve(self, task_status: trio.TaskStatus[None]) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started()
        await trio.serve_listeners(self._relay, listeners)

    async def _relay(self, down: trio.SocketStream) -> None:
        up = await trio.open_tcp_stream("127.0.0.1", self.target)
        async with down, up, trio.open_nursery() as nursery:
            nursery.start_soon(self._pump, down, up, nursery.cancel_scope)
            nursery.start_soon(self._pump, up, down, nursery.cancel_scope)

    async def _pump(self, src: trio.SocketStream, dst: trio.SocketStream,
                    scope: trio.CancelScope) -> None:
        while not self.frozen:
            try:
                data = await src.receive_some()
            except trio.BrokenResourceError:
                data = b""
            if not data:
                break
            if self.frozen:
                break
            await dst.send_all(data)
        if not self.frozen:
            scope.cancel()  # one side closed: close the other
            return
        await trio.sleep_forever()  # silent, sockets held open


async def test_a_silent_server_is_dropped_one_ping_and_its_timeout_after_it_last_answered(
        nursery: trio.Nursery, tmp_path: Path, clock: MockClock) -> None:
    server: ArbiterServer = await nursery.start(ArbiterServer(server_config(tmp_path)).run)
    relay = Relay(server.port or 0)
    await nursery.start(relay.serve)
    relayed = f"ws://127.0.0.1:{relay.port}/"
    ann = await client_at(nursery, [relayed, url(server)], "Ann",
                          ping_interval=PING_INTERVAL, ping_timeout=PING_TIMEOUT)
    heard = ann.subscribe()
    assert ann.url == relayed
    await ann.list_rooms()  # answered through the relay
    relay.frozen = True
    frozen_at = trio.current_time()
    with trio.fail_after(BOUND):
        while ann.connected:
            await ann.wait_changed()
    noticed = trio.current_time() - frozen_at
    # The next ping is due within PING_INTERVAL, and given up on PING_TIMEOUT after it: no
    # closing handshake after that (the library's keepalive waited 2 s more for a close frame).
    assert noticed <= PING_INTERVAL + PING_TIMEOUT + 0.1, noticed
    assert noticed >= PING_TIMEOUT
    reasons = [event.reason for event in _drain(heard) if isinstance(event, ev.Disconnected)]
    assert reasons == [f"connection dropped (the server did not answer for {PING_TIMEOUT:g} s)"]
    with trio.fail_after(BOUND):  # the other entry first: the silent node comes last
        while not (ann.connected and ann.url == url(server)):
            await ann.wait_changed()
    assert ann.stats.reconnects == 1


async def test_after_a_silent_drop_the_backoff_starts_afresh(
        nursery: trio.Nursery, tmp_path: Path, clock: MockClock) -> None:
    """A drop for silence waited a heartbeat timeout already: the next try comes at the first
    delay, not one escalated by earlier short connections (issue 27.5: a client waited 4.8 s
    more after noticing a frozen node). Two relays to one server; each falls silent in turn."""
    server: ArbiterServer = await nursery.start(ArbiterServer(server_config(tmp_path)).run)
    first, second = Relay(server.port or 0), Relay(server.port or 0)
    await nursery.start(first.serve)
    await nursery.start(second.serve)
    relayed = [f"ws://127.0.0.1:{relay.port}/" for relay in (first, second)]
    backoff = Backoff(initial=0.5, factor=4.0, jitter=0.0, stable=1000.0)
    ann = await client_at(nursery, relayed, "Ann", backoff=backoff,
                          ping_interval=PING_INTERVAL, ping_timeout=PING_TIMEOUT)
    heard = ann.subscribe()
    for silent, other in ((first, relayed[1]), (second, relayed[0])):
        await ann.list_rooms()
        silent.frozen = True
        with trio.fail_after(BOUND):
            while ann.connected:
                await ann.wait_changed()
        dropped = trio.current_time()
        with trio.fail_after(BOUND):
            while not ann.connected:
                await ann.wait_changed()
        assert ann.url == other
        # The first delay each time (0.5 s), where the second drop would have waited 2 s.
        assert trio.current_time() - dropped <= backoff.initial + 0.1
        silent.frozen = False
    assert ann.stats.reconnects == 2
    kinds = [type(event).__name__ for event in _drain(heard)]
    assert kinds.count("Disconnected") == 2


def _drain(channel: trio.MemoryReceiveChannel[ev.Event]) -> list[ev.Event]:
    out = []
    while True:
        try:
            out.append(channel.receive_nowait())
        except trio.WouldBlock:
            return out


class _Connection:
    """What the heartbeat uses of a connection: pings nobody answers, and dropping it."""

    def __init__(self) -> None:
        self.dropped_at: float | None = None
        self.pings = 0

    def drop(self) -> None:
        self.dropped_at = trio.current_time()

    async def ping(self) -> trio.Event:
        self.pings += 1
        return trio.Event()  # never answered


async def test_a_server_that_sends_frames_is_not_silent_while_its_pong_is_late(
        autojump_clock: MockClock) -> None:
    heartbeat = Heartbeat(2.5, 2.5)
    connection = _Connection()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(partial(heartbeat.run, connection))  # type: ignore[arg-type]
        for _ in range(20):  # 20 s of a frame a second, and no pong: busy, never silent
            await trio.sleep(1.0)
            heartbeat.heard()
        assert not heartbeat.silent and connection.dropped_at is None
        assert connection.pings >= 1
        last = trio.current_time()
        with trio.fail_after(BOUND):  # then nothing at all
            while connection.dropped_at is None:
                await trio.sleep(0.1)
    assert heartbeat.silent
    # Dropped a timeout after the last frame: the ping waiting then was never answered.
    assert connection.dropped_at == pytest.approx(last + 2.5, abs=0.2)


def test_a_heartbeat_needs_positive_times() -> None:
    with pytest.raises(ValueError):
        Heartbeat(0, 1)
    with pytest.raises(ValueError):
        Heartbeat(1, -1)
