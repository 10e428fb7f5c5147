"""Effects that move cards between a library or graveyards and elsewhere, beyond the basic
ones in :mod:`resolve`: a search that puts the found card on top of the library, "put all
creature cards from all graveyards onto the battlefield", "put target creature on top of its
owner's library" and "put target creature card from a graveyard onto the battlefield". One
handler per effect type, which :mod:`resolve` registers with its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import PutOntoBattlefield, PutOnTopOfLibrary, SearchToTop
from .state import BATTLEFIELD, COMMAND, GRAVEYARD, LIBRARY, Action, Obj

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
    SearchToTop: _search_to_top,
    PutOnTopOfLibrary: _on_top, PutOntoBattlefield: _onto_battlefield,
}
