"""Arbiter as a cluster, measured on this machine: what a node costs against the embedded server,
how long a failover takes, and what two nodes carry against one (docs/cluster.md, "Figures").

    .venv/bin/python bench/cluster.py cost [--rooms 10[,20,40]] [--seconds 10] [--repeat 3]
                                           [--durable] [--pin]
    .venv/bin/python bench/cluster.py failover [--kills 10] [--lease 4]
    .venv/bin/python bench/cluster.py scale [--rooms 40] [--seconds 20] [--think-ms 200]
    .venv/bin/python bench/cluster.py failover-many [--rooms 1000] [--lease 4] [--durable]
    .venv/bin/python bench/cluster.py reconnect [--clients 1000]
    .venv/bin/python bench/cluster.py chaos [--kills 20] [--freezes 3] [--rooms 6] [--lease 4]
                                            [--think-ms 200] [--durable]
    .venv/bin/python bench/cluster.py all

``cost``: one cluster node (throwaway Redis and PostgreSQL on this machine) against the embedded
server with its SQLite log, loaded by bench/server.py's clients; runs alternate (embedded,
cluster, embedded, ...) so each pair saw the same noise. ``--rooms`` may list several loads
(``10,20,40``): each is measured in turn, and a last table sets their medians side by side.
Each run prints both rates and each server's CPU per action: with few rooms in lockstep the
rate follows each action's commit latency, and CPU per action is what a saturated node costs.
It also prints how long a node's batch is out, from its send to its answer read (the event
loop's turn included), from the node's /metrics.
PostgreSQL runs without fsync unless ``--durable`` (SQLite's NORMAL sync does not fsync each
commit either). ``--pin`` gives the server under test (either) core 0 and everything else (the
load generator, PostgreSQL, Redis) the other cores, as in a deployment where PostgreSQL has a
machine of its own: unpinned, the node shares its core with PostgreSQL's backends, which the
embedded server never does.

``failover``: two nodes at the default lease; each round seats two bots in a room, lets them
play, SIGKILLs the node that holds the room and times (a) until another node has claimed it in
the log and (b) until a bot's action is acknowledged again (what a player sees; the SDK's
reconnection backoff included). The killed node is started again before the next round.

``failover-many``: a node dies holding ``--rooms`` rooms, each with a game under way; times
how long after its death another node serves every one of them again (restored in its core,
from /metrics), and the first and last claims. The rooms are one real game, played on the node
by two bots, and copies of it in the log under other room and game numbers (the same commands
and state hashes, so each replays and is checked like the original); the node is SIGKILLed
and the copies get leases in its name at once, as if it had renewed them as it died. The
clock starts at the SIGKILL (the copies' leases are a little younger: the figure errs long).

``reconnect``: what a blip costs a node: ``--clients`` sessions say hello to one node, drop
their connections, then all come back at once with their sessions (a websocket handshake and a
hello each); prints the time until every one was welcomed again and the node's CPU per hello.

``chaos``: three nodes, ``--rooms`` two-player rooms kept playing by bots (a new room when a
match ends) through every node's entry URL, and ``--kills`` SIGKILLs and ``--freezes`` SIGSTOPs
(three leases long, then SIGCONT) of a node holding rooms, one after another while the tables
play. For each room the struck node held it times, from the signal, the next action
acknowledged to its bots (the client-side failover: the SDK noticing, reconnecting, being
redirected, the lease lapsing, the claim and replay); a killed node is started again once
its rooms act elsewhere. Prints p50, p90 and max for kills, freezes and both, and the SDK's
connects and redirects per real disconnect (its reconnect storm, issue 27.4).

``scale``: ``arbiter loadtest`` against one node, then against two nodes (its clients spread
over both entry URLs), same rooms and think time; the load generator shares the machine's
cores with the nodes.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)  # so that ``bench.*`` and ``tests.*`` import as packages

import psycopg  # noqa: E402
import trio  # noqa: E402

from arbiter.bots.strategies import STRATEGIES  # noqa: E402
from arbiter.clients.bots.net import NetBot  # noqa: E402
from arbiter.clients.sdk import Client, ConnectionLost, RequestError  # noqa: E402
from arbiter.server.cluster.directory import Directory  # noqa: E402
from arbiter.server.cluster.pglog import ClusterLog  # noqa: E402
from arbiter.testing.localservers import LocalPostgres, LocalRedis, free_port  # noqa: E402
from bench._netrun import cpu_per_action_us, run_one  # noqa: E402

ARBITER = [sys.executable, "-m", "arbiter.server.cli"]


# ---------------------------------------------------------------------------- nodes


class Node:
    """``arbiter serve`` in cluster mode on 127.0.0.1:``port``."""

    def __init__(self, folder: Path, redis: str, dsn: str, prefix: str,
                 lease: float | None, extra: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.folder = folder
        self.args = [*ARBITER, "serve", "--port", str(self.port), "--data-dir",
                     str(folder / f"node{self.port}"), "--redis", redis, "--postgres", dsn,
                     "--key-prefix", prefix, "--log-level", "WARNING", "--rate", "1000000",
                     "--burst", "1000000", *(["--lease", f"{lease:g}"] if lease else []),
                     *extra]
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    @property
    def node_id(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        with open(self.folder / f"node{self.port}.err", "ab") as err:
            self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 30
        while self.health() != 200:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"node {self.port} did not start: see "
                                   f"{self.folder / f'node{self.port}.err'}")
            time.sleep(0.05)

    def log_tail(self, chars: int = 1500) -> str:
        path = self.folder / f"node{self.port}.err"
        text = path.read_text(errors="replace") if path.exists() else ""
        return f"{self.node_id}: {text[-chars:]!r}"

    def health(self) -> int:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz",
                                        timeout=2) as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)
        except OSError:
            return 0

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@contextmanager
def services(durable: bool = False) -> Iterator[tuple[LocalRedis, LocalPostgres]]:
    # On TCP, as a deployment's nodes connect: the figures are a deployment's.
    with LocalRedis(tcp=True) as redis, LocalPostgres(durable=durable, tcp=True) as postgres:
        yield redis, postgres


@contextmanager
def nodes(count: int, redis: LocalRedis, postgres: LocalPostgres, name: str,
          lease: float | None = None, extra: tuple[str, ...] = ()
          ) -> Iterator[tuple[list[Node], str]]:
    """``count`` nodes on a fresh database ``name``; yields them and the database's DSN."""
    dsn = postgres.create_database(name)
    with tempfile.TemporaryDirectory() as folder:
        started = [Node(Path(folder), redis.url, dsn, f"{name}:", lease, extra)
                   for _ in range(count)]
        try:
            for node in started:
                node.start()
            yield started, dsn
        finally:
            for node in started:
                node.stop()


