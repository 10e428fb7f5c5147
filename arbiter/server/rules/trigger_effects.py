"""What the effects of the core set's triggered abilities do: a creature held down through
its controller's next untap step, a sacrifice with a fallback, a random destruction among
targets, and making a delayed triggered ability (CR 603.7). One handler per effect type, as
in :mod:`resolve`, which registers these with its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import (
    INDEFINITELY,
    DelayedTrigger,
    DestroyOneAtRandom,
    DoesntUntap,
    SacrificeCreature,
    Triggered,
)
from .characteristics import power
from .keywords import destroy
from .state import BATTLEFIELD, GRAVEYARD, Action, Continuous, Obj

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from .game import Flow, Game
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
    untap during its controller's next untap step" effect whose controller is untapping now.
    This is that next untap step, so those effects end (tapped or not, the step has come)."""
    held = {e.affected for e in game.effects if e.kind == "no_untap"}
    if not held:
        return set()
    now = {o.oid for o in game.battlefield if o.oid in held and o.controller in untappers}
    if now:
        game.effects = [e for e in game.effects
                        if not (e.kind == "no_untap" and e.affected in now)]
    return now


def _sacrifice(ctx: Ctx, e: SacrificeCreature) -> Flow:
    """The controller chooses one of their creatures (another than the source, with
    ``other``) and sacrifices it (CR 701.17a); with none to sacrifice, ``otherwise``."""
    g = ctx.game
    me = ctx.controller

    def candidates() -> list[Obj]:
        return [o for o in g.creatures() if o.controller == me
                and not (e.other and o.oid == ctx.source.oid)]

    answer = yield from ctx.choose(
        me, "sacrifice", f"{ctx.source.name}: choose a creature to sacrifice",
        lambda: [Action(i, "choose_card", f"Sacrifice {o.name}", obj=o.oid)
                 for i, o in enumerate(candidates())])
    victim = g.objects.get(answer.obj) if answer is not None and answer.obj is not None \
        else None
    if victim is None or victim.zone != BATTLEFIELD:
        yield from ctx.run(e.otherwise)
        return
    if e.remember:
        ctx.memory[e.remember] = max(power(g, victim), 0)  # as it last existed (CR 608.2h)
    g.move(victim, GRAVEYARD, cause="sacrifice")
    g.say(f"{g.name(me)} sacrifices {victim.name}.")
    yield from ctx.run(e.then)


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


def _delayed(ctx: Ctx, e: DelayedTrigger) -> None:
    """CR 603.7a: made as the ability resolves, with its source and controller (603.7e), it
    waits among the continuous effects until its event (triggers.py puts it on the stack)."""
    g = ctx.game
    for o in ctx.objects(e.about):
        g.table.timestamp += 1
        g.effects.append(Continuous(
            "delayed", ctx.controller, g.table.timestamp, INDEFINITELY, affected=o.oid,
            trigger=Triggered(e.event, e.effects, text=e.text), source=ctx.source))


TRIGGER_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    DoesntUntap: _doesnt_untap, SacrificeCreature: _sacrifice,
    DestroyOneAtRandom: _destroy_one_at_random, DelayedTrigger: _delayed,
}
