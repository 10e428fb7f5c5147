"""The Auras and Equipment of Magic 2010, each played in a real game situation (the rules they
stand on are tested in test_attachments_301_303.py)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.bots import heuristic_strategy, random_strategy
from arbiter.bots.strategies import Strategy
from arbiter.server.rules.cards.catalog import cards
from arbiter.server.rules.characteristics import has_keyword, power, subtypes, toughness
from arbiter.server.rules.state import Action

from .helpers import G, Scene
from .random_play import alternating_decks, assert_replays_and_conserves, assert_views_converge


def _pt(g: G, name: str, controller: int | None = None) -> tuple[int, int]:
    o = g.obj(name, controller=controller)
    return power(g.game, o), toughness(g.game, o)


def _equipped(scene: Scene, equipment: str, creature: str) -> G:
    """``equipment`` on the battlefield, equipped to ``creature`` with its equip ability."""
    g = scene.battlefield(0, equipment, creature, "Wastes", "Wastes").start()
    g.activate(0, equipment, "{2}", target=creature).resolve()
    assert g.obj(equipment).attached_to == g.obj(creature).oid
    return g


def test_indestructibility_keeps_a_creature_alive_through_lethal_damage() -> None:
    g = (Scene().battlefield(0, "Plains", "Plains", "Plains", "Plains", "Grizzly Bears",
                             "Mountain")
         .hand(0, "Indestructibility", "Lightning Bolt").start())
    g.cast(0, "Indestructibility", "Grizzly Bears").resolve()
    assert has_keyword(g.game, g.obj("Grizzly Bears"), "indestructible")
    g.cast(0, "Lightning Bolt", "Grizzly Bears").resolve()
    # 3 damage on a 2/2: lethal, but it is not destroyed (CR 702.12b).
    assert g.obj("Grizzly Bears").damage == 3 and g.zone_names("graveyard", 0) == [
        "Lightning Bolt"]


def test_indestructibility_enchants_any_permanent_such_as_a_land() -> None:
    g = (Scene().battlefield(0, "Plains", "Plains", "Plains", "Plains")
         .hand(0, "Indestructibility").start())
    g.cast(0, "Indestructibility", "Plains").resolve()
    aura = g.obj("Indestructibility")
    assert has_keyword(g.game, g.game.objects[aura.attached_to], "indestructible")


def test_lifelink_gains_its_controller_life_for_the_damage_dealt() -> None:
    g = (Scene().battlefield(0, "Plains", "Grizzly Bears").hand(0, "Lifelink").life(0, 10)
         .start())
    g.cast(0, "Lifelink", "Grizzly Bears").resolve()
    g.until("declare_attackers").attack(("Grizzly Bears", 1)).until("combat_damage")
    g.until("end")
    assert g.life(1) == 18 and g.life(0) == 12


def test_pacifism_stops_the_enchanted_creature_attacking_and_blocking() -> None:
    g = (Scene().battlefield(0, "Plains", "Plains", "Grizzly Bears")
         .battlefield(1, "Runeclaw Bear").hand(0, "Pacifism").start())
    g.cast(0, "Pacifism", "Runeclaw Bear").resolve()
    g.until("declare_attackers").attack(("Grizzly Bears", 1)).pass_(2)
    assert g.decision.kind != "blockers" or g.find("block") is None  # it can't block
    g.next_turn(1, "begin_combat").pass_(2)
    assert g.decision.kind != "attackers"  # and it can't attack: no attack is offered


def test_convincing_mirage_makes_a_land_the_chosen_basic_land_type() -> None:
    g = (Scene().battlefield(0, "Island", "Island", "Bog Wraith").battlefield(1, "Forest")
         .hand(0, "Convincing Mirage").start())
    g.cast(0, "Convincing Mirage", "Forest").resolve()
    assert g.decision.kind == "land_type"
    g.choose("land_type", "Swamp")
    forest = g.obj("Forest")
    assert set(subtypes(g.game, forest)) == {"Swamp"}  # no longer a Forest (CR 305.7)
    # It taps for {B} now, not {G}; and swampwalk sees a Swamp.
    g.until("declare_attackers").attack(("Bog Wraith", 1)).pass_(2)
    assert g.decision.kind != "blockers"
    g.next_turn(1)
    assert g.find("mana", "Tap Forest for {B}", player=1) is not None
    assert g.find("mana", "Tap Forest for {G}", player=1) is None


def test_ice_cage_stops_attacks_blocks_and_activations_until_it_is_targeted() -> None:
    g = (Scene().battlefield(0, "Island", "Island", "Forest")
         .battlefield(1, "Prodigal Pyromancer").hand(0, "Ice Cage", "Giant Growth").start())
    g.cast(0, "Ice Cage", "Prodigal Pyromancer").resolve()
    g.next_turn(1)
    assert g.find("activate", "Prodigal Pyromancer", player=1) is None
    g.next_turn(0)
    # Giant Growth targets it: Ice Cage's trigger resolves first and destroys Ice Cage.
    g.cast(0, "Giant Growth", "Prodigal Pyromancer")
    assert g.game.stack[-1].source is not None and g.game.stack[-1].source.name == "Ice Cage"
    g.resolve()
    assert g.zone_names("graveyard", 0) == ["Ice Cage"]
    g.resolve()
    g.next_turn(1)
    assert g.find("activate", "Prodigal Pyromancer", player=1) is not None


def test_illusionary_servant_is_sacrificed_when_it_becomes_a_target() -> None:
    g = (Scene().battlefield(0, "Mountain").battlefield(1, "Illusionary Servant")
         .hand(0, "Lightning Bolt").start())
    g.cast(0, "Lightning Bolt", "Illusionary Servant")
    g.resolve()  # the trigger: its controller sacrifices it
    assert g.zone_names("graveyard", 1) == ["Illusionary Servant"]
    g.resolve()  # Lightning Bolt has no legal target left
    assert g.life(1) == 20 and g.zone_names("graveyard", 0) == ["Lightning Bolt"]


def test_soul_bleed_drains_the_enchanted_creatures_controller_each_of_their_upkeeps() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Swamp").battlefield(1, "Grizzly Bears")
         .hand(0, "Soul Bleed").start())
    g.cast(0, "Soul Bleed", "Grizzly Bears").resolve()
    g.next_turn(1, "upkeep")
    g.resolve()
    assert g.life(1) == 19 and g.life(0) == 20
    g.next_turn(0, "draw")  # nothing in its caster's upkeep
    assert g.life(1) == 19 and g.life(0) == 20


def test_firebreathing_pumps_the_enchanted_creature_for_each_r() -> None:
    g = (Scene().battlefield(0, "Mountain", "Mountain", "Mountain", "Grizzly Bears")
         .hand(0, "Firebreathing").start())
    g.cast(0, "Firebreathing", "Grizzly Bears").resolve()
    g.activate(0, "Firebreathing", "{R}").resolve()
    g.activate(0, "Firebreathing", "{R}").resolve()
    assert _pt(g, "Grizzly Bears") == (4, 2)
    g.next_turn(1)
    assert _pt(g, "Grizzly Bears") == (2, 2)  # until end of turn


def test_entangling_vines_enchants_a_tapped_creature_that_then_stays_tapped() -> None:
    g = (Scene().battlefield(0, "Forest", "Forest", "Forest", "Forest")
         .battlefield(1, "Grizzly Bears", tapped=True).battlefield(1, "Runeclaw Bear")
         .hand(0, "Entangling Vines").start())
    g.cast(0, "Entangling Vines")
    assert [a.label for a in g.options() if a.kind == "target"] == ["Target Grizzly Bears"]
    g.target("Grizzly Bears").resolve()
    g.next_turn(1)
    assert g.obj("Grizzly Bears").tapped  # CR 502.3: it doesn't untap


def test_gorgon_flail_gives_plus_one_and_deathtouch() -> None:
    g = _equipped(Scene().battlefield(1, "Giant Spider"), "Gorgon Flail", "Grizzly Bears")
    assert _pt(g, "Grizzly Bears") == (3, 3)
    assert has_keyword(g.game, g.obj("Grizzly Bears"), "deathtouch")
    g.until("declare_attackers").attack(("Grizzly Bears", 1)).pass_(2)
    g.block(1, ("Giant Spider", "Grizzly Bears")).until("end")
    assert g.zone_names("graveyard", 1) == ["Giant Spider"]  # 3 deathtouch damage on a 2/4


def test_magebane_armor_grounds_toughens_and_prevents_noncombat_damage() -> None:
    g = _equipped(Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt"),
                  "Magebane Armor", "Air Elemental")
    elemental = g.obj("Air Elemental")
    assert _pt(g, "Air Elemental") == (6, 8) and not has_keyword(g.game, elemental, "flying")
    g.cast(0, "Lightning Bolt", "Air Elemental").resolve()
    assert g.obj("Air Elemental").damage == 0  # prevented: noncombat damage


def test_magebane_armor_lets_combat_damage_through() -> None:
    g = _equipped(Scene().battlefield(1, "Giant Spider"), "Magebane Armor", "Grizzly Bears")
    g.next_turn(1, "begin_combat").pass_(2).attack(("Giant Spider", 0)).pass_(2)
    g.block(0, ("Grizzly Bears", "Giant Spider")).until("end")
    assert g.obj("Grizzly Bears").damage == 2  # combat damage is not prevented


def test_whispersilk_cloak_makes_the_creature_unblockable_and_untargetable() -> None:
    g = _equipped(Scene().battlefield(0, "Forest").battlefield(1, "Giant Spider")
                  .hand(0, "Giant Growth"), "Whispersilk Cloak", "Grizzly Bears")
    g.cast(0, "Giant Growth")  # shroud: only the Spider may be its target
    assert [a.label for a in g.options() if a.kind == "target"] == ["Target Giant Spider"]
    g.target("Giant Spider").resolve()
    g.until("declare_attackers").attack(("Grizzly Bears", 1)).pass_(2)
    assert g.decision.kind != "blockers"  # nothing can block it
    g.until("end")
    assert g.life(1) == 18


def test_open_the_vaults_returns_artifacts_and_enchantments_and_attaches_auras() -> None:
    g = (Scene().battlefield(0, *["Plains"] * 6).battlefield(1, "Grizzly Bears")
         .graveyard(0, "Ornithopter", "Pacifism", "Grizzly Bears")
         .graveyard(1, "Honor of the Pure", "Entangling Vines")
         .hand(0, "Open the Vaults").start())
    g.cast(0, "Open the Vaults").resolve()
    # Pacifism's owner chooses what it enchants, without targeting (CR 303.4f).
    assert g.decision.kind == "enchant" and g.decision.player == 0
    g.choose("enchant", "Grizzly Bears")
    assert g.obj("Pacifism").attached_to == g.obj("Grizzly Bears", controller=1).oid
    assert g.obj("Ornithopter").controller == 0 and g.obj("Honor of the Pure").controller == 1
    # No tapped creature for Entangling Vines: it stays (CR 303.4g), and creatures stay too.
    assert g.zone_names("graveyard", 1) == ["Entangling Vines"]
    assert g.zone_names("graveyard", 0) == ["Grizzly Bears", "Open the Vaults"]


# --------------------------------------------------------------------------- the bots


def _bot_pick(g: G, strategy: Strategy = heuristic_strategy, seed: int = 0) -> Action:
    d = g.decision
    return d.actions[strategy(g.view(d.player), d.to_wire(), random.Random(seed), cards())]


def test_the_heuristic_bot_aims_pacifism_at_the_best_opposing_creature() -> None:
    g = (Scene().battlefield(0, "Plains", "Plains", "Grizzly Bears")
         .battlefield(1, "Runeclaw Bear", "Air Elemental").hand(0, "Pacifism").start())
    g.cast(0, "Pacifism")
    assert _bot_pick(g).ref == g.ref(g.obj("Air Elemental"))


def test_the_heuristic_bot_puts_a_helpful_aura_on_its_own_creature() -> None:
    g = (Scene().battlefield(0, "Plains", "Grizzly Bears").battlefield(1, "Air Elemental")
         .hand(0, "Lifelink").start())
    g.cast(0, "Lifelink")
    assert _bot_pick(g).ref == g.ref(g.obj("Grizzly Bears"))


def test_the_heuristic_bot_holds_pacifism_when_only_its_own_creatures_could_take_it() -> None:
    g = (Scene().battlefield(0, "Plains", "Plains", "Grizzly Bears").hand(0, "Pacifism")
         .start())
    assert _bot_pick(g).kind == "pass"


def test_the_heuristic_bot_equips_its_best_creature_once() -> None:
    g = (Scene().battlefield(0, "Gorgon Flail", "Grizzly Bears", "Air Elemental",
                             *["Wastes"] * 4).start())
    assert _bot_pick(g).kind == "activate"
    g.activate(0, "Gorgon Flail", "{2}")
    assert _bot_pick(g).ref == g.ref(g.obj("Air Elemental"))
    g.target("Air Elemental").resolve()
    assert _bot_pick(g).kind == "pass"  # already equipped: no mana spent moving it around


def test_the_random_bot_finishes_the_choices_these_cards_ask() -> None:
    """Open the Vaults's Aura choice and Convincing Mirage's land type end in a few picks."""
    for seed in range(4):
        g = (Scene().battlefield(0, *["Plains"] * 6).battlefield(1, "Grizzly Bears", "Forest")
             .graveyard(0, "Pacifism", "Convincing Mirage").hand(0, "Open the Vaults").start())
        g.cast(0, "Open the Vaults").pass_(2)
        for _ in range(10):
            if g.decision.kind == "priority":
                break
            a = _bot_pick(g, random_strategy, seed)
            g.table.act(g.decision.player, g.decision.serial, a.id)
        assert g.decision.kind == "priority"
        assert g.obj("Convincing Mirage").chosen and g.obj("Pacifism").attached_to is not None


def test_the_heuristic_bot_returns_pacifism_onto_an_opposing_creature() -> None:
    g = (Scene().battlefield(0, *["Plains"] * 6, "Air Elemental")
         .battlefield(1, "Grizzly Bears").graveyard(0, "Pacifism").hand(0, "Open the Vaults")
         .start())
    g.cast(0, "Open the Vaults").resolve()
    assert _bot_pick(g).ref == g.ref(g.obj("Grizzly Bears"))


# --------------------------------------------------------------------------- whole games

# Two 40-card decks of these cards, in twos so that random games see them attached, moved,
# knocked off and returned (the invariants of test_properties.py over them).
GEARED = (["Plains"] * 9 + ["Island"] * 9
          + ["Pacifism", "Lifelink", "Ice Cage", "Convincing Mirage", "Gorgon Flail",
             "Illusionary Servant", "Grizzly Bears"] * 2
          + ["Indestructibility", "Open the Vaults", "Whispersilk Cloak", "Magebane Armor",
             "Air Elemental", "Serra Angel", "Twincast", "Runeclaw Bear"])
ENTANGLED = (["Swamp"] * 9 + ["Mountain"] * 5 + ["Forest"] * 4
             + ["Soul Bleed", "Firebreathing", "Weakness", "Lightning Bolt", "Raging Goblin",
                "Grizzly Bears", "Prodigal Pyromancer"] * 2
             + ["Entangling Vines", "Gorgon Flail", "Giant Growth", "Llanowar Elves", "Fireball",
                "Goblin Chieftain", "Quickening Earth", "Child of Night"])

games = st.tuples(st.sampled_from([2, 3]), st.integers(0, 2**32 - 1), st.integers(0, 2**16))


def test_the_attachment_decks_are_forty_cards() -> None:
    assert len(GEARED) == len(ENTANGLED) == 40


@settings(max_examples=4, deadline=None)
@given(games)
def test_attachment_games_replay_to_the_same_hash_and_conserve_cards(
        case: tuple[Any, ...]) -> None:
    players, seed, bot_seed = case
    assert_replays_and_conserves(alternating_decks(players, [GEARED, ENTANGLED]), seed, bot_seed)


@settings(max_examples=4, deadline=None)
@given(games)
def test_attachment_games_incremental_views_equal_fresh_snapshots(case: tuple[Any, ...]) -> None:
    players, seed, bot_seed = case
    assert_views_converge(alternating_decks(players, [GEARED, ENTANGLED]), seed, bot_seed)