# ---------------------------------------------------------------------------- cost


def cost(args: argparse.Namespace) -> None:
    server_cpus = None
    if args.pin:
        cpus = sorted(os.sched_getaffinity(0))
        if len(cpus) < 2:
            raise SystemExit("--pin needs two cores at least")
        server_cpus = {cpus[0]}
        os.sched_setaffinity(0, set(cpus[1:]))  # PostgreSQL and Redis, started below, inherit it
        print(f"  pinned: the server on core {cpus[0]}, everything else on {cpus[1:]}")
    loads = [int(n) for n in str(args.rooms).split(",")]
    summary: list[tuple[int, float, float, float]] = []
    with services(args.durable) as (redis, postgres):
        for rooms in loads:
            summary.append((rooms, *_cost(args, rooms, redis, postgres, server_cpus)))
    if len(loads) > 1:
        print("== cost by load (medians)\n  rooms  node/embedded  CPU per action, embedded / "
              "node")
        for rooms, ratio, embedded_us, node_us in summary:
            print(f"  {rooms:5d}  {ratio:13.2f}  {embedded_us:.0f} / {node_us:.0f} us "
                  f"({100 * (node_us / embedded_us - 1):+.0f}%)")


def _cost(args: argparse.Namespace, rooms: int, redis: LocalRedis, postgres: LocalPostgres,
          server_cpus: set[int] | None) -> tuple[float, float, float]:
    """The pairs of runs of one load; returns its medians (ratio, CPU per action of each)."""
    print(f"== cost: {rooms} rooms of 4 bench players, {args.seconds:g} s a run, "
          f"{args.repeat} pairs (PostgreSQL fsync {'on' if args.durable else 'off'})",
          flush=True)
    pairs: list[tuple[float, float]] = []
    cpu_us: list[tuple[float, float]] = []  # server CPU per action, embedded and node
    for run in range(args.repeat):
        embedded = trio.run(run_one, "arbiter", rooms, args.seconds, [], False, server_cpus)
        dsn = postgres.create_database(f"cost{rooms}x{run}")
        port = free_port()  # a node needs a fixed port: its public URL names it
        extra = ["--port", str(port), "--redis", redis.url, "--postgres", dsn,
                 "--key-prefix", f"cost{rooms}x{run}:"]
        wal_before = _wal(dsn)
        node = trio.run(run_one, "arbiter", rooms, args.seconds, extra, False, server_cpus)
        wal = _wal(dsn) - wal_before  # the whole server's: nothing else writes meanwhile
        e, c = embedded["actions_per_s"], node["actions_per_s"]
        pairs.append((e, c))
        cpu_us.append((cpu_per_action_us(embedded), cpu_per_action_us(node)))
        rows, row_bytes, table_bytes = _log_size(dsn)
        print(f"  run {run + 1}: embedded {e:,.0f} actions/s (server CPU "
              f"{embedded['server_cpu_share']}), cluster node {c:,.0f} actions/s "
              f"(server CPU {node['server_cpu_share']}, p50 {node['latency_p50_ms']} ms "
              f"vs {embedded['latency_p50_ms']} ms, {node['commands_per_commit']} commands "
              f"per commit, {node.get('commit_mean_us', 0)} us a commit), node/embedded "
              f"{c / e:.2f}; log: {rows:,} commands, {row_bytes:.0f} B a row, "
              f"{table_bytes / max(1, rows):.0f} B a command with indexes, WAL "
              f"{wal / max(1, rows):.0f} B a command ({wal / args.seconds / 1e6:.2f} MB/s)",
              flush=True)
    ratios = [c / e for e, c in pairs]
    print(f"  node/embedded actions per second: median {statistics.median(ratios):.2f} "
          f"(fewer by {100 * (1 - statistics.median(ratios)):.0f}%)")
    # The rate above is what this load gets: with few rooms in lockstep it is bound by each
    # action's commit latency as much as by CPU. CPU per action is what a saturated node costs.
    embedded_us = statistics.median(e for e, _ in cpu_us)
    node_us = statistics.median(c for _, c in cpu_us)
    print(f"  server CPU per action: embedded {embedded_us:.0f} us, node {node_us:.0f} us "
          f"(medians; the node {100 * (node_us / embedded_us - 1):+.0f}%)")
    return statistics.median(ratios), embedded_us, node_us


