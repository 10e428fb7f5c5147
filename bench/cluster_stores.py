"""The cluster's stores measured: the PostgreSQL log's group commit (against the embedded SQLite
log, same batches) and the Redis directory's per-node calls, on throwaway local servers.

    .venv/bin/python bench/cluster_stores.py --batches 300 --sizes 1 10 100
    .venv/bin/python bench/cluster_stores.py --durable   # PostgreSQL with fsync on

A batch is what the commit gate hands the log at once: commands of many rooms (``--rooms``),
with a state hash now and then, as the rooms produce them. Latencies are per batch, from the
trio side (the PostgreSQL log's figure includes the hop to its worker thread and back); the
SQLite store writes in the caller's thread, as the embedded server does.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbiter.server.cluster.directory import Directory
from arbiter.server.cluster.pglog import ClusterLog
from arbiter.server.store.db import Store
from arbiter.server.store.records import CommandAppended, GameStarted, Record, RoomCreated
from arbiter.testing.localservers import LocalPostgres, LocalRedis


def _setup_records(rooms: int) -> list[Record]:
    out: list[Record] = []
    for room in range(1, rooms + 1):
        out += [RoomCreated(room, f"Room {room}", {"seats": 2}, None),
                GameStarted(room, room, 1, room, {"players": [{"deck": "x"}] * 2}, None)]
    return out


def _batches(rooms: int, size: int, count: int) -> list[list[Record]]:
    n = dict.fromkeys(range(1, rooms + 1), 0)
    out = []
    for b in range(count):
        batch: list[Record] = []
        for i in range(size):
            room = (b * size + i) % rooms + 1
            n[room] += 1
            batch.append(CommandAppended(
                room, room, n[room], {"kind": "act", "player": n[room] % 2, "serial": n[room],
                                      "action": 3},
                "9f2c4e" * 5 if n[room] % 8 == 0 else None, [61234, 59876]))
        out.append(batch)
    return out


def _summary(name: str, size: int, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    rate = size * len(ms) / (sum(ms) / 1000)
    return (f"{name:<22} {size:>5} {statistics.median(ms):>9.3f} {p99:>9.3f} "
            f"{rate:>12,.0f}")


async def _timed(call: Callable[[], Awaitable[object]], times: int) -> list[float]:
    out = []
    for _ in range(times):
        started = time.perf_counter()
        await call()
        out.append(time.perf_counter() - started)
    return out


async def run(args: argparse.Namespace, redis: LocalRedis, postgres: LocalPostgres) -> None:
    print(f"{'store':<22} {'batch':>5} {'p50 ms':>9} {'p99 ms':>9} {'records/s':>12}")
    for size in args.sizes:
        batches = _batches(args.rooms, size, args.batches)
        dsn = postgres.create_database(f"bench{size}")
        epochs = dict.fromkeys(range(1, args.rooms + 1), 1)
        async with ClusterLog(dsn, node="bench") as log:
            await log.write(_setup_records(args.rooms), epochs)
            seconds = []
            for batch in batches:
                started = time.perf_counter()
                await log.write(batch, epochs)
                seconds.append(time.perf_counter() - started)
            print(_summary("postgres (ClusterLog)", size, seconds))
        with tempfile.TemporaryDirectory() as folder:
            store = Store.open_dir(folder)
            store.write(_setup_records(args.rooms))
            seconds = []
            for batch in batches:
                started = time.perf_counter()
                store.write(batch)
                seconds.append(time.perf_counter() - started)
            store.close()
            print(_summary("sqlite (Store, NORMAL)", size, seconds))
    print()
    print(f"{'directory call':<34} {'p50 ms':>9} {'p99 ms':>9}")
    async with Directory(redis.url) as directory:
        leases = dict.fromkeys(range(1, args.leases + 1), 1)
        for room in leases:
            await directory.acquire(room, node="bench", epoch=1, ttl=60)
            await directory.publish(room, {"name": f"Room {room}", "seats": 2, "taken": 1},
                                    node="bench", epoch=1)
        for node in range(args.nodes):
            await directory.heartbeat(f"n{node}", url=f"ws://n{node}", rooms=node,
                                      players=0, ttl=60)
        calls: list[tuple[str, Callable[[], Awaitable[object]]]] = [
            ("heartbeat", lambda: directory.heartbeat("n0", url="ws://n0", rooms=1,
                                                      players=2, ttl=60)),
            (f"renew {args.leases} leases", lambda: directory.renew(leases, node="bench",
                                                                  ttl=60)),
            (f"place among {args.nodes} nodes", lambda: directory.place(reserve=False)),
            (f"lobby page of 200 ({args.leases} listed)", lambda: directory.lobby(200)),
            ("acquire + release one lease", lambda: _cycle(directory)),
        ]
        for name, call in calls:
            seconds = await _timed(call, args.calls)
            ms = sorted(s * 1000 for s in seconds)
            print(f"{name:<34} {statistics.median(ms):>9.3f} "
                  f"{ms[min(len(ms) - 1, int(len(ms) * 0.99))]:>9.3f}")


async def _cycle(directory: Directory) -> None:
    await directory.acquire(10**9, node="bench", epoch=1, ttl=60)
    await directory.release(10**9, node="bench", epoch=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=300)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--leases", type=int, default=500)
    parser.add_argument("--nodes", type=int, default=5)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--durable", action="store_true",
                        help="PostgreSQL with fsync on (default off, as in the tests)")
    args = parser.parse_args()
    # On TCP, as a deployment's nodes connect: the figures are a deployment's.
    with LocalRedis(tcp=True) as redis, \
            LocalPostgres(durable=args.durable, tcp=True) as postgres:
        trio.run(run, args, redis, postgres)
    return 0


if __name__ == "__main__":
    sys.exit(main())
