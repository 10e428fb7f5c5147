"""Delayed triggered abilities (CR 603.7): an effect creates one as it resolves ("at the
beginning of the next end step, ..."); it waits in ``game.delayed_triggers`` until its event
next happens, triggers once (603.7b) and is gone; it is gone too when its controller leaves the
game (800.4a). Its source is the source of the ability that made it and its controller that
ability's controller (603.7e). One that names an object ("destroy that creature") finds it only
while it is the same object (603.7c): an object that changed zones since is a new one
(triggers.py fires them)."""

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
    about = [None] if e.about is None else [o.oid for o in ctx.objects(e.about)]
    for oid in about:
        # Index -3: no ability of the card's own, so it is never taken for one of them.
        g.delayed_triggers.append(Obj(oid=0, defn=ctx.source.defn, owner=ctx.controller,
                                      controller=ctx.controller, zone=STACK, zone_owner=None,
                                      ability=ability, ability_index=-3, source=ctx.source,
                                      event={} if oid is None else {"about": oid}))


def event_of(game: Any, waiting: Obj, data: dict[str, Any]) -> dict[str, Any]:
    """The event a delayed ability triggered on, with the object it was made about as the
    event's object: None when that object has left its zone since (603.7c)."""
    about = waiting.event.get("about")
    return dict(data) if about is None else {**data, "obj": game.objects.get(about)}


DELAYED_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {Delayed: _create}
