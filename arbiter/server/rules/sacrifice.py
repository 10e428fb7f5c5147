"""Sacrificing (CR 701.17): a permanent's controller moves it from the battlefield to its
owner's graveyard. It is not destroyed, so nothing that replaces destruction applies."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .cards.vocab import Sacrifice
from .state import BATTLEFIELD, GRAVEYARD

if TYPE_CHECKING:
    from .resolve import Ctx


def _sacrifice(ctx: Ctx, e: Sacrifice) -> None:
    g = ctx.game
    for o in ctx.objects(e.what):
        # CR 701.17a: only a permanent, and only one the ability's controller controls.
        if o.zone == BATTLEFIELD and o.controller == ctx.controller:
            g.move(o, GRAVEYARD, cause="sacrifice")
            g.say(f"{g.name(ctx.controller)} sacrifices {o.name}.")


SACRIFICE_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {Sacrifice: _sacrifice}
