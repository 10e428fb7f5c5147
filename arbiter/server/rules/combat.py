"""Combat (CR 506-511): who may attack whom, declaring attackers and blockers one choice at a
time, and the end of combat; combat damage is in combat_damage.py.

Attack targets follow the game's options: any opponent (two-player, CR 802 attack multiple
players), only the opponent immediately to the left or right (CR 803), only opponents within
range of influence (CR 801.3), only adjacent opponents (Emperor, CR 809.3c).

With shared team turns the active team attacks and the defending team blocks, each with one
combined declaration (CR 805.10): the team's members choose in acting order, each for the
creatures they control, and the whole declaration happens when the last has finished.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .attachments import cant
from .cards.vocab import DEFENDER, VIGILANCE
from .casting import describe_ref, is_sick
from .characteristics import has_keyword, is_type
from .config import ATTACK_LEFT, ATTACK_RIGHT, EMPEROR
from .keywords import evasion_allows
from .requirements import (
    attack_requirements,
    block_requirements,
    blocks_any_number,
    legal_picks,
    may_attack,
    may_block,
)
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
        if not o.phased_out and is_type(game, o, "Planeswalker") and o.controller in players:
            refs.append(("o", o.oid))
    return refs


def can_attack(game: Game, obj: Obj) -> bool:
    return (is_type(game, obj, "Creature") and not obj.phased_out and not obj.tapped
            and not is_sick(game, obj) and game.is_active(obj.controller)
            and obj.attacking is None and obj.blocking is None
            and not has_keyword(game, obj, DEFENDER)  # CR 702.3b
            and not (game.global_sources and cant(game, obj, "attack")))  # Pacifism


def can_block(game: Game, blocker: Obj, attacker: Obj) -> bool:
    if not is_type(game, blocker, "Creature") or blocker.tapped or blocker.phased_out:
        return False
    if blocker.attacking is not None or blocker.blocking is not None:
        return False  # in another turn's combat (Grand Melee, see docs/rulings.md)
    if game.global_sources and (cant(game, blocker, "block") or cant(game, attacker,
                                                                     "be_blocked")):
        return False  # "can't block", "can't be blocked" from what is attached
    defender = defending_player(game, attacker.attacking) if attacker.attacking else None
    return evasion_allows(game, attacker, blocker, defender)


def defending_player(game: Game, ref: Ref) -> int | None:
    """The player an attack on ``ref`` is against: that player, or the controller of the
    planeswalker (CR 506.2, 802.2a)."""
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
        if not has_keyword(game, creature, VIGILANCE):
            game.set_tapped(creature, True)  # CR 508.1f, 702.20b
        game.say(f"{creature.name} attacks {describe_ref(game, ref)}.", "attack", obj=oid)
        game.emit("attacks", obj=creature)  # CR 508.3a: "whenever ~ attacks"


def _choose_attacks(game: Game, ap: int, later: list[int]) -> Flow:
    """``ap`` adds attacks by their creatures to the plan until they say they are done."""
    while game.in_game(ap):
        planned = {a for a, _ in game.attack_plan}
        if later:
            done = f"Done; {' and '.join(game.name(p) for p in later)} choose next"
        else:
            done = "Declare these attackers" if planned else "No attacks"
        done_ok, options = _attack_options(game, ap, later)
        actions = [Action(0, "done", done)] if done_ok else []
        for o, ref in options:
            actions.append(Action(len(actions), "attack",
                                  f"Attack {describe_ref(game, ref)} with {o.name}",
                                  obj=o.oid, ref=ref))
        if not options:
            return
        game.dirty.add_quiet("w")
        answer = yield Decision("attackers", ap, "Choose attackers", actions)
        if answer is REFRESH:
            continue
        if answer.kind == "done":
            return
        game.attack_plan.append((answer.obj, answer.ref))
        game.dirty.add(answer.obj)


def _attack_candidates(game: Game, pid: int, planned: set[int]) -> list[tuple[Obj, list[Ref]]]:
    """``pid``'s creatures that may still attack, each with what it may attack."""
    targets = attack_targets(game, pid)
    out = []
    for o in game.battlefield:
        if o.controller != pid or o.oid in planned or not can_attack(game, o):
            continue
        refs = [r for r in targets if may_attack(game, o, defending_player(game, r))]
        if refs:
            out.append((o, refs))
    return out


