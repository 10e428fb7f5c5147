"""Does an event match a trigger condition (CR 603.2)? The trigger events of the core set:
what a player does (casts a spell of a colour, discards, draws, gains life, taps a land for
mana), a source dealing damage to an opponent, a creature attacking, blocking or becoming
blocked. triggers.py asks here for these and keeps the rest.

``who`` is always relative to the controller of the trigger's source: "any" player, "you",
or "opponent" (a player who is an opponent of yours, CR 102.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import (
    DISCARDS,
    DRAWS,
    GAINS_LIFE,
    TAPS_LAND_FOR_MANA,
    Attacks,
    Blocks,
    DealsDamage,
    PlayerCastsSpell,
    PlayerDoes,
)
from .characteristics import colors
from .state import Obj

if TYPE_CHECKING:
    from .game import Game

CORE_EVENTS = (PlayerCastsSpell, PlayerDoes, DealsDamage, Attacks, Blocks)


def whose(game: Game, src: Obj, who: str, player: int) -> bool:
    if who == "you":
        return player == src.controller
    if who == "opponent":
        return game.are_opponents(src.controller, player)
    return True


def matches(game: Game, src: Obj, ev: object, kind: str, data: dict[str, Any],
            obj: Obj | None) -> bool:
    if isinstance(ev, PlayerCastsSpell):
        # CR 601.2i: it triggers once the spell is cast; its colours are those it has on the
        # stack (CR 105.2).
        return (kind == "cast" and obj is not None and whose(game, src, ev.who, data["player"])
                and (not ev.types or bool(obj.defn.types & ev.types))
                and (not ev.colors or bool(colors(game, obj) & ev.colors)))
    if isinstance(ev, PlayerDoes):
        return kind == ev.action and whose(game, src, ev.who, data["player"])
    if isinstance(ev, DealsDamage):
        if kind != "damage" or data["source"].oid != src.oid or data["target"][0] != "p":
            return False
        return ev.to == "player" or game.are_opponents(src.controller, data["target"][1])
    if isinstance(ev, Attacks):
        return kind == "attacks" and obj is src
    if isinstance(ev, Blocks):
        return kind == "blocks" and (obj is src or (ev.or_blocked and data["attacker"] is src))
    return False


def block_partner(source: Obj, event: dict[str, Any]) -> Obj | None:
    """"That creature" of a block trigger: the attacker for the blocker's, and the blocker
    for the attacker's."""
    blocker, attacker = event.get("obj"), event.get("attacker")
    if not isinstance(blocker, Obj) or not isinstance(attacker, Obj):
        return None
    return attacker if blocker.oid == source.oid else blocker


def event_players(kind: str, data: dict[str, Any]) -> list[int] | None:
    """The players an event of this module involves, for range of influence (CR 801.7), or
    None for the other kinds."""
    if kind in (DISCARDS, DRAWS, GAINS_LIFE, TAPS_LAND_FOR_MANA):
        return [data["player"]]
    if kind == "blocks":
        return [data["obj"].controller, data["attacker"].controller]
    return None
