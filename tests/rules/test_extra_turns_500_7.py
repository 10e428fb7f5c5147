"""Extra turns (CR 500.7) with Time Warp ("Target player takes an extra turn after this
one."): an extra turn comes directly after the turn it was added after, several are taken most
recent first, and the normal turn order then goes on from that turn. In multiplayer games: a
player who has left doesn't begin their extra turn (CR 800.4k), a concession during an extra
turn ends only that player's game, and a restart (CR 724) throws pending extra turns away
(docs/rulings.md). Grand Melee's turn markers (CR 807.4i-j) are in test_melee_807.py."""

from __future__ import annotations

from arbiter.protocol.view_keys import extra_turns
from arbiter.server.rules.view import SPECTATOR

from .helpers import G, Scene, giant_scene
from .test_melee_807 import holder, until

WARP_LANDS = ("Island", "Island", "Island", "Island", "Island")


def _turns(g: G, count: int) -> list[int]:
    """Who takes each of the next ``count`` turns (passing through them)."""
    out = []
    for _ in range(count):
        start = g.game.turn
        while g.game.turn == start and not g.table.finished:
            g.step_on()
        out.append(g.game.active)
    return out


def _warp(g: G, pid: int, target: int) -> G:
    g.choose("cast", "Cast Time Warp", player=pid).target(target)
    return g.resolve()


def test_500_7_the_target_player_takes_an_extra_turn_after_this_one() -> None:
    g = Scene().battlefield(0, *WARP_LANDS).hand(0, "Time Warp").start()
    _warp(g, 0, 0)
    assert g.game.extra_turns == [0]
    assert _turns(g, 3) == [0, 1, 0]
    assert g.game.extra_turns == []


def test_500_7_an_opponent_given_an_extra_turn_takes_two_in_a_row() -> None:
    g = Scene().battlefield(0, *WARP_LANDS).hand(0, "Time Warp").start()
    _warp(g, 0, 1)
    assert _turns(g, 3) == [1, 1, 0]


def test_500_7_the_normal_order_goes_on_from_the_turn_they_were_added_after() -> None:
    g = Scene(4).battlefield(0, *WARP_LANDS).hand(0, "Time Warp").start()
    _warp(g, 0, 2)
    assert _turns(g, 4) == [2, 1, 2, 3]


def test_500_7_several_extra_turns_are_taken_most_recent_first() -> None:
    g = (Scene(3).battlefield(0, *WARP_LANDS, *WARP_LANDS).hand(0, "Time Warp", "Time Warp")
         .start())
    _warp(g, 0, 1)
    _warp(g, 0, 2)
    assert g.game.extra_turns == [1, 2]
    assert _turns(g, 4) == [2, 1, 1, 2]


def test_500_7_an_extra_turn_taken_in_an_extra_turn_comes_next() -> None:
    g = (Scene(3).battlefield(0, *WARP_LANDS).battlefield(2, *WARP_LANDS)
         .hand(0, "Time Warp").hand(2, "Time Warp").start())
    _warp(g, 0, 2)
    assert _turns(g, 1) == [2]
    g.until("main1", 2)
    _warp(g, 2, 2)
    assert _turns(g, 3) == [2, 1, 2]


def test_800_4k_the_extra_turn_of_a_player_who_left_doesnt_begin() -> None:
    g = Scene(3).battlefield(0, *WARP_LANDS).hand(0, "Time Warp").start()
    _warp(g, 0, 2)
    g.concede(2)
    assert _turns(g, 2) == [1, 0]
    assert any("doesn't begin" in line for line in g.log)


def test_104_3a_a_concession_during_an_extra_turn() -> None:
    g = Scene(3).battlefield(0, *WARP_LANDS).hand(0, "Time Warp").start()
    _warp(g, 0, 0)
    assert _turns(g, 1) == [0]
    g.until("main1", 0)
    g.concede(0)  # CR 800.4a: the turn goes on without an active player
    assert not g.in_game(0) and g.outcome(0) == ("lost", "concession")
    assert _turns(g, 2) == [1, 2]


