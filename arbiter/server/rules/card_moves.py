"""Effects that move cards between a library or graveyards and elsewhere, beyond the basic
ones in :mod:`resolve` (searches are in :mod:`libraries`): "put target creature on top of its
owner's library" and "put target creature card from a graveyard onto the battlefield". One
handler per effect type, which :mod:`resolve` registers with its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import PutOntoBattlefield, PutOnTopOfLibrary
from .state import BATTLEFIELD, COMMAND, GRAVEYARD, LIBRARY

if TYPE_CHECKING:
    from collections.abc import Callable

    from .game import Flow
    from .resolve import Ctx


def _on_top(ctx: Ctx, e: PutOnTopOfLibrary) -> Flow:
    g = ctx.game
    for o in ctx.objects(e.what):
        if o.zone != BATTLEFIELD:
            continue
        if o.is_commander and g.config.variant == "commander":
            # CR 903.9b: a commander bound for its owner's library may go to the command zone.
            yes = yield from ctx.commander_replacement(o, "its owner's library")
            if yes and o.oid in g.objects:
                g.move(o, COMMAND, cause="commander")
                continue
        if o.oid not in g.objects:
            continue
        # The top of a library is the end of its list.
        g.move(o, LIBRARY, position=len(g.library(o.owner)), cause="effect")
        g.say(f"{o.name} is put on top of {g.name(o.owner)}'s library.")


def _onto_battlefield(ctx: Ctx, e: PutOntoBattlefield) -> None:
    g = ctx.game
    under = ctx.players(e.under)
    for o in ctx.objects(e.what):
        if o.zone != GRAVEYARD or not under:  # CR 800.4b: nobody to control it
            continue
        new = g.put_onto_battlefield(o, under[0], cause="effect")
        if new is not None:
            ctx.memory["chosen"] = new  # CHOSEN: "that creature", for the effects after this
            g.say(f"{g.name(under[0])} puts {new.name} onto the battlefield from a "
                  "graveyard.")


CARD_MOVE_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    PutOnTopOfLibrary: _on_top, PutOntoBattlefield: _onto_battlefield,
}
