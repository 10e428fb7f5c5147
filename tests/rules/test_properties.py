"""Hypothesis properties of whole games played by random bots (the invariants of
docs/architecture.md: determinism, convergence, conservation): games end (or reach the action
limit) without error, replaying the same commands gives the same state hash, no card is
created, lost or duplicated, and every viewer's incrementally kept view equals a fresh snapshot
after every action."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import Act, Concede, GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import READY_MADE, ready_made
from arbiter.server.rules.commands import Command
from arbiter.server.rules.view import OMNISCIENT, SPECTATOR, project, snapshot, view_key

CONSTRUCTED = sorted(d for d in READY_MADE if "commander" not in d)
ACTION_LIMIT = 1500


def _config(players: int, decks: list[str]) -> GameConfig:
    return GameConfig(
        players=tuple(PlayerConfig(f"P{i}", ready_made(d).main, ready_made(d).sideboard)
                      for i, d in enumerate(decks[:players])),
        variant="two_player" if players == 2 else "free_for_all")


def _dealt(config: GameConfig) -> int:
    return sum(len(p.deck) + len(p.sideboard) for p in config.players)


def _play(config: GameConfig, seed: int, bot_seed: int, concede_rate: float = 0.0,
          check: Any = None) -> tuple[Table, list[Command]]:
    """Random legal actions (passing often, so games end), with occasional concessions."""
    rng = random.Random(bot_seed)
    table = Table(config, seed)
    log: list[Command] = []
    while not table.finished and len(log) < ACTION_LIMIT:
        cmd: Command
        if concede_rate and rng.random() < concede_rate:
            cmd = Concede(rng.randrange(len(config.players)))
            if not any(g.in_game(cmd.player) for g in table.games):
                continue
        else:
            d = table.pending
            assert d is not None
            pick = 0 if d.kind == "priority" and rng.random() < 0.6 else \
                rng.randrange(len(d.actions))
            cmd = Act(d.player, d.serial, pick)
        table.apply(cmd)
        log.append(cmd)
        if check is not None:
            check(table)
    return table, log


games = st.tuples(st.sampled_from([2, 4]), st.lists(st.sampled_from(CONSTRUCTED), min_size=4,
                                                    max_size=4),
                  st.integers(0, 2**32 - 1), st.integers(0, 2**16))


@settings(max_examples=12)
@given(games)
def test_random_games_end_or_hit_the_limit_and_conserve_cards(case: tuple[Any, ...]) -> None:
    players, decks, seed, bot_seed = case
    config = _config(players, decks)
    dealt = _dealt(config)

    def conserved(table: Table) -> None:
        census = table.card_census()
        assert sum(census.values()) == dealt and max(census.values()) == 1

    table, log = _play(config, seed, bot_seed, concede_rate=0.002, check=conserved)
    assert table.finished or len(log) == ACTION_LIMIT
    if table.finished:
        assert table.result is not None
        assert {o.player for o in table.result.outcomes} == set(range(players))


@settings(max_examples=8)
@given(games)
def test_replaying_the_same_commands_gives_the_same_state_hash(case: tuple[Any, ...]) -> None:
    players, decks, seed, bot_seed = case
    config = _config(players, decks)
    table, log = _play(config, seed, bot_seed, concede_rate=0.002)
    again = Table(config, seed)
    for cmd in log:
        again.apply(cmd)
    assert again.state_hash() == table.state_hash()
    other = Table(config, seed + 1)
    assert other.state_hash() != Table(config, seed).state_hash()


@settings(max_examples=6)
@given(games)
def test_incremental_views_equal_fresh_snapshots(case: tuple[Any, ...]) -> None:
    players, decks, seed, bot_seed = case
    config = _config(players, decks)
    viewers = [*range(players), SPECTATOR, OMNISCIENT]
    kept: dict[tuple[int, int], dict[Any, Any]] = {}

    def converge(table: Table) -> None:
        for game in table.games:
            if not any(k[0] == game.number for k in kept):
                for v in viewers:
                    kept[(game.number, v)] = snapshot(game, v)
                game.dirty.clear()
                continue
            keys = {view_key(m) for m in game.dirty}
            game.dirty.clear()
            for key in keys:
                public, private = project(game, key)
                for v in viewers:
                    value = private.get(v, public) if private is not None else public
                    if value is None:
                        kept[(game.number, v)].pop(key, None)
                    else:
                        kept[(game.number, v)][key] = value
            for v in viewers:
                assert kept[(game.number, v)] == snapshot(game, v)

    _play(config, seed, bot_seed, concede_rate=0.002, check=converge)