def _wal(dsn: str) -> int:
    """The server's write-ahead log position, in bytes."""
    with psycopg.connect(dsn, autocommit=True) as db:
        row = db.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')").fetchone()
    assert row is not None
    return int(row[0])


def _log_size(dsn: str) -> tuple[int, float, int]:
    """Commands in the log, their mean row size, and the table's size with its indexes."""
    with psycopg.connect(dsn, autocommit=True) as db:
        row = db.execute("SELECT count(*), coalesce(avg(pg_column_size(c.*)), 0), "
                         "pg_total_relation_size('commands') FROM commands c").fetchone()
    assert row is not None
    return int(row[0]), float(row[1]), int(row[2])


# ---------------------------------------------------------------------------- failover


def _state(bot: NetBot, room: str) -> str:
    c = bot.client
    rooms = {r: (rv.epoch, rv.seq, rv.stale, rv.closed, (rv.actions or {}).get("serial"))
             for r, rv in c.tracker.rooms.items()}
    return (f"actions {bot.record.actions} lost {bot.record.lost} refused "
            f"{bot.record.refused}; connected {c.connected} to {c.url}; rooms {rooms}; "
            f"stats {c.stats}; closed {c.closed}; over {c.match_over(room)}; "
            f"decisions {[(r, d.get('serial')) for r, d in c.decisions(room)]}")


