"""The limited range of influence option (CR 801).

Most tests seat five players with range 1: Alex (0), Rob (1), Carissa (2), 3 and 4, so Rob is in
both Alex's and Carissa's range but Alex and Carissa are outside each other's, the layout the
rulebook's examples use.
"""

from __future__ import annotations

from .helpers import Scene

ALEX, ROB, CARISSA = 0, 1, 2


def ring(players: int = 5, r: int = 1) -> Scene:
    return Scene(players, range_of_influence=r)


def solo_teams(players: int, ranges: dict[int, int]) -> Scene:
    """Team vs. Team with one-player teams: everyone for themselves, but per-player ranges are
    allowed (CR 801.2a; Free-for-All requires one shared range, CR 806.2a)."""
    s = Scene(players, variant="team_vs_team")
    for pid in range(players):
        s.team(pid, pid)
        if pid in ranges:
            s.range(pid, ranges[pid])
    return s


def test_801_2_801_2a_801_2b_range_one_and_two() -> None:
    g = ring(7, 1).start()
    assert g.game.ranges[0] == frozenset({6, 0, 1})  # you and your neighbours
    g2 = ring(7, 2).start()
    assert g2.game.ranges[0] == frozenset({5, 6, 0, 1, 2})  # two seats each way
    assert all(p in g2.game.ranges[p] for p in range(7))  # always in your own range


def test_801_2a_players_may_have_different_ranges() -> None:
    g = solo_teams(6, {0: 2, 3: 1}).start()
    assert g.game.ranges[0] == frozenset({4, 5, 0, 1, 2})
    assert g.game.ranges[3] == frozenset({2, 3, 4})
    assert g.game.ranges[1] == frozenset(range(6))  # no limit given for player 1


def test_801_2c_ranges_are_fixed_as_each_turn_begins() -> None:
    g = ring(5).start()
    assert CARISSA not in g.game.ranges[ALEX]
    g.concede(ROB)
    assert CARISSA not in g.game.ranges[ALEX]  # not until the next turn begins
    g.until("upkeep", CARISSA)
    assert CARISSA in g.game.ranges[ALEX]


def test_801_2d_an_object_is_in_range_when_its_controller_is() -> None:
    g = (ring().battlefield(ALEX, "Mountain").hand(ALEX, "Lightning Bolt")
         .battlefield(ROB, "Grizzly Bears").battlefield(CARISSA, "Hill Giant").start())
    g.choose("cast", "Cast Lightning Bolt")
    options = {a.label for a in g.options()}
    assert "Target Grizzly Bears" in options and "Target Hill Giant" not in options


def test_801_3_creatures_attack_only_opponents_in_range() -> None:
    g = ring().battlefield(ALEX, "Hill Giant").at("begin_combat").start()
    g.pass_(5)
    assert {a.ref for a in g.options() if a.kind == "attack"} == {("p", ROB), ("p", 4)}


def test_801_4_targets_must_be_in_range() -> None:
    g = ring().battlefield(ALEX, *["Mountain"] * 5).hand(ALEX, "Lava Axe").start()
    g.choose("cast", "Cast Lava Axe")
    assert {a.ref for a in g.options()} == {("p", 4), ("p", ALEX), ("p", ROB)}


def test_801_5a_a_chosen_object_must_be_in_the_choosers_range() -> None:
    # Alex (range 2) has Rob (range 1) choose a creature Alex controls to sacrifice; Rob may
    # only choose among objects within his own range as well as Alex's.
    g = (solo_teams(6, {ALEX: 2, ROB: 1}).battlefield(ALEX, "Swamp", "Wastes", "Hill Giant")
         .hand(ALEX, "Tribute Demand").start())
    g.cast(ALEX, "Tribute Demand").resolve()
    assert {a.ref for a in g.options()} == {("p", 4), ("p", 5), ("p", ROB), ("p", CARISSA)}
    g.choose("choose_player", ref=("p", ROB))
    assert [a.label for a in g.options(ROB)] == ["Choose Hill Giant"]


