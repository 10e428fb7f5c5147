"""Combat (CR 506-511): who may attack whom, declaring attackers and blockers one choice at a
time, and combat damage.

Attack targets follow the game's options: any opponent (two-player, CR 802 attack multiple
players), only the opponent immediately to the left or right (CR 803), only opponents within
range of influence (CR 801.3), only adjacent opponents (Emperor, CR 809.3c).

With shared team turns the active team attacks and the defending team blocks, each with one
combined declaration (CR 805.10): the team's members choose in acting order, each for the
creatures they control, and the whole declaration happens when the last has finished.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .casting import describe_ref, is_sick
from .characteristics import has_keyword, power, toughness
from .config import ATTACK_LEFT, ATTACK_RIGHT, EMPEROR
from .damage import deal_damage
from .state import REFRESH, Action, Decision, Obj, Ref
from .statics import combat_limit
from .teams import active_players, choice_groups, team_of

if TYPE_CHECKING:
    from .game import Flow, Game


def attackable_players(game: Game, pid: int) -> list[int]:
    live = game.players_in_game()
    if pid not in live:
        return []
    i = live.index(pid)
    n = len(live)
    left = live[(i + 1) % n] if n > 1 else pid
    right = live[(i - 1) % n] if n > 1 else pid
    option = game.config.attack_option
    if game.config.variant == EMPEROR:
        # CR 809.3c: only an opponent seated immediately next to you.
        out = [q for q in {left, right} if game.are_opponents(pid, q)]
    elif option == ATTACK_LEFT:
        out = [left] if game.are_opponents(pid, left) else []  # CR 803.1a
    elif option == ATTACK_RIGHT:
        out = [right] if game.are_opponents(pid, right) else []  # CR 803.1b
    else:
        out = game.opponents(pid)
    # CR 801.3: only opponents within the attacker's range of influence.
    return [q for q in live if q in out and game.in_range(pid, q)]


def attack_targets(game: Game, pid: int) -> list[Ref]:
    players = attackable_players(game, pid)
    refs: list[Ref] = [("p", q) for q in players]
    for o in game.battlefield:
        if (not o.phased_out and o.defn.is_("Planeswalker") and o.controller in players):
            refs.append(("o", o.oid))
    return refs


def can_attack(game: Game, obj: Obj) -> bool:
    return (obj.defn.is_("Creature") and not obj.phased_out and not obj.tapped
            and not is_sick(game, obj) and game.is_active(obj.controller)
            and obj.attacking is None and obj.blocking is None)


def can_block(game: Game, blocker: Obj, attacker: Obj) -> bool:
    if not blocker.defn.is_("Creature") or blocker.tapped or blocker.phased_out:
        return False
    if blocker.attacking is not None or blocker.blocking is not None:
        return False  # in another turn's combat (Grand Melee, see docs/rulings.md)
    if has_keyword(game, attacker, "flying") and not has_keyword(game, blocker, "flying"):
        return False  # CR 702.9b
    return True


def _defending_player(game: Game, ref: Ref) -> int | None:
    if ref[0] == "p":
        return ref[1]
    o = game.objects.get(ref[1])
    return o.controller if o is not None else None


def declare_attackers(game: Game) -> Flow:
    """CR 508.1: the active player chooses attackers one at a time, then declares them. With
    shared team turns each player on the active team chooses in turn, in acting order, for
    their own creatures, and the team's combined attack is declared at once (CR 805.10b)."""
    game.attack_plan = []
    aps = active_players(game)
    for i, ap in enumerate(aps):
        yield from _choose_attacks(game, ap, later=[p for p in aps[i + 1:] if game.in_game(p)])
    plan, game.attack_plan = game.attack_plan, []
    for oid, ref in plan:
        creature = game.objects.get(oid)
        if creature is None or not can_attack(game, creature):
            continue
        creature.attacking = ref
        creature.combat_turn = game.turn
        game.touch(creature)
        if not has_keyword(game, creature, "vigilance"):
            game.set_tapped(creature, True)  # CR 508.1f
        game.say(f"{creature.name} attacks {describe_ref(game, ref)}.", "attack", obj=oid)


def _choose_attacks(game: Game, ap: int, later: list[int]) -> Flow:
    """``ap`` adds attacks by their creatures to the plan until they say they are done."""
    while game.in_game(ap):
        planned = {a for a, _ in game.attack_plan}
        targets = attack_targets(game, ap)
        if later:
            done = f"Done; {' and '.join(game.name(p) for p in later)} choose next"
        else:
            done = "Declare these attackers" if planned else "No attacks"
        actions = [Action(0, "done", done)]
        most = combat_limit(game, "attack") if game.global_sources else None
        for o in game.battlefield:
            if most is not None and len(planned) >= most:
                break  # "no more than one creature can attack each combat"
            if o.oid in planned or not can_attack(game, o) or o.controller != ap:
                continue
            for ref in targets:
                actions.append(Action(len(actions), "attack",
                                      f"Attack {describe_ref(game, ref)} with {o.name}",
                                      obj=o.oid, ref=ref))
        if len(actions) == 1:
            return
        game.dirty.add("w")
        answer = yield Decision("attackers", ap, "Choose attackers", actions)
        if answer is REFRESH:
            continue
        if answer.kind == "done":
            return
        game.attack_plan.append((answer.obj, answer.ref))
        game.dirty.add(answer.obj)


