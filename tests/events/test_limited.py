"""Deck building in Limited (CR 100.2b, 100.4b): at least 40 cards from the player's pool plus
any number of basic lands, no four-copy limit; the rest of the pool is the sideboard. The
engine's ``limited`` format seats such a deck in an ordinary match room."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from arbiter.server.events.boosters import BASICS, open_boosters
from arbiter.server.events.limited import (
    MAX_CARDS,
    MIN_DECK,
    deck_list,
    deck_problems,
    pool_of,
    sideboard,
)
from arbiter.server.rooms.setup import MAX_DECK_CARDS
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.formats import CONSTRUCTED, LIMITED
from arbiter.server.rules.cards.formats import deck_problems as format_problems
from arbiter.server.rules.config import validate
from arbiter.server.rules.rng import Rng

# A sealed pool: six boosters.
POOL = pool_of(card for booster in open_boosters("M10", Rng(26), 6) for card in booster)
SPELLS = [name for name in POOL if name not in BASICS]


def _deck(spells: int, basics: int = 17) -> dict[str, int]:
    deck: dict[str, int] = {}
    for name in SPELLS:
        take = min(POOL[name], spells - sum(deck.values()))
        if take > 0:
            deck[name] = take
    return {**deck, "Mountain": basics}


def test_100_2b_forty_cards_from_the_pool_and_basic_lands_are_legal() -> None:
    deck = _deck(23)
    assert sum(deck.values()) == MIN_DECK
    assert deck_problems(deck, POOL) == []
    # Basics need not be in the pool, in any number (no maximum deck size either).
    assert deck_problems({**_deck(23), "Mountain": 7, "Island": 30}, POOL) == []


def test_100_2b_too_few_cards() -> None:
    assert deck_problems(_deck(23, basics=16), POOL) == [
        "the deck has 39 cards; a limited deck has at least 40 (CR 100.2b)"]


def test_every_problem_at_once_in_the_decks_order() -> None:
    outside = next(p for p in ("Baneslayer Angel", "Ajani Goldmane") if p not in POOL)
    common = SPELLS[-1]
    deck = {**_deck(23), outside: 1, common: POOL[common] + 1, "Lightning Bolt!": 2,
            "Forest": 0, "Island": True}
    assert deck_problems(deck, POOL) == [
        f"{outside} is not in your pool",
        f"{POOL[common] + 1} copies of {common}, but your pool has {POOL[common]}",
        "'Lightning Bolt!' is not a card",
        "0 copies of Forest: a count is a whole number above zero",
        "True copies of Island: a count is a whole number above zero",
    ]


def test_the_servers_deck_limit_counts_the_sideboard_too() -> None:
    assert MAX_CARDS == MAX_DECK_CARDS  # what is accepted here is seated in a room
    side = sum(sideboard(_deck(23), POOL).values())
    at_limit = {**_deck(23), "Mountain": MAX_CARDS - 23 - side}
    assert deck_problems(at_limit, POOL) == []
    over = {**_deck(23), "Mountain": MAX_CARDS - 22 - side}
    assert deck_problems(over, POOL) == [
        f"the deck and its sideboard have {MAX_CARDS + 1} cards; the server takes at most "
        f"{MAX_CARDS}"]


def test_100_4b_the_sideboard_is_the_rest_of_the_pool_without_basics() -> None:
    pool = {"Lightning Bolt": 3, "Hill Giant": 1, "Forest": 2}
    main = {"Lightning Bolt": 1, "Hill Giant": 1, "Mountain": 38}
    assert sideboard(main, pool) == {"Lightning Bolt": 2}


@given(st.lists(st.integers(min_value=0, max_value=4), min_size=len(SPELLS),
                max_size=len(SPELLS)),
       st.integers(min_value=0, max_value=60))
def test_any_part_of_the_pool_with_enough_basics_is_legal_and_pool_is_deck_plus_sideboard(
        counts: list[int], basics: int) -> None:
    main = {name: min(c, POOL[name]) for name, c in zip(SPELLS, counts, strict=True)
            if min(c, POOL[name]) > 0}
    if basics:
        main["Swamp"] = basics
    size = sum(main.values())
    assert (deck_problems(main, POOL) == []) == (size >= MIN_DECK)
    spells = Counter({n: c for n, c in main.items() if n not in BASICS})
    assert spells + Counter(sideboard(main, POOL)) == Counter(
        {n: c for n, c in POOL.items() if n not in BASICS})


def test_a_limited_deck_plays_in_a_match_room_of_the_limited_format() -> None:
    # Five copies of a common: legal in Limited (no four-copy limit), not in Constructed.
    five = {"Llanowar Elves": 5, "Forest": 35}
    deck = deck_list(five, {"Llanowar Elves": 6})
    assert deck.sideboard == ("Llanowar Elves",)
    assert format_problems(deck, LIMITED) == []
    assert [str(p) for p in format_problems(deck, CONSTRUCTED)] == [
        "the deck has 40 cards; a constructed deck has at least 60 (CR 100.2a)",
        "line 1 ('5 Llanowar Elves'): 5 cards named Llanowar Elves; a constructed deck has at "
        "most 4 of a card other than basic lands (CR 100.2a)"]
    # A sealed deck through the engine's own check, and a game starts with it.
    players = tuple(PlayerConfig(f"P{i}", deck_list(_deck(23), POOL).main,
                                 deck_list(_deck(23), POOL).sideboard) for i in range(2))
    config = GameConfig(players=players, format=LIMITED)
    validate(config)
    assert Table(config, 1).pending is not None
