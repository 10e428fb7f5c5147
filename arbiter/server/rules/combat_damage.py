"""Combat damage (CR 510): who deals combat damage to whom, divided as the attacking player
chooses (510.1c), all of it dealt at once (510.2).

First strike and double strike (CR 510.4, 702.4b, 702.7b): when an attacking or blocking
creature has either as the combat damage step begins, only those creatures deal damage in it,
and a second combat damage step follows for the others and, again, for creatures that have
double strike then. The flow runs the steps (flow.combat_phase); :func:`first_strikers` and
:func:`second_strikers` say who deals damage in each, and :func:`combat_damage` deals it.

Trample (702.19b, d) lets an attacker's damage beyond lethal damage to its blockers go to what
it attacks; deathtouch makes any nonzero amount lethal damage for that division (702.2c).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import DEATHTOUCH, DOUBLE_STRIKE, FIRST_STRIKE, TRAMPLE
from .casting import describe_ref
from .characteristics import has_keyword, power, toughness
from .combat import attackers, defending_player
from .damage import damage_flow
from .state import REFRESH, Action, Decision, Obj, Ref

if TYPE_CHECKING:
    from .game import Flow, Game


def _in_combat(game: Game) -> list[Obj]:
    """This turn's attacking creatures and the creatures blocking them."""
    attacking = attackers(game)
    ids = {a.oid for a in attacking}
    return attacking + [b for b in game.battlefield if b.blocking in ids]


def first_strikers(game: Game) -> frozenset[int]:
    """The attacking and blocking creatures with first strike or double strike as the combat
    damage step begins (CR 510.4). If there are any, they alone deal damage in a first combat
    damage step, and a second one follows."""
    return frozenset(o.oid for o in _in_combat(game)
                     if has_keyword(game, o, FIRST_STRIKE) or has_keyword(game, o, DOUBLE_STRIKE))


def second_strikers(game: Game, first: frozenset[int]) -> frozenset[int]:
    """Who deals damage in the second combat damage step (CR 510.4): the creatures still in
    combat that had neither first strike nor double strike as the first step began, and those
    that have double strike now. So first strike gained after the first step doesn't stop a
    creature (702.7c), and double strike lost in between does (702.4c)."""
    return frozenset(o.oid for o in _in_combat(game)
                     if o.oid not in first or has_keyword(game, o, DOUBLE_STRIKE))


def combat_damage(game: Game, strikers: frozenset[int] | None = None) -> Flow:
    """CR 510: assign all combat damage, then deal it at once (CR 510.2); only ``strikers``
    deal damage when the step is one of two (CR 510.4).

    A creature blocked by two or more creatures, or blocked with trample, has its damage
    divided by its controller (CR 510.1c, 702.19b), one blocker at a time; see
    :func:`_divide`. Everything else has only one possible assignment.
    """
    apnap = game.apnap()
    assignments: list[tuple[Obj, Ref, int]] = []
    attacking = attackers(game)
    mine = {a.oid for a in attacking}
    for a in sorted(attacking, key=lambda o: apnap.index(o.controller)
                    if o.controller in apnap else 99):
        if strikers is not None and a.oid not in strikers:
            continue
        p = power(game, a)
        if p <= 0 or a.attacking is None:
            continue
        blockers = [b for b in game.battlefield if b.blocking == a.oid]
        if not a.blocked:
            d = defending_player(game, a.attacking)
            if a.attacking[0] == "p" and not game.in_game(a.attacking[1]):
                continue  # CR 800.4e
            if a.attacking[0] == "o" and a.attacking[1] not in game.objects:
                continue  # CR 510.1b: the planeswalker it attacked is gone
            if d is not None:
                assignments.append((a, a.attacking, p))
            continue
        over = _trample_to(game, a)
        if not blockers:  # CR 510.1c: they all left combat (a first striker killed them?)
            if over is not None:
                assignments.append((a, over, p))  # CR 702.19d
            continue
        plan = yield from _divide(game, a, p, blockers, over)
        assignments.extend((a, ref, n) for ref, n in plan)
    for b in game.battlefield:
        if b.blocking in mine and (strikers is None or b.oid in strikers):
            p = power(game, b)
            if p > 0:
                assignments.append((b, ("o", b.blocking), p))
    for src, ref, amount in assignments:
        if src.oid not in game.objects or (ref[0] == "o" and ref[1] not in game.objects):
            continue  # it left while damage was being divided (a player conceded, CR 800.4a)
        dealt = yield from damage_flow(game, src, ref, amount, src.controller, combat=True)
        if dealt:
            game.say(f"{src.name} deals {dealt} combat damage to {describe_ref(game, ref)}.")


