"""The bare transport baseline: a websockets-trio server that fans each action out to its
room's four clients, with no game, no views, no log.

    python bench/baseline.py --serve --port 0      run the server alone (prints its port)
    python bench/baseline.py [--rooms N] [--seconds S]   run it and load it with the bots

For every "act" frame it receives it sends one ~200-byte msgpack frame to each of the room's
four clients with ``await ws.send()`` in a loop (the baseline docs/architecture.md measures
against); the frame names the next player to act. bench/server.py runs this and the Arbiter
server with the same clients in the same invocation and reports the ratio of their rates.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
from pathlib import Path
from typing import Any

# Run as a script, this directory comes first on sys.path: put the repository root there
# instead, so that ``bench.*`` and ``tests.*`` import as packages.
ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)

import msgpack  # noqa: E402
import trio  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.trio.server import ServerConnection, serve  # noqa: E402

PAD = "x" * 150  # brings each frame to about 200 bytes


class FanOut:
    def __init__(self) -> None:
        self.rooms: dict[str, list[ServerConnection | None]] = {}
        self.seq: dict[str, int] = {}

    async def handler(self, ws: ServerConnection) -> None:
        try:
            async for frame in ws:
                msg: dict[str, Any] = msgpack.unpackb(frame)
                room = msg["r"]
                if msg["t"] == "join":
                    seats = self.rooms.setdefault(room, [None] * 4)
                    seats[msg["seat"]] = ws
                    if all(seats):
                        await self._fan_out(room, None, -1)
                elif msg["t"] == "act":
                    seat = self.rooms[room].index(ws)
                    await self._fan_out(room, msg["i"], seat)
        except ConnectionClosed:
            pass

    async def _fan_out(self, room: str, request_id: int | None, by: int) -> None:
        self.seq[room] = self.seq.get(room, 0) + 1
        frame = msgpack.packb({"t": "d", "r": room, "q": self.seq[room], "i": request_id,
                               "by": by, "p": (by + 1) % 4, "o": [["s", "pad", PAD]]})
        for ws in self.rooms[room]:
            if ws is not None:
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(frame)


async def serve_baseline(port: int, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED
                         ) -> None:
    fan = FanOut()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(functools.partial(
            serve, fan.handler, port, host="127.0.0.1", compression=None, ping_interval=None))
        task_status.started(server.listeners[0].socket.getsockname()[1])


async def _serve_and_print(port: int) -> None:
    async with trio.open_nursery() as nursery:
        actual = await nursery.start(serve_baseline, port)
        print(f"baseline: listening on ws://127.0.0.1:{actual}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help="only run the server")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    if args.serve:
        trio.run(_serve_and_print, args.port)
        return 0
    from bench._netrun import report, run_one

    report({"baseline": [trio.run(run_one, "baseline", args.rooms, args.seconds)]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