async def _round(cluster: list[Node], redis: LocalRedis, log: ClusterLog, prefix: str,
                 rng: random.Random) -> tuple[float, float] | None:
    """One kill: (seconds to the claim, seconds to the next acknowledged action), or None if
    the game ended before the kill."""
    urls = [n.url for n in cluster]
    bots: list[NetBot] = []
    async with trio.open_nursery() as nursery:
        clients = [Client(urls, f"P{i}") for i in range(2)]
        for client in clients:
            await nursery.start(client.run)
        room = await clients[0].create({"seats": 2})
        for seat, client in enumerate(clients):
            await client.join(room, seat, deck=("quick-red", "quick-green")[seat])
            bot = NetBot(client, STRATEGIES["random"], random.Random(rng.random()))
            bots.append(bot)
            nursery.start_soon(bot.play, room)

        def acted() -> int:
            return sum(b.record.actions for b in bots)

        with trio.fail_after(60):
            while acted() < 12:
                await trio.sleep(0.01)
        async with Directory(redis.url, prefix=prefix) as directory:
            lease = await directory.lease(int(room))
        if lease is None:
            nursery.cancel_scope.cancel()
            return None
        holder = next(n for n in cluster if n.node_id == lease.node)
        before = await log.owner(int(room))
        assert before is not None
        killed = time.perf_counter()
        holder.kill()
        # Acknowledgements already on their way when the node died do not count: the first
        # action acknowledged after another node claimed the room does.
        claimed = None
        count = 0
        with trio.move_on_after(60) as waited:  # a failover this long is a bug to look at
            while True:
                if claimed is None:
                    owner = await log.owner(int(room))
                    if owner is not None and owner.epoch > before.epoch:
                        claimed = time.perf_counter() - killed
                        count = acted()
                elif acted() > count:
                    break
                await trio.sleep(0.01)
        if waited.cancelled_caught:
            raise RuntimeError(
                f"room {room}: 60 s after the kill of {holder.node_id}, "
                + ("not claimed" if claimed is None else
                   f"claimed after {claimed:.2f} s, but no action acknowledged since")
                + f" (owner now {await log.owner(int(room))}; bots "
                f"{[_state(b, room) for b in bots]}); node logs: "
                + "; ".join(n.log_tail() for n in cluster))
        resumed = time.perf_counter() - killed
        nursery.cancel_scope.cancel()
    await trio.to_thread.run_sync(holder.start)
    assert claimed is not None  # the wait above ends only on an action after the claim
    return claimed, resumed


async def _failover(cluster: list[Node], redis: LocalRedis, dsn: str, prefix: str,
                    kills: int) -> list[tuple[float, float]]:
    rng = random.Random(3)
    out: list[tuple[float, float]] = []
    async with ClusterLog(dsn, node="bench") as log:
        while len(out) < kills:
            got = await _round(cluster, redis, log, prefix, rng)
            if got is not None:
                out.append(got)
                print(f"  kill {len(out)}: claimed after {got[0]:.2f} s, an action "
                      f"acknowledged again after {got[1]:.2f} s", flush=True)
    return out


def failover(args: argparse.Namespace) -> None:
    lease = args.lease
    print(f"== failover: {args.kills} SIGKILLs of the node holding a room, two nodes, lease "
          f"{lease:g} s")
    with services() as (redis, postgres):
        name = "failover"
        with nodes(2, redis, postgres, name, lease) as (cluster, dsn):
            times = trio.run(_failover, cluster, redis, dsn, f"{name}:", args.kills)
    for label, values in (("claimed", [t[0] for t in times]),
                          ("acting again", [t[1] for t in times])):
        print(f"  {label}: p50 {statistics.median(values):.2f} s, max {max(values):.2f} s, "
              f"min {min(values):.2f} s over {len(values)} kills")


# ---------------------------------------------------------------------------- chaos


# A freeze lasts this many leases: longer than one, so that the node's rooms are claimed
# elsewhere, and long enough that its clients acting again before the SIGCONT shows they
# noticed the silent node and moved on by themselves (the SDK's heartbeats), rather than
# waiting for it to wake.
FREEZE = 3.0


class _Slot:
    """One table kept busy through the run: two bots in a two-player room, a new room when
    the match ends. What the run reads: the room, and how many actions were acknowledged."""

    def __init__(self) -> None:
        self.room: str | None = None
        self.bots: list[NetBot] = []
        self.done = 0  # actions acknowledged in this slot's finished rooms

    def acted(self) -> int:
        return self.done + sum(b.record.actions for b in self.bots)


async def _patient(call: Any) -> Any:
    """``call()``, again a moment later while the cluster says "not now" (a create or join
    that meets a node's death), for at most a minute."""
    deadline = trio.current_time() + 60
    while True:
        try:
            return await call()
        except (RequestError, ConnectionLost):
            if trio.current_time() > deadline:
                raise
        await trio.sleep(0.5)


