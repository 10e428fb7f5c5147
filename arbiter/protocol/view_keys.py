"""Named readers for the keys of a view (docs/protocol.md section 8), so that code reading a
seat's view says what it reads (the turn, the draw offer, a player's status) instead of
spelling wire keys (``view["t"][0]``, ``view.get("d")``, ``view[f"p{n}"]["s"]``).

The key constants are the top-level keys of section 8's table (a test holds them to it); the
object readers take one object's entry (an integer key's value). Every reader tolerates what a
view may lack: a view before the game starts has no turn, most views have no draw offer, and a
spectator's replica may not have a player yet. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

View = Mapping[Any, Any]
Entry = Mapping[str, Any]

GAME = "g"  # the game: number, depth, variant, seats, teams, what teammates share
TURN = "t"  # [turn, active player, step, starting player, [extra turns, next first]]
WAITING = "w"  # who must decide
RANGES = "r"  # ranges of influence (CR 801)
MELEE = "m"  # Grand Melee's turn markers (CR 807)
DRAW = "d"  # a draw offer (CR 104.4i)
RESULT = "x"  # the game's result once it has ended
PLANAR = "pc"  # Planechase's planar controller (CR 901.6)
PLAYER_PREFIX = "p"  # "p0", "p1", ...: one entry per player
KEYS = frozenset({GAME, TURN, WAITING, RANGES, MELEE, DRAW, RESULT, PLANAR})

IN_GAME = "in"  # a player's status while they are still in the game ("won", "lost", "drew")


class DrawOffer(NamedTuple):
    """A draw offer as a view shows it: who proposed, and who has accepted (the proposer
    among them)."""

    proposer: int
    accepted: tuple[int, ...]


# --------------------------------------------------------------------------- the game


def game(view: View) -> Entry:
    """The game's entry (empty before the view has one)."""
    entry = view.get(GAME)
    return entry if isinstance(entry, Mapping) else {}


def game_number(view: View) -> int:
    """The number of the game the view shows: 1 for the main game, unique on a table (0 when
    the view has no game entry yet)."""
    return int(game(view).get("n", 0))


def game_depth(view: View) -> int:
    """0 for the main game, 1 for a subgame of it (CR 726), and so on."""
    return int(game(view).get("depth", 0))


def teams(view: View) -> list[tuple[int, ...]]:
    """The teams of a team game in turn order, each in its acting order (with shared team
    turns the primary player first, CR 805.2); empty when there are none."""
    return [tuple(int(p) for p in team) for team in game(view).get("teams") or ()]


def shares(view: View, what: str) -> bool:
    """Do teammates share ``what``: ``"turns"`` (CR 805) or ``"life"`` (CR 810.4)?"""
    return what in (game(view).get("shared") or ())


def turn(view: View) -> int | None:
    """The turn number (None before the first turn's entry exists)."""
    entry = view.get(TURN)
    return int(entry[0]) if entry else None


def extra_turns(view: View) -> list[int]:
    """The players who will take extra turns (CR 500.7), the next one first."""
    entry = view.get(TURN)
    return [int(p) for p in entry[4]] if entry and len(entry) > 4 else []


def active_player(view: View) -> int | None:
    """The active player; with shared team turns, the turn holder of the active team."""
    entry = view.get(TURN)
    return int(entry[1]) if entry else None


def step(view: View) -> str | None:
    """The current step ("main1", "begin_combat", "end"...; None before the first turn)."""
    entry = view.get(TURN)
    return str(entry[2]) if entry else None


def draw_offer(view: View) -> DrawOffer | None:
    """The draw offer standing in the game, if any (CR 104.4i)."""
    entry = view.get(DRAW)
    if not entry:
        return None
    return DrawOffer(int(entry[0]), tuple(int(p) for p in entry[1]))


# --------------------------------------------------------------------------- players


def player_key(pid: int) -> str:
    return f"{PLAYER_PREFIX}{pid}"


def player_of_key(key: Any) -> int | None:
    """The player a view key is about (``"p3"`` is 3), or None for any other key."""
    if isinstance(key, str) and key[:1] == PLAYER_PREFIX and key[1:].isdigit():
        return int(key[1:])
    return None


def players(view: View) -> dict[int, Entry]:
    """Every player's entry, by player id."""
    # A bot asks after every frame it receives, and a view's keys are mostly object ids
    # (integers): each of those is passed over with one type test, not a call.
    out = {}
    for key, value in view.items():
        if type(key) is not str:
            continue
        pid = player_of_key(key)
        if pid is not None and isinstance(value, Mapping):
            out[pid] = value
    return out


def player(view: View, pid: int) -> Entry:
    """Player ``pid``'s entry (empty when the view has none)."""
    entry = view.get(player_key(pid))
    return entry if isinstance(entry, Mapping) else {}


def status(view: View, pid: int) -> str | None:
    """``"in"`` while player ``pid`` is in the game, then ``"won"``, ``"lost"`` or ``"drew"``."""
    value = player(view, pid).get("s")
    return str(value) if value is not None else None


def in_game(view: View, pid: int) -> bool:
    return status(view, pid) == IN_GAME


def players_in(view: View) -> list[int]:
    """The players still in the game, by id."""
    return sorted(pid for pid, entry in players(view).items() if entry.get("s") == IN_GAME)


