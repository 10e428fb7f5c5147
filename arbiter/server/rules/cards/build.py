"""Shorthands for writing card definitions, shared by the pool and the set files."""

from __future__ import annotations

from typing import Any

from ..mana import ManaCost
from .vocab import Activated, Attach, CardDef, Cost, Keyword, Target, TargetSpec, where

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


# Equip's target (CR 702.6a): "target creature you control".
CREATURE_YOU_CONTROL = TargetSpec("creature", where("target creature you control",
                                                    controller="you"))


def equip(mana: str) -> Activated:
    """"Equip [cost]" (CR 702.6a): "[cost]: Attach this permanent to target creature you
    control. Activate only as a sorcery." """
    return Activated(Cost(mana=mana_cost(mana)), (Attach(Target(0)),),
                     targets=(CREATURE_YOU_CONTROL,), sorcery_speed=True,
                     text="Attach to target creature you control. Equip only as a sorcery.")


def creature(name: str, mana: str, subtypes: str, power: int, toughness: int,
             keywords: tuple[Keyword, ...] = (), text: str = "", *,
             types: frozenset[str] = CREATURE, **extra: Any) -> CardDef:
    """A creature card: ``subtypes`` space-separated, as on its type line."""
    return CardDef(name=name, types=types, cost=mana_cost(mana), subtypes=tuple(subtypes.split()),
                   power=power, toughness=toughness, keywords=frozenset(keywords), text=text,
                   **extra)
