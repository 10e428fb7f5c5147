"""The requests of protocol version 1 (client to server), and their strict parsing.

Every request is a msgpack map with a type tag under ``"t"`` and a request id under ``"i"`` (an
unsigned integer chosen by the client) which the answer echoes. :func:`parse_request` turns a
decoded map into one of the request values below or raises :class:`Refusal` saying exactly
what is wrong, with the request id when it could be read. docs/protocol.md section 5 documents
every request and field; the wire keys are short, the names in code are not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import ids
from .errors import Code, Refusal
from .wire import Checker, Codec, Message, key

# Protocol versions this package speaks, oldest first: 2 added the patch op of deltas
# (docs/protocol.md, section 9); a server sends version 1 connections whole entries instead.
VERSIONS = (1, 2)

MAX_NAME = 40
MAX_TOKEN = 64
MAX_ROOM_ID = ids.MAX_LENGTH
MAX_CHAT = 500
MAX_DECK_TEXT = 20_000
MAX_CARD_NAME = 141  # the longest card name printed is 141 characters
MAX_REQUEST_ID = 2**53 - 1  # exact in every client language's numbers

DRAW_OPS = ("propose", "accept", "decline", "withdraw")
BOT_STRATEGIES = ("heuristic", "random")


def _bad(name: str, why: str) -> Refusal:
    return Refusal(Code.BAD_FIELD, f"field {name!r} {why}")


def uint(name: str, value: Any) -> int:
    """An unsigned integer; booleans and floats (even ``3.0``) are not integers."""
    if type(value) is not int or not 0 <= value <= MAX_REQUEST_ID:
        raise _bad(name, "must be an unsigned integer")
    return value


def flag(name: str, value: Any) -> bool:
    """A boolean: ``true`` or ``false``, never 0 or 1."""
    if type(value) is not bool:
        raise _bad(name, "must be a boolean")
    return value


def string(limit: int, *, empty: bool = True) -> Checker:
    def check(name: str, value: Any) -> str:
        if not isinstance(value, str):
            raise _bad(name, "must be a string")
        if len(value) > limit:
            raise _bad(name, f"is longer than {limit} characters")
        if not empty and not value.strip():
            raise _bad(name, "must not be empty")
        return value
    return check


def boolean(name: str, value: Any) -> bool:
    """A msgpack boolean; integers (``0``, ``1``) are not booleans."""
    if type(value) is not bool:
        raise _bad(name, "must be true or false")
    return value


def one_of(*choices: str) -> Checker:
    def check(name: str, value: Any) -> str:
        if not isinstance(value, str) or value not in choices:
            raise _bad(name, f"must be one of {', '.join(choices)}")
        return value
    return check


def mapping(name: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(name, "must be a map")
    return value


def versions(name: str, value: Any) -> tuple[int, ...]:
    if type(value) is int:
        return (uint(name, value),)
    if isinstance(value, list) and value and len(value) <= 16:
        return tuple(uint(name, v) for v in value)
    raise _bad(name, "must be a version number or a non-empty array of them")


def positions(name: str, value: Any) -> dict[str, tuple[int, int]]:
    """``{room id: [epoch, seq]}``: where a resuming client's views of its rooms stand."""
    if not isinstance(value, dict) or len(value) > 64:
        raise _bad(name, "must be a map of at most 64 room ids to [epoch, seq]")
    out: dict[str, tuple[int, int]] = {}
    for room, pos in value.items():
        string(MAX_ROOM_ID)(name, room)
        if not (isinstance(pos, list) and len(pos) == 2):
            raise _bad(name, "must map each room id to [epoch, seq]")
        out[room] = (uint(name, pos[0]), uint(name, pos[1]))
    return out


ROOM = string(MAX_ROOM_ID, empty=False)
TOKEN = string(MAX_TOKEN, empty=False)
NAME = string(MAX_NAME, empty=False)


@dataclass(frozen=True)
class Request(Message):
    id: int = key("i", uint)  # the request id, echoed by the answer


@dataclass(frozen=True)
class Hello(Request):
    """First message: the versions the client speaks, and a name or a session to resume."""

    TYPE = "hello"
    versions: tuple[int, ...] = key("v", versions)
    name: str | None = key("name", NAME, default=None)
    session: str | None = key("session", TOKEN, default=None)
    resume: dict[str, tuple[int, int]] | None = key("resume", positions, default=None)


