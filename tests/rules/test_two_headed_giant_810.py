"""Two-Headed Giant (CR 810): two teams of two sharing turns (805), each team with one life
total and one poison count, winning and losing only as a team; and restarts (724) and
subgames (726) inside a Two-Headed Giant game."""

from __future__ import annotations

import pytest

from arbiter.protocol.errors import Refusal
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.state import EXILE, HAND
from arbiter.server.rules.view import SPECTATOR

from .helpers import G, giant_scene

DECK = ready_made("quick-red").main
MINUS_14 = "\u221214"
MINUS_3 = "\u22123"


def _config(players: int = 4, **changes: object) -> GameConfig:
    return GameConfig(players=tuple(PlayerConfig(f"P{i}", DECK, team=i * 2 // players)
                                    for i in range(players)),
                      variant="two_headed_giant", **changes)  # type: ignore[arg-type]


def _lives(g: G) -> list[int]:
    return [g.life(p) for p in range(4)]


# --------------------------------------------------------------------------- 810.1, 810.4


def test_810_1_two_teams_of_two_or_of_one_larger_size() -> None:
    for teams in ([0, 0, 1, 2], [0, 0, 0, 1], [0, 0, 1, 1, 1, 1]):
        bad = GameConfig(players=tuple(PlayerConfig(f"P{i}", DECK, team=t)
                                       for i, t in enumerate(teams)),
                         variant="two_headed_giant")
        with pytest.raises(Refusal, match=r"810\.1"):
            Table(bad, 1)
    with pytest.raises(Refusal, match="a team"):
        Table(GameConfig(players=tuple(PlayerConfig(f"P{i}", DECK) for i in range(4)),
                         variant="two_headed_giant"), 1)


def test_810_4_each_team_has_one_life_total_starting_at_30() -> None:
    t = Table(_config(), 1)
    assert [t.main.players[p].life for p in range(4)] == [30] * 4
    g = giant_scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt").start()
    g.cast(0, "Lightning Bolt", 3).resolve()
    assert _lives(g) == [30, 30, 27, 27]
    for viewer in (0, 2, SPECTATOR):
        view = g.view(viewer)
        assert view["p2"]["l"] == view["p3"]["l"] == 27
    assert g.view(0)["g"]["teams"] == [[0, 1], [2, 3]]
    assert g.view(0)["g"]["shared"] == ["turns", "life"]
    # CR 810.11: teams of three start at 45 and lose at 20 poison counters.
    big = Table(_config(6), 1).main
    assert big.players[0].life == 45 and big.poison_limit == 20


def test_810_4_a_scenario_gives_a_team_one_life_total() -> None:
    g = giant_scene().life(1, 12).poison(3, 4).start()
    assert _lives(g) == [12, 12, 30, 30] and g.poison(2) == g.poison(3) == 4
    with pytest.raises(Refusal, match=r"810\.4"):
        giant_scene().life(0, 12).life(1, 13).start()


# --------------------------------------------------------------------------- 810.5


def test_810_5_teammates_keep_their_own_cards_and_mana_but_see_each_others_hands() -> None:
    g = (giant_scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .hand(1, "Hill Giant").hand(2, "Grizzly Bears").start())
    g.choose("mana", "Tap Mountain", player=0)
    assert g.game.players[0].mana == {"R": 1} and not g.game.players[1].mana
    g.pass_()
    assert g.decision.player == 1
    assert g.find("mana") is None and g.find("cast") is None  # 0's land and mana stay 0's
    bolt = g.obj("Lightning Bolt", HAND).oid
    giant = g.obj("Hill Giant", HAND).oid
    bears = g.obj("Grizzly Bears", HAND).oid
    assert {bolt, giant} <= set(g.view(0)) and {bolt, giant} <= set(g.view(1))
    assert bears not in g.view(0) and bears in g.view(3)
    assert not {bolt, giant, bears} & set(g.view(SPECTATOR))
    assert bolt not in g.view(2) and giant not in g.view(3)


# --------------------------------------------------------------------------- 810.6


def test_810_6_the_team_that_plays_first_skips_its_first_draw() -> None:
    g = G(Table(_config(starting_player=2), 5)).keep_hands()
    g.until("main1", 2)
    assert [len(g.game.hand(p)) for p in range(4)] == [7, 7, 7, 7]
    assert "P2 and P3 skip the first draw step." in g.log
    g.next_turn(0)
    assert [len(g.game.hand(p)) for p in range(4)] == [8, 8, 7, 7]  # the other team draws


# --------------------------------------------------------------------------- 810.8


def test_810_8a_a_player_who_loses_takes_their_team_with_them() -> None:
    g = giant_scene().library(1).at("upkeep", 0).start()
    g.until("main1", 0)
    assert g.table.finished and g.table.result is not None
    assert g.table.result.winners == (2, 3)
    assert g.outcome(1) == ("lost", "decking") and g.outcome(0) == ("lost", "teammate_lost")
    assert g.rule_of(0) == "810.8a"


def test_810_8a_a_player_who_wins_wins_for_the_team() -> None:
    # CR 810.9a too: "if you have 50 or more life" looks at the team's life total.
    g = giant_scene().battlefield(1, "Test of Endurance").life(0, 50).at("end", 2).start()
    g.until("upkeep", 0).resolve()
    assert g.table.result is not None and g.table.result.winners == (0, 1)
    assert g.outcome(2) == ("lost", "opponent_won")


def test_810_8a_cant_lose_and_cant_win_apply_to_the_whole_team() -> None:
    g = (giant_scene().battlefield(1, "Platinum Angel").battlefield(2, "Mountain")
         .hand(2, "Lightning Bolt").library(0).life(0, 2).at("upkeep", 0).start())
    assert g.game.cant_lose(0) and g.game.cant_lose(1)
    assert g.game.cant_win(2) and g.game.cant_win(3)
    g.until("main1", 0)  # player 0 drew from an empty library: the team can't lose
    g.pass_(2)
    g.cast(2, "Lightning Bolt", 0).resolve()
    assert g.life(0) == -1 and g.in_game(0) and g.in_game(1) and not g.table.finished
    g.concede(2)  # a concession isn't stopped (104.3a); the Angel's team is the last one
    assert g.table.result is not None and g.table.result.winners == (0, 1)


def test_810_8b_a_concession_takes_the_whole_team_out() -> None:
    g = giant_scene().battlefield(1, "Platinum Angel").start()
    g.concede(1)
    assert g.outcome(1) == ("lost", "concession")
    assert g.outcome(0) == ("lost", "team_conceded") and g.rule_of(0) == "810.8b"
    assert g.table.result is not None and g.table.result.winners == (2, 3)


def test_810_8c_a_team_with_0_or_less_life_loses() -> None:
    g = (giant_scene().battlefield(2, *["Mountain"] * 5).hand(2, "Lava Axe").life(0, 5)
         .at("main1", 2).start())
    g.cast(2, "Lava Axe", 1).resolve()
    assert g.outcome(0) == ("lost", "team_life") and g.outcome(1) == ("lost", "team_life")
    assert g.rule_of(1) == "810.8c"


def test_810_8d_a_team_with_fifteen_poison_counters_loses() -> None:
    g = (giant_scene().battlefield(0, "Glistener Elf").poison(2, 14)
         .at("begin_combat", 0).start())
    assert g.in_game(2)  # more than ten is not enough (704.5c is ignored, 704.6b)
    g.until("declare_attackers", 0).attack(("Glistener Elf", 3))
    g.until("end_combat")
    assert g.outcome(2) == ("lost", "team_poison") and g.rule_of(3) == "810.8d"


# --------------------------------------------------------------------------- 810.9, 810.10


def test_810_9_damage_and_life_changes_happen_to_players_and_count_for_the_team() -> None:
    g = (giant_scene().battlefield(0, "Mountain", "Mountain").hand(0, "Volcanic Tremor")
         .battlefield(1, "Felidar Sovereign").start())
    g.cast(0, "Volcanic Tremor").resolve()
    assert _lives(g) == [26, 26, 26, 26]  # 2 damage to each player: 4 to each team
    g.until("declare_attackers", 0)
    assert g.decision.player == 1  # 0 has no creature to attack with
    g.attack(("Felidar Sovereign", 2))
    g.until("end_combat")
    assert _lives(g) == [30, 30, 22, 22]  # lifelink: 1 gains 4 for the team


def test_810_9_each_players_life_loss_counts() -> None:
    g = giant_scene().battlefield(0, "Blood Tyrant").at("upkeep", 0).start()
    g.resolve()
    assert _lives(g) == [28, 28, 28, 28]
    assert g.obj("Blood Tyrant").counters == {"+1/+1": 4}  # four players lost 1 life each


def test_810_9a_half_a_players_life_is_half_the_teams() -> None:
    # Shahrazad's subgame: 3 concedes it, so their team leaves it (810.8b) and 0 and 1 win.
    # Then 2 and 3 each lose half their life, the team's, at the same time: 11 each of 21.
    g = (giant_scene().battlefield(0, "Plains", "Plains").hand(0, "Shahrazad").life(2, 21)
         .start())
    g.cast(0, "Shahrazad").resolve()
    sub = g.game
    assert sub is not g.main and sub.config.giant and sub.players[2].life == 30
    g.keep_hands()
    g.concede(3)
    assert sub.result is not None and sub.result.winners == (0, 1)
    assert g.life(2, g.main) == g.life(3, g.main) == -1
    assert "C did not win the subgame and loses 11 life." in g.log
    assert "D did not win the subgame and loses 11 life." in g.log
    assert g.outcome(2) == ("lost", "team_life")


def test_810_9c_setting_a_players_life_total_moves_the_team_by_the_difference() -> None:
    g = (giant_scene().battlefield(0, *["Plains"] * 18).hand(0, "Blessed Wind", "Blessed Wind")
         .life(2, 25).life(0, 3).start())
    g.cast(0, "Blessed Wind", 3).resolve()
    assert _lives(g)[2:] == [20, 20]  # 3's life total was the team's 25: 3 lost 5
    g.cast(0, "Blessed Wind", 1).resolve()
    assert _lives(g)[:2] == [20, 20]  # 1 gained 17


def test_810_10_poison_counters_go_to_a_player_and_are_shared_by_the_team() -> None:
    g = (giant_scene().battlefield(0, "Glistener Elf").battlefield(1, "Plague Stinger")
         .at("begin_combat", 0).start())
    g.until("declare_attackers", 0).attack(("Glistener Elf", 2), ("Plague Stinger", 3))
    g.until("end_combat")
    assert g.poison(2) == g.poison(3) == 2
    assert g.view(0)["p2"]["v"] == g.view(0)["p3"]["v"] == 2


# --------------------------------------------------------------------------- 724, 726


def test_724_1a_a_restart_in_two_headed_giant_is_started_by_the_controllers_team() -> None:
    g = (giant_scene().battlefield(1, "Karn Liberated", counters={"loyalty": 17})
         .battlefield(3, "Serra Angel").start())
    g.pass_()
    g.activate(1, "Karn Liberated", MINUS_3, target="Serra Angel").resolve()
    assert g.obj("Serra Angel", EXILE)
    g.next_turn(0)
    g.pass_()
    g.activate(1, "Karn Liberated", MINUS_14).resolve()
    new = g.game
    assert g.table.history[-1].restarted and new.number != g.table.history[-1].game
    assert new.config.giant and new.starting_player == 0  # 1's team starts; 0 holds the turn
    assert [new.players[p].life for p in range(4)] == [30] * 4  # a new game: 810.4 again
    g.keep_hands()
    g.until("main1", 0)
    assert [len(new.hand(p)) for p in range(4)] == [7, 7, 7, 7]  # 810.6 in the new game too
    angel = g.obj("Serra Angel")
    assert angel.controller == 1
    g.until("declare_attackers", 0)
    assert g.decision.kind == "attackers" and g.decision.player == 1  # it may attack at once


def test_726_2_a_subgame_of_two_headed_giant_is_two_headed_giant_between_the_same_teams() -> None:
    g = (giant_scene().battlefield(2, "Plains", "Plains").hand(2, "Shahrazad")
         .at("main1", 2).start())
    g.cast(2, "Shahrazad").resolve()
    sub = g.game
    assert sub.depth == 1 and sub.seats == [0, 1, 2, 3]
    assert sub.turn_mates[1] == (0, 1) and sub.starting_player in (0, 2)
    assert [sub.players[p].life for p in range(4)] == [30] * 4
    assert [g.main.players[p].life for p in range(4)] == [30] * 4  # the main game's stay
    g.keep_hands()
    g.concede(0)  # the subgame: 0's team leaves it (810.8b), and 2's team wins it
    assert sub.result is not None and sub.result.winners == (2, 3)
    # 0 and 1 each lose half their team's 30 life at once: the team is at 0 and loses.
    assert g.outcome(0) == ("lost", "team_life") and g.outcome(1) == ("lost", "team_life")
    assert g.table.result is not None and g.table.result.winners == (2, 3)
