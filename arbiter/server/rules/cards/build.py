"""Shorthands for writing card definitions, shared by the pool and the set files."""

from __future__ import annotations

from typing import Any

from ..mana import ManaCost
from .vocab import CardDef, Keyword

mana_cost = ManaCost.parse
LAND = frozenset({"Land"})
CREATURE = frozenset({"Creature"})
INSTANT = frozenset({"Instant"})
SORCERY = frozenset({"Sorcery"})
ENCHANTMENT = frozenset({"Enchantment"})
ARTIFACT = frozenset({"Artifact"})
ARTIFACT_CREATURE = frozenset({"Artifact", "Creature"})
BASIC = frozenset({"Basic"})
LEGENDARY = frozenset({"Legendary"})


def creature(name: str, mana: str, subtypes: str, power: int, toughness: int,
             keywords: tuple[Keyword, ...] = (), text: str = "", *,
             types: frozenset[str] = CREATURE, **extra: Any) -> CardDef:
    """A creature card: ``subtypes`` space-separated, as on its type line."""
    return CardDef(name=name, types=types, cost=mana_cost(mana), subtypes=tuple(subtypes.split()),
                   power=power, toughness=toughness, keywords=frozenset(keywords), text=text,
                   **extra)
