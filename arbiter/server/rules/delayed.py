"""Delayed triggered abilities (CR 603.7): an effect creates one as it resolves; it waits in
``game.delayed_triggers`` until its event next happens, triggers once (603.7b) and is gone.
Its source is the source of the ability that made it and its controller that ability's
controller (603.7e); an object it names that has changed zones since is a new object it no
longer affects (603.7c), which references to the source already respect."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .cards.vocab import Delayed, Triggered
from .state import STACK, Obj

if TYPE_CHECKING:
    from .resolve import Ctx


def _create(ctx: Ctx, e: Delayed) -> None:
    g = ctx.game
    ability = Triggered(e.event, e.effects, text=e.text)
    # Index -3: no ability of the card's own, so it is never taken for one of them.
    g.delayed_triggers.append(Obj(oid=0, defn=ctx.source.defn, owner=ctx.controller,
                                  controller=ctx.controller, zone=STACK, zone_owner=None,
                                  ability=ability, ability_index=-3, source=ctx.source))


DELAYED_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {Delayed: _create}
