"""Priority (CR 117), casting and activating (CR 601, 602, 606), triggers (CR 603), combat
(CR 506-511), cleanup (CR 514), and the engine's contract for refused actions."""

from __future__ import annotations

import pytest

from arbiter.protocol.errors import Code, Refusal
from arbiter.server.rules import Act

from .helpers import G, Scene


def test_117_3a_the_active_player_gets_priority_first_then_turn_order() -> None:
    g = Scene(3).at("upkeep", active=1).start()
    assert g.decision.player == 1
    g.pass_()
    assert g.decision.player == 2
    g.pass_()
    assert g.decision.player == 0
    g.pass_()
    assert g.game.step == "draw" and g.decision.player == 1  # all passed: the step ended


def test_117_4_passes_in_succession_resolve_the_top_of_the_stack_first() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.cast(0, "Lightning Bolt", 1)
    assert g.decision.player == 0  # CR 117.3c: the caster gets priority again
    g.pass_()
    g.cast(1, "Lightning Bolt", 0)
    g.pass_(2)  # both pass: only the top Bolt resolves
    assert g.life(0) == 17 and g.life(1) == 20
    assert g.decision.player == 0  # CR 117.3b: the active player gets priority after it
    g.pass_(2)
    assert g.life(1) == 17


def test_sorceries_wait_for_your_main_phase_and_an_empty_stack() -> None:
    g = (Scene().battlefield(0, *["Mountain"] * 6).hand(0, "Lava Axe", "Lightning Bolt")
         .at("upkeep").start())
    assert g.find("cast", "Lava Axe") is None and g.find("cast", "Lightning Bolt")
    g.until("main1", 0)
    g.cast(0, "Lightning Bolt", 1)
    assert g.find("cast", "Lava Axe") is None  # the stack isn't empty
    g.resolve()
    assert g.find("cast", "Lava Axe") is not None


def test_500_4_unused_mana_empties_between_steps() -> None:
    g = Scene().battlefield(0, "Forest").at("upkeep").start()
    g.choose("mana", "Tap Forest")
    assert g.game.players[0].mana == {"G": 1}
    g.pass_(2)
    assert g.game.step == "draw" and g.game.players[0].mana == {}


def test_mana_in_the_pool_pays_before_lands_are_tapped() -> None:
    g = (Scene().battlefield(0, "Forest", "Forest", "Mountain").hand(0, "Grizzly Bears")
         .start())
    g.choose("mana", "Tap Mountain")
    g.cast(0, "Grizzly Bears")
    forests = g.objs("Forest", "battlefield")
    assert sorted(f.tapped for f in forests) == [False, True]  # {R} paid the generic part
    assert g.game.players[0].mana == {}


def test_603_3b_simultaneous_triggers_go_on_the_stack_in_apnap_order() -> None:
    # Both players' Blood Tyrants trigger on the same loss; the active player's ability goes
    # on the stack first, so the other player's resolves first.
    g = (Scene(3).battlefield(0, "Blood Tyrant").battlefield(1, "Blood Tyrant")
         .battlefield(2, "Mountain").hand(2, "Lightning Bolt").life(2, 2).start())
    g.concede(2)
    stack = g.game.stack
    assert [o.controller for o in stack] == [0, 1]
    g.resolve()
    assert g.obj("Blood Tyrant", controller=1).counters == {"+1/+1": 5}
    assert g.obj("Blood Tyrant", controller=0).counters == {}


def _upkeep_with_tyrant_and_sovereign() -> G:
    # At 40 life both of Ann's upkeep abilities trigger: Felidar Sovereign's win (if she still
    # has 40 life when it resolves, CR 603.4) and Blood Tyrant's life loss for everyone.
    g = (Scene().battlefield(0, "Blood Tyrant", "Felidar Sovereign").life(0, 40)
         .at("end", active=1).start())
    while g.decision.kind != "order_triggers":
        g.step_on()
    assert g.decision.player == 0 and g.game.step == "upkeep"
    assert g.labels() == ["Blood Tyrant: at the beginning of upkeep",
                          "Felidar Sovereign: at the beginning of upkeep"]
    return g


def test_603_3b_a_player_orders_their_own_triggers_the_sovereign_resolves_first() -> None:
    g = _upkeep_with_tyrant_and_sovereign()
    g.choose("trigger", "Blood Tyrant")  # first onto the stack: resolves last
    assert [o.source.name for o in g.game.stack] == ["Blood Tyrant", "Felidar Sovereign"]
    g.resolve()
    assert g.table.finished and g.table.result.winners == (0,)  # type: ignore[union-attr]


def test_603_3b_a_player_orders_their_own_triggers_the_tyrant_resolves_first() -> None:
    g = _upkeep_with_tyrant_and_sovereign()
    g.choose("trigger", "Felidar Sovereign")
    g.resolve_all()
    # The Tyrant took Ann to 39 first, so the Sovereign's "if" no longer holds.
    assert not g.table.finished and g.life(0) == 39
    assert g.obj("Blood Tyrant").counters == {"+1/+1": 2}


def test_606_3_one_loyalty_ability_per_planeswalker_per_turn_at_sorcery_speed() -> None:
    g = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 6})
         .hand(1, "Forest").at("upkeep").start())
    assert g.find("activate") is None  # not in the upkeep
    g.until("main1", 0)
    g.activate(0, "Karn Liberated", "+4", target=1)
    assert g.obj("Karn Liberated").counters["loyalty"] == 10
    g.resolve()
    assert g.decision.kind == "exile_from_hand" and g.decision.player == 1
    g.choose("choose_card", "Exile Forest")
    assert g.zone_names("exile") == ["Forest"]
    assert g.find("activate") is None  # once per turn


