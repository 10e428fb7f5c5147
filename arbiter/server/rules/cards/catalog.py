"""The card data a client needs, in the protocol's plain form (docs/protocol.md, "catalog").

Views name objects by card name only; a client that wants to show a card's cost, type line,
text or power and toughness, or a bot that weighs its options, looks the name up here. This is
every card a view can show: the pool and the tokens (test-only cards are left out unless
asked for).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .decks import READY_MADE
from .formats import READY_FORMATS
from .pool import POOL, TEST_POOL, TOKEN_DEFS
from .sets import SETS, printings
from .vocab import VANGUARD, CardDef

TYPE_ORDER = ("Tribal", "Artifact", "Enchantment", "Land", "Creature", "Planeswalker",
              "Instant", "Sorcery", "Plane", "Phenomenon", "Scheme", "Vanguard")


def type_line(card: CardDef) -> str:
    supertypes = sorted(card.supertypes)
    types = sorted(card.types, key=lambda t: TYPE_ORDER.index(t) if t in TYPE_ORDER else 99)
    line = " ".join([*supertypes, *types])
    if card.subtypes:
        line += " \u2014 " + " ".join(card.subtypes)
    return line


def card_data(card: CardDef) -> dict[str, Any]:
    """One card's data as a client sees it."""
    return {
        "name": card.name,
        "cost": None if card.cost is None else str(card.cost),
        "mv": 0 if card.cost is None else card.cost.mana_value,
        "types": type_line(card),
        "text": card.text,
        "pt": None if card.power is None else [card.power, card.toughness],
        "loyalty": card.loyalty,
        "keywords": sorted(str(k) for k in card.keywords),
        "colors": "".join(c for c in "WUBRG" if c in card.colors),
        "identity": "".join(c for c in "WUBRG" if c in card.color_identity),
        "token": card.token,
        # A vanguard's hand and life modifiers (CR 313.6-7), for the nontraditional cards.
        **({"hand": card.hand_modifier, "life": card.life_modifier}
           if card.is_(VANGUARD) else {}),
        # An Aura that hurts what it enchants: a bot aims it at an opponent's creature.
        **({"harmful": True} if card.harmful else {}),
        **_printing(card.name),
    }


@cache
def _printed_in() -> dict[str, dict[str, Any]]:
    """Where each card of a set is printed: its set code, collector number and rarity."""
    return {p.name: {"set": code, "number": p.number, "rarity": p.rarity}
            for code in SETS for p in printings(code)}


def _printing(name: str) -> dict[str, Any]:
    return _printed_in().get(name, {})


def deck_format(name: str) -> str:
    """The format a ready-made deck is built for (docs/protocol.md, "catalog"): the engine's
    own record of it, in which the deck is legal (cards/formats.py)."""
    return READY_FORMATS[name]


@cache
def cards(*, test_cards: bool = False) -> dict[str, dict[str, Any]]:
    pools = [POOL, TOKEN_DEFS, *([TEST_POOL] if test_cards else [])]
    return {name: card_data(card) for pool in pools for name, card in pool.items()}


@cache
def decks() -> list[dict[str, Any]]:
    return [{"name": name, "format": deck_format(name), "size": len(deck.main),
             "sideboard": len(deck.sideboard), "commander": deck.commander,
             "planar": len(deck.planar), "schemes": len(deck.schemes),
             "vanguard": deck.vanguard}
            for name, deck in sorted(READY_MADE.items())]
