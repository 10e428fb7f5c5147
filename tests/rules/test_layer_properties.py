"""The whole-game invariants (test_properties.py) over games of the cards whose text is
continuous effects in layers: Auras, lords, Coat of Arms, Nightmare counting Swamps, Clone's
copies, pump spells and abilities, and the test-only cards for setting, switching, losing
abilities, colour and type changes and counters. Replaying gives the same state hash, no card is
created or lost, and every viewer's incrementally kept view equals a fresh snapshot after every
action, so characteristics changed at a distance reach the views (Game.settle_chars)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import GameConfig

from .helpers import Scene
from .random_play import alternating_decks, assert_replays_and_conserves, assert_views_converge

# Two 40-card decks; the cheap cards come in fours so that random games see them often.
BRIGHT = (["Plains"] * 8 + ["Island"] * 8 + ["Forest"] * 2
          + ["Holy Strength", "Veteran Armorsmith", "Veteran Swordsmith", "Glorious Charge",
             "Shrinking Hex", "Inversion Trick", "Growth Rune"] * 2
          + ["Honor of the Pure", "Clone", "Armored Ascension", "Coat of Arms",
             "Skyward Captain", "Sky Duelists' Banner", "Null Touch", "Azure Wash"])
GRIM = (["Swamp"] * 9 + ["Mountain"] * 9
        + ["Unholy Strength", "Weakness", "Looming Shade", "Fiery Hellhound", "Goblin Chieftain",
           "Raging Goblin", "Wither Rune"] * 2
        + ["Nightmare", "Kinship Mask", "Kindled Fury", "Prodigal Pyromancer", "Child of Night",
           "Black Knight", "Bog Wraith", "Wall of Fire"])


games = st.tuples(st.sampled_from([2, 3]), st.integers(0, 2**32 - 1), st.integers(0, 2**16))


def test_the_decks_are_forty_cards() -> None:
    assert len(BRIGHT) == len(GRIM) == 40


@settings(max_examples=4, deadline=None)
@given(games)
def test_layer_games_replay_to_the_same_hash_and_conserve_cards(case: tuple[Any, ...]) -> None:
    players, seed, bot_seed = case
    assert_replays_and_conserves(alternating_decks(players, [BRIGHT, GRIM]), seed, bot_seed)


@settings(max_examples=4, deadline=None)
@given(games)
def test_layer_games_incremental_views_equal_fresh_snapshots(case: tuple[Any, ...]) -> None:
    players, seed, bot_seed = case
    assert_views_converge(alternating_decks(players, [BRIGHT, GRIM]), seed, bot_seed)


def _board_config() -> GameConfig:
    """A game already under way whose permanents change others' characteristics from a
    distance: Nightmare grows with each Swamp, Armored Ascension with each Plains, Coat of
    Arms with each creature sharing a type, the lords with each Soldier or Goblin; libraries
    of lands and such creatures feed them."""
    return (Scene()
            .battlefield(0, "Plains", "Plains", "Island", "Coat of Arms", "Veteran Armorsmith",
                         "Honor of the Pure", "Grizzly Bears")
            .library(0, *(["Plains", "Veteran Swordsmith", "Island", "Glorious Charge",
                           "Shrinking Hex", "Runeclaw Bear"] * 5))
            .battlefield(1, "Swamp", "Swamp", "Mountain", "Nightmare", "Goblin Chieftain")
            .library(1, *(["Swamp", "Raging Goblin", "Mountain", "Kinship Mask",
                           "Wither Rune", "Null Touch"] * 5))
            .build_config())


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**16))
def test_layer_boards_incremental_views_equal_fresh_snapshots(seed: int, bot_seed: int) -> None:
    assert_views_converge(_board_config(), seed, bot_seed)