def test_801_5b_choosing_between_options_ignores_the_choosers_range() -> None:
    # The rulebook's example: Alex (range 2) left of Rob, Carissa (range 1) right of Rob; Alex
    # asks Carissa to choose the mode, and she may, though Alex is outside her range.
    g = (solo_teams(6, {ALEX: 2, CARISSA: 1}).battlefield(ALEX, "Island", "Wastes")
         .hand(ALEX, "Tribute Offering").start())
    assert ALEX not in g.game.ranges[CARISSA]
    g.cast(ALEX, "Tribute Offering").resolve()
    g.choose("choose_player", ref=("p", CARISSA))
    assert (g.decision.kind, g.decision.player) == ("choose_mode", CARISSA)
    g.choose("choose_mode", "You gain 5 life")
    assert g.life(ALEX) == 25


def test_801_5c_with_nobody_in_range_the_closest_player_to_the_left_chooses() -> None:
    # Team vs. Team, range 1: player 1 sits between its two teammates, so no opponent is in
    # range; the nearest opponent to its left (player 3) makes the choice.
    s = Scene(6, variant="team_vs_team", range_of_influence=1)
    for pid in range(6):
        s.team(pid, pid // 3)
    g = (s.battlefield(1, "Island", "Wastes").hand(1, "Tribute Offering").at("main1", 1)
         .start())
    g.cast(1, "Tribute Offering").resolve()
    assert (g.decision.kind, g.decision.player) == ("choose_mode", 3)


def test_801_6_abilities_of_objects_out_of_range_cant_be_activated() -> None:
    g = ring().battlefield(CARISSA, "Public Fountain").at("upkeep", ROB).start()
    assert g.find("activate", "Public Fountain", player=ROB) is not None  # in Rob's range
    g.until("upkeep", 4)
    g.pass_()  # player 4 passes to... player 0 (Alex)
    assert g.decision.player == ALEX
    assert g.find("activate", "Public Fountain") is None  # Carissa's Fountain is out of range
    g.next_turn(ROB, "upkeep")
    g.activate(ROB, "Public Fountain").resolve()
    assert g.life(ROB) == 21


def test_801_7_a_trigger_needs_its_event_inside_the_controllers_range() -> None:
    g = (ring().battlefield(ALEX, "Genesis Chamber").battlefield(ROB, "Genesis Chamber")
         .battlefield(CARISSA, "Forest", "Wastes").hand(CARISSA, "Grizzly Bears")
         .at("main1", CARISSA).start())
    g.cast(CARISSA, "Grizzly Bears").resolve()
    # Rob's Chamber sees Carissa's creature enter; Alex's doesn't (Carissa is out of range).
    assert [t.controller for t in g.game.stack] == [ROB]
    g.resolve()
    assert [(m.controller) for m in g.objs("Myr")] == [CARISSA]


def test_801_7a_the_extractor_demon_example() -> None:
    # Carissa (range 2) controls a Runeclaw Bear owned by Alex (range 1); both control an
    # Extractor Demon. The Bear dies: only Carissa's Demon triggers, since the event happened
    # (the Bear left her battlefield) outside Alex's range.
    g = (solo_teams(5, {ALEX: 1, CARISSA: 2}).battlefield(ALEX, "Extractor Demon", "Runeclaw Bear")
         .battlefield(CARISSA, "Extractor Demon", "Mountain", "Mountain", "Wastes", "Wastes")
         .hand(CARISSA, "Act of Treason", "Lightning Bolt").at("main1", CARISSA).start())
    g.cast(CARISSA, "Act of Treason", "Runeclaw Bear").resolve()
    assert g.obj("Runeclaw Bear").controller == CARISSA
    g.cast(CARISSA, "Lightning Bolt", "Runeclaw Bear")
    g.resolve()
    assert g.zone_names("graveyard", ALEX) == ["Runeclaw Bear"]
    assert g.decision.kind == "target" and g.decision.player == CARISSA
    assert [t.controller for t in g.game.stack] == [CARISSA]


def test_801_8_an_aura_on_something_out_of_range_goes_to_the_graveyard() -> None:
    # Rob (range 1) enchants Alex's Bears with Mind Control. Player 3 (range 2) has Rob in
    # range, so can take the Bears with Act of Treason, but is outside Rob's range: the Aura
    # is then attached to something its controller can't reach, and is put into the graveyard.
    g = (solo_teams(5, {ALEX: 1, ROB: 1, CARISSA: 1, 3: 2, 4: 1})
         .battlefield(ALEX, "Grizzly Bears").battlefield(ROB, *["Island"] * 5)
         .hand(ROB, "Mind Control").battlefield(3, "Mountain", "Wastes", "Wastes")
         .hand(3, "Act of Treason").at("main1", ROB).start())
    g.cast(ROB, "Mind Control", "Grizzly Bears").resolve()
    assert g.obj("Grizzly Bears").controller == ROB
    g.until("main1", 3)
    g.cast(3, "Act of Treason", "Grizzly Bears").resolve()
    assert g.zone_names("graveyard", ROB) == ["Mind Control"]
    assert g.obj("Grizzly Bears").controller == 3


def test_801_10_effects_dont_reach_players_out_of_range() -> None:
    g = (ring().battlefield(ALEX, "Mountain", "Wastes").hand(ALEX, "Volcanic Tremor").start())
    g.cast(ALEX, "Volcanic Tremor").resolve()
    assert [g.life(p) for p in range(5)] == [18, 18, 20, 20, 18]


def test_801_11_effects_see_only_what_is_in_range() -> None:
    # Celestial Convergence: Carissa has the highest life total, but she is out of Alex's
    # range, so among those Alex's effect can see, Alex has the most and "wins" (which, under
    # limited range, makes his opponents in range lose: CR 801.14).
    g = (ring().battlefield(ALEX, "Celestial Convergence", counters={"omen": 1})
         .life(ALEX, 30).life(CARISSA, 99).at("end", 4).start())
    g.until("upkeep", ALEX).resolve()
    assert g.outcome(ROB) == ("lost", "range_of_influence")
    assert g.outcome(4) == ("lost", "range_of_influence")
    assert g.in_game(CARISSA) and g.in_game(ALEX)


def test_801_13a_the_captains_maneuver_example() -> None:
    # Alex's Lava Axe targets Rob; Rob redirects the next 3 damage to Carissa, who is outside
    # Alex's range: Rob takes 2, Carissa nothing.
    g = (ring().battlefield(ALEX, *["Mountain"] * 5).hand(ALEX, "Lava Axe")
         .battlefield(ROB, "Mountain", "Plains").hand(ROB, "Captain's Maneuver").start())
    g.cast(ALEX, "Lava Axe", ROB).pass_()
    g.cast(ROB, "Captain's Maneuver", ROB, CARISSA).resolve()
    g.resolve()
    assert g.life(ROB) == 18 and g.life(CARISSA) == 20


def test_801_13b_a_shield_on_a_player_in_range_stops_damage_from_outside() -> None:
    # Carissa Bolts Rob; Alex (who has Rob but not Carissa in range) prevents it.
    g = (ring().battlefield(CARISSA, "Mountain").hand(CARISSA, "Lightning Bolt")
         .battlefield(ALEX, "Plains").hand(ALEX, "Mending Hands").at("main1", CARISSA).start())
    g.cast(CARISSA, "Lightning Bolt", ROB)
    g.pass_(3)
    assert g.decision.player == ALEX
    g.cast(ALEX, "Mending Hands", ROB).resolve()
    g.resolve()
    assert g.life(ROB) == 20


def test_801_13b_fog_needs_both_source_and_recipient_in_range() -> None:
    # Carissa attacks Rob, Rob blocks; Alex's Fog can't prevent what Carissa's creature deals,
    # since it is out of his range, nor what is dealt to it.
    g = (ring().battlefield(CARISSA, "Hill Giant").battlefield(ROB, "Grizzly Bears")
         .battlefield(ALEX, "Forest").hand(ALEX, "Fog").at("begin_combat", CARISSA).start())
    g.pass_(5).attack(("Hill Giant", ROB))
    g.pass_(5)
    g.block(ROB, ("Grizzly Bears", "Hill Giant"))
    while g.decision.player != ALEX:
        g.pass_()
    g.cast(ALEX, "Fog").resolve()
    g.until("combat_damage")
    assert g.zone_names("graveyard", ROB) == ["Grizzly Bears"]
    assert g.obj("Hill Giant").damage == 2


def test_801_17_a_restart_involves_every_player_regardless_of_range() -> None:
    g = ring().battlefield(ALEX, "Karn Liberated", counters={"loyalty": 14}).start()
    g.activate(ALEX, "Karn Liberated", "\u221214").resolve()
    assert g.table.main.players_in_game() == [0, 1, 2, 3, 4]
    assert g.table.main.starting_player == ALEX
