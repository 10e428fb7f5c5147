"""The one exception the rules engine raises for a command it refuses.

Every refusal carries a stable machine-readable ``code`` (part of the wire protocol: clients may
switch on it) and a human-readable ``message``. A refused command changes nothing.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable codes for refused commands."""

    NO_DECISION = "no_decision"  # nobody is being asked anything (the game is over)
    NOT_YOUR_DECISION = "not_your_decision"  # another player must act now
    STALE_DECISION = "stale_decision"  # the decision serial no longer matches
    UNKNOWN_ACTION = "unknown_action"  # the action id is not in the legal list
    NOT_IN_GAME = "not_in_game"  # the player has left (or never was in) that game
    UNKNOWN_GAME = "unknown_game"  # no such game on this table
    GAME_SUSPENDED = "game_suspended"  # that game is paused under a subgame (CR 726.1a)
    GAME_OVER = "game_over"
    BAD_CONFIG = "bad_config"  # a game configuration that makes no sense
    BAD_DECK = "bad_deck"  # a deck list that cannot be used
    DRAW_OFFER = "draw_offer"  # an intentional-draw command that does not fit the offer state
    NOT_AUTHORISED = "not_authorised"


class RulesError(Exception):
    """A command was refused; nothing changed."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
