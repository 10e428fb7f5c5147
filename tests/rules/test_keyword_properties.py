"""The whole-game invariants (test_properties.py) over games of the keyword cards: M10's and
the test cards for the keywords M10 lacks, so that random games meet first-strike steps,
deathtouch waiting for its state-based action, protection, grants of parameterised keywords,
shroud and hexproof in targeting. Replaying gives the same state hash, no card is created or
lost, and every viewer's incrementally kept view equals a fresh snapshot after every action."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from .random_play import alternating_decks, assert_replays_and_conserves, assert_views_converge

# Two 40-card decks; the cheap cards come in fours so that random games get to combat.
LIGHT = (["Plains"] * 8 + ["Forest"] * 8 + ["Mountain"] * 2
         + ["White Knight", "Fencing Ace", "Deadly Recluse", "Gladecover Scout", "Ambush Viper",
            "Giant Growth", "Kindled Fury"] * 2
         + ["Razorfoot Griffin", "Giant Spider", "Stampeding Rhino", "Wall of Faith",
            "Griffin Sentinel", "Baneslayer Angel", "Beloved Chaplain", "Sapphire Ward"])
DARK = (["Swamp"] * 8 + ["Mountain"] * 8 + ["Island"] * 2
        + ["Black Knight", "Child of Night", "Viashino Spearhunter", "Raging Goblin",
           "Venom Draught", "Twin Blades", "Blood Bond"] * 2
        + ["Bog Wraith", "Prodigal Pyromancer", "Bladetusk Boar", "Wall of Fire",
           "Darksteel Myr", "Ornithopter", "Cloak of Mist", "Lightning Elemental"])


games = st.tuples(st.sampled_from([2, 3]), st.integers(0, 2**32 - 1), st.integers(0, 2**16))


def test_the_decks_are_forty_cards() -> None:
    assert len(LIGHT) == len(DARK) == 40


@settings(max_examples=4, deadline=None)
@given(games)
def test_keyword_games_replay_to_the_same_hash_and_conserve_cards(case: tuple[Any, ...]
                                                                  ) -> None:
    players, seed, bot_seed = case
    assert_replays_and_conserves(alternating_decks(players, [LIGHT, DARK]), seed, bot_seed)


@settings(max_examples=3, deadline=None)
@given(games)
def test_keyword_games_incremental_views_equal_fresh_snapshots(case: tuple[Any, ...]) -> None:
    players, seed, bot_seed = case
    assert_views_converge(alternating_decks(players, [LIGHT, DARK]), seed, bot_seed)
