"""The evergreen keyword abilities (CR 702.2-702.20) and the state-based action deathtouch
brings (704.5h): each as the rules word it, on cards that print it and through effects that
grant it. First strike and double strike are in test_first_strike_510_4.py."""

from __future__ import annotations

import pytest

from arbiter.server.rules.cards.catalog import card_data
from arbiter.server.rules.cards.pool import POOL
from arbiter.server.rules.cards.vocab import COLOR, SUBTYPE, CardDef, Landwalk, Protection

from .helpers import G, Scene


def _attacking(attacker: str, *, scene: Scene | None = None, players: int = 2,
               defender: int = 1) -> G:
    """Player 0's ``attacker`` attacks ``defender``; the game stops at the first decision
    after attackers are declared and players passed (the blockers declaration, if anyone can
    block)."""
    g = (scene or Scene(players)).battlefield(0, attacker).at("begin_combat").start()
    g.pass_(players).attack((attacker, defender)).pass_(players)
    return g


def _blockers(g: G) -> set[str]:
    """The names of creatures offered as blockers in the pending declaration."""
    if g.decision.kind != "blockers":
        return set()
    return {g.game.objects[a.obj].name for a in g.decision.actions if a.kind == "block"}


def _targets(g: G, pid: int, card: str) -> set[str]:
    """What ``pid`` may target with ``card`` from their hand: the names of the permanents and
    "player N" for players. Leaves the game as it was (the cast is not begun if the card
    can't be cast at all; otherwise it is begun and the options read)."""
    if g.find("cast", f"Cast {card}", player=pid) is None:
        return set()
    g.cast(pid, card)
    return {g.game.objects[a.ref[1]].name if a.ref[0] == "o" else f"player {a.ref[1]}"
            for a in g.decision.actions if a.ref is not None}


# --------------------------------------------------------------------------- 702.2 deathtouch


def test_702_2b_deathtouch_combat_damage_destroys_and_704_5h_is_the_action() -> None:
    g = _attacking("Hill Giant", scene=Scene().battlefield(1, "Deadly Recluse"))
    g.block(1, ("Deadly Recluse", "Hill Giant")).pass_(2)
    # 1 damage to a 3/3 is not lethal damage, but it came from a source with deathtouch.
    assert g.zone_names("graveyard", 0) == ["Hill Giant"]
    assert g.zone_names("graveyard", 1) == ["Deadly Recluse"]
    assert "Hill Giant is put into its owner's graveyard." in g.log


def test_702_2b_noncombat_deathtouch_damage_destroys_too() -> None:
    g = (Scene().battlefield(0, "Prodigal Pyromancer", "Swamp").hand(0, "Venom Draught")
         .battlefield(1, "Air Elemental").start())
    g.cast(0, "Venom Draught", "Prodigal Pyromancer").resolve()
    g.activate(0, "Prodigal Pyromancer", target="Air Elemental").resolve()
    assert g.zone_names("graveyard", 1) == ["Air Elemental"]  # 1 damage to a 4/4


def test_702_2b_deathtouch_damage_to_a_player_is_ordinary_damage() -> None:
    g = _attacking("Deadly Recluse")
    g.until("combat_damage")
    assert g.life(1) == 19 and g.in_game(1)


def test_702_2c_one_damage_is_lethal_from_deathtouch_when_dividing() -> None:
    g = _attacking("Ambush Viper", scene=Scene().battlefield(1, "Grizzly Bears", "Runeclaw Bear"))
    g.block(1, ("Grizzly Bears", "Ambush Viper"), ("Runeclaw Bear", "Ambush Viper")).pass_(2)
    assert g.decision.kind == "assign_damage"
    assert [a.index for a in g.decision.actions] == [1, 0, 2]  # lethal (1) first
    g.choose("amount", "1 to")  # and the other 1 to the other Bear (CR 510.1c)
    assert sorted(g.zone_names("graveyard", 1)) == ["Grizzly Bears", "Runeclaw Bear"]


def test_702_2c_trample_with_deathtouch_assigns_one_lethal_and_the_rest_to_the_player() -> None:
    scene = (Scene().battlefield(0, "Swamp").hand(0, "Venom Draught")
             .battlefield(1, "Giant Spider"))
    g = _attacking("Stampeding Rhino", scene=scene)
    g.block(1, ("Giant Spider", "Stampeding Rhino"))
    g.cast(0, "Venom Draught", "Stampeding Rhino").resolve().pass_(2)
    assert [a.index for a in g.decision.actions] == [1, 2, 3, 4]  # 702.19b with 702.2c
    g.choose("amount", "1 to Giant Spider")
    assert g.life(1) == 17 and g.zone_names("graveyard", 1) == ["Giant Spider"]


