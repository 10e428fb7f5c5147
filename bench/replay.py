"""What a replay costs the server (docs/protocol.md section 16): play N two-player games with
the heuristic bots through the room core into a real SQLite log, then answer ``replay`` for
each game from that log as the server does (rooms/replays.py) and print, per game, its
commands, the CPU time of the replay and the bytes of its answer.

    .venv/bin/python bench/replay.py --games 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbiter.bots.strategies import heuristic_strategy
from arbiter.protocol.codec import pack
from arbiter.protocol.server_messages import encode
from arbiter.server.rooms import replays
from arbiter.server.rules.view import SPECTATOR
from arbiter.server.store.archive import ArchivedGame
from arbiter.server.store.db import Store
from tests.rooms.sim import Sim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "log.sqlite3")
        for seed in range(args.games):
            sim = Sim(store=store, seed=seed)
            players, room = sim.table({"seats": 2, "seed": seed})
            sim.play(dict(enumerate(players)), strategy=heuristic_strategy,
                     rng=random.Random(seed), max_actions=replays.MAX_REPLAY_COMMANDS - 1)
            game = store.all_games()[-1]
            if game.result is None:  # a stalled game: end it
                players[1].ok({"t": "concede", "r": room})
                game = store.all_games()[-1]
            archived = ArchivedGame(game, None, store.seats(game.room))
            commands = list(store.commands(game.id))
            started = time.process_time()
            frames = replays.replay_frames(1, archived, commands, SPECTATOR)
            cpu = time.process_time() - started
            size = len(pack(encode(frames)))
            rows.append((len(commands), cpu, size))
            print(f"game {game.id}: {len(commands)} commands, replayed in {cpu * 1000:.0f} ms "
                  f"CPU, answer {size / 1024:.1f} KiB")
        store.close()
    per = [cpu / n * 1e6 for n, cpu, _ in rows]
    print(f"median {statistics.median(per):.0f} µs CPU per command; "
          f"median {statistics.median(s / n for n, _, s in rows):.0f} bytes per command")


if __name__ == "__main__":
    main()
