"""Planechase (CR 901): planar decks, the face-up plane, the planar die, planeswalking and chaos,
the planar controller, and what happens when a player leaves.

Each player's planar deck is a face-down pile (``game.planar_deck(pid)``, top card last); the
face-up plane or phenomenon is an ordinary object in the command zone, controlled by the planar
controller (CR 901.6), whose abilities function there (CR 901.7) and reach every player and
object whatever the range of influence (CR 901.13). The planar die is rolled with the game's
random generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import (
    PHENOMENON,
    PLANE,
    UNTIL_PLANESWALK_FROM_PLANE,
    CardDef,
    PlanarDieRolled,
    Planeswalk,
    Triggered,
)
from .mana import ManaCost
from .state import COMMAND, MAIN_PHASES, PLANAR_DECK, STACK, Continuous, Obj

if TYPE_CHECKING:
    from .game import Game

# CR 901.8: the inherent "planeswalking ability". It has no source; its controller is the
# player whose roll made it trigger. It is not a card (nothing in the pool is named this).
PLANESWALKING = CardDef(
    name="Planeswalking ability", types=frozenset(),
    text="Whenever you roll the Planeswalker symbol on the planar die, planeswalk.")
PLANESWALKING_ABILITY = Triggered(PlanarDieRolled(), (Planeswalk(),), text="planeswalk")

# CR 901.3a: a six-sided die with the Planeswalker symbol on one face, the chaos symbol on
# another, and four blank faces.
FACES = ("planeswalker", "chaos", "blank", "blank", "blank", "blank")


def exempt(defn: CardDef) -> bool:
    """CR 901.13: planes and phenomena are exempt from the limited range of influence option
    (in every multiplayer variant this engine plays; Grand Melee is the exception)."""
    return defn.planar


def face_up(game: Game) -> list[Obj]:
    return [o for o in game.command if o.defn.planar]


# --------------------------------------------------------------------------- the controller


def set_planar_controller(game: Game, pid: int | None) -> None:
    """CR 901.6: the planar controller controls every face-up plane and phenomenon."""
    if game.planar_controller != pid:
        game.planar_controller = pid
        game.dirty.add("pc")
    if pid is None:
        return
    for o in face_up(game):
        if o.controller != pid:
            o.controller = o.base_controller = pid
            game.dirty.add(o.oid)


# --------------------------------------------------------------------------- face up, face down


def _to_bottom(game: Game, obj: Obj) -> None:
    """Turn a face-up planar card face down at the bottom of its owner's planar deck: a new
    object (CR 901.7a)."""
    game.move(obj, PLANAR_DECK, position=0, cause="planeswalk")


def _turn_top_face_up(game: Game, pid: int) -> Obj | None:
    deck = game.planar_deck(pid)
    if not deck:
        return None
    controller = game.planar_controller if game.planar_controller is not None else pid
    return game.move(deck[-1], COMMAND, controller=controller, cause="planeswalk")


def set_starting_plane(game: Game) -> None:
    """CR 901.5 / 103.7: once the mulligans are over, the starting player turns the top card
    of their planar deck face up; a phenomenon goes to the bottom and they try again, until a
    plane is face up. Nothing triggers while this happens."""
    if not game.config.planechase:
        return
    sp = game.starting_player
    set_planar_controller(game, sp)
    if not game.in_game(sp):
        return
    # The game hasn't started: this is not planeswalking, so no "planeswalk to" or
    # "encounter" event happens (CR 901.11).
    for _ in range(len(game.planar_deck(sp))):
        top = game.planar_deck(sp)[-1]
        if top.defn.is_(PHENOMENON):
            _to_bottom(game, top)
            continue
        plane = _turn_top_face_up(game, sp)
        if plane is not None:
            game.say(f"{game.name(sp)} sets {plane.name} as the starting plane.",
                     "planeswalk", player=sp, obj=plane.oid, card=plane.name)
        break


# --------------------------------------------------------------------------- planeswalking


def planeswalk(game: Game) -> None:
    """CR 701.24b: the planar controller puts each face-up plane and phenomenon on the bottom
    of its owner's planar deck, then turns the top card of their own planar deck face up.
    Abilities that trigger on planeswalking to or away trigger; effects that last until a
    player planeswalks (away from a plane) end (CR 901.11)."""
    pc = game.planar_controller
    if pc is None or not game.in_game(pc):
        return
    leaving = face_up(game)
    for o in leaving:
        game.emit("planeswalked_away", obj=o)
    for o in leaving:
        _to_bottom(game, o)
    _end_planeswalk_effects(game, away_from_plane=any(o.defn.is_(PLANE) for o in leaving))
    _arrive(game, pc)


def _arrive(game: Game, pc: int) -> None:
    new = _turn_top_face_up(game, pc)
    if new is None:
        game.say(f"{game.name(pc)} has no planar deck to planeswalk to.")
        return
    verb = "encounters" if new.defn.is_(PHENOMENON) else "planeswalks to"
    game.say(f"{game.name(pc)} {verb} {new.name}.", "planeswalk", player=pc, obj=new.oid,
             card=new.name)
    game.emit("planeswalked_to", obj=new)


def _end_planeswalk_effects(game: Game, *, away_from_plane: bool) -> None:
    if not away_from_plane:
        return
    before = len(game.effects)
    game.effects = [e for e in game.effects if e.duration != UNTIL_PLANESWALK_FROM_PLANE]
    if len(game.effects) != before:
        game.say("Blank rolls of the planar die are blank again.")


def phenomenon_check(game: Game) -> bool:
    """CR 704.6f / 312.7: a face-up phenomenon that isn't the source of a triggered ability
    waiting or on the stack makes the planar controller planeswalk (a state-based action)."""
    for o in game.command:
        if o.defn.is_(PHENOMENON) and not _source_of_waiting_trigger(game, o):
            planeswalk(game)
            return True
    return False


def _source_of_waiting_trigger(game: Game, obj: Obj) -> bool:
    return any(t.source is not None and t.source.oid == obj.oid
               for t in (*game.pending_triggers, *game.stack) if t.is_ability)


# --------------------------------------------------------------------------- the planar die


def die_cost(game: Game, pid: int) -> ManaCost:
    """CR 901.9: {N}, N being how many times ``pid`` has already rolled this turn as this
    special action."""
    return ManaCost(game.die_rolls.get(pid, 0))


def may_roll(game: Game, pid: int) -> bool:
    """CR 901.9 / 116.2i: the active player, with priority, the stack empty, in a main phase
    of their turn (the caller checks that they can pay :func:`die_cost`). With shared team
    turns each player on the active team is an active player (CR 805.4a) and may roll, each
    at their own cost."""
    return (game.config.planechase and game.is_active(pid) and game.step in MAIN_PHASES
            and not game.stack)


def roll(game: Game, pid: int) -> None:
    """CR 901.9a-c: roll (the cost has been paid) and act on the face. Doesn't use the stack;
    the roller keeps priority."""
    cost = die_cost(game, pid)
    game.die_rolls[pid] = game.die_rolls.get(pid, 0) + 1
    face = FACES[game.rng.below(len(FACES))]
    if face == "blank" and any(e.kind == "blank_chaos" for e in game.effects):
        face = "chaos"  # a phenomenon's effect (Chaotic Aether)
    game.say(f"{game.name(pid)} rolls the planar die ({cost}): {face}.", "planar_die",
             player=pid, face=face)
    game.emit("planar_die", player=pid, face=face)
    if face == "chaos":
        chaos(game)
    elif face == "planeswalker":
        game.pending_triggers.append(Obj(
            oid=0, defn=PLANESWALKING, owner=pid, controller=pid, zone=STACK, zone_owner=None,
            ability=PLANESWALKING_ABILITY, ability_index=0, event={"player": pid}))


def chaos(game: Game) -> None:
    """CR 311.7 / 901.9b: chaos ensues; each face-up plane's chaos ability triggers."""
    game.emit("chaos", player=game.planar_controller)


