"""Ending the game (CR 104): every way to win, lose and draw, and leaving the game."""

from __future__ import annotations

import pytest

from arbiter.protocol.errors import Code, Refusal

from .helpers import G, Scene, emperor_scene

TEAMS_2V2 = dict(variant="team_vs_team")


def _teams(scene: Scene, *teams: tuple[int, ...]) -> Scene:
    for t, members in enumerate(teams):
        for pid in members:
            scene.team(pid, t)
    return scene


# --------------------------------------------------------------------------- 104.1, 104.2


def test_104_1_the_game_ends_the_moment_a_player_wins() -> None:
    g = (Scene().battlefield(0, *["Plains"] * 14)
         .hand(0, "Approach of the Second Sun", "Approach of the Second Sun").start())
    g.cast(0, "Approach of the Second Sun").resolve()
    assert g.life(0) == 27 and g.game.library(0)[-7].name == "Approach of the Second Sun"
    g.cast(0, "Approach of the Second Sun").resolve()
    assert g.table.finished and g.table.pending is None
    assert g.outcome(0) == ("won", "effect_win") and g.outcome(1) == ("lost", "opponent_won")


def test_104_2a_the_last_player_standing_wins_even_if_they_cant_win() -> None:
    g = Scene(3).battlefield(0, "Abyssal Persecutor").start()
    g.concede(1)
    assert not g.table.finished
    g.concede(2)
    assert g.outcome(0) == ("won", "opponents_left") and g.rule_of(0) == "104.2a"


def test_104_2b_an_effect_can_say_a_player_wins() -> None:
    g = Scene().battlefield(0, "Test of Endurance").life(0, 50).at("end", 1).start()
    g.until("upkeep", 0).resolve()
    assert g.outcome(0) == ("won", "effect_win") and g.rule_of(0) == "104.2b"


def test_104_2c_the_last_team_standing_wins_even_members_who_lost() -> None:
    g = _teams(Scene(4, **TEAMS_2V2), (0, 1), (2, 3)).life(0, 1).start()
    g.concede(0)
    assert g.outcome(0) == ("lost", "concession")
    g.concede(2)
    assert not g.table.finished  # player 3 is still in for their team
    g.concede(3)
    assert g.table.result is not None and g.table.result.winners == (0, 1)
    assert g.outcome(0) == ("won", "team") and g.outcome(1) == ("won", "team")
    assert {g.rule_of(0), g.rule_of(1)} <= {"104.2c"}


def test_104_2d_809_5a_a_team_wins_when_its_emperor_wins() -> None:
    g = emperor_scene().start()
    g.concede(4)  # the other team's emperor: that whole team loses (809.5b)
    assert g.table.finished
    assert g.table.result is not None and set(g.table.result.winners) == {0, 1, 2}
    assert g.outcome(1) == ("won", "team")  # the emperor: the last team standing
    assert g.outcome(0) == ("won", "emperor") and g.rule_of(0) == "104.2d"
    assert g.outcome(2) == ("won", "emperor")


# --------------------------------------------------------------------------- 104.3


def test_104_3a_a_player_can_concede_at_any_time_and_leaves_losing() -> None:
    g = Scene(3).battlefield(1, "Hill Giant").start()
    g.concede(1)
    assert g.outcome(1) == ("lost", "concession") and g.rule_of(1) == "104.3a"
    assert not g.in_game(1) and g.objs("Hill Giant") == []


def test_104_3b_life_of_zero_loses() -> None:
    g = Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt").life(1, 3).start()
    g.cast(0, "Lightning Bolt", 1).resolve()
    assert g.outcome(1) == ("lost", "life") and g.rule_of(1) == "104.3b"


def test_104_3c_drawing_more_cards_than_the_library_has_loses() -> None:
    g = (Scene().library(0, "Forest").battlefield(0, "Island", "Island", "Island")
         .hand(0, "Divination").start())
    g.cast(0, "Divination").resolve()
    # It drew the card there was, then lost; its cards left the game with it.
    assert "Forest" in [c.name for c in g.game.departed_cards[0]]
    assert g.outcome(0) == ("lost", "decking") and g.rule_of(0) == "104.3c"


def test_104_3d_ten_poison_counters_lose() -> None:
    g = Scene().battlefield(0, "Plague Stinger").poison(1, 9).at("begin_combat").start()
    g.pass_(2).attack(("Plague Stinger", 1)).until("combat_damage")
    assert g.outcome(1) == ("lost", "poison") and g.rule_of(1) == "104.3d"


