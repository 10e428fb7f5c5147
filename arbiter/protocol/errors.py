"""The one refusal type, and the stable codes it carries.

Whatever refuses something raises :class:`Refusal`: the protocol's decoder (a frame or message
that does not fit docs/protocol.md), the room core (a request its rooms and seats do not allow)
and the rules engine (a command the rules do not allow). A refusal changes nothing. The server
turns it into an ``error`` message at one boundary, the hub's request handling
(``arbiter/server/rooms/hub.py``); a client decoding the server's frames refuses them with the
same type. The codes are the wire's (docs/protocol.md section 10): clients may switch on them,
so a code never changes its meaning.

It lives here, in the wire contract, because every layer may import the protocol and the
protocol imports no other layer: the engine stays pure and needs nothing of the room core to
say why it refuses a command. Not a refusal: a log that does not replay is an operator's
problem (``RecoveryError`` in ``arbiter/server/rooms/recovery.py``), never sent to a client.
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """Stable error codes, of every layer."""

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
    NOT_INVITED = "not_invited"  # an all-seeing spectator needs the creator's invitation
    WRONG_STATE = "wrong_state"  # e.g. a deck submitted after the game started
    ROOM_PAUSED = "room_paused"  # game actions refused while a subgame runs (CR 726.1a)
    ROOM_CLOSED = "room_closed"
    NOT_JUDGE = "not_judge"
    SCENARIOS_DISABLED = "scenarios_disabled"
    LIMIT = "limit"  # a server limit (rooms, connections) is reached
    UNAVAILABLE = "unavailable"  # a cluster node cannot reach its log: nothing was accepted
    INTERNAL = "internal"  # a bug on the server side; nothing changed
    # Configurations and decks (the room's settings and the engine's checks of them)
    BAD_CONFIG = "bad_config"  # a game configuration that makes no sense
    BAD_DECK = "bad_deck"  # a deck list that cannot be used
    # The rules engine's refusals of a command
    NO_DECISION = "no_decision"  # nobody is being asked anything
    NOT_YOUR_DECISION = "not_your_decision"  # another player must act now
    STALE_DECISION = "stale_decision"  # the decision serial no longer matches
    UNKNOWN_ACTION = "unknown_action"  # the action id is not in the legal list
    NOT_IN_GAME = "not_in_game"  # the player has left (or never was in) that game
    UNKNOWN_GAME = "unknown_game"  # no such game on this table
    GAME_OVER = "game_over"
    DRAW_OFFER = "draw_offer"  # an intentional-draw command that does not fit the offer state
    NOT_AUTHORISED = "not_authorised"  # a penalty the engine does not know
    # Limited events (docs/protocol.md section 15)
    BAD_PICK = "bad_pick"  # a card not in the pack in front of you, or no pack there
    NOT_HOST = "not_host"  # an event command only its host may give
    # Replays of finished games (docs/protocol.md section 17)
    NOT_FINISHED = "not_finished"  # the game asked for is still being played
    REPLAY_TOO_LONG = "replay_too_long"  # more commands than a replay replays


class Refusal(Exception):
    """Something was refused, with a stable ``code`` and a readable ``message``; nothing
    changed. ``request_id`` is the id of the request refused when the refuser could read one
    and the catcher cannot know it (the decoder, refusing a malformed request)."""

    def __init__(self, code: Code, message: str, request_id: int | None = None) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.request_id = request_id
