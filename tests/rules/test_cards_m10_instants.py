"""Magic 2010's instants and sorceries (arbiter/server/rules/cards/sets/m10.py): removal,
counterspells, recursion and mass effects, each played in a game, paid for with exactly its
cost, and doing what its text says. The rules of countering are in test_counterspells_701_5.py.
"""

from __future__ import annotations

import random

import pytest

from arbiter.bots import heuristic_strategy, random_strategy
from arbiter.bots.strategies import Strategy
from arbiter.server.rules.cards.catalog import cards
from arbiter.server.rules.cards.pool import POOL
from arbiter.server.rules.characteristics import colors, subtypes
from arbiter.server.rules.state import Action

from .helpers import G, Scene
from .random_play import (
    ACTION_LIMIT,
    alternating_decks,
    assert_replays_and_conserves,
    assert_views_converge,
)

LAND_FOR = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}

# Cast for exactly their cost here, each in a situation where it has what it targets; the
# generic test in test_cards_m10.py would have no target for most of them.
INSTANTS_CAST_HERE = frozenset({
    "Celestial Purge", "Divine Verdict", "Excommunicate", "Righteousness", "Solemn Offering",
    "Tempest of Light", "Planar Cleansing", "Cancel", "Essence Scatter", "Flashfreeze", "Negate",
    "Jump", "Unsummon", "Assassinate", "Deathmark", "Disentomb", "Doom Blade", "Mind Rot",
    "Rise from the Grave", "Sign in Blood", "Tendrils of Corruption", "Burst of Speed",
    "Ignite Disorder", "Pyroclasm", "Seismic Strike", "Shatter", "Trumpet Blast",
    "Bountiful Harvest", "Naturalize", "Nature's Spiral",
})


def lands(name: str) -> list[str]:
    """Lands that pay exactly ``name``'s mana cost (generic mana by Wastes)."""
    cost = POOL[name].cost
    assert cost is not None
    return ["Wastes"] * cost.generic + [LAND_FOR[c] for c, n in cost.pips for _ in range(n)]


def paid_exactly(g: G, pid: int = 0) -> None:
    """Every land ``pid`` has was tapped for the spell and no mana is left over."""
    assert all(o.tapped for o in g.game.battlefield
               if o.controller == pid and o.defn.is_("Land"))
    assert not any(g.game.players[pid].mana.values())


def offered(g: G) -> set[str]:
    """The names of what the pending target decision offers."""
    return {g.game.objects[a.ref[1]].name for a in g.decision.actions if a.ref}


def pt(g: G, name: str, pid: int = 1) -> list[int]:
    return list(g.view(pid)[g.obj(name).oid]["pt"])


@pytest.mark.parametrize("name", sorted(INSTANTS_CAST_HERE))
def test_each_is_uncastable_one_land_short(name: str) -> None:
    # A board with something for every one of them to target, but one land too few.
    g = (Scene().battlefield(0, *lands(name)[:-1], "Grizzly Bears", tapped=True)
         .battlefield(1, "Shivan Dragon", "Serra Angel", "Honor of the Pure", "Coat of Arms")
         .graveyard(0, "Grizzly Bears").graveyard(1, "Grizzly Bears").hand(0, name).start())
    assert g.find("cast", f"Cast {name}") is None


def test_instants_and_sorceries_are_the_types_printed() -> None:
    sorceries = {"Excommunicate", "Solemn Offering", "Planar Cleansing", "Assassinate",
                 "Deathmark", "Disentomb", "Mind Rot", "Rise from the Grave", "Sign in Blood",
                 "Burst of Speed", "Pyroclasm", "Bountiful Harvest", "Nature's Spiral"}
    for name in INSTANTS_CAST_HERE:
        assert POOL[name].types == {"Sorcery" if name in sorceries else "Instant"}, name


# --------------------------------------------------------------------------- white


def test_celestial_purge_exiles_a_red_permanent_not_a_green_one() -> None:
    g = (Scene().battlefield(0, *lands("Celestial Purge"))
         .battlefield(1, "Shivan Dragon", "Grizzly Bears").hand(0, "Celestial Purge").start())
    g.choose("cast", "Cast Celestial Purge")
    targets = offered(g)
    assert targets == {"Shivan Dragon"}  # black or red only
    g.target("Shivan Dragon").resolve()
    paid_exactly(g)
    assert g.zone_names("exile", None) == ["Shivan Dragon"]


