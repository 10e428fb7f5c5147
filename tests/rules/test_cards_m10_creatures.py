"""The Magic 2010 creatures with simple abilities, and its vanilla creatures
(arbiter/server/rules/cards/sets/m10.py), each played in a game and doing what its text says.
Every one of them is also cast for exactly its cost in test_cards_m10.py."""

from __future__ import annotations

import pytest

from arbiter.clients.tui.render import card_text
from arbiter.server.rules.cards.catalog import card_data
from arbiter.server.rules.cards.pool import POOL

from .helpers import G, Scene

# Vanilla creatures (and the ones whose only text is flying): name -> (P/T, keywords).
VANILLA = {
    "Elite Vanguard": ((2, 1), []),
    "Siege Mastodon": ((3, 5), []),
    "Silvercoat Lion": ((2, 2), []),
    "Stormfront Pegasus": ((2, 1), ["flying"]),
    "Coral Merfolk": ((2, 1), []),
    "Horned Turtle": ((1, 4), []),
    "Wind Drake": ((2, 2), ["flying"]),
    "Zephyr Sprite": ((1, 1), ["flying"]),
    "Kelinore Bat": ((2, 1), ["flying"]),
    "Warpath Ghoul": ((3, 2), []),
    "Zombie Goliath": ((4, 3), []),
    "Canyon Minotaur": ((3, 3), []),
    "Goblin Piker": ((2, 1), []),
    "Centaur Courser": ((3, 3), []),
    "Craw Wurm": ((6, 4), []),
    "Enormous Baloth": ((7, 7), []),
}


@pytest.mark.parametrize("name", sorted(VANILLA))
def test_vanilla_creature_shows_its_power_toughness_and_keywords(name: str) -> None:
    (power, toughness), keywords = VANILLA[name]
    g = Scene().battlefield(0, name).start()
    seen = g.view(1)[g.obj(name).oid]  # as the opponent sees it
    assert seen["pt"] == [power, toughness] and "kw" not in seen
    data = card_data(POOL[name])
    assert data["keywords"] == keywords and data["pt"] == [power, toughness]
    assert not POOL[name].abilities
    assert POOL[name].text == ("Flying" if keywords else "")


def test_602_2_blinding_mage_pays_mana_and_taps_to_tap_target_creature() -> None:
    g = (Scene().battlefield(0, "Blinding Mage", "Plains").battlefield(1, "Grizzly Bears")
         .start())
    g.activate(0, "Blinding Mage", "{W}, {T}: Tap target creature.", "Grizzly Bears")
    # CR 602.2: the costs ({W} and {T}) are paid as it is activated, before it resolves.
    assert g.obj("Blinding Mage").tapped and g.obj("Plains").tapped
    assert not g.obj("Grizzly Bears").tapped
    g.resolve()
    assert g.obj("Grizzly Bears").tapped
    assert g.find("activate", "Blinding Mage") is None


def test_blinding_mage_needs_its_white_mana() -> None:
    g = Scene().battlefield(0, "Blinding Mage", "Swamp").battlefield(1, "Grizzly Bears").start()
    assert g.find("activate", "Blinding Mage") is None


def test_undead_slayer_exiles_only_a_skeleton_vampire_or_zombie() -> None:
    g = (Scene().battlefield(0, "Undead Slayer", "Plains")
         .battlefield(1, "Grizzly Bears", "Child of Night", "Warpath Ghoul").start())
    g.choose("activate", "Undead Slayer")
    offered = {g.game.objects[a.ref[1]].name for a in g.options(0)}
    assert offered == {"Child of Night", "Warpath Ghoul"}
    g.target("Child of Night").resolve()
    assert g.zone_names("exile") == ["Child of Night"]
    assert g.obj("Undead Slayer").tapped


def test_undead_slayer_cannot_be_activated_without_such_a_target() -> None:
    g = Scene().battlefield(0, "Undead Slayer", "Plains").battlefield(1, "Grizzly Bears").start()
    assert g.find("activate", "Undead Slayer") is None


