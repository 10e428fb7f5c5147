"""Characteristics as modified by continuous effects (CR 613): keywords (layer 6) and power and
toughness (layer 7, with counters in 7c). Control (layer 2) is kept current on each object by
:meth:`Game.control_changed`."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from .cards.vocab import Keyword
from .state import BATTLEFIELD, Obj
from .statics import creature_bonus, granted_keywords

if TYPE_CHECKING:
    from .game import Game

K = TypeVar("K")


def _granted(game: Game, obj: Obj) -> list[Keyword]:
    """Keywords effects give ``obj``: resolved "gains ..." effects and static abilities."""
    out = [eff.keyword for eff in game.effects
           if eff.kind == "keyword" and eff.affected == obj.oid]
    if game.global_sources and obj.defn.is_("Creature"):
        out.extend(granted_keywords(game, obj))
    return out


def has_keyword(game: Game, obj: Obj, keyword: Keyword) -> bool:
    if keyword in obj.defn.keywords:
        return True
    for eff in game.effects:
        if eff.kind == "keyword" and eff.affected == obj.oid and eff.keyword == keyword:
            return True
    if game.global_sources and obj.defn.is_("Creature"):
        return keyword in granted_keywords(game, obj)
    return False


def keywords_of(game: Game, obj: Obj, kind: type[K]) -> list[K]:
    """Every keyword of one parameterised kind ``obj`` has (its landwalks, its protections),
    printed or granted."""
    out: list[K] = [k for k in obj.defn.keyword_values if isinstance(k, kind)]
    if game.effects or game.global_sources:
        out.extend(k for k in _granted(game, obj) if isinstance(k, kind))
    return out


def source_has(game: Game, source: Obj, keyword: Keyword) -> bool:
    """Does a source of damage have ``keyword``? A permanent (or the last known information of
    one) as it is now; a spell or a card elsewhere as printed, since effects that grant
    keywords to creatures reach only permanents (CR 702.2d-e, 702.15c-d)."""
    if source.zone == BATTLEFIELD:
        return has_keyword(game, source, keyword)
    return keyword in source.defn.keywords


def colors(obj: Obj) -> frozenset[str]:
    """An object's colours (CR 105.2): no effect in the pool changes them yet."""
    return obj.defn.colors


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
