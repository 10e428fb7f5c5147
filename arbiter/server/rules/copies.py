"""Copies of spells (CR 707.10): putting a copy on the stack and choosing its new targets.

A copy is a new object on the stack with the original's characteristics and the choices made
as it was cast: its X (CR 107.3a) and its targets. It is controlled and owned by the player who
copied it, it is not cast (so "whenever a player casts" abilities don't see it), and no card
stands behind it: when it leaves the stack, by resolving or otherwise, it ceases to exist
(CR 707.10a, 704.5e; ``Game.move`` drops an object with neither a card nor a token's
definition).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .attachments import announce_targets
from .casting import describe_ref, legal_targets, spell_target_specs, unlimited_source
from .state import REFRESH, STACK, Action, Decision, Obj

if TYPE_CHECKING:
    from .game import Flow, Game


def copy_spell(game: Game, original: Obj, copier: int) -> Flow:
    """``copier`` copies ``original`` (as it is, or as it last existed on the stack) and may
    choose new targets for the copy (CR 707.10c)."""
    copy = game.new_object(original.defn, copier, copier, STACK)
    copy.is_copy = True
    copy.x = original.x
    copy.targets = list(original.targets)
    game.touch(copy)
    yield from choose_new_targets(game, copy)
    if copy.oid not in game.objects:
        return  # its controller left while choosing (CR 800.4a took the copy with them)
    what = f" targeting {', '.join(describe_ref(game, r) for r in copy.targets)}" \
        if copy.targets else ""
    game.say(f"{game.name(copier)} copies {copy.name}{what}.", "copy", player=copier,
             obj=copy.oid)
    announce_targets(game, copy)  # a copy's targets become its targets too (707.10)


def choose_new_targets(game: Game, copy: Obj) -> Flow:
    """CR 707.10c: for each target, keep it (even if it has become illegal) or change it to a
    legal one; one decision per target whose change is possible, the first action keeping it.
    Targets stay different from each other, as "any number of targets" requires."""
    specs = spell_target_specs(copy.defn, len(copy.targets))
    unlimited = unlimited_source(copy)
    for i, spec in enumerate(specs[:len(copy.targets)]):
        while game.in_game(copy.controller) and copy.oid in game.objects:
            current = copy.targets[i]
            others = tuple(t for j, t in enumerate(copy.targets) if j != i)
            options = [r for r in legal_targets(game, copy.controller, spec, exclude=others,
                                                by=copy, unlimited=unlimited) if r != current]
            if not options:
                break
            keep = describe_ref(game, current)
            actions = [Action(0, "target", f"Keep {keep}", obj=copy.oid, ref=current), *(
                Action(k + 1, "target", f"Target {describe_ref(game, r)}", obj=copy.oid, ref=r)
                for k, r in enumerate(options))]
            answer = yield Decision("target", copy.controller, f"Choose a new {spec.describe()} "
                                    f"for the copy of {copy.name}, or keep {keep}", actions)
            if answer is REFRESH:
                continue
            copy.targets[i] = answer.ref
            game.touch(copy)
            break
