"""The Winning, Losing, Drawn games, Preventing and Reacting sections of the card pool."""

from __future__ import annotations

from arbiter.server.rules.cards.pool import SECTIONS

from .helpers import Scene

# --------------------------------------------------------------------------- winning


def test_laboratory_maniac_wins_instead_of_drawing_from_an_empty_library() -> None:
    g = (Scene().library(0, "Island").battlefield(0, "Laboratory Maniac", "Island", "Island",
                                                  "Island").hand(0, "Divination").start())
    g.cast(0, "Divination").resolve()
    assert g.outcome(0) == ("won", "effect_win")


def test_laboratory_maniac_does_nothing_while_cards_remain() -> None:
    g = (Scene().library(0, "Island", "Island", "Forest")
         .battlefield(0, "Laboratory Maniac", "Island", "Island", "Island")
         .hand(0, "Divination").start())
    g.cast(0, "Divination").resolve()
    assert not g.table.finished and g.zone_names("library", 0) == ["Forest"]


def test_approach_of_the_second_sun_first_cast_goes_seventh_from_the_top() -> None:
    g = (Scene().library(0, *[f"{n}" for n in ["Forest"] * 10])
         .battlefield(0, *["Plains"] * 7).hand(0, "Approach of the Second Sun").start())
    g.cast(0, "Approach of the Second Sun").resolve()
    library = g.zone_names("library", 0)
    assert library[-7] == "Approach of the Second Sun" and len(library) == 11
    assert g.life(0) == 27 and not g.table.finished


def test_approach_of_the_second_sun_wins_the_second_time() -> None:
    g = (Scene().library(0, *["Forest"] * 6).battlefield(0, *["Plains"] * 7)
         .hand(0, "Approach of the Second Sun").start())
    g.cast(0, "Approach of the Second Sun").resolve()
    # With six cards above it, it is the seventh card down: the next seven draws find it.
    for _ in range(7):
        g.next_turn(0)
    assert "Approach of the Second Sun" in g.zone_names("hand", 0)
    g.cast(0, "Approach of the Second Sun").resolve()
    assert g.outcome(0) == ("won", "effect_win")


def test_felidar_sovereign_wins_at_forty_life_not_below() -> None:
    g = Scene().battlefield(0, "Felidar Sovereign").life(0, 39).at("end", 1).start()
    g.until("upkeep", 0)
    assert g.game.stack == []  # intervening "if": it didn't trigger at 39
    g2 = Scene().battlefield(0, "Felidar Sovereign").life(0, 40).at("end", 1).start()
    g2.until("upkeep", 0).resolve()
    assert g2.outcome(0) == ("won", "effect_win")


def test_felidar_sovereign_checks_the_life_total_again_on_resolution() -> None:
    g = (Scene().battlefield(0, "Felidar Sovereign").life(0, 40).battlefield(1, "Mountain")
         .hand(1, "Lightning Bolt").at("end", 1).start())
    g.until("upkeep", 0)
    g.pass_()
    g.cast(1, "Lightning Bolt", 0).resolve()
    assert g.life(0) == 37
    g.resolve()
    assert not g.table.finished


def test_test_of_endurance_wins_at_fifty() -> None:
    g = Scene().battlefield(0, "Test of Endurance").life(0, 49).at("end", 1).start()
    g.until("upkeep", 0)
    assert g.game.stack == []
    g2 = Scene().battlefield(0, "Test of Endurance").life(0, 50).at("end", 1).start()
    g2.until("upkeep", 0).resolve()
    assert g2.outcome(0) == ("won", "effect_win")


def test_celestial_convergence_counts_down_then_the_highest_life_wins() -> None:
    g = (Scene().battlefield(0, *["Plains"] * 4).hand(0, "Celestial Convergence")
         .life(1, 25).start())
    g.cast(0, "Celestial Convergence").resolve()
    assert g.obj("Celestial Convergence").counters == {"omen": 7}
    for n in range(6, -1, -1):
        g.next_turn(0, "upkeep").resolve()
        if n:
            assert g.obj("Celestial Convergence").counters == {"omen": n}
    assert g.outcome(1) == ("won", "effect_win") and g.outcome(0) == ("lost", "opponent_won")


def test_celestial_convergence_tie_for_highest_is_a_draw() -> None:
    g = (Scene().battlefield(0, "Celestial Convergence", counters={"omen": 1}).at("end", 1)
         .start())
    g.until("upkeep", 0).resolve()
    assert g.table.result is not None and g.table.result.draw


# --------------------------------------------------------------------------- losing


def test_door_to_nothingness_makes_its_target_lose() -> None:
    colours = ["Plains", "Island", "Swamp", "Mountain", "Forest"] * 2
    g = Scene(3).battlefield(0, "Door to Nothingness", *colours).start()
    g.activate(0, "Door to Nothingness", target=2).resolve()
    assert g.outcome(2) == ("lost", "effect_loss") and not g.table.finished