# --------------------------------------------------------------------------- 702.3 defender


def test_702_3b_defender_cannot_attack_but_blocks() -> None:
    g = (Scene().battlefield(0, "Wall of Faith", "Grizzly Bears").battlefield(1, "Hill Giant")
         .at("begin_combat").start())
    g.pass_(2)
    attackers = {g.game.objects[a.obj].name for a in g.decision.actions if a.kind == "attack"}
    assert attackers == {"Grizzly Bears"}
    g.next_turn(1, "declare_attackers").attack(("Hill Giant", 0)).pass_(2)
    assert _blockers(g) == {"Wall of Faith", "Grizzly Bears"}


# --------------------------------------------------------------------------- 702.8 flash


def test_702_8a_flash_casts_a_creature_whenever_an_instant_could_be() -> None:
    scene = (Scene().battlefield(1, "Forest", "Forest").hand(1, "Ambush Viper", "Grizzly Bears")
             .battlefield(0, "Hill Giant"))
    g = _attacking("Hill Giant", scene=scene)
    assert g.decision.kind == "priority" and g.game.step == "declare_blockers"
    g.pass_(1)  # the active player passes; the defending player has priority in combat
    labels = g.labels()
    assert "Cast Ambush Viper" in labels and "Cast Grizzly Bears" not in labels


def test_702_8a_flash_ambushes_an_attacker() -> None:
    g = (Scene().battlefield(0, "Hill Giant").battlefield(1, "Forest", "Forest")
         .hand(1, "Ambush Viper").at("begin_combat").start())
    g.pass_(2).attack(("Hill Giant", 1))
    g.pass_(1).cast(1, "Ambush Viper").resolve()  # in the declare attackers step
    g.pass_(2).block(1, ("Ambush Viper", "Hill Giant")).pass_(2)
    assert g.zone_names("graveyard", 0) == ["Hill Giant"]


# ------------------------------------------------------------------ 702.9 flying, 702.17 reach


def test_702_9b_and_702_17b_a_flyer_is_blocked_only_by_flying_or_reach() -> None:
    scene = Scene().battlefield(1, "Grizzly Bears", "Giant Spider", "Snapping Drake")
    g = _attacking("Air Elemental", scene=scene)
    assert _blockers(g) == {"Giant Spider", "Snapping Drake"}
    g.block(1, ("Giant Spider", "Air Elemental")).pass_(2)
    assert g.zone_names("graveyard", 1) == ["Giant Spider"]
    assert g.obj("Air Elemental").damage == 2


def test_702_9b_a_flyer_may_block_a_creature_without_flying() -> None:
    g = _attacking("Hill Giant", scene=Scene().battlefield(1, "Snapping Drake"))
    assert _blockers(g) == {"Snapping Drake"}


# --------------------------------------------------------------------------- 702.10 haste


def test_702_10b_haste_attacks_the_turn_it_arrives() -> None:
    g = (Scene().battlefield(0, "Mountain", "Forest", "Forest")
         .hand(0, "Raging Goblin", "Grizzly Bears").start())
    g.cast(0, "Raging Goblin").resolve().cast(0, "Grizzly Bears").resolve()
    g.until("declare_attackers")
    attackers = {g.game.objects[a.obj].name for a in g.decision.actions if a.kind == "attack"}
    assert attackers == {"Raging Goblin"}


def test_702_10b_a_hasty_creature_cast_this_turn_attacks() -> None:
    g = (Scene().battlefield(0, "Mountain", "Mountain", "Mountain", "Mountain")
         .hand(0, "Lightning Elemental").start())
    g.cast(0, "Lightning Elemental").resolve()
    g.until("declare_attackers").attack(("Lightning Elemental", 1)).until("combat_damage")
    assert g.life(1) == 16


# --------------------------------------------------------------------------- 702.11 hexproof