def _trample_to(game: Game, a: Obj) -> Ref | None:
    """Where a trampling attacker's excess damage goes: the player or planeswalker it attacks
    (CR 702.19b), if that is still there."""
    if a.attacking is None or not has_keyword(game, a, TRAMPLE):
        return None
    kind, value = a.attacking
    if kind == "p":
        return a.attacking if game.in_game(value) else None
    return a.attacking if value in game.objects else None


def _divide(game: Game, a: Obj, power_: int, blockers: list[Obj], over: Ref | None
            ) -> Flow:
    """CR 510.1c: the attacking player divides ``a``'s damage among its blockers as they
    choose; with trample (CR 702.19b) what is left once every blocker has been assigned lethal
    damage may go to ``over`` instead. Asked blocker by blocker, offering only amounts that can
    still end in a legal division: a blocker other than the last takes anything from 0 to what
    is left; the last takes the rest, or, with trample and every earlier blocker assigned
    lethal damage, at least its own lethal damage with the rest trampling over. The first
    option is always lethal damage (or all that is left), so the usual division is one Enter
    away. Lethal damage counts the damage already marked (a first-strike step's, 702.19b);
    from a source with deathtouch any nonzero amount is lethal (702.2c). Returns the
    assignments as (ref, amount)."""
    plan: list[tuple[Ref, int]] = []
    left = power_
    all_lethal = True
    deathtouch = has_keyword(game, a, DEATHTOUCH)
    for i, b in enumerate(blockers):
        lethal = max(toughness(game, b) - b.damage, 0)
        if deathtouch:
            lethal = min(lethal, 1)
        first = min(lethal, left)
        if i < len(blockers) - 1:
            amounts = [first, *(n for n in range(left + 1) if n != first)]
        elif over is not None and all_lethal:
            amounts = list(range(first, left + 1))
        else:
            amounts = [left]
        amount = amounts[0]
        if len(amounts) > 1:
            rest = describe_ref(game, over) if over is not None else ""
            answer = yield from _ask_amount(game, a, b, left, amounts, rest,
                                            last=i == len(blockers) - 1)
            if answer is not None:
                amount = answer
        plan.append((("o", b.oid), amount))
        left -= amount
        all_lethal = all_lethal and amount >= lethal
    if left > 0 and over is not None:
        plan.append((over, left))
    return plan


def _ask_amount(game: Game, a: Obj, b: Obj, left: int, amounts: list[int], rest: str, *,
                last: bool) -> Flow:
    """One step of a division: how much of what is left goes to blocker ``b``? None when the
    attacking player can no longer choose (they left the game: CR 800.4a)."""
    def label(n: int) -> str:
        text = f"{n} to {b.name} (#{b.oid})"
        return text + (f", {left - n} to {rest}" if last and rest and n < left else "")

    actions = [Action(i, "amount", label(n), obj=b.oid, index=n)
               for i, n in enumerate(amounts)]
    prompt = f"{a.name} has {left} combat damage left to divide: how much to {b.name}?"
    while game.in_game(a.controller) and a.oid in game.objects:
        answer = yield Decision("assign_damage", a.controller, prompt, actions)
        if answer is REFRESH:
            continue
        return int(answer.index)
    return None
