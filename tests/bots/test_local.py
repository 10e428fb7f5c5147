"""The in-process games of ``arbiter demo`` and bench/engine.py (arbiter/server/local.py) settle
a stalled game with the bot core's stall watch, as the network and seat bots do."""

from __future__ import annotations

from arbiter.bots import heuristic_strategy
from arbiter.server.local import play_local

from ..rules.helpers import Scene, giant_scene


def test_104_4i_in_process_bots_agree_to_a_draw_too() -> None:
    # The in-process runner (arbiter demo) settles the same stalled game the same way, and
    # only after the given number of rounds.
    scene = Scene(2).battlefield(0, "Platinum Angel", "Abyssal Persecutor")
    for pid in (0, 1):
        scene.battlefield(pid, "Swamp").library(pid, "Swamp", "Swamp")
    config = scene.build_config()
    stuck, applied = play_local(config, 3, [heuristic_strategy] * 2, max_actions=3000)
    assert not stuck.finished and applied == 3000, "without an agreement it never ends"
    table, _ = play_local(config, 3, [heuristic_strategy] * 2, draw_after=5)
    assert table.finished and table.result is not None and table.result.draw
    assert {(o.outcome, o.rule) for o in table.result.outcomes} == {("drew", "104.4i")}
    assert table.main.turn >= 1 + 5 * 2


def test_104_4i_with_shared_team_turns_a_round_is_one_turn_per_team() -> None:
    # Two-Headed Giant teams take turns together (CR 805.4): five rounds are ten turns.
    scene = giant_scene().battlefield(0, "Platinum Angel", "Abyssal Persecutor")
    for pid in range(4):
        scene.battlefield(pid, "Swamp").library(pid, "Swamp")
    table, _ = play_local(scene.build_config(), 3, [heuristic_strategy] * 4, draw_after=5)
    assert table.finished and table.result is not None and table.result.draw
    assert table.main.turn == 1 + 5 * 2