def test_724_a_restart_throws_pending_extra_turns_away() -> None:
    g = (Scene().battlefield(0, *WARP_LANDS).hand(0, "Time Warp", "Second Beginning")
         .start())
    _warp(g, 0, 1)
    g.cast(0, "Second Beginning").resolve()
    new = g.main
    assert new.extra_turns == []
    g.keep_hands()
    # CR 724.1a: the restarter starts the new game; turns then alternate as usual.
    assert new.active == 0
    assert _turns(g, 2) == [1, 0]


def test_805_8_with_shared_team_turns_the_players_team_takes_the_extra_turn() -> None:
    g = giant_scene().battlefield(0, *WARP_LANDS).hand(0, "Time Warp").start()
    _warp(g, 0, 1)  # player 1's team (0 and 1) takes it: its turn holder is player 0
    assert _turns(g, 3) == [0, 2, 0]


# --------------------------------------------------------------------------- Grand Melee (807)


def _melee_turns_of(g: G, name: str) -> list[str]:
    return [line for line in g.log if line.startswith("Turn ") and line.endswith(f": {name}.")]


def test_807_4i_a_player_with_a_turn_marker_keeps_it_for_the_extra_turn() -> None:
    g = (Scene(10, variant="grand_melee").battlefield(0, *WARP_LANDS).hand(0, "Time Warp")
         .start())
    g.until_asked(0, 1)
    _warp(g, 0, 0)
    assert g.game.extra_turns == [0]
    until(g, lambda: holder(g, 1) != 0, max_actions=5000)
    # No marker within three seats on A's right (marker 2 is with E, seat 4): A kept marker 1
    # and took the extra turn with it before passing it on.
    assert len(_melee_turns_of(g, "A")) == 2 and holder(g, 1) == 1
    assert g.game.extra_turns == []


def test_807_4i_with_a_marker_close_on_the_right_the_extra_turn_waits_for_the_next() -> None:
    g = (Scene(9, variant="grand_melee").battlefield(4, *WARP_LANDS, "Mountain")
         .hand(4, "Time Warp", "Lightning Bolt").start())
    g.until_asked(4, 2)
    _warp(g, 4, 4)
    # E's Bolt keeps E's end step going until A's turn is over and B holds marker 1 (seat 1,
    # within three seats on E's right).
    until(g, lambda: (g.decision.player, g.decision.stack, g.game.step, g.decision.kind)
          == (4, 2, "end", "priority"))
    g.cast(4, "Lightning Bolt", 5)
    until(g, lambda: holder(g, 1) == 1)
    until(g, lambda: holder(g, 2) != 4)
    assert holder(g, 2) == 5 and g.game.extra_turns == [4]  # passed on; the turn waits
    # CR 807.4i, 807.4j: E takes it immediately before their next turn, with the marker that
    # reaches them, and then their normal turn.
    until(g, lambda: 4 not in g.game.extra_turns, max_actions=20000)
    number = next(m.number for m in g.game.melee.markers if m.holder == 4)
    until(g, lambda: holder(g, number) != 4, max_actions=20000)
    assert len(_melee_turns_of(g, "E")) == 3  # the first, the extra, the normal one


def test_805_8_the_team_takes_the_extra_turn_of_a_member_who_has_left() -> None:
    # Team vs. Team with shared team turns: players 0-1 against 2-3, and a member of a team
    # leaves without the team losing (unlike Two-Headed Giant, CR 810.8a).
    scene = Scene(4, variant="team_vs_team", shared_team_turns=True)
    for pid in range(4):
        scene.team(pid, pid // 2)
    g = scene.battlefield(0, *WARP_LANDS).hand(0, "Time Warp").start()
    _warp(g, 0, 0)
    g.concede(0)  # player 1 plays on for the team, and holds its turns
    assert _turns(g, 3) == [1, 2, 1]


def test_500_7_every_viewer_sees_who_takes_the_pending_extra_turns_next_first() -> None:
    g = (Scene(3).battlefield(0, *WARP_LANDS, *WARP_LANDS).hand(0, "Time Warp", "Time Warp")
         .start())
    assert len(g.view(2)["t"]) == 4  # none pending: the entry is as before
    _warp(g, 0, 1)
    _warp(g, 0, 2)
    assert extra_turns(g.view(1)) == [2, 1] and extra_turns(g.view(SPECTATOR)) == [2, 1]
    assert _turns(g, 1) == [2]
    assert extra_turns(g.view(0)) == [1]
    assert _turns(g, 1) == [1]
    assert extra_turns(g.view(0)) == []
