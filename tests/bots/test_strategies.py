"""The bot core's strategies: pure functions of a seat's view and its decision."""

from __future__ import annotations

import random

from arbiter.bots import heuristic_strategy

from ..rules.helpers import giant_scene


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