@dataclass(frozen=True)
class ListRooms(Request):
    TYPE = "rooms"


@dataclass(frozen=True)
class GetCatalog(Request):
    """Card data, ready-made decks and the variants this server offers."""

    TYPE = "catalog"


@dataclass(frozen=True)
class CreateRoom(Request):
    TYPE = "create"
    config: dict[str, Any] = key("config", mapping)


@dataclass(frozen=True)
class Join(Request):
    """Take a seat: ``seat`` (default: the first free one), or reclaim one with its ``token``."""

    TYPE = "join"
    room: str = key("r", ROOM)
    seat: int | None = key("seat", uint, default=None)
    token: str | None = key("token", TOKEN, default=None)


@dataclass(frozen=True)
class Spectate(Request):
    """Watch a room; an all-seeing room (``spectators: all``) needs its ``token``, the
    invitation its creator was given (docs/protocol.md section 7)."""

    TYPE = "spectate"
    room: str = key("r", ROOM)
    token: str | None = key("token", TOKEN, default=None)


@dataclass(frozen=True)
class AddBot(Request):
    """Seat a bot the server runs in a free seat of a waiting room."""

    TYPE = "bot"
    room: str = key("r", ROOM)
    seat: int | None = key("seat", uint, default=None)
    strategy: str | None = key("strategy", one_of(*BOT_STRATEGIES), default=None)
    deck: dict[str, Any] | None = key("deck", mapping, default=None)


@dataclass(frozen=True)
class SubmitDeck(Request):
    """A deck for the caller's seat: a deck list (``text``) or a ready-made deck's name."""

    TYPE = "deck"
    room: str = key("r", ROOM)
    text: str | None = key("text", string(MAX_DECK_TEXT, empty=False), default=None)
    ready: str | None = key("ready", string(MAX_NAME, empty=False), default=None)


@dataclass(frozen=True)
class Act(Request):
    """Choose action ``action`` of the pending decision ``serial`` in room ``room``;
    ``manual``: pay the mana of the spell or ability it casts or activates by hand (a
    ``pay_mana`` decision). Left out, as almost every act leaves it, it is false."""

    TYPE = "act"
    room: str = key("r", ROOM)
    serial: int = key("s", uint)
    action: int = key("a", uint)
    manual: bool | None = key("manual", flag, default=None)


@dataclass(frozen=True)
class Concede(Request):
    """CR 104.3a. ``room`` is any room of the match; ``game`` names the room of the game to
    concede (default: the innermost game the player is still in)."""

    TYPE = "concede"
    room: str = key("r", ROOM)
    game: str | None = key("g", ROOM, default=None)


@dataclass(frozen=True)
class Draw(Request):
    """CR 104.4i: propose, accept, decline or withdraw an intentional draw."""

    TYPE = "draw"
    room: str = key("r", ROOM)
    op: str = key("op", one_of(*DRAW_OPS))
    game: str | None = key("g", ROOM, default=None)


@dataclass(frozen=True)
class Chat(Request):
    TYPE = "chat"
    room: str = key("r", ROOM)
    text: str = key("text", string(MAX_CHAT, empty=False))


@dataclass(frozen=True)
class Resync(Request):
    """Ask for what was missed in room ``room`` since (``epoch``, ``seq``), or a snapshot."""

    TYPE = "resync"
    room: str = key("r", ROOM)
    epoch: int | None = key("e", uint, default=None)
    seq: int | None = key("q", uint, default=None)


@dataclass(frozen=True)
class Leave(Request):
    TYPE = "leave"
    room: str = key("r", ROOM)


@dataclass(frozen=True)
class Judge(Request):
    """CR 104.3k: the room's creator gives the player in ``seat`` a game loss."""

    TYPE = "judge"
    room: str = key("r", ROOM)
    seat: int = key("seat", uint)
    game: str | None = key("g", ROOM, default=None)


# Limited events (docs/protocol.md section 15). An event's id is a room id: ``join``,
# ``spectate``, ``leave``, ``deck`` (a deck list from the pool), ``chat`` and ``resync``
# address events as they address rooms; these are the event's own requests.


@dataclass(frozen=True)
class CreateEvent(Request):
    """Host a sealed or booster-draft event (section 15's settings)."""

    TYPE = "create_event"
    config: dict[str, Any] = key("config", mapping)


