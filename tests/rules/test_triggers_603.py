"""Handling triggered abilities (CR 603) with the trigger events of the core set: what
triggers them (603.2), intervening "if" clauses (603.4), delayed triggered abilities (603.7),
triggers from mana abilities (605.5a), and the durations and untap effects they bring
(611.2b, 502.3). The cards themselves are tested in test_cards_m10_triggers.py."""

from __future__ import annotations

from arbiter.server.rules.characteristics import is_type

from .helpers import Scene, giant_scene


def test_603_2_a_trigger_waits_until_a_player_would_receive_priority() -> None:
    # Tapping the Mountain to pay for the Bolt triggers Manabarbs mid-cast; the ability goes
    # on the stack only once the Bolt is cast, above it (CR 603.3).
    g = (Scene().battlefield(0, "Manabarbs", "Mountain").hand(0, "Lightning Bolt").start())
    g.choose("cast", "Cast Lightning Bolt").target(1)
    assert g.zone_names("stack") == ["Lightning Bolt", "Manabarbs"]
    assert g.decision.kind == "priority" and g.decision.player == 0


def test_603_2c_one_event_with_several_occurrences_triggers_once_for_each() -> None:
    # Divination draws two cards: two draws, two triggers of Underworld Dreams.
    g = (Scene().battlefield(1, "Underworld Dreams").battlefield(0, "Island", "Wastes",
                                                                   "Wastes")
         .hand(0, "Divination").start())
    g.cast(0, "Divination").resolve()
    assert g.zone_names("stack") == ["Underworld Dreams", "Underworld Dreams"]
    g.resolve_all()
    assert g.life(0) == 18


def test_603_2_a_gain_life_trigger_knows_how_much_was_gained() -> None:
    # Lifelink: 2 damage, 2 life gained; Sanguine Bond's opponent loses "that much life".
    g = (Scene().battlefield(0, "Sanguine Bond", "Child of Night").at("begin_combat")
         .start())
    g.pass_(2).attack(("Child of Night", 1)).pass_(2)
    while g.decision.kind != "target":
        g.step_on()
    g.target(1).resolve()
    assert g.life(0) == 22 and g.life(1) == 16  # 2 combat damage, 2 lost to the Bond


def test_603_2_an_opponent_only_trigger_ignores_its_controllers_own_draws() -> None:
    g = (Scene().battlefield(0, "Underworld Dreams", "Island", "Wastes", "Wastes")
         .hand(0, "Divination").start())
    g.cast(0, "Divination").resolve()
    assert not g.game.stack and g.life(0) == 20


def test_603_3d_that_player_is_the_one_the_event_named() -> None:
    # Three players: the Paladin hits player 1; player 2's red creature is no legal target.
    g = (Scene(3).battlefield(0, "Lightwielder Paladin")
         .battlefield(1, "Hill Giant").battlefield(2, "Raging Goblin")
         .at("begin_combat").start())
    g.pass_(3).attack(("Lightwielder Paladin", 1))
    while g.decision.kind != "target":
        g.step_on()
    offered = {g.game.objects[a.ref[1]].controller for a in g.decision.actions}
    assert offered == {1}


def test_603_3d_a_trigger_without_a_legal_target_is_removed() -> None:
    # The only red or black permanent of the player hit has protection from white.
    g = (Scene().battlefield(0, "Lightwielder Paladin").battlefield(1, "Black Knight")
         .at("begin_combat").start())
    g.pass_(2).attack(("Lightwielder Paladin", 1)).pass_(2).no_blocks(1)
    g.until("main2")
    assert g.life(1) == 16 and g.objs("Black Knight", "battlefield")
    assert not any("Lightwielder Paladin's ability" in line for line in g.log)


def test_603_4_an_intervening_if_false_as_the_event_happens_never_triggers() -> None:
    g = (Scene().battlefield(0, "Howling Mine", tapped=True).at("upkeep", 1, turn=2).start())
    g.until("draw", 1)
    assert not g.game.stack and len(g.game.hand(1)) == 1


def test_605_5a_a_trigger_from_a_mana_ability_uses_the_stack() -> None:
    # The mana ability resolves at once; Manabarbs' ability is no mana ability: it goes on
    # the stack, and the opponent may respond to it.
    g = Scene().battlefield(0, "Mountain").battlefield(1, "Manabarbs").start()
    g.choose("mana", "Tap Mountain")
    assert g.game.players[0].mana == {"R": 1}
    assert g.zone_names("stack") == ["Manabarbs"] and g.life(0) == 20
    g.pass_()
    assert g.decision.player == 1 and g.decision.kind == "priority"
    g.pass_()
    assert g.life(0) == 19


