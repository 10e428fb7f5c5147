"""What the effects that create replacement and prevention shields do as they resolve
(CR 614, 615, 701.15): regeneration shields, "prevent all damage that would be dealt to you and
creatures you control", and redirecting damage from a source of your choice. One handler per
effect type, as in :mod:`resolve`, which registers these with its own. The shields themselves
are applied by damage.py and replacement.py as the events they watch for would happen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import PreventAllDamageTo, RedirectFromChosenSource, Regenerate
from .casting import describe_ref
from .replacement import regenerate
from .state import BATTLEFIELD, Action, Continuous, Obj

if TYPE_CHECKING:
    from collections.abc import Callable

    from .game import Flow
    from .resolve import Ctx


def _regenerate(ctx: Ctx, e: Regenerate) -> None:
    g = ctx.game
    for o in ctx.objects(e.what):
        if o.zone == BATTLEFIELD:
            regenerate(g, o, ctx.controller)
            g.say(f"{o.name} will regenerate the next time it would be destroyed this turn.")


def _prevent_all_to(ctx: Ctx, e: PreventAllDamageTo) -> None:
    g = ctx.game
    for p in ctx.players(e.who):
        g.table.timestamp += 1
        g.effects.append(Continuous("prevent_all_to", ctx.controller, g.table.timestamp,
                                    "until_end_of_turn", player=p))
        g.say(f"All damage that would be dealt to {g.name(p)} and creatures they control "
              "this turn will be prevented.")


def _sources(ctx: Ctx) -> list[Obj]:
    """The sources a player may choose (CR 609.7a): permanents on the battlefield and spells on
    the stack, other than the resolving spell itself."""
    g = ctx.game
    return [o for o in (*g.permanents(), *g.stack_objects())
            if o is not ctx.obj and not o.is_ability]


def _redirect_from_source(ctx: Ctx, e: RedirectFromChosenSource) -> Flow:
    g = ctx.game
    dest = ctx.targets[0] if ctx.targets else None
    if dest is None:
        return

    def build() -> list[Action]:
        return [Action(i, "choose_source", f"{o.name} (#{o.oid})", obj=o.oid)
                for i, o in enumerate(_sources(ctx))]

    answer = yield from ctx.choose(ctx.controller, "choose_source",
                                   "Choose a source whose damage is redirected", build)
    if answer is None or answer.obj not in g.objects:
        return
    source = g.objects[answer.obj]
    g.table.timestamp += 1
    g.effects.append(Continuous("redirect_from_source", ctx.controller, g.table.timestamp,
                                "until_end_of_turn", affected=source.oid, player=ctx.controller,
                                amount=e.amount, redirect_to=dest))
    g.say(f"The next {e.amount} damage {source.name} would deal to {g.name(ctx.controller)} "
          f"or their permanents this turn will be dealt to {describe_ref(g, dest)} instead.")


REPLACEMENT_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    Regenerate: _regenerate, PreventAllDamageTo: _prevent_all_to,
    RedirectFromChosenSource: _redirect_from_source,
}