async def _keep_playing(slot: _Slot, urls: list[str], clients: list[Client],
                        rng: random.Random, think: float) -> None:
    while True:
        async with trio.open_nursery() as nursery:
            pair = [Client(urls, f"C{len(clients) + i}") for i in range(2)]
            clients.extend(pair)
            for client in pair:
                await nursery.start(client.run)
            room = await _patient(functools.partial(pair[0].create, {"seats": 2}))
            bots = []
            for seat, client in enumerate(pair):
                await _patient(functools.partial(client.join, room, seat,
                                                 deck=("quick-red", "quick-green")[seat]))
                bots.append(NetBot(client, STRATEGIES["random"], random.Random(rng.random()),
                                   think=think))
            slot.room, slot.bots = room, bots
            async with trio.open_nursery() as players:
                for bot in bots:
                    players.start_soon(bot.play, room)
            slot.done += sum(b.record.actions for b in bots)
            slot.room, slot.bots = None, []
            nursery.cancel_scope.cancel()


async def _strike(kind: str, cluster: list[Node], slots: list[_Slot], redis: LocalRedis,
                  prefix: str, lease: float, rng: random.Random) -> list[float]:
    """One SIGKILL or freeze (SIGSTOP for FREEZE leases, then SIGCONT) of a node holding rooms;
    returns, for each room it held, the seconds from the signal to that room's next action
    acknowledged to its players (what a player waits)."""
    playing = {slot.room: slot for slot in slots if slot.room is not None}
    async with Directory(redis.url, prefix=prefix) as directory:
        leases = await directory.leases([int(r) for r in playing])
    held: dict[str, list[str]] = {}
    for room, held_by in leases.items():
        if held_by is not None:
            held.setdefault(held_by.node, []).append(str(room))
    victim = rng.choice([n for n in cluster if held.get(n.node_id)] or cluster)
    rooms = held.get(victim.node_id, [])
    floor = {room: playing[room].acted() for room in rooms}
    struck = time.perf_counter()
    if kind == "kill":
        victim.kill()
    else:
        assert victim.proc is not None
        victim.proc.send_signal(signal.SIGSTOP)
    waits: dict[str, float] = {}
    thawed = kind == "kill"
    with trio.move_on_after(60):  # a failover this long is a bug to look at
        while len(waits) < len(rooms) or not thawed:
            now = time.perf_counter()
            for room in rooms:
                if room not in waits and playing[room].acted() > floor[room]:
                    waits[room] = now - struck
            if not thawed and now - struck >= FREEZE * lease:
                assert victim.proc is not None
                victim.proc.send_signal(signal.SIGCONT)
                thawed = True
            await trio.sleep(0.02)
    if not thawed:
        assert victim.proc is not None
        victim.proc.send_signal(signal.SIGCONT)
    missing = sorted(set(rooms) - set(waits))
    if missing:
        raise RuntimeError(f"{kind} of {victim.node_id}: rooms {missing} acted no more "
                           f"within 60 s; " + "; ".join(n.log_tail() for n in cluster))
    if kind == "kill":  # started again once its rooms live elsewhere: a machine replaced
        await trio.to_thread.run_sync(victim.start)
    return [waits[room] for room in rooms]


async def _chaos(cluster: list[Node], redis: LocalRedis, prefix: str, lease: float,
                 events: list[str], rooms: int, think: float
                 ) -> tuple[dict[str, list[float]], list[Client]]:
    rng = random.Random(27)
    urls = [n.url for n in cluster]
    slots = [_Slot() for _ in range(rooms)]
    clients: list[Client] = []
    waits: dict[str, list[float]] = {"kill": [], "freeze": []}
    async with trio.open_nursery() as nursery:
        for slot in slots:
            nursery.start_soon(_keep_playing, slot, urls, clients,
                               random.Random(rng.random()), think)
        for n, kind in enumerate(events, 1):
            floor = [slot.acted() for slot in slots]
            with trio.move_on_after(120) as stalled:  # every table plays between two events
                while not all(slot.room is not None and slot.acted() >= f + 10
                              for slot, f in zip(slots, floor, strict=True)):
                    await trio.sleep(0.05)
            if stalled.cancelled_caught:
                raise RuntimeError(
                    f"before event {n}, a table did not play for 120 s: "
                    + "; ".join(f"room {slot.room}: {slot.acted() - f} actions, bots "
                                f"{[_state(b, slot.room) for b in slot.bots]}"
                                for slot, f in zip(slots, floor, strict=True)
                                if slot.room is not None and slot.acted() < f + 10)
                    + "; node logs: " + "; ".join(n.log_tail() for n in cluster))
            got = await _strike(kind, cluster, slots, redis, prefix, lease, rng)
            waits[kind] += got
            print(f"  {n:2d} {kind:6s}: {len(got)} rooms acting again after "
                  + (", ".join(f"{w:.2f}" for w in sorted(got)) or "-") + " s", flush=True)
        nursery.cancel_scope.cancel()
    return waits, clients


