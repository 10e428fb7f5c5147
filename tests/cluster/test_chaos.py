"""A cluster under fire: three real nodes, bots (``arbiter bot``, as users run them) playing
four-player games through all three entry URLs, and, every few seconds while they play, one
of: a node killed with SIGKILL and started again, a node frozen (SIGSTOP) for longer than a
lease and thawed, Redis (with its append-only file) frozen or killed and started again,
PostgreSQL frozen or killed and started again (docs/cluster.md, "Failover", "PostgreSQL
away", "Redis away"; issue 27).

What must hold, whatever the timing:
- every bot process plays all its games to the end and exits 0;
- every replica matched the server's checksums throughout (each bot prints its desyncs: 0);
- nothing acknowledged is lost: a room's log holds at least as many commands as its bots had
  acknowledged (a command acknowledged and then lost would also show as a desync, since the
  node that took the room over would be a step behind the replicas);
- every room taken over replayed with every recorded state hash matching (no node says a room
  was NOT resumed);
- no player who stayed connected lost a game by concession, nor heard that their room was
  closed (``room_closed``): the bots never leave nor concede, so either would mean the cluster
  let a live game go. The nodes' grace period is short, so that a seat dropped by mistake
  concedes within the run instead of after it.

Every wait has a bound; the only pacing is waiting for the games to make progress between
events, so that each lands in the middle of play.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import time
from pathlib import Path

import psycopg

from arbiter.testing.localservers import LocalPostgres, LocalRedis
from tests.e2e.procs import ARBITER, wait_for

from .nodes import Node, start_nodes

# What happens between stretches of play, in this order: six node kills, two node freezes,
# and each service frozen and killed once.
EVENTS = ("kill", "freeze", "redis-freeze", "kill", "postgres-kill", "kill", "redis-kill",
          "kill", "postgres-freeze", "freeze", "kill", "kill")
LEASE = 2.0
OUTAGE = 1.5 * LEASE  # how long a freeze lasts: longer than a lease
GRACE = 30  # seconds an empty seat is held before its player concedes
BOTS = 3  # bot processes at a time, each creating four-player rooms one after another
GAMES = 1  # rooms per bot process (replaced while events remain: play never stops)
PROGRESS = 25  # actions the cluster must play between two kills


def _launch(out: Path, urls: str, seed: int) -> tuple[subprocess.Popen[str], Path]:
    path = out / f"bots{seed}.out"
    with open(path, "w") as sink:
        proc = subprocess.Popen(
            [*ARBITER, "bot", "--url", urls, "--create", "--seats", "4", "--games", str(GAMES),
             "--strategy", "random", "--seed", str(seed), "--name", f"B{seed}"],
            stdout=sink, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    return proc, path


def _actions(nodes: list[Node]) -> int:
    return sum(n.actions() for n in nodes)


def _await_play(nodes: list[Node], event: int) -> None:
    floor = _actions(nodes)
    wait_for(lambda: _actions(nodes) >= floor + PROGRESS, 120,
             f"play to go on before event {event + 1}", every=0.1)


def _strike(kind: str, nodes: list[Node], redis: LocalRedis, postgres: LocalPostgres,
            rng: random.Random) -> None:
    """One event of EVENTS; returns once what it stopped runs again."""
    if kind in ("kill", "freeze"):
        victim = _victim(nodes, rng)
        if kind == "kill":
            victim.kill()
            victim.start()
        else:
            victim.freeze()
            time.sleep(OUTAGE)
            victim.thaw()
        wait_for(lambda: victim.health()[0] == 200, 30, "the node to answer again")
        return
    server: LocalRedis | LocalPostgres = redis if kind.startswith("redis") else postgres
    if kind.endswith("freeze"):
        server.freeze()
        time.sleep(OUTAGE)
        server.thaw()
    else:
        server.kill()
        server.start()
    wait_for(lambda: all(n.health()[0] == 200 for n in nodes), 30,
             f"the nodes to reach {kind.split('-')[0]} again")


def _victim(nodes: list[Node], rng: random.Random) -> Node:
    """A node holding rooms, if any does: a kill that hits play."""
    holding = [n for n in nodes if n.counter("arbiter_cluster_leases") > 0]
    return rng.choice(holding or nodes)


def _played(path: Path) -> dict[str, list[tuple[int, int]]]:
    """Per room: (actions, desyncs) of each bot, from a bot process's output."""
    rooms: dict[str, list[tuple[int, int]]] = {}
    room = None
    for line in path.read_text().splitlines():
        if m := re.match(r"room (\d+): \d+ \S+ bots", line):  # a room's first line
            room = m.group(1)
            rooms[room] = []
        elif m := re.search(r": (\d+) actions, (\d+) desyncs", line):
            assert room is not None, line
            rooms[room].append((int(m.group(1)), int(m.group(2))))
    return rooms


def _logged(dsn: str, room: str) -> int:
    with psycopg.connect(dsn, autocommit=True) as db:
        row = db.execute("SELECT count(*) FROM commands WHERE room = %s", (int(room),)).fetchone()
    assert row is not None
    return int(row[0])


def test_games_finish_and_agree_through_kills_freezes_and_outages(
        tmp_path: Path, persistent_redis: LocalRedis, own_postgres: LocalPostgres,
        own_dsn: str, prefix: str) -> None:
    dsn = own_dsn
    nodes = start_nodes(tmp_path, 3, redis=persistent_redis.url, dsn=dsn, prefix=prefix,
                        lease=LEASE, extra=("--grace", str(GRACE)))
    urls = ",".join(n.url for n in nodes)
    rng = random.Random(7)
    runs: list[tuple[subprocess.Popen[str], Path]] = []
    seeds = iter(range(1, 1000))
    try:
        running = [_launch(tmp_path, urls, next(seeds)) for _ in range(BOTS)]
        runs.extend(running)
        for event, kind in enumerate(EVENTS):
            # Let the games play on, then strike in the middle of them.
            _await_play(nodes, event)
            _strike(kind, nodes, persistent_redis, own_postgres, rng)
            # Bot processes that finished their games are replaced while events remain, so
            # that there is always play to interrupt.
            for i, (proc, _) in enumerate(running):
                if proc.poll() is not None:
                    running[i] = _launch(tmp_path, urls, next(seeds))
                    runs.append(running[i])
        for proc, path in runs:
            try:
                proc.wait(timeout=300)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"{path.name} still running:\n{path.read_text()[-3000:]}"
                                     ) from None
        for proc, path in runs:
            out = path.read_text()
            assert proc.returncode == 0, f"{path.name}:\n{out[-3000:]}"
            played = _played(path)
            assert len(played) == GAMES, out
            for room, bots in played.items():
                assert len(bots) == 4, (room, out)
                assert all(desyncs == 0 for _, desyncs in bots), (room, out)
                assert _logged(dsn, room) >= sum(actions for actions, _ in bots), room
            # Nobody who stayed connected lost a game they never left.
            assert "(concession," not in out, out
            assert "room closed by the server" not in out, out
        for node in nodes:
            assert "NOT resumed" not in node.errors(), node.errors()[-3000:]
            assert "Traceback" not in node.errors(), node.errors()[-3000:]
    finally:
        for proc, _ in runs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
        for node in nodes:
            if node.proc is not None and node.proc.poll() is None:
                node.thaw()
            node.stop()