def life(view: View, pid: int) -> int:
    """Player ``pid``'s life total (in Two-Headed Giant the team's, CR 810.4); 0 if unknown."""
    return int(player(view, pid).get("l", 0))


# --------------------------------------------------------------------------- objects


def objects(view: View) -> dict[int, Entry]:
    """The objects the view shows, by object id (the integer keys)."""
    return {k: v for k, v in view.items() if isinstance(k, int) and not isinstance(k, bool)}


def name(obj: Entry) -> str:
    return str(obj["n"])


def zone(obj: Entry) -> str:
    """``h`` hand, ``b`` battlefield, ``g`` graveyard, ``e`` exile, ``s`` stack, ``c`` command,
    ``l`` library (only its top card, while a static ability keeps it revealed)."""
    return str(obj["z"])


def owner(obj: Entry) -> int:
    return int(obj["o"])


def controller(obj: Entry) -> int:
    """The object's controller: its owner unless the entry says otherwise."""
    return int(obj.get("c", obj["o"]))


def tapped(obj: Entry) -> bool:
    return bool(obj.get("t"))


def damage(obj: Entry) -> int:
    return int(obj.get("d", 0))


def copy_of(obj: Entry) -> str | None:
    """For a permanent that is a copy of another (Clone as a Serra Angel), the card it really
    is; its name (``n``) is what it copies."""
    cp = obj.get("cp")
    return str(cp) if cp is not None else None


def is_spell_copy(obj: Entry) -> bool:
    """Is this a copy of a spell on the stack (Twincast's), with no card behind it?"""
    return bool(obj.get("cy"))


def x_value(obj: Entry) -> int:
    """The X announced for a spell on the stack (0 when it has none)."""
    return int(obj.get("xv", 0))


def counters(obj: Entry) -> dict[str, int]:
    """The counters on a permanent by kind: a planeswalker's loyalty is its "loyalty" counters
    (CR 306.5c)."""
    return {str(k): int(n) for k, n in (obj.get("k") or {}).items()}


def ability_text(obj: Entry) -> str | None:
    """For an ability on the stack, its text; None for anything else."""
    ab = obj.get("ab")
    return str(ab) if ab is not None else None


def power_toughness(obj: Entry) -> tuple[int, int] | None:
    """A creature's current power and toughness, when the view states them."""
    pt = obj.get("pt")
    return (int(pt[0]), int(pt[1])) if pt else None


def granted_keywords(obj: Entry) -> tuple[str, ...]:
    """Keywords the object has been granted, beyond its card's."""
    return tuple(obj.get("kw", ()))


def attached_to(obj: Entry) -> int | None:
    """The object an Aura or Equipment is attached to, if any."""
    a = obj.get("a")
    return int(a) if a is not None else None


def attacking(obj: Entry) -> tuple[str, int] | None:
    """What the object attacks: ``("p", player)`` or ``("o", planeswalker)``; None if nothing."""
    at = obj.get("at")
    return (str(at[0]), int(at[1])) if at else None


def blocking(obj: Entry) -> int | None:
    """The attacker the object blocks, if any."""
    bl = obj.get("bl")
    return int(bl) if bl is not None else None


def blocked_attackers(obj: Entry) -> tuple[int, ...]:
    """Every attacker the object blocks: ``bl`` first, then ``bx``, the others of a creature
    that blocks several (CR 509.1a); empty when it blocks none."""
    first = blocking(obj)
    return () if first is None else (first, *(int(b) for b in obj.get("bx") or ()))


def chosen_land_type(obj: Entry) -> str | None:
    """The basic land type chosen as the permanent entered (Convincing Mirage, CR 305.6)."""
    ch = obj.get("ch")
    return str(ch) if ch is not None else None


def chosen_name(obj: Entry) -> str | None:
    """The card name chosen as the permanent entered (Pithing Needle, CR 614.12b)."""
    nm = obj.get("nm")
    return str(nm) if nm is not None else None


def divided_damage(obj: Entry) -> tuple[int, ...]:
    """Each target's share of a spell's or ability's divided damage, in the order of its
    targets (CR 601.2d); empty when it divides none."""
    return tuple(int(n) for n in obj.get("dv") or ())


def targets(obj: Entry) -> list[tuple[str, int]]:
    """A spell's or ability's targets: ``("p", player)`` or ``("o", object)``."""
    return [(str(t[0]), int(t[1])) for t in obj.get("tg") or ()]


def loyalty(obj: Entry) -> int | None:
    """A planeswalker's loyalty: its loyalty counters (CR 306.5c); None for anything else."""
    return counters(obj).get("loyalty")


def is_token(obj: Entry) -> bool:
    return bool(obj.get("tk"))


LIBRARY_TOP = "l"  # the zone of a library's top card kept revealed (Vampire Nocturnus)
HAND = "h"


def revealed(view: View, pid: int, zone: str) -> list[Entry]:
    """Player ``pid``'s cards of ``zone`` the view shows, by arrival order: a hand the viewer
    sees (their own, a teammate's, or one revealed by Telepathy) or a library's revealed top
    card (zone ``l``)."""
    cards = [o for o in objects(view).values()
             if o.get("z") == zone and int(o.get("o", -1)) == pid]
    return sorted(cards, key=lambda o: int(o.get("i", 0)))
