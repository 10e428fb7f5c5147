"""The Magic 2010 cards with triggered abilities (arbiter/server/rules/cards/sets/m10.py), each
played in a game and doing what its text says. The rules of triggering themselves (CR 603.2,
603.4, 603.7, 605.5a) are tested in test_triggers_603.py."""

from __future__ import annotations

import random

import pytest

from arbiter.bots import heuristic_strategy, random_strategy
from arbiter.bots.strategies import Strategy
from arbiter.server.rules.cards.catalog import cards
from arbiter.server.rules.cards.vocab import FLYING
from arbiter.server.rules.characteristics import colors, has_keyword, is_type, subtypes

from .helpers import G, Scene


def _pt(g: G, name: str, controller: int | None = None) -> list[int]:
    return list(g.view(1)[g.obj(name, controller=controller).oid]["pt"])


def _hand(g: G, pid: int) -> int:
    return len(g.game.hand(pid))


def test_soul_warden_gains_1_life_whenever_another_creature_enters() -> None:
    g = (Scene().battlefield(0, "Plains", "Forest", "Wastes").hand(0, "Soul Warden",
                                                                    "Grizzly Bears")
         .start())
    g.cast(0, "Soul Warden").resolve()
    assert not g.game.stack and g.life(0) == 20  # not for itself: "another creature"
    g.cast(0, "Grizzly Bears").resolve()
    assert g.zone_names("stack") == ["Soul Warden"]
    g.resolve()
    assert g.life(0) == 21


def test_soul_warden_sees_an_opponents_creature_too() -> None:
    g = (Scene().battlefield(0, "Soul Warden").battlefield(1, "Forest", "Wastes")
         .hand(1, "Grizzly Bears").at("main1", 1).start())
    g.cast(1, "Grizzly Bears").resolve().resolve()
    assert g.life(0) == 21 and g.life(1) == 20


def test_mesa_enchantress_may_draw_when_you_cast_an_enchantment() -> None:
    g = (Scene().battlefield(0, "Mesa Enchantress", "Plains").hand(0, "Holy Strength")
         .start())
    g.cast(0, "Holy Strength", "Mesa Enchantress")
    assert g.zone_names("stack") == ["Holy Strength", "Mesa Enchantress"]
    g.resolve().choose("yes", player=0)
    assert _hand(g, 0) == 1  # the card drawn
    g.resolve()
    assert _pt(g, "Mesa Enchantress") == [1, 4]


def test_mesa_enchantress_ignores_an_opponents_enchantment_and_may_decline() -> None:
    g = (Scene().battlefield(0, "Mesa Enchantress", "Plains").hand(0, "Holy Strength")
         .battlefield(1, "Plains").hand(1, "Holy Strength").battlefield(1, "Grizzly Bears")
         .at("main1", 1).start())
    g.cast(1, "Holy Strength", "Grizzly Bears")
    assert g.zone_names("stack") == ["Holy Strength"]
    g.resolve()
    g.next_turn(0)
    g.cast(0, "Holy Strength", "Mesa Enchantress").resolve().choose("no")
    assert _hand(g, 0) == 1  # the card of its draw step only


@pytest.mark.parametrize(("artifact", "spell", "lands"), [
    ("Angel's Feather", "White Knight", ["Plains", "Plains"]),
    ("Kraken's Eye", "Snapping Drake", ["Island", "Wastes", "Wastes", "Wastes"]),
    ("Demon's Horn", "Child of Night", ["Swamp", "Wastes"]),
    ("Dragon's Claw", "Raging Goblin", ["Mountain"]),
    ("Wurm's Tooth", "Grizzly Bears", ["Forest", "Wastes"]),
])
def test_each_life_artifact_may_gain_1_life_on_its_colour(artifact: str, spell: str,
                                                           lands: list[str]) -> None:
    g = (Scene().battlefield(0, artifact, *lands).hand(0, "Ornithopter", spell)
         .battlefield(1, "Plains", "Island", "Swamp", "Mountain", "Forest").start())
    g.cast(0, "Ornithopter")  # colourless: nothing
    assert g.zone_names("stack") == ["Ornithopter"]
    g.resolve()
    g.cast(0, spell)
    assert g.zone_names("stack") == [spell, artifact]  # "a player": here, you
    g.resolve().choose("yes")
    assert g.life(0) == 21


