"""Engine throughput: play N complete bot games in-process and print games/s and actions/s.

    .venv/bin/python bench/engine.py --games 200 --players 2 --strategy random
    .venv/bin/python bench/engine.py --games 50 --players 4 --strategy heuristic
    .venv/bin/python bench/engine.py --games 100 --variant two_headed_giant
    .venv/bin/python bench/engine.py --games 20 --players 10 --variant grand_melee

``--variant`` picks the variant (default: two-player for two players, Free-for-All otherwise);
team variants seat the players in teams of two, in order (Two-Headed Giant: two teams, so
``--players 6`` gives teams of three, CR 810.11), and ``--shared-team-turns`` has Team vs. Team
teams share turns (CR 805). Grand Melee (CR 807) needs four players or more and is meant for ten
or more (the default with it).

"Applied actions" are commands the engine accepted (every decision answered). With the random
strategy the bots look at nothing, so the figure is the engine's own cost (legal actions
included); with the heuristic strategy each bot also keeps its player's view up to date from
the engine's dirty keys, as a networked bot's replica would. A game that stalls (nobody can
win or lose) ends as the bots end it over the network, by agreeing to a draw after
``--draw-after`` rounds without anyone leaving; ``--max-actions`` is the backstop.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbiter.clients.bots.stall import DEFAULT_ROUNDS
from arbiter.clients.bots.strategies import STRATEGIES
from arbiter.server.local import play_local
from arbiter.server.rules import GameConfig, PlayerConfig
from arbiter.server.rules.cards.decks import READY_MADE, ready_made
from arbiter.server.rules.config import (
    FREE_FOR_ALL,
    GRAND_MELEE,
    TEAM_VS_TEAM,
    TWO_HEADED_GIANT,
    TWO_PLAYER,
)

VARIANTS = (TWO_PLAYER, FREE_FOR_ALL, TEAM_VS_TEAM, TWO_HEADED_GIANT, GRAND_MELEE)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=None,
                        help="players per game (default 2; 4 for Two-Headed Giant, 10 for "
                             "Grand Melee)")
    parser.add_argument("--variant", choices=VARIANTS, default=None)
    parser.add_argument("--shared-team-turns", action="store_true")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="random")
    parser.add_argument("--decks", nargs="*", default=None,
                        help="ready-made decks to draw from (default: every constructed deck)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-actions", type=int, default=20000)
    parser.add_argument("--draw-after", type=int, default=DEFAULT_ROUNDS,
                        help="rounds without anyone leaving after which the bots agree to a "
                             "draw (0: never)")
    args = parser.parse_args()

    variant = args.variant
    players = args.players or {TWO_HEADED_GIANT: 4, GRAND_MELEE: 10}.get(variant, 2)
    variant = variant or ("two_player" if players == 2 else "free_for_all")
    decks = args.decks or sorted(d for d in READY_MADE if "commander" not in d)
    rng = random.Random(args.seed)
    strategy = STRATEGIES[args.strategy]
    configs = []
    for _ in range(args.games):
        chosen = [ready_made(rng.choice(decks)) for _ in range(players)]
        configs.append(GameConfig(
            players=tuple(PlayerConfig(f"P{i}", d.main, d.sideboard, team=_team(variant, i,
                                                                               players))
                          for i, d in enumerate(chosen)),
            variant=variant, shared_team_turns=args.shared_team_turns))

    actions = finished = agreed = 0
    per_game: list[float] = []
    counts: list[int] = []
    start = time.perf_counter()
    for i, config in enumerate(configs):
        t0 = time.perf_counter()
        table, applied = play_local(config, args.seed + i, [strategy] * players,
                                    bot_seed=args.seed + i, max_actions=args.max_actions,
                                    needs_view=args.strategy != "random",
                                    draw_after=args.draw_after or None)
        per_game.append(time.perf_counter() - t0)
        actions += applied
        counts.append(applied)
        finished += table.finished
        agreed += bool(table.result is not None and table.result.draw and any(
            o.reason == "agreement" for o in table.result.outcomes))
    elapsed = time.perf_counter() - start

    print(f"games: {args.games} ({finished} finished, {agreed} of them by an agreed draw), "
          f"players: {players}, variant: {variant}, "
          f"strategy: {args.strategy}")
    print(f"elapsed: {elapsed:.2f} s")
    print(f"games per second: {args.games / elapsed:.1f}")
    print(f"applied actions per second: {actions / elapsed:,.0f}")
    print(f"actions per game: median {statistics.median(counts):.0f}; "
          f"time per game: median {statistics.median(per_game) * 1000:.1f} ms")
    return 0


def _team(variant: str, pid: int, players: int) -> int | None:
    if variant == TWO_HEADED_GIANT:
        return pid * 2 // players
    return pid // 2 if variant == TEAM_VS_TEAM else None


if __name__ == "__main__":
    sys.exit(main())