def test_701_8_divine_verdict_destroys_an_attacking_creature_only() -> None:
    g = (Scene().battlefield(0, "Grizzly Bears", "Runeclaw Bear")
         .battlefield(1, *lands("Divine Verdict")).hand(1, "Divine Verdict")
         .at("begin_combat").start())
    assert g.find("cast", "Cast Divine Verdict", player=0) is None  # nothing in combat yet
    g.pass_(2).attack(("Grizzly Bears", 1)).pass_()
    g.choose("cast", "Cast Divine Verdict", player=1)
    assert offered(g) == {"Grizzly Bears"}
    g.target("Grizzly Bears").resolve()
    paid_exactly(g, 1)
    assert g.zone_names("graveyard", 0) == ["Grizzly Bears"]
    assert g.zone_names("graveyard", 1) == ["Divine Verdict"]


def test_excommunicate_puts_the_creature_on_top_of_its_owners_library() -> None:
    g = (Scene().battlefield(0, *lands("Excommunicate")).battlefield(1, "Serra Angel")
         .hand(0, "Excommunicate").start())
    g.cast(0, "Excommunicate", "Serra Angel").resolve()
    paid_exactly(g)
    assert g.game.library(1)[-1].name == "Serra Angel"  # the top is the end of the list
    assert not g.objs("Serra Angel", "battlefield")
    g.next_turn(1)
    assert "Serra Angel" in g.zone_names("hand", 1)  # drawn first


def test_903_9b_excommunicate_lets_a_commander_go_to_the_command_zone() -> None:
    isamaru = "Isamaru, Hound of Konda"
    g = (Scene(variant="commander").commander(0, "Phage the Untouchable")
         .commander(1, isamaru, zone="battlefield")
         .battlefield(0, *lands("Excommunicate")).hand(0, "Excommunicate").start())
    g.cast(0, "Excommunicate", isamaru).resolve()
    assert (g.decision.kind, g.decision.player) == ("commander_zone", 1)
    g.choose("yes")
    assert [o.name for o in g.game.command if o.owner == 1] == [isamaru]
    assert isamaru not in g.zone_names("library", 1)


def test_righteousness_gives_a_blocker_plus_seven() -> None:
    g = (Scene().battlefield(0, "Stampeding Rhino").battlefield(1, "Grizzly Bears",
                                                           *lands("Righteousness"))
         .hand(1, "Righteousness").at("begin_combat").start())
    g.pass_(2).attack(("Stampeding Rhino", 1)).pass_(2)
    g.block(1, ("Grizzly Bears", "Stampeding Rhino"))
    g.pass_()
    g.cast(1, "Righteousness", "Grizzly Bears").resolve()
    paid_exactly(g, 1)
    assert pt(g, "Grizzly Bears") == [9, 9]
    g.until("combat_damage")
    assert g.zone_names("graveyard", 0) == ["Stampeding Rhino"]
    assert g.obj("Grizzly Bears").damage == 4 and g.life(1) == 20  # nothing tramples over


def test_righteousness_targets_only_blocking_creatures() -> None:
    g = (Scene().battlefield(0, *lands("Righteousness"), "Grizzly Bears")
         .hand(0, "Righteousness").start())
    assert g.find("cast", "Cast Righteousness") is None


@pytest.mark.parametrize("name", ["Solemn Offering", "Naturalize"])
def test_artifact_or_enchantment_removal(name: str) -> None:
    g = (Scene().battlefield(0, *lands(name)).battlefield(1, "Honor of the Pure",
                                                          "Coat of Arms", "Grizzly Bears")
         .hand(0, name).life(0, 10).start())
    g.choose("cast", f"Cast {name}")
    assert offered(g) == {
        "Honor of the Pure", "Coat of Arms"}
    g.target("Honor of the Pure").resolve()
    paid_exactly(g)
    assert g.zone_names("graveyard", 1) == ["Honor of the Pure"]
    assert g.life(0) == (14 if name == "Solemn Offering" else 10)


