"""Effects that move cards between graveyards and elsewhere, beyond the basic ones in
:mod:`resolve`: "put all creature cards from all graveyards onto the battlefield". One handler
per effect type, which :mod:`resolve` registers with its own. (Searches, including "then
shuffle and put that card on top", are :mod:`libraries`.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import ReturnAllFromGraveyards
from .state import GRAVEYARD

if TYPE_CHECKING:
    from collections.abc import Callable

    from .resolve import Ctx


def _return_all(ctx: Ctx, e: ReturnAllFromGraveyards) -> None:
    """Every matching card in every graveyard, together, onto the battlefield under the
    controller's control (CR 110.2a: a permanent enters under the control of the player the
    effect says)."""
    g = ctx.game
    cards = [o for p in g.players_in_game() for o in list(g.zone(GRAVEYARD, p))
             if e.filter.matches(o.defn)]
    for card in cards:
        if card.oid in g.objects and card.zone == GRAVEYARD:
            new = g.put_onto_battlefield(card, ctx.controller, cause="effect")
            if new is not None:
                g.say(f"{new.name} enters the battlefield under {g.name(ctx.controller)}'s "
                      "control.")


CARD_MOVE_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    ReturnAllFromGraveyards: _return_all,
}