def test_mold_adder_may_grow_when_an_opponent_casts_a_blue_spell() -> None:
    g = (Scene().battlefield(0, "Mold Adder", "Island").hand(0, "Disorient")
         .battlefield(1, "Island", "Wastes", "Wastes", "Wastes").hand(1, "Disorient")
         .start())
    g.pass_()
    g.cast(1, "Disorient", "Mold Adder")
    assert g.zone_names("stack") == ["Disorient", "Mold Adder"]
    g.resolve().choose("yes", player=0)
    assert g.obj("Mold Adder").counter("+1/+1") == 1
    g.resolve()
    assert _pt(g, "Mold Adder") == [-5, 2]


def test_mold_adder_ignores_its_controllers_spells_and_other_colours() -> None:
    g = (Scene().battlefield(0, "Mold Adder", "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.cast(0, "Lightning Bolt", 1).pass_()
    g.cast(1, "Lightning Bolt", 0)
    assert g.zone_names("stack") == ["Lightning Bolt", "Lightning Bolt"]


def test_megrim_deals_2_damage_to_an_opponent_who_discards() -> None:
    g = (Scene().battlefield(0, "Megrim", "Swamp", "Swamp", "Wastes")
         .hand(0, "Mind Shatter").hand(1, "Grizzly Bears", "Forest").start())
    g.choose("cast", "Cast Mind Shatter").choose("x", "X = 1").target(1)
    g.resolve()
    assert g.zone_names("stack") == ["Megrim"]
    g.resolve()
    assert g.life(1) == 18 and _hand(g, 1) == 1


def test_megrim_ignores_its_controllers_own_discards() -> None:
    g = (Scene().battlefield(0, "Megrim", "Swamp", "Swamp", "Wastes")
         .hand(0, "Mind Shatter", "Forest").start())
    g.choose("cast", "Cast Mind Shatter").choose("x", "X = 1").target(0)
    g.resolve()
    assert not g.game.stack and g.life(0) == 20 and g.zone_names("graveyard", 0) == [
        "Forest", "Mind Shatter"]


def test_underworld_dreams_deals_1_damage_for_each_card_an_opponent_draws() -> None:
    g = (Scene().battlefield(0, "Underworld Dreams", "Island", "Wastes", "Wastes")
         .battlefield(1, "Underworld Dreams").hand(0, "Divination").start())
    g.cast(0, "Divination").resolve()  # its own controller's draws: nothing from it
    assert g.zone_names("stack") == ["Underworld Dreams", "Underworld Dreams"]
    g.resolve_all()
    assert g.life(0) == 18 and g.life(1) == 20


def test_sanguine_bond_makes_an_opponent_lose_the_life_you_gain() -> None:
    g = (Scene().battlefield(0, "Sanguine Bond", "Plains", "Plains", "Wastes", "Wastes")
         .hand(0, "Angel's Mercy").start())
    g.cast(0, "Angel's Mercy").resolve()
    g.target(1).resolve()
    assert g.life(0) == 27 and g.life(1) == 13


def test_manabarbs_deals_1_damage_to_whoever_taps_a_land_for_mana() -> None:
    g = (Scene().battlefield(0, "Manabarbs", "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Mountain").start())
    g.cast(0, "Lightning Bolt", 1)
    assert g.zone_names("stack") == ["Lightning Bolt", "Manabarbs"]
    g.resolve()
    assert g.life(0) == 19
    g.pass_()
    g.choose("mana", "Tap Mountain", player=1)  # an opponent's land: that player
    g.resolve_all()
    assert g.life(1) == 16  # 3 from the Bolt, 1 from Manabarbs


def test_howling_mine_gives_each_player_an_extra_card_in_their_draw_step() -> None:
    g = Scene().battlefield(0, "Howling Mine").at("end", 0, turn=2).start()
    g.until("draw", 1)
    assert _hand(g, 1) == 1 and g.zone_names("stack") == ["Howling Mine"]
    g.resolve()
    assert _hand(g, 1) == 2
    g.until("draw", 0)
    g.resolve()
    assert _hand(g, 0) == 2


def test_lightwielder_paladin_may_exile_a_black_or_red_permanent_of_the_player_it_hit(
) -> None:
    g = (Scene().battlefield(0, "Lightwielder Paladin", "Raging Goblin")
         .battlefield(1, "Child of Night", "Hill Giant", "Grizzly Bears", "Mountain")
         .at("begin_combat").start())
    g.pass_(2).attack(("Lightwielder Paladin", 1)).pass_(2).no_blocks(1)
    while g.decision.kind != "target":  # to its first-strike combat damage
        g.step_on()
    assert g.game.step == "first_strike_damage"
    offered = {g.game.objects[a.ref[1]].name for a in g.decision.actions}
    # Not green, not colourless, not its controller's own red Goblin.
    assert offered == {"Child of Night", "Hill Giant"}
    g.target("Hill Giant").resolve().choose("yes")
    assert g.zone_names("exile") == ["Hill Giant"] and g.life(1) == 16


def test_hypnotic_specter_makes_the_player_it_damages_discard_at_random() -> None:
    g = (Scene().battlefield(0, "Hypnotic Specter").hand(1, "Forest", "Island", "Swamp")
         .at("begin_combat").start())
    g.pass_(2).attack(("Hypnotic Specter", 1)).pass_(2)
    g.until("combat_damage")
    g.resolve()
    assert g.life(1) == 18 and _hand(g, 1) == 2 and len(g.game.graveyard(1)) == 1


def test_hypnotic_specter_damaging_a_creature_makes_nobody_discard() -> None:
    g = (Scene().battlefield(0, "Hypnotic Specter").battlefield(1, "Giant Spider")
         .hand(1, "Forest").at("begin_combat").start())
    g.pass_(2).attack(("Hypnotic Specter", 1)).pass_(2).block(1, ("Giant Spider",
                                                                   "Hypnotic Specter"))
    g.until("main2")
    assert _hand(g, 1) == 1 and g.zone_names("graveyard", 0) == ["Hypnotic Specter"]


def test_xathrid_demon_sacrifices_another_creature_and_drains_its_power() -> None:
    g = (Scene().battlefield(0, "Xathrid Demon", "Grizzly Bears", "Hill Giant")
         .at("upkeep").start())
    g.resolve()
    assert g.decision.kind == "sacrifice"
    assert sorted(a.label for a in g.decision.actions) == [
        "Sacrifice Grizzly Bears", "Sacrifice Hill Giant"]  # never itself
    g.choose("choose_card", "Sacrifice Hill Giant")
    assert g.life(1) == 17 and g.life(0) == 20
    assert g.zone_names("graveyard", 0) == ["Hill Giant"]


def test_xathrid_demon_alone_is_tapped_and_its_controller_loses_7() -> None:
    g = Scene().battlefield(0, "Xathrid Demon").at("upkeep").start()
    g.resolve()
    assert g.obj("Xathrid Demon").tapped and g.life(0) == 13 and g.life(1) == 20


def test_capricious_efreet_destroys_one_of_its_targets_at_random() -> None:
    g = (Scene().battlefield(0, "Capricious Efreet", "Grizzly Bears", "Forest")
         .battlefield(1, "Serra Angel", "Hill Giant", "Plains").at("upkeep").start())
    mine = {g.game.objects[a.ref[1]].name for a in g.decision.actions}
    assert mine == {"Capricious Efreet", "Grizzly Bears"}  # nonland, yours
    g.target("Grizzly Bears")
    theirs = {g.game.objects[a.ref[1]].name for a in g.decision.actions if a.ref}
    assert theirs == {"Serra Angel", "Hill Giant"}
    g.target("Serra Angel").target("Hill Giant")
    chosen = {"Grizzly Bears", "Serra Angel", "Hill Giant"}
    g.resolve()
    gone = {n for n in chosen if not g.objs(n, "battlefield")}
    assert len(gone) == 1 and gone <= chosen
    assert g.objs("Capricious Efreet", "battlefield") and g.objs("Forest", "battlefield")


def test_capricious_efreet_may_choose_none_of_an_opponents_permanents() -> None:
    g = (Scene().battlefield(0, "Capricious Efreet").battlefield(1, "Serra Angel")
         .at("upkeep").start())
    g.target("Capricious Efreet").choose("done")
    g.resolve()
    assert g.zone_names("graveyard", 0) == ["Capricious Efreet"]
    assert g.objs("Serra Angel", "battlefield")


def test_inferno_elemental_deals_3_damage_to_a_creature_blocking_it() -> None:
    g = (Scene().battlefield(0, "Inferno Elemental").battlefield(1, "Giant Spider")
         .at("begin_combat").start())
    g.pass_(2).attack(("Inferno Elemental", 1)).pass_(2)
    g.block(1, ("Giant Spider", "Inferno Elemental"))
    assert g.zone_names("stack") == ["Inferno Elemental"]
    g.resolve()
    assert g.obj("Giant Spider").damage == 3


def test_inferno_elemental_deals_3_damage_to_the_creature_it_blocks() -> None:
    g = (Scene().battlefield(0, "Hill Giant").battlefield(1, "Inferno Elemental")
         .at("begin_combat").start())
    g.pass_(2).attack(("Hill Giant", 1)).pass_(2)
    g.block(1, ("Inferno Elemental", "Hill Giant"))
    g.resolve()
    assert g.zone_names("graveyard", 0) == ["Hill Giant"]


def test_wall_of_frost_keeps_the_creature_it_blocks_tapped_one_untap_step() -> None:
    g = (Scene().battlefield(0, "Hill Giant").battlefield(1, "Wall of Frost")
         .at("begin_combat").start())
    g.pass_(2).attack(("Hill Giant", 1)).pass_(2)
    g.block(1, ("Wall of Frost", "Hill Giant")).resolve()
    g.next_turn(0, "upkeep")
    assert g.obj("Hill Giant").tapped  # its controller's next untap step passed it by
    g.next_turn(0, "upkeep")
    assert not g.obj("Hill Giant").tapped


def test_bramble_creeper_gets_5_power_when_it_attacks() -> None:
    g = Scene().battlefield(0, "Bramble Creeper").at("begin_combat").start()
    assert _pt(g, "Bramble Creeper") == [0, 3]
    g.pass_(2).attack(("Bramble Creeper", 1))
    g.resolve()
    assert _pt(g, "Bramble Creeper") == [5, 3]
    g.until("main2")
    assert g.life(1) == 15
    g.next_turn(1)
    assert _pt(g, "Bramble Creeper") == [0, 3]


def test_stone_giant_gives_a_smaller_creature_flying_then_destroys_it() -> None:
    g = (Scene().battlefield(0, "Stone Giant", "Grizzly Bears", "Serra Angel").start())
    g.choose("activate", "Stone Giant")
    offered = {g.game.objects[a.ref[1]].name for a in g.decision.actions}
    assert offered == {"Grizzly Bears"}  # toughness 2 < power 3; Serra Angel's 4 is not
    g.target("Grizzly Bears").resolve()
    bears = g.obj("Grizzly Bears")
    assert has_keyword(g.game, bears, FLYING)
    g.until("end", 0)
    assert g.zone_names("stack") == ["Stone Giant"]  # the delayed trigger
    g.resolve()
    assert g.zone_names("graveyard", 0) == ["Grizzly Bears"]


def test_awakener_druid_animates_a_forest_while_it_remains() -> None:
    g = (Scene().battlefield(0, "Forest", "Forest", "Wastes").hand(0, "Awakener Druid")
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.cast(0, "Awakener Druid").resolve()
    forests = [o for o in g.game.battlefield if o.name == "Forest"]
    g.target(forests[1]).resolve()
    tree = forests[1]
    assert is_type(g.game, tree, "Creature") and is_type(g.game, tree, "Land")
    assert colors(g.game, tree) == {"G"} and "Treefolk" in subtypes(g.game, tree)
    assert "Forest" in subtypes(g.game, tree)  # it's still a land
    assert g.view(1)[tree.oid]["pt"] == [4, 5]
    g.next_turn(1)
    assert is_type(g.game, tree, "Creature")  # not an until-end-of-turn effect
    g.cast(1, "Lightning Bolt", "Awakener Druid").resolve()
    assert not is_type(g.game, tree, "Creature")
    assert g.zone_names("graveyard", 0) == ["Awakener Druid"]


def test_the_heuristic_bot_sacrifices_its_weakest_creature() -> None:
    g = (Scene().battlefield(0, "Xathrid Demon", "Serra Angel", "Grizzly Bears", "Hill Giant")
         .at("upkeep").start())
    g.resolve()
    pick = heuristic_strategy(g.view(0), g.decision.to_wire(), random.Random(0), cards())
    assert g.decision.actions[pick].label == "Sacrifice Grizzly Bears"


def test_the_heuristic_bot_offers_capricious_efreet_its_weakest_permanent() -> None:
    g = (Scene().battlefield(0, "Capricious Efreet", "Serra Angel", "Grizzly Bears")
         .battlefield(1, "Hill Giant", "Baneslayer Angel").at("upkeep").start())
    pick = heuristic_strategy(g.view(0), g.decision.to_wire(), random.Random(0), cards())
    assert g.decision.actions[pick].ref == g.ref("Grizzly Bears")
    g.choose(None, obj=None, ref=g.ref("Grizzly Bears"))
    pick = heuristic_strategy(g.view(0), g.decision.to_wire(), random.Random(0), cards())
    assert g.decision.actions[pick].ref == g.ref("Baneslayer Angel")  # theirs: the best


TRIGGER_CARDS = ("Soul Warden", "Mesa Enchantress", "Angel's Feather", "Demon's Horn",
                 "Dragon's Claw", "Kraken's Eye", "Wurm's Tooth", "Mold Adder", "Megrim",
                 "Underworld Dreams", "Sanguine Bond", "Manabarbs", "Howling Mine",
                 "Lightwielder Paladin", "Hypnotic Specter", "Xathrid Demon",
                 "Bramble Creeper", "Inferno Elemental", "Wall of Frost", "Capricious Efreet",
                 "Stone Giant", "Awakener Druid")


@pytest.mark.parametrize("strategy", [heuristic_strategy, random_strategy])
def test_the_bots_play_games_full_of_triggers_to_their_end(strategy: Strategy) -> None:
    """Every decision these cards ask offers at least one option, and bots casting them from
    their hands and libraries play each game to its end."""
    lands = ("Plains", "Island", "Swamp", "Mountain", "Forest") * 2
    deck = [*TRIGGER_CARDS, *lands]
    for seed in range(3):
        g = (Scene().battlefield(0, *lands).battlefield(1, *lands)
             .hand(0, *TRIGGER_CARDS[:11]).hand(1, *TRIGGER_CARDS[11:])
             .life(0, 40).life(1, 40)
             .library(0, *deck).library(1, *reversed(deck)).start(seed))
        rng = random.Random(seed)
        for _ in range(3000):
            if g.table.finished:
                break
            d = g.decision
            assert d.actions, f"{d.kind} offers nothing"
            pick = strategy(g.view(d.player), d.to_wire(), rng, cards())
            g.table.act(d.player, d.serial, d.actions[pick].id)
        assert g.table.finished
