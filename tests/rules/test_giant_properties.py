"""Hypothesis properties of Two-Headed Giant games (CR 805, 810) played by random bots, as
tests/rules/test_properties.py and test_lifecycle_properties.py check them for other games:
games end (or reach the action limit) without error, replay to the same state hash, conserve
every card, and every viewer's incrementally kept view equals a fresh snapshot. On top of that,
after every command: teammates' records carry one life total and one poison count (CR 810.4,
810.10), teammates leave together and end with the same outcome (CR 810.8), no view holds a
library card or a hand card of anyone but the viewer and their teammate, and teammates do see
each other's hands (CR 810.5). Restarts (Karn Liberated, CR 724) and subgames (Shahrazad,
CR 726) are forced into some of the games."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import Act, GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.commands import Command
from arbiter.server.rules.game import Event
from arbiter.server.rules.state import HAND, LIBRARY
from arbiter.server.rules.view import OMNISCIENT

from .lifecycle_play import Bot, Watch, final_census, lifecycle_config, play
from .random_play import (
    ACTION_LIMIT,
    ViewMirror,
    assert_conserved,
    cards_dealt,
    random_play,
    replay,
)
from .test_properties import CONSTRUCTED

TEAMS = ((0, 1), (2, 3))
# A concession ends a Two-Headed Giant game (its team leaves, CR 810.8b), so concessions are
# rarer here than in the other random games, for games to run long enough to matter.
CONCEDE_RATE = 0.0005


def _config(decks: list[str]) -> GameConfig:
    return GameConfig(
        players=tuple(PlayerConfig(f"P{i}", ready_made(d).main, ready_made(d).sideboard,
                                   team=i // 2) for i, d in enumerate(decks)),
        variant="two_headed_giant")


def _teams_as_one(table: Table) -> None:
    """CR 810.4, 810.10, 810.8: in every game on the table, teammates have one life total and
    one poison count and are in or out of the game together."""
    for game in table.games:
        for a, b in TEAMS:
            pa, pb = game.players[a], game.players[b]
            assert (pa.life, pa.poison, pa.in_game) == (pb.life, pb.poison, pb.in_game)


def _same_fate(table: Table) -> None:
    assert table.result is not None
    outcome = {o.player: o.outcome for o in table.result.outcomes}
    assert set(outcome) == {0, 1, 2, 3}
    for a, b in TEAMS:
        assert outcome[a] == outcome[b], table.result
    assert table.result.winners in ((), (0, 1), (2, 3))


games = st.tuples(st.lists(st.sampled_from(CONSTRUCTED), min_size=4, max_size=4),
                  st.integers(0, 2**32 - 1), st.integers(0, 2**16))


@settings(max_examples=10)
@given(games)
def test_giant_games_end_or_hit_the_limit_keep_teams_as_one_and_conserve_cards(
        case: tuple[Any, ...]) -> None:
    decks, seed, bot_seed = case
    config = _config(decks)
    dealt = cards_dealt(config)

    def check(table: Table) -> None:
        assert_conserved(table, dealt)
        _teams_as_one(table)

    table, log = random_play(config, seed, bot_seed, concede_rate=CONCEDE_RATE, check=check)
    assert table.finished or len(log) == ACTION_LIMIT
    if table.finished:
        _same_fate(table)


@settings(max_examples=6)
@given(games)
def test_replaying_a_giant_game_gives_the_same_state_hash(case: tuple[Any, ...]) -> None:
    decks, seed, bot_seed = case
    config = _config(decks)
    table, log = random_play(config, seed, bot_seed, concede_rate=CONCEDE_RATE)
    assert replay(config, seed, log).state_hash() == table.state_hash()


@settings(max_examples=5)
@given(games)
def test_giant_views_converge_and_show_hands_only_to_the_team(case: tuple[Any, ...]) -> None:
    decks, seed, bot_seed = case
    config = _config(decks)
    shown_to_teammate = [0]

    def secret(game: Any, viewer: int, view: dict[Any, Any]) -> None:
        for key in view:
            if not isinstance(key, int):
                continue
            obj = game.objects[key]
            assert obj.zone != LIBRARY
            if obj.zone == HAND and viewer != OMNISCIENT:
                assert viewer in (obj.owner, *game.teammates(obj.owner)), (viewer, obj)
                shown_to_teammate[0] += viewer != obj.owner

    random_play(config, seed, bot_seed, concede_rate=CONCEDE_RATE,
                check=ViewMirror(4, look=secret))
    assert shown_to_teammate[0], "no teammate ever saw a hand: the check would be vacuous"


# --------------------------------------------------------------------------- 724 and 726

cases = st.tuples(st.integers(0, 2**16), st.lists(st.integers(4, 24), min_size=1, max_size=4),
                  st.integers(0, 2**16), st.integers(1, 6), st.sampled_from([0.0, 0.004]))


@settings(max_examples=40)
@given(cases)
def test_giant_restarts_and_subgames_never_raise_always_end_and_conserve_cards(
        case: tuple[Any, ...]) -> None:
    seed, sizes, bot_seed, budget, concede_rate = case
    config = lifecycle_config(4, seed, sizes, giant=True)
    table = Table(config, seed)
    watch = Watch(table)

    def check(t: Table, cmd: Command, events: list[Event]) -> None:
        watch(t, cmd, events)
        _teams_as_one(t)

    bot = Bot(random.Random(bot_seed), budget=budget, force=0.3, concede_rate=concede_rate)
    play(table, bot, check=check)
    final_census(table, watch.owner)
    _same_fate(table)


@settings(max_examples=12)
@given(cases)
def test_replaying_a_giant_game_full_of_restarts_and_subgames_gives_the_same_state(
        case: tuple[Any, ...]) -> None:
    seed, sizes, bot_seed, budget, concede_rate = case
    config = lifecycle_config(4, seed, sizes, giant=True)
    table = Table(config, seed)
    bot = Bot(random.Random(bot_seed), budget=budget, force=0.3, concede_rate=concede_rate)
    play(table, bot)
    assert replay(config, seed, bot.log).state_hash() == table.state_hash()


@dataclass
class WatchedBot(Bot):
    """A :class:`Bot` that remembers the labels of the actions it took."""

    taken: set[str] = field(default_factory=set)

    def command(self, table: Table) -> Command:
        cmd = super().command(table)
        d = table.pending
        if isinstance(cmd, Act) and d is not None:
            self.taken.add(d.actions[cmd.action].label)
        return cmd


def test_the_random_giant_games_do_reach_restarts_and_subgames() -> None:
    """The properties above are only as good as what their games do: across a fixed set of
    Two-Headed Giant games, the real Karn Liberated and Shahrazad are used, and restarts,
    subgames (themselves Two-Headed Giant games), subgames of subgames and restarted subgames
    all happen."""
    wanted = {"subgame", "nested subgame", "giant subgame", "restart", "restarted subgame",
              "Cast Shahrazad", "Karn Liberated: \u221214: Restart the game."}
    seen: set[str] = set()

    def note(t: Table, cmd: Command, events: list[Event]) -> None:
        for e in events:
            if e.kind == "subgame_started":
                seen.add("subgame" if e.data["depth"] == 1 else "nested subgame")
                if t.games[-1].turn_mates and t.games[-1].life_mates:
                    seen.add("giant subgame")
            elif e.kind == "game_restarted":
                seen.add("restarted subgame" if e.data["depth"] else "restart")

    for seed in range(40):
        table = Table(lifecycle_config(4, seed, [8, 20], giant=True), seed)
        bot = WatchedBot(random.Random(seed), budget=6, force=0.5, concede_rate=0.01)
        play(table, bot, check=note)
        seen.update(bot.taken & wanted)
        if seen == wanted:
            break
    assert seen == wanted
