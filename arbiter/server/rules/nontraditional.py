"""Where nontraditional cards go as a game is set up, as a subgame begins and ends, and as a
game restarts (CR 103.3a, 724.2, 726.2a-b, 726.5a-b).

Planes and phenomena form their owner's planar deck, schemes their owner's scheme deck (both
face-down piles of the command zone, CR 901.4, 904.4) and a vanguard sits face up in the
command zone (CR 902.3). A card keeps this home wherever it goes: a restart deals every card the
old game held, nontraditional ones included, back to it (CR 724.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import SCHEME, VANGUARD, CardDef
from .state import COMMAND, PILES, PLANAR_DECK, SCHEME_DECK

if TYPE_CHECKING:
    from .game import Game


def home(defn: CardDef) -> str | None:
    """The zone a nontraditional card is dealt to, or None for a traditional card."""
    if defn.planar:
        return PLANAR_DECK
    if defn.is_(SCHEME):
        return SCHEME_DECK
    if defn.is_(VANGUARD):
        return COMMAND
    return None


def shuffle_decks(game: Game, pid: int) -> None:
    """CR 103.3a: each supplementary deck's owner shuffles it."""
    for pile in PILES:
        cards = game.zone(pile, pid)
        if len(cards) > 1:
            game.rng.shuffle(cards)


def into_subgame(parent: Game, sub: Game, players: list[int]) -> None:
    """CR 726.2a: each participant's supplementary decks move to the subgame's command zone and
    are shuffled (face-up cards stay in the main game); CR 726.2b: each participant's vanguard
    goes with them."""
    for p in players:
        for pile in PILES:
            for obj in list(parent.zone(pile, p)):
                assert obj.card is not None
                parent.remove_object(obj)
                sub.new_object(obj.defn, p, p, pile, card=obj.card)
        shuffle_decks(sub, p)
    for obj in list(parent.command):
        if obj.defn.is_(VANGUARD) and obj.owner in players and obj.card is not None:
            parent.remove_object(obj)
            sub.new_object(obj.defn, obj.owner, obj.owner, COMMAND, card=obj.card)


def back_from_subgame(parent: Game, owners: set[int]) -> None:
    """CR 726.5a: the supplementary decks that came back are shuffled."""
    for p in sorted(owners):
        shuffle_decks(parent, p)