def test_tempest_of_light_destroys_all_enchantments() -> None:
    g = (Scene().battlefield(0, *lands("Tempest of Light"), "Honor of the Pure")
         .battlefield(1, "Honor of the Pure", "Coat of Arms", "Grizzly Bears")
         .hand(0, "Tempest of Light").start())
    g.cast(0, "Tempest of Light").resolve()
    paid_exactly(g)
    assert g.zone_names("graveyard", 0) == ["Honor of the Pure", "Tempest of Light"]
    assert g.zone_names("graveyard", 1) == ["Honor of the Pure"]
    assert g.obj("Coat of Arms") and g.obj("Grizzly Bears")


def test_planar_cleansing_destroys_all_nonland_permanents() -> None:
    g = (Scene().battlefield(0, *lands("Planar Cleansing"), "Serra Angel")
         .battlefield(1, "Honor of the Pure", "Coat of Arms", "Grizzly Bears", "Forest")
         .hand(0, "Planar Cleansing").start())
    g.cast(0, "Planar Cleansing").resolve()
    paid_exactly(g)
    assert sorted(g.zone_names("graveyard", 1)) == ["Coat of Arms", "Grizzly Bears",
                                                    "Honor of the Pure"]
    assert g.zone_names("graveyard", 0) == ["Serra Angel", "Planar Cleansing"]
    assert {o.name for o in g.game.battlefield} == {"Forest", "Plains", "Wastes"}


# --------------------------------------------------------------------------- blue


@pytest.mark.parametrize(("name", "countered", "spared"), [
    ("Cancel", "Lightning Bolt", None),
    ("Essence Scatter", "Grizzly Bears", "Lightning Bolt"),
    ("Flashfreeze", "Lightning Bolt", "Divination"),
    ("Negate", "Lightning Bolt", "Grizzly Bears"),
])
def test_701_5a_counterspells_counter_only_their_kind_of_spell(
        name: str, countered: str, spared: str | None) -> None:
    """Player 1 casts a spell; player 0 counters it. Another spell on the stack that the
    counterspell may not target is not offered."""
    g = (Scene().battlefield(0, *lands(name))
         .battlefield(1, "Mountain", "Forest", "Forest", "Island", "Island", "Island")
         .hand(1, "Lightning Bolt", "Grizzly Bears", "Divination").hand(0, name)
         .at("main1", active=1).start())
    # Sorcery-speed spells first, while the stack is empty.
    spells = sorted((s for s in (spared, countered) if s is not None),
                    key=lambda s: s == "Lightning Bolt")
    for s in spells:
        g.choose("cast", f"Cast {s}", player=1)
        if s == "Lightning Bolt":
            g.target(0)
    g.pass_()
    g.choose("cast", f"Cast {name}", player=0)
    assert offered(g) == {countered}
    g.target(g.obj(countered, "stack")).resolve()
    paid_exactly(g)
    assert countered in g.zone_names("graveyard", 1)
    assert g.zone_names("graveyard", 0) == [name]
    g.resolve_all()
    assert g.life(0) == (17 if spared == "Lightning Bolt" else 20)


def test_jump_gives_flying_until_end_of_turn() -> None:
    g = (Scene().battlefield(0, *lands("Jump"), "Grizzly Bears").battlefield(1, "Runeclaw Bear")
         .hand(0, "Jump").start())
    g.cast(0, "Jump", "Grizzly Bears").resolve()
    paid_exactly(g)
    assert "flying" in g.view(1)[g.obj("Grizzly Bears").oid]["kw"]
    g.until("declare_attackers", 0).attack(("Grizzly Bears", 1))
    assert g.decision.kind == "priority"  # the ground-bound Runeclaw Bear may not block
    g.until("combat_damage")
    assert g.life(1) == 18
    g.next_turn(1)
    assert "kw" not in g.view(1)[g.obj("Grizzly Bears").oid]


def test_unsummon_returns_the_creature_to_its_owners_hand() -> None:
    g = (Scene().battlefield(0, *lands("Unsummon")).battlefield(1, "Serra Angel")
         .hand(0, "Unsummon").start())
    g.cast(0, "Unsummon", "Serra Angel").resolve()
    paid_exactly(g)
    assert g.zone_names("hand", 1) == ["Serra Angel"]


# --------------------------------------------------------------------------- black


def _destroys_the_one_it_may(name: str, victim: str, scene: Scene) -> None:
    """``name`` is offered only ``victim`` as its target, and destroys it (CR 701.8)."""
    g = scene.battlefield(0, *lands(name)).hand(0, name).start()
    g.choose("cast", f"Cast {name}")
    assert offered(g) == {victim}
    g.target(victim).resolve()
    paid_exactly(g)
    assert g.zone_names("graveyard", 1) == [victim]


