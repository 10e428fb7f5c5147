"""The server's messages in protocol version 1, as typed values with one encoding and one
decoding (docs/protocol.md section 6).

The server builds these and sends :func:`encode` of them; a client decodes each frame's map
with :func:`decode` (which checks that the required keys are there and ignores keys it does not
know, so that a newer server may add fields). The values inside (views, decisions, results) are
plain maps documented in docs/protocol.md sections 6 to 9.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .wire import Codec, Message, key

Map = dict[Any, Any]


@dataclass(frozen=True)
class ServerMessage(Message):
    pass


@dataclass(frozen=True)
class Welcome(ServerMessage):
    """The answer to ``hello``: the session and the seats it holds, the server's limits."""

    TYPE = "welcome"
    request: int = key("i")
    version: int = key("v")
    session: str = key("session")
    name: str = key("name")
    seats: list[list[Any]] = key("seats")  # [[room, seat, seat token], ...]
    limits: Map = key("limits")


@dataclass(frozen=True)
class RoomList(ServerMessage):
    TYPE = "rooms"
    request: int = key("i")
    rooms: list[Map] = key("rooms")  # room summaries


@dataclass(frozen=True)
class Catalog(ServerMessage):
    """Card data, ready-made decks and variants (docs/protocol.md, "catalog")."""

    TYPE = "catalog"
    request: int = key("i")
    cards: dict[str, Map] = key("cards")
    decks: list[Map] = key("decks")
    variants: list[Map] = key("variants")


@dataclass(frozen=True)
class Created(ServerMessage):
    """The answer to ``create``; ``invite`` is the spectator token of a room whose spectators
    see everything (only its creator gets it)."""

    TYPE = "created"
    request: int = key("i")
    room: str = key("r")
    invite: str | None = key("invite", default=None)


@dataclass(frozen=True)
class Joined(ServerMessage):
    """The answer to ``join`` and ``spectate`` (a spectator's seat and token are nil)."""

    TYPE = "joined"
    request: int = key("i")
    room: str = key("r")
    seat: int | None = key("seat", omit=False)
    token: str | None = key("token", omit=False)


@dataclass(frozen=True)
class Ok(ServerMessage):
    TYPE = "ok"
    request: int = key("i")


@dataclass(frozen=True)
class Redirect(ServerMessage):
    """The room lives on another node of a cluster (or, without a room, a new room goes to
    another node): reconnect there and ask again."""

    TYPE = "redirect"
    request: int | None = key("i", omit=False)
    url: str = key("url")
    room: str | None = key("r", default=None)


@dataclass(frozen=True)
class RoomUpdate(ServerMessage):
    """A match room's summary (docs/protocol.md, "room summary")."""

    TYPE = "room"
    room: str = key("r")
    name: str = key("name")
    state: str = key("state")
    variant: str = key("variant")
    seats: list[Map] = key("seats")
    spectators: str = key("spectators")
    watching: int = key("watching")
    best_of: int = key("best_of")
    game: int = key("game")
    wins: list[int] = key("wins")
    clock: Map | None = key("clock", omit=False)
    rooms: list[str] = key("rooms")


@dataclass(frozen=True)
class Snapshot(ServerMessage):
    """The whole view of room ``room`` for the receiving viewer."""

    TYPE = "s"
    room: str = key("r")
    epoch: int = key("e")
    seq: int = key("q")
    checksum: int = key("c")
    view: Map = key("v")
    game: int = key("g")
    log: list[str] = key("l")
    request: int | None = key("i", default=None)


@dataclass(frozen=True)
class Delta(ServerMessage):
    """What changed in room ``room``, for the receiving viewer."""

    TYPE = "d"
    room: str = key("r")
    seq: int = key("q")
    checksum: int = key("c")
    ops: list[list[Any]] = key("o")
    request: int | None = key("i", default=None)  # the acknowledged request
    actions: Map | None = key("a", default=None)  # the receiver's next decision
    log: list[str] | None = key("l", default=None)  # the game's readable log lines


def delta_map(room: str, seq: int, checksum: int, ops: list[list[Any]], *,
              request: int | None = None, actions: Map | None = None,
              log: list[str] | None = None) -> dict[str, Any]:
    """``encode(Delta(...))`` written out: deltas are most of what a server sends, several per
    command, and building this map directly costs a fraction of building the value first.
    A test checks the two agree for every combination of the optional keys."""
    out: dict[str, Any] = {"t": "d", "r": room, "q": seq, "c": checksum, "o": ops}
    if request is not None:
        out["i"] = request
    if actions is not None:
        out["a"] = actions
    if log is not None:
        out["l"] = log
    return out


@dataclass(frozen=True)
class Actions(ServerMessage):
    """The receiver's legal actions, when they did not ride in a delta."""

    TYPE = "a"
    room: str = key("r")
    decision: Map = key("d")


@dataclass(frozen=True)
class Result(ServerMessage):
    """A game of the match ended: its result and the match's score."""

    TYPE = "result"
    room: str = key("r")
    result: Map = key("res")
    match: Map = key("m")