def test_702_11b_hexproof_stops_opponents_targeting_but_not_its_controller() -> None:
    g = (Scene().battlefield(0, "Gladecover Scout", "Forest", "Grizzly Bears")
         .hand(0, "Giant Growth").battlefield(1, "Mountain", "Prodigal Pyromancer")
         .hand(1, "Lightning Bolt").start())
    assert _targets(g, 0, "Giant Growth") == {"Gladecover Scout", "Grizzly Bears",
                                              "Prodigal Pyromancer"}
    g.target("Gladecover Scout").resolve()
    assert g.view(1)[g.obj("Gladecover Scout").oid]["pt"] == [4, 4]
    g.pass_(1)  # the opponent gets priority with an empty stack
    assert _targets(g, 1, "Lightning Bolt") == {"Grizzly Bears", "Prodigal Pyromancer",
                                                "player 0", "player 1"}
    g.target(0).resolve()
    g.next_turn(1)
    g.choose("activate", "Prodigal Pyromancer", player=1)  # abilities too
    assert "Gladecover Scout" not in {g.game.objects[a.ref[1]].name
                                      for a in g.decision.actions if a.ref and a.ref[0] == "o"}


# --------------------------------------------------------------------------- 702.12 indestructible


def test_702_12b_indestructible_ignores_lethal_damage() -> None:
    g = (Scene().battlefield(0, "Prodigal Pyromancer").battlefield(1, "Darksteel Myr")
         .start())
    g.activate(0, "Prodigal Pyromancer", target="Darksteel Myr").resolve()
    myr = g.obj("Darksteel Myr")
    assert myr.damage == 1 and g.view(0)[myr.oid]["pt"] == [0, 1]  # lethal damage, and there


def test_702_12b_indestructible_ignores_destroy_effects() -> None:
    g = _attacking("Phage the Untouchable", scene=Scene().battlefield(1, "Darksteel Myr"))
    g.block(1, ("Darksteel Myr", "Phage the Untouchable")).pass_(2)
    g.resolve()  # Phage: "destroy that creature"
    assert g.obj("Darksteel Myr").damage == 4
    assert "Darksteel Myr is indestructible and is not destroyed." in g.log


def test_702_12b_indestructible_survives_deathtouch() -> None:
    g = _attacking("Deadly Recluse", scene=Scene().battlefield(1, "Darksteel Myr"))
    g.block(1, ("Darksteel Myr", "Deadly Recluse")).pass_(2)
    assert g.obj("Darksteel Myr").damage == 1
    g.pass_(2)  # the state-based check came and went: the Myr is still here
    assert g.game.step == "end_combat" and g.obj("Darksteel Myr")


# --------------------------------------------------------------------------- 702.13 intimidate


def test_702_13b_intimidate_is_blocked_only_by_artifacts_and_creatures_sharing_a_colour() -> None:
    scene = Scene().battlefield(1, "Grizzly Bears", "Ornithopter", "Viashino Spearhunter",
                                "White Knight")
    g = _attacking("Bladetusk Boar", scene=scene)
    assert _blockers(g) == {"Ornithopter", "Viashino Spearhunter"}


# --------------------------------------------------------------------------- 702.14 landwalk


def test_702_14c_swampwalk_is_unblockable_while_the_defender_controls_a_swamp() -> None:
    g = _attacking("Bog Wraith", scene=Scene().battlefield(1, "Grizzly Bears", "Swamp"))
    assert g.decision.kind == "priority"  # no blockers declaration at all
    g = _attacking("Bog Wraith", scene=Scene().battlefield(1, "Grizzly Bears", "Forest"))
    assert _blockers(g) == {"Grizzly Bears"}


def test_702_14c_landwalk_looks_at_the_defending_players_lands_only() -> None:
    # CR 802.2a: the defending player is the one the creature attacks. The attacker's own
    # Forest, and another opponent's, don't matter.
    scene = (Scene(3).battlefield(0, "Forest").battlefield(1, "Grizzly Bears")
             .battlefield(2, "Forest"))
    g = _attacking("Emerald Oryx", scene=scene, players=3)
    assert _blockers(g) == {"Grizzly Bears"}


def test_702_14c_landwalk_is_named_after_its_land_type() -> None:
    assert str(Landwalk("Island")) == "islandwalk"
    assert card_data(POOL["Bog Wraith"])["keywords"] == ["swampwalk"]


# --------------------------------------------------------------------------- 702.15 lifelink


def test_702_15b_lifelink_combat_damage_gains_life() -> None:
    g = _attacking("Child of Night", scene=Scene().life(0, 10))
    g.until("combat_damage")
    assert (g.life(0), g.life(1)) == (12, 18)


