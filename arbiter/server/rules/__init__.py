"""Arbiter's rules engine: a sans-I/O, deterministic implementation of the game.

The public surface is :class:`Table` (a table of players and its stack of games), the command
values in :mod:`arbiter.server.rules.commands` and :class:`GameConfig`. A command or
configuration it refuses raises the wire's one refusal type,
:class:`arbiter.protocol.errors.Refusal`, with a stable code (docs/protocol.md section 10).
"""

from .commands import Act, Command, Concede, DrawOffer, Penalty
from .config import GameConfig, PlayerConfig
from .results import GameResult, PlayerOutcome
from .state import Action, Decision
from .table import Table

__all__ = [
    "Act", "Action", "Command", "Concede", "Decision", "DrawOffer", "GameConfig", "GameResult",
    "Penalty", "PlayerConfig", "PlayerOutcome", "Table",
]
