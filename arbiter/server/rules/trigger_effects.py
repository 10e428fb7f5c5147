"""What the effects of the core set's triggered abilities do: a creature held down through
its controller's next untap step, a random destruction among
targets, and making a delayed triggered ability (CR 603.7). One handler per effect type, as
in :mod:`resolve`, which registers these with its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import (
    INDEFINITELY,
    DestroyOneAtRandom,
    DoesntUntap,
)
from .keywords import destroy
from .state import BATTLEFIELD, Continuous

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from .game import Game
    from .resolve import Ctx


def _doesnt_untap(ctx: Ctx, e: DoesntUntap) -> None:
    g = ctx.game
    for o in ctx.objects(e.what):
        if o.zone != BATTLEFIELD:
            continue
        g.table.timestamp += 1
        g.effects.append(Continuous("no_untap", ctx.controller, g.table.timestamp,
                                    INDEFINITELY, affected=o.oid))
        g.say(f"{o.name} doesn't untap during its controller's next untap step.")


def held_down(game: Game, untappers: Collection[int]) -> set[int]:
    """The permanents that don't untap in this untap step (CR 502.3): those with a "doesn't
    untap during its controller's next untap step" effect whose controller is untapping now,
    or "during that player's next untap step" (Sleep: the effect names the player) whose
    player is. This is that next untap step, so those effects end (tapped or not, the step
    has come)."""
    held = [e for e in game.effects if e.kind == "no_untap"]
    if not held:
        return set()
    objects = game.objects
    due = [e for e in held if (e.player if e.player is not None else
                               objects[e.affected].controller
                               if e.affected in objects else None) in untappers]
    if due:
        game.effects = [e for e in game.effects if not any(e is d for d in due)]
    return {e.affected for e in due if e.affected is not None}


def _destroy_one_at_random(ctx: Ctx, e: DestroyOneAtRandom) -> None:
    """Only the targets still legal are in the draw (CR 608.2b: the illegal ones are not
    affected)."""
    g = ctx.game
    found = (g.objects.get(r[1]) for r in ctx.refs(e.what) if r[0] == "o")
    among = [o for o in found if o is not None and o.zone == BATTLEFIELD]
    if not among:
        return
    doomed = among[g.rng.below(len(among))]
    g.say(f"{doomed.name} is chosen at random.")
    if destroy(g, doomed):
        g.say(f"{doomed.name} is destroyed.")
    else:
        g.say(f"{doomed.name} is indestructible and is not destroyed.")


TRIGGER_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    DoesntUntap: _doesnt_untap,
    DestroyOneAtRandom: _destroy_one_at_random,
}
