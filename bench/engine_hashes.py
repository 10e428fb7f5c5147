"""A digest of what seeded bot games do, to show that an engine speed-up changed no behaviour.

    .venv/bin/python bench/engine_hashes.py            # the default groups of games
    .venv/bin/python bench/engine_hashes.py --games 2  # fewer games per group, quicker

After every applied action of each game it hashes the table's state hash together with the
pending decision's kind, player and every legal action (kind, label, object, reference, index):
a change that keeps the state but offers a different list still shows. It prints one digest per
group (deck set, players, strategy) and one over all of them; run it before and after a change
and compare the lines. The games are those of bench/engine.py (the same deck draw, seeds and
draw agreement), two-player and four-player Free-for-All, random and heuristic bots.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbiter.bots import DEFAULT_ROUNDS, STRATEGIES
from arbiter.server.local import play_local
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import READY_MADE, ready_made

# (deck set, players, strategy, share of --games): the M10 decks get the most games because
# their cards reach the most rules.
GROUPS = (("M10", 2, "random", 4), ("pool", 2, "random", 2), ("M10", 4, "random", 2),
          ("pool", 4, "random", 1), ("M10", 2, "heuristic", 2), ("M10", 4, "heuristic", 1),
          ("pool", 2, "heuristic", 1))


def _decks(name: str) -> list[str]:
    m10 = name == "M10"
    return sorted(d for d in READY_MADE
                  if "commander" not in d and d.startswith("m10-") == m10)


def _digest_game(config: GameConfig, seed: int, strategy: str, players: int) -> tuple[str, int]:
    h = hashlib.blake2b(digest_size=16)

    def after(table: Table) -> None:
        h.update(table.state_hash().encode())
        pending = table.pending
        if pending is not None:
            h.update(repr((pending.kind, pending.player, [
                (a.kind, a.label, a.obj, a.ref, a.index) for a in pending.actions])).encode())

    _, applied = play_local(config, seed, [STRATEGIES[strategy]] * players, bot_seed=seed,
                            max_actions=20000, needs_view=strategy != "random",
                            draw_after=DEFAULT_ROUNDS, on_action=after)
    return h.hexdigest(), applied


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3,
                        help="games per unit of a group's share (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    total = hashlib.blake2b(digest_size=16)
    start = time.process_time()
    for deck_set, players, strategy, share in GROUPS:
        rng = random.Random(args.seed)
        decks = _decks(deck_set)
        group = hashlib.blake2b(digest_size=16)
        actions = 0
        for i in range(args.games * share):
            chosen = [ready_made(rng.choice(decks)) for _ in range(players)]
            config = GameConfig(
                players=tuple(PlayerConfig(f"P{k}", d.main, d.sideboard)
                              for k, d in enumerate(chosen)),
                variant="two_player" if players == 2 else "free_for_all")
            digest, applied = _digest_game(config, args.seed + i, strategy, players)
            group.update(digest.encode())
            actions += applied
        line = (f"{deck_set} {players}p {strategy}: {args.games * share} games, "
                f"{actions} actions, {group.hexdigest()}")
        print(line, flush=True)
        total.update(line.encode())
    print(f"all: {total.hexdigest()} ({time.process_time() - start:.1f} s of CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
