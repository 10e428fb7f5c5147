"""Delta sizes without the network or the clock: bench/server.py's games played in-process.

    .venv/bin/python bench/deltas.py --set M10 --rooms 10 --decisions 2000 [--dump 10]

bench/server.py's delta figure counts what games reach in its ten seconds, so it moves with the
machine's load (a slow run stops earlier in each game, with fewer permanents out). This plays
the same kind of games, room slot k seating the set's decks 4k to 4k+3 round the list, four
random bots, Free-for-All, each room a fixed number of decisions (games back to back), through
the server's own room core (GameRoom: projection, ops, encoding), and prints the median and p99
size of the delta each seat receives per decision (the frame with its log lines, without legal
actions or request id, as bench/server.py counts it). Same arguments, same figures, every run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)  # so that ``bench.*`` imports as a package

from arbiter.bots.strategies import random_strategy  # noqa: E402
from arbiter.protocol.codec import pack  # noqa: E402
from arbiter.server.rooms.views import GameRoom  # noqa: E402
from arbiter.server.rules import Table  # noqa: E402
from arbiter.server.rules.cards.decks import READY_MADE, ready_made  # noqa: E402
from arbiter.server.rules.config import GameConfig, PlayerConfig  # noqa: E402
from bench._deltas import breakdown  # noqa: E402

SETS = {"M10": sorted(d for d in READY_MADE if d.startswith("m10-"))}


def room_frames(decks: list[str], slot: int, decisions: int) -> list[bytes]:
    """Every view-only delta frame the four seats of room ``slot`` receive in ``decisions``
    decisions (games back to back, seeded as bench/server.py seeds them)."""
    frames: list[bytes] = []
    rng = random.Random(100 + slot)
    game = 0
    while decisions > 0:
        game += 1
        names = [decks[(slot * 4 + n) % len(decks)] for n in range(4)]
        players = tuple(PlayerConfig(f"bot{n}", ready_made(d).main) for n, d in enumerate(names))
        table = Table(GameConfig(players=players, variant="free_for_all"), slot * 1000 + game)
        room = GameRoom(f"{slot + 1}", table.top, spectator_key=-1, history=1,
                        new_epoch=lambda: 1)
        table.drain_events()
        while decisions > 0 and not table.finished and table.top is room.game:
            d = table.pending
            assert d is not None
            table.act(d.player, d.serial, random_strategy({}, d.to_wire(), rng))
            decisions -= 1
            lines = [e.text for e in table.drain_events() if e.game == room.number]
            changes = room.project()
            for key in room.classes if lines else ():
                changes.setdefault(key, [])
            for key, ops in changes.items():
                if key >= 0:  # the seats: bench/server.py has no spectators
                    frames.append(pack(room.encode_delta(room.classes[key], ops, lines)))
        if table.top is not room.game:
            break  # a subgame or a restart: bench/server.py's rooms would go on; we stop
    return frames


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="M10")
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--decisions", type=int, default=2000, help="per room")
    parser.add_argument("--dump", type=int, default=0, metavar="N",
                        help="print which parts make the top 1%% of deltas, and the N largest")
    args = parser.parse_args()
    frames = [f for slot in range(args.rooms)
              for f in room_frames(SETS[args.set], slot, args.decisions)]
    sizes = sorted(len(f) for f in frames)
    if args.dump:
        print(breakdown(frames, sizes, args.dump))
    p99 = sizes[min(len(sizes) - 1, int(len(sizes) * 0.99))]
    print(f"{len(sizes)} deltas over {args.rooms * args.decisions} decisions: median "
          f"{statistics.median(sizes)} B, p99 {p99} B, mean "
          f"{sum(sizes) / (args.rooms * args.decisions * 4):.1f} B per viewer per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
