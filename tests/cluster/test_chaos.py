"""A cluster under fire: three real nodes, bots (``arbiter bot``, as users run them) playing
four-player games through all three entry URLs, and a node killed with SIGKILL and started
again every few seconds, at least ten times over the run (docs/cluster.md, "Failover").

What must hold, whatever the timing of the kills:
- every bot process plays all its games to the end and exits 0;
- every replica matched the server's checksums throughout (each bot prints its desyncs: 0);
- nothing acknowledged is lost: a room's log holds at least as many commands as its bots had
  acknowledged (a command acknowledged and then lost would also show as a desync, since the
  node that took the room over would be a step behind the replicas);
- every room taken over replayed with every recorded state hash matching (no node says a room
  was NOT resumed).

Every wait has a bound; the only pacing is waiting for the games to make progress between
kills, so that the kills land in the middle of play.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import psycopg

from arbiter.testing.localservers import LocalRedis
from tests.e2e.procs import ARBITER, wait_for

from .nodes import Node, start_nodes

KILLS = 10
LEASE = 2.0
BOTS = 3  # bot processes at a time, each creating four-player rooms one after another
GAMES = 2  # rooms per bot process
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


def _await_play(nodes: list[Node], kill: int) -> None:
    floor = _actions(nodes)
    wait_for(lambda: _actions(nodes) >= floor + PROGRESS, 120,
             f"play to go on before kill {kill + 1}", every=0.1)


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


def test_games_finish_and_agree_through_ten_kills(tmp_path: Path, redis_server: LocalRedis,
                                                   dsn: str, prefix: str) -> None:
    nodes = start_nodes(tmp_path, 3, redis=redis_server.url, dsn=dsn, prefix=prefix,
                        lease=LEASE)
    urls = ",".join(n.url for n in nodes)
    rng = random.Random(7)
    runs: list[tuple[subprocess.Popen[str], Path]] = []
    seeds = iter(range(1, 1000))
    try:
        running = [_launch(tmp_path, urls, next(seeds)) for _ in range(BOTS)]
        runs.extend(running)
        for kill in range(KILLS):
            # Let the games play on, then kill a node in the middle of them.
            _await_play(nodes, kill)
            victim = _victim(nodes, rng)
            victim.kill()
            victim.start()
            wait_for(lambda v=victim: v.health()[0] == 200, 30, "the node to come back")
            # Bot processes that finished their games are replaced while kills remain, so
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
            assert proc.returncode == 0, f"{path.name}:\n{path.read_text()[-3000:]}"
            played = _played(path)
            assert len(played) == GAMES, path.read_text()
            for room, bots in played.items():
                assert len(bots) == 4, (room, path.read_text())
                assert all(desyncs == 0 for _, desyncs in bots), (room, path.read_text())
                assert _logged(dsn, room) >= sum(actions for actions, _ in bots), room
        for node in nodes:
            assert "NOT resumed" not in node.errors(), node.errors()[-3000:]
            assert "Traceback" not in node.errors(), node.errors()[-3000:]
    finally:
        for proc, _ in runs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
        for node in nodes:
            node.stop()
