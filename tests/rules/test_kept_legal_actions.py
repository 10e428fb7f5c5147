"""What the engine keeps between decisions while nothing changes (casting.priority_actions,
sba.check, Game.settle_chars, keyed by ``Game.dirty.changes``) must give exactly what it
would compute afresh: the legal actions at priority (CR 117.1), the state-based check (CR
704.3) and the layered characteristics the views are told about."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import GameConfig, PlayerConfig, Table, sba
from arbiter.server.rules.cards.decks import READY_MADE, ready_made
from arbiter.server.rules.casting import _priority_actions
from arbiter.server.rules.state import DirtyKeys

from .helpers import Scene
from .random_play import random_play

M10 = sorted(d for d in READY_MADE if d.startswith("m10-"))


def test_dirty_keys_count_changes_but_not_who_decides_nor_the_step() -> None:
    keys = DirtyKeys()
    keys.add("w")
    keys.add("t")
    keys.add("d")
    assert keys.changes == 0 and keys == {"w", "t", "d"}
    keys.add(12)
    keys.add(("p", 1))
    assert keys.changes == 2
    keys.clear()  # the views' consumers clear the keys, never the count
    assert keys.changes == 2


def test_a_mana_pool_change_is_counted_for_its_player_alone() -> None:
    keys = DirtyKeys()
    keys.add_pool(1)
    assert keys == {("p", 1)}  # the view still hears of it
    assert keys.changes == 0 and keys.pools == {1: 1}


def test_307_1_a_kept_list_follows_sorcery_timing_from_main_phase_to_combat() -> None:
    # Nothing changes between the two decisions but the step: the list kept from the main
    # phase must not offer the sorcery at the beginning of combat.
    g = Scene().battlefield(0, *["Mountain"] * 5).hand(0, "Lava Axe").at("main1").start()
    assert g.find("cast", "Lava Axe") is not None
    g.pass_(2)
    assert g.game.step == "begin_combat" and g.decision.player == 0
    assert g.find("cast", "Lava Axe") is None


def test_500_4_the_mana_pool_emptying_drops_its_players_kept_list() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Forest").at("upkeep").start())
    g.choose("mana", "Tap Mountain")
    assert g.find("cast", "Lightning Bolt") is not None  # paid from the pool
    g.pass_(2)  # the step ends: the pool empties, the Mountain stays tapped
    assert g.game.step == "draw" and g.game.players[0].mana == {}
    assert g.decision.player == 0 and g.find("cast", "Lightning Bolt") is None


def _check_kept(table: Table) -> None:
    """After each command: the pending priority list is what a fresh computation gives; a
    state-based check the engine would skip finds nothing and changes nothing; a settle of
    the characteristics it would skip marks nothing."""
    game = table.top
    d = table.pending
    if d is not None and d.kind == "priority" and game.melee is None:
        assert d.actions == _priority_actions(game, d.player)
    if game.sba_idle_at == game.dirty.changes:
        before, at = table.state_hash(), game.dirty.changes
        game.sba_idle_at = -1
        flow = sba.check(game)
        try:
            next(flow)
            raise AssertionError("a skipped state-based check asked a question")
        except StopIteration as done:
            assert done.value is False
        assert game.sba_idle_at == game.dirty.changes == at
        assert table.state_hash() == before
    if game.chars_settled_at == game.dirty.changes:
        at = game.dirty.changes
        game._settle_chars()
        assert game.dirty.changes == at


@settings(max_examples=4, deadline=None)
@given(st.sampled_from([2, 4]), st.lists(st.sampled_from(M10), min_size=4, max_size=4),
       st.integers(0, 2**32 - 1), st.integers(0, 2**16))
def test_what_is_kept_equals_what_would_be_computed_in_random_m10_games(
        players: int, decks: list[str], seed: int, bot_seed: int) -> None:
    config = GameConfig(
        players=tuple(PlayerConfig(f"P{i}", ready_made(d).main, ready_made(d).sideboard)
                      for i, d in enumerate(decks[:players])),
        variant="two_player" if players == 2 else "free_for_all")
    checked: list[Table] = []

    def check(table: Table) -> None:
        _check_kept(table)
        checked.append(table)

    random_play(config, seed, bot_seed, concede_rate=0.002, check=check)
    assert checked
