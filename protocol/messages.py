"""The messages of protocol version 1: what each one carries, and strict parsing of requests.

Every message is a msgpack map with a type tag under ``"t"``. Requests (client to server) also
carry a request id under ``"i"`` (an unsigned integer chosen by the client) which the reply or the
error echoes. :func:`parse_request` turns a decoded map into one of the request dataclasses below
or raises :class:`ProtocolError` saying exactly what is wrong; :func:`check_server_message`
checks a server message's shape (used by the test suite on every frame, and by clients that want
to be strict). docs/protocol.md documents every message and field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any

from .errors import Code, ProtocolError

VERSIONS = (1,)  # protocol versions this package speaks, oldest first

MAX_NAME = 40
MAX_TOKEN = 64
MAX_ROOM_ID = 32
MAX_CHAT = 500
MAX_DECK_TEXT = 20_000
MAX_REQUEST_ID = 2**53 - 1  # exact in every client language's numbers

DRAW_OPS = ("propose", "accept", "decline", "withdraw")

Checker = Callable[[str, Any], Any]


def _bad(name: str, why: str) -> ProtocolError:
    return ProtocolError(Code.BAD_FIELD, f"field {name!r} {why}")


def uint(name: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_REQUEST_ID:
        raise _bad(name, "must be an unsigned integer")
    return value


def text(limit: int, *, empty: bool = True) -> Checker:
    def check(name: str, value: Any) -> str:
        if not isinstance(value, str):
            raise _bad(name, "must be a string")
        if len(value) > limit:
            raise _bad(name, f"is longer than {limit} characters")
        if not empty and not value.strip():
            raise _bad(name, "must not be empty")
        return value
    return check


def one_of(*choices: str) -> Checker:
    def check(name: str, value: Any) -> str:
        if value not in choices:
            raise _bad(name, f"must be one of {', '.join(choices)}")
        return str(value)
    return check


def mapping(name: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(name, "must be a map")
    return value


def versions(name: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
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
        text(MAX_ROOM_ID)(name, room)
        if not (isinstance(pos, list) and len(pos) == 2):
            raise _bad(name, "must map each room id to [epoch, seq]")
        out[room] = (uint(name, pos[0]), uint(name, pos[1]))
    return out


ROOM = text(MAX_ROOM_ID, empty=False)
TOKEN = text(MAX_TOKEN, empty=False)
NAME = text(MAX_NAME, empty=False)


# --------------------------------------------------------------------------- requests


@dataclass(frozen=True)
class Request:
    i: int  # request id, echoed by the reply or error

    TYPE = ""


@dataclass(frozen=True)
class Hello(Request):
    """First message: the versions the client speaks, and a name or a session to resume."""

    v: tuple[int, ...]
    name: str | None = None
    session: str | None = None
    resume: dict[str, tuple[int, int]] | None = None

    TYPE = "hello"


@dataclass(frozen=True)
class ListRooms(Request):
    TYPE = "rooms"


@dataclass(frozen=True)
class CreateRoom(Request):
    config: dict[str, Any]

    TYPE = "create"


@dataclass(frozen=True)
class Join(Request):
    """Take a seat: ``seat`` (default: the first free one), or reclaim one with its ``token``."""

    r: str
    seat: int | None = None
    token: str | None = None

    TYPE = "join"


@dataclass(frozen=True)
class Spectate(Request):
    r: str

    TYPE = "spectate"


@dataclass(frozen=True)
class SubmitDeck(Request):
    """A deck for the caller's seat: a deck list (``text``) or a ready-made deck's name."""

    r: str
    text: str | None = None
    ready: str | None = None

    TYPE = "deck"


@dataclass(frozen=True)
class Act(Request):
    """Choose action ``a`` of the pending decision whose serial is ``s`` in room ``r``."""

    r: str
    s: int
    a: int

    TYPE = "act"


@dataclass(frozen=True)
class Concede(Request):
    """CR 104.3a. ``r`` is any room of the match; ``g`` names the room of the game to concede
    (default: the innermost game the player is still in)."""

    r: str
    g: str | None = None

    TYPE = "concede"


@dataclass(frozen=True)
class Draw(Request):
    """CR 104.4i: propose, accept, decline or withdraw an intentional draw."""

    r: str
    op: str
    g: str | None = None

    TYPE = "draw"


@dataclass(frozen=True)
class Chat(Request):
    r: str
    text: str

    TYPE = "chat"


@dataclass(frozen=True)
class Resync(Request):
    """Ask for what was missed in room ``r`` since (``e``, ``q``), or for a snapshot."""

    r: str
    e: int | None = None
    q: int | None = None

    TYPE = "resync"


@dataclass(frozen=True)
class Leave(Request):
    r: str

    TYPE = "leave"


@dataclass(frozen=True)
class Judge(Request):
    """CR 104.3k: the room's creator gives the player in ``seat`` a game loss."""

    r: str
    seat: int
    g: str | None = None

    TYPE = "judge"


_REQUESTS: dict[str, type[Request]] = {
    cls.TYPE: cls for cls in (Hello, ListRooms, CreateRoom, Join, Spectate, SubmitDeck, Act,
                              Concede, Draw, Chat, Resync, Leave, Judge)
}

