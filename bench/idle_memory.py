"""Memory per idle connection: ``arbiter serve`` against the bare websockets-trio server
(bench/baseline.py), each in a fresh process.

    python bench/idle_memory.py [--connections 500] [--repeat 3]

For each server: its resident set size (VmRSS) once it listens, then N websocket connections
opened and left idle (on Arbiter after hello and its welcome, so that each holds a session;
on the baseline after one frame it answers nothing to), then VmRSS again; prints the
difference divided by N in KiB, per run and the median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)  # so that ``bench.*`` imports as a package

import msgpack  # noqa: E402
import trio  # noqa: E402
from websockets.trio.client import ClientConnection, connect  # noqa: E402

from bench._netrun import _rss_kib, server_process  # noqa: E402

SETTLE = 1.0  # seconds given to the server to finish what the connections made it do


async def _open(nursery: trio.Nursery, port: int) -> ClientConnection:
    ws: ClientConnection = await connect(
        f"ws://127.0.0.1:{port}/", compression=None, proxy=None, open_timeout=60,
        ping_interval=None, max_size=None).connect(nursery)
    return ws


async def _idle(kind: str, port: int, pid: int, n: int) -> float:
    """KiB of the server's RSS per connection, for ``n`` idle connections."""
    await trio.sleep(SETTLE)
    before = _rss_kib(pid)
    async with trio.open_nursery() as nursery:
        conns = []
        for k in range(n):
            ws = await _open(nursery, port)
            if kind == "arbiter":
                await ws.send(msgpack.packb({"t": "hello", "i": 1, "v": [1], "name": f"idle{k}"}))
                welcome = msgpack.unpackb(await ws.recv())
                assert welcome["t"] == "welcome", welcome
            else:  # the baseline keeps a connection in a room once it has joined one
                await ws.send(msgpack.packb({"t": "join", "r": f"idle{k // 4}", "seat": k % 4}))
            conns.append(ws)
        await trio.sleep(SETTLE)
        after = _rss_kib(pid)
        for ws in conns:
            await ws.aclose()
        nursery.cancel_scope.cancel()
    return (after - before) / n


def run_one(kind: str, n: int) -> float:
    with server_process(kind) as (proc, port):
        return trio.run(_idle, kind, port, proc.pid, n)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runs: dict[str, list[float]] = {"arbiter": [], "baseline": []}
    for _ in range(args.repeat):
        for kind in runs:
            runs[kind].append(run_one(kind, args.connections))
    for kind, values in runs.items():
        shown = ", ".join(f"{v:.1f}" for v in values)
        print(f"{kind:9s} KiB per idle connection ({args.connections}): {shown}"
              f"   (median {statistics.median(values):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