def test_104_3e_an_effect_can_say_a_player_loses() -> None:
    g = Scene().battlefield(0, "Phage the Untouchable").at("begin_combat").start()
    g.pass_(2).attack(("Phage the Untouchable", 1)).until("combat_damage")
    g.resolve()  # Phage's trigger: that player loses the game
    assert g.outcome(1) == ("lost", "effect_loss") and g.rule_of(1) == "104.3e"


def test_104_3f_a_player_who_would_win_and_lose_at_once_loses() -> None:
    g = Scene().battlefield(0, "Swamp").hand(0, "Twin Fates").life(0, 5).start()
    g.cast(0, "Twin Fates").resolve()
    assert g.outcome(0) == ("lost", "win_and_lose") and g.rule_of(0) == "104.3f"
    assert g.outcome(1) == ("won", "opponents_left")


def test_104_3f_winning_alone_still_wins() -> None:
    g = Scene().battlefield(0, "Swamp").hand(0, "Twin Fates").life(0, 6).life(1, 5).start()
    g.cast(0, "Twin Fates").resolve()
    assert g.outcome(0) == ("won", "effect_win")


def test_104_3g_a_team_loses_when_all_its_players_have_lost() -> None:
    g = _teams(Scene(6, variant="team_vs_team"), (0, 1), (2, 3), (4, 5)).start()
    g.concede(2)
    assert not g.table.finished
    g.concede(3)
    assert not g.table.finished  # two teams remain
    assert {g.outcome(2), g.outcome(3)} == {("lost", "concession")}
    g.concede(4).concede(5)
    assert g.table.result is not None and g.table.result.winners == (0, 1)


def test_104_3h_801_14_under_limited_range_a_win_makes_opponents_in_range_lose() -> None:
    g = (Scene(5, range_of_influence=1).battlefield(0, "Test of Endurance").life(0, 50)
         .at("end", 4).start())
    g.until("upkeep", 0).resolve()
    assert g.outcome(1) == ("lost", "range_of_influence") and g.rule_of(1) == "104.3h"
    assert g.outcome(4) == ("lost", "range_of_influence")
    assert g.in_game(0) and g.in_game(2) and g.in_game(3)  # the game goes on
    assert not g.table.finished


def test_104_3i_809_5b_a_team_loses_when_its_emperor_loses() -> None:
    g = emperor_scene().start()
    g.concede(1)
    assert g.outcome(1) == ("lost", "concession")
    assert g.outcome(0) == ("lost", "emperor_lost") and g.rule_of(0) == "104.3i"
    assert g.outcome(2) == ("lost", "emperor_lost")
    assert g.table.result is not None and set(g.table.result.winners) == {3, 4, 5}


def test_104_3j_903_10a_21_combat_damage_from_one_commander_loses() -> None:
    g = (Scene(variant="commander").commander(0, "Phage the Untouchable", zone="battlefield")
         .commander(1, "Isamaru, Hound of Konda").life(1, 40).commander_damage(1, 0, 20)
         .at("begin_combat").start())
    g.until("declare_attackers", 0)
    g.attack(("Phage the Untouchable", 1)).until("combat_damage")
    # Phage's own trigger would also make player 1 lose, but the damage rule comes first.
    assert g.outcome(1) == ("lost", "commander_damage") and g.rule_of(1) == "104.3j"
    assert g.life(1, g.main) == 36


def test_104_3k_a_judge_penalty_loses_even_through_cant_lose() -> None:
    g = Scene(3).battlefield(1, "Platinum Angel").start()
    g.table.penalize(1, "judge")
    assert g.outcome(1) == ("lost", "judge") and g.rule_of(1) == "104.3k"
    with pytest.raises(Refusal) as err:
        g.table.penalize(2, "jealousy")
    assert err.value.code is Code.NOT_AUTHORISED


# --------------------------------------------------------------------------- 104.4


def test_104_4a_two_players_reaching_zero_from_one_spell_draw() -> None:
    g = (Scene().battlefield(0, "Mountain", "Wastes").hand(0, "Volcanic Tremor")
         .life(0, 2).life(1, 2).start())
    g.cast(0, "Volcanic Tremor").resolve()
    assert g.table.result is not None and g.table.result.draw
    assert g.outcome(0) == ("drew", "all_lost") and g.rule_of(1) == "104.4a"


def test_104_4a_all_remaining_players_losing_to_an_upkeep_trigger_draw() -> None:
    g = (Scene(3).battlefield(0, "Blood Tyrant").life(0, 1).life(1, 1).life(2, 1)
         .at("end", 2).start())
    g.until("upkeep", 0).resolve()
    assert g.table.result is not None and g.table.result.draw
    assert {g.outcome(p) for p in range(3)} == {("drew", "all_lost")}


