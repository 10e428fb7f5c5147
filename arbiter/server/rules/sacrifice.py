"""Sacrificing (CR 701.17): a permanent's controller moves it from the battlefield to its
owner's graveyard. It is not destroyed, so neither indestructible nor what replaces destruction
(regeneration) applies. Three ways to it: the ``Sacrifice`` effect (a resolving ability
sacrifices what it names), the ``SacrificeOne`` effect (players sacrifice a permanent of a
kind of their choice as it resolves), and costs that sacrifice a permanent of a kind
("Sacrifice a creature", "Sacrifice a Goblin"), chosen as the cost is paid (CR 601.2h by way
of 602.2b)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .cards.vocab import CARD_TYPES, Sacrifice, SacrificeOne
from .characteristics import card_types, is_type, power, subtypes
from .state import BATTLEFIELD, GRAVEYARD, REFRESH, Action, Decision, Obj

if TYPE_CHECKING:
    from .game import Flow, Game
    from .resolve import Ctx


def _sacrifice(ctx: Ctx, e: Sacrifice) -> None:
    g = ctx.game
    for o in ctx.objects(e.what):
        # CR 701.17a: only a permanent, and only one the ability's controller controls.
        if o.zone == BATTLEFIELD and o.controller == ctx.controller:
            g.move(o, GRAVEYARD, cause="sacrifice")
            g.say(f"{g.name(ctx.controller)} sacrifices {o.name}.")


def _sacrifice_one(ctx: Ctx, e: SacrificeOne) -> Flow:
    """Each player of ``who`` chooses in APNAP order, then all sacrifice at once (CR 101.4)."""
    g = ctx.game
    who = ctx.players(e.who)
    what = "permanent" if len(e.types) != 1 else next(iter(e.types)).lower()
    picks: list[tuple[int, Obj]] = []
    for p in [q for q in g.apnap() if q in who]:
        def build(p: int = p) -> list[Action]:
            mine = [o for o in g.permanents() if o.controller == p and card_types(g, o) & e.types
                    and not (e.other and o.oid == ctx.source.oid)]
            return [Action(i, "choose_card", f"Sacrifice {o.name}", obj=o.oid)
                    for i, o in enumerate(mine)]

        answer = yield from ctx.choose(
            p, "sacrifice", f"{ctx.source.name}: choose a {what} to sacrifice", build)
        if answer is not None and answer.obj in g.objects:
            picks.append((p, g.objects[answer.obj]))
    picks = [(p, o) for p, o in picks if o.zone == BATTLEFIELD]
    if not picks:
        yield from ctx.run(e.otherwise)
        return
    if e.remember:  # as it last existed (CR 608.2h)
        ctx.memory[e.remember] = sum(max(power(g, o), 0) for _, o in picks)
    for p, o in picks:
        g.move(o, GRAVEYARD, cause="sacrifice")
        g.say(f"{g.name(p)} sacrifices {o.name}.")
    yield from ctx.run(e.then)


SACRIFICE_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    Sacrifice: _sacrifice, SacrificeOne: _sacrifice_one}


def candidates(game: Game, pid: int, kind: str) -> list[Obj]:
    """The permanents ``pid`` could sacrifice for "Sacrifice a [kind]": ``kind`` is a card type
    ("Creature") or a subtype ("Goblin"), read through the layers (a creature made a Goblin by
    an effect counts); the source itself included."""
    if kind in CARD_TYPES:
        return [o for o in game.permanents() if o.controller == pid and is_type(game, o, kind)]
    return [o for o in game.permanents() if o.controller == pid and kind in subtypes(game, o)]


def pay_sacrifice(game: Game, pid: int, kind: str, source: Obj) -> Flow:
    """Pay "Sacrifice a [kind]" for an ability of ``source``: the player picks which as they
    pay (a ``sacrifice`` decision), then sacrifices it. False when they could not (nothing left
    to sacrifice, or they left the game), so the activation is undone."""
    what = kind.lower() if kind in CARD_TYPES else kind
    while game.in_game(pid):
        options = candidates(game, pid, kind)
        if not options:
            return False
        actions = [Action(i, "choose_card", f"Sacrifice {o.name}", obj=o.oid)
                   for i, o in enumerate(options)]
        answer = yield Decision("sacrifice", pid, f"Choose a {what} to sacrifice for "
                                f"{source.name}", actions)
        if answer is REFRESH or answer.obj not in game.objects:
            continue
        victim = game.objects[answer.obj]
        game.move(victim, GRAVEYARD, cause="sacrifice")
        game.say(f"{game.name(pid)} sacrifices {victim.name}.")
        return True
    return False
