"""Arbiter's rules engine: a sans-I/O, deterministic implementation of the game.

The public surface is :class:`Table` (a table of players and its stack of games), the command
values in :mod:`server.rules.commands`, :class:`GameConfig` and :class:`RulesError`.
"""

from .commands import Act, Command, Concede, DrawOffer, Penalty
from .config import GameConfig, PlayerConfig
from .errors import ErrorCode, RulesError
from .results import GameResult, PlayerOutcome
from .state import Action, Decision
from .table import Table

__all__ = [
    "Act", "Action", "Command", "Concede", "Decision", "DrawOffer", "ErrorCode", "GameConfig",
    "GameResult", "Penalty", "PlayerConfig", "PlayerOutcome", "RulesError", "Table",
]
