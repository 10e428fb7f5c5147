"""An object's characteristics as the rules read them (CR 109.3, 613): the questions every
other module asks (does it have this keyword, what are its power, toughness and colours).

A permanent's are computed through the layers by layers.py, once for the whole battlefield
and cached on the game until something they depend on changes; when no continuous effect and
no static ability of that kind exists (most of a game) the printed values are the answer and
nothing is computed. Anything not on the battlefield has its printed characteristics (plus its
counters). Control (layer 2) is kept current on each object by :meth:`Game.control_changed`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from .cards.vocab import Keyword, ManaAbility
from .layers import Chars, compute
from .state import BATTLEFIELD, Obj

if TYPE_CHECKING:
    from .game import Game

K = TypeVar("K")


def chars_of(game: Game, obj: Obj) -> Chars | None:
    """The layered characteristics of a permanent, or None when its printed values (and
    counters) are all there is: nothing in the game could change them, or it is elsewhere.
    (The questions below repeat its first test inline: they are asked many times an action.)"""
    if not (game.continuous or game.global_sources) or obj.zone != BATTLEFIELD:
        return None
    return _layered(game, obj)


def _layered(game: Game, obj: Obj) -> Chars | None:
    table = game.chars
    if table is None:
        table = game.chars = compute(game)
    found = table.get(obj.oid)
    if found is None and obj.oid not in game.objects:  # last known information (CR 608.2h)
        return game.last_chars.get(obj.oid)
    return found


def layered_table(game: Game) -> dict[int, Chars] | None:
    """Every permanent's layered characteristics by object id, or None when nothing in the
    game could change them (printed values and counters are the answer): for a loop over
    the battlefield, which asks for each permanent what the questions here ask one by one."""
    if not (game.continuous or game.global_sources):
        return None
    table = game.chars
    if table is None:
        table = game.chars = compute(game)
    return table


def has_keyword(game: Game, obj: Obj, keyword: Keyword) -> bool:
    if (game.continuous or game.global_sources) and obj.zone == BATTLEFIELD:
        ch = _layered(game, obj)
        if ch is not None:
            return keyword in ch.keywords
    return keyword in obj.defn.keywords


def keywords_of(game: Game, obj: Obj, kind: type[K]) -> list[K]:
    """Every keyword of one parameterised kind ``obj`` has (its landwalks, its protections),
    printed or granted."""
    ch = chars_of(game, obj)
    if ch is None:
        return [k for k in obj.defn.keyword_values if isinstance(k, kind)]
    return [k for k in ch.keywords if isinstance(k, kind)]


def granted_keywords(game: Game, obj: Obj) -> list[Keyword]:
    """The keywords effects have given a permanent (a view's "kw"), in the order given."""
    ch = chars_of(game, obj)
    return [] if ch is None else ch.granted


def source_has(game: Game, source: Obj, keyword: Keyword) -> bool:
    """Does a source of damage have ``keyword``? A permanent (or the last known information of
    one) as it is now; a spell or a card elsewhere as printed, since effects that grant
    keywords to creatures reach only permanents (CR 702.2d-e, 702.15c-d)."""
    if source.zone == BATTLEFIELD:
        return has_keyword(game, source, keyword)
    return keyword in source.defn.keywords


def colors(game: Game, obj: Obj) -> frozenset[str]:
    """An object's colours (CR 105.2), as layer 5 leaves them."""
    ch = chars_of(game, obj)
    return obj.defn.colors if ch is None else ch.colors


def card_types(game: Game, obj: Obj) -> frozenset[str]:
    """An object's card types (CR 205.2a), as layer 4 leaves them: an animated land is a
    creature while the effect lasts."""
    if (game.continuous or game.global_sources) and obj.zone == BATTLEFIELD:
        ch = _layered(game, obj)
        if ch is not None:
            return ch.types
    return obj.defn.types


def is_type(game: Game, obj: Obj, card_type: str) -> bool:
    """Is ``obj`` of ``card_type`` now? The question every rule about "a creature", "a land"
    on the battlefield asks (the printed type line elsewhere)."""
    if (game.continuous or game.global_sources) and obj.zone == BATTLEFIELD:
        ch = _layered(game, obj)
        if ch is not None:
            return card_type in ch.types
    return card_type in obj.defn.types


def subtypes(game: Game, obj: Obj) -> frozenset[str] | tuple[str, ...]:
    """An object's subtypes, as layer 4 leaves them."""
    ch = chars_of(game, obj)
    return obj.defn.subtypes if ch is None else ch.subtypes


def _pt(game: Game, obj: Obj, base: int | None, want_toughness: bool) -> int:
    if (game.continuous or game.global_sources) and obj.zone == BATTLEFIELD:
        ch = _layered(game, obj)
        if ch is not None:
            return ch.toughness if want_toughness else ch.power
    counters = obj.counters
    if not counters:
        return base or 0
    return (base or 0) + counters.get("+1/+1", 0) - counters.get("-1/-1", 0)


def power(game: Game, obj: Obj) -> int:
    return _pt(game, obj, obj.defn.power, False)


def toughness(game: Game, obj: Obj) -> int:
    return _pt(game, obj, obj.defn.toughness, True)


def mana_abilities(game: Game, obj: Obj) -> list[ManaAbility]:
    """A permanent's mana abilities: its own, or, for a land whose subtype an effect set to a
    basic land type, that type's instead (CR 305.7)."""
    ch = chars_of(game, obj)
    if ch is not None and ch.land_mana is not None:
        return [ManaAbility(m) for m in ch.land_mana]
    return [a for a in obj.defn.abilities if isinstance(a, ManaAbility)]


def loyalty(obj: Obj) -> int:
    return obj.counters.get("loyalty", 0)