_CHECKERS: dict[str, Checker] = {
    "v": versions, "name": NAME, "session": TOKEN, "resume": positions, "config": mapping,
    "r": ROOM, "seat": uint, "token": TOKEN, "text": text(MAX_DECK_TEXT, empty=False),
    "ready": text(MAX_NAME, empty=False), "s": uint, "a": uint, "g": ROOM,
    "op": one_of(*DRAW_OPS), "e": uint, "q": uint,
}
_CHAT_TEXT = text(MAX_CHAT, empty=False)


# For each request type: its fields (name, checker, required), and every key it may carry.
_SPECS: dict[str, tuple[type[Request], tuple[tuple[str, Checker, bool], ...], frozenset[str]]]
_SPECS = {}
for _kind, _cls in _REQUESTS.items():
    _fields = tuple(
        (f.name, _CHAT_TEXT if (_cls is Chat and f.name == "text") else _CHECKERS[f.name],
         f.default is MISSING)
        for f in fields(_cls) if f.name != "i")
    _SPECS[_kind] = (_cls, _fields, frozenset({"t", "i", *(f[0] for f in _fields)}))


def request_types() -> tuple[str, ...]:
    return tuple(_REQUESTS)


def parse_request(message: dict[str, Any]) -> Request:
    """Validate a decoded client map and build its request; raise :class:`ProtocolError`."""
    rid = message.get("i")
    if not isinstance(rid, int) or isinstance(rid, bool) or not 0 <= rid <= MAX_REQUEST_ID:
        raise ProtocolError(Code.BAD_MESSAGE, "every request needs an unsigned integer id 'i'")
    kind = message.get("t")
    if not isinstance(kind, str):
        raise ProtocolError(Code.BAD_MESSAGE, "every message needs a string type tag 't'", rid)
    spec = _SPECS.get(kind)
    if spec is None:
        raise ProtocolError(Code.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}", rid)
    cls, specs, known = spec
    if not known.issuperset(message):
        extra = sorted(str(k) for k in message if k not in known)
        raise ProtocolError(Code.BAD_FIELD, f"{kind} has no field {extra[0][:40]!r}", rid)
    values: dict[str, Any] = {"i": rid}
    for name, checker, required in specs:
        value = message.get(name)
        if value is None:
            if required:
                raise ProtocolError(Code.MISSING_FIELD, f"{kind} needs field {name!r}", rid)
            continue
        try:
            values[name] = checker(name, value)
        except ProtocolError as exc:
            exc.request_id = rid
            raise
    if cls is SubmitDeck and ("text" in values) == ("ready" in values):
        raise ProtocolError(Code.MISSING_FIELD, "deck needs exactly one of 'text' or 'ready'",
                            rid)
    return cls(**values)


def to_wire(request: Request) -> dict[str, Any]:
    """The map a client sends for ``request`` (absent optional fields left out)."""
    out: dict[str, Any] = {"t": request.TYPE}
    for f in fields(request):
        value = getattr(request, f.name)
        if value is None:
            continue
        if isinstance(value, tuple):
            value = list(value)
        if f.name == "resume":
            value = {k: list(v) for k, v in value.items()}
        out[f.name] = value
    return out


# --------------------------------------------------------------------------- server messages

# Server message types and their required fields ("i" is listed where the message is always a
# reply; where it is optional it is not listed).
SERVER_FIELDS: dict[str, tuple[str, ...]] = {
    "welcome": ("i", "v", "session", "name", "seats", "limits"),
    "rooms": ("i", "rooms"),
    "created": ("i", "r"),
    "joined": ("i", "r", "seat", "token"),
    "ok": ("i",),
    "room": ("r", "state", "seats"),
    "s": ("r", "e", "q", "c", "v"),  # snapshot
    "d": ("r", "q", "c", "o"),  # delta
    "a": ("r", "d"),  # your legal actions
    "result": ("r", "res"),
    "paused": ("r", "sub"),
    "resumed": ("r",),
    "opened": ("r", "parent", "g", "depth", "players"),
    "closed": ("r", "parent", "res"),
    "restarted": ("r", "g", "old", "starting"),
    "chat": ("r", "from", "text"),
    "clock": ("r", "k", "p"),
    "error": ("code", "msg", "i"),
}


def check_server_message(message: dict[Any, Any]) -> str:
    """Return the message's type after checking its required fields; raise ProtocolError."""
    kind = message.get("t")
    if not isinstance(kind, str) or kind not in SERVER_FIELDS:
        raise ProtocolError(Code.UNKNOWN_TYPE, f"unknown server message type {kind!r}")
    missing = [f for f in SERVER_FIELDS[kind] if f not in message]
    if missing:
        raise ProtocolError(Code.MISSING_FIELD, f"{kind} lacks {', '.join(missing)}")
    return kind


def error(code: str, message: str, request_id: int | None, room: str | None = None
          ) -> dict[str, Any]:
    out: dict[str, Any] = {"t": "error", "code": code, "msg": message, "i": request_id}
    if room is not None:
        out["r"] = room
    return out
