"""The heuristic bot with the Magic 2010 decks: fixes for what reading its games showed.

It cast Giant Growth in its upkeep (and, with no creature of its own, on an opponent's), it
attacked into first strikers and reach, it blocked a first striker to die for nothing, and it
piled every blocker it had onto one attacker (the blocks being declared are not in its view).
Now combat tricks wait for a creature of its own in combat, attacks and blocks count first
strike, deathtouch and reach (arbiter/bots/combat.py), and each attacker gets one blocker."""

from __future__ import annotations

import random

from arbiter.bots import heuristic_strategy
from arbiter.bots.combat import Fighter, can_block, fight
from arbiter.server.rules.cards.catalog import cards

from ..rules.helpers import G, Scene


def _pick(g: G, player: int) -> str:
    d = g.decision
    assert d.player == player, (d.kind, d.player)
    pick = heuristic_strategy(g.view(player), d.to_wire(), random.Random(0), cards())
    return d.actions[pick].label


def _to_blocks(g: G) -> G:
    while g.decision.kind == "priority":
        g.pass_()
    assert g.decision.kind == "blockers"
    return g


def _to_priority(g: G) -> G:
    while g.decision.kind != "priority":
        g.choose("done")
    return g


def test_a_pump_spell_waits_for_its_own_creature_in_combat() -> None:
    """Not in a main phase, never on an opponent's creature; after blocks, on its attacker."""
    g = (Scene().battlefield(0, "Forest").hand(0, "Giant Growth")
         .battlefield(1, "Ornithopter").start())
    assert _pick(g, 0) == "Pass priority"  # no creature of its own: not on theirs
    g = (Scene().battlefield(0, "Forest", "Runeclaw Bear").hand(0, "Giant Growth")
         .battlefield(1, "Centaur Courser").start())
    assert _pick(g, 0) == "Pass priority"  # main phase: wasted
    g.until("declare_attackers", 0).attack(("Runeclaw Bear", 1))
    _to_blocks(g).block(1, ("Centaur Courser", "Runeclaw Bear"))
    _to_priority(g)
    assert g.game.step == "declare_blockers"
    assert _pick(g, 0) == "Cast Giant Growth"
    g.choose("cast", "Cast Giant Growth")
    assert _pick(g, 0) == "Target Runeclaw Bear"


def test_702_7b_it_does_not_attack_into_a_first_striker_it_cannot_outlast() -> None:
    """A 2/2 trades with a 2/2 but dies to a 2/2 first striker without dealing damage."""
    g = (Scene().battlefield(0, "Runeclaw Bear").battlefield(1, "White Knight")
         .at("begin_combat").start())
    g.until("declare_attackers", 0)
    assert _pick(g, 0) == "No attacks"
    g = (Scene().battlefield(0, "Runeclaw Bear").battlefield(1, "Grizzly Bears")
         .at("begin_combat").start())
    g.until("declare_attackers", 0)
    assert _pick(g, 0).startswith("Attack B with Runeclaw Bear")  # a fair trade


def test_702_17b_a_flyer_stays_home_from_reach_and_attacks_over_the_ground() -> None:
    g = (Scene().battlefield(0, "Wind Drake").battlefield(1, "Giant Spider")
         .at("begin_combat").start())
    g.until("declare_attackers", 0)
    assert _pick(g, 0) == "No attacks"  # the 2/4 Spider with reach would eat the 2/2
    g = (Scene().battlefield(0, "Wind Drake").battlefield(1, "Craw Wurm")
         .at("begin_combat").start())
    g.until("declare_attackers", 0)
    assert _pick(g, 0).startswith("Attack B with Wind Drake")  # evasive: nothing can block


def test_702_7b_it_does_not_block_a_first_striker_to_die_for_nothing() -> None:
    g = (Scene().battlefield(0, "White Knight").battlefield(1, "Grizzly Bears")
         .at("begin_combat").start())
    g.until("declare_attackers", 0).attack(("White Knight", 1))
    _to_blocks(g)
    assert _pick(g, 1) == "No blocks"