def test_702_15b_lifelink_on_damage_to_a_creature_too() -> None:
    g = _attacking("Child of Night", scene=Scene().life(0, 10).battlefield(1, "Giant Spider"))
    g.block(1, ("Giant Spider", "Child of Night")).pass_(2)
    assert g.life(0) == 12


def test_702_15b_lifelink_on_noncombat_damage() -> None:
    g = (Scene().battlefield(0, "Prodigal Pyromancer", "Swamp").hand(0, "Blood Bond")
         .life(0, 10).start())
    g.cast(0, "Blood Bond", "Prodigal Pyromancer").resolve()
    g.activate(0, "Prodigal Pyromancer", target=1).resolve()
    assert (g.life(0), g.life(1)) == (11, 19)


def test_702_15b_prevented_damage_gains_nothing() -> None:
    # Blocked by a creature with protection from creatures: the damage is prevented, so
    # there is no damage to gain life from.
    scene = Scene().life(0, 10).battlefield(1, "Beloved Chaplain")
    g = _attacking("Child of Night", scene=scene)
    g.block(1, ("Beloved Chaplain", "Child of Night")).until("combat_damage")
    assert g.life(0) == 10 and g.obj("Beloved Chaplain").damage == 0


# --------------------------------------------------------------------------- 702.16 protection


def test_702_16b_protection_from_a_colour_stops_its_spells_targeting() -> None:
    g = (Scene().battlefield(0, "Swamp", "White Knight", "Grizzly Bears")
         .hand(0, "Venom Draught").start())
    assert _targets(g, 0, "Venom Draught") == {"Grizzly Bears"}


def test_702_16b_a_target_that_gains_protection_is_illegal_on_resolution() -> None:
    g = (Scene().battlefield(0, *["Island"] * 5).hand(0, "Mind Control")
         .battlefield(1, "Plains", "Hill Giant").hand(1, "Sapphire Ward").start())
    g.cast(0, "Mind Control", "Hill Giant")
    g.pass_(1).cast(1, "Sapphire Ward", "Hill Giant").resolve()
    g.resolve()  # Mind Control's only target is now illegal (CR 608.2b)
    assert g.zone_names("graveyard", 0) == ["Mind Control"]
    assert g.obj("Hill Giant").controller == 1


def test_702_16c_an_aura_falls_off_a_permanent_that_gains_protection_from_it() -> None:
    g = (Scene().battlefield(0, *["Island"] * 5).hand(0, "Mind Control")
         .battlefield(1, "Plains", "Hill Giant").hand(1, "Sapphire Ward").start())
    g.cast(0, "Mind Control", "Hill Giant").resolve()
    assert g.obj("Hill Giant").controller == 0
    g.pass_(1).cast(1, "Sapphire Ward", "Hill Giant").resolve()
    # The Aura is put into its owner's graveyard as a state-based action (CR 704.5m), and
    # with it goes its control effect.
    assert g.zone_names("graveyard", 0) == ["Mind Control"]
    assert g.obj("Hill Giant").controller == 1
    assert g.view(0)[g.obj("Hill Giant").oid]["kw"] == ["protection from blue"]


def test_702_16f_a_creature_with_the_quality_cannot_block() -> None:
    g = _attacking("White Knight", scene=Scene().battlefield(1, "Black Knight"))
    # 702.16f: the Black Knight can't block a creature with protection from black.
    assert g.decision.kind == "priority"
    g = _attacking("Black Knight", scene=Scene().battlefield(1, "White Knight", "Hill Giant"))
    assert _blockers(g) == {"Hill Giant"}


def test_702_16e_damage_from_a_source_with_the_quality_is_prevented() -> None:
    g = _attacking("Phage the Untouchable", scene=Scene().battlefield(1, "White Knight"))
    g.block(1, ("White Knight", "Phage the Untouchable")).until("combat_damage")
    # The black 4/4's damage to the Knight is prevented, so it dealt no combat damage to a
    # creature and its "destroy that creature" never triggered.
    assert g.obj("White Knight").damage == 0 and not g.game.stack
    assert g.obj("Phage the Untouchable").damage == 2


