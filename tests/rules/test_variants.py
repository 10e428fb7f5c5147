"""Multiplayer variants and options: deploy creatures (CR 804), Team vs. Team (CR 808),
Emperor (CR 809) and Commander (CR 903)."""

from __future__ import annotations

from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made

from .helpers import G, Scene, emperor_scene


def test_804_2_deploy_creatures_gives_a_creature_to_a_teammate() -> None:
    g = emperor_scene().battlefield(0, "Hill Giant").start()
    g.choose("activate", "deploy", player=0)
    assert {a.ref for a in g.options()} == {("p", 1)}  # teammates in range only (2 is too far)
    g.target(1).resolve()
    giant = g.obj("Hill Giant")
    assert giant.controller == 1 and giant.tapped
    assert g.find("activate", "deploy") is None  # sorcery speed, and it is tapped now


def test_808_1_team_vs_team_allows_any_number_of_teams_and_players() -> None:
    s = Scene(5, variant="team_vs_team")
    for pid, team in enumerate([0, 0, 0, 1, 2]):
        s.team(pid, team)
    g = s.start()
    assert not g.game.are_opponents(0, 2) and g.game.are_opponents(2, 3)
    g.concede(3)
    assert not g.table.finished
    g.concede(4)
    assert g.table.result is not None and g.table.result.winners == (0, 1, 2)


def test_808_4_a_random_teams_centre_player_goes_first() -> None:
    deck = ready_made("quick-red").main
    starters = set()
    for seed in range(12):
        players = tuple(PlayerConfig(f"P{i}", deck, team=i // 3) for i in range(6))
        t = Table(GameConfig(players=players, variant="team_vs_team"), seed)
        starters.add(t.main.starting_player)
    assert starters == {1, 4}


def test_809_3a_emperors_have_range_two_and_generals_range_one() -> None:
    g = emperor_scene(6).start()
    assert g.game.ranges[1] == frozenset({5, 0, 1, 2, 3})
    assert g.game.ranges[0] == frozenset({5, 0, 1})


def test_809_3c_only_adjacent_opponents_may_be_attacked() -> None:
    g = (emperor_scene(6).battlefield(1, "Hill Giant").battlefield(2, "Hill Giant")
         .at("begin_combat", 1).start())
    g.until("declare_attackers", 1)
    # The emperor's neighbours are its generals: no opponent is next to it.
    assert g.decision.kind == "priority"
    g.next_turn(2, "declare_attackers")
    assert {a.ref for a in g.options() if a.kind == "attack"} == {("p", 3)}


def test_809_4_a_random_emperor_goes_first() -> None:
    deck = ready_made("quick-red").main
    starters = set()
    for seed in range(12):
        players = tuple(PlayerConfig(f"P{i}", deck, team=i // 3, emperor=i % 3 == 1)
                        for i in range(6))
        t = Table(GameConfig(players=players, variant="emperor"), seed)
        starters.add(t.main.starting_player)
    assert starters == {1, 4}


def test_903_6_commanders_start_in_the_command_zone() -> None:
    deck = ready_made("isamaru-commander")
    players = tuple(PlayerConfig(f"P{i}", deck.main, commander=deck.commander)
                    for i in range(3))
    t = Table(GameConfig(players=players, variant="commander"), 5)
    assert sorted(o.owner for o in t.main.command) == [0, 1, 2]
    assert all(o.name == "Isamaru, Hound of Konda" and o.is_commander for o in t.main.command)


def test_903_8_commander_tax_is_two_more_per_earlier_cast() -> None:
    g = (Scene(variant="commander").commander(0, "Isamaru, Hound of Konda")
         .commander(1, "Phage the Untouchable").battlefield(0, *["Plains"] * 6)
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())

    def plains_tapped() -> int:
        return sum(o.tapped for o in g.game.battlefield if o.name == "Plains")

    g.cast(0, "Isamaru, Hound of Konda").resolve()
    assert plains_tapped() == 1
    g.next_turn(1)
    g.cast(1, "Lightning Bolt", "Isamaru, Hound of Konda").resolve()
    g.choose("yes")  # back to the command zone (903.9a)
    g.next_turn(0)
    g.cast(0, "Isamaru, Hound of Konda").resolve()
    assert plains_tapped() == 3  # {W} plus {2} for the one earlier cast


def _bolted_commander() -> G:
    """Player 1 Bolts player 0's commander, Isamaru, on the battlefield."""
    g = (Scene(variant="commander").commander(0, "Isamaru, Hound of Konda", zone="battlefield")
         .commander(1, "Phage the Untouchable").battlefield(1, "Mountain")
         .hand(1, "Lightning Bolt").at("main1", 1).start())
    g.cast(1, "Lightning Bolt", "Isamaru, Hound of Konda").resolve()
    return g


def test_903_9a_a_commander_in_the_graveyard_may_go_to_the_command_zone() -> None:
    g = _bolted_commander()
    assert (g.decision.kind, g.decision.player) == ("commander_zone", 0)
    g.choose("yes")
    assert [o.name for o in g.game.command if o.owner == 0] == ["Isamaru, Hound of Konda"]
    # The owner may also leave it where it is.
    g = _bolted_commander()
    g.choose("no")
    assert g.zone_names("graveyard", 0) == ["Isamaru, Hound of Konda"]


def test_903_9b_a_commander_bounced_to_hand_may_go_to_the_command_zone() -> None:
    g = (Scene(variant="commander").commander(0, "Isamaru, Hound of Konda", zone="battlefield")
         .commander(1, "Phage the Untouchable").battlefield(1, "Island")
         .hand(1, "Unsummon").at("main1", 1).start())
    g.cast(1, "Unsummon", "Isamaru, Hound of Konda").resolve()
    assert (g.decision.kind, g.decision.player) == ("commander_zone", 0)
    g.choose("yes")
    assert g.zone_names("hand", 0) == []
    assert [o.name for o in g.game.command if o.owner == 0] == ["Isamaru, Hound of Konda"]


def test_903_11_wishing_in_commander_respects_names_and_colour_identity() -> None:
    g = (Scene(variant="commander").commander(0, "Isamaru, Hound of Konda")
         .commander(1, "Phage the Untouchable").battlefield(0, "Forest", "Wastes")
         .hand(0, "Living Wish").sideboard(0, "Serra Angel", "Grizzly Bears", "Wastes")
         .start())
    g.cast(0, "Living Wish").resolve()
    labels = g.labels()
    # Grizzly Bears is green, outside Isamaru's white identity; the player already owns cards
    # named Wastes in this game. Serra Angel is white: allowed.
    assert labels == ["Take nothing", "Put Serra Angel (sideboard) into your hand"]
    g.choose("choose_outside", "Serra Angel")
    assert g.zone_names("hand", 0) == ["Serra Angel"]