def test_acolyte_of_xathrid_makes_target_player_lose_a_life() -> None:
    g = Scene().battlefield(0, "Acolyte of Xathrid", "Swamp", "Wastes").start()
    g.activate(0, "Acolyte of Xathrid", "{1}{B}, {T}: Target player loses 1 life.", 1)
    g.resolve()
    assert g.life(1) == 19 and g.life(0) == 20
    g = Scene().battlefield(0, "Acolyte of Xathrid", "Swamp").start()
    assert g.find("activate", "Acolyte of Xathrid") is None  # {1}{B} is two mana


def test_royal_assassin_destroys_only_a_tapped_creature() -> None:
    g = (Scene().battlefield(0, "Royal Assassin")
         .battlefield(1, "Grizzly Bears").battlefield(1, "Craw Wurm", tapped=True).start())
    g.choose("activate", "Royal Assassin")
    offered = {g.game.objects[a.ref[1]].name for a in g.options(0)}
    assert offered == {"Craw Wurm"}
    g.target("Craw Wurm").resolve()
    assert g.zone_names("graveyard", 1) == ["Craw Wurm"]


def test_royal_assassin_kills_an_attacker_it_tapped_to_attack() -> None:
    g = Scene().battlefield(0, "Royal Assassin").battlefield(1, "Centaur Courser").start()
    g.next_turn(1, "begin_combat")
    g.pass_(2).attack(("Centaur Courser", 0)).pass_()  # attacking taps it (CR 508.1f)
    g.activate(0, "Royal Assassin", target="Centaur Courser").resolve()
    assert g.zone_names("graveyard", 1) == ["Centaur Courser"]


def test_goblin_artillery_deals_two_to_any_target_and_three_to_you() -> None:
    g = Scene().battlefield(0, "Goblin Artillery").battlefield(1, "Silvercoat Lion").start()
    g.activate(0, "Goblin Artillery", target="Silvercoat Lion").resolve()
    assert g.zone_names("graveyard", 1) == ["Silvercoat Lion"] and g.life(0) == 17


def test_sparkmage_apprentice_pings_any_target_as_it_enters() -> None:
    g = Scene().battlefield(0, "Mountain", "Mountain").hand(0, "Sparkmage Apprentice").start()
    g.cast(0, "Sparkmage Apprentice").resolve()
    assert g.decision.kind == "target"  # CR 603.3d: the enters trigger's target
    g.target(1).resolve()
    assert g.life(1) == 19


def test_rod_of_ruin_is_an_artifact_that_taps_the_turn_it_arrives() -> None:
    lands = ("Wastes",) * 7
    g = Scene().battlefield(0, *lands).hand(0, "Rod of Ruin").start()
    g.cast(0, "Rod of Ruin").resolve()
    # Not a creature: summoning sickness (CR 302.6) does not stop its {T} ability.
    g.activate(0, "Rod of Ruin", "{3}, {T}: Rod of Ruin deals 1 damage to any target.", 1)
    g.resolve()
    assert g.life(1) == 19 and g.obj("Rod of Ruin").tapped


def test_elvish_visionary_draws_a_card_as_it_enters() -> None:
    g = Scene().battlefield(0, "Forest", "Forest").hand(0, "Elvish Visionary").start()
    g.cast(0, "Elvish Visionary").resolve()
    assert g.zone_names("hand", 0) == []
    g.resolve()
    assert g.zone_names("hand", 0) == ["Wastes"]


def test_howling_banshee_makes_each_player_lose_three() -> None:
    g = (Scene(3).battlefield(0, "Swamp", "Swamp", "Swamp", "Swamp").hand(0, "Howling Banshee")
         .start())
    g.cast(0, "Howling Banshee").resolve().resolve()
    assert [g.life(p) for p in range(3)] == [17, 17, 17]


