"""Hypothesis properties of whole games played by random bots (the invariants of
docs/architecture.md: determinism, convergence, conservation): games end (or reach the action
limit) without error, replaying the same commands gives the same state hash, no card is
created, lost or duplicated, and every viewer's incrementally kept view equals a fresh snapshot
after every action."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import READY_MADE, ready_made

from .random_play import (
    ACTION_LIMIT,
    ViewMirror,
    assert_conserved,
    cards_dealt,
    random_play,
    replay,
)

CONSTRUCTED = sorted(d for d in READY_MADE if "commander" not in d)


def _config(players: int, decks: list[str]) -> GameConfig:
    return GameConfig(
        players=tuple(PlayerConfig(f"P{i}", ready_made(d).main, ready_made(d).sideboard)
                      for i, d in enumerate(decks[:players])),
        variant="two_player" if players == 2 else "free_for_all")


games = st.tuples(st.sampled_from([2, 4]), st.lists(st.sampled_from(CONSTRUCTED), min_size=4,
                                                    max_size=4),
                  st.integers(0, 2**32 - 1), st.integers(0, 2**16))


@settings(max_examples=12)
@given(games)
def test_random_games_end_or_hit_the_limit_and_conserve_cards(case: tuple[Any, ...]) -> None:
    players, decks, seed, bot_seed = case
    config = _config(players, decks)
    dealt = cards_dealt(config)
    table, log = random_play(config, seed, bot_seed, concede_rate=0.002,
                             check=lambda t: assert_conserved(t, dealt))
    assert table.finished or len(log) == ACTION_LIMIT
    if table.finished:
        assert table.result is not None
        assert {o.player for o in table.result.outcomes} == set(range(players))


@settings(max_examples=8)
@given(games)
def test_replaying_the_same_commands_gives_the_same_state_hash(case: tuple[Any, ...]) -> None:
    players, decks, seed, bot_seed = case
    config = _config(players, decks)
    table, log = random_play(config, seed, bot_seed, concede_rate=0.002)
    assert replay(config, seed, log).state_hash() == table.state_hash()
    other = Table(config, seed + 1)
    assert other.state_hash() != Table(config, seed).state_hash()


@settings(max_examples=6)
@given(games)
def test_incremental_views_equal_fresh_snapshots(case: tuple[Any, ...]) -> None:
    players, decks, seed, bot_seed = case
    config = _config(players, decks)
    mirror = ViewMirror(players)
    random_play(config, seed, bot_seed, concede_rate=0.002, check=mirror)
    assert mirror.compared
