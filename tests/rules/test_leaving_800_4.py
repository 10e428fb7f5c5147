"""Leaving a multiplayer game (CR 800.4): the game goes on for everyone else.

The four examples under CR 800.4a are reproduced with Alex as player 0, Bianca as player 1 and
a third player, Carissa (2), who keeps the game going.
"""

from __future__ import annotations

from .helpers import Scene

ALEX, BIANCA, CARISSA = 0, 1, 2
BLUE5 = ("Island",) * 5


def test_800_4a_mind_control_example_alex_leaves() -> None:
    g = (Scene(3).battlefield(ALEX, *BLUE5).hand(ALEX, "Mind Control")
         .battlefield(BIANCA, "Assault Griffin").start())
    g.cast(ALEX, "Mind Control", "Assault Griffin").resolve()
    assert g.obj("Assault Griffin").controller == ALEX
    g.concede(ALEX)
    assert g.objs("Mind Control") == []  # it left the game with its owner
    assert g.obj("Assault Griffin").controller == BIANCA


def test_800_4a_mind_control_example_bianca_leaves() -> None:
    g = (Scene(3).battlefield(ALEX, *BLUE5).hand(ALEX, "Mind Control")
         .battlefield(BIANCA, "Assault Griffin").start())
    g.cast(ALEX, "Mind Control", "Assault Griffin").resolve()
    g.concede(BIANCA)
    assert g.objs("Assault Griffin") == []  # owned by Bianca: gone with her
    assert g.zone_names("graveyard", ALEX) == ["Mind Control"]  # enchanting nothing (704.5m)


def test_800_4a_act_of_treason_example() -> None:
    g = (Scene(3).battlefield(ALEX, "Mountain", "Wastes", "Wastes").hand(ALEX, "Act of Treason")
         .battlefield(BIANCA, "Runeclaw Bear").start())
    g.cast(ALEX, "Act of Treason", "Runeclaw Bear").resolve()
    assert g.obj("Runeclaw Bear").controller == ALEX
    g.concede(ALEX)
    assert g.obj("Runeclaw Bear").controller == BIANCA  # the control effect ended


def test_800_4a_bribery_example_bianca_leaves() -> None:
    g = (Scene(3).battlefield(ALEX, *BLUE5).hand(ALEX, "Bribery")
         .library(BIANCA, "Serra Angel", "Forest").start())
    g.cast(ALEX, "Bribery", BIANCA).resolve().choose("choose_card", "Serra Angel")
    assert g.obj("Serra Angel").controller == ALEX
    g.concede(BIANCA)
    assert g.objs("Serra Angel") == []  # Bianca owns it: it leaves the game too


def test_800_4a_bribery_example_alex_leaves() -> None:
    g = (Scene(3).battlefield(ALEX, *BLUE5).hand(ALEX, "Bribery")
         .library(BIANCA, "Serra Angel", "Forest").start())
    g.cast(ALEX, "Bribery", BIANCA).resolve().choose("choose_card", "Serra Angel")
    g.concede(ALEX)
    exiled = g.obj("Serra Angel", zone="exile")  # still controlled by Alex: exiled
    assert exiled.owner == BIANCA


def test_800_4a_genesis_chamber_example() -> None:
    g = (Scene(3).battlefield(ALEX, "Genesis Chamber", "Forest", "Wastes")
         .hand(ALEX, "Grizzly Bears").battlefield(BIANCA, "Forest", "Wastes")
         .hand(BIANCA, "Runeclaw Bear").start())
    g.cast(ALEX, "Grizzly Bears").resolve()
    g.resolve()  # Alex creates a Myr
    g.until("main1", BIANCA)
    g.cast(BIANCA, "Runeclaw Bear").resolve()
    g.resolve()  # Bianca creates a Myr
    assert sorted(o.controller for o in g.objs("Myr")) == [ALEX, BIANCA]
    g.concede(ALEX)
    myrs = g.objs("Myr")
    assert [(o.owner, o.controller) for o in myrs] == [(BIANCA, BIANCA)]


