"""Playing a card as a spell or ability resolves, without paying its mana cost (CR 118.9):
"Reveal the top card of your library. You may play that card without paying its mana cost. If
you don't, exile it." The card is cast then and there, whatever its type's timing would be
(CR 608.2g: instructions are followed as the ability resolves); a land is played only as a
land play of its turn allows (CR 305.2, 305.3: your turn, a land drop left).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import PlayTopCardFree
from .casting import cast_spell, play_land
from .state import EXILE, Action

if TYPE_CHECKING:
    from collections.abc import Callable

    from .game import Flow
    from .resolve import Ctx


def _play_top_card_free(ctx: Ctx, e: PlayTopCardFree) -> Flow:
    g = ctx.game
    pid = ctx.controller
    library = g.library(pid)
    if not library:
        return
    card = library[-1]
    g.say(f"{g.name(pid)} reveals {card.name} from the top of their library.", "reveal",
          player=pid, card=card.name)
    land = card.defn.is_("Land")
    playable = (g.is_active(pid) and g.lands_played.get(pid, 0) < 1) if land else True

    def build() -> list[Action]:
        play = [("yes", f"Play {card.name} without paying its mana cost")] if playable else []
        return [Action(i, kind, label)
                for i, (kind, label) in enumerate([*play, ("no", f"Exile {card.name}")])]

    answer = yield from ctx.choose(pid, "may", f"Play {card.name} without paying its mana "
                                   "cost?", build)
    if answer is not None and answer.kind == "yes" and card.oid in g.objects:
        if land:
            play_land(g, pid, card)
        else:
            yield from cast_spell(g, pid, card, free=True)
    # "If you don't, exile it": not played, or a cast that couldn't be finished (no legal
    # target), which put the card back where it was, as a new object (400.7).
    left = next((o for o in g.library(pid) if o.card is card.card), None)
    if left is not None:
        g.move(left, EXILE, cause="effect")
        g.say(f"{card.name} is exiled.")


FREE_PLAY_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    PlayTopCardFree: _play_top_card_free,
}