def chaos(args: argparse.Namespace) -> None:
    kills, freezes, lease = args.kills, args.freezes, args.lease
    rooms = int(args.rooms or 6)
    # The freezes spread among the kills: a kill, then every few kills a freeze.
    events = ["kill"] * kills
    for i in range(freezes):
        events.insert((i + 1) * len(events) // (freezes + 1) + i, "freeze")
    print(f"== chaos: three nodes, lease {lease:g} s, {rooms} two-player rooms kept playing "
          f"(think {args.think_ms:g} ms); {kills} SIGKILLs and {freezes} freezes (SIGSTOP "
          f"for {FREEZE * lease:g} s) of a node holding rooms; PostgreSQL fsync "
          f"{'on' if args.durable else 'off'}, Redis with its append-only file", flush=True)
    # A frozen node's connections time out on the clients' side: websockets logs each.
    logging.getLogger("websockets").setLevel(logging.CRITICAL)
    with services(args.durable) as (redis, postgres), \
            nodes(3, redis, postgres, "chaos", lease) as (cluster, _):
        waits, clients = trio.run(_chaos, cluster, redis, "chaos:", lease, events, rooms,
                                  args.think_ms / 1000)
    everything = waits["kill"] + waits["freeze"]
    for label, values in (("kills", waits["kill"]), ("freezes", waits["freeze"]),
                          ("all", everything)):
        if values:
            p90 = (statistics.quantiles(values, n=10, method="inclusive")[-1]
                   if len(values) > 1 else values[0])
            print(f"  client-side failover, {label}: p50 {statistics.median(values):.2f} s, "
                  f"p90 {p90:.2f} s, max {max(values):.2f} s over {len(values)} rooms struck")
    lost = sum(c.stats.disconnects for c in clients)
    connects = sum(c.stats.connects for c in clients) - len(clients)  # past each first
    redirects = sum(c.stats.redirects for c in clients)
    print(f"  {len(clients)} clients: {lost} real disconnects, {connects} connects past the "
          f"first and {redirects} redirects: {connects / max(1, lost):.2f} connects and "
          f"{redirects / max(1, lost):.2f} redirects per real disconnect")


# ---------------------------------------------------------------------------- failover-many


async def _one_game(node: Node, actions: int) -> int:
    """A room on ``node`` with a game ``actions`` actions in (two bots), left unfinished."""
    rng = random.Random(11)
    async with trio.open_nursery() as nursery:
        clients = [Client([node.url], f"P{i}") for i in range(2)]
        for client in clients:
            await nursery.start(client.run)
        room = await clients[0].create({"seats": 2})
        bots = []
        for seat, client in enumerate(clients):
            await client.join(room, seat, deck=("quick-red", "quick-green")[seat])
            bot = NetBot(client, STRATEGIES["random"], random.Random(rng.random()))
            bots.append(bot)
            nursery.start_soon(bot.play, room)
        with trio.fail_after(60):
            while sum(b.record.actions for b in bots) < actions:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    return int(room)


def _copies(dsn: str, room: int, copies: int) -> list[int]:
    """``copies`` copies of ``room`` in the log (rows, seats, games, commands), under new room
    and game numbers past the sequences; returns their room numbers."""
    with psycopg.connect(dsn, autocommit=True) as db, db.transaction():
        base_room = int(db.execute("SELECT max(id) FROM rooms").fetchone()[0])  # type: ignore[index]
        base_game = int(db.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0])  # type: ignore[index]
        k = "generate_series(1, %(copies)s) AS k"
        args = {"room": room, "copies": copies, "r": base_room, "g": base_game}
        db.execute(f"INSERT INTO rooms SELECT id - %(room)s + %(r)s + k, name, config, creator, "
                   f"state, created, owner, epoch FROM rooms, {k} WHERE id = %(room)s", args)
        db.execute(f"INSERT INTO seats SELECT room - %(room)s + %(r)s + k, seat, token, session,"
                   f" name, deck, bot, epoch FROM seats, {k} WHERE room = %(room)s", args)
        db.execute(f"INSERT INTO games SELECT id + %(g)s * k, room - %(room)s + %(r)s + k, "
                   f"number, seed, config, chooser, started, result, final_hash, epoch "
                   f"FROM games, {k} WHERE room = %(room)s", args)
        db.execute(f"INSERT INTO commands SELECT game + %(g)s * k, n, room - %(room)s + %(r)s "
                   f"+ k, command, hash, clocks, at, epoch FROM commands, {k} "
                   f"WHERE room = %(room)s", args)
        db.execute("SELECT setval('room_ids', (SELECT max(id) FROM rooms)), "
                   "setval('game_ids', (SELECT max(id) FROM games))")
    return [base_room + k for k in range(1, copies + 1)]