def test_701_8_shatter_destroys_an_artifact_only() -> None:
    _destroys_the_one_it_may("Shatter", "Ornithopter",
                             Scene().battlefield(1, "Honor of the Pure", "Ornithopter"))


def test_701_8_assassinate_destroys_a_tapped_creature_only() -> None:
    _destroys_the_one_it_may("Assassinate", "Grizzly Bears",
                             Scene().battlefield(1, "Grizzly Bears", tapped=True)
                             .battlefield(1, "Runeclaw Bear"))


@pytest.mark.parametrize(("name", "legal", "illegal"), [
    ("Deathmark", {"Grizzly Bears", "Serra Angel"}, "Shivan Dragon"),
    ("Doom Blade", {"Grizzly Bears", "Serra Angel", "Shivan Dragon"}, "Black Knight"),
])
def test_701_8_colour_restricted_creature_removal(name: str, legal: set[str],
                                                  illegal: str) -> None:
    g = (Scene().battlefield(0, *lands(name))
         .battlefield(1, "Grizzly Bears", "Serra Angel", "Shivan Dragon", "Black Knight")
         .hand(0, name).start())
    g.choose("cast", f"Cast {name}")
    assert offered(g) == legal
    assert illegal not in legal
    g.target("Serra Angel").resolve()
    paid_exactly(g)
    assert g.zone_names("graveyard", 1) == ["Serra Angel"]


def test_608_2b_doom_blade_does_nothing_to_a_creature_that_became_black() -> None:
    # Rise from the Grave makes the returned creature black: Doom Blade can't target it.
    g = (Scene().battlefield(0, *lands("Rise from the Grave"))
         .battlefield(1, *lands("Doom Blade")).graveyard(1, "Serra Angel")
         .hand(0, "Rise from the Grave").hand(1, "Doom Blade").start())
    g.cast(0, "Rise from the Grave", g.obj("Serra Angel", "graveyard")).resolve()
    g.pass_()
    assert g.find("cast", "Cast Doom Blade", player=1) is None


def test_disentomb_returns_a_creature_card_from_your_graveyard() -> None:
    g = (Scene().battlefield(0, *lands("Disentomb")).graveyard(0, "Serra Angel", "Divination")
         .graveyard(1, "Grizzly Bears").hand(0, "Disentomb").start())
    g.choose("cast", "Cast Disentomb")
    assert offered(g) == {"Serra Angel"}
    g.target(g.obj("Serra Angel", "graveyard")).resolve()
    paid_exactly(g)
    assert g.zone_names("hand", 0) == ["Serra Angel"]
    assert g.zone_names("graveyard", 0) == ["Divination", "Disentomb"]


def test_mind_rot_makes_the_target_player_discard_two() -> None:
    g = (Scene().battlefield(0, *lands("Mind Rot")).hand(0, "Mind Rot")
         .hand(1, "Serra Angel", "Lightning Bolt", "Divination").start())
    g.cast(0, "Mind Rot", 1).resolve()
    g.choose("discard", "Discard Divination", player=1)
    g.choose("discard", "Discard Serra Angel", player=1)
    paid_exactly(g)
    assert g.zone_names("hand", 1) == ["Lightning Bolt"]
    assert sorted(g.zone_names("graveyard", 1)) == ["Divination", "Serra Angel"]


def test_rise_from_the_grave_returns_a_black_zombie_under_your_control() -> None:
    g = (Scene().battlefield(0, *lands("Rise from the Grave")).graveyard(1, "Serra Angel")
         .hand(0, "Rise from the Grave").start())
    g.cast(0, "Rise from the Grave", g.obj("Serra Angel", "graveyard")).resolve()
    paid_exactly(g)
    angel = g.obj("Serra Angel")
    assert angel.controller == 0 and angel.owner == 1
    # In addition: still white and an Angel (layers 4 and 5 add, CR 613.1d-e).
    assert colors(g.game, angel) == {"W", "B"}
    assert set(subtypes(g.game, angel)) == {"Angel", "Zombie"}
    g.next_turn(1)
    assert colors(g.game, g.obj("Serra Angel")) == {"W", "B"}  # not only until end of turn