def test_gravedigger_may_return_a_creature_card_from_your_graveyard() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Swamp", "Swamp").hand(0, "Gravedigger")
         .graveyard(0, "Lightning Bolt", "Craw Wurm").graveyard(1, "Grizzly Bears").start())
    g.cast(0, "Gravedigger").resolve()
    # Only a creature card, and only from its controller's graveyard (CR 115.1).
    offered = {g.game.objects[a.ref[1]].name for a in g.options(0)}
    assert offered == {"Craw Wurm"}
    g.target(g.obj("Craw Wurm", "graveyard")).resolve()
    g.choose("yes")
    assert g.zone_names("hand", 0) == ["Craw Wurm"]
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt"]


def test_gravedigger_returning_is_optional_and_needs_a_target() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Swamp", "Swamp").hand(0, "Gravedigger")
         .graveyard(0, "Craw Wurm").start())
    g.cast(0, "Gravedigger").resolve().target(g.obj("Craw Wurm", "graveyard")).resolve()
    g.choose("no")
    assert g.zone_names("graveyard", 0) == ["Craw Wurm"] and g.zone_names("hand", 0) == []
    g = Scene().battlefield(0, "Swamp", "Swamp", "Swamp", "Swamp").hand(0, "Gravedigger").start()
    g.cast(0, "Gravedigger").resolve()
    assert not g.game.stack and g.decision.kind == "priority"  # CR 603.3d: no target, removed


def test_603_10a_magma_phoenix_dies_and_deals_three_to_each_creature_and_player() -> None:
    g = (Scene().battlefield(0, "Magma Phoenix", "Mountain").hand(0, "Lightning Bolt")
         .life(0, 10).battlefield(1, "Silvercoat Lion", "Craw Wurm").start())
    g.cast(0, "Lightning Bolt", "Magma Phoenix").resolve()
    # It died; its leaves-the-battlefield ability looks back in time and triggers (603.10a).
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt", "Magma Phoenix"]
    assert g.game.stack and g.game.stack[-1].name == "Magma Phoenix"
    g.resolve()
    assert g.life(0) == 7 and g.life(1) == 17
    assert g.zone_names("graveyard", 1) == ["Silvercoat Lion"]
    assert g.obj("Craw Wurm").damage == 3


def test_113_6m_magma_phoenix_returns_from_the_graveyard_only() -> None:
    lands = ("Mountain", "Mountain", "Wastes", "Wastes", "Wastes")
    g = Scene().battlefield(0, "Magma Phoenix", *lands).start()
    assert g.find("activate", "Magma Phoenix") is None  # not from the battlefield
    g = Scene().battlefield(0, *lands).graveyard(0, "Magma Phoenix").start()
    g.activate(0, "Magma Phoenix", "{3}{R}{R}: Return Magma Phoenix from your graveyard")
    g.resolve()
    assert g.zone_names("hand", 0) == ["Magma Phoenix"] and g.zone_names("graveyard", 0) == []
    g = Scene().battlefield(1, *lands).graveyard(0, "Magma Phoenix").start()
    g.pass_()
    assert g.find("activate", "Magma Phoenix", player=1) is None  # only its owner (602.2)


def test_ball_lightning_hastes_tramples_and_is_sacrificed_at_the_end_step() -> None:
    g = (Scene().battlefield(0, "Mountain", "Mountain", "Mountain").hand(0, "Ball Lightning")
         .battlefield(1, "Wall of Faith").start())
    g.cast(0, "Ball Lightning").resolve()
    g.until("declare_attackers").attack(("Ball Lightning", 1))  # haste: the turn it arrives
    g.pass_(2).block(1, ("Wall of Faith", "Ball Lightning"))
    g.until("combat_damage")
    assert g.life(1) == 19  # trample: 5 to the 0/5 Wall, 1 through
    g.until("end")
    assert [o.name for o in g.game.stack] == ["Ball Lightning"]  # its trigger
    g.resolve()
    assert g.zone_names("graveyard", 0) == ["Ball Lightning"]


def test_ball_lightning_is_sacrificed_at_any_player_s_end_step() -> None:
    g = Scene().battlefield(0, "Ball Lightning").at("main1", active=1).start()
    g.until("end", 1).resolve()
    assert g.zone_names("graveyard", 0) == ["Ball Lightning"]


