"""How many times an activated ability has been activated this turn ("If this ability has been
activated four or more times this turn, ..."). Counted as it is activated (CR 602.2), so an
activation that is later countered still counts, and kept on the object: a permanent that
leaves and comes back is a new object whose count starts again (CR 400.7). The ability's
source as last known on the stack shares the count, so it is read even after the source left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import Obj

if TYPE_CHECKING:
    from .game import Game


def record(game: Game, obj: Obj, index: int) -> None:
    """``obj``'s ability ``index`` is being activated now."""
    # Counts of earlier turns are never read again: drop them so the record stays small.
    for key in [k for k in obj.activated if k[0] != game.turn]:
        del obj.activated[key]
    key = (game.turn, index)
    obj.activated[key] = obj.activated.get(key, 0) + 1


def this_turn(game: Game, obj: Obj, index: int) -> int:
    return obj.activated.get((game.turn, index), 0)
