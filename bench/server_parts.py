"""Where `arbiter serve`'s CPU goes per message, part by part, under bench/server.py's load.

    python bench/server_parts.py [--rooms 10] [--seconds 8] [--warm 3] [--repeat 3]

Starts the server through this file (``--child``), which wraps a few of its methods with a
timer of the thread's CPU time before handing over to ``arbiter serve``: nothing in the server
is changed for it, and each wrapper costs about a microsecond a call. The bench's clients play
for ``--warm`` seconds, then for ``--seconds`` during which the parts are counted (the server
writes its totals to a file when sent SIGUSR2, at the start and at the end), and the server's
own CPU time (/proc) over the same span gives the whole. Prints µs of CPU per message (one
``Hub.receive``) for each part, per run and the median:

* the room core (``Hub.receive``), and within it the engine (``Table.apply``), the fan-out
  (``Fanout.publish``: projecting the dirty keys ``GameRoom.project``, encoding the deltas
  ``GameRoom.encode_delta``) and the state hash (``Table.state_hash``);
* handing the core's effects to the commit gate (``ServerBase.apply``), the log's commit
  (``Store.write``), the deliveries (``Connection.deliver_all``: framing and ``os.write``);
* the rest: reading and parsing, trio's loop and epoll, the gate's task.

docs/measurements.md ("where the rest of the gap goes") has what it showed.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)  # so that ``bench.*`` and ``arbiter`` import from this checkout

# The totals file of a child server: its path comes in the environment.
TOTALS = "ARBITER_BENCH_PARTS"

# (part, module, class, method), the order the table prints them in.
PARTS = [
    ("room core", "arbiter.server.rooms.hub", "Hub", "receive"),
    ("  engine", "arbiter.server.rules.table", "Table", "apply"),
    ("  fan-out", "arbiter.server.rooms.fanout", "Fanout", "publish"),
    ("    projection", "arbiter.server.rooms.views", "GameRoom", "project"),
    ("    encoding", "arbiter.server.rooms.views", "GameRoom", "encode_delta"),
    ("  state hash", "arbiter.server.rules.table", "Table", "state_hash"),
    ("effects to the gate", "arbiter.server.net.server", "ServerBase", "apply"),
    ("log commit", "arbiter.server.store.db", "Store", "write"),
    ("deliveries", "arbiter.server.net.connection", "Connection", "deliver_all"),
]
OUTER = ("room core", "effects to the gate", "log commit", "deliveries")  # not nested


def _child(args: list[str]) -> None:
    """Run ``arbiter`` with ``args``, its parts timed."""
    import importlib

    totals: dict[str, float] = {part: 0.0 for part, *_ in PARTS}
    calls: dict[str, int] = {part: 0 for part, *_ in PARTS}  # the room core's: the messages
    clock = time.thread_time

    def timed(part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*a: Any, **k: Any) -> Any:
            started = clock()
            try:
                return fn(*a, **k)
            finally:
                totals[part] += clock() - started
                calls[part] += 1
        return wrapper

    for part, module, cls_name, method in PARTS:
        cls = getattr(importlib.import_module(module), cls_name)
        setattr(cls, method, timed(part, getattr(cls, method)))
    dumps = [0]
    path = os.environ[TOTALS]

    def dump(*_: object) -> None:
        dumps[0] += 1
        Path(f"{path}.tmp").write_text(json.dumps({"seconds": totals, "calls": calls}))
        os.replace(f"{path}.tmp", f"{path}.{dumps[0]}")

    signal.signal(signal.SIGUSR2, dump)
    from arbiter.server.cli import main

    sys.argv = ["arbiter", *args]
    main()


def _snapshot(pid: int, path: str, n: int) -> tuple[dict[str, dict[str, float]], float]:
    """Ask the child for its totals (its ``n``-th dump) and read its CPU time."""
    from bench._netclient import process_cpu_seconds

    cpu = process_cpu_seconds(pid)
    os.kill(pid, signal.SIGUSR2)
    deadline = time.monotonic() + 10
    while not os.path.exists(f"{path}.{n}"):
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not write its totals within 10 s")
        time.sleep(0.01)
    return json.loads(Path(f"{path}.{n}").read_text()), cpu


def run(rooms: int, seconds: float, warm: float, folder: Path) -> dict[str, float]:
    """One run: µs per message of each part, the rest and the whole."""
    import trio

    from bench._netclient import load
    from bench._netrun import server_process

    path = str(folder / "totals")
    os.environ[TOTALS] = path
    with server_process("arbiter", launcher=[sys.executable, __file__, "--child"]) as (proc, port):
        marks: list[tuple[dict[str, dict[str, float]], float]] = []

        async def main() -> None:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(load, port, "arbiter", rooms, warm + seconds)
                await trio.sleep(warm)
                marks.append(_snapshot(proc.pid, path, 1))
                await trio.sleep(seconds)
                marks.append(_snapshot(proc.pid, path, 2))

        trio.run(main)
    (start, cpu0), (end, cpu1) = marks
    messages = end["calls"]["room core"] - start["calls"]["room core"]
    out = {part: (end["seconds"][part] - start["seconds"][part]) / messages * 1e6
           for part, *_ in PARTS}
    whole = (cpu1 - cpu0) / messages * 1e6
    out["the rest"] = whole - sum(out[p] for p in OUTER)
    out["in all"] = whole
    out["messages per second"] = messages / seconds
    return out


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2:])
        return 0
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--warm", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runs = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as folder:
            runs.append(run(args.rooms, args.seconds, args.warm, Path(folder)))
    print(f"arbiter serve, {args.rooms} rooms of 4 bots, µs of CPU per message "
          f"({args.seconds:g} s after {args.warm:g} s of warm-up, {args.repeat} runs):")
    for key in [p for p, *_ in PARTS] + ["the rest", "in all", "messages per second"]:
        values = [r[key] for r in runs]
        shown = ", ".join(f"{v:.1f}" for v in values)
        print(f"  {key:22s} {statistics.median(values):8.1f}   ({shown})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
