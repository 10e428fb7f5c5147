"""Delayed triggered abilities (CR 603.7): made by a resolving spell or ability, they trigger
once, the next time their event happens, and are then gone (603.7c). ``game.delayed`` holds
them, each as the waiting-trigger object it becomes (its source the object that made it, as it
last existed), until its event comes; only "at the beginning of the next end step" exists so
far.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import AtEndStep, AtNextEndStep, Triggered
from .state import STACK, Obj

if TYPE_CHECKING:
    from collections.abc import Callable

    from .game import Game
    from .resolve import Ctx


def _at_next_end_step(ctx: Ctx, e: AtNextEndStep) -> None:
    g = ctx.game
    ability = Triggered(AtEndStep("each"), e.effects, text="at the beginning of the next "
                        "end step")
    g.delayed.append(Obj(oid=0, defn=ctx.source.defn, owner=ctx.controller,
                         controller=ctx.controller, zone=STACK, zone_owner=None,
                         ability=ability, source=ctx.source))


def check_delayed(game: Game, kind: str, data: dict[str, Any]) -> None:
    """CR 603.7c: a delayed ability triggers the next time its event happens, and only then."""
    if kind != "end_step":
        return
    due, game.delayed = game.delayed, []
    for trig in due:
        trig.event = dict(data)
        game.pending_triggers.append(trig)


DELAYED_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {AtNextEndStep: _at_next_end_step}
