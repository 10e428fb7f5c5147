"""Resolving effects that restrict or require what players and creatures do (CR 611.2): "can't
block this turn", "can't be blocked this turn", "attacks you this turn if able", "your opponents
can't cast spells this turn", and "tap ... they don't untap during that player's next untap
step". Each becomes a :class:`~.state.Continuous` the rule it changes reads: combat.py through
requirements.py and keywords.py, casting.py through :func:`may_cast_spells`, the untap step
through ``trigger_effects.held_down`` (a "no_untap" effect naming the player).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .cards.vocab import (
    ATTACKS_YOU,
    INDEFINITELY,
    UNTIL_END_OF_TURN,
    InCombatThisTurn,
    OpponentsCantCastThisTurn,
    TapCreaturesOf,
)
from .characteristics import is_type
from .state import Continuous, Obj

if TYPE_CHECKING:
    from .game import Game
    from .resolve import Ctx


def _record(ctx: Ctx, kind: str, obj: Obj | None, *, player: int | None = None,
            duration: str = UNTIL_END_OF_TURN) -> None:
    g = ctx.game
    g.table.timestamp += 1
    g.effects.append(Continuous(kind, ctx.controller, g.table.timestamp, duration,
                                affected=obj.oid if obj is not None else None, player=player))
    if obj is not None:
        g.touch(obj)


def _in_combat(ctx: Ctx, e: InCombatThisTurn) -> None:
    """The effect's kind is its rule; "attacks you" remembers who "you" is (CR 508.1d)."""
    for o in ctx.objects(e.what):
        _record(ctx, e.rule, o, player=ctx.controller if e.rule == ATTACKS_YOU else None)


def _opponents_cant_cast(ctx: Ctx, e: OpponentsCantCastThisTurn) -> None:
    _record(ctx, "cant_cast", None)


def _tap_creatures_of(ctx: Ctx, e: TapCreaturesOf) -> None:
    g = ctx.game
    for pid in ctx.players(e.who):
        for o in [o for o in g.battlefield if o.controller == pid and not o.phased_out
                  and is_type(g, o, "Creature")]:
            g.set_tapped(o, True)
            if e.skip_next_untap:  # ends with that player's next untap step (flow.py)
                # "that player's next untap step": the effect names the player.
                _record(ctx, "no_untap", o, player=pid, duration=INDEFINITELY)


RESTRICTION_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    InCombatThisTurn: _in_combat, OpponentsCantCastThisTurn: _opponents_cant_cast,
    TapCreaturesOf: _tap_creatures_of,
}


def may_cast_spells(game: Game, pid: int) -> bool:
    """No "your opponents can't cast spells this turn" applies to ``pid`` (CR 101.2)."""
    return not any(e.kind == "cant_cast" and game.are_opponents(e.controller, pid)
                   for e in game.effects)