def test_104_4b_a_mandatory_loop_is_a_draw() -> None:
    g = (Scene().battlefield(0, "Perpetual Pendulum").battlefield(1, "Wastes")
         .hand(1, "Perpetual Counterweight").at("main1", 1).start())
    g.cast(1, "Perpetual Counterweight").resolve()
    g.target("Perpetual Pendulum")
    for _ in range(40):
        if g.table.finished:
            break
        g.pass_()
    assert g.table.finished, g.log[-6:]
    assert g.outcome(0) == ("drew", "loop") and g.rule_of(0) == "104.4b"
    assert "The game is in a loop of mandatory actions." in g.log


def test_104_4b_a_repetition_with_a_real_choice_in_it_is_not_declared_a_loop() -> None:
    # Player 0 holds Lightning Bolt with a Mountain: every pass is a choice, so the engine does
    # not declare a draw (docs/rulings.md); the players can still agree to one (104.4i).
    g = (Scene().battlefield(0, "Perpetual Pendulum", "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Wastes").hand(1, "Perpetual Counterweight").at("main1", 1).start())
    g.cast(1, "Perpetual Counterweight").resolve()
    g.target("Perpetual Pendulum")
    for _ in range(40):
        g.pass_()
    assert not g.table.finished and g.game.stack


def test_104_4c_an_effect_can_make_the_game_a_draw() -> None:
    g = (Scene().battlefield(0, "Divine Intervention", counters={"intervention": 1})
         .at("end", 1).start())
    g.until("upkeep", 0).resolve()
    g.resolve()  # the "last counter removed" trigger
    assert g.table.result is not None and g.table.result.draw and not g.table.result.winners
    assert g.outcome(0) == ("drew", "effect_draw") and g.rule_of(1) == "104.4c"


def test_104_4d_all_remaining_teams_losing_at_once_is_a_draw() -> None:
    g = (_teams(Scene(4, **TEAMS_2V2), (0, 1), (2, 3)).battlefield(0, "Mountain", "Wastes")
         .hand(0, "Volcanic Tremor").life(0, 2).life(3, 2).start())
    g.concede(1).concede(2)
    g.cast(0, "Volcanic Tremor").resolve()
    assert g.table.result is not None and g.table.result.draw
    assert g.outcome(0) == ("drew", "teams_all_lost") and g.rule_of(3) == "104.4d"


def test_104_4e_801_15_under_limited_range_a_draw_effect_covers_its_range() -> None:
    g = (Scene(5, range_of_influence=1)
         .battlefield(2, "Divine Intervention", counters={"intervention": 1})
         .at("end", 1).start())
    g.until("upkeep", 2).resolve()
    g.resolve()
    for pid in (1, 2, 3):
        assert g.outcome(pid) == ("drew", "range_draw") and g.rule_of(pid) == "104.4e"
    assert g.in_game(0) and g.in_game(4) and not g.table.finished


def test_104_4f_801_16_under_limited_range_a_loop_is_a_draw_for_those_involved() -> None:
    g = (Scene(6, range_of_influence=1).battlefield(0, "Perpetual Pendulum")
         .battlefield(1, "Wastes").hand(1, "Perpetual Counterweight").at("main1", 1).start())
    g.cast(1, "Perpetual Counterweight").resolve()
    g.target("Perpetual Pendulum")
    for _ in range(60):
        if not g.in_game(0):
            break
        g.pass_()
    # Pendulum (player 0) and Counterweight (player 1), plus everyone within range 1 of them.
    for pid in (5, 0, 1, 2):
        assert g.outcome(pid) == ("drew", "range_loop") and g.rule_of(pid) == "104.4f"
    assert g.in_game(3) and g.in_game(4) and not g.table.finished


def test_104_4g_a_team_draws_when_all_its_remaining_players_draw() -> None:
    g = (_teams(Scene(6, variant="team_vs_team", range_of_influence=1), (0, 1), (2, 3), (4, 5))
         .battlefield(2, "Divine Intervention", counters={"intervention": 1})
         .at("end", 1).start())
    g.concede(3)
    g.until("upkeep", 2).resolve()
    g.resolve()
    # Player 2's range covers 1 and 4 (3 has left): team {2, 3} has drawn, the others go on.
    assert g.outcome(2) == ("drew", "range_draw") and g.outcome(3) == ("lost", "concession")
    assert g.rule_of(2) in ("104.4e", "104.4g")
    assert g.outcome(1) == ("drew", "range_draw") and g.outcome(4) == ("drew", "range_draw")
    assert g.in_game(0) and g.in_game(5)


