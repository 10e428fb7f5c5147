"""Deck building from a Limited pool (CR 100.2b): a deck of at least 40 cards, no maximum, any
number of copies of a card, made only of the player's pool (the cards they opened or drafted)
plus any number of basic lands. The sideboard is the rest of the pool (CR 100.4b).

The engine's ``limited`` format (cards/formats.py) checks the size once the deck reaches a
match room; only this module knows the pool, so the pool check lives here. Decks are maps of
card name to count, as a client sends them; :func:`deck_problems` reports every problem at
once, so a player fixes a deck in one go.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from arbiter.server.rules.cards.decks import DeckList
from arbiter.server.rules.cards.pool import lookup

from .boosters import BASICS

MIN_DECK = 40  # CR 100.2b
# Not a rule but the server's limit on a deck list, main deck and sideboard together (the
# room's MAX_DECK_CARDS, rooms/setup.py): a deck of a billion Plains is a way to spend the
# server's memory, not a deck. Equal to it, so that every deck accepted here is seated there.
MAX_CARDS = 250


def pool_of(cards: Iterable[str]) -> dict[str, int]:
    """A pool as a map of name to count (from the cards a player opened or picked)."""
    return dict(Counter(cards))


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def deck_problems(main: Mapping[str, int], pool: Mapping[str, int]) -> list[str]:
    """Every way ``main`` is not a legal deck from ``pool``, as readable sentences: the deck's
    size first, then each card's problems in the deck's order. Empty: the deck is legal."""
    out: list[str] = []
    size = sum(count for count in main.values() if _is_count(count))
    if size < MIN_DECK:
        out.append(f"the deck has {size} cards; a limited deck has at least {MIN_DECK} "
                   "(CR 100.2b)")
    side = sum(sideboard({n: c for n, c in main.items() if _is_count(c)}, pool).values())
    if size + side > MAX_CARDS:
        out.append(f"the deck and its sideboard have {size + side} cards; the server takes "
                   f"at most {MAX_CARDS}")
    for name, count in main.items():
        if not _is_count(count):
            out.append(f"{count!r} copies of {name}: a count is a whole number above zero")
        elif name in BASICS:
            continue  # any number of basic lands, from outside the pool
        elif lookup(name) is None:
            out.append(f"{name!r} is not a card")
        elif name not in pool:
            out.append(f"{name} is not in your pool")
        elif count > pool[name]:
            out.append(f"{count} copies of {name}, but your pool has {pool[name]}")
    return out


def sideboard(main: Mapping[str, int], pool: Mapping[str, int]) -> dict[str, int]:
    """The pool minus the main deck: the cards the player may sideboard in (CR 100.4b).
    Basic lands are not counted: any number of them is available either way."""
    out = {}
    for name, have in pool.items():
        left = have - main.get(name, 0)
        if name not in BASICS and left > 0:
            out[name] = left
    return out


def deck_list(main: Mapping[str, int], pool: Mapping[str, int]) -> DeckList:
    """The engine's deck for a legal ``main`` (check :func:`deck_problems` first): the main
    deck and the rest of the pool as its sideboard, for a match room of format ``limited``."""
    side = sideboard(main, pool)
    return DeckList(main=tuple(n for n, c in main.items() for _ in range(c)),
                    sideboard=tuple(n for n, c in side.items() for _ in range(c)))
