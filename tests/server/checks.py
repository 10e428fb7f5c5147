"""Invariant checks over what real clients received.

Convergence (invariant 2): each client's views, built only from the snapshot and deltas it was
sent, equal a fresh snapshot of that viewer's view taken from the engine.

Secrecy (invariant 3): :class:`SecrecyOracle` replays the game from the server's log and notes,
for every viewer, every object that was ever in a zone hidden from them (a library, a planar or
scheme deck; another player's hand). Object ids are never reused for another card (CR 400.7: a
card that changes zones is a new object), so no frame to that viewer may mention such an id,
anywhere; and no frame may contain the name of a card that viewer never saw. A plane or scheme
turned face up counts as seen by everyone even if it is face down again by the end of the
command (a scheme whose ability had no target, CR 904.10).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arbiter.protocol import checksum, pack, unpack_server
from arbiter.server.net.server import ArbiterServer
from arbiter.server.rules import Table
from arbiter.server.rules.commands import from_record
from arbiter.server.rules.plain import config_from_wire
from arbiter.server.rules.state import HAND, HIDDEN_ZONES
from arbiter.server.rules.view import OMNISCIENT, SPECTATOR, snapshot

from .harness import Client


def normal(value: Any) -> Any:
    """A value as a client decodes it (tuples become arrays, and so on)."""
    return unpack_server(pack({"v": value}))["v"]


def viewer_of(server: ArbiterServer, client: Any, room_id: str) -> int:
    """The viewer class the server puts ``client`` (a harness or SDK client, anything
    holding the session token it said hello with) in for ``room_id``."""
    match = server.hub.match_of(room_id)
    assert match is not None
    room = match.rooms[room_id]
    for s in match.seats:
        if s.session is not None and s.session.token == client.session:
            if s.index in room.classes:
                return s.index
    return room.spectator_key


def assert_rooms_match(server: ArbiterServer, client: Any, label: str) -> int:
    """Every open room ``client``'s tracker follows equals a fresh engine snapshot for the
    viewer the client is; returns the number of rooms checked."""
    checked = 0
    for room_id, rv in client.tracker.rooms.items():
        match = server.hub.match_of(room_id)
        if rv.closed or match is None:
            continue
        room = match.rooms.get(room_id)
        if room is None:
            continue
        assert not rv.stale, f"{label}: room {room_id} is waiting for a resync"
        fresh = normal(snapshot(room.game, viewer_of(server, client, room_id)))
        assert rv.view == fresh, f"{label}: room {room_id} diverged"
        assert rv.state.checksum == checksum(fresh)
        checked += 1
    return checked


def assert_converged(server: ArbiterServer, clients: Iterable[Client]) -> int:
    """Every open room each client follows equals a fresh engine snapshot for that client."""
    checked = 0
    for client in clients:
        assert client.tracker.mismatches == 0, f"{client.label} saw a gap or bad checksum"
        checked += assert_rooms_match(server, client, client.label)
    assert server.hub.stats.view_repairs == 0
    return checked


class SecrecyOracle:
    """What each viewer may never be told, from a replay of the game's log."""

    def __init__(self, server: ArbiterServer, game_id: int) -> None:
        store = server.store
        assert not server.gate.pending, "settle first: the log is written by the gate"
        row = store.game(game_id)
        assert row is not None
        self.config = config_from_wire(row.config)
        table = Table(self.config, row.seed)
        viewers = [*range(len(self.config.players)), SPECTATOR, OMNISCIENT]
        self.hidden: dict[int, set[int]] = {v: set() for v in viewers}
        self.hidden_names: dict[int, set[str]] = {v: set() for v in viewers}
        self.seen_names: dict[int, set[str]] = {v: set() for v in viewers}
        self._note(table)
        for rec in store.commands(game_id):
            events = table.apply(from_record(rec.command))
            self._note(table)
            for e in events:
                if e.kind in ("set_in_motion", "planeswalk") and "card" in e.data:
                    for seen in self.seen_names.values():
                        seen.add(e.data["card"])
        self.table = table

    def _note(self, table: Table) -> None:
        for game in table.games:
            for obj in game.objects.values():
                for v in self.hidden:
                    if obj.zone in HIDDEN_ZONES or (
                            obj.zone == HAND and v != OMNISCIENT
                            and v not in (obj.owner, *game.teammates(obj.owner))):
                        self.hidden[v].add(obj.oid)
                        self.hidden_names[v].add(obj.name)
                    else:
                        self.seen_names[v].add(obj.name)

    def check(self, viewer: int, frames: list[bytes]) -> int:
        """Scan every frame a viewer received; return the number of frames scanned."""
        hidden = self.hidden[viewer]
        assert hidden, "nothing was ever hidden from this viewer: the check would be vacuous"
        names = [n.encode() for n in self.hidden_names[viewer] - self.seen_names[viewer]]
        for frame in frames:
            msg = unpack_server(frame)
            leaked = _object_ids(msg) & hidden
            assert not leaked, f"viewer {viewer} was sent hidden objects {sorted(leaked)}: {msg}"
            for name in names:
                assert name not in frame, f"viewer {viewer} was sent the name {name!r}: {msg}"
        return len(frames)


def _object_ids(msg: dict[Any, Any]) -> set[int]:
    """Every object id a message mentions: view keys, and object references inside values."""
    out: set[int] = set()
    kind = msg.get("t")
    if kind == "s":
        out.update(k for k in msg["v"] if isinstance(k, int))
        for value in msg["v"].values():
            _refs(value, out)
    elif kind == "d":
        for op in msg["o"]:
            if isinstance(op[1], int):
                out.add(op[1])
            if op[0] == "s":
                _refs(op[2], out)
    decision = msg.get("d") if kind == "a" else msg.get("a") if kind == "d" else None
    if decision is not None:
        for action in decision["actions"]:
            if "obj" in action:
                out.add(action["obj"])
            if action.get("ref", [None])[0] == "o":
                out.add(action["ref"][1])
    return out


def _refs(value: Any, out: set[int]) -> None:
    """Object references inside a view value: attachments, blocks, attacks and targets."""
    if not isinstance(value, dict):
        return
    for key in ("a", "bl"):
        if isinstance(value.get(key), int):
            out.add(value[key])
    for ref in [value.get("at"), *value.get("tg", [])]:
        if isinstance(ref, list) and len(ref) == 2 and ref[0] == "o":
            out.add(ref[1])


def assert_secret(server: ArbiterServer, room: str, players: dict[int, Client],
                  watchers: Iterable[Client]) -> tuple[SecrecyOracle, int]:
    """Scan every frame the players and (public) spectators of ``room`` received; return the
    oracle and the number of frames scanned."""
    match = server.hub.matches[room]
    assert match.game_id is not None
    oracle = SecrecyOracle(server, match.game_id)
    scanned = sum(oracle.check(seat, c.frames) for seat, c in players.items())
    scanned += sum(oracle.check(SPECTATOR, w.frames) for w in watchers)
    return oracle, scanned
