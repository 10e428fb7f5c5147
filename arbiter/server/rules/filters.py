"""Does an object pass an :class:`~arbiter.server.rules.cards.vocab.ObjectFilter`? Asked of
targets as they are chosen and again as the spell resolves (CR 608.2b), so it reads the object
as it is now: a permanent's types and colours as the layers leave them (CR 613), a spell's or
a card's as printed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import ObjectFilter
from .characteristics import card_types, colors, power, subtypes, toughness
from .state import Obj

if TYPE_CHECKING:
    from .game import Game


def matches(game: Game, obj: Obj, f: ObjectFilter, chooser: int,
            source: Obj | None = None) -> bool:
    """``chooser`` is the player choosing (the controller of the spell or ability): "you
    control" and "an opponent controls" are relative to them. ``source`` is the spell or the
    ability's source, for a filter relative to it (its power, as last known if it has
    left: CR 608.2h)."""
    if f.types or f.not_types:
        types = card_types(game, obj)
        if f.types and not types & f.types:
            return False
        if types & f.not_types:
            return False
    if f.colors or f.not_colors:
        have = colors(game, obj)
        if f.colors and not have & f.colors:
            return False
        if have & f.not_colors:
            return False
    if f.subtypes and not set(subtypes(game, obj)) & f.subtypes:
        return False
    if f.tapped is not None and obj.tapped != f.tapped:
        return False
    if f.combat:
        attacking, blocking = obj.attacking is not None, obj.blocking is not None
        if not {"attacking": attacking, "blocking": blocking,
                "in_combat": attacking or blocking}[f.combat]:
            return False
    if f.toughness_below_source_power and (
            source is None or toughness(game, obj) >= power(game, source)):
        return False
    if f.controller == "you" and obj.controller != chooser:
        return False
    if f.controller == "not_you" and obj.controller == chooser:
        return False
    if f.controller == "event_player" and obj.controller != f.player:
        return False
    return not (f.controller == "opponent" and (
        obj.controller == chooser or not game.are_opponents(chooser, obj.controller)))