def test_702_16e_and_702_16f_baneslayer_is_protected_from_demons_and_dragons() -> None:
    scene = Scene().battlefield(1, "Shivan Dragon", "Abyssal Persecutor", "Serra Angel")
    g = _attacking("Baneslayer Angel", scene=scene)
    assert _blockers(g) == {"Serra Angel"}  # 702.16f
    g = (Scene().battlefield(0, "Shivan Dragon").battlefield(1, "Baneslayer Angel")
         .at("begin_combat").start())
    g.pass_(2).attack(("Shivan Dragon", 1)).pass_(2)
    g.block(1, ("Baneslayer Angel", "Shivan Dragon")).pass_(2)
    # Baneslayer strikes first (5 to the Dragon, dead); the Dragon deals nothing anyway.
    assert g.zone_names("graveyard", 0) == ["Shivan Dragon"]
    assert g.obj("Baneslayer Angel").damage == 0


def test_702_16e_protection_from_a_dragon_stops_its_noncombat_damage_too() -> None:
    assert Protection(SUBTYPE, "Dragon") in POOL["Baneslayer Angel"].keywords
    g = (Scene().battlefield(0, "Shivan Dragon", "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Baneslayer Angel").start())
    g.cast(0, "Lightning Bolt", "Baneslayer Angel").resolve()  # a red instant: no protection
    assert g.obj("Baneslayer Angel").damage == 3


def test_702_16_protection_from_creatures() -> None:
    g = _attacking("Beloved Chaplain", scene=Scene().battlefield(1, "Grizzly Bears"))
    assert g.decision.kind == "priority"  # no creature may block it (702.16f)
    g = (Scene().battlefield(0, "Beloved Chaplain", "Prodigal Pyromancer", "Mountain")
         .hand(0, "Lightning Bolt").start())
    g.choose("activate", "Prodigal Pyromancer")
    # 702.16a: a card type names sources that are creatures: the Pyromancer's ability comes
    # from one, so it can't target the Chaplain (702.16b); an instant can.
    assert "Beloved Chaplain" not in {g.game.objects[a.ref[1]].name
                                      for a in g.decision.actions if a.ref and a.ref[0] == "o"}
    g.target(1).resolve()
    g.cast(0, "Lightning Bolt", "Beloved Chaplain").resolve()
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt", "Beloved Chaplain"]


def test_702_16e_protection_from_creatures_prevents_their_combat_damage() -> None:
    g = (Scene().battlefield(0, "Hill Giant").battlefield(1, "Beloved Chaplain")
         .at("begin_combat").start())
    g.pass_(2).attack(("Hill Giant", 1)).pass_(2)
    g.block(1, ("Beloved Chaplain", "Hill Giant")).pass_(2)
    assert g.obj("Beloved Chaplain").damage == 0 and g.obj("Hill Giant").damage == 1


def test_702_16j_protection_from_everything() -> None:
    g = (Scene().battlefield(0, "Wisp of Everything", "Grizzly Bears", "Forest", "Mountain")
         .hand(0, "Giant Growth", "Lightning Bolt").battlefield(1, "Grizzly Bears").start())
    # Not even its controller's spells may target it.
    assert "Wisp of Everything" not in _targets(g, 0, "Giant Growth")
    g.target(("o", g.obj("Grizzly Bears", controller=0).oid)).resolve()
    g.until("declare_attackers").attack(("Wisp of Everything", 1)).pass_(2)
    assert g.decision.kind == "priority"  # nothing can block it
    g.until("combat_damage")
    assert g.life(1) == 19


def test_702_16_a_static_grant_of_protection() -> None:
    g = (Scene().battlefield(0, "Grizzly Bears", "Shadow Ward").battlefield(1, "Child of Night")
         .at("begin_combat").start())
    g.pass_(2).attack(("Grizzly Bears", 1)).pass_(2)
    assert g.decision.kind == "priority"  # the black Child can't block (702.16f)
    assert g.view(1)[g.obj("Grizzly Bears").oid]["kw"] == ["protection from black"]


# --------------------------------------------------------------------------- 702.18 shroud


def test_702_18b_shroud_stops_everyones_targeting() -> None:
    g = (Scene().battlefield(0, "Mist Leopard", "Grizzly Bears", "Forest")
         .hand(0, "Giant Growth").start())
    assert _targets(g, 0, "Giant Growth") == {"Grizzly Bears"}


def test_702_18b_a_creature_given_shroud_in_response_makes_the_spell_fizzle() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Island", "Hill Giant").hand(1, "Cloak of Mist").start())
    g.cast(0, "Lightning Bolt", "Hill Giant")
    g.pass_(1).cast(1, "Cloak of Mist", "Hill Giant").resolve()
    g.resolve()
    assert g.obj("Hill Giant").damage == 0
    assert "Lightning Bolt has no legal targets left and does not resolve." in g.log


