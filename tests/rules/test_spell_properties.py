"""The whole-game invariants (test_properties.py) over games of the spells that bring X costs,
mana abilities, extra turns and copies (CR 107.3, 605, 500.7, 707.10): random bots announce X,
split Fireballs, discard at random to Mind Shatter, tap Birds of Paradise for any colour, take
extra turns and copy spells with Twincast and Hive Mind. Games end or reach the action limit,
replaying gives the same state hash, no card is created or lost (copies have no card), and
every viewer's incrementally kept view equals a fresh snapshot after every action."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import GameConfig, PlayerConfig

from .random_play import ACTION_LIMIT, assert_replays_and_conserves, assert_views_converge

# Two 40-card decks; the cheap cards come in fours so that random games cast them.
FIRE = (["Mountain"] * 10 + ["Forest"] * 6 + ["Island"] * 2
        + ["Fireball", "Earthquake", "Llanowar Elves", "Birds of Paradise", "Lightning Bolt"] * 4
        + ["Grizzly Bears", "Hill Giant"])
WATER = (["Island"] * 10 + ["Swamp"] * 8
         + ["Twincast", "Mind Spring", "Consume Spirit", "Time Warp"] * 4
         + ["Hive Mind", "Hive Mind", "Serra Angel", "Air Elemental", "Windstorm",
            "Mind Shatter"])


def _config(players: int, variant: str | None = None) -> GameConfig:
    decks = [FIRE, WATER]
    return GameConfig(
        players=tuple(PlayerConfig(f"P{i}", tuple(decks[i % 2])) for i in range(players)),
        variant=variant or ("two_player" if players == 2 else "free_for_all"))


games = st.tuples(st.sampled_from([2, 3]), st.integers(0, 2**32 - 1), st.integers(0, 2**16))


def test_the_decks_are_forty_cards() -> None:
    assert len(FIRE) == len(WATER) == 40


@settings(max_examples=4, deadline=None)
@given(games)
def test_spell_games_end_replay_to_the_same_hash_and_conserve_cards(case: tuple[Any, ...]
                                                                    ) -> None:
    players, seed, bot_seed = case
    table, log = assert_replays_and_conserves(_config(players), seed, bot_seed)
    assert table.finished or len(log) == ACTION_LIMIT


@settings(max_examples=3, deadline=None)
@given(games)
def test_spell_games_incremental_views_equal_fresh_snapshots(case: tuple[Any, ...]) -> None:
    players, seed, bot_seed = case
    assert_views_converge(_config(players), seed, bot_seed)


@settings(max_examples=2, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**16))
def test_spell_games_in_grand_melee_replay_to_the_same_hash(seed: int, bot_seed: int) -> None:
    assert_replays_and_conserves(_config(8, "grand_melee"), seed, bot_seed)