def _served(node: Node) -> int:
    """Match rooms held in ``node``'s core (restored and open), from its /metrics."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{node.port}/metrics", timeout=5) as r:
            text = r.read().decode()
    except OSError:
        return 0
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in text.splitlines()
               if line.startswith("arbiter_rooms{") and 'state="finished"' not in line)


async def _failover_many(cluster: list[Node], redis: LocalRedis, dsn: str, prefix: str,
                         rooms: int, lease: float) -> tuple[float, float, float, int]:
    dying, survivor = cluster
    room = await _one_game(dying, 40)
    with psycopg.connect(dsn, autocommit=True) as db:
        commands = db.execute("SELECT count(*) FROM commands WHERE room = %s",
                              (room,)).fetchone()
    killed = time.perf_counter()
    dying.kill()
    copies = await trio.to_thread.run_sync(_copies, dsn, room, rooms - 1)
    async with Directory(redis.url, prefix=prefix) as directory:
        # Leases in the dead node's name, as it held them when it died (many at once: each
        # call is a round trip, and the sooner they are all there the truer the figure).
        async def acquire(batch: list[int]) -> None:
            for copy in batch:
                await directory.acquire(copy, node=dying.node_id, epoch=1, ttl=lease)
        async with trio.open_nursery() as nursery:
            for i in range(32):
                nursery.start_soon(acquire, copies[i::32])
    set_up = time.perf_counter() - killed
    first = None
    with trio.fail_after(600):
        while True:
            served = await trio.to_thread.run_sync(_served, survivor)
            if served and first is None:
                first = time.perf_counter() - killed
            if served >= rooms:
                break
            await trio.sleep(0.05)
    done = time.perf_counter() - killed
    assert first is not None
    return set_up, first, done, int(commands[0]) if commands else 0


def failover_many(args: argparse.Namespace) -> None:
    rooms = int(args.rooms or 1000)
    print(f"== failover-many: a node dies with {rooms} rooms (a game under way in each), "
          f"one live node claims them; lease {args.lease:g} s, PostgreSQL fsync "
          f"{'on' if args.durable else 'off'}", flush=True)
    with services(args.durable) as (redis, postgres):
        name = "many"
        with nodes(2, redis, postgres, name, args.lease, ("--max-rooms", str(2 * rooms))
                   ) as (cluster, dsn):
            set_up, first, done, commands = trio.run(_failover_many, cluster, redis, dsn,
                                                     f"{name}:", rooms, args.lease)
            survivor = cluster[1]
            claims = _metric(survivor, "arbiter_cluster_claims_total")
            failures = _metric(survivor, "arbiter_cluster_claim_failures_total")
    print(f"  {rooms} rooms of {commands} commands each; leases in place {set_up:.2f} s after "
          f"the kill; first room served again after {first:.2f} s, all {rooms} after "
          f"{done:.2f} s ({done - first:.2f} s of claims and replays after the first, "
          f"{1000 * (done - first) / max(1, rooms - 1):.1f} ms a room); {claims:.0f} claims, "
          f"{failures:.0f} failed")


def _metric(node: Node, name: str) -> float:
    with urllib.request.urlopen(f"http://127.0.0.1:{node.port}/metrics", timeout=5) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


# ---------------------------------------------------------------------------- reconnect


async def _reconnect(node: Node, clients: int) -> tuple[float, float]:
    from bench._netclient import process_cpu_seconds
    from tests.server.harness import Activity
    from tests.server.harness import Client as WireClient

    assert node.proc is not None
    activity = Activity()  # replies awaited as they arrive (the node is another process)
    async with trio.open_nursery() as nursery:
        sessions, opened = [], []
        for i in range(0, clients, 2):  # seated in two-player rooms, their games started
            pair = [await WireClient.open(nursery, node.port, f"P{i + k}", activity=activity)
                    for k in range(2)]
            room = str((await pair[0].ok({"t": "create", "config": {"seats": 2}}))["r"])
            for client, deck in zip(pair, ("quick-red", "quick-green"), strict=True):
                await client.join(room, deck=deck)
            sessions += [c.session for c in pair]
            opened += pair
        for client in opened:  # the blip: every connection drops
            await client.ws.aclose()
        cpu = process_cpu_seconds(node.proc.pid)
        started = time.perf_counter()

        async def back(session: str | None) -> None:
            await WireClient.open(nursery, node.port, session=session, activity=activity)

        async with trio.open_nursery() as wave:
            for session in sessions:
                wave.start_soon(back, session)
        wall = time.perf_counter() - started
        used = process_cpu_seconds(node.proc.pid) - cpu
        nursery.cancel_scope.cancel()
    return wall, used


def reconnect(args: argparse.Namespace) -> None:
    clients = int(args.clients)
    print(f"== reconnect: {clients} sessions come back to one node at once", flush=True)
    with services() as (redis, postgres), nodes(1, redis, postgres, "blip") as (cluster, _):
        wall, cpu = trio.run(_reconnect, cluster[0], clients)
    print(f"  all welcomed again after {wall:.2f} s ({clients / wall:,.0f} hellos/s); node CPU "
          f"{cpu:.2f} s, {1e6 * cpu / clients:.0f} us a reconnect (handshake and hello)")


# ---------------------------------------------------------------------------- scale


def _loadtest(urls: list[str], args: argparse.Namespace, out: Path) -> dict[str, Any]:
    report = out / f"load{len(urls)}.json"
    subprocess.run(
        [*ARBITER, "loadtest", "--url", ",".join(urls), "--rooms", str(args.rooms),
         "--duration", f"{args.seconds:g}", "--think-ms", f"{args.think_ms:g}",
         "--ramp", "2", "--strategy", "random", "--seed", "5", "--json", str(report),
         "--png", str(out / f"load{len(urls)}.png"), "--no-live",
         "--workers", str(args.workers)],
        check=True, stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    summary: dict[str, Any] = json.loads(report.read_text())
    return summary


def scale(args: argparse.Namespace) -> None:
    print(f"== scale: arbiter loadtest, {args.rooms} rooms of 4, think {args.think_ms:g} ms, "
          f"{args.seconds:g} s, {args.workers} load worker(s)")
    with services() as (redis, postgres), tempfile.TemporaryDirectory() as folder:
        for count in (1, 2):
            with nodes(count, redis, postgres, f"scale{count}") as (cluster, _):
                s = _loadtest([n.url for n in cluster], args, Path(folder))
                print(f"  {count} node{'s' if count > 1 else ''}: "
                      f"{s['actions_per_second']:,.0f} actions/s, latency p50 "
                      f"{s['latency_ms']['p50']} ms, p99 {s['latency_ms']['p99']} ms, "
                      f"{s['games_finished']} games, {s['errors']} errors, "
                      f"{s['redirects']} redirects", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("cost", "failover", "failover-many", "reconnect",
                                         "scale", "chaos", "all"))
    parser.add_argument("--rooms", default=None,
                        help="rooms of 4 players; cost takes a list (10,20,40), scale one")
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--durable", action="store_true")
    parser.add_argument("--pin", action="store_true",
                        help="cost: the server on a core of its own (see above)")
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--freezes", type=int, default=3)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--lease", type=float, default=4.0)
    parser.add_argument("--think-ms", type=float, default=200.0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if args.what in ("cost", "all"):
        cost(argparse.Namespace(**{**vars(args), "rooms": args.rooms or 10,
                                   "seconds": args.seconds or 10.0}))
    if args.what in ("failover", "all"):
        failover(args)
    if args.what in ("failover-many", "all"):
        failover_many(args)
    if args.what in ("reconnect", "all"):
        reconnect(args)
    if args.what == "chaos":  # minutes long: not part of "all"
        chaos(args)
    if args.what in ("scale", "all"):
        scale(argparse.Namespace(**{**vars(args), "rooms": int(args.rooms or 40),
                                    "seconds": args.seconds or 20.0}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
