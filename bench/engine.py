"""Engine throughput: play N complete bot games in-process and print games/s and actions/s.

    .venv/bin/python bench/engine.py --games 200 --players 2 --strategy random
    .venv/bin/python bench/engine.py --games 50 --players 4 --strategy heuristic
    .venv/bin/python bench/engine.py --games 100 --variant two_headed_giant
    .venv/bin/python bench/engine.py --games 200 --players 2 --variant planechase
    .venv/bin/python bench/engine.py --games 20 --players 10 --variant grand_melee

``--variant`` picks the variant (default: two-player for two players, Free-for-All otherwise);
team variants seat the players in teams of two, in order (Two-Headed Giant: two teams, so
``--players 6`` gives teams of three, CR 810.11), and ``--shared-team-turns`` has Team vs. Team
teams share turns (CR 805). Archenemy makes player 0 the archenemy. Grand Melee (CR 807) needs
four players or more and is meant for ten or more (the default with it). ``--planechase`` and
``--vanguard`` add those options (``--variant planechase`` or ``vanguard`` is that option on the
default variant); the ready-made decks bring their planar decks, vanguards and scheme decks.

``--set M10`` plays the six ready-made Magic 2010 decks (``--set pool``: the constructed decks
built before it, from the original pool). ``--repeat 3 --beside pool`` plays the same games
three times, alternating each run with one of the ``--beside`` set's decks, and prints each
set's median rate of applied actions per CPU second: the figure the measurements quote, taken
beside its baseline under the same noise.

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

from arbiter.bots import DEFAULT_ROUNDS, STRATEGIES
from arbiter.server.local import play_local
from arbiter.server.rules import GameConfig, PlayerConfig
from arbiter.server.rules.cards.decks import READY_MADE, DeckList, ready_made
from arbiter.server.rules.config import (
    ARCHENEMY,
    FREE_FOR_ALL,
    GRAND_MELEE,
    TEAM_VS_TEAM,
    TWO_HEADED_GIANT,
    TWO_PLAYER,
)

VARIANTS = (TWO_PLAYER, FREE_FOR_ALL, TEAM_VS_TEAM, TWO_HEADED_GIANT, ARCHENEMY, GRAND_MELEE,
            "planechase", "vanguard")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=None,
                        help="players per game (default 2; 4 for Two-Headed Giant, 3 for "
                             "Archenemy, 10 for Grand Melee)")
    parser.add_argument("--variant", choices=VARIANTS, default=None)
    parser.add_argument("--shared-team-turns", action="store_true")
    parser.add_argument("--planechase", action="store_true", help="the Planechase option")
    parser.add_argument("--vanguard", action="store_true", help="the Vanguard option")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="random")
    parser.add_argument("--decks", nargs="*", default=None,
                        help="ready-made decks to draw from (default: every constructed deck)")
    parser.add_argument("--set", choices=sorted(SETS), default=None,
                        help="play that set's ready-made decks (M10: the six Magic 2010 decks; "
                             "pool: the constructed decks of the original pool)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of the same games; the median rate is printed")
    parser.add_argument("--beside", choices=sorted(SETS), default=None,
                        help="alternate each run with a run of this set's decks")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-actions", type=int, default=20000)
    parser.add_argument("--draw-after", type=int, default=DEFAULT_ROUNDS,
                        help="rounds without anyone leaving after which the bots agree to a "
                             "draw (0: never)")
    args = parser.parse_args()

    variant = args.variant
    if variant in ("planechase", "vanguard"):  # an option, on the default variant
        setattr(args, variant, True)
        variant = None
    players = args.players or {TWO_HEADED_GIANT: 4, ARCHENEMY: 3, GRAND_MELEE: 10}.get(
        variant, 2)
    variant = variant or ("two_player" if players == 2 else "free_for_all")
    decks = args.decks or (SETS[args.set]() if args.set else
                           sorted(d for d in READY_MADE if "commander" not in d))
    rates: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        for label, chosen in ((args.set or "chosen decks", decks),
                              *(((args.beside, SETS[args.beside]()),) if args.beside else ())):
            print(f"-- {label}")
            rates.setdefault(label, []).append(_run(chosen, players, variant, args))
    if args.repeat > 1 or args.beside:
        for label, got in rates.items():
            print(f"{label}: applied actions per CPU second, median of {len(got)}: "
                  f"{statistics.median(got):,.0f} (" + ", ".join(f"{r:,.0f}" for r in got)
                  + ")")
    return 0


def _m10() -> list[str]:
    return sorted(d for d in READY_MADE if d.startswith("m10-"))


def _pool() -> list[str]:
    return sorted(d for d in READY_MADE if "commander" not in d and not d.startswith("m10-"))


SETS = {"M10": _m10, "pool": _pool}


def _run(decks: list[str], players: int, variant: str, args: argparse.Namespace) -> float:
    """Play ``args.games`` games of ``decks``, print the figures; returns actions per CPU s."""
    rng = random.Random(args.seed)
    strategy = STRATEGIES[args.strategy]
    configs = [_config([ready_made(rng.choice(decks)) for _ in range(players)], variant, args)
               for _ in range(args.games)]

    actions = finished = agreed = 0
    per_game: list[float] = []
    counts: list[int] = []
    start = time.perf_counter()
    cpu_start = time.process_time()
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
    cpu = time.process_time() - cpu_start

    print(f"games: {args.games} ({finished} finished, {agreed} of them by an agreed draw), "
          f"players: {players}, variant: {variant}"
          + "".join(f" + {o}" for o in ("planechase", "vanguard") if getattr(args, o))
          + f", strategy: {args.strategy}")
    print(f"elapsed: {elapsed:.2f} s")
    print(f"games per second: {args.games / elapsed:.1f}")
    print(f"applied actions per second: {actions / elapsed:,.0f}")
    # On a shared machine the wall clock counts other processes' time too; this doesn't.
    print(f"applied actions per CPU second: {actions / cpu:,.0f} ({cpu:.2f} s of CPU)")
    print(f"actions per game: median {statistics.median(counts):.0f}; "
          f"time per game: median {statistics.median(per_game) * 1000:.1f} ms")
    return actions / cpu


def _config(chosen: list[DeckList], variant: str, args: argparse.Namespace) -> GameConfig:
    archenemy = variant == ARCHENEMY
    players = tuple(
        PlayerConfig(f"P{i}", d.main, d.sideboard, team=_team(variant, i, len(chosen)),
                     planar_deck=d.planar if args.planechase else (),
                     scheme_deck=d.schemes if archenemy and i == 0 else (),
                     vanguard=d.vanguard if args.vanguard else None,
                     archenemy=archenemy and i == 0)
        for i, d in enumerate(chosen))
    return GameConfig(players=players, variant=variant, shared_team_turns=args.shared_team_turns,
                      planechase=args.planechase, vanguard=args.vanguard)


def _team(variant: str, pid: int, players: int) -> int | None:
    if variant == TWO_HEADED_GIANT:
        return pid * 2 // players
    return pid // 2 if variant == TEAM_VS_TEAM else None


if __name__ == "__main__":
    sys.exit(main())
