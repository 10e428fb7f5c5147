"""Cards in hidden zones that static abilities keep revealed (CR 400.2: a hand or library stays
a hidden zone even when its cards are revealed; 701.16a: a revealed card is shown to every
player).

Two statics do this: "your opponents play with their hands revealed" and "play with the top
card of your library revealed". Both are global statics, so their sources are in
:attr:`Game.global_sources` and a game without them pays one truth test. ``Game.revealed`` is
the set of hidden objects the views were last told are revealed; :func:`settle` recomputes it
before each decision and marks the objects whose visibility changed, so the views follow
the card that is on top now, or a hand that stops being revealed when its source leaves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import OpponentsPlayWithHandsRevealed, PlayWithTopCardRevealed
from .state import Obj

if TYPE_CHECKING:
    from .game import Game


def top_card(game: Game, pid: int) -> Obj | None:
    """The top card of ``pid``'s library (the end of its list), if any."""
    lib = game.library(pid)
    return lib[-1] if lib else None


def top_card_is(game: Game, pid: int, color: str) -> bool:
    """Is the top card of ``pid``'s library of ``color``? A card in a library has its printed
    colours (CR 105.2, nothing in the layers reaches a library)."""
    top = top_card(game, pid)
    return top is not None and color in top.defn.colors


def shown(game: Game) -> frozenset[int]:
    """Every object in a hand or library that a static ability reveals right now."""
    out: set[int] = set()
    for src in game.global_sources:
        statics = src.defn.reveal_statics
        if not statics or src.phased_out or not game.in_game(src.controller):
            continue
        for st in statics:
            if isinstance(st, OpponentsPlayWithHandsRevealed):
                for p in game.opponents(src.controller):
                    out.update(o.oid for o in game.hand(p))
            elif isinstance(st, PlayWithTopCardRevealed):
                top = top_card(game, src.controller)
                if top is not None:
                    out.add(top.oid)
    return frozenset(out)


def settle(game: Game) -> None:
    """Before a decision is shown: bring ``game.revealed`` up to date and mark every object
    that became revealed or stopped being revealed, for the views."""
    if not (game.global_sources or game.revealed):
        return
    now = shown(game)
    if now == game.revealed:
        return
    for oid in now ^ game.revealed:
        if oid in game.objects:
            game.dirty.add(oid)
    game.revealed = now
