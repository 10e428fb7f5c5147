"""Archenemy (CR 904): the scheme deck, setting schemes in motion, and what becomes of a scheme
afterwards.

The archenemy's scheme deck is a face-down pile (``game.scheme_deck(pid)``, top card last). A
scheme set in motion is an ordinary object in the command zone, controlled by its owner
(CR 904.7), whose abilities function there (CR 904.8). The teams, the archenemy's 40 life and
first turn live in the configuration and the start of the game (``config.py``, ``flow.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import SCHEME
from .state import COMMAND, SCHEME_DECK, Obj

if TYPE_CHECKING:
    from .game import Game


def set_in_motion(game: Game) -> None:
    """CR 904.9 / 701.25: immediately after the archenemy's precombat main phase begins, they
    move the top card of their scheme deck off it and turn it face up; "when you set this
    scheme in motion" abilities trigger. A turn-based action: no stack."""
    pid = game.config.archenemy
    if pid is None or game.active != pid or not game.in_game(pid):
        return
    deck = game.scheme_deck(pid)
    if not deck:
        return
    scheme = game.move(deck[-1], COMMAND, controller=pid, cause="set_in_motion")
    if scheme is None:  # pragma: no cover - cards always become new objects
        return
    game.say(f"{game.name(pid)} sets {scheme.name} in motion.", "set_in_motion", player=pid,
             obj=scheme.oid, card=scheme.name)
    game.emit("set_in_motion", obj=scheme)


def schemes(game: Game) -> list[Obj]:
    return [o for o in game.command if o.defn.is_(SCHEME)]


def scheme_check(game: Game) -> bool:
    """CR 904.10 / 704.6e: a face-up non-ongoing scheme, when no triggered ability of any
    scheme is on the stack or waiting to be, is turned face down and put on the bottom of its
    owner's scheme deck (a state-based action). Returns whether any was."""
    face_up = [o for o in schemes(game) if not o.defn.ongoing]
    if not face_up or _scheme_trigger_waiting(game):
        return False
    for o in face_up:
        _to_bottom(game, o)
        game.say(f"{o.name} is turned face down.")
    return True


def _scheme_trigger_waiting(game: Game) -> bool:
    return any(t.is_ability and t.source is not None and t.source.defn.is_(SCHEME)
               for t in (*game.pending_triggers, *game.stack))


def abandon(game: Game, source: Obj) -> None:
    """CR 701.26: only a face-up ongoing scheme can be abandoned: it turns face down and goes
    to the bottom of its owner's scheme deck. ``source`` is the scheme as the ability knew it;
    if that object is no longer face up (already abandoned), nothing happens."""
    current = game.objects.get(source.oid)
    if current is None or current.zone != COMMAND or not current.defn.ongoing:
        return
    _to_bottom(game, current)
    game.say(f"{game.name(current.owner)} abandons {current.name}.", "abandon",
             player=current.owner)


def _to_bottom(game: Game, obj: Obj) -> None:
    game.move(obj, SCHEME_DECK, position=0, cause="scheme")