def _whelp(activations: int) -> Scene:
    return Scene().battlefield(0, "Dragon Whelp", *("Mountain",) * activations)


def test_dragon_whelp_firebreathes_three_times_and_stays() -> None:
    g = _whelp(3).start()
    for _ in range(3):
        g.activate(0, "Dragon Whelp").resolve()
    assert g.view(1)[g.obj("Dragon Whelp").oid]["pt"] == [5, 3]
    g.until("end")
    assert not g.game.stack
    g.next_turn(1)
    assert g.zone_names("graveyard", 0) == []


def test_603_7_dragon_whelp_activated_four_times_is_sacrificed_at_the_next_end_step() -> None:
    g = _whelp(5).start()
    for _ in range(5):
        g.activate(0, "Dragon Whelp").resolve()
    assert g.view(1)[g.obj("Dragon Whelp").oid]["pt"] == [7, 3]
    # The fourth and fifth resolutions each made a delayed trigger (CR 603.7a).
    assert len(g.game.delayed_triggers) == 2
    g.until("end")
    assert len(g.game.stack) == 2 and not g.game.delayed_triggers  # each triggers once (603.7b)
    g.resolve_all()
    assert g.zone_names("graveyard", 0) == ["Dragon Whelp"]


def test_dragon_whelp_counts_activations_not_resolutions() -> None:
    g = _whelp(4).start()
    for _ in range(4):  # all four on the stack before any resolves
        g.activate(0, "Dragon Whelp")
    g.resolve_all()
    # Each resolution sees four activations this turn, so each makes a delayed trigger.
    assert len(g.game.delayed_triggers) == 4
    g.until("end").resolve_all()
    assert g.zone_names("graveyard", 0) == ["Dragon Whelp"]


def test_dragon_whelp_count_starts_again_each_turn() -> None:
    g = _whelp(3).start()
    for _ in range(3):
        g.activate(0, "Dragon Whelp").resolve()
    g.next_turn(0)
    g.activate(0, "Dragon Whelp").resolve()
    assert not g.game.delayed_triggers


def test_602_2b_vampire_aristocrat_sacrifices_a_creature_chosen_as_the_cost_is_paid() -> None:
    g = (Scene().battlefield(0, "Vampire Aristocrat", "Goblin Piker", "Elite Vanguard")
         .battlefield(1, "Craw Wurm").start())
    g.activate(0, "Vampire Aristocrat", "Sacrifice a creature: Vampire Aristocrat gets +2/+2")
    # CR 601.2h via 602.2b: which creature is chosen while paying; any the activator controls.
    assert g.decision.kind == "sacrifice"
    assert sorted(a.label for a in g.options(0)) == [
        "Sacrifice Elite Vanguard", "Sacrifice Goblin Piker", "Sacrifice Vampire Aristocrat"]
    g.choose("choose_card", "Goblin Piker")
    assert g.zone_names("graveyard", 0) == ["Goblin Piker"]  # paid before it resolves
    g.resolve()
    assert g.view(1)[g.obj("Vampire Aristocrat").oid]["pt"] == [4, 4]


def test_vampire_aristocrat_may_sacrifice_itself_and_then_gets_nothing() -> None:
    g = Scene().battlefield(0, "Vampire Aristocrat").start()
    g.activate(0, "Vampire Aristocrat").choose("choose_card", "Vampire Aristocrat").resolve()
    assert g.zone_names("graveyard", 0) == ["Vampire Aristocrat"] and not g.game.stack
    assert g.find("activate", "Vampire Aristocrat") is None


def test_elvish_archdruid_pumps_other_elves() -> None:
    g = Scene().battlefield(0, "Elvish Archdruid", "Llanowar Elves", "Elvish Visionary").start()
    pts = {n: g.view(1)[g.obj(n).oid]["pt"]
           for n in ("Elvish Archdruid", "Llanowar Elves", "Elvish Visionary")}
    assert pts == {"Elvish Archdruid": [2, 2], "Llanowar Elves": [2, 2],
                   "Elvish Visionary": [2, 2]}