@dataclass(frozen=True)
class Opened(ServerMessage):
    """A subgame room opened (CR 726)."""

    TYPE = "opened"
    room: str = key("r")
    parent: str = key("parent")
    game: int = key("g")
    depth: int = key("depth")
    players: list[int] = key("players")


@dataclass(frozen=True)
class Paused(ServerMessage):
    TYPE = "paused"
    room: str = key("r")
    subgame: str = key("sub")


@dataclass(frozen=True)
class Closed(ServerMessage):
    """The subgame in room ``room`` ended; the room is gone."""

    TYPE = "closed"
    room: str = key("r")
    parent: str = key("parent")
    result: Map = key("res")


@dataclass(frozen=True)
class Resumed(ServerMessage):
    TYPE = "resumed"
    room: str = key("r")


@dataclass(frozen=True)
class Restarted(ServerMessage):
    """The game in room ``room`` restarted (CR 724); ``starting`` takes the first turn."""

    TYPE = "restarted"
    room: str = key("r")
    game: int = key("g")
    old: int = key("old")
    starting: int = key("starting")


@dataclass(frozen=True)
class ChatLine(ServerMessage):
    TYPE = "chat"
    room: str = key("r")
    sender: str = key("from")
    seat: int | None = key("seat", omit=False)
    text: str = key("text")


@dataclass(frozen=True)
class Clock(ServerMessage):
    """Chess clocks: milliseconds left per seat, and whose clock runs."""

    TYPE = "clock"
    room: str = key("r")
    left: list[int] = key("k")
    running: int | None = key("p", omit=False)


@dataclass(frozen=True)
class SeatLost(ServerMessage):
    """Someone took over the receiver's seat with its token; this connection no longer holds
    it."""

    TYPE = "seat_lost"
    room: str = key("r")
    seat: int = key("seat")


@dataclass(frozen=True)
class EventState(ServerMessage):
    """An event as its receiver may see it (docs/protocol.md section 15): sent whole to each
    follower whenever it changes for them."""

    TYPE = "event"
    room: str = key("r")
    event: Map = key("ev")


@dataclass(frozen=True)
class EventList(ServerMessage):
    TYPE = "events"
    request: int = key("i")
    events: list[Map] = key("events")  # event summaries


@dataclass(frozen=True)
class PeopleList(ServerMessage):
    """Who is online (docs/protocol.md section 16): ``count`` people in all, and the first of
    them by name (those whose name holds ``query``, for the answer to a search): more are
    online than listed when ``count`` is larger than the list."""

    TYPE = "people"
    count: int = key("n")
    people: list[Map] = key("people")  # [{"n": name, "s": status, ["r": room]}]
    request: int | None = key("i", default=None)  # the search this answers
    query: str | None = key("q", default=None)


@dataclass(frozen=True)
class LobbyChatLines(ServerMessage):
    """Lines of the lobby's chat, oldest first: the latest ones to a new follower, then each
    line as it is said."""

    TYPE = "lobby_chat"
    lines: list[Map] = key("lines")  # [{"n": serial, "from": name, "text": text}]


@dataclass(frozen=True)
class ReplayFrames(ServerMessage):
    """A finished game as the caller may see it: the view before the first command
    (``v``), then one list of delta ops per command (``o``) and each step's turn number
    (``turns``); ``seat`` is the caller's player id in that game, or None (docs/protocol.md
    section 17), and each step's log lines (``l``)."""

    TYPE = "replay"
    request: int = key("i")
    game: int = key("game")
    info: Map = key("info")  # room, match game number, variant, names, started, result
    seat: int | None = key("seat", omit=False)
    view: Map = key("v")
    ops: list[list[Any]] = key("o")
    turns: list[int] = key("turns")
    lines: list[list[str]] = key("l")  # the game's log lines of each step, step 0 first


@dataclass(frozen=True)
class History(ServerMessage):
    """The caller's recent finished games (``mine``) and the server's (``recent``)."""

    TYPE = "history"
    request: int = key("i")
    mine: list[Map] = key("mine")
    recent: list[Map] = key("recent")


@dataclass(frozen=True)
class Error(ServerMessage):
    """A refusal: only its sender hears of it, and nothing changed."""

    TYPE = "error"
    code: str = key("code")
    message: str = key("msg")
    request: int | None = key("i", omit=False)
    room: str | None = key("r", default=None)


SERVER_MESSAGES = Codec((Welcome, RoomList, Catalog, Created, Joined, Ok, Redirect, RoomUpdate,
                         Snapshot, Delta, Actions, Result, Opened, Paused, Closed, Resumed,
                         Restarted, ChatLine, Clock, SeatLost, EventState, EventList,
                         PeopleList, LobbyChatLines, ReplayFrames, History, Error))


def encode(message: ServerMessage) -> dict[str, Any]:
    return SERVER_MESSAGES.encode(message)


def decode(data: Map) -> ServerMessage:
    """The typed message a decoded server frame holds; raise :class:`Refusal` if it is
    not one (an unknown type, or a required key missing)."""
    message = SERVER_MESSAGES.decode(data, strict=False)
    assert isinstance(message, ServerMessage)
    return message


def check(data: Map) -> str:
    """Check a decoded server map's shape and return its type (the tests check every frame)."""
    return decode(data).TYPE
