"""What each viewer may see of a game, as a flat map of view keys to plain values.

A viewer is a player id, :data:`SPECTATOR` (public information only) or :data:`OMNISCIENT`
(a spectator allowed to see everything). The view is keyed by stable keys (object ids, ``p0``,
``t``...), never by positions in a list, so a delta names exactly what changed. Cards in a
library, a planar deck or a scheme deck are never part of any view (only the counts are); a card
in a hand is visible to its owner and, in team games, to the owner's teammates (CR 808.5,
809.7). Face-up planes, phenomena, schemes and vanguards are public objects in the command zone.
See docs/protocol.md.

:func:`project` returns one key's value for everyone at once: a public value plus, for keys
whose value depends on the viewer, a map of viewer-specific values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .characteristics import granted_keywords, is_type, power, toughness
from .state import (
    BATTLEFIELD,
    COMMAND,
    EXILE,
    GRAVEYARD,
    HAND,
    HIDDEN_ZONES,
    LIBRARY,
    STACK,
    Obj,
)
from .teams import acting_orders

if TYPE_CHECKING:
    from .game import Game

SPECTATOR = -1
OMNISCIENT = -2

ZONE_CODES = {HAND: "h", BATTLEFIELD: "b", GRAVEYARD: "g", EXILE: "e", STACK: "s", COMMAND: "c",
              LIBRARY: "l"}  # a library card only while a static ability reveals it


def player_key(pid: int) -> str:
    return f"p{pid}"


def view_key(dirty: Any) -> Any:
    """Map an internal dirty marker to its view key."""
    if isinstance(dirty, tuple):
        return player_key(dirty[1])
    return dirty


def _status(game: Game, pid: int) -> str:
    if game.in_game(pid):
        return "in"
    outcome = game.outcomes.get(pid)
    return outcome.outcome if outcome else "out"


def _player(game: Game, pid: int) -> dict[str, Any]:
    ps = game.players[pid]
    out: dict[str, Any] = {"l": ps.life, "h": len(game.hand(pid)), "y": len(game.library(pid)),
                           "s": _status(game, pid)}
    if ps.poison:
        out["v"] = ps.poison
    if ps.mana:
        out["m"] = "".join(c * n for c, n in sorted(ps.mana.items()))
    if ps.commander_damage:
        out["cd"] = {game.table.cards[cid].name: n
                     for cid, n in sorted(ps.commander_damage.items())}
    if ps.commander_casts:
        out["ct"] = sum(ps.commander_casts.values())
    planar, schemes = len(game.planar_deck(pid)), len(game.scheme_deck(pid))
    if planar:
        out["pd"] = planar
    if schemes:
        out["sd"] = schemes
    most = game.max_hand_size(pid)
    if most != 7:
        out["mx"] = "none" if most is None else most
    return out


def _object(game: Game, o: Obj) -> dict[str, Any]:
    out: dict[str, Any] = {"n": o.name, "z": ZONE_CODES[o.zone], "o": o.owner, "i": o.order}
    if o.controller != o.owner:
        out["c"] = o.controller
    if o.zone_owner is not None and o.zone_owner != o.owner:
        out["zo"] = o.zone_owner
    if o.is_ability:
        out["ab"] = o.ability.text if o.ability is not None and o.ability.text else "ability"
        out["c"] = o.controller
    if o.zone == BATTLEFIELD:
        if o.tapped:
            out["t"] = 1
        if o.damage:
            out["d"] = o.damage
        if o.counters:
            out["k"] = dict(sorted(o.counters.items()))
        if o.attached_to is not None:
            out["a"] = o.attached_to
        if o.chosen:
            out["ch"] = o.chosen  # a basic land type chosen as it entered
        if o.chosen_name:  # public: the name was chosen aloud (Pithing Needle)
            out["nm"] = o.chosen_name
        if o.phased_out:
            out["x"] = 1
        if is_type(game, o, "Creature"):
            out["pt"] = [power(game, o), toughness(game, o)]
            granted = granted_keywords(game, o)
            if granted:
                out["kw"] = sorted({str(k) for k in granted})
        if o.attacking is not None:
            out["at"] = list(o.attacking)
        if o.blocking is not None:
            out["bl"] = o.blocking
        if o.also_blocking:  # the other attackers one creature blocks (CR 509.1a)
            out["bx"] = list(o.also_blocking)
    if o.card is not None and o.card.name != o.name:
        out["cp"] = o.card.name  # a card that is a copy of another (CR 707.2): what it is
    if o.is_token:
        out["tk"] = 1
    if o.is_commander:
        out["cm"] = 1
    if o.defn.supplementary:  # a plane, phenomenon, scheme or vanguard: what kind
        out["ty"] = next(t.lower() for t in ("Plane", "Phenomenon", "Scheme", "Vanguard")
                         if o.defn.is_(t))
        if o.defn.ongoing:
            out["on"] = 1
    if o.zone == STACK:
        if o.is_copy:
            out["cy"] = 1  # a copy of a spell (CR 707.10): no card stands behind it
        if o.x:
            out["xv"] = o.x  # the X announced (CR 107.3a)
        if o.targets:
            out["tg"] = [list(t) for t in o.targets]
        if o.division:
            out["dv"] = list(o.division)  # each target's share, as announced (CR 601.2d)
        if o.stack_id:
            out["sk"] = o.stack_id  # whose turn marker's stack (CR 807.5)
    return out


def _hand_viewers(game: Game, owner: int) -> list[int]:
    return [owner, *game.teammates(owner)]


def project(game: Game, key: Any) -> tuple[Any, dict[int, Any] | None]:
    """The value of ``key`` for the public and, where it differs, for particular viewers.

    ``None`` as a value means the key is absent from that view.
    """
    if isinstance(key, int):
        o = game.objects.get(key)
        if o is None:
            return None, None
        if key in game.revealed:  # shown to every player (reveals.py, CR 701.16a)
            return _object(game, o), None
        if o.zone in HIDDEN_ZONES:
            return None, None
        if o.zone == HAND:
            entry = _object(game, o)
            return None, {v: entry for v in (*_hand_viewers(game, o.owner), OMNISCIENT)}
        return _object(game, o), None
    if key == "t":
        turn: list[Any] = [game.turn, game.active, game.step, game.starting_player]
        if game.extra_turns:  # CR 500.7: the last one added is taken first
            turn.append(game.extra_turns[::-1])
        return turn, None
    if key == "w":
        d = game.pending
        if d is not None:
            if d.stack is not None:
                return [d.player, d.kind, d.stack], None  # Grand Melee: for that stack
            return [d.player, d.kind], None
        if game.suspended:
            return ["subgame"], None
        return None, None
    if key == "g":
        return _game_entry(game), None
    if key == "pc":
        return game.planar_controller, None
    if key == "r":
        if game.ranges is None:
            return None, None
        return {p: sorted(r) for p, r in sorted(game.ranges.items())}, None
    if key == "m":
        return (game.melee.view() if game.melee is not None else None), None
    if key == "d":
        if game.draw_offer is None:
            return None, None
        return [game.draw_offer[0], sorted(game.draw_offer[1])], None
    if key == "x":
        return (game.result.to_wire() if game.result is not None else None), None
    if isinstance(key, str) and key.startswith("p") and key[1:].isdigit():
        pid = int(key[1:])
        if pid not in game.players:
            return None, None
        return _player(game, pid), None
    return None, None


def _game_entry(game: Game) -> dict[str, Any]:
    """Which game this is, who sits where and, in team games, the teams: each in its acting
    order (CR 805.2: the primary player first), and what teammates share: "turns" (CR 805)
    and "life" (one life total and poison count per team, CR 810.4, 810.10)."""
    parent = game.parent.number if game.parent is not None else None
    out: dict[str, Any] = {"n": game.number, "depth": game.depth, "parent": parent,
                           "variant": game.config.variant, "seats": list(game.seats)}
    if game.config.team_game:
        orders = acting_orders(game.config, game.seats)
        teams = {orders[p] for p in game.seats}
        out["teams"] = [list(t) for t in sorted(teams, key=lambda t: game.seats.index(t[0]))]
        shared = ["turns"] if game.team_turns else []
        out["shared"] = shared + (["life"] if game.config.giant else [])
    options = [o for o in ("planechase", "vanguard") if getattr(game.config, o)]
    if options:
        out["options"] = options
    if game.config.archenemy is not None:
        out["archenemy"] = game.config.archenemy
    return out


def all_keys(game: Game) -> list[Any]:
    keys: list[Any] = ["g", "t", "w", "r", "m", "d", "x", "pc"]
    keys.extend(player_key(p) for p in game.seats)
    keys.extend(oid for oid, o in game.objects.items()
                if o.zone not in HIDDEN_ZONES or oid in game.revealed)
    return keys


def snapshot(game: Game, viewer: int) -> dict[Any, Any]:
    """The complete view of ``game`` for one viewer."""
    out: dict[Any, Any] = {}
    for key in all_keys(game):
        public, private = project(game, key)
        value = private.get(viewer, public) if private is not None else public
        if value is not None:
            out[key] = value
    return out

