"""The bots with M10's planeswalkers and token makers: the heuristic uses loyalty abilities
sensibly (a plus when nothing better, a minus on a threat, the ultimate when it can) and
attacks a planeswalker it can finish; neither bot stalls on the decisions these cards add
(X for a "[-X]" cost, what to sacrifice, a search that may find nothing)."""

from __future__ import annotations

import random

import pytest

from arbiter.bots import heuristic_strategy, random_strategy
from arbiter.server.local import play_local
from arbiter.server.rules.cards.catalog import cards

from ..rules.helpers import G, Scene

MINUS = "\u2212"


def _pick(g: G) -> str:
    d = g.decision
    pick = heuristic_strategy(g.view(d.player), d.to_wire(), random.Random(0), cards())
    return d.actions[pick].label


def _play(g: G) -> None:
    d = g.decision
    pick = heuristic_strategy(g.view(d.player), d.to_wire(), random.Random(0), cards())
    g.table.act(d.player, d.serial, d.actions[pick].id)


def test_606_the_heuristic_uses_a_plus_ability_when_nothing_is_better() -> None:
    g = Scene().battlefield(0, "Chandra Nalaar").start()
    assert _pick(g) == "Chandra Nalaar: +1: Chandra Nalaar deals 1 damage to target player " \
        "or planeswalker."
    _play(g)
    assert _pick(g) == "Target B"  # at the opponent, not itself


def test_606_the_heuristic_spends_just_enough_loyalty_to_remove_a_threat() -> None:
    g = Scene().battlefield(0, "Chandra Nalaar").battlefield(1, "Hill Giant").start()
    assert _pick(g).startswith(f"Chandra Nalaar: {MINUS}X")
    _play(g)
    assert g.decision.kind == "x" and _pick(g) == "X = 3"  # the Giant's toughness
    _play(g)
    assert _pick(g) == "Target Hill Giant"


def test_606_the_heuristic_uses_an_ultimate_at_an_opponent() -> None:
    g = (Scene().battlefield(0, "Jace Beleren", counters={"loyalty": 10})
         .library(1, *["Forest"] * 25).start())
    assert _pick(g).startswith(f"Jace Beleren: {MINUS}10")
    _play(g)
    assert _pick(g) == "Target B"


def test_606_the_heuristic_has_a_player_draw_themselves() -> None:
    g = Scene().battlefield(0, "Jace Beleren").start()
    g.choose("activate", f"Jace Beleren: {MINUS}1")
    assert _pick(g) == "Target A"


def test_508_1b_the_heuristic_attacks_a_planeswalker_it_can_finish() -> None:
    g = (Scene().battlefield(0, "Hill Giant", "Grizzly Bears")
         .battlefield(1, "Jace Beleren").at("begin_combat").start())
    g.pass_(2)
    jace = g.obj("Jace Beleren")
    d = g.decision
    pick = d.actions[heuristic_strategy(g.view(0), d.to_wire(), random.Random(0), cards())]
    assert pick.ref == ("o", jace.oid) and pick.obj == g.obj("Hill Giant").oid


def test_the_heuristic_sends_its_wolves_and_makes_tokens_with_spare_mana() -> None:
    g = (Scene().battlefield(0, "Master of the Wild Hunt").battlefield(1, "Hill Giant")
         .start())
    assert _pick(g).startswith("Master of the Wild Hunt: {T}")
    _play(g)
    assert _pick(g) == "Target Hill Giant"
    g = Scene().battlefield(0, "Ant Queen", "Forest", "Forest").start()
    assert _pick(g).startswith("Ant Queen: {1}{G}")
    g = Scene().battlefield(0, "Gargoyle Castle", *["Wastes"] * 5).start()
    assert _pick(g) == "Pass priority"  # not the land itself


@pytest.mark.parametrize("strategy", [heuristic_strategy, random_strategy])
def test_the_bots_play_planeswalkers_and_token_makers_to_the_end(strategy: object) -> None:
    scene = Scene()
    for pid in (0, 1):
        scene.battlefield(pid, *["Mountain"] * 3, *["Forest"] * 3, *["Swamp"] * 2,
                          "Gargoyle Castle", "Siege-Gang Commander", "Ant Queen",
                          "Master of the Wild Hunt", "Cemetery Reaper")
        scene.hand(pid, "Chandra Nalaar", "Liliana Vess", "Jace Beleren", "Ajani Goldmane",
                   "Garruk Wildspeaker",
                   "Howl of the Night Pack", "Captain of the Watch")
        scene.library(pid, *["Grizzly Bears", "Mountain", "Plains", "Island"] * 5)
    for seed in range(3):
        table, applied = play_local(scene.build_config(), seed, [strategy] * 2,  # type: ignore
                                    bot_seed=seed, max_actions=6000)
        assert table.finished, f"seed {seed}: unfinished after {applied} actions"
