"""Restrictions and requirements on attack and block declarations (CR 508.1c-d, 509.1b-c).

A restriction forbids ("can't attack unless...", "can't block", "can't attack or block
alone"); a requirement demands ("attacks each combat if able", "attacks you this turn if able",
"all creatures able to block ~ do so"). A declaration must break no restriction and, among
those that break none, obey as many requirements as any could (CR 508.1d, 509.1c).

Declarations are made one pick at a time (combat.py), so the whole declaration is checked as
it grows: a pick is offered only if some legal declaration that obeys the most requirements
possible still contains everything picked so far, and "done" only when what is picked is such
a declaration. Every offered option therefore leads to a legal end, and a player (or a bot
choosing at random) can never be stuck (docs/rulings.md, "Attack and block requirements and
restrictions").

The restrictions that concern one creature and one attack target or one attacker (landwalk,
"can't be blocked", "can't attack unless defending player controls an Island") are checked
option by option: keywords.py and :func:`may_attack` / :func:`may_block`. What couples the
creatures of a declaration is counted here: each requirement a creature obeys where it takes
part, "alone", and the most creatures that may attack or block (statics.CombatLimit). Each
creature's requirements depend only on its own choice, so the best declaration of each size
is the creatures that obey most (:func:`most_obeyed`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from .cards.vocab import (
    ATTACKS_YOU,
    CANT_BLOCK,
    AttacksEachCombat,
    BlocksAnyNumber,
    CantAttackOrBlockAlone,
    CantAttackUnlessDefenderControls,
    MustBeBlockedByAll,
)
from .characteristics import chars_of, is_type, subtypes
from .state import Obj, Ref

if TYPE_CHECKING:
    from .game import Game

S = TypeVar("S")
X = TypeVar("X")


def own_statics(game: Game, obj: Obj, kind: type[S]) -> list[S]:
    """``obj``'s static abilities of ``kind``, unless it has lost its abilities (layer 6)."""
    ch = chars_of(game, obj)
    if ch is not None and not ch.abilities:
        return []
    return [st for st in obj.defn.statics if isinstance(st, kind)]


def affected_by(game: Game, kind: str, obj: Obj) -> list[int | None]:
    """The ``player`` of each resolved effect of ``kind`` on ``obj`` (CR 611.2)."""
    return [e.player for e in game.effects if e.kind == kind and e.affected == obj.oid]


# --------------------------------------------------------------------------- one option


def may_attack(game: Game, obj: Obj, defender: int | None) -> bool:
    """Restrictions on ``obj`` attacking a player or planeswalker of ``defender`` (CR 508.1c)."""
    for st in own_statics(game, obj, CantAttackUnlessDefenderControls):
        if defender is None or not any(
                o.controller == defender and is_type(game, o, "Land")
                and st.land_type in subtypes(game, o) for o in game.permanents()):
            return False
    return True


def may_block(game: Game, blocker: Obj) -> bool:
    """Restrictions on ``blocker`` blocking at all this turn (CR 509.1b)."""
    return not (game.effects and affected_by(game, CANT_BLOCK, blocker))


def blocks_any_number(game: Game, obj: Obj) -> bool:
    """"Can block any number of creatures" (CR 509.1a)."""
    return bool(own_statics(game, obj, BlocksAnyNumber))


def alone(game: Game, obj: Obj) -> bool:
    """"Can't attack or block alone" (CR 508.1c, 509.1b)."""
    return bool(own_statics(game, obj, CantAttackOrBlockAlone))


def attack_requirements(game: Game, obj: Obj, ref: Ref) -> int:
    """How many of ``obj``'s requirements attacking ``ref`` obeys (CR 508.1d): "attacks each
    combat if able" whatever it attacks, "attacks you if able" when ``ref`` is that player."""
    n = len(own_statics(game, obj, AttacksEachCombat))
    if game.effects and ref[0] == "p":
        n += sum(1 for p in affected_by(game, ATTACKS_YOU, obj) if p == ref[1])
    return n


def block_requirements(game: Game, attacker: Obj) -> int:
    """How many requirements a creature obeys by blocking ``attacker`` (CR 509.1c): "all
    creatures able to block ~ do so" is one on each creature able to block it."""
    return len(own_statics(game, attacker, MustBeBlockedByAll))


# --------------------------------------------------------------------------- the whole


@dataclass(frozen=True, slots=True)
class Entrant:
    """A creature that takes part in a declaration or may still join it."""

    best: int  # the most requirements it obeys if it takes part
    alone: bool  # it can't attack (or block) alone
    fixed: bool  # it takes part already: what it does is chosen