def test_605_elvish_archdruid_adds_a_green_mana_for_each_elf() -> None:
    g = (Scene().battlefield(0, "Elvish Archdruid", "Llanowar Elves", "Elvish Visionary")
         .battlefield(1, "Llanowar Elves").start())
    # A mana ability (CR 605.1a): no stack; its amount is counted as it resolves, at once.
    g.choose("mana", "Tap Elvish Archdruid for {G}{G}{G}")
    assert g.game.players[0].mana == {"G": 3} and not g.game.stack


def test_elvish_archdruid_pays_a_spell_with_all_its_mana_at_once() -> None:
    g = (Scene().battlefield(0, "Elvish Archdruid", "Llanowar Elves", "Forest", "Forest",
                             "Forest").hand(0, "Craw Wurm").start())
    g.cast(0, "Craw Wurm").resolve()  # {4}{G}{G}: three Forests, the Elves' one, the Druid's two
    assert g.obj("Craw Wurm").controller == 0 and g.obj("Elvish Archdruid").tapped
    assert not any(g.game.players[0].mana.values())


def test_elvish_archdruid_cannot_tap_the_turn_it_arrives() -> None:
    g = Scene().battlefield(0, "Forest", "Forest", "Forest").hand(0, "Elvish Archdruid").start()
    g.cast(0, "Elvish Archdruid").resolve()
    assert g.find("mana", "Elvish Archdruid") is None  # CR 302.6: a {T} ability


def test_402_2_spellbook_means_no_discarding_to_hand_size() -> None:
    hand = ("Craw Wurm",) * 9
    g = Scene().battlefield(0, "Spellbook").hand(0, *hand).start()
    assert g.view(1)["p0"]["mx"] == "none"  # shown to everyone
    g.next_turn(1)
    assert len(g.zone_names("hand", 0)) == 9  # nothing discarded in the cleanup step (514.1)
    g = Scene().hand(0, *hand).start()
    g.next_turn(1)
    assert len(g.zone_names("hand", 0)) == 7 and "mx" not in g.view(1)["p0"]


_EIGHT = ("Mountain", "Mountain", *("Wastes",) * 6)


def _hellkite_enters(*more: str) -> G:
    g = (Scene().battlefield(0, *_EIGHT, *(("Mountain",) if more else ()))
         .hand(0, "Bogardan Hellkite", *more)
         .battlefield(1, "Craw Wurm", "Silvercoat Lion").start())
    g.cast(0, "Bogardan Hellkite").resolve()
    return g.target("Craw Wurm")  # CR 603.3d: targets as the trigger goes on the stack


def test_601_2d_bogardan_hellkite_divides_five_damage_among_any_number_of_targets() -> None:
    g = _hellkite_enters()
    g.choose("target", "Also target Silvercoat Lion").choose("done")
    # CR 601.2d: the division is announced now; each target gets at least 1.
    assert g.decision.kind == "divide"
    assert [a.index for a in g.options(0)] == [1, 2, 3, 4]
    g.choose("amount", "3 to Craw Wurm")
    assert g.game.stack[-1].division == (3, 2)
    g.resolve()
    assert g.zone_names("graveyard", 1) == ["Silvercoat Lion"]
    assert g.obj("Craw Wurm").damage == 3


def test_bogardan_hellkite_may_put_all_five_on_one_target() -> None:
    g = _hellkite_enters()
    g.choose("done").resolve()
    assert g.zone_names("graveyard", 1) == ["Craw Wurm"]


def test_bogardan_hellkite_never_has_more_targets_than_damage() -> None:
    g = (Scene(6).battlefield(0, *_EIGHT).hand(0, "Bogardan Hellkite").start())
    g.cast(0, "Bogardan Hellkite").resolve().target(1)
    for p in (2, 3, 4, 5):
        g.choose("target", ref=("p", p))
    assert g.decision.kind == "divide"  # five targets for five damage: no more offered
    for _ in range(4):
        assert [a.index for a in g.options(0)] == [1]
        g.choose("amount")
    g.resolve()
    assert [g.life(p) for p in range(6)] == [20, 19, 19, 19, 19, 19]


