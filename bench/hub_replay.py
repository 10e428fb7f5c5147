"""The room core's CPU per command, without the network, the clock or the machine's load.

    .venv/bin/python bench/hub_replay.py [--seed 1] [--repeat 5] [--profile tottime]
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python bench/hub_replay.py --repeat 1 --instructions

First plays one four-player Free-for-All game as bench/server.py's rooms play (random bots,
its decks, room slot 0) through the pure room core (tests/rooms/sim.py), recording every frame
the players send. Then replays those frames through a fresh :class:`Hub` seeded the same way,
``--repeat`` times, timing :meth:`Hub.receive` alone (the effects are collected, not carried
out: no SQLite, no sockets), and prints µs of CPU per command (the median replay), and a
digest of every frame each connection was sent: a change that keeps the wire bytes identical
keeps the digest. ``--store`` writes each command's records to a real SQLite log too (timed
apart). ``--instructions`` replays once more after a marker line so that two valgrind runs
(``--repeat 0`` and ``--repeat 1``) give instructions per command by difference; ``--profile
tottime|cumulative`` prints cProfile's top 30 of the replays. ``--instructions --store``
counts the log writer alone instead: each repeat writes every command's records (collected
from one replay before the marker) to a fresh SQLite log, the games' commands interleaved
as concurrent rooms' are and ``--batch`` commands to a transaction, as the commit gate
batches them; ``--log-writer`` times those writes (CPU per command, median of the
repeats). ``--touch MIB`` writes to MIB mebibytes of memory between two commands,
outside the timing, as the kernel's socket calls, SQLite and the other rooms do between two
commands in a server: what the room core costs with its caches cold (docs/measurements.md,
"where the rest of the gap goes").
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import hashlib
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)  # so that ``bench.*`` and ``tests.*`` import as packages

from arbiter.server.rooms.context import HubSettings, SeededEntropy  # noqa: E402
from arbiter.server.rooms.hub import Hub  # noqa: E402
from arbiter.server.rooms.peers import Limits  # noqa: E402
from arbiter.server.store.db import Store  # noqa: E402
from arbiter.server.store.records import Record  # noqa: E402
from bench._netclient import DECKS  # noqa: E402
from tests.rooms.sim import Sim  # noqa: E402

NOW = 1000.0
ENTROPY_SEED = 7


def record(seed: int, slot: int) -> list[tuple[int, bytes]]:
    """Every frame the four players of room slot ``slot`` send while playing one game to its
    end: (player, frame)."""
    sim = Sim(seed=ENTROPY_SEED, now=NOW)
    sent: list[tuple[int, bytes]] = []
    hub_receive = sim.hub.receive
    players: list[Any] = []

    def receive(peer: Any, frame: bytes | str, now: float, resolved: Any = None) -> Any:
        sent.append((int(peer.sink.name[3:]), bytes(frame)))
        return hub_receive(peer, frame, now, resolved)

    sim.hub.receive = receive  # type: ignore[method-assign]
    names = tuple(f"bot{n}" for n in range(4))
    for name in names:
        players.append(sim.connect(name))
    room = players[0].ok({"t": "create", "config": {
        "variant": "free_for_all", "seats": 4, "seed": seed}})["r"]
    for n, p in enumerate(players):
        p.join(room, deck=DECKS[(slot * len(players) + n) % len(DECKS)])
    sim.play(dict(enumerate(players)), rng=random.Random(seed))
    return sent


class Sink:
    """A connection's far end that only counts: the replay hashes frames outside the timing."""


def replay(games: list[list[tuple[int, bytes]]], logs: Path | None = None, touch: int = 0
           ) -> tuple[float, float, str]:
    """Feed each game's frames to a fresh hub; return the CPU seconds in :meth:`Hub.receive`,
    in writing records (to a SQLite log per game in the folder ``logs``), and a digest of
    every frame sent to each connection."""
    spent = writing = 0.0
    digests = []
    for sent in games:
        store = Store(logs / f"log{len(digests)}.sqlite3") if logs is not None else None
        s, w, d = replay_one(sent, store, touch)
        if store is not None:
            store.close()
        spent, writing = spent + s, writing + w
        digests.append(d)
    return spent, writing, hashlib.sha256("".join(digests).encode()).hexdigest()[:16]


def replay_one(sent: list[tuple[int, bytes]], store: Store | None, touch: int = 0
               ) -> tuple[float, float, str]:
    hub = Hub(HubSettings(allow_scenarios=True), Limits(rate=1e9, burst=10**9),
              entropy=SeededEntropy(ENTROPY_SEED))
    peers = [hub.connect(Sink(), "10.0.0.1", NOW) for _ in range(4)]
    digests = [hashlib.sha256() for _ in peers]
    index = {id(p): n for n, p in enumerate(peers)}
    receive = hub.receive
    clock = time.process_time
    spent = writing = 0.0
    for n, frame in sent:
        if touch:
            _touch(touch)
        started = clock()
        out = receive(peers[n], frame, NOW)
        spent += clock() - started
        if store is not None and out.records:
            started = clock()
            store.write(out.records)
            writing += clock() - started
        for targets, data in out.frames:
            for peer in targets:
                digests[index[id(peer)]].update(len(data).to_bytes(4, "big") + data)
    whole = hashlib.sha256(b"".join(d.digest() for d in digests)).hexdigest()[:16]
    return spent, writing, whole


