"""Shorthands for writing card definitions, shared by the pool and the set files."""

from __future__ import annotations

from typing import Any

from ..mana import ManaCost
from .vocab import Activated, Attach, CardDef, Cost, Effect, Keyword, Target, TargetSpec, where

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


PLANESWALKER = frozenset({"Planeswalker"})


def planeswalker(name: str, mana: str, subtype: str, loyalty: int, text: str,
                 abilities: tuple[Activated, ...]) -> CardDef:
    """A legendary planeswalker card (CR 306.4: the ones printed before the legend rule
    applied to them are legendary by errata) with its loyalty abilities."""
    return CardDef(name=name, types=PLANESWALKER, cost=mana_cost(mana), subtypes=(subtype,),
                   supertypes=LEGENDARY, loyalty=loyalty, text=text, abilities=abilities)


def loyalty_ability(change: int | str, effects: tuple[Effect, ...], text: str,
                    targets: tuple[TargetSpec, ...] = ()) -> Activated:
    """"[+N]: ...", "[-N]: ..." or, with ``change="-X"``, "[-X]: ..." (CR 606)."""
    cost = Cost(loyalty_x=True) if change == "-X" else Cost(loyalty=int(change))
    return Activated(cost, effects, targets=targets, text=text)


def token(subtypes: str, color: str, power: int | None, toughness: int | None, text: str, *,
          types: frozenset[str] = CREATURE, **extra: Any) -> CardDef:
    """A creature token's definition, named by CR 111.4 after its subtypes plus "Token" (the
    effects that make these name no token); ``color`` is its colour letters ("" colourless),
    which the creating effect sets (CR 111.3)."""
    return CardDef(name=f"{subtypes} Token", types=types, subtypes=tuple(subtypes.split()),
                   power=power, toughness=toughness, token=True, text=text,
                   color_indicator=frozenset(color), **extra)
