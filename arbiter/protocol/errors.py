"""Error codes on the wire and the one exception the protocol layer raises.

Every error the server sends carries one of these stable codes (clients may switch on them), a
human-readable message and the id of the request it answers. The rules engine's own refusal codes
(``server.rules.errors.ErrorCode``: ``stale_decision``, ``not_your_decision``...) travel through
unchanged; they are listed in docs/protocol.md beside these.
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """Stable error codes of the protocol and room layers."""

    # The frame itself
    BAD_FRAME = "bad_frame"  # not a binary frame, or not valid msgpack
    TOO_LARGE = "too_large"  # the frame exceeds the server's message size limit
    BAD_MESSAGE = "bad_message"  # not a map, or no usable type tag / request id
    UNKNOWN_TYPE = "unknown_type"  # a type tag the server does not know
    MISSING_FIELD = "missing_field"
    BAD_FIELD = "bad_field"  # a field of the wrong type or out of range
    # The conversation
    HELLO_FIRST = "hello_first"  # the first message must be hello
    ALREADY_HELLO = "already_hello"
    UNSUPPORTED_VERSION = "unsupported_version"
    UNKNOWN_SESSION = "unknown_session"
    RATE_LIMITED = "rate_limited"
    # Rooms and seats
    UNKNOWN_ROOM = "unknown_room"
    ROOM_FULL = "room_full"
    SEAT_TAKEN = "seat_taken"
    BAD_TOKEN = "bad_token"
    ALREADY_SEATED = "already_seated"
    NOT_SEATED = "not_seated"  # the request needs a seat this connection does not hold
    NO_SPECTATORS = "no_spectators"
    SEATED_PLAYER = "seated_player"  # an all-seeing spectator may not be one of the players
    WRONG_STATE = "wrong_state"  # e.g. a deck submitted after the game started
    ROOM_PAUSED = "room_paused"  # game actions refused while a subgame runs (CR 726.1a)
    ROOM_CLOSED = "room_closed"
    NOT_JUDGE = "not_judge"
    BAD_CONFIG = "bad_config"
    BAD_DECK = "bad_deck"
    SCENARIOS_DISABLED = "scenarios_disabled"
    LIMIT = "limit"  # a server limit (rooms, connections) is reached
    UNAVAILABLE = "unavailable"  # a cluster node cannot reach its log: nothing was accepted
    INTERNAL = "internal"  # a bug on the server side; nothing changed


class ProtocolError(Exception):
    """A message was refused before reaching any room; nothing changed."""

    def __init__(self, code: Code, message: str, request_id: int | None = None) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.request_id = request_id
