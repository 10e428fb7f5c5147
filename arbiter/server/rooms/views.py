"""One room's views: for one game on a table's stack, what each viewer class sees.

A viewer class is a seat (a player id of that game) or the spectators (public information only,
or everything when the room allows it). For each class the room keeps a
:class:`~protocol.views.ViewState`, a sequence number and a bounded history of the deltas it sent.
After each command, :meth:`GameRoom.project` reads the game's dirty keys once, projects each key
once for everybody (CR 400.7 makes object ids stable keys) and returns one op list per class; the
caller encodes each list once and hands the same bytes to every connection of the class.

A map entry of which a few fields changed (a land that untaps, a creature dealt damage, a
player's hand count) goes as a patch op naming just those fields, and entries that get the
same patch (the untap step's lands) share one op (protocol version 2, docs/protocol.md
section 9); a connection that speaks only version 1 gets the same delta with
each patch written out as the whole entry (:meth:`GameRoom.frame_v1`).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from arbiter.protocol.codec import pack
from arbiter.protocol.server_messages import Snapshot, delta_map
from arbiter.protocol.views import Op, ViewState, diff, entry_hash, expand, group, patch_of
from arbiter.server.rules.view import OMNISCIENT, SPECTATOR, player_key, project, snapshot

if TYPE_CHECKING:
    from arbiter.server.rules.game import Game

log = logging.getLogger("arbiter.rooms")


_UNSEEN = object()  # no old value looked at yet


class ViewerClass:
    __slots__ = ("dormant", "history", "key", "seq", "state", "unfollowed")

    def __init__(self, key: int, view: dict[Any, Any], history: int) -> None:
        self.key = key
        self.state = ViewState(view)
        self.seq = 0
        self.dormant = False  # not kept up to date while nobody watches (GameRoom.doze)
        self.unfollowed = 0  # deltas made in a row while no connection was in the class
        # (sequence number, frame, whether it has a patch op: then not for version 1); the
        # frame is its map while unpacked (GameRoom.encode_delta)
        self.history: deque[tuple[int, bytes | dict[str, Any], bool]] = deque(maxlen=history)


class GameRoom:
    """The views of one game; ``id`` stays the same when the game restarts (CR 724)."""

    def __init__(self, room_id: str, game: Game, *, spectator_key: int, history: int,
                 new_epoch: Callable[[], int]) -> None:
        self.id = room_id
        self.spectator_key = spectator_key
        self.history = history
        self.new_epoch = new_epoch
        self.repairs = 0
        self.game = game
        self.epoch = 0
        self.classes: dict[int, ViewerClass] = {}
        self.actions_serial = -1  # serial of the decision whose legal actions were last sent
        self.reset(game)

    def reset(self, game: Game) -> None:
        """Start afresh on ``game`` (a new room, or a restart): a new epoch, fresh snapshots."""
        self.game = game
        self.epoch = self.new_epoch()
        game.dirty.clear()
        keys = [*game.seats, self.spectator_key]
        if self.spectator_key == OMNISCIENT:
            # Players of the match who are not in this game (a subgame's outsiders, players
            # who left before a restart) watch it, but never with the all-seeing view.
            keys.append(SPECTATOR)
        self.classes = {k: ViewerClass(k, snapshot(game, k), self.history) for k in keys}
        self.awake = list(self.classes.values())  # the classes project() keeps up to date
        self.actions_serial = -1

    @property
    def number(self) -> int:
        return self.game.number

    def class_for(self, player: int | None) -> ViewerClass:
        """The class a viewer belongs to: their seat if they have one in this game; for a
        player of the match outside this game, the public view; else the spectators'."""
        if player is not None:
            cls = self.classes.get(player)
            if cls is not None:
                return cls
            return self._wake(self.classes.get(SPECTATOR) or self.classes[self.spectator_key])
        return self._wake(self.classes[self.spectator_key])

    # ------------------------------------------------------------------ dormant classes

    def unfollowed(self, cls: ViewerClass) -> bool:
        """No connection is in ``cls`` for its next delta: True when the class is to doze
        instead (:meth:`doze`), because its history could no longer serve anyone who left
        it: the delta would be the history's length plus one past anyone's position."""
        if cls.key >= 0:
            return False
        cls.unfollowed += 1
        if cls.unfollowed <= self.history:
            return False
        self.doze(cls)
        return True

    def doze(self, cls: ViewerClass) -> None:
        """Stop keeping a watchers' class (the spectators', the outsiders') up to date while
        no connection is in it: most rooms have no spectators, and their class cost a fifth
        of a four-player room's work per command. A seat's class is always kept (its
        history serves the player's reconnect). The class wakes in :meth:`class_for`, the
        one way in for a viewer."""
        if cls.key >= 0 or cls.dormant:
            return
        cls.dormant = True
        cls.history.clear()
        self.awake = [c for c in self.classes.values() if not c.dormant]

    def _wake(self, cls: ViewerClass) -> ViewerClass:
        """A dormant class, brought up to date from a fresh snapshot. Its sequence number
        moves on by one and its history is empty, so no client's position can be served
        deltas across the time it slept (``missed`` gives None: a snapshot)."""
        if cls.dormant:
            cls.state = ViewState(snapshot(self.game, cls.key))
            cls.seq += 1
            cls.history.clear()
            cls.dormant = False
            cls.unfollowed = 0
            self.awake = [c for c in self.classes.values() if not c.dormant]
        return cls

    # ------------------------------------------------------------------ deltas

    def project(self) -> dict[int, list[Op]]:
        """Fold the game's dirty keys into every class's view; return the ops per class."""
        game = self.game
        dirty = game.dirty
        if not dirty:
            return {}
        # The view keys (rules.view.view_key) in their order, numbers (object ids) before
        # names, sorted without two Python calls per dirty marker (view_key, a sort key): a
        # tuple marker is a player's, named by player_key.
        numbers: set[Any] = set()
        names: set[str] = set()
        for m in dirty:
            if type(m) is tuple:
                names.add(player_key(m[1]))
            elif type(m) is str:
                names.add(m)
            else:
                numbers.add(m)
        dirty.clear()
        keys: list[Any] = sorted(numbers)
        if names:
            keys += sorted(names)
        out: dict[int, list[Op]] = {}
        classes = self.awake
        patches = 0  # distinct patch ops made: a class with two has them from two of these
        for key in keys:
            public, private = project(game, key)
            if private is None:
                # Everybody gets ``public``. The classes mostly hold one and the same old
                # value (one projection was stored in all of them), so the comparison, the
                # hash and the op are worked out once per distinct old value, and the op list
                # is shared by the classes' deltas (nothing changes an op once made: group
                # makes new ones).
                public_hash: int | None = None
                last_old: Any = _UNSEEN
                op: Op | None = None
                for cls in classes:
                    state = cls.state
                    old = state.view.get(key)  # None: absent (no view holds a None value)
                    if old is not last_old:
                        last_old = old
                        if public is None:
                            op = None if old is None else ["d", key]
                        elif old is not None and old == public:
                            op = None
                        else:
                            if public_hash is None:
                                public_hash = entry_hash(key, public)
                            fields = (patch_of(old, public) if type(old) is dict
                                      and type(public) is dict else None)
                            if fields is None:
                                op = ["s", key, public]
                            else:
                                op = ["p", key, fields]
                                patches += 1
                    if op is not None:
                        if public is None:
                            state.delete(key)
                        else:
                            state.put(key, public, public_hash)  # type: ignore[arg-type]
                        out.setdefault(cls.key, []).append(op)
            else:
                for cls in classes:
                    op = cls.state.update(key, private.get(cls.key, public))
                    if op is not None:
                        out.setdefault(cls.key, []).append(op)
                        if op[0] == "p":
                            patches += 1
        if patches < 2:
            return out  # nothing to group (most commands)
        return {k: group(ops) for k, ops in out.items()}

    def encode_delta(self, cls: ViewerClass, ops: list[Op], log_lines: list[str] | None = None,
                     *, packed: bool = True) -> dict[str, Any]:
        """The class's next delta (its map, :func:`delta_map`), encoded once: the history
        keeps the bytes for reconnects and for every connection of the class. ``log_lines``
        are the game's readable log lines for the command (public text). Not ``packed``, the
        history keeps the map, packed when a reconnect asks for it (the same bytes: nothing
        in a view or an op changes once made)."""
        cls.seq += 1
        delta = delta_map(self.id, cls.seq, cls.state.checksum, ops, log=log_lines or None)
        patched = False
        for op in ops:
            if op[0] == "p":
                patched = True
                break
        cls.history.append((cls.seq, pack(delta) if packed else delta, patched))
        return delta

    @staticmethod
    def last_frame(cls: ViewerClass) -> bytes:
        seq, frame, patched = cls.history[-1]
        if isinstance(frame, bytes):
            return frame
        data = pack(frame)
        cls.history[-1] = (seq, data, patched)
        return data

    @staticmethod
    def frame_v1(cls: ViewerClass, delta: dict[str, Any]) -> bytes:
        """The class's latest delta (``delta``, its map) for a protocol version 1
        connection: each patch op as the set of the whole entry."""
        if not cls.history[-1][2]:
            return pack(delta)
        return pack({**delta, "o": expand(delta["o"], cls.state.view)})

    # ------------------------------------------------------------------ snapshots

    def verify(self, cls: ViewerClass) -> list[Op]:
        """Compare a class's maintained view with a fresh snapshot from the engine; return the
        ops that repair it (none unless the engine missed a dirty key). Run before any snapshot
        is sent, so snapshots always equal what the engine says."""
        fresh = snapshot(self.game, cls.key)
        if fresh == cls.state.view:
            return []
        ops = diff(cls.state.view, fresh)
        log.error("room %s: view of class %s drifted from the engine; repairing %d keys",
                  self.id, cls.key, len(ops))
        self.repairs += 1
        for op in ops:
            if op[0] == "s":
                cls.state.set(op[1], op[2])
            else:
                cls.state.delete(op[1])
        return ops

    def snapshot_message(self, cls: ViewerClass, request_id: int | None = None) -> Snapshot:
        return Snapshot(self.id, self.epoch, cls.seq, cls.state.checksum, cls.state.view,
                        self.game.number, self.game.log[-SNAPSHOT_LOG:], request_id)

    def missed(self, cls: ViewerClass, epoch: int, seq: int, version: int | None = None
               ) -> list[bytes] | None:
        """The deltas a client at (``epoch``, ``seq``) missed, or None if the history cannot
        serve them (another epoch, too far behind, or patches for a version 1 client)."""
        if epoch != self.epoch or seq > cls.seq:
            return None
        if seq == cls.seq:
            return []
        missed = [(f, patched) for q, f, patched in cls.history if q > seq]
        if len(missed) != cls.seq - seq or (version == 1 and any(p for _, p in missed)):
            return None
        return [f if isinstance(f, bytes) else pack(f) for f, _ in missed]


SNAPSHOT_LOG = 40  # the most recent log lines a snapshot carries

SPECTATOR_KEYS = {"public": SPECTATOR, "none": SPECTATOR, "all": OMNISCIENT}
