"""A spectator rides through a server crash as a seated player does (issue 27.18): ``arbiter
serve`` killed with SIGKILL and started again; the SDK client reconnects with its session and
resume, and goes on seeing the game, counted among the room's watchers. Before, the log held
no trace of what a session watched, so the restarted server ignored the resume: "connected",
and frozen at the turn of the crash."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import trio

from arbiter.clients.sdk.client import Backoff, Client, open_client
from arbiter.protocol import requests as rq

from .procs import Server

BOUND = 30.0  # seconds for anything below to happen, on a busy machine


async def until(client: Client, condition: object, what: str) -> None:
    assert callable(condition)
    with trio.fail_after(BOUND):
        while not condition():
            await client.wait_changed()
    assert condition(), what


async def watching(client: Client, room: str) -> int:
    """How many watch ``room``, as the server's room list says."""
    (summary,) = [r for r in await client.list_rooms() if r["r"] == room]
    return int(summary["watching"])


async def test_a_spectator_sees_the_game_go_on_after_a_server_restart(tmp_path: Path) -> None:
    server = Server(tmp_path / "data", None, "--bot-think", "0.2", "--grace", "600")
    server.start()
    try:
        fast = Backoff(initial=0.05, maximum=0.5)
        async with open_client(server.url, "Host", backoff=fast, ping_interval=None) as host, \
                open_client(server.url, "Watcher", backoff=fast, ping_interval=None) as watcher:
            room = await host.create({"seats": 2, "spectators": "public"})
            await watcher.spectate(room)
            for _ in range(2):  # two bots the server runs: the game plays itself
                await host.request(partial(rq.AddBot, room=room))
            await until(watcher, lambda: watcher.stats.deltas >= 5, "the game under way")
            assert await watching(host, room) == 1
            connects = watcher.stats.connects
            server.kill()
            server.start()
            await until(watcher, lambda: watcher.stats.connects > connects, "a reconnect")
            seen = watcher.stats.deltas
            await until(watcher, lambda: watcher.stats.deltas >= seen + 5,
                        "the game going on, seen by the spectator after the restart")
            assert await watching(host, room) == 1  # counted among the watchers again
            assert not watcher.tracker.mismatches
    finally:
        server.stop()