@dataclass(frozen=True)
class ListEvents(Request):
    TYPE = "events"


@dataclass(frozen=True)
class StartEvent(Request):
    """The host starts the event: empty seats get bots (when the event has them), boosters
    are opened."""

    TYPE = "start"
    room: str = key("r", ROOM)


@dataclass(frozen=True)
class Pick(Request):
    """Take ``card`` from the pack in front of you (a draft)."""

    TYPE = "pick"
    room: str = key("r", ROOM)
    card: str = key("card", string(MAX_CARD_NAME, empty=False))


@dataclass(frozen=True)
class DropEvent(Request):
    """Leave a started event: no more pairings for you (a match being played goes on)."""

    TYPE = "drop"
    room: str = key("r", ROOM)


# The lobby's people and chat (docs/protocol.md section 16): opt-in, so that a client that
# never follows the lobby (a bot, a load tester) is sent nothing of it.


@dataclass(frozen=True)
class Lobby(Request):
    """Follow the lobby (``follow``: who is online, its chat) or stop; ``hidden``: this
    connection does not make its session appear in the list of people online."""

    TYPE = "lobby"
    follow: bool = key("follow", boolean)
    hidden: bool = key("hidden", boolean, default=False)


@dataclass(frozen=True)
class People(Request):
    """Search the people online: the first of those whose name holds ``query``."""

    TYPE = "people"
    query: str = key("q", string(MAX_NAME))


@dataclass(frozen=True)
class LobbyChat(Request):
    """Say ``text`` to everyone following the lobby (the room chat's text limits)."""

    TYPE = "lobby_chat"
    text: str = key("text", string(MAX_CHAT, empty=False))


@dataclass(frozen=True)
class Replay(Request):
    """A finished game of the log, step by step as the caller may see it (section 17)."""

    TYPE = "replay"
    game: int = key("game", uint)


@dataclass(frozen=True)
class History(Request):
    """The caller's recent finished games and the server's (section 17)."""

    TYPE = "history"


@dataclass(frozen=True)
class Ping(Request):
    """Are you there? Answered ``ok`` at once: a client that cannot send WebSocket pings (a
    browser) tells a silent server from a quiet one with it (section 1)."""

    TYPE = "ping"


REQUESTS = Codec((Hello, ListRooms, GetCatalog, CreateRoom, Join, Spectate, AddBot, SubmitDeck,
                  Act, Concede, Draw, Chat, Resync, Leave, Judge, CreateEvent, ListEvents,
                  StartEvent, Pick, DropEvent, Lobby, People, LobbyChat,
                  Replay, History, Ping))


def request_id(message: Any) -> int | None:
    """The request id of a decoded map, if it has a usable one."""
    rid = message.get("i") if isinstance(message, dict) else None
    return rid if type(rid) is int and 0 <= rid <= MAX_REQUEST_ID else None


def parse_request(message: dict[str, Any]) -> Request:
    """Validate a decoded client map and build its request; raise :class:`Refusal`
    (carrying the request id whenever the map has a usable one)."""
    rid = request_id(message)
    if rid is None:
        raise Refusal(Code.BAD_MESSAGE, "every request needs an unsigned integer id 'i'")
    if message.get("t") == "act" and len(message) == 5:
        # Most of what clients send; the checks below, written out, are those of the codec.
        room, serial, action = message.get("r"), message.get("s"), message.get("a")
        if (type(room) is str and 0 < len(room) <= MAX_ROOM_ID and room.strip()
                and type(serial) is int and 0 <= serial <= MAX_REQUEST_ID
                and type(action) is int and 0 <= action <= MAX_REQUEST_ID):
            return Act(rid, room, serial, action)
    try:
        request = REQUESTS.decode(message, strict=True)
    except Refusal as exc:
        exc.request_id = rid
        raise
    if isinstance(request, SubmitDeck) and (request.text is None) == (request.ready is None):
        raise Refusal(Code.MISSING_FIELD, "deck needs exactly one of 'text' or 'ready'",
                      rid)
    assert isinstance(request, Request)
    return request


def to_wire(request: Request) -> dict[str, Any]:
    """The map a client sends for ``request``."""
    out = REQUESTS.encode(request)
    if isinstance(request, Hello):
        out["v"] = list(request.versions)
        if request.resume is not None:
            out["resume"] = {room: list(pos) for room, pos in request.resume.items()}
    return out
