"""What an honest client meets during the floods of issue 27 (items 10-12), against a real
``arbiter serve`` on loopback with its defaults (and ``--limit-local-addresses``, so that the
loopback addresses the floods come from are counted as remote ones are):

    python bench/floods.py [--seconds 10]

Three floods, each on a fresh server, each going on for ``--seconds``:

* ``sessions``: 8 loops from 127.0.0.1 connecting, saying hello and closing, as fast as they
  can (item 12: the session table);
* ``bot rooms``: 4 sessions of 127.0.0.1 looping create, bot, bot, leave (item 10: rooms
  played by bots alone, counted against their creator);
* ``addresses``: 49 addresses (127.0.1.1-49), each with sessions creating waiting rooms as fast
  as they are answered (item 11: many addresses filling the room table).

Meanwhile an honest client from an address of its own, a player who has played here once (one
game started against a bot), opens a connection and says hello with its session, creates a
room, plays it against a bot and concedes (so that no room of its own is left waiting), four
times a second. Printed for each flood: what the flood did (messages
answered, sessions and rooms at the end), and the honest hello's and create's wall-clock
latency (p50, max) with every answer its creates got.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)

from tests.server.harness import Activity, Client  # noqa: E402

HONEST_ADDRESS = "127.0.9.1"
HONEST_EVERY = 0.25  # seconds between two honest tries
ROOM = {"t": "create", "config": {"seats": 2}}


@contextmanager
def arbiter_serve() -> Iterator[int]:
    """``arbiter serve`` with its defaults, loopback counted as remote addresses are."""
    with tempfile.TemporaryDirectory() as data_dir:
        proc = subprocess.Popen(
            [sys.executable, "-m", "arbiter.server.cli", "serve", "--port", "0", "--data-dir",
             data_dir, "--log-level", "ERROR", "--limit-local-addresses"],
            cwd=ROOT, stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            port = None
            while port is None:
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError("arbiter serve exited")
                m = re.search(r"listening on ws://127\.0\.0\.1:(\d+)", line)
                port = int(m.group(1)) if m else None
            yield port
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            proc.stdout.close() if proc.stdout is not None else None


async def _open(nursery: trio.Nursery, port: int, name: str | None, address: str,
                session: str | None = None) -> Client:
    return await Client.open(nursery, port, name, session=session, activity=Activity(),
                             local_address=address)


async def _try(c: Client, msg: dict[str, Any]) -> dict[Any, Any] | None:
    """A flood's request: its reply, or None when the server closed the connection first."""
    try:
        return await c.call(msg)
    except AssertionError:  # no reply: closed (a flood client over its message rate)
        return None


async def _veteran(nursery: trio.Nursery, port: int) -> str:
    """A session that has played here: one game started against a bot."""
    c = await _open(nursery, port, "Honest", HONEST_ADDRESS)
    room = (await c.ok(ROOM))["r"]
    await c.join(room, deck="quick-red")
    await c.ok({"t": "bot", "r": room})
    assert c.session is not None
    await c.ws.aclose()
    return c.session


async def _honest(nursery: trio.Nursery, port: int, session: str, until: float,
                  out: dict[str, Any]) -> None:
    while trio.current_time() < until:
        start = time.perf_counter()
        c = await _open(nursery, port, None, HONEST_ADDRESS, session=session)
        hello = time.perf_counter()
        reply = await c.call(ROOM)
        created = time.perf_counter()
        out["hello"].append(hello - start)
        out["create"].append(created - hello)
        out["answers"][reply["t"] if reply["t"] == "created" else reply["code"]] += 1
        if reply["t"] == "created":  # played and conceded: no room of its own left waiting
            await c.join(reply["r"], deck="quick-red")
            await c.ok({"t": "bot", "r": reply["r"]})
            await c.ok({"t": "concede", "r": reply["r"]})
        await c.ws.aclose()
        await trio.sleep(HONEST_EVERY)


async def _sessions(nursery: trio.Nursery, port: int, until: float, done: list[int]) -> None:
    async def loop(n: int) -> None:
        i = 0
        while trio.current_time() < until:
            c = await _open(nursery, port, f"Flood {n}.{i}", "127.0.0.1")
            await c.ws.aclose()
            done[0] += 1
            i += 1

    async with trio.open_nursery() as inner:
        for n in range(8):
            inner.start_soon(loop, n)


async def _bot_rooms(nursery: trio.Nursery, port: int, until: float, done: list[int]) -> None:
    async def loop(n: int) -> None:
        c = await _open(nursery, port, f"Squat {n}", "127.0.0.1")
        while trio.current_time() < until:
            if c.closed:  # closed for its rate: back at once, as a squatter would be
                c = await _open(nursery, port, f"Squat {n}", "127.0.0.1")
            reply = await _try(c, ROOM)
            if reply is None:
                continue
            done[0] += 1
            if reply["t"] != "created":
                await trio.sleep(0.01)  # refused: the loop goes on, as a squatter's would
                continue
            for _ in range(2):
                await _try(c, {"t": "bot", "r": reply["r"]})
            await _try(c, {"t": "leave", "r": reply["r"]})

    async with trio.open_nursery() as inner:
        for n in range(4):
            inner.start_soon(loop, n)


async def _addresses(nursery: trio.Nursery, port: int, until: float, done: list[int]) -> None:
    async def loop(a: int) -> None:
        s = 0
        while trio.current_time() < until:
            c = await _open(nursery, port, f"F{a}.{s}", f"127.0.1.{a + 1}")
            for _ in range(5):  # a session's cap of waiting rooms
                if await _try(c, ROOM) is not None:
                    done[0] += 1
            s += 1

    async with trio.open_nursery() as inner:
        for a in range(49):
            inner.start_soon(loop, a)


FLOODS: dict[str, Callable[[trio.Nursery, int, float, list[int]], Awaitable[None]]] = {
    "sessions": _sessions, "bot rooms": _bot_rooms, "addresses": _addresses}


async def _metrics(port: int) -> dict[str, float]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = b""
    while chunk := await stream.receive_some(65536):
        data += chunk
    out = {}
    for line in data.decode().splitlines():
        m = re.match(r"^(arbiter_(?:sessions|rooms)\S*) ([0-9.e+]+)$", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


async def run(name: str, port: int, seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {"hello": [], "create": [], "answers": Counter()}
    done = [0]
    async with trio.open_nursery() as nursery:
        session = await _veteran(nursery, port)
        until = trio.current_time() + seconds
        nursery.start_soon(FLOODS[name], nursery, port, until, done)
        await _honest(nursery, port, session, until, out)
        out["metrics"] = await _metrics(port)
        nursery.cancel_scope.cancel()
    out["flood"] = done[0]
    return out


def _ms(values: list[float]) -> str:
    if not values:
        return "none"
    return f"p50 {statistics.median(values) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    for name in FLOODS:
        with arbiter_serve() as port:
            r = trio.run(run, name, port, args.seconds)
        m = r["metrics"]
        state = ", ".join(f"{k.removeprefix('arbiter_')} {v:g}" for k, v in sorted(m.items()))
        print(f"{name}: {r['flood']} flood requests answered in {args.seconds:g} s; {state}")
        print(f"  honest hello: {_ms(r['hello'])}; honest create: {_ms(r['create'])}; "
              f"answers: {dict(r['answers'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