def test_rise_from_the_grave_zombie_ends_when_the_creature_leaves() -> None:
    g = (Scene().battlefield(0, *lands("Rise from the Grave"), "Island")
         .graveyard(0, "Grizzly Bears").hand(0, "Rise from the Grave", "Unsummon").start())
    g.cast(0, "Rise from the Grave", g.obj("Grizzly Bears", "graveyard")).resolve()
    g.cast(0, "Unsummon", "Grizzly Bears").resolve()
    bears = g.obj("Grizzly Bears", "hand")
    assert colors(g.game, bears) == {"G"} and tuple(subtypes(g.game, bears)) == ("Bear",)


def test_sign_in_blood_draws_two_and_loses_two() -> None:
    g = (Scene().battlefield(0, *lands("Sign in Blood")).hand(0, "Sign in Blood")
         .library(1, "Serra Angel", "Lightning Bolt", "Divination").start())
    g.cast(0, "Sign in Blood", 1).resolve()
    paid_exactly(g)
    assert sorted(g.zone_names("hand", 1)) == ["Lightning Bolt", "Serra Angel"]
    assert g.life(1) == 18


def test_tendrils_of_corruption_counts_your_swamps() -> None:
    g = (Scene().battlefield(0, *lands("Tendrils of Corruption"), "Swamp", "Swamp")
         .battlefield(1, "Serra Angel", "Swamp").hand(0, "Tendrils of Corruption")
         .life(0, 10).start())
    g.cast(0, "Tendrils of Corruption", "Serra Angel").resolve()
    assert not any(g.game.players[0].mana.values())
    # Three Swamps of its controller (one paid for it, tapped ones count too); not the
    # opponent's.
    assert g.obj("Serra Angel").damage == 3
    assert g.life(0) == 13


# --------------------------------------------------------------------------- red


def test_burst_of_speed_gives_your_creatures_haste() -> None:
    g = (Scene().battlefield(0, *lands("Burst of Speed"), "Grizzly Bears")
         .battlefield(1, "Runeclaw Bear").hand(0, "Burst of Speed").summoning_sick().start())
    g.cast(0, "Burst of Speed").resolve()
    paid_exactly(g)
    assert "haste" in g.view(1)[g.obj("Grizzly Bears").oid]["kw"]
    assert "kw" not in g.view(1)[g.obj("Runeclaw Bear").oid]
    g.until("declare_attackers", 0).attack(("Grizzly Bears", 1)).pass_(2).no_blocks(1)
    g.until("combat_damage")
    assert g.life(1) == 18


def test_601_2d_ignite_disorder_divides_three_damage_among_white_and_blue_creatures() -> None:
    g = (Scene().battlefield(0, *lands("Ignite Disorder"))
         .battlefield(1, "Serra Angel", "Air Elemental", "White Knight", "Grizzly Bears")
         .hand(0, "Ignite Disorder").start())
    g.cast(0, "Ignite Disorder", "Serra Angel")
    assert offered(g) == {"Air Elemental", "White Knight"}  # white and/or blue; not green
    g.target("White Knight")
    g.choose("done")  # two targets: 3 divided between them
    assert g.decision.kind == "divide"
    assert [a.index for a in g.decision.actions] == [1, 2]  # the other gets at least 1
    g.choose("amount", "1 to Serra Angel")
    g.resolve()
    paid_exactly(g)
    assert g.obj("Serra Angel").damage == 1
    assert g.zone_names("graveyard", 1) == ["White Knight"]  # 2 to a 2/2


def test_601_2d_ignite_disorder_takes_at_most_three_targets_one_each() -> None:
    g = (Scene().battlefield(0, *lands("Ignite Disorder"))
         .battlefield(1, "White Knight", "Air Elemental", "Serra Angel", "Griffin Sentinel")
         .hand(0, "Ignite Disorder").start())
    g.cast(0, "Ignite Disorder", "White Knight", "Air Elemental", "Griffin Sentinel")
    # Three targets: no fourth is offered, and 1 each is the only division left.
    assert g.decision.kind == "divide" and len(g.decision.actions) == 1
    g.choose("amount").choose("amount").resolve()
    assert g.obj("White Knight").damage == 1 and g.obj("Air Elemental").damage == 1
    assert g.zone_names("graveyard", 1) == []  # 1 each kills none of them
    assert g.obj("Griffin Sentinel").damage == 1