# --------------------------------------------------------------------------- 702.19 trample


def test_702_19b_trample_assigns_lethal_damage_then_the_rest_to_the_player() -> None:
    g = _attacking("Stampeding Rhino", scene=Scene().battlefield(1, "Grizzly Bears"))
    g.block(1, ("Grizzly Bears", "Stampeding Rhino")).pass_(2)
    assert [a.index for a in g.decision.actions] == [2, 3, 4]
    g.choose("amount", "2 to Grizzly Bears")
    assert g.life(1) == 18 and g.zone_names("graveyard", 1) == ["Grizzly Bears"]


def test_702_19b_trample_must_assign_lethal_damage_to_a_protected_blocker() -> None:
    # The rule's own example: the blocker's protection will prevent the damage, but lethal
    # damage must still be assigned to it before any may go to the player.
    g = _attacking("Stampeding Rhino", scene=Scene().battlefield(1, "Beloved Chaplain"))
    g.block(1, ("Beloved Chaplain", "Stampeding Rhino")).pass_(2)
    assert [a.index for a in g.decision.actions] == [1, 2, 3, 4]
    g.choose("amount", "1 to Beloved Chaplain")
    assert g.life(1) == 17 and g.obj("Beloved Chaplain").damage == 0


# --------------------------------------------------------------------------- 702.20 vigilance


def test_702_20b_vigilance_attacks_without_tapping() -> None:
    g = _attacking("Griffin Sentinel")
    assert not g.obj("Griffin Sentinel").tapped
    g = _attacking("Snapping Drake")
    assert g.obj("Snapping Drake").tapped  # CR 508.1f: without vigilance it taps


# --------------------------------------------------------------------------- the vocabulary


def test_keywords_are_words_of_the_vocabulary_and_their_parameters_are_data() -> None:
    with pytest.raises(ValueError, match="first_strike"):
        CardDef(name="Typo", types=frozenset({"Creature"}), keywords=frozenset({"first_strike"}))
    with pytest.raises(ValueError, match="colour"):
        Protection(COLOR, "Black")
    baneslayer = card_data(POOL["Baneslayer Angel"])
    assert baneslayer["keywords"] == ["first strike", "flying", "lifelink",
                                      "protection from Demons", "protection from Dragons"]


def test_702_21a_ward_counters_an_opponents_spell_unless_its_controller_pays() -> None:
    g = (Scene().battlefield(0, "Warded Sentinel").battlefield(1, "Mountain")
         .hand(1, "Lightning Bolt").start())
    g.pass_()
    g.cast(1, "Lightning Bolt", "Warded Sentinel")
    # Ward triggers as the Bolt is cast; player 1 has no mana left to pay {2}: countered.
    g.resolve_all()
    assert g.objs("Warded Sentinel", "battlefield")
    assert g.zone_names("graveyard", 1) == ["Lightning Bolt"]


def test_702_21a_the_spell_resolves_when_its_controller_pays_the_ward_cost() -> None:
    g = (Scene().battlefield(0, "Warded Sentinel").battlefield(1, *["Mountain"] * 3)
         .hand(1, "Lightning Bolt").start())
    g.pass_()
    g.cast(1, "Lightning Bolt", "Warded Sentinel")
    while g.decision.kind != "pay":
        g.pass_()
    assert g.decision.player == 1
    g.choose("yes").resolve_all()
    assert "Warded Sentinel" in g.zone_names("graveyard", 0)


def test_702_21a_ward_counters_an_ability_and_ignores_its_controllers_own_spells() -> None:
    g = (Scene().battlefield(0, "Warded Sentinel", "Forest").hand(0, "Giant Growth")
         .battlefield(1, "Prodigal Pyromancer").start())
    g.cast(0, "Giant Growth", "Warded Sentinel").resolve_all()  # its own: no ward trigger
    assert g.view(1)[g.obj("Warded Sentinel").oid]["pt"] == [5, 5]
    g.next_turn(1)
    g.activate(1, "Prodigal Pyromancer", target="Warded Sentinel")
    g.resolve_all()  # the ping is countered: player 1 cannot pay {2}
    assert g.obj("Warded Sentinel").damage == 0
