"""Paying mana by hand: the ``pay_mana`` decision (CR 601.2g-h, 605.3a).

A player who asked to pay by hand (``manual`` on the act that cast the spell or activated the
ability) is asked, once the total cost is known (CR 601.2f), which source pays next: one
``mana`` action per untapped source that can still contribute (a source of several colours,
one per colour), ``auto`` to leave the rest to the engine, and ``cancel`` when the cast can be
undone cleanly. The state machine, one question per source:

    asking --mana--> asking (the source is set aside; what is left of the cost shrinks)
    asking --auto--> paid (the chosen sources are tapped, the engine pays the rest)
    asking, nothing left to pay --> paid
    asking --cancel--> cancelled (nothing was tapped: the caller rewinds, CR 730.1)

The chosen sources' mana abilities are activated together when the choosing ends (CR 605.3a:
mana abilities are activated while paying; nothing else can happen between the choices), so
cancelling has nothing to give back. Mana already in the pool is spent first (the pool would
empty at the end of the step anyway), as automatic payment does. A source is offered only if
the rest can still be paid once it is chosen, so the player can never choose their way into
a cost that can't be paid: the rule that a spell is offered only when it can be completed
holds for every choice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .mana import MANA_TYPES, ManaCost, after_paying, can_pay, mana_choices
from .state import REFRESH, Action, Decision

if TYPE_CHECKING:
    from .game import Flow, Game

Sources = list[tuple[int, str]]


def still_owed(cost: ManaCost, pool: dict[str, int], chosen: Sources) -> ManaCost:
    """What of ``cost`` the pool and the ``chosen`` sources' mana do not pay, pool first."""
    left = cost
    for color, n in pool.items():
        left = after_paying(left, color, n)
    for _, color in chosen:
        left = after_paying(left, color, 1)
    return left


def offers(left: ManaCost, free: Sources) -> list[tuple[int, str, int]]:
    """The sources worth choosing next, as (source, mana type, how much it makes): each of
    ``free`` that pays part of ``left`` with the rest still payable by the others. A source
    listed n times (one making a mana per Swamp) is one offer making n."""
    makes: dict[int, tuple[str, int]] = {}
    for oid, produces in free:
        _, n = makes.get(oid, (produces, 0))
        makes[oid] = (produces, n + 1)
    out: list[tuple[int, str, int]] = []
    for oid, (produces, n) in makes.items():
        others = [s for s in free if s[0] != oid]
        for color in mana_choices(produces):
            after = after_paying(left, color, n)
            if after != left and can_pay(after, {}, others):
                out.append((oid, color, n))
    return out


def choose_sources(game: Game, pid: int, cost: ManaCost, name: str,
                   untapped: Callable[[], Sources], *, cancel: str | None) -> Flow:
    """Ask ``pid`` which sources pay ``cost`` (for ``name``) until it is paid or they leave
    the rest to the engine; ``untapped()`` are the sources they may use now
    (``casting.mana_sources``). Returns the chosen (source, mana type), each once per mana it
    makes, for the caller to activate; None when the player cancelled (offered only with
    ``cancel``, its label) or left the game."""
    chosen: Sources = []
    while game.in_game(pid):
        sources = untapped()
        # A refresh (someone conceded) may have taken a chosen source away: forget it.
        ids = {oid for oid, _ in sources}
        chosen = [c for c in chosen if c[0] in ids]
        left = still_owed(cost, game.players[pid].mana, chosen)
        if left.mana_value == 0:
            break
        taken = {oid for oid, _ in chosen}
        free = [s for s in sources if s[0] not in taken]
        actions: list[Action] = []
        for oid, color, n in offers(left, free):  # ``index`` names the mana type it makes
            actions.append(Action(len(actions), "mana",
                                  f"Tap {game.objects[oid].name} for {('{' + color + '}') * n}",
                                  obj=oid, index=MANA_TYPES.index(color)))
        actions.append(Action(len(actions), "auto", "Pay the rest automatically"))
        if cancel is not None:
            actions.append(Action(len(actions), "cancel", cancel))
        answer = yield Decision("pay_mana", pid, f"Pay {left} for {name}: choose a source",
                                actions)
        if answer is REFRESH:
            continue
        if answer.kind == "cancel":
            return None
        if answer.kind == "auto":
            break
        color = MANA_TYPES[answer.index]
        n = sum(1 for s in free if s[0] == answer.obj)
        chosen.extend([(answer.obj, color)] * n)
    else:
        return None
    return chosen