def test_608_2b_ignite_disorder_keeps_the_division_when_a_target_leaves() -> None:
    g = (Scene().battlefield(0, *lands("Ignite Disorder"))
         .battlefield(1, "Serra Angel", "Air Elemental", "Island")
         .hand(0, "Ignite Disorder").hand(1, "Unsummon").start())
    g.cast(0, "Ignite Disorder", "Serra Angel", "Air Elemental")
    g.choose("amount", "2 to Serra Angel")
    g.pass_()
    g.cast(1, "Unsummon", "Serra Angel").resolve()
    g.resolve()
    # The Angel's 2 are not moved to the other target: it gets its own 1.
    assert g.obj("Air Elemental").damage == 1


def test_pyroclasm_deals_two_to_each_creature() -> None:
    g = (Scene().battlefield(0, *lands("Pyroclasm"), "Grizzly Bears")
         .battlefield(1, "Serra Angel", "White Knight").hand(0, "Pyroclasm").start())
    g.cast(0, "Pyroclasm").resolve()
    paid_exactly(g)
    assert sorted(g.zone_names("graveyard", 0)) == ["Grizzly Bears", "Pyroclasm"]
    assert g.zone_names("graveyard", 1) == ["White Knight"]
    assert g.obj("Serra Angel").damage == 2 and g.life(1) == 20


def test_seismic_strike_deals_damage_equal_to_your_mountains() -> None:
    g = (Scene().battlefield(0, *lands("Seismic Strike"), "Mountain", "Mountain")
         .battlefield(1, "Serra Angel", "Mountain").hand(0, "Seismic Strike").start())
    g.cast(0, "Seismic Strike", "Serra Angel").resolve()
    assert not any(g.game.players[0].mana.values())
    assert g.obj("Serra Angel").damage == 3  # its controller's three, not the opponent's


def test_trumpet_blast_pumps_attacking_creatures_only() -> None:
    g = (Scene().battlefield(0, "Grizzly Bears", "Runeclaw Bear", *lands("Trumpet Blast"))
         .at("begin_combat").hand(0, "Trumpet Blast").start())
    g.pass_(2).attack(("Grizzly Bears", 1))
    g.cast(0, "Trumpet Blast").resolve()
    paid_exactly(g)
    assert pt(g, "Grizzly Bears") == [4, 2] and pt(g, "Runeclaw Bear") == [2, 2]
    g.until("combat_damage")
    assert g.life(1) == 16


# --------------------------------------------------------------------------- green


def test_bountiful_harvest_gains_one_life_per_land_you_control() -> None:
    g = (Scene().battlefield(0, *lands("Bountiful Harvest"), "Island")
         .battlefield(1, "Forest", "Forest").hand(0, "Bountiful Harvest").life(0, 10).start())
    g.cast(0, "Bountiful Harvest").resolve()
    assert g.life(0) == 16 and g.life(1) == 20


def test_natures_spiral_returns_a_permanent_card_from_your_graveyard() -> None:
    g = (Scene().battlefield(0, *lands("Nature's Spiral"))
         .graveyard(0, "Honor of the Pure", "Lightning Bolt", "Forest")
         .graveyard(1, "Coat of Arms").hand(0, "Nature's Spiral").start())
    g.choose("cast", "Cast Nature's Spiral")
    assert offered(g) == {
        "Honor of the Pure", "Forest"}  # a permanent card, and from your graveyard
    g.target(g.obj("Honor of the Pure", "graveyard")).resolve()
    paid_exactly(g)
    assert g.zone_names("hand", 0) == ["Honor of the Pure"]


# --------------------------------------------------------------------------- random games

# Two 40-card decks of these cards and creatures for them to hit; random play casts them at
# whatever is there, divides Ignite Disorder, counters whatever is on the stack.
AZORIUS = (["Plains"] * 9 + ["Island"] * 9
           + ["Cancel", "Essence Scatter", "Negate", "Flashfreeze", "Unsummon", "Jump",
              "Divine Verdict", "Righteousness", "Celestial Purge", "Excommunicate",
              "Solemn Offering", "Tempest of Light", "Planar Cleansing", "Serra Angel",
              "White Knight", "Air Elemental", "Honor of the Pure", "Griffin Sentinel",
              "Snapping Drake", "Ornithopter", "Coat of Arms", "Holy Strength"])