def test_800_4a_abilities_they_control_cease_and_priority_moves_on() -> None:
    g = (Scene(3).battlefield(ALEX, "Karn Liberated", counters={"loyalty": 6})
         .battlefield(BIANCA, "Hill Giant").start())
    g.activate(ALEX, "Karn Liberated", "\u22123", target="Hill Giant")
    assert g.decision.player == ALEX and len(g.game.stack) == 1
    g.concede(ALEX)
    assert g.game.stack == []  # the ability ceased to exist
    assert g.decision.player == BIANCA and g.decision.kind == "priority"
    assert g.obj("Hill Giant")


def test_800_4b_no_token_is_created_for_a_player_who_has_left() -> None:
    g = (Scene(3).battlefield(ALEX, "Genesis Chamber").battlefield(BIANCA, "Forest", "Wastes")
         .hand(BIANCA, "Runeclaw Bear").at("main1", BIANCA).start())
    g.cast(BIANCA, "Runeclaw Bear").resolve()
    assert len(g.game.stack) == 1  # Alex's Chamber trigger: "that creature's controller"
    g.concede(BIANCA)
    g.resolve()
    assert g.objs("Myr") == []


def test_800_4c_when_control_ends_and_the_default_controller_has_left_it_is_exiled() -> None:
    g = (Scene(3).battlefield(ALEX, *BLUE5).hand(ALEX, "Bribery")
         .library(BIANCA, "Serra Angel", "Forest")
         .battlefield(CARISSA, "Mountain", "Wastes", "Wastes").hand(CARISSA, "Act of Treason")
         .start())
    g.cast(ALEX, "Bribery", BIANCA).resolve().choose("choose_card", "Serra Angel")
    g.until("main1", CARISSA)
    g.cast(CARISSA, "Act of Treason", "Serra Angel").resolve()
    g.concede(ALEX)
    angel = g.obj("Serra Angel")  # Carissa's effect still holds it
    assert angel.controller == CARISSA
    g.until("upkeep", ALEX if g.in_game(ALEX) else BIANCA)
    # At end of turn Act of Treason ended; Alex (its default controller) has left: exiled.
    assert g.objs("Serra Angel", "battlefield") == []
    assert g.obj("Serra Angel", zone="exile").owner == BIANCA


def test_800_4d_a_departed_players_triggered_ability_never_reaches_the_stack() -> None:
    g = (Scene(3).battlefield(ALEX, "Genesis Chamber")
         .battlefield(BIANCA, "Isamaru, Hound of Konda", "Plains")
         .hand(BIANCA, "Isamaru, Hound of Konda").at("main1", BIANCA).start())
    g.cast(BIANCA, "Isamaru, Hound of Konda")
    g.pass_(3)
    # It resolved: Alex's Chamber has triggered, but first Bianca faces the legend rule.
    assert g.decision.kind == "legend_rule" and len(g.game.pending_triggers) == 1
    g.concede(ALEX)
    g.choose("choose_card")
    assert g.game.stack == [] and g.objs("Myr") == []


def test_800_4e_combat_damage_is_not_assigned_to_a_departed_player() -> None:
    g = (Scene(3).battlefield(ALEX, "Hill Giant").at("begin_combat").start())
    g.pass_(3).attack(("Hill Giant", BIANCA))
    g.concede(BIANCA)
    g.until("combat_damage")
    giant = g.obj("Hill Giant")
    assert giant.attacking == ("p", BIANCA)  # still an attacking creature
    assert not any("deals 3 combat damage" in line for line in g.log)
    assert g.life(CARISSA) == 20


def test_800_4f_a_departed_player_does_not_pay_a_cost() -> None:
    g = (Scene(3).battlefield(ALEX, "Swamp", "Wastes").hand(ALEX, "Toll Keeper")
         .library(ALEX, "Hill Giant", "Forest").start())
    g.cast(ALEX, "Toll Keeper").resolve()
    g.target(BIANCA)
    g.resolve()
    assert (g.decision.kind, g.decision.player) == ("pay", BIANCA)
    g.concede(BIANCA)
    # Bianca left without paying: Alex draws.
    assert g.zone_names("hand", ALEX) == ["Hill Giant"]
    assert "B doesn't pay." in g.log


