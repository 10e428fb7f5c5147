"""What static abilities of one object do to the game's rules. What they do to other objects'
characteristics ("creatures you control get +1/+1", "have flying") is applied in layers by
layers.py.

The sources are :attr:`Game.global_sources`: permanents on the battlefield and face-up
nontraditional cards in the command zone (planes, phenomena, schemes, vanguards: CR 901.7,
902.7, 904.8) whose static abilities reach beyond themselves. The list is usually empty, so each
question here is a short loop. "You" in such an ability is the source's controller: the
planar controller for a plane (CR 901.6), the owner for a scheme or a vanguard (CR 902.6,
904.7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import (
    CombatLimit,
    PreventOneFromOpponents,
    SpellsCostLess,
    UntapDuringOpponentsUntap,
)
from .state import Obj

if TYPE_CHECKING:
    from .game import Game


def _active(game: Game) -> list[Obj]:
    return [o for o in game.global_sources if not o.phased_out]


def cost_reduction(game: Game, pid: int) -> int:
    """Generic mana that spells ``pid`` casts cost less (CR 601.2f)."""
    return sum(st.generic for src in _active(game) if src.controller == pid
               for st in src.defn.global_statics if isinstance(st, SpellsCostLess))


def combat_limit(game: Game, what: str) -> int | None:
    """The most creatures that can attack (``what='attack'``) or block each combat."""
    limits = [st.most for src in _active(game) for st in src.defn.global_statics
              if isinstance(st, CombatLimit) and st.what == what]
    return min(limits) if limits else None


def prevent_one_sources(game: Game, pid: int, source_controller: int) -> list[Obj]:
    """The objects whose "prevent 1 of that damage" abilities apply to damage a source
    controlled by ``source_controller`` would deal to ``pid``: each prevents 1 (two copies of
    a scheme in motion prevent 2, CR 615.10)."""
    if not game.are_opponents(pid, source_controller):
        return []
    return [src for src in _active(game) if src.controller == pid
            for st in src.defn.global_statics if isinstance(st, PreventOneFromOpponents)]


def untap_also(game: Game, active: int) -> list[int]:
    """Players other than ``active`` whose permanents untap during ``active``'s untap step."""
    return sorted({src.controller for src in _active(game) for st in src.defn.global_statics
                   if isinstance(st, UntapDuringOpponentsUntap)
                   and game.are_opponents(src.controller, active)})
