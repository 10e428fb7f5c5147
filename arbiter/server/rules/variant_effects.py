"""What the effects of the variants' cards do: planes and phenomena (CR 901), schemes
(CR 904) and vanguards (CR 902). One handler per effect type, as in :mod:`resolve`, which
registers these with its own; a handler reaches the resolving ability's references, choices
and nested effects through its :class:`~arbiter.server.rules.resolve.Ctx`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import archenemy, planechase
from .cards.vocab import (
    FOR_THE_GAME,
    UNTIL_END_OF_TURN,
    UNTIL_YOUR_NEXT_TURN,
    Abandon,
    AddMana,
    BlankRollsAreChaos,
    DestroyAll,
    Discard,
    DiscardHand,
    May,
    NoMaximumHandSize,
    OpponentChoosesSelfOrOthers,
    Planeswalk,
    Pump,
    ShuffleHandAndGraveyardIntoLibrary,
    Target,
)
from .characteristics import card_types, is_type
from .keywords import destroy
from .state import GRAVEYARD, LIBRARY, Action, Continuous

if TYPE_CHECKING:
    from collections.abc import Callable

    from .game import Flow
    from .resolve import Ctx


def _may(ctx: Ctx, e: May) -> Flow:
    """"You may ..." / "that player may ...": the player named is asked as it resolves."""
    g = ctx.game
    who = ctx.players(e.who)
    if not who:
        return
    pid = who[0]
    prompt = e.prompt or f"{ctx.source.name}: do it?"
    answer = yield from ctx.choose(pid, "may", prompt,
                               lambda: [Action(0, "yes", "Yes"), Action(1, "no", "No")])
    if answer is not None and answer.kind == "yes" and g.in_game(pid):
        yield from ctx.run(e.effects)
    else:
        g.say(f"{g.name(pid)} declines.")


def _add_mana(ctx: Ctx, e: AddMana) -> None:
    g = ctx.game
    for color in e.mana:
        g.add_mana(ctx.controller, color)
    g.say(f"{g.name(ctx.controller)} adds {''.join('{' + c + '}' for c in e.mana)}.")


def _destroy_all(ctx: Ctx, e: DestroyAll) -> None:
    g = ctx.game
    whose = None if e.whose is None else set(ctx.players(e.whose))
    if whose is not None and not whose:
        return
    # Types as layer 4 leaves them: an animated land is a creature, an enchantment that
    # became a creature is still an enchantment.
    doomed = [o for o in g.permanents()
              if (not e.types or card_types(g, o) & e.types)
              and not (e.nonland and is_type(g, o, "Land"))
              and (whose is None or o.controller in whose)
              and (ctx.unlimited or g.obj_in_range(ctx.controller, o))]
    # At the same time: each is gone as the others are destroyed; indestructible ones stay
    # (CR 702.12b).
    doomed = [o for o in doomed if o.oid in g.objects and destroy(g, o)]
    if doomed:
        g.say(f"{', '.join(o.name for o in doomed)} {'is' if len(doomed) == 1 else 'are'} "
              "destroyed.")


def _discard(ctx: Ctx, e: Discard) -> Flow:
    """Each player named discards ``amount`` cards of their choice, one choice at a time, or
    at random: each card picked by the game's seeded generator (CR 701.9b)."""
    g = ctx.game
    for p in ctx.players(e.who):
        for _ in range(ctx.amount(e.amount)):
            if e.at_random:
                if not g.hand(p):
                    break
                g.discard(g.rng.choice(list(g.hand(p))), how=" at random")
                continue
            def build(p: int = p) -> list[Action]:
                seen: dict[str, int] = {}
                for o in g.hand(p):
                    seen.setdefault(o.name, o.oid)
                return [Action(i, "discard", f"Discard {name}", obj=oid)
                        for i, (name, oid) in enumerate(seen.items())]

            answer = yield from ctx.choose(p, "discard", "Discard a card", build)
            if answer is None or answer.obj not in g.objects:
                break
            g.discard(g.objects[answer.obj])


def _discard_hand(ctx: Ctx, e: DiscardHand) -> None:
    g = ctx.game
    for p in ctx.players(e.who):
        cards = list(g.hand(p))
        for o in cards:
            g.move(o, GRAVEYARD, cause="discard")
        g.say(f"{g.name(p)} discards their hand ({len(cards)} cards).")


def _shuffle_in(ctx: Ctx, e: ShuffleHandAndGraveyardIntoLibrary) -> None:
    g = ctx.game
    for p in ctx.players(e.who):
        for o in [*g.hand(p), *g.graveyard(p)]:
            g.move(o, LIBRARY, cause="shuffle")
        g.shuffle(p)
        g.touch_player(p)
        g.say(f"{g.name(p)} shuffles their hand and graveyard into their library.")


def _no_maximum_hand_size(ctx: Ctx, e: NoMaximumHandSize) -> None:
    g = ctx.game
    for p in ctx.players(e.who):
        if e.duration == FOR_THE_GAME:
            g.players[p].no_max_hand = True
        else:
            g.table.timestamp += 1
            g.effects.append(Continuous(
                "no_max_hand", ctx.controller, g.table.timestamp, e.duration, player=p,
                expires_turn_of=ctx.controller if e.duration == UNTIL_YOUR_NEXT_TURN else None))
        g.touch_player(p)
        g.say(f"{g.name(p)} has no maximum hand size"
              f"{' for the rest of the game' if e.duration == FOR_THE_GAME else ''}.")


def _pump(ctx: Ctx, e: Pump) -> None:
    g = ctx.game
    for o in ctx.objects(e.what):
        g.table.timestamp += 1
        g.effects.append(Continuous("pt", ctx.controller, g.table.timestamp, UNTIL_END_OF_TURN,
                                    affected=o.oid, power=e.power, toughness=e.toughness))
        g.touch(o)


def _self_or_others(ctx: Ctx, e: OpponentChoosesSelfOrOthers) -> Flow:
    """The target opponent chooses "self" or "others"; the chosen half happens."""
    g = ctx.game
    chooser = ctx.players(Target(0))
    if not chooser:
        return
    pid = chooser[0]
    answer = yield from ctx.choose(
        pid, "self_or_others", f"{ctx.source.name}: choose self or others",
        lambda: [Action(0, "self", "Self"), Action(1, "others", "Others")])
    if answer is None:
        return
    g.say(f"{g.name(pid)} chooses {answer.label.lower()}.")
    yield from ctx.run(e.self_effects if answer.kind == "self" else e.others_effects)


def _planeswalk(ctx: Ctx, e: Planeswalk) -> None:
    planechase.planeswalk(ctx.game)


def _blank_chaos(ctx: Ctx, e: BlankRollsAreChaos) -> None:
    planechase.blank_rolls_are_chaos(ctx.game, ctx.controller)
    ctx.game.say("Until a player planeswalks away from a plane, blank rolls of the planar die "
                 "are chaos rolls.")


def _abandon(ctx: Ctx, e: Abandon) -> None:
    archenemy.abandon(ctx.game, ctx.source)


VARIANT_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    May: _may, AddMana: _add_mana, DestroyAll: _destroy_all,
    Discard: _discard, DiscardHand: _discard_hand, ShuffleHandAndGraveyardIntoLibrary: _shuffle_in,
    NoMaximumHandSize: _no_maximum_hand_size, Pump: _pump,
    OpponentChoosesSelfOrOthers: _self_or_others, Planeswalk: _planeswalk,
    BlankRollsAreChaos: _blank_chaos, Abandon: _abandon,
}
