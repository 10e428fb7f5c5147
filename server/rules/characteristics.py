"""Characteristics as modified by continuous effects (CR 613): keywords (layer 6) and power and
toughness (layer 7, with counters in 7c). Control (layer 2) is kept current on each object by
:meth:`Game.control_changed`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import Obj

if TYPE_CHECKING:
    from .game import Game


def has_keyword(game: Game, obj: Obj, keyword: str) -> bool:
    if keyword in obj.defn.keywords:
        return True
    for eff in game.effects:
        if eff.kind == "keyword" and eff.affected == obj.oid and eff.keyword == keyword:
            return True
    return False


def power(game: Game, obj: Obj) -> int:
    base = obj.defn.power or 0
    return base + obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)


def toughness(game: Game, obj: Obj) -> int:
    base = obj.defn.toughness or 0
    return base + obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)


def loyalty(obj: Obj) -> int:
    return obj.counters.get("loyalty", 0)
