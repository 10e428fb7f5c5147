"""Typed events the SDK hands to the application, one per server message (plus a few of its
own about the connection). Every event that concerns a room carries the room id ``room``; the
match it belongs to is ``match_of(room)`` (arbiter/protocol/ids.py: a subgame's room id names
its match).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arbiter.protocol.ids import match_of as match_of  # for events.match_of(event.room)


@dataclass(frozen=True)
class Event:
    pass


@dataclass(frozen=True)
class Connected(Event):
    """A connection is open and the server said welcome (``resumed``: the session is an old
    one, after a reconnect)."""

    session: str
    name: str
    resumed: bool


@dataclass(frozen=True)
class Disconnected(Event):
    """The connection dropped; the client reconnects by itself (unless it is closing)."""

    reason: str


@dataclass(frozen=True)
class Redirected(Event):
    """The client moved to the cluster node at ``url``, sent there by a redirect (about
    ``room``, when it named one); it says hello there with its session and carries on."""

    url: str
    room: str | None = None


@dataclass(frozen=True)
class RoomList(Event):
    rooms: list[dict[str, Any]]


@dataclass(frozen=True)
class RoomUpdate(Event):
    """A match room's summary changed: seats, state, spectators, subgame rooms, wins."""

    room: str
    summary: dict[str, Any]


@dataclass(frozen=True)
class Snapshot(Event):
    """The replica of ``room`` was replaced by a complete view (on joining, after a restart,
    a new subgame, or a resync); ``view`` is a copy of it as it was then."""

    room: str
    view: dict[Any, Any]
    log: tuple[str, ...] = ()  # the game's most recent readable log lines


@dataclass(frozen=True)
class Delta(Event):
    """The replica of ``room`` changed by ``ops``; the replica already includes them. ``log``
    holds the game's readable log lines for the change (public text, in order)."""

    room: str
    seq: int
    ops: list[Any]
    size: int  # bytes of the frame
    log: tuple[str, ...] = ()


@dataclass(frozen=True)
class Actions(Event):
    """You must decide in ``room``: ``decision`` has ``serial``, ``kind``, ``prompt`` and
    ``actions`` (each with ``id``, ``kind``, ``label`` and maybe ``obj`` / ``ref``)."""

    room: str
    decision: dict[str, Any]


@dataclass(frozen=True)
class Result(Event):
    """A game of the match in ``room`` ended; ``match`` says where the match stands
    (``game``, ``best_of``, ``wins``, ``over``)."""

    room: str
    result: dict[str, Any]
    match: dict[str, Any] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return bool(self.match.get("over", True))


@dataclass(frozen=True)
class Paused(Event):
    """``room`` is paused while the subgame in ``subgame`` is played (CR 726.1a)."""

    room: str
    subgame: str


@dataclass(frozen=True)
class Resumed(Event):
    room: str


@dataclass(frozen=True)
class SubgameOpened(Event):
    """A subgame started (CR 726) in a room of its own, ``depth`` levels above the main game;
    the client follows it: its snapshot comes next."""

    room: str
    parent: str
    game: int
    depth: int
    players: list[int]


@dataclass(frozen=True)
class SubgameClosed(Event):
    room: str
    parent: str
    result: dict[str, Any]


@dataclass(frozen=True)
class Restarted(Event):
    """The game in ``room`` restarted (CR 724); ``starting`` takes the first turn."""

    room: str
    game: int
    old_game: int
    starting: int


@dataclass(frozen=True)
class ChatMessage(Event):
    room: str
    sender: str
    seat: int | None
    text: str


@dataclass(frozen=True)
class Clock(Event):
    """Chess clocks: milliseconds left per seat, and whose clock runs."""

    room: str
    millis: list[int]
    running: int | None


@dataclass(frozen=True)
class ServerError(Event):
    """An error the server sent that answers no request of ours (or a refused request, also
    raised to its caller as :class:`~clients.sdk.client.RequestError`)."""

    code: str
    message: str
    request_id: int | None
    room: str | None


@dataclass(frozen=True)
class Resynced(Event):
    """The client found a gap or a checksum mismatch in ``room`` and asked for a snapshot."""

    room: str


@dataclass(frozen=True)
class EventUpdate(Event):
    """Limited event ``room`` changed for us: ``state`` is the whole event as we may see it
    (docs/protocol.md section 15), also kept as ``client.event_state(room)``."""

    room: str
    state: dict[str, Any]


@dataclass(frozen=True)
class SeatLost(Event):
    """Someone took over our seat in match ``room`` with its token (from another session):
    this client no longer holds it."""

    room: str
    seat: int


@dataclass(frozen=True)
class People(Event):
    """Who is online on this server (docs/protocol.md section 16), for a client following the
    lobby: ``count`` people in all and the first of them by name, each ``{"n": name, "s":
    status, ["r": room]}``; also kept as ``client.people``."""

    count: int
    people: list[dict[str, Any]]


@dataclass(frozen=True)
class LobbyChat(Event):
    """Lines of the lobby's chat, oldest first, each ``{"n": number, "from": name, "text":
    text}``: the latest ones when the client starts following, then each as it is said."""

    lines: list[dict[str, Any]]