def attackers(game: Game) -> list[Obj]:
    """The creatures attacking in this turn's combat."""
    turn = game.turn
    return [o for o in game.battlefield if o.attacking is not None and o.combat_turn == turn]


def declare_blockers(game: Game) -> Flow:
    """CR 509.1 / 802.4: each defending player, in APNAP order, declares blockers. With shared
    team turns each team with a player (or a planeswalker) under attack is a defending team:
    its players choose in turn, in acting order, blocking with their own creatures any
    creature attacking one of them or their planeswalkers, and the team's combined block is
    declared at once (CR 805.10a, 805.10d)."""
    defenders = set()
    for o in attackers(game):
        d = _defending_player(game, o.attacking) if o.attacking else None
        if d is not None:
            defenders.add(d)
            defenders.update(q for q in team_of(game, d) if game.in_game(q))
    for group in choice_groups(game, list(defenders)):
        game.block_plan = []
        for i, dp in enumerate(group):
            yield from _choose_blocks(game, dp, group,
                                      later=[p for p in group[i + 1:] if game.in_game(p)])
        plan, game.block_plan = game.block_plan, []
        for boid, aoid in plan:
            blocker, attacker = game.objects.get(boid), game.objects.get(aoid)
            if blocker is None or attacker is None or attacker.attacking is None:
                continue
            blocker.blocking = aoid
            attacker.blocked = True
            game.touch(blocker)
            game.touch(attacker)
            game.say(f"{blocker.name} blocks {attacker.name}.", "block", obj=boid)


def _choose_blocks(game: Game, dp: int, team: tuple[int, ...], later: list[int]) -> Flow:
    """``dp`` adds blocks by their creatures to the plan until they say they are done, against
    creatures attacking any player of ``team`` (``dp`` alone without shared team turns)."""
    while game.in_game(dp):
        planned = {b for b, _ in game.block_plan}
        mine = [a for a in attackers(game)
                if a.attacking is not None and _defending_player(game, a.attacking) in team]
        if later:
            done = f"Done; {' and '.join(game.name(p) for p in later)} choose next"
        else:
            done = "Declare these blockers" if planned else "No blocks"
        actions = [Action(0, "done", done)]
        most = combat_limit(game, "block") if game.global_sources else None
        # Blocks declared earlier this combat (by another defending player or team) count.
        declared = sum(1 for o in game.battlefield if o.blocking is not None) \
            if most is not None else 0
        for b in game.battlefield:
            if most is not None and declared + len(planned) >= most:
                break  # "no more than one creature can block each combat"
            if b.controller != dp or b.oid in planned:
                continue
            for a in mine:
                if can_block(game, b, a):
                    actions.append(Action(len(actions), "block",
                                          f"Block {a.name} with {b.name}", obj=b.oid,
                                          ref=("o", a.oid)))
        if len(actions) == 1:
            return
        answer = yield Decision("blockers", dp, "Choose blockers", actions)
        if answer is REFRESH:
            continue
        if answer.kind == "done":
            return
        game.block_plan.append((answer.obj, answer.ref[1]))


def combat_damage(game: Game) -> Flow:
    """CR 510: assign all combat damage, then deal it at once (CR 510.2).

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
        p = power(game, a)
        if p <= 0 or a.attacking is None:
            continue
        blockers = [b for b in game.battlefield if b.blocking == a.oid]
        if not a.blocked:
            d = _defending_player(game, a.attacking)
            if a.attacking[0] == "p" and not game.in_game(a.attacking[1]):
                continue  # CR 800.4e
            if a.attacking[0] == "o" and a.attacking[1] not in game.objects:
                continue  # CR 510.1b: the planeswalker it attacked is gone
            if d is not None:
                assignments.append((a, a.attacking, p))
            continue
        over = _trample_to(game, a)
        if not blockers:
            if over is not None:
                assignments.append((a, over, p))  # CR 702.19e
            continue
        plan = yield from _divide(game, a, p, blockers, over)
        assignments.extend((a, ref, n) for ref, n in plan)
    for b in game.battlefield:
        if b.blocking in mine:
            p = power(game, b)
            if p > 0:
                assignments.append((b, ("o", b.blocking), p))
    for src, ref, amount in assignments:
        if src.oid not in game.objects or (ref[0] == "o" and ref[1] not in game.objects):
            continue  # it left while damage was being divided (a player conceded, CR 800.4a)
        dealt = deal_damage(game, src, ref, amount, src.controller, combat=True)
        if dealt:
            game.say(f"{src.name} deals {dealt} combat damage to {describe_ref(game, ref)}.")


def _trample_to(game: Game, a: Obj) -> Ref | None:
    """Where a trampling attacker's excess damage goes: the player or planeswalker it attacks
    (CR 702.19b-c), if that is still there."""
    if a.attacking is None or not has_keyword(game, a, "trample"):
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
    away. Returns the assignments as (ref, amount)."""
    plan: list[tuple[Ref, int]] = []
    left = power_
    all_lethal = True
    for i, b in enumerate(blockers):
        lethal = max(toughness(game, b) - b.damage, 0)
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


def end_combat(game: Game) -> None:
    """CR 511.3: creatures stop attacking and blocking as the combat phase ends (this turn's
    combat: in Grand Melee another turn's may still be going on)."""
    mine = {a.oid for a in attackers(game)}
    for o in game.battlefield:
        if o.oid in mine or o.blocking in mine:
            o.attacking = None
            o.blocking = None
            o.blocked = False
            game.touch(o)