def test_phage_loses_its_controller_the_game_unless_cast_from_hand() -> None:
    g = (Scene().battlefield(0, *["Swamp"] * 7).hand(0, "Phage the Untouchable").start())
    g.cast(0, "Phage the Untouchable").resolve()
    assert g.in_game(0) and g.game.stack == []  # cast from hand: no trigger
    g2 = (Scene().battlefield(0, *["Island"] * 5).hand(0, "Bribery")
          .library(1, "Phage the Untouchable").start())
    g2.cast(0, "Bribery", 1).resolve().choose("choose_card", "Phage")
    g2.resolve()  # "if you didn't cast it from your hand, you lose the game"
    assert g2.outcome(0) == ("lost", "effect_loss")


def test_phage_destroys_creatures_it_damages_in_combat() -> None:
    # Felidar Sovereign (4/6) survives Phage's 4 damage, but Phage's trigger destroys it.
    g = (Scene().battlefield(0, "Phage the Untouchable").battlefield(1, "Felidar Sovereign")
         .at("begin_combat").start())
    g.pass_(2).attack(("Phage the Untouchable", 1)).pass_(2)
    g.block(1, ("Felidar Sovereign", "Phage the Untouchable")).until("combat_damage")
    assert g.obj("Felidar Sovereign").damage == 4
    g.resolve()
    assert g.zone_names("graveyard", 1) == ["Felidar Sovereign"]
    assert g.in_game(1)


# --------------------------------------------------------------------------- drawn


def test_divine_intervention_draws_the_game_after_two_upkeeps() -> None:
    g = (Scene().battlefield(0, *["Plains"] * 8).hand(0, "Divine Intervention").start())
    g.cast(0, "Divine Intervention").resolve()
    assert g.obj("Divine Intervention").counters == {"intervention": 2}
    g.next_turn(0, "upkeep").resolve()
    assert g.obj("Divine Intervention").counters == {"intervention": 1}
    g.next_turn(0, "upkeep").resolve()
    g.resolve()
    assert g.table.result is not None and g.table.result.draw


# --------------------------------------------------------------------------- preventing


def test_platinum_angel_stops_losing_and_opponents_winning() -> None:
    g = (Scene().battlefield(0, "Platinum Angel").battlefield(1, "Mountain")
         .hand(1, "Lightning Bolt").life(0, 2).at("main1", 1).start())
    g.cast(1, "Lightning Bolt", 0).resolve()
    assert g.life(0) == -1 and g.in_game(0)
    g2 = (Scene().battlefield(0, "Platinum Angel").battlefield(1, "Test of Endurance")
          .life(1, 50).at("end", 0).start())
    g2.until("upkeep", 1).resolve()
    assert not g2.table.finished and "B can't win the game." in g2.log


def test_when_platinum_angel_leaves_the_loss_happens() -> None:
    g = (Scene().battlefield(0, "Platinum Angel").life(0, -3)
         .battlefield(1, "Mountain", "Mountain").hand(1, "Lightning Bolt", "Lightning Bolt")
         .at("main1", 1).start())
    assert g.in_game(0)
    g.cast(1, "Lightning Bolt", "Platinum Angel").resolve()
    assert g.in_game(0)  # 3 damage doesn't kill the 4/4 Angel
    g.cast(1, "Lightning Bolt", "Platinum Angel").resolve()
    assert g.outcome(0) == ("lost", "life")


def test_platinum_angel_does_not_stop_a_concession() -> None:
    g = Scene().battlefield(0, "Platinum Angel").start()
    g.concede(0)
    assert g.outcome(0) == ("lost", "concession")


def test_abyssal_persecutor_stops_its_controller_winning() -> None:
    g = (Scene().battlefield(0, "Abyssal Persecutor", "Mountain").hand(0, "Lightning Bolt")
         .life(1, 2).start())
    g.cast(0, "Lightning Bolt", 1).resolve()
    assert g.life(1) == -1 and g.in_game(1)  # opponents can't lose
    g2 = (Scene().battlefield(0, "Abyssal Persecutor", "Test of Endurance").life(0, 50)
          .at("end", 1).start())
    g2.until("upkeep", 0).resolve()
    assert not g2.table.finished  # and you can't win


# --------------------------------------------------------------------------- reacting


def test_blood_tyrant_drains_each_player_and_grows() -> None:
    g = Scene(3).battlefield(0, "Blood Tyrant").at("end", 2).start()
    g.until("upkeep", 0).resolve()
    assert [g.life(p) for p in range(3)] == [19, 19, 19]
    assert g.obj("Blood Tyrant").counters == {"+1/+1": 3}


def test_blood_tyrant_grows_when_a_player_loses() -> None:
    g = Scene(3).battlefield(0, "Blood Tyrant").start()
    g.concede(2)
    g.resolve()
    assert g.obj("Blood Tyrant").counters == {"+1/+1": 5}
    assert g.view(1)[g.obj("Blood Tyrant").oid]["pt"] == [10, 10]


def test_every_card_in_these_sections_is_covered_above() -> None:
    names = {c.name for s in ("Winning the game", "Losing the game", "Drawn games",
                              "Preventing the end", "Reacting to the end") for c in SECTIONS[s]}
    assert names == {"Laboratory Maniac", "Approach of the Second Sun", "Felidar Sovereign",
                     "Test of Endurance", "Celestial Convergence", "Door to Nothingness",
                     "Phage the Untouchable", "Divine Intervention", "Platinum Angel",
                     "Abyssal Persecutor", "Blood Tyrant"}
