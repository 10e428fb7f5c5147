"""The shared team turns option (CR 805): teams take turns and have priority, attack and block
as teams. Two-Headed Giant always uses it (CR 810.2); Team vs. Team games may choose it
(``shared_team_turns``), which the tests use for teams of other sizes and numbers."""

from __future__ import annotations

import pytest

from arbiter.protocol.errors import Refusal
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made

from .helpers import G, Scene, giant_scene

DECK = ready_made("quick-red").main


def _giant_config(**changes: object) -> GameConfig:
    players = tuple(PlayerConfig(f"P{i}", DECK, team=i // 2) for i in range(4))
    return GameConfig(players=players, variant="two_headed_giant", **changes)  # type: ignore


def _shared_turns(*teams: tuple[int, ...]) -> Scene:
    """Team vs. Team with the shared team turns option, teams seated as listed."""
    s = Scene(sum(len(t) for t in teams), variant="team_vs_team", shared_team_turns=True)
    for team, members in enumerate(teams):
        for pid in members:
            s.team(pid, team)
    return s


def _deciders(g: G, kind: str, count: int) -> list[int]:
    """Who is asked the next ``count`` decisions, each answered with its first action."""
    out = []
    for _ in range(count):
        d = g.decision
        assert d.kind == kind, (d.kind, d.player)
        out.append(d.player)
        g.choose(d.actions[0].kind)
    return out


# --------------------------------------------------------------------------- 805.1, 805.2


def test_805_1_the_option_needs_teams_sitting_together() -> None:
    with pytest.raises(Refusal, match=r"805\.1"):
        Table(_giant_config(seating=(0, 2, 1, 3)), 1)
    ffa = GameConfig(players=tuple(PlayerConfig(f"P{i}", DECK) for i in range(4)),
                     variant="free_for_all", shared_team_turns=True)
    with pytest.raises(Refusal, match=r"Team vs\. Team"):
        Table(ffa, 1)
    with pytest.raises(Refusal, match=r"805\.10"):
        Table(_giant_config(attack="left"), 1)
    with pytest.raises(Refusal, match="801"):
        Table(_giant_config(range_of_influence=1), 1)


def test_805_2_each_teams_primary_player_is_its_first_seat_in_turn_order() -> None:
    # Seating wraps around: the team {0, 3} sits 3 then 0, so 3 is its rightmost seat.
    players = tuple(PlayerConfig(f"P{i}", DECK, team=0 if i in (0, 3) else 1) for i in range(4))
    t = Table(GameConfig(players=players, variant="two_headed_giant", starting_player=0), 2)
    assert t.main.turn_mates[0] == (3, 0) and t.main.turn_mates[1] == (1, 2)
    assert t.main.starting_player == 3  # player 0's team starts; its primary holds the turn


# --------------------------------------------------------------------------- 805.3


def test_805_3_a_random_team_starts_and_its_primary_player_holds_the_turn() -> None:
    starters = {Table(_giant_config(), seed).main.starting_player for seed in range(12)}
    assert starters == {0, 2}
    t = Table(_giant_config(starting_player=3), 1)  # a configured player: their team starts
    assert (t.main.starting_player, t.main.active) == (2, 2)


def test_805_3_the_chooser_chooses_a_team() -> None:
    t = Table(_giant_config(chooser=1), 4)
    d = t.pending
    assert d is not None and (d.kind, d.player) == ("starting_player", 1)
    assert [a.label for a in d.actions] == ["P0 and P1 play first", "P2 and P3 play first"]
    t.act(1, d.serial, 1)
    assert t.main.starting_player == 2
    assert "P2 and P3 will play first." in t.main.log


def test_805_3a_the_starting_team_declares_mulligans_first_then_the_other_team() -> None:
    t = Table(_giant_config(starting_player=2), 3)
    g = G(t)
    assert _deciders(g, "mulligan", 1) == [2]  # 2 keeps
    d = g.decision
    assert (d.kind, d.player) == ("mulligan", 3)
    g.choose("mulligan")  # a player may mulligan after a teammate kept (CR 103.5d)
    assert _deciders(g, "mulligan", 2) == [0, 1]
    # All mulligans happen together once everyone has declared; 3's first is free (800.6).
    assert len(g.game.hand(3)) == 7 and g.game.players[3].mulligans == 1
    assert (g.decision.kind, g.decision.player) == ("mulligan", 3)  # only 3 declares again


# --------------------------------------------------------------------------- 805.4


def test_805_4a_every_player_on_the_active_team_is_active() -> None:
    g = (giant_scene().battlefield(0, "Island", "Island", "Island", "Mountain", tapped=True)
         .battlefield(1, "Island", "Island", "Island", tapped=True)
         .battlefield(2, "Island", "Island", "Island", tapped=True)
         .hand(0, "Divination").hand(1, "Divination").hand(2, "Divination")
         .at("end", 2).start())
    g.until("upkeep", 0)
    assert [o.tapped for o in g.game.battlefield] == [False] * 7 + [True] * 3  # 502.3
    g.until("main1", 0)
    assert g.game.is_active(0) and g.game.is_active(1) and not g.game.is_active(2)
    assert g.find("cast", "Divination", player=0) is not None
    g.pass_()
    assert g.find("cast", "Divination", player=1) is not None  # sorcery timing for both
    g.pass_()
    assert g.decision.player == 2 and g.find("cast", "Divination") is None


def test_805_4b_each_player_on_the_team_draws_in_its_draw_step() -> None:
    g = giant_scene().at("upkeep", 2).start()
    g.until("main1", 2)
    assert [len(g.game.hand(p)) for p in range(4)] == [0, 0, 1, 1]


def test_805_4c_each_player_on_the_team_may_play_a_land() -> None:
    g = giant_scene().hand(0, "Mountain", "Mountain").hand(1, "Forest").start()
    g.play_land(0, "Mountain")
    assert g.find("play_land", player=0) is None  # one land per player
    g.pass_()
    g.play_land(1, "Forest")
    assert g.zone_names("battlefield") == ["Mountain", "Forest"]


def test_805_4_teams_take_turns_with_three_teams_sharing_turns() -> None:
    g = _shared_turns((0, 1), (2, 3), (4, 5)).at("upkeep", 0).start()
    assert _deciders(g, "priority", 6) == [0, 1, 2, 3, 4, 5]  # then the step ends
    assert g.game.step == "draw"
    holders = []
    for _ in range(4):
        turn = g.game.turn
        while g.game.turn == turn:
            g.step_on()
        holders.append(g.game.active)
    assert holders == [2, 4, 0, 2]


def test_805_4a_a_team_goes_on_when_its_primary_player_leaves() -> None:
    # One player against a team of three (the shape of Archenemy, CR 904): the team's players
    # leave the game one by one, the team plays on.
    g = _shared_turns((0,), (1, 2, 3)).at("main1", 1).start()
    assert g.decision.player == 1
    g.concede(1)
    assert g.decision.player == 2 and g.game.is_active(2)  # the turn goes on (800.4j)
    g.next_turn(0)
    g.next_turn(2, "upkeep")
    assert g.game.active == 2 and g.game.is_active(3)
    assert _deciders(g, "priority", 3) == [2, 3, 0]


# --------------------------------------------------------------------------- 805.5


def test_805_5_the_team_has_priority_its_primary_player_first() -> None:
    g = (giant_scene().battlefield(1, "Mountain").hand(1, "Lightning Bolt").at("main1", 0)
         .start())
    assert g.decision.player == 0
    g.pass_()
    g.cast(1, "Lightning Bolt", 2)
    assert g.decision.player == 1  # who acted keeps the team's priority (117.3c)
    g.pass_()
    assert g.decision.player == 0  # 0 passed before 1 acted: the team hasn't passed yet
    assert _deciders(g, "priority", 3) == [0, 2, 3]
    assert g.life(2) == g.life(3) == 27 and not g.game.stack
    assert g.decision.player == 0  # after resolving, the active team receives priority


def test_805_5b_all_teams_pass_in_succession_to_resolve_or_end_the_step() -> None:
    g = (giant_scene().battlefield(3, "Mountain").hand(3, "Lightning Bolt").at("main1", 0)
         .start())
    assert _deciders(g, "priority", 3) == [0, 1, 2]
    g.cast(3, "Lightning Bolt", 0)
    # The other team's member acted: every team must pass again, 3's team first.
    assert _deciders(g, "priority", 2) == [3, 2]
    assert g.game.stack  # team 0 has not passed yet
    assert _deciders(g, "priority", 2) == [0, 1]
    assert g.life(0) == g.life(1) == 27
    assert _deciders(g, "priority", 4) == [0, 1, 2, 3]
    assert g.game.step == "begin_combat"  # an empty stack: the step ended


# --------------------------------------------------------------------------- 805.6, 805.7


def test_805_6_the_active_team_chooses_first_then_each_other_team() -> None:
    g = (giant_scene().battlefield(0, "Extractor Demon", "Mountain")
         .battlefield(2, "Extractor Demon").battlefield(3, "Grizzly Bears")
         .hand(0, "Lightning Bolt").start())
    g.cast(0, "Lightning Bolt", "Grizzly Bears").resolve()
    # Both Demons trigger as the Bears die: the active team puts its trigger on the stack
    # (choosing its target) first, then the other team, so the other's resolves first.
    assert (g.decision.kind, g.decision.player) == ("target", 0)
    g.target(3)
    assert (g.decision.kind, g.decision.player) == ("target", 2)
    g.target(1)
    assert [o.controller for o in g.game.stack] == [0, 2]


def test_805_7_a_team_orders_all_its_members_triggers_together() -> None:
    g = (giant_scene().battlefield(0, "Extractor Demon", "Mountain")
         .battlefield(1, "Extractor Demon").battlefield(3, "Grizzly Bears")
         .hand(0, "Lightning Bolt").start())
    g.cast(0, "Lightning Bolt", "Grizzly Bears").resolve()
    d = g.decision
    assert (d.kind, d.player) == ("order_triggers", 0)  # the primary player orders them
    assert len(d.actions) == 2 and "(B's)" in d.actions[1].label
    g.choose("trigger", "(B's)")
    assert (g.decision.kind, g.decision.player) == ("target", 1)  # its controller targets
    g.target(2).target(3)
    assert [(o.controller, o.targets) for o in g.game.stack] == [(1, [("p", 2)]),
                                                                 (0, [("p", 3)])]


# --------------------------------------------------------------------------- 805.10


def _combat() -> G:
    return (giant_scene().battlefield(0, "Hill Giant").battlefield(1, "Grizzly Bears")
            .battlefield(2, "Serra Angel").battlefield(3, "Runeclaw Bear")
            .at("begin_combat", 0).start().until("declare_attackers", 0))


def test_805_10a_the_active_team_attacks_the_other_team() -> None:
    g = _combat()
    d = g.decision
    assert (d.kind, d.player) == ("attackers", 0)
    assert {(a.obj, a.ref) for a in d.actions if a.kind == "attack"} == {
        (g.obj("Hill Giant").oid, ("p", 2)), (g.obj("Hill Giant").oid, ("p", 3))}
    g.choose("done")
    d = g.decision
    assert (d.kind, d.player) == ("attackers", 1)  # 1 is an attacking player too
    assert {a.ref for a in d.actions if a.kind == "attack"} == {("p", 2), ("p", 3)}


def test_805_10b_one_combined_attack_declared_when_the_last_player_is_done() -> None:
    g = _combat()
    assert g.find("done").label == "Done; B choose next"
    g.choose("attack", ref=("p", 3))
    # 0 has nothing left to assign, so 1 chooses next; the Giant is chosen, not declared.
    assert (g.decision.kind, g.decision.player) == ("attackers", 1)
    assert g.obj("Hill Giant").attacking is None
    g.choose("attack", ref=("p", 2), player=1)
    giant, bears = g.obj("Hill Giant"), g.obj("Grizzly Bears")
    assert (giant.attacking, bears.attacking) == (("p", 3), ("p", 2))
    assert giant.tapped and bears.tapped
    assert g.kinds().count("attack") == 2


def test_805_10d_the_defending_team_blocks_together() -> None:
    g = _combat()
    g.choose("attack", ref=("p", 3))
    g.choose("attack", ref=("p", 2), player=1)
    assert _deciders(g, "priority", 4) == [0, 1, 2, 3]
    d = g.decision
    assert (d.kind, d.player) == ("blockers", 2)
    assert g.find("done").label == "Done; D choose next"
    # Player 2 may block the Giant, which attacks their teammate 3.
    g.choose("block", "Block Hill Giant with Serra Angel", player=2)
    assert g.obj("Serra Angel").blocking is None  # one combined block, declared at the end
    g.choose("block", "Block Grizzly Bears with Runeclaw Bear", player=3)
    assert g.obj("Serra Angel").blocking == g.obj("Hill Giant").oid
    assert g.obj("Runeclaw Bear").blocking == g.obj("Grizzly Bears").oid
    g.until("end_combat")
    assert g.zone_names("graveyard", 0) == ["Hill Giant"]
    assert g.life(2) == 30