def _attack_options(game: Game, ap: int,
                    later: list[int]) -> tuple[bool, list[tuple[Obj, Ref]]]:
    """May ``ap`` finish now, and which attacks may they add (CR 508.1c-d,
    requirements.legal_picks)?"""
    planned = {a for a, _ in game.attack_plan}
    mine = _attack_candidates(game, ap, planned)
    theirs = [c for p in later for c in _attack_candidates(game, p, planned)]
    plan = [(o, ref) for oid, ref in game.attack_plan if (o := game.objects.get(oid))]
    most = combat_limit(game, "attack") if game.global_sources else None
    return legal_picks(game, plan, mine, theirs,
                       lambda o, ref: attack_requirements(game, o, ref), limit=most)


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
        d = defending_player(game, o.attacking) if o.attacking else None
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
            if blocker.blocking is None:
                blocker.blocking = aoid
            else:  # it blocks one more (CR 509.1a)
                blocker.also_blocking = (*blocker.also_blocking, aoid)
            attacker.blocked = True
            game.touch(blocker)
            game.touch(attacker)
            game.say(f"{blocker.name} blocks {attacker.name}.", "block", obj=boid)
            # CR 509.3b, 509.3d: "blocks a creature" / "becomes blocked by a creature".
            game.emit("blocks", obj=blocker, attacker=attacker)


def _choose_blocks(game: Game, dp: int, team: tuple[int, ...], later: list[int]) -> Flow:
    """``dp`` adds blocks by their creatures to the plan until they say they are done, against
    creatures attacking any player of ``team`` (``dp`` alone without shared team turns)."""
    while game.in_game(dp):
        planned = {b for b, _ in game.block_plan}
        if later:
            done = f"Done; {' and '.join(game.name(p) for p in later)} choose next"
        else:
            done = "Declare these blockers" if planned else "No blocks"
        done_ok, options = _block_options(game, dp, team, later)
        actions = [Action(0, "done", done)] if done_ok else []
        for b, a in options:
            actions.append(Action(len(actions), "block", f"Block {a.name} with {b.name}",
                                  obj=b.oid, ref=("o", a.oid)))
        if not options:
            return
        answer = yield Decision("blockers", dp, "Choose blockers", actions)
        if answer is REFRESH:
            continue
        if answer.kind == "done":
            return
        game.block_plan.append((answer.obj, answer.ref[1]))


def _block_candidates(game: Game, pid: int,
                      against: list[Obj]) -> list[tuple[Obj, list[Obj]]]:
    """``pid``'s creatures that may still block, each with the attackers it may still block:
    one attacker each, or any number for one that "can block any number" (CR 509.1a)."""
    taken: dict[int, set[int]] = {}
    for boid, aoid in game.block_plan:
        taken.setdefault(boid, set()).add(aoid)
    out = []
    for b in game.battlefield:
        if b.controller != pid or not may_block(game, b):
            continue
        done = taken.get(b.oid)
        if done is not None and not blocks_any_number(game, b):
            continue
        can = [a for a in against if a.oid not in (done or ()) and can_block(game, b, a)]
        if can:
            out.append((b, can))
    return out


def _block_options(game: Game, dp: int, team: tuple[int, ...],
                   later: list[int]) -> tuple[bool, list[tuple[Obj, Obj]]]:
    """May ``dp`` finish now, and which blocks may they add (CR 509.1a-c,
    requirements.legal_picks)?"""
    attacking = attackers(game)
    against = [a for a in attacking
               if a.attacking is not None and defending_player(game, a.attacking) in team]
    mine = _block_candidates(game, dp, against)
    theirs = [c for p in later for c in _block_candidates(game, p, against)]
    plan = [(b, a) for boid, aoid in game.block_plan
            if (b := game.objects.get(boid)) and (a := game.objects.get(aoid))]
    most = combat_limit(game, "block") if game.global_sources else None
    # Blocks declared earlier in this combat (by another defending player or team) count; in
    # Grand Melee another turn's combat is another combat.
    ids = {a.oid for a in attacking}
    declared = sum(1 for o in game.battlefield if o.blocking in ids)
    return legal_picks(game, plan, mine, theirs, lambda b, a: block_requirements(game, a),
                       multi=lambda b: blocks_any_number(game, b), others=declared,
                       limit=most, watch=against)


def end_combat(game: Game) -> None:
    """CR 511.3: creatures stop attacking and blocking as the combat phase ends (this turn's
    combat: in Grand Melee another turn's may still be going on)."""
    mine = {a.oid for a in attackers(game)}
    for o in game.battlefield:
        if o.oid in mine or o.blocking in mine:
            o.attacking = None
            o.blocking = None
            o.also_blocking = ()
            o.blocked = False
            game.touch(o)