def test_603_7_a_delayed_trigger_waits_for_the_next_end_step() -> None:
    # Made during the end step (after its beginning), "the next end step" is next turn's.
    g = (Scene().battlefield(0, "Stone Giant", "Grizzly Bears").at("end").start())
    g.activate(0, "Stone Giant", target="Grizzly Bears").resolve()
    assert not g.game.stack
    g.next_turn(1, "end")
    assert g.zone_names("stack") == ["Stone Giant"]
    g.resolve()
    assert g.zone_names("graveyard", 0) == ["Grizzly Bears"]


def test_603_7b_a_delayed_trigger_triggers_only_once() -> None:
    g = (Scene().battlefield(0, "Stone Giant", "Grizzly Bears", "Runeclaw Bear").start())
    g.activate(0, "Stone Giant", target="Grizzly Bears").resolve()
    g.until("end", 0).resolve()
    assert not any(e.kind == "delayed" for e in g.game.effects)
    g.next_turn(1, "end")
    assert not g.game.stack and g.objs("Runeclaw Bear", "battlefield")


def test_603_7c_a_delayed_trigger_leaves_alone_an_object_that_changed_zones() -> None:
    g = (Scene().battlefield(0, "Stone Giant", "Grizzly Bears").battlefield(1, "Mountain")
         .hand(1, "Lightning Bolt").start())
    g.activate(0, "Stone Giant", target="Grizzly Bears").resolve()
    g.pass_()
    g.cast(1, "Lightning Bolt", "Grizzly Bears").resolve()
    g.until("end", 0)
    assert g.zone_names("stack") == ["Stone Giant"]  # it still triggers...
    g.resolve()
    assert g.zone_names("graveyard", 0) == ["Grizzly Bears"]  # ...and does nothing
    assert not g.game.stack


def test_611_2b_for_as_long_as_never_begins_when_the_source_has_left() -> None:
    g = (Scene().battlefield(0, "Forest", "Forest", "Wastes").hand(0, "Awakener Druid")
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.cast(0, "Awakener Druid").resolve()
    forest = next(o for o in g.game.battlefield if o.name == "Forest")
    g.target(forest).pass_()
    g.cast(1, "Lightning Bolt", "Awakener Druid").resolve()
    g.resolve()  # the Druid's ability, its source gone
    assert not is_type(g.game, forest, "Creature")
    assert not g.game.stack


def test_502_3_the_effect_waits_for_its_controllers_untap_step_and_ends_there() -> None:
    # Felidar Sovereign attacks without tapping (vigilance); blocked by Wall of Frost, it has
    # nothing to stay tapped for, but its controller's next untap step still uses the effect
    # up; the opponent's untap step, which comes first, does not.
    g = (Scene().battlefield(0, "Felidar Sovereign").battlefield(1, "Wall of Frost")
         .at("begin_combat").start())
    g.pass_(2).attack(("Felidar Sovereign", 1)).pass_(2)
    g.block(1, ("Wall of Frost", "Felidar Sovereign")).resolve()
    held = [e for e in g.game.effects if e.kind == "no_untap"]
    assert [e.affected for e in held] == [g.obj("Felidar Sovereign").oid]
    g.next_turn(1, "upkeep")
    assert any(e.kind == "no_untap" for e in g.game.effects)
    g.next_turn(0, "upkeep")
    assert not any(e.kind == "no_untap" for e in g.game.effects)
    assert not g.obj("Felidar Sovereign").tapped


def test_509_3d_becomes_blocked_by_a_creature_triggers_once_for_each_blocker() -> None:
    g = (Scene().battlefield(0, "Inferno Elemental")
         .battlefield(1, "Grizzly Bears", "Runeclaw Bear").at("begin_combat").start())
    g.pass_(2).attack(("Inferno Elemental", 1)).pass_(2)
    g.block(1, ("Grizzly Bears", "Inferno Elemental"), ("Runeclaw Bear", "Inferno Elemental"))
    assert g.zone_names("stack") == ["Inferno Elemental", "Inferno Elemental"]
    g.resolve_all()
    assert sorted(g.zone_names("graveyard", 1)) == ["Grizzly Bears", "Runeclaw Bear"]


def test_508_3a_an_attack_trigger_needs_the_creature_declared_as_an_attacker() -> None:
    g = Scene().battlefield(0, "Bramble Creeper").at("begin_combat").start()
    g.pass_(2).choose("done")  # no attack
    assert not g.game.stack


def test_805_4d_each_players_draw_step_triggers_once_for_each_player_of_the_team() -> None:
    g = giant_scene().battlefield(2, "Howling Mine").at("upkeep", 0, turn=3).start()
    g.until("draw", 0)
    assert g.zone_names("stack") == ["Howling Mine", "Howling Mine"]
    g.resolve_all()
    assert len(g.game.hand(0)) == 2 and len(g.game.hand(1)) == 2
