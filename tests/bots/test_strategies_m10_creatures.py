"""The heuristic bot with the Magic 2010 creatures' activated abilities and choices: it taps a
blocker as its combat begins, destroys a tapped attacker, pings at the end of an opponent's
turn, gives up its least valuable creature, and divides damage to kill."""

from __future__ import annotations

import random

from arbiter.bots import heuristic_strategy, random_strategy
from arbiter.server.rules.cards.catalog import cards

from ..rules.helpers import G, Scene


def _pick(g: G, player: int) -> str:
    d = g.decision
    assert d.player == player
    pick = heuristic_strategy(g.view(player), d.to_wire(), random.Random(0), cards())
    return d.actions[pick].label


def test_it_taps_a_blocker_as_its_combat_begins_not_before() -> None:
    g = (Scene().battlefield(0, "Blinding Mage", "Plains", "Centaur Courser")
         .battlefield(1, "Craw Wurm").start())
    assert _pick(g, 0) == "Pass priority"  # main phase: too early
    g.pass_(2)
    assert g.game.step == "begin_combat"
    assert _pick(g, 0).startswith("Blinding Mage: {W}, {T}: Tap target creature.")
    g.choose("activate", "Blinding Mage")
    assert _pick(g, 0) == "Target Craw Wurm"  # theirs, not its own Courser


def test_it_destroys_a_tapped_attacker_and_leaves_untapped_creatures_alone() -> None:
    g = Scene().battlefield(0, "Royal Assassin").battlefield(1, "Craw Wurm").start()
    assert _pick(g, 0) == "Pass priority"
    g.next_turn(1, "begin_combat").pass_(2).attack(("Craw Wurm", 0)).pass_()
    assert _pick(g, 0).startswith("Royal Assassin: {T}: Destroy target tapped creature.")


def test_it_pings_at_the_end_of_an_opponent_s_turn_and_spares_its_own_life() -> None:
    g = Scene().battlefield(0, "Goblin Artillery").start()
    g.next_turn(1).until("end", 1).pass_()
    assert _pick(g, 0).startswith("Goblin Artillery")
    g.choose("activate", "Goblin Artillery")
    assert _pick(g, 0) == "Target B"
    g = Scene().battlefield(0, "Goblin Artillery").life(0, 5).start()
    g.next_turn(1).until("end", 1).pass_()
    assert _pick(g, 0) == "Pass priority"  # 3 damage to itself at 5 life: no


def test_it_sacrifices_its_least_valuable_creature_and_divides_to_kill() -> None:
    g = Scene().battlefield(0, "Vampire Aristocrat", "Craw Wurm", "Elite Vanguard").start()
    g.choose("activate", "Vampire Aristocrat")
    assert _pick(g, 0) == "Sacrifice Elite Vanguard"
    g = (Scene().battlefield(0, "Mountain", "Mountain", *("Wastes",) * 6)
         .hand(0, "Bogardan Hellkite").battlefield(1, "Silvercoat Lion", "Craw Wurm").start())
    g.cast(0, "Bogardan Hellkite").resolve().target("Silvercoat Lion").target("Craw Wurm")
    g.choose("done")
    assert _pick(g, 0) == "2 to Silvercoat Lion"


def test_the_random_bot_finishes_games_with_these_cards() -> None:
    """Every decision these cards add offers a choice and ends: random play runs to the end."""
    deck = ["Vampire Aristocrat", "Dragon Whelp", "Bogardan Hellkite", "Magma Phoenix",
            "Elvish Archdruid", "Gravedigger", "Ball Lightning", "Royal Assassin"]
    for seed in range(3):
        g = (Scene().battlefield(0, *("Mountain",) * 4, *("Swamp",) * 4, *("Forest",) * 3)
             .battlefield(1, *("Mountain",) * 8).hand(0, *deck).hand(1, *deck)
             .graveyard(0, "Magma Phoenix", "Craw Wurm").start(seed))
        rng = random.Random(seed)
        for _ in range(3000):
            if g.table.finished or g.game.turn > 6:
                break
            d = g.decision
            pick = random_strategy(g.view(d.player), d.to_wire(), rng)
            g.table.act(d.player, d.serial, d.actions[pick].id)
        assert g.table.finished or g.game.turn > 6
