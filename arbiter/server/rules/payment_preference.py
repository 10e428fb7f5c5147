"""Which permanents pay a cost when the player leaves the choice to the engine (CR 601.2g-h).

Any set of sources that pays the cost is legal; a player paying by hand would pick the one
that keeps the most options open. Two preferences (docs/rulings.md, "Which permanents pay"):

* Lands before creatures: an untapped creature can still attack or block, so a mana
  creature (Llanowar Elves) is tapped only when lands cannot pay, or when the player taps it
  by hand (manual payment, manual_payment.py).
* Colours the rest of the hand needs stay untapped: the most of each mana type that one
  other card in hand, or one activated ability of a permanent of the player's, asks for is
  kept back while another source can pay the generic part, so a Forest pays Runeclaw Bear's
  {1} while Lightning Bolt waits in hand beside a Mountain.

Both only choose among ways to pay that :func:`arbiter.server.rules.mana.plan_payment`
already finds; they run once per payment, never for a castability question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def still_needed(game: Game, pid: int) -> dict[str, int]:
    """For each mana type, the most of it one card in ``pid``'s hand (the spell being cast is
    on the stack by now, CR 601.2a) or one activated ability of ``pid``'s permanents costs."""
    needs: dict[str, int] = {}

    def want(pips: tuple[tuple[str, int], ...]) -> None:
        for color, n in pips:
            if n > needs.get(color, 0):
                needs[color] = n

    for card in game.hand(pid):
        if card.defn.cost is not None:
            want(card.defn.cost.pips)
    for obj in game.battlefield:
        if obj.controller == pid and obj.defn.activated:
            for _, ability in obj.defn.activated:
                if ability.cost.mana is not None:
                    want(ability.cost.mana.pips)
    return needs


def creatures(game: Game, sources: list[tuple[int, str]]) -> frozenset[int]:
    """The sources among ``sources`` that are creatures: tapped only when lands cannot pay.
    (The printed type, as ``mana_sources`` orders them.)"""
    return frozenset(oid for oid, _ in sources if game.objects[oid].defn.is_("Creature"))
