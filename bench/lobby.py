"""What the lobby's people and chat cost the room core (docs/protocol.md section 16), in
process, with no sockets: N sessions connected, all of them following the lobby (the worst
case), on the pure hub.

    python bench/lobby.py [--people 4000] [--ticks 50]

Prints the milliseconds of one presence tick after someone arrived (the page of people
computed and encoded once, the same frame handed to every follower), of a new follower's
follow, of a search and of one chat line sent to every follower, with the presence frame's
size. A second's presence work is at most one tick, whatever the number of changes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)

from arbiter.protocol import pack  # noqa: E402
from arbiter.server.rooms.context import HubSettings, SeededEntropy  # noqa: E402
from arbiter.server.rooms.effects import Effects  # noqa: E402
from arbiter.server.rooms.hub import Hub  # noqa: E402
from arbiter.server.rooms.lobby import WAKE_KEY, LobbySettings  # noqa: E402
from arbiter.server.rooms.peers import Limits, Peer  # noqa: E402
from arbiter.server.rooms.sessions import SessionSettings  # noqa: E402


class Sink:
    def deliver(self, frame: bytes) -> None:  # pragma: no cover - the core never calls it
        pass


def frames_to(effects: Effects) -> int:
    return sum(len(peers) for peers, _ in effects.frames)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=4000)
    parser.add_argument("--ticks", type=int, default=50)
    args = parser.parse_args()
    n = args.people
    hub = Hub(HubSettings(sessions=SessionSettings(max_sessions=n * 2)),
              Limits(rate=1e9, burst=10**9), entropy=SeededEntropy(1),
              lobby=LobbySettings(chat_burst=10**9, lobby_burst=10**9))
    now = 1000.0
    ids = iter(range(1, 10**9))

    def call(peer: Peer, msg: dict[str, Any]) -> Effects:
        return hub.receive(peer, pack({**msg, "i": next(ids)}), now)

    peers = []
    for i in range(n):
        peer = hub.connect(Sink(), f"10.0.{i // 250}.{i % 250}", now)
        call(peer, {"t": "hello", "v": [2], "name": f"Player {i:05}"})
        peers.append(peer)
    follow_ms = []
    for peer in peers:
        t0 = time.perf_counter()
        call(peer, {"t": "lobby", "follow": True})
        follow_ms.append((time.perf_counter() - t0) * 1000)
    tick_ms, sent, size = [], 0, 0
    for _ in range(args.ticks):
        now += 1.0
        newcomer = hub.connect(Sink(), "10.9.9.9", now)
        call(newcomer, {"t": "hello", "v": [2], "name": f"A{next(ids)}"})  # first by name
        t0 = time.perf_counter()
        out = hub.wake(WAKE_KEY, now)
        tick_ms.append((time.perf_counter() - t0) * 1000)
        sent = frames_to(out)
        size = len(out.frames[0][1]) if out.frames else 0
    search_ms = []
    for i in range(20):
        t0 = time.perf_counter()
        call(peers[i], {"t": "people", "q": f"player 0{i:02}"})
        search_ms.append((time.perf_counter() - t0) * 1000)
    chat_ms = []
    for i in range(20):
        t0 = time.perf_counter()
        out = call(peers[i], {"t": "lobby_chat", "text": "hello, lobby"})
        chat_ms.append((time.perf_counter() - t0) * 1000)
    med = statistics.median
    print(f"{n} people online, all following the lobby")
    print(f"presence tick after an arrival: median {med(tick_ms):.2f} ms, max "
          f"{max(tick_ms):.2f} ms; one {size}-byte frame to {sent} followers")
    print(f"follow: median {med(follow_ms):.3f} ms (the page is reused for a second)")
    print(f"search: median {med(search_ms):.2f} ms")
    print(f"chat line to every follower: median {med(chat_ms):.3f} ms, "
          f"{frames_to(out) - 1} frames")


if __name__ == "__main__":
    main()