def blank_rolls_are_chaos(game: Game, controller: int) -> None:
    game.table.timestamp += 1
    game.effects.append(Continuous("blank_chaos", controller, game.table.timestamp,
                                   UNTIL_PLANESWALK_FROM_PLANE))


# --------------------------------------------------------------------------- leaving (901.10)


def before_leaving(game: Game, gone: set[int]) -> str | None:
    """CR 901.6, 901.10, 901.10b, as players are about to leave: a new planar controller
    first, then the face-up planar cards the leavers own are planeswalked away from (they
    leave with their owners), and their phenomena's abilities change hands. Returns whether
    a face-up planar card is leaving, and which kind: "Plane", "Phenomenon" or None."""
    if not game.config.planechase:
        return None
    pc = game.planar_controller
    if pc is not None and pc in gone:
        set_planar_controller(game, _next_staying(game, pc, gone))
    leaving = [o for o in face_up(game) if o.owner in gone]
    for o in leaving:
        game.emit("planeswalked_away", obj=o)
    new_pc = game.planar_controller
    for t in (*game.stack, *game.pending_triggers):
        if (t.is_ability and t.controller in gone and t.source is not None
                and t.source.defn.is_(PHENOMENON) and new_pc is not None):
            t.controller = new_pc  # CR 901.10b
            if t.oid in game.objects:
                game.dirty.add(t.oid)
    if not leaving:
        return None
    return PLANE if any(o.defn.is_(PLANE) for o in leaving) else PHENOMENON


def after_leaving(game: Game, left: str | None) -> None:
    """CR 901.10 / 901.10a: once they have left, if a face-up planar card left with them, any
    planeswalking ability on the stack ceases to exist and the planar controller turns the top
    card of their planar deck face up (not a state-based action: right away)."""
    if left is None:
        return
    if left == PLANE:
        for o in [o for o in game.stack if o.ability is PLANESWALKING_ABILITY]:
            game.remove_object(o)
        game.pending_triggers = [t for t in game.pending_triggers
                                 if t.ability is not PLANESWALKING_ABILITY]
    pc = game.planar_controller
    if pc is not None and game.in_game(pc) and not face_up(game):
        _end_planeswalk_effects(game, away_from_plane=left == PLANE)
        _arrive(game, pc)


def _next_staying(game: Game, pid: int, gone: set[int]) -> int | None:
    n = len(game.seats)
    i = game.seats.index(pid)
    for k in range(1, n):
        q = game.seats[(i + k) % n]
        if game.in_game(q) and q not in gone:
            return q
    return None
