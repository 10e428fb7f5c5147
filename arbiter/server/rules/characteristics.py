"""Characteristics as modified by continuous effects (CR 613): keywords (layer 6) and power and
toughness (layer 7, with counters in 7c). Control (layer 2) is kept current on each object by
:meth:`Game.control_changed`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import Obj
from .statics import creature_bonus, granted_keywords

if TYPE_CHECKING:
    from .game import Game


def has_keyword(game: Game, obj: Obj, keyword: str) -> bool:
    if keyword in obj.defn.keywords:
        return True
    for eff in game.effects:
        if eff.kind == "keyword" and eff.affected == obj.oid and eff.keyword == keyword:
            return True
    if game.global_sources and obj.defn.is_("Creature"):
        return keyword in granted_keywords(game, obj)
    return False


def _bonus(game: Game, obj: Obj) -> tuple[int, int]:
    if not (game.global_sources or game.effects) or obj.zone != "battlefield":
        return 0, 0
    return creature_bonus(game, obj)


def power(game: Game, obj: Obj) -> int:
    base = obj.defn.power or 0
    return (base + obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)
            + _bonus(game, obj)[0])


def toughness(game: Game, obj: Obj) -> int:
    base = obj.defn.toughness or 0
    return (base + obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)
            + _bonus(game, obj)[1])


def loyalty(obj: Obj) -> int:
    return obj.counters.get("loyalty", 0)
