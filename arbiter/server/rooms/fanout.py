"""Getting a match's changes to the connections that follow it, each seeing what its viewer
class may see.

After a command the fan-out turns the table's lifecycle events into room messages (opened,
paused, closed, resumed, restarted), projects every room's dirty keys once per key, encodes one
delta per viewer class and sends the same bytes to every connection of the class. Two copies
differ: the acting connection's carries its request id (the acknowledgement), and the deciding
seat's carries its next legal actions, so a command costs one frame per connection.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from arbiter.protocol.codec import extend, pack
from arbiter.protocol.server_messages import (
    Actions,
    Closed,
    Opened,
    Paused,
    Restarted,
    Resumed,
    ServerMessage,
    encode,
)
from arbiter.server.rules import Table
from arbiter.server.rules.game import Event, Game

from .lifecycle import Change, GameRooms
from .views import GameRoom

if TYPE_CHECKING:
    from .context import RoomContext
    from .peers import Peer
    from .seating import Seating


# Not frozen, though nothing changes one once made: one is made per command, and a frozen
# dataclass's __init__ sets each field through object.__setattr__, four times the cost.
@dataclass(slots=True)
class Ack:
    """Who gets the acknowledgement of the command being published, and where."""

    peer: Peer
    request: int
    room: str | None  # the room whose delta carries it (None: an ``ok`` always)
    player: int | None  # the seat the peer plays from


class Fanout:
    def __init__(self, ctx: RoomContext, seating: Seating, rooms: GameRooms) -> None:
        self.ctx = ctx
        self.seating = seating
        self.rooms = rooms

    # ------------------------------------------------------------------ plain sending

    def send(self, peers: Sequence[Peer], message: ServerMessage) -> None:
        self.ctx.out.message(peers, message)

    def broadcast(self, message: ServerMessage) -> None:
        self.ctx.out.message(self.seating.members(), message)

    def class_peers(self, room: GameRoom, key: int) -> list[Peer]:
        return self.seating.class_peers(key, room.classes)

    # ------------------------------------------------------------------ snapshots, actions

    def snapshot_to(self, table: Table | None, room: GameRoom, peers: Iterable[Peer],
                    request: int | None = None) -> None:
        """Send ``room``'s snapshot to each of ``peers`` (one encoding per class), then the
        legal actions to whoever of them must decide."""
        by_class: dict[int, list[Peer]] = {}
        for peer in peers:
            cls = room.class_for(self.seating.player_of(peer))
            by_class.setdefault(cls.key, []).append(peer)
        out = self.ctx.out
        for key, targets in by_class.items():
            cls = room.classes[key]
            repair = room.verify(cls)
            if repair:
                self.ctx.stats.view_repairs += 1
                room.encode_delta(cls, repair)
                out.send(self.class_peers(room, key), room.last_frame(cls))
            out.send(targets, pack(encode(room.snapshot_message(cls, request))))
            self.actions_to(table, room, targets)

    def actions_to(self, table: Table | None, room: GameRoom, peers: Iterable[Peer]) -> None:
        """The pending decision's legal actions, to those of ``peers`` who must decide."""
        d = table.pending if table is not None else None
        if d is None or d.game != room.number:
            return
        deciders = [p for p in peers if self.seating.player_of(p) == d.player]
        if deciders:
            room.actions_serial = d.serial
            self.send(deciders, Actions(room.id, d.to_wire()))

    def announce_decision(self, table: Table | None) -> None:
        """Announce the pending decision to its player, unless that is already done."""
        d = table.pending if table is not None else None
        if d is None:
            return
        room = self.rooms.of_game(d.game)
        if room is not None and room.actions_serial != d.serial:
            self.actions_to(table, room, self.seating[d.player].peers)

    def follow(self, table: Table | None, peer: Peer,
               positions: dict[str, tuple[int, int]] | None = None) -> None:
        """Bring a peer that (re)joins up to date on every room of the match: the deltas it
        missed where the history still has them, a snapshot otherwise."""
        out = self.ctx.out
        for room in self.rooms.in_order(table):
            pos = (positions or {}).get(room.id)
            frames = None
            if pos is not None:
                frames = room.missed(room.class_for(self.seating.player_of(peer)), *pos,
                                     peer.version)
            if frames is None:
                self.snapshot_to(table, room, [peer])
            else:
                for frame in frames:
                    out.send([peer], frame)
                self.actions_to(table, room, [peer])

    # ------------------------------------------------------------------ after a command

    def publish(self, table: Table, events: list[Event], ack: Ack | None, *,
                lifecycle: bool) -> bool:
        """Send everything ``events`` and the rooms' dirty keys call for; True when the
        acknowledgement rode in a delta (otherwise the caller answers ``ok``). ``lifecycle``:
        one of ``events`` opens, closes or restarts a game (the caller has looked)."""
        rooms = self.rooms
        fresh: list[str] = []  # rooms that get a snapshot instead of a delta
        # Each log line goes to the room of the game it happened in, looked up before the
        # lifecycle events below change the room ids. A new subgame's or restarted game's own
        # lines reach its room in the snapshot that opens it.
        lines: dict[str, list[str]] = {}
        ids = rooms.ids
        for ev in events:
            rid = ids.get(ev.game)
            if rid is not None:
                said = lines.get(rid)
                if said is None:
                    lines[rid] = [ev.text]
                else:
                    said.append(ev.text)
        # Most commands have no lifecycle event: no rooms.track then.
        changes = rooms.track(events) if lifecycle else None
        if changes:
            on_stack = {g.number: g for g in table.games}
            for change in changes:
                fresh.extend(self._lifecycle(table, change, on_stack, fresh))
        acked = False
        # The next decision's legal actions ride in the decider's delta when there is one.
        d = table.pending
        decision_room = rooms.ids.get(d.game) if d is not None else None
        if d is not None:
            room = rooms.get(decision_room or "")
            if room is not None and room.actions_serial == d.serial:
                d = None  # already announced
        out = self.ctx.out
        class_peers = self.seating.class_peers
        for room in list(rooms.rooms.values()):
            rid = room.id
            if rid in fresh:
                continue
            said = lines.get(rid)
            deltas = room.project()
            classes = room.classes
            if said:
                # A log line is news for everyone in the room, even for a class whose view
                # did not change (a mulligan leaves the hand count where it was).
                for awake in room.awake:
                    deltas.setdefault(awake.key, [])
            for key, ops in deltas.items():
                cls = classes[key]
                targets = class_peers(key, classes)
                if key < 0:  # a watchers' class: kept only while its history may serve
                    if targets:
                        cls.unfollowed = 0
                    elif room.unfollowed(cls):
                        continue  # dozing now: nobody left could be served its deltas
                # A class nobody follows now (no spectators; a seat whose player is away)
                # keeps its delta unpacked: packed only if a reconnect asks for it.
                delta = room.encode_delta(cls, ops, said, packed=bool(targets))
                actions = None
                if d is not None and rid == decision_room and key == d.player:
                    actions = d.to_wire()
                    room.actions_serial = d.serial
                    d = None
                if not targets:
                    continue
                frame = room.last_frame(cls)
                # The extras are appended to the packed delta (codec.extend), not packed
                # with it again: the history keeps the plain delta.
                if actions is not None:
                    delta["a"] = actions
                    frame = extend(frame, {"a": actions})
                if (ack is not None and not acked and rid == ack.room and key == ack.player
                        and ack.peer in targets):
                    # The acting connection's copy of its delta acknowledges its request.
                    targets.remove(ack.peer)
                    out.send([ack.peer], room.frame_v1(cls, {**delta, "i": ack.request})
                             if ack.peer.version == 1 else extend(frame, {"i": ack.request}))
                    acked = True
                if not targets:
                    continue
                if len(targets) == 1 and targets[0].version != 1:
                    out.send(targets, frame)  # a seat's one connection: most frames
                    continue
                old = [p for p in targets if p.version == 1]
                if old:  # connections of protocol version 1: no patch ops
                    targets = [p for p in targets if p.version != 1]
                    out.send(old, room.frame_v1(cls, delta))
                if targets:
                    out.send(targets, frame)
        for rid in fresh:
            self.snapshot_to(table, rooms.rooms[rid], self.seating.members())
        return acked

    def _lifecycle(self, table: Table, change: Change, on_stack: dict[int, Game],
                   fresh: list[str]) -> list[str]:
        """Open, close or restart a room for one lifecycle change; return the rooms that now
        need a snapshot."""
        rooms = self.rooms
        data, rid = change.data, change.room
        if change.kind == "subgame_started":
            parent = rooms.ids.get(data["parent"], rooms.match_id)
            game = on_stack.get(data["game"])
            self.broadcast(Opened(rid, parent, data["game"], data["depth"], data["players"]))
            self.broadcast(Paused(parent, rid))
            if game is not None:
                rooms.open(rid, game)
                return [rid]
        elif change.kind == "subgame_ended":
            parent = rooms.ids.get(data["parent"], rooms.match_id)
            rooms.close(rid)
            if rid in fresh:
                fresh.remove(rid)
            self.broadcast(Closed(rid, parent, data["result"].to_wire()))
            if table.games and rooms.ids.get(table.top.number) == parent:
                self.broadcast(Resumed(parent))
        elif change.kind == "game_restarted":
            room = rooms.get(rid)
            game = on_stack.get(data["game"])
            self.broadcast(Restarted(rid, data["game"], data["old_game"],
                                     data["starting_player"]))
            if room is not None and game is not None:
                room.reset(game)
                if rid not in fresh:
                    return [rid]
        return []
