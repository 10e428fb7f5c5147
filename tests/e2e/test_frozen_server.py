"""A frozen server is noticed within seconds (issue 27, item 5): ``arbiter serve`` stopped with
SIGSTOP keeps its sockets open and accepts nothing, so only the client's heartbeats tell; with
the SDK's default heartbeats (PING_INTERVAL + PING_TIMEOUT) the client drops the connection and
starts reconnecting within about five seconds, where 20 s heartbeats took up to 40."""

from __future__ import annotations

from pathlib import Path

import trio

from arbiter.clients.sdk.client import PING_INTERVAL, PING_TIMEOUT, Backoff, open_client

from .procs import Server

BOUND = 30.0  # seconds the test waits at most, on a busy machine


async def test_a_frozen_server_is_noticed_within_the_heartbeats(tmp_path: Path) -> None:
    server = Server(tmp_path / "data")
    server.start()
    try:
        async with open_client(server.url, "Ann", backoff=Backoff(initial=0.2)) as ann:
            await ann.list_rooms()  # connected and answered
            assert ann.connected
            server.freeze()
            frozen_at = trio.current_time()
            with trio.fail_after(BOUND):
                while ann.connected:
                    await ann.wait_changed()
            noticed = trio.current_time() - frozen_at
            # A ping is due within PING_INTERVAL and given up after PING_TIMEOUT; a loaded
            # machine adds its delays (7.1 s seen with two cores shared by six processes).
            assert noticed <= PING_INTERVAL + PING_TIMEOUT + 5.0, noticed
            server.thaw()
            with trio.fail_after(BOUND):  # thawed, it is found again
                while not ann.connected:
                    await ann.wait_changed()
    finally:
        server.thaw()
        server.stop()
