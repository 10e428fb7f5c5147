"""Durability (invariant 6): ``arbiter serve`` is killed with SIGKILL mid-game, at several
points, with a command in flight each time. After each kill the log holds every command the
server acknowledged; the restarted server replays every unfinished room to the state hash a
replay of the log gives, and clients that come back with their session tokens get exactly that
state, in the same rooms (a subgame room included)."""

from __future__ import annotations

import random
import re
import signal
import sys
from pathlib import Path
from typing import Any

import trio

from arbiter.bots.strategies import heuristic_strategy
from arbiter.server.rules import Table
from arbiter.server.rules.cards.catalog import cards
from arbiter.server.rules.commands import from_record
from arbiter.server.rules.plain import config_from_wire
from arbiter.server.rules.view import snapshot
from arbiter.server.store.db import DB_NAME, Store
from tests import processes

from .checks import normal
from .harness import Activity, Client
from .test_subgames import LIBRARY, open_rooms, shahrazad_bot

RESUMED = re.compile(r"room (\d+) resumed: game (\d+) .* (\d+) commands, state hash (\w+)")


class ServerProcess:
    """``arbiter serve`` in a child process, on a port the OS chooses."""

    def __init__(self, proc: trio.Process, lines: list[str], port: int) -> None:
        self.proc = proc
        self.lines = lines
        self.port = port

    @classmethod
    async def start(cls, nursery: trio.Nursery, data_dir: Path) -> ServerProcess:
        args = [sys.executable, "-m", "arbiter.server.cli", "serve", "--port", "0", "--data-dir",
                str(data_dir), "--allow-scenarios", "--ping-interval", "0", "--grace", "3600",
                "--rate", "100000", "--burst", "100000", "--log-level", "WARNING"]
        with open(data_dir / "server.err", "ab") as err:
            proc = await trio.lowlevel.open_process(args, stdout=-1, stderr=err,
                                                    start_new_session=True)
        processes.record(proc.pid)  # a group of its own, ended whole (tests/processes.py)
        assert proc.stdout is not None
        lines: list[str] = []
        buffer = b""
        while not any(line.startswith("arbiter: listening") for line in lines):
            chunk = await proc.stdout.receive_some()
            assert chunk, "the server exited: " + (data_dir / "server.err").read_text()
            buffer += chunk
            *done, buffer = buffer.split(b"\n")
            lines.extend(d.decode() for d in done)
        match = re.search(r"ws://127\.0\.0\.1:(\d+)", "\n".join(lines))
        assert match is not None
        server = cls(proc, lines, int(match.group(1)))
        nursery.start_soon(server._drain, buffer)
        return server

    async def _drain(self, buffer: bytes) -> None:
        assert self.proc.stdout is not None
        async for chunk in self.proc.stdout:
            buffer += chunk
            *done, buffer = buffer.split(b"\n")
            self.lines.extend(d.decode() for d in done)

    async def kill(self) -> None:
        if self.proc.returncode is None:
            processes.send(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()


def replayed(store: Store, room: str) -> tuple[int, Table, list[tuple[int, int, int]]]:
    """The room's current game rebuilt from the log alone, and the log's actions."""
    game = [g for g in store.games(int(room)) if g.result is None][-1]
    table = Table(config_from_wire(game.config), game.seed)
    acts = []
    for rec in store.commands(game.id):
        table.apply(from_record(rec.command))
        c = rec.command
        acts.append((c["player"], c["serial"], c["action"]))
    return game.id, table, acts


async def test_sigkill_mid_game_loses_no_acknowledged_command(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    servers: list[ServerProcess] = []
    try:
        await _crash_three_times(nursery, tmp_path, servers)
    finally:
        with trio.CancelScope(shield=True):
            for s in servers:
                await s.kill()


async def _crash_three_times(nursery: trio.Nursery, tmp_path: Path,
                             servers: list[ServerProcess]) -> None:
    activity = Activity()
    server = await ServerProcess.start(nursery, tmp_path)
    servers.append(server)
    # Room A: four players; room B: two players about to play a Shahrazad subgame.
    who: dict[str, tuple[str, int]] = {}  # client name -> (room, seat)
    clients: dict[str, Client] = {}
    for name in ("A0", "A1", "A2", "A3", "B0", "B1"):
        clients[name] = await Client.open(nursery, server.port, name, activity=activity)
    room_a = (await clients["A0"].ok({"t": "create", "config": {
        "variant": "free_for_all", "seats": 4, "seed": 21}}))["r"]
    setups = [{"library": LIBRARY, "hand": ["Shahrazad"], "battlefield": ["Plains", "Plains"]},
              {"library": LIBRARY, "battlefield": ["Plains"]}]
    room_b = (await clients["B0"].ok({"t": "create", "config": {
        "seats": 2, "seed": 4, "scenario": {"players": setups, "active": 0}}}))["r"]
    decks = ["quick-red", "quick-green", "quick-infect", "quick-red"]
    for name, c in clients.items():
        room = room_a if name[0] == "A" else room_b
        seat = await c.join(room, deck=decks[int(name[1])])
        who[name] = (room, seat)
    sessions = {name: c.session for name, c in clients.items()}
    acked: dict[str, list[tuple[int, int, int]]] = {room_a: [], room_b: []}
    strategy_rng = random.Random(3)

    def deciders() -> list[tuple[str, str, dict[str, Any]]]:
        return [(name, room, d) for name, c in clients.items() for room, d in c.pending()]

    turn = [0]

    async def step(*, ack: bool = True, only: str | None = None) -> None:
        """One action, in the two rooms in turn (or in ``only``)."""
        def ready() -> list[tuple[str, str, dict[str, Any]]]:
            return [x for x in deciders() if only is None or who[x[0]][0] == only]
        await activity.until(lambda: bool(ready()))
        turn[0] += 1
        choices = ready()
        name, room, d = choices[turn[0] % len(choices)]
        c = clients[name]
        view = c.tracker.rooms[room].view
        choice = (shahrazad_bot(0, room, d, view) if name[0] == "B"
                  else heuristic_strategy(view, d, strategy_rng, cards()))
        msg = {"t": "act", "r": room, "s": d["serial"], "a": choice}
        if not ack:
            await c.send(msg)  # in flight when the server dies
            return
        reply = await c.call(msg)
        assert reply["t"] in ("d", "ok"), reply
        acked[room_a if room == room_a else room_b].append((who[name][1], d["serial"], choice))

    async def crash_and_restart() -> None:
        nonlocal server
        await step(ack=False)
        await server.kill()
        await activity.until(lambda: all(c.closed for c in clients.values()))
        before = {name: set(open_rooms(c)) for name, c in clients.items()}
        before_rooms = {name: {r for r, rv in c.tracker.rooms.items() if not rv.closed}
                        for name, c in clients.items()}
        store = Store(tmp_path / DB_NAME)
        tables = {}
        for room in (room_a, room_b):
            game_id, table, acts = replayed(store, room)
            # Every acknowledged command is in the log, in order; at most the one in flight
            # follows them.
            assert acts[:len(acked[room])] == acked[room]
            assert len(acts) - len(acked[room]) in (0, 1)
            acked[room] = acts
            tables[room] = (game_id, table)
        store.close()
        server = await ServerProcess.start(nursery, tmp_path)
        servers.append(server)
        resumed = {m.group(1): m for line in server.lines if (m := RESUMED.search(line))}
        for room, (game_id, table) in tables.items():
            line = resumed[room]
            assert int(line.group(2)) == game_id
            assert int(line.group(3)) == len(acked[room])
            assert line.group(4) == table.state_hash()  # the same state hash
        for name in list(clients):
            c = await Client.open(nursery, server.port, session=sessions[name],
                                  activity=activity)
            clients[name] = c
            room, seat = who[name]
            assert c.seats[room][0] == seat
            table = tables[room][1]
            n_games = len(table.games)
            await activity.until(lambda c=c, n=n_games: len(c.tracker.rooms) == n)
            assert {r for r, rv in c.tracker.rooms.items() if not rv.closed} == \
                before_rooms[name]
            assert set(open_rooms(c)) == before[name]
            for g in table.games:
                rid = open_rooms(c)[g.depth]
                assert c.tracker.rooms[rid].view == normal(snapshot(g, seat))

    for _ in range(60):
        await step()
    await crash_and_restart()
    while 1 not in open_rooms(clients["B0"]):  # into the Shahrazad subgame
        await step(only=room_b)
    for _ in range(10):
        await step()
    await crash_and_restart()
    assert 1 in open_rooms(clients["B1"])
    for _ in range(120):
        await step()
    await crash_and_restart()
    for _ in range(20):
        await step()
    await server.kill()