def most_obeyed(entrants: Iterable[Entrant], others: int = 0,
                limit: int | None = None) -> int | None:
    """The most requirements a legal declaration obeys that has every fixed entrant take part
    and any of the others; None when no legal declaration has the fixed ones. ``others``
    creatures take part already from outside (blocks another player declared this combat);
    ``limit`` is the most creatures that may take part. Any number of creatures but one
    leaves nobody alone, so the best declaration of each size is the fixed entrants and the
    free ones that obey most; a single creature must be one that may go alone."""
    fixed = [e for e in entrants if e.fixed]
    free = sorted((e for e in entrants if not e.fixed), key=lambda e: -e.best)
    base = others + len(fixed)
    room = len(free) if limit is None else min(len(free), limit - base)
    if room < 0:
        return None
    best: int | None = None
    total = sum(e.best for e in fixed)
    for k in range(room + 1):
        if k:
            total += free[k - 1].best
        score: int | None = total
        if base + k == 1:
            if fixed:
                score = None if fixed[0].alone else total
            elif k == 1:  # the lone creature: the best one that may go alone
                score = max((e.best for e in free if not e.alone), default=None)
        if score is not None and (best is None or score > best):
            best = score
    return best


def relevant(game: Game, creatures: Iterable[Obj], limit: int | None) -> bool:
    """Could anything couple the creatures' choices? Usually not: then every option is legal
    and "done" always is (the fast path)."""
    if limit is not None:
        return True
    for o in creatures:
        if any(isinstance(st, (AttacksEachCombat, CantAttackOrBlockAlone, MustBeBlockedByAll))
               for st in o.defn.statics):
            return True
    return any(e.kind == ATTACKS_YOU for e in game.effects)


Pick = tuple[Obj, X]


def legal_picks(game: Game, plan: list[Pick[X]], mine: list[tuple[Obj, list[X]]],
                later: list[tuple[Obj, list[X]]], obeys: Callable[[Obj, X], int], *,
                multi: Callable[[Obj], bool] = lambda o: False, others: int = 0,
                limit: int | None = None, watch: Iterable[Obj] = ()
                ) -> tuple[bool, list[Pick[X]]]:
    """One step of a declaration: may the chooser finish now, and which picks may they add?

    ``plan`` holds the picks made (a creature and what it attacks or blocks); ``mine`` the
    chooser's creatures that may still take part, each with what it may still choose;
    ``later`` the same for teammates who choose after them (CR 805.10); ``obeys`` how many
    requirements a pick obeys; ``multi`` whether a creature may make several picks (it "can
    block any number", CR 509.1a); ``watch`` other creatures whose abilities count (the
    attackers of a block). A pick is legal when a best legal declaration still contains the
    plan with it; "done" when the plan is one, the teammates still to choose aside.
    """
    options = [(o, x) for o, xs in mine for x in xs]
    planned: dict[int, tuple[Obj, list[X]]] = {}
    for o, x in plan:
        planned.setdefault(o.oid, (o, []))[1].append(x)
    still = {o.oid: (o, xs) for o, xs in (*mine, *later)}
    if not relevant(game, [*(o for o, _ in (*planned.values(), *still.values())), *watch],
                    limit):
        return True, options
    waiting = {o.oid for o, _ in later}

    def entrants(add: Pick[X] | None = None, mine_open: bool = True) -> list[Entrant]:
        out = []
        for oid in sorted(set(planned) | set(still)):
            o = planned[oid][0] if oid in planned else still[oid][0]
            fixed = list(planned[oid][1]) if oid in planned else []
            can = still[oid][1] if oid in still and (mine_open or oid in waiting) else []
            many = multi(o)
            if add is not None and add[0] is o:
                fixed.append(add[1])
                can = [x for x in can if x != add[1]] if many else []
            if not fixed and not can:
                continue
            best = sum(obeys(o, x) for x in fixed)
            if many:
                best += sum(obeys(o, x) for x in can)
            elif not fixed:
                best = max(obeys(o, x) for x in can)
            out.append(Entrant(best, alone(game, o), bool(fixed)))
        return out

    target = most_obeyed(entrants(), others, limit)
    if target is None:
        return True, options
    done_ok = most_obeyed(entrants(mine_open=False), others, limit) == target
    legal = [p for p in options if most_obeyed(entrants(p), others, limit) == target]
    if not done_ok and not legal:  # cannot happen while most_obeyed is exact; never stuck
        return True, options
    return done_ok, legal