def test_800_4g_a_choice_left_by_a_departed_player_goes_to_another() -> None:
    g = (Scene(3).battlefield(ALEX, "Swamp", "Wastes", "Grizzly Bears", "Hill Giant")
         .hand(ALEX, "Tribute Demand").start())
    g.cast(ALEX, "Tribute Demand").resolve()
    g.choose("choose_player", ref=("p", BIANCA))
    assert (g.decision.kind, g.decision.player) == ("choose_creature", BIANCA)
    g.concede(BIANCA)
    # Alex chooses another opponent to make the choice.
    assert (g.decision.kind, g.decision.player) == ("choose_player", ALEX)
    assert [a.ref for a in g.options()] == [("p", CARISSA)]
    g.choose("choose_player", ref=("p", CARISSA))
    assert (g.decision.kind, g.decision.player) == ("choose_creature", CARISSA)
    g.choose("choose_card", "Hill Giant")
    assert g.zone_names("graveyard", ALEX) == ["Hill Giant", "Tribute Demand"]


def test_800_4h_a_rule_choice_of_a_departed_player_passes_to_the_next_in_turn_order() -> None:
    from arbiter.server.rules import GameConfig, PlayerConfig, Table
    from arbiter.server.rules.cards.decks import ready_made

    deck = ready_made("quick-red").main
    t = Table(GameConfig(players=tuple(PlayerConfig(f"P{i}", deck) for i in range(3)),
                         variant="free_for_all", chooser=1), 3)
    assert t.pending is not None and (t.pending.kind, t.pending.player) == ("starting_player", 1)
    t.concede(1)
    d = t.pending
    assert d is not None and (d.kind, d.player) == ("starting_player", 2)
    assert {a.ref for a in d.actions} == {("p", 0), ("p", 2)}


def test_800_4i_information_about_a_departed_player_is_their_last() -> None:
    g = (Scene(3).battlefield(ALEX, "Plains", "Wastes", "Wastes").hand(ALEX, "Soul Echo")
         .life(BIANCA, 13).start())
    g.cast(ALEX, "Soul Echo").resolve()
    g.resolve()  # its enters trigger: choose an opponent
    g.choose("choose_player", ref=("p", BIANCA))
    g.concede(BIANCA)
    g.next_turn(ALEX, "upkeep").resolve()
    assert g.life(ALEX) == 33  # Bianca's last life total


def test_800_4j_a_turn_goes_on_without_its_active_player() -> None:
    g = Scene(3).battlefield(BIANCA, "Hill Giant").hand(ALEX, "Forest").start()
    g.concede(ALEX)
    assert g.game.active == ALEX and g.decision.player == BIANCA  # still Alex's turn
    g.pass_(2)
    assert g.game.step == "begin_combat" and g.game.active == ALEX
    assert g.decision.player == BIANCA  # the next player gets the active player's priority
    g.until("upkeep", BIANCA)
    assert g.game.turn == 2


def test_800_4k_a_departed_players_turn_does_not_begin() -> None:
    g = Scene(3).start()
    g.concede(BIANCA)
    g.until("upkeep", CARISSA)
    assert g.game.turn == 2 and g.game.active == CARISSA


def test_800_4m_until_your_next_turn_ends_when_that_turn_would_have_begun() -> None:
    g = (Scene(3).battlefield(ALEX, "Island").hand(ALEX, "Updraft")
         .battlefield(CARISSA, "Grizzly Bears").start())
    g.cast(ALEX, "Updraft", "Grizzly Bears").resolve()
    bears = g.obj("Grizzly Bears")
    g.until("upkeep", BIANCA)
    g.concede(ALEX)
    assert any(e.keyword == "flying" and e.affected == bears.oid for e in g.game.effects)
    g.until("upkeep", CARISSA)
    assert any(e.keyword == "flying" for e in g.game.effects)  # neither expired at once...
    g.until("upkeep", BIANCA)
    assert not any(e.keyword == "flying" for e in g.game.effects)  # ...nor lasts forever