def test_activated_ability_costs_mana_tap_and_sacrifice() -> None:
    colours = ["Plains", "Plains", "Island", "Island", "Swamp", "Swamp", "Mountain",
               "Mountain", "Forest", "Forest"]
    g = (Scene().battlefield(0, "Door to Nothingness", *colours[:-1]).start())
    assert g.find("activate") is None  # nine lands can't pay {W}{W}{U}{U}{B}{B}{R}{R}{G}{G}
    g2 = Scene().battlefield(0, "Door to Nothingness", *colours).start()
    g2.activate(0, "Door to Nothingness", target=1)
    assert g2.zone_names("graveyard", 0) == ["Door to Nothingness"]  # sacrificed as a cost
    assert all(o.tapped for o in g2.game.battlefield)
    g2.resolve()
    assert g2.outcome(1) == ("lost", "effect_loss")


def test_door_to_nothingness_enters_tapped() -> None:
    g = Scene().battlefield(0, *["Wastes"] * 5).hand(0, "Door to Nothingness").start()
    g.cast(0, "Door to Nothingness").resolve()
    assert g.obj("Door to Nothingness").tapped


def test_608_2b_a_spell_whose_targets_are_all_illegal_does_nothing() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Mountain", "Grizzly Bears").hand(1, "Lightning Bolt").start())
    g.cast(0, "Lightning Bolt", "Grizzly Bears").pass_()
    g.cast(1, "Lightning Bolt", "Grizzly Bears")
    g.resolve_all()
    # Player 1's Bolt resolved first and killed the Bears; player 0's then had no target.
    assert g.zone_names("graveyard", 1) == ["Lightning Bolt", "Grizzly Bears"]
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt"]
    assert "Lightning Bolt has no legal targets left and does not resolve." in g.log


def test_302_6_summoning_sickness_and_haste() -> None:
    g = (Scene().battlefield(0, "Mountain", "Wastes", "Wastes").hand(0, "Act of Treason")
         .battlefield(1, "Hill Giant").summoning_sick().at("main1").start())
    g.until("declare_attackers", 0)
    assert g.decision.kind == "priority"  # nothing could attack
    g.next_turn(0)
    g.cast(0, "Act of Treason", "Hill Giant").resolve()  # haste for the stolen Giant
    g.until("declare_attackers", 0)
    assert g.find("attack", "Hill Giant") is not None


def test_combat_trample_assigns_lethal_then_the_rest_to_the_player() -> None:
    g = (Scene().battlefield(0, "Abyssal Persecutor").battlefield(1, "Assault Griffin")
         .at("begin_combat").start())
    g.pass_(2).attack(("Abyssal Persecutor", 1)).pass_(2)
    g.block(1, ("Assault Griffin", "Abyssal Persecutor")).until("combat_damage")
    # 6 power: 2 is lethal for the 3/2 Griffin, the other 4 tramples over.
    assert g.life(1) == 16 and g.zone_names("graveyard", 1) == ["Assault Griffin"]


def test_combat_attacking_a_planeswalker_removes_loyalty() -> None:
    g = (Scene().battlefield(0, "Hill Giant")
         .battlefield(1, "Karn Liberated", counters={"loyalty": 6}).at("begin_combat").start())
    g.pass_(2).attack(("Hill Giant", "Karn Liberated")).pass_(2).until("combat_damage")
    assert g.obj("Karn Liberated").counters["loyalty"] == 3 and g.life(1) == 20


def test_lifelink_gains_life_equal_to_the_damage() -> None:
    g = Scene().battlefield(0, "Felidar Sovereign").at("begin_combat").start()
    g.pass_(2).attack(("Felidar Sovereign", 1)).until("combat_damage")
    assert g.life(1) == 16 and g.life(0) == 24


def test_514_1_cleanup_discards_down_to_seven() -> None:
    g = Scene().hand(0, *["Forest"] * 9).at("end").start()
    g.pass_(2)
    d = g.decision
    assert (d.kind, d.player, g.game.step) == ("discard", 0, "cleanup")
    g.choose("discard").choose("discard")
    assert len(g.game.hand(0)) == 7 and len(g.game.graveyard(0)) == 2
    assert g.game.active == 1


def test_refused_actions_name_the_reason_and_change_nothing() -> None:
    g = Scene().start()
    t = g.table
    d = g.decision
    before = t.state_hash()
    cases = [
        (Act(1, d.serial, 0), Code.NOT_YOUR_DECISION),
        (Act(0, d.serial - 1, 0), Code.STALE_DECISION),
        (Act(0, d.serial, 99), Code.UNKNOWN_ACTION),
        (Act(0, d.serial, -1), Code.UNKNOWN_ACTION),
    ]
    for cmd, code in cases:
        with pytest.raises(Refusal) as err:
            t.apply(cmd)
        assert err.value.code is code and err.value.message
        with pytest.raises(Refusal):
            t.check(cmd)
        assert t.state_hash() == before
    t.apply(Act(0, d.serial, 0))
    assert t.state_hash() != before


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    g = Scene().start()
    g.concede(1)
    assert g.table.finished
    with pytest.raises(Refusal) as err:
        g.table.apply(Act(0, 1, 0))
    assert err.value.code is Code.GAME_OVER