def test_608_2b_bogardan_hellkite_deals_nothing_to_a_target_gone_illegal() -> None:
    g = _hellkite_enters("Lightning Bolt")
    g.choose("target", "Also target Silvercoat Lion").choose("target", "Also target B")
    g.choose("done").choose("amount", "2 to Craw Wurm").choose("amount", "2 to Silvercoat Lion")
    g.cast(0, "Lightning Bolt", "Silvercoat Lion").resolve()
    g.resolve()
    # Its 2 are not dealt to anyone else: 2 to the Wurm, 1 to the player, as divided.
    assert g.obj("Craw Wurm").damage == 2 and g.life(1) == 19


def test_702_8_bogardan_hellkite_has_flash() -> None:
    g = (Scene().battlefield(0, *_EIGHT).hand(0, "Bogardan Hellkite").at("main1", active=1)
         .start())
    g.pass_()  # the active player passes: the Hellkite is cast in the opponent's turn
    g.cast(0, "Bogardan Hellkite").resolve().target(1).choose("done").resolve()
    assert g.life(1) == 15 and g.obj("Bogardan Hellkite").controller == 0


def test_the_division_is_shown_with_the_targets_on_the_stack() -> None:
    g = _hellkite_enters()
    g.choose("target", "Also target B").choose("done").choose("amount", "4 to Craw Wurm")
    trigger = g.game.stack[-1]
    seen = g.view(1)[trigger.oid]
    assert seen["tg"] == [["o", g.obj("Craw Wurm").oid], ["p", 1]] and seen["dv"] == [4, 1]
    text = card_text(seen, g.view(1), {0: "A", 1: "B"})
    assert text.endswith("(targets Craw Wurm (4), B (1))")


def test_603_7c_the_delayed_sacrifice_misses_a_dragon_whelp_that_came_back() -> None:
    g = (Scene().battlefield(0, "Dragon Whelp", *("Mountain",) * 8, "Island").hand(0, "Unsummon")
         .start())
    for _ in range(4):
        g.activate(0, "Dragon Whelp").resolve()
    g.cast(0, "Unsummon", "Dragon Whelp").resolve()
    g.cast(0, "Dragon Whelp").resolve()  # a new object (CR 400.7), activated no times yet
    g.until("end").resolve_all()
    assert g.obj("Dragon Whelp").controller == 0 and g.zone_names("graveyard", 0) == ["Unsummon"]


def test_magma_phoenix_triggers_only_when_it_dies() -> None:
    g = (Scene().battlefield(0, "Magma Phoenix", "Island").hand(0, "Unsummon").start())
    g.cast(0, "Unsummon", "Magma Phoenix").resolve()  # to a hand: it did not die (CR 700.4)
    assert not g.game.stack and g.life(0) == 20 and g.zone_names("hand", 0) == ["Magma Phoenix"]


def test_acidic_slime_destroys_an_artifact_enchantment_or_land_as_it_enters() -> None:
    g = (Scene().battlefield(0, *["Forest"] * 5).hand(0, "Acidic Slime")
         .battlefield(1, "Pacifism", "Ornithopter", "Island", "Grizzly Bears").start())
    g.cast(0, "Acidic Slime").resolve()
    assert g.decision.kind == "target"
    offered = {g.game.objects[a.ref[1]].name for a in g.decision.actions}
    assert offered >= {"Ornithopter", "Island", "Forest"} and "Grizzly Bears" not in offered
    g.target("Island").resolve()
    assert "Island" in g.zone_names("graveyard", 1)


def test_702_2b_acidic_slime_kills_what_it_deals_damage_to() -> None:
    g = (Scene().battlefield(0, "Acidic Slime").battlefield(1, "Craw Wurm")
         .at("begin_combat").start())
    g.pass_(2).attack(("Acidic Slime", 1)).pass_(2).block(1, ("Craw Wurm", "Acidic Slime"))
    g.until("main2")
    assert "Craw Wurm" in g.zone_names("graveyard", 1)