def test_509_1a_facing_lethal_it_blocks_each_attacker_once_not_one_with_all() -> None:
    """At 3 life against two 3/3s it chumps both, each with one creature: the plan it remakes
    at every answer places a creature no longer offered (the block being declared is not in
    its view), so it never sends its second blocker after the first."""
    g = (Scene().battlefield(0, "Centaur Courser", "Hill Giant")
         .battlefield(1, "Elite Vanguard", "Soul Warden").life(1, 3).at("begin_combat").start())
    g.until("declare_attackers", 0).attack(("Centaur Courser", 1), ("Hill Giant", 1))
    _to_blocks(g)
    blocked: set[str] = set()
    while g.decision.kind == "blockers":
        label = _pick(g, 1)
        if not label.startswith("Block "):
            break
        blocked.add(label.split(" with ")[0].removeprefix("Block "))
        g.choose("block", label)
    assert blocked == {"Centaur Courser", "Hill Giant"}


def test_the_combat_estimate_counts_deathtouch_double_strike_and_indestructible() -> None:
    bear = Fighter(2, 2, frozenset(), "G")
    wurm = Fighter(6, 4, frozenset(), "G")
    assert fight(wurm, bear) == (False, True)
    assert fight(wurm, Fighter(1, 1, frozenset({"deathtouch"}), "B")) == (True, True)
    assert fight(Fighter(2, 2, frozenset({"double strike"}), "R"), Fighter(1, 4, frozenset(),
                                                                           "G")) == (False, True)
    assert fight(wurm, Fighter(0, 1, frozenset({"indestructible"}), "W")) == (False, False)
    knight = Fighter(2, 2, frozenset({"first strike", "protection from black"}), "W")
    assert fight(Fighter(2, 2, frozenset(), "B"), knight) == (True, False)  # damage prevented
    assert not can_block(knight, Fighter(3, 3, frozenset(), "B"))
    assert not can_block(Fighter(2, 2, frozenset({"intimidate"}), "R"), bear)
    assert can_block(Fighter(2, 2, frozenset({"intimidate"}), "R"),
                     Fighter(0, 2, frozenset({"flying"}), "", artifact=True))


def test_107_3a_no_fireball_for_x_0() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Fireball")
         .battlefield(1, "Grizzly Bears").start())
    assert _pick(g, 0) == "Pass priority"  # {X}{R} with one land: X = 0
    g = (Scene().battlefield(0, "Mountain", "Mountain", "Mountain").hand(0, "Fireball")
         .battlefield(1, "Grizzly Bears").start())
    assert _pick(g, 0) == "Cast Fireball"
    g.choose("cast", "Cast Fireball")
    assert _pick(g, 0) == "X = 2"


def test_its_removal_waits_for_an_opposing_creature_it_can_take() -> None:
    """Assassinate destroys a tapped creature: with only its own Royal Assassin tapped it
    would have to take that; Doom Blade leaves black creatures alone."""
    g = (Scene().battlefield(0, *["Swamp"] * 3).battlefield(0, "Royal Assassin", tapped=True)
         .hand(0, "Assassinate").battlefield(1, "Craw Wurm").start())
    assert _pick(g, 0) == "Pass priority"
    g = (Scene().battlefield(0, *["Swamp"] * 3).hand(0, "Assassinate")
         .battlefield(1, "Craw Wurm", tapped=True).start())
    assert _pick(g, 0) == "Cast Assassinate"
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Grizzly Bears").hand(0, "Doom Blade")
         .battlefield(1, "Drudge Skeletons").start())
    assert _pick(g, 0) == "Pass priority"


def test_702_19c_a_chump_block_on_a_trampler_counts_only_what_the_blocker_soaks() -> None:
    """At 5 life against a 4/4 trampler and a 3/3: chumping the Rhino with a 1/1 still lets 3
    through, so the 3/3 must be blocked too."""
    g = (Scene().battlefield(0, "Stampeding Rhino", "Centaur Courser")
         .battlefield(1, "Elite Vanguard", "Soul Warden").life(1, 5).at("begin_combat").start())
    g.until("declare_attackers", 0).attack(("Stampeding Rhino", 1), ("Centaur Courser", 1))
    _to_blocks(g)
    blocks: list[str] = []
    while g.decision.kind == "blockers":
        label = _pick(g, 1)
        if not label.startswith("Block "):
            break
        blocks.append(label)
        g.choose("block", label)
    assert blocks == ["Block Stampeding Rhino with Soul Warden",
                      "Block Centaur Courser with Elite Vanguard"]
