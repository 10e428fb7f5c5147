"""Effects that move cards between a library or graveyards and elsewhere, beyond the basic
ones in :mod:`resolve`: a search that puts the found card on top of the library, and "put all
creature cards from all graveyards onto the battlefield". One handler per effect type, which
:mod:`resolve` registers with its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import ReturnAllFromGraveyards, SearchToTop
from .state import GRAVEYARD, LIBRARY, Action, Obj

if TYPE_CHECKING:
    from collections.abc import Callable

    from .game import Flow
    from .resolve import Ctx


def _search_to_top(ctx: Ctx, e: SearchToTop) -> Flow:
    """Search your library for a card, shuffle, then put that card on top. A search of a
    hidden zone may find nothing (CR 701.19b): "Find nothing" is always offered, so a bot
    choosing at random always finishes."""
    g, pid = ctx.game, ctx.controller
    library = g.library(pid)

    def build() -> list[Action]:
        seen: dict[str, Obj] = {}
        for o in library:
            if e.filter.matches(o.defn) and o.name not in seen:
                seen[o.name] = o  # identical cards are one choice
        return [Action(0, "choose_none", "Find nothing"),
                *(Action(i + 1, "choose_card", f"Put {name} on top of your library", obj=o.oid)
                  for i, (name, o) in enumerate(sorted(seen.items())))]

    answer = yield from ctx.choose(pid, "search",
                                   f"Search your library for a {e.filter.describe()}", build)
    found = g.objects.get(answer.obj) if answer is not None and answer.kind == "choose_card" \
        else None
    if not g.in_game(pid):
        return
    g.shuffle(pid)
    if found is not None and found.zone == LIBRARY and found.zone_owner == pid:
        # The chosen card stays the same object while it moves within the library (CR 400.7
        # concerns changes of zone): take it out and put it back on top.
        library.remove(found)
        library.append(found)
        g.say(f"{g.name(pid)} searches their library and puts a card on top of it.")
    g.touch_player(pid)


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
    SearchToTop: _search_to_top, ReturnAllFromGraveyards: _return_all,
}