def test_104_4h_809_5c_a_team_draws_when_its_emperor_draws() -> None:
    g = (emperor_scene(9).battlefield(7, "Divine Intervention", counters={"intervention": 1})
         .at("end", 6).start())
    g.until("upkeep", 7).resolve()
    g.resolve()
    # Emperor 7 has range 2 (CR 809.3a): 5, 6, 8 and 0 draw with it, and its generals 6 and 8
    # draw because their emperor did.
    for pid in (5, 6, 7, 8, 0):
        assert g.outcome(pid) is not None and g.outcome(pid)[0] == "drew"  # type: ignore[index]
    assert g.outcome(6) == ("drew", "range_draw")
    assert not g.table.finished


def test_104_4i_all_players_may_agree_to_a_draw() -> None:
    g = Scene(3).start()
    t = g.table
    t.draw_offer(0, "propose")
    with pytest.raises(Refusal) as err:
        t.draw_offer(1, "propose")
    assert err.value.code is Code.DRAW_OFFER
    t.draw_offer(1, "accept")
    assert not t.finished
    t.draw_offer(2, "accept")
    assert t.result is not None and t.result.draw
    assert g.outcome(2) == ("drew", "agreement") and g.rule_of(2) == "104.4i"


def test_104_4i_a_draw_offer_ends_on_decline_withdrawal_or_any_change() -> None:
    g = Scene(3).start()
    t = g.table
    t.draw_offer(0, "propose")
    t.draw_offer(1, "decline")
    assert g.game.draw_offer is None
    t.draw_offer(1, "propose")
    with pytest.raises(Refusal):
        t.draw_offer(0, "withdraw")  # only the proposer can withdraw
    t.draw_offer(1, "withdraw")
    assert g.game.draw_offer is None
    t.draw_offer(2, "propose")
    t.draw_offer(0, "accept")
    g.pass_()  # the game state changes: the proposal lapses
    assert g.game.draw_offer is None
    with pytest.raises(Refusal):
        t.draw_offer(1, "accept")
    assert not t.finished


def test_104_5_a_player_who_loses_or_draws_leaves_the_game() -> None:
    g = (Scene(4, range_of_influence=1).battlefield(1, "Hill Giant")
         .battlefield(2, "Divine Intervention", counters={"intervention": 1})
         .battlefield(3, "Serra Angel").at("end", 1).start())
    g.until("upkeep", 2).resolve()
    g.resolve()
    # Range 1 around seat 2 covers 1 and 3: they drew and left, taking their cards.
    assert not g.in_game(1) and not g.in_game(3)
    assert g.objs("Hill Giant") == [] and g.objs("Serra Angel") == []
    assert g.game.departed_cards[1] and g.game.departed_cards[3]
    assert g.table.result is not None  # only player 0 remains: they win (104.2a)
    assert g.outcome(0) == ("won", "opponents_left")


def test_104_6_karn_restarts_the_game_for_everyone_still_in_it() -> None:
    g = (Scene(3).battlefield(0, "Karn Liberated", counters={"loyalty": 14}).start())
    g.concede(2)
    first = g.table.main.number
    g.activate(0, "Karn Liberated", "\u221214").resolve()
    assert g.table.main.number != first
    assert g.table.history[-1].restarted and not g.table.history[-1].winners
    # Everyone still in the game is in the new one; the player who left stays out.
    assert g.table.main.seats == [0, 1] and g.table.main.players_in_game() == [0, 1]
    assert "game_restarted" in g.kinds()


def _results_have_log_lines(g: G) -> None:
    lines = [e.text for e in g.events if e.kind in ("player_left", "game_over")]
    assert lines and all("CR 104" in line or line.startswith("Winner") or "draw" in line
                         for line in lines)


def test_results_are_typed_with_reason_and_rule_and_logged() -> None:
    g = Scene(3).battlefield(0, "Mountain").hand(0, "Lightning Bolt").life(1, 3).start()
    g.cast(0, "Lightning Bolt", 1).resolve()
    g.concede(2)
    result = g.table.result
    assert result is not None
    wire = result.to_wire()
    assert wire["winners"] == [0] and not wire["draw"] and not wire["restarted"]
    reasons = {o["player"]: (o["outcome"], o["reason"], o["rule"]) for o in wire["outcomes"]}
    assert reasons == {0: ("won", "opponents_left", "104.2a"), 1: ("lost", "life", "104.3b"),
                       2: ("lost", "concession", "104.3a")}
    _results_have_log_lines(g)