JUND = (["Swamp"] * 7 + ["Mountain"] * 7 + ["Forest"] * 4
        + ["Doom Blade", "Assassinate", "Deathmark", "Disentomb", "Mind Rot",
           "Rise from the Grave", "Sign in Blood", "Tendrils of Corruption", "Burst of Speed",
           "Ignite Disorder", "Pyroclasm", "Seismic Strike", "Shatter", "Trumpet Blast",
           "Bountiful Harvest", "Naturalize", "Nature's Spiral", "Grizzly Bears",
           "Black Knight", "Raging Goblin", "Goblin Chieftain", "Llanowar Elves"])


def test_the_random_decks_are_forty_cards() -> None:
    assert len(AZORIUS) == len(JUND) == 40


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 7), (3, 11)])
def test_random_games_replay_conserve_cards_and_converge(players: int, seed: int) -> None:
    config = alternating_decks(players, [list(AZORIUS), list(JUND)])
    table, log = assert_replays_and_conserves(config, seed, seed + 1)
    assert table.finished or len(log) == ACTION_LIMIT
    assert_views_converge(config, seed + 2, seed + 3)


# --------------------------------------------------------------------------- bots


def decide(g: G, strategy: Strategy = heuristic_strategy,
           rng: random.Random | None = None) -> Action:
    """What a bot playing the deciding seat picks."""
    d = g.decision
    return d.actions[strategy(g.view(d.player), d.to_wire(), rng or random.Random(0), cards())]


def test_the_heuristic_bot_aims_removal_at_the_biggest_threat() -> None:
    g = (Scene().battlefield(0, *lands("Doom Blade"), "Grizzly Bears")
         .battlefield(1, "Grizzly Bears", "Serra Angel", "Runeclaw Bear")
         .hand(0, "Doom Blade").start())
    assert decide(g).label == "Cast Doom Blade"
    g.choose("cast", "Cast Doom Blade")
    target = g.game.objects[decide(g).ref[1]]
    assert (target.name, target.controller) == ("Serra Angel", 1)


def test_the_heuristic_bot_keeps_removal_when_only_its_own_creatures_are_there() -> None:
    g = (Scene().battlefield(0, *lands("Doom Blade"), "Grizzly Bears")
         .hand(0, "Doom Blade").start())
    assert g.find("cast", "Cast Doom Blade") is not None
    assert decide(g).kind != "cast"


def test_the_heuristic_bot_sweeps_only_when_the_opponent_loses_more() -> None:
    scene = Scene().battlefield(0, *lands("Pyroclasm")).hand(0, "Pyroclasm")
    g = scene.battlefield(0, "Grizzly Bears").battlefield(1, "Serra Angel").start()
    assert decide(g).kind != "cast"  # it would kill only its own Bears
    g = (Scene().battlefield(0, *lands("Pyroclasm"), "Serra Angel").hand(0, "Pyroclasm")
         .battlefield(1, "Grizzly Bears", "White Knight").start())
    assert decide(g).label == "Cast Pyroclasm"


def test_the_heuristic_bot_brings_back_the_best_creature_card() -> None:
    g = (Scene().battlefield(0, *lands("Rise from the Grave")).graveyard(0, "Grizzly Bears")
         .graveyard(1, "Serra Angel").hand(0, "Rise from the Grave").start())
    g.choose("cast", "Cast Rise from the Grave")
    assert g.game.objects[decide(g).ref[1]].name == "Serra Angel"


@pytest.mark.parametrize("strategy", [heuristic_strategy, random_strategy])
def test_the_bots_finish_ignite_disorders_targets_and_division(strategy: Strategy) -> None:
    for seed in range(5):
        g = (Scene().battlefield(0, *lands("Ignite Disorder"))
             .battlefield(1, "Serra Angel", "Air Elemental", "White Knight")
             .hand(0, "Ignite Disorder").start())
        g.choose("cast", "Cast Ignite Disorder")
        rng = random.Random(seed)
        asked = 0
        while g.decision.kind != "priority" and asked < 10:
            g.table.act(g.decision.player, g.decision.serial, decide(g, strategy, rng).id)
            asked += 1
        assert g.decision.kind == "priority" and g.game.stack
        assert sum(g.game.stack[-1].division) == 3