_MEMORY = bytearray()


def _touch(mib: int) -> None:
    """Write one byte in every 64 (a cache line) of ``mib`` MiB: whatever the caches held is
    evicted by as much."""
    size = mib << 20
    if len(_MEMORY) < size:
        _MEMORY.extend(bytes(size - len(_MEMORY)))
    memory = _MEMORY
    for i in range(0, size, 64):
        memory[i] ^= 1


def logged(games: list[list[tuple[int, bytes]]]) -> list[list[Record]]:
    """Each command's log records (one replay), the games' commands interleaved one by one
    as concurrent rooms' are, each game's room and game numbers moved apart so that the
    games share one log."""
    per_game: list[list[list[Record]]] = []
    for g, sent in enumerate(games):
        hub = Hub(HubSettings(allow_scenarios=True), Limits(rate=1e9, burst=10**9),
                  entropy=SeededEntropy(ENTROPY_SEED))
        peers = [hub.connect(Sink(), "10.0.0.1", NOW) for _ in range(4)]
        moved = []
        for n, frame in sent:
            moved.append([dataclasses.replace(r, **{
                f: getattr(r, f) + 1000 * g for f in ("room", "game") if hasattr(r, f)})
                for r in hub.receive(peers[n], frame, NOW).records])
        per_game.append(moved)
    return [c[i] for i in range(max(map(len, per_game))) for c in per_game if i < len(c)]


def write_log(commands: list[list[Record]], folder: Path, batch: int) -> float:
    """Write ``commands``' records to a fresh log in ``folder``, ``batch`` commands to a
    transaction; return the CPU seconds spent in :meth:`Store.write`."""
    store = Store(folder / "log.sqlite3")
    started = time.process_time()
    for i in range(0, len(commands), batch):
        store.write([r for records in commands[i:i + batch] for r in records])
    spent = time.process_time() - started
    store.close()
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=3, help="games, room slots 0 to N-1")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--store", action="store_true", help="write records to SQLite too")
    parser.add_argument("--batch", type=int, default=4,
                        help="with --log-writer or --instructions --store: commands per "
                             "transaction")
    parser.add_argument("--log-writer", action="store_true",
                        help="time the log writer alone (the records of --games games)")
    parser.add_argument("--profile", choices=("tottime", "cumulative"))
    parser.add_argument("--touch", type=int, default=0, metavar="MIB",
                        help="write to MIB MiB of memory between commands (untimed)")
    parser.add_argument("--instructions", action="store_true",
                        help="print only a marker line and the command count (for valgrind)")
    args = parser.parse_args()
    games = [record(args.seed * 1000 + slot, slot) for slot in range(args.games)]
    commands = sum(len(g) for g in games)
    if args.log_writer or (args.store and args.instructions):
        log = logged(games)
        if args.instructions:
            print("marker", flush=True)
        spent = []
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(args.repeat):
                (Path(tmp) / str(r)).mkdir()
                spent.append(write_log(log, Path(tmp) / str(r), args.batch))
        if args.instructions:
            print(f"{commands} commands, {args.repeat} log writes of {args.batch} a batch")
        else:
            per = sorted(s / len(log) * 1e6 for s in spent)
            print(f"{len(games)} games, {len(log)} commands, {args.batch} a transaction: "
                  f"Store.write {statistics.median(per):.1f} µs CPU per command (median of "
                  f"{len(per)}; {', '.join(f'{p:.1f}' for p in per)})")
        return 0
    if args.instructions:
        for _ in range(args.repeat):
            replay(games)
        print(f"{commands} commands, {args.repeat} replays")
        return 0
    profiler = cProfile.Profile() if args.profile else None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeat):
            logs = Path(tmp) / str(r) if args.store else None
            if logs is not None:
                logs.mkdir()
            if profiler is not None:
                profiler.enable()
            rows.append(replay(games, logs, args.touch))
            if profiler is not None:
                profiler.disable()
    digests = {d for _, _, d in rows}
    per = sorted(s / commands * 1e6 for s, _, _ in rows)
    line = (f"{len(games)} games, {commands} commands"
            + (f", {args.touch} MiB touched between commands" if args.touch else "")
            + ": Hub.receive "
            f"{statistics.median(per):.1f} µs CPU per command (median of {len(rows)}; "
            f"{', '.join(f'{p:.1f}' for p in per)})")
    if args.store:
        line += (f"; SQLite writes "
                 f"{statistics.median(w for _, w, _ in rows) / commands * 1e6:.1f} µs")
    print(line)
    print(f"frames digest {', '.join(sorted(digests))}")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats(args.profile).print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
