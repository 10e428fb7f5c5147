"""Resolving the effects that change characteristics in layers (layers.py applies them), and
the copy effect of "enter as a copy" (CR 707.2, layer 1).

Each resolved effect is one :class:`~.state.Continuous` per object it names, locked in as it
resolves (CR 611.2c), lasting until end of turn (CR 514.2 ends it), with a timestamp of its
own (CR 613.7b).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .cards.vocab import (
    INDEFINITELY,
    UNTIL_END_OF_TURN,
    WHILE_SOURCE_ON_BATTLEFIELD,
    AlsoBecomes,
    BecomeColor,
    BecomeCreature,
    CardDef,
    ChangeText,
    EachCreatureGets,
    EntersAsCopy,
    LoseAllAbilities,
    SetPowerToughness,
    SwitchPowerToughness,
)
from .filters import matches
from .state import BATTLEFIELD, Action, Continuous, Obj

if TYPE_CHECKING:
    from .game import Flow, Game
    from .resolve import Ctx


def _lasting(ctx: Ctx, kind: str, obj: Obj, duration: str, **fields: Any) -> None:
    """One continuous effect of ``kind`` on ``obj`` from the resolving spell or ability, with
    its own timestamp (CR 613.7a)."""
    g = ctx.game
    g.table.timestamp += 1
    g.effects.append(Continuous(kind, ctx.controller, g.table.timestamp, duration,
                                affected=obj.oid, **fields))
    g.touch(obj)


def _until_end_of_turn(ctx: Ctx, kind: str, obj: Obj, **fields: Any) -> None:
    _lasting(ctx, kind, obj, UNTIL_END_OF_TURN, **fields)


def _set_pt(ctx: Ctx, e: SetPowerToughness) -> None:
    for o in ctx.objects(e.what):
        _until_end_of_turn(ctx, "set_pt", o, power=e.power, toughness=e.toughness)


def _switch_pt(ctx: Ctx, e: SwitchPowerToughness) -> None:
    for o in ctx.objects(e.what):
        _until_end_of_turn(ctx, "switch_pt", o)


def _lose_all(ctx: Ctx, e: LoseAllAbilities) -> None:
    for o in ctx.objects(e.what):
        _until_end_of_turn(ctx, "lose_abilities", o)


def _become_color(ctx: Ctx, e: BecomeColor) -> None:
    for o in ctx.objects(e.what):
        _until_end_of_turn(ctx, "color", o, colors=e.color)


def _become_creature(ctx: Ctx, e: BecomeCreature) -> None:
    lasting = e.duration == WHILE_SOURCE_ON_BATTLEFIELD
    # CR 611.2b: tied to the source; if it has already left, the effect never applies.
    while_on = ctx.source.oid if lasting else None
    for o in ctx.objects(e.what):
        parts: list[tuple[str, dict[str, Any]]] = [
            ("card_type", {"subtype": "Creature"}),
            ("set_pt", {"power": e.power, "toughness": e.toughness})]
        if e.subtype:
            parts.append(("subtype", {"subtype": e.subtype}))
        if e.color:
            parts.append(("color", {"colors": e.color}))
        for kind, fields in parts:
            _lasting(ctx, kind, o, INDEFINITELY if lasting else UNTIL_END_OF_TURN,
                     while_on=while_on, **fields)


def _change_text(ctx: Ctx, e: ChangeText) -> None:
    for o in ctx.objects(e.what):
        _until_end_of_turn(ctx, "text", o, words=(e.old, e.new))


def _each_creature_gets(ctx: Ctx, e: EachCreatureGets) -> None:
    """The creatures are those that pass the filter as it resolves (CR 611.2c): a creature
    that attacks later does not get the bonus, one removed from combat keeps it. Only those
    within its controller's range of influence (CR 801.10)."""
    g = ctx.game
    for o in g.creatures():
        if matches(g, o, e.where, ctx.controller) and (
                ctx.unlimited or g.obj_in_range(ctx.controller, o)):
            _until_end_of_turn(ctx, "pt", o, power=e.power, toughness=e.toughness)
            if e.keyword:
                _until_end_of_turn(ctx, "keyword", o, keyword=e.keyword)


def _also_becomes(ctx: Ctx, e: AlsoBecomes) -> None:
    """Layer 4 adds each subtype and layer 5 each colour to those it already has (CR
    613.1d-e, 205.1b "in addition to its other types"), unlike ``BecomeColor``, which
    replaces. It lasts as long as the permanent stays the same object (CR 400.7), or until end
    of turn."""
    for o in ctx.objects(e.what):
        if o.zone != BATTLEFIELD:
            continue
        for subtype in e.subtypes:
            _lasting(ctx, "subtype", o, e.duration, subtype=subtype)
        if e.colors:
            _lasting(ctx, "add_color", o, e.duration, colors=e.colors)


LAYER_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    SetPowerToughness: _set_pt, SwitchPowerToughness: _switch_pt, LoseAllAbilities: _lose_all,
    BecomeColor: _become_color, BecomeCreature: _become_creature, ChangeText: _change_text,
    EachCreatureGets: _each_creature_gets,
    AlsoBecomes: _also_becomes,
}


Chooser = Callable[[int, str, str, Callable[[], list[Action]]], "Flow"]


def copy_choice(game: Game, spell: Obj, choose: Chooser) -> Flow:
    """As a permanent spell with "you may have ~ enter as a copy of any creature on the
    battlefield" resolves, its controller chooses a creature or none (CR 707.2, 614.1c);
    returns the copiable values it enters with, or None for its own. Copiable values are the
    creature's ``defn`` (which is already a copy's when it is one, CR 707.3); counters, status,
    control and the effects on it are not copied. The copy is no token even when the original
    is one (CR 707.2: being a token is no copiable value, 111.1)."""
    if not any(isinstance(s, EntersAsCopy) for s in spell.defn.statics):
        return None

    def options() -> list[Action]:
        # The copies come first: a player (or bot) taking the first option gets a creature,
        # not a card that enters as the 0/0 it is printed as. CR 801.2d: within range.
        reach = [o for o in game.creatures() if game.obj_in_range(spell.controller, o)]
        out = [Action(i, "copy", f"Copy {o.name}", obj=o.oid) for i, o in enumerate(reach)]
        out.append(Action(len(out), "no_copy", f"{spell.name} enters as itself"))
        return out

    answer = yield from choose(spell.controller, "copy", f"{spell.name}: enter as a copy of?",
                               options)
    if answer is None or answer.kind != "copy":
        return None
    original = game.objects.get(answer.obj) if answer.obj is not None else None
    if original is None:
        return None
    defn: CardDef = original.defn
    return replace(defn, token=False) if defn.token else defn
