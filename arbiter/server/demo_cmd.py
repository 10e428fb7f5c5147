"""``arbiter demo``: two bots play a complete game in-process and the log is printed."""

from __future__ import annotations

import argparse
import random

from arbiter.bots import DEFAULT_ROUNDS, STRATEGIES
from arbiter.server.rules import GameConfig, PlayerConfig
from arbiter.server.rules.cards.decks import READY_MADE, ready_made

from .local import play_local


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    parser.add_argument("--decks", nargs=2, default=["gruul-stompy", "azorius-skies"],
                        choices=sorted(READY_MADE), metavar="DECK",
                        help="two ready-made decks (default: gruul-stompy azorius-skies)")
    parser.add_argument("--strategies", nargs=2, default=["heuristic", "heuristic"],
                        choices=sorted(STRATEGIES), metavar="STRATEGY")


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    players = []
    for i, (deck_name, strategy) in enumerate(zip(args.decks, args.strategies, strict=True)):
        deck = ready_made(deck_name)
        players.append(PlayerConfig(f"{strategy.title()} bot {i + 1} ({deck_name})", deck.main,
                                    deck.sideboard))
    config = GameConfig(players=tuple(players))
    table, applied = play_local(config, seed, [STRATEGIES[s] for s in args.strategies],
                                bot_seed=seed, draw_after=DEFAULT_ROUNDS)
    depth = {table.main.number: 0}
    for event in table.drain_events():
        if event.kind in ("subgame_started", "game_restarted"):
            depth[event.data["game"]] = event.data["depth"]
        print("    " * depth.get(event.game, 0) + event.text)
    print(f"\n(seed {seed}, {applied} actions)")
    return 0
