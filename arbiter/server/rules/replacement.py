"""Replacement and prevention effects (CR 614, 615), and the order several of them are applied
in when they meet one event (CR 616.1).

An effect that watches for an event is offered to it as an :class:`Option`: what it would do
to the event (its ``apply``), said in a label a player can read. :func:`apply_in_order` applies
the options that fit an event one at a time; when two or more fit, the affected player (or the
controller of the affected object) picks which goes first, and after each the rest are looked
at again, since the modified event may no longer be one they apply to (616.1e-f). Each effect
gets one chance at the event (614.5). A caller that cannot ask anyone (a plain function, not a
generator) runs the same flow through :func:`without_choices`, which takes the first option,
the effect with the earliest timestamp.

Regeneration (CR 701.15) is a destruction replacement: :func:`regenerate` creates the shield
and :func:`regenerated` uses one up as a permanent would be destroyed. Shields of one
permanent do the same thing, so which one is used is no choice worth asking (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards.vocab import RegenerateInstead, ShuffleIntoLibraryInstead
from .characteristics import chars_of, is_type, subtypes
from .state import REFRESH, Action, Continuous, Decision, Obj

if TYPE_CHECKING:
    from .game import Flow, Game

REGENERATION = "regenerate"  # the kind of a regeneration shield in ``game.effects``


@dataclass(slots=True)
class Option:
    """One replacement or prevention effect that would modify an event (CR 614.1, 615.1)."""

    key: object  # which effect it is: it applies to an event at most once (CR 614.5)
    label: str
    apply: Callable[[], None]
    spends: bool = False  # applying it uses up a shield (CR 615.7): bots keep those for last


def apply_in_order(game: Game, chooser: int | None, what: str,
                   options: Callable[[], list[Option]]) -> Flow:
    """Apply every option that fits the event, one at a time (CR 616.1). ``options`` lists
    those that would apply to the event as it is now; ``chooser`` picks when several do."""
    used: set[object] = set()
    while True:
        left = [o for o in options() if o.key not in used]
        if not left:
            return
        pick = left[0]
        # Effects that would do the same thing leave nothing to choose (two copies of one
        # card): only a real choice is asked.
        if (len({o.label for o in left}) > 1 and chooser is not None
                and game.in_game(chooser)):
            actions = [Action(i, "replacement", o.label, index=int(o.spends))
                       for i, o in enumerate(left)]
            answer = yield Decision("replacement_order", chooser,
                                    f"Several effects would change {what}: apply which first?",
                                    actions)
            if answer is REFRESH:
                continue  # the game changed meanwhile: look again
            pick = left[answer.id]
        used.add(pick.key)
        pick.apply()


def without_choices(flow: Flow) -> Any:
    """Run ``flow`` where nobody can be asked: each decision takes its first action."""
    try:
        request = next(flow)
        while True:
            if not isinstance(request, Decision):
                raise TypeError(f"{request!r} can't be answered here")
            request = flow.send(request.actions[0])
    except StopIteration as done:
        return done.value


# --------------------------------------------------------------------------- zone changes


def shuffled_in_instead(obj: Obj) -> bool:
    """Would ``obj``, about to be put into a graveyard from anywhere, be shuffled into its
    owner's library instead (CR 614.1a)? The ability works from every zone it says it does."""
    return any(isinstance(st, ShuffleIntoLibraryInstead) for st in obj.defn.statics)


# --------------------------------------------------------------------------- entering


def controls_one_of(game: Game, obj: Obj, land_types: tuple[str, ...]) -> bool:
    """"Unless you control a [land type] or a [land type]", asked as ``obj`` enters (CR 614.12:
    the game as it is then; ``obj`` itself is not one of the lands counted)."""
    wanted = set(land_types)
    return any(o is not obj and o.controller == obj.controller and is_type(game, o, "Land")
               and wanted & set(subtypes(game, o)) for o in game.permanents())


# --------------------------------------------------------------------------- regeneration


def regenerate(game: Game, obj: Obj, controller: int) -> None:
    """CR 701.15a: the next time ``obj`` would be destroyed this turn, it regenerates
    instead. The shield lasts until it is used or the turn ends (the cleanup step)."""
    game.table.timestamp += 1
    game.effects.append(Continuous(REGENERATION, controller, game.table.timestamp,
                                   "until_end_of_turn", affected=obj.oid, amount=1))


def regenerated(game: Game, obj: Obj) -> bool:
    """If a regeneration shield protects ``obj``, use it up and regenerate ``obj`` instead of
    destroying it (CR 701.15a, 614.8): all damage marked on it is removed, its controller taps
    it, and it is removed from combat. Returns whether it regenerated."""
    shield = next((e for e in game.effects if e.kind == REGENERATION
                   and e.affected == obj.oid and e.amount > 0), None)
    if shield is not None:
        shield.amount = 0  # used up: a shield replaces one destruction (701.15a)
    elif not _regenerates_by_itself(game, obj):
        return False
    obj.damage = 0
    obj.deathtouched = False  # the destruction it was due is the one replaced
    game.set_tapped(obj, True)
    remove_from_combat(game, obj)
    game.touch(obj)
    game.say(f"{obj.name} regenerates.", "regenerate", obj=obj.oid)
    return True


def _regenerates_by_itself(game: Game, obj: Obj) -> bool:
    """CR 701.15b: a static ability that regenerates its permanent does so each time, while
    the permanent has it (an effect that removes all abilities takes it away, layer 6)."""
    if not any(isinstance(st, RegenerateInstead) for st in obj.defn.statics):
        return False
    ch = chars_of(game, obj)
    return ch is None or ch.abilities


def remove_from_combat(game: Game, obj: Obj) -> None:
    """CR 506.4: a creature removed from combat stops attacking or blocking; a creature it
    blocked stays blocked. Creatures that blocked it have nothing left to deal damage to or be
    dealt damage by, so they are no longer marked as blocking it."""
    if obj.attacking is None and obj.blocking is None:
        return
    obj.attacking = None
    obj.blocking = None
    obj.blocked = False
    for o in game.battlefield:
        if o.blocking == obj.oid:
            o.blocking = None
            game.touch(o)
