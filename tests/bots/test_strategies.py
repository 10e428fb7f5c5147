"""The bot core's strategies: pure functions of a seat's view and its decision."""

from __future__ import annotations

import random

from arbiter.bots import heuristic_strategy, random_strategy
from arbiter.server.rules.cards.catalog import cards

from ..rules.helpers import Scene, giant_scene


def test_the_heuristic_bot_treats_its_two_headed_giant_teammate_as_a_friend() -> None:
    """It aims a Lightning Bolt at an opponent, not the teammate at lower life, and blocks an
    attack on its teammate as an attack on its own (shared, CR 810.4) life."""
    g = (giant_scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt").life(1, 4)
         .life(2, 25).start())
    g.cast(0, "Lightning Bolt")
    pick = heuristic_strategy(g.view(0), g.decision.to_wire(), random.Random(0))
    assert g.decision.actions[pick].ref in (("p", 2), ("p", 3))
    g = (giant_scene().battlefield(2, "Hill Giant").battlefield(1, "Grizzly Bears").life(0, 3)
         .at("begin_combat", 2).start())
    g.until("declare_attackers", 2).attack(("Hill Giant", 0))
    while g.decision.kind == "priority":
        g.pass_()
    d = g.decision
    assert (d.kind, d.player) == ("blockers", 1)  # 0, attacked, has no creature to block with
    pick = heuristic_strategy(g.view(1), d.to_wire(), random.Random(0))
    assert d.actions[pick].kind == "block"


def test_107_3a_the_heuristic_bot_pays_the_largest_x_but_spares_its_own_life() -> None:
    g = (Scene().battlefield(0, *("Mountain",) * 6).hand(0, "Fireball").start())
    g.choose("cast", "Cast Fireball")
    pick = heuristic_strategy(g.view(0), g.decision.to_wire(), random.Random(0))
    assert g.decision.actions[pick].index == 5
    g = (Scene().battlefield(0, *("Mountain",) * 6).hand(0, "Earthquake").life(0, 3).start())
    g.choose("cast", "Cast Earthquake")
    pick = heuristic_strategy(g.view(0), g.decision.to_wire(), random.Random(0), cards())
    assert g.decision.actions[pick].index == 2  # X = 3 would kill itself


def test_the_bots_finish_every_x_and_target_decision() -> None:
    """Played out by either bot, an X spell's casting ends in a handful of decisions."""
    for strategy in (heuristic_strategy, random_strategy):
        for seed in range(5):
            g = (Scene().battlefield(0, *("Mountain",) * 8).battlefield(1, "Hill Giant")
                 .hand(0, "Fireball").start())
            g.choose("cast", "Cast Fireball")
            rng = random.Random(seed)
            for _ in range(10):
                d = g.decision
                if d.kind == "priority":
                    break
                pick = strategy(g.view(d.player), d.to_wire(), rng)
                g.table.act(d.player, d.serial, d.actions[pick].id)
            assert g.decision.kind == "priority" and g.game.stack
