"""The narrow services a match room uses, instead of reaching into the hub.

A room needs to know the time it is told and where its effects go (both set by the hub for each
input), the server's settings, a source of tokens and epochs, the session book (to keep
sessions that matter and release the others), ids for new games, the routing of its subgame
rooms' ids, the delay line of its late spectators, and counters. Nothing else: rooms never
see the hub, other rooms or the transport.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .delays import DelayLines
from .effects import Effects
from .sessions import SessionBook, SessionSettings
from .stats import Stats

if TYPE_CHECKING:
    from .match import MatchRoom


class Entropy(Protocol):
    """Where tokens (seat tokens, session tokens), view epochs and game seeds come from."""

    def token(self) -> str: ...

    def bits(self, n: int) -> int: ...


class SecretEntropy:
    def token(self) -> str:
        return secrets.token_urlsafe(18)

    def bits(self, n: int) -> int:
        return secrets.randbits(n)


class SeededEntropy:
    """Reproducible tokens and seeds, for tests."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def token(self) -> str:
        return f"t{self.rng.getrandbits(96):024x}"

    def bits(self, n: int) -> int:
        return self.rng.getrandbits(n)


@dataclass(frozen=True)
class HubSettings:
    grace: float = 60.0  # seconds an empty seat stays held before its player concedes
    history: int = 256  # deltas kept per viewer class for reconnecting clients
    hash_every: int = 100  # record the state hash in the log every this many commands
    allow_scenarios: bool = False
    max_rooms: int = 1000
    max_waiting_per_session: int = 5  # rooms a session created that are still waiting
    max_waiting_per_address: int = 20  # ... and that all sessions of one address created
    limit_local_addresses: bool = False  # loopback counts per address too (rooms/addresses.py)
    # The share of max_rooms that waiting (or bot-only) rooms of newcomers may take: sessions
    # that have never played here. The rest is kept for players with a history, so a flood of
    # rooms from many addresses cannot stop them creating (docs/architecture.md).
    newcomer_share: float = 0.5
    waiting_ttl: float = 600.0  # a waiting room is closed this long after it was created
    bot_think: float = 0.4  # seconds a server-run bot waits before answering a decision
    sessions: SessionSettings = field(default_factory=SessionSettings)


class RoomContext:
    def __init__(self, settings: HubSettings, stats: Stats, sessions: SessionBook,
                 entropy: Entropy, *, next_game_id: Callable[[], int],
                 route: Callable[[str, MatchRoom | None], None],
                 drop: Callable[[MatchRoom], None], catalog: Callable[[], dict[str, Any]],
                 finished: Callable[[MatchRoom], None] | None = None) -> None:
        self.settings = settings
        self.stats = stats
        self.sessions = sessions
        self.delays = DelayLines()  # who watches all-seeing rooms late (rooms/delays.py)
        self.entropy = entropy
        self.next_game_id = next_game_id
        self._route = route
        self._drop = drop
        self._finished = finished
        self.catalog = catalog  # card data, for the bots the server runs
        self.out = Effects()  # the effects of the input being handled
        self.now = 0.0  # the time of the input being handled

    def open_room(self, room_id: str, match: MatchRoom) -> None:
        """A subgame room of ``match`` now exists: route requests for it to the match."""
        self._route(room_id, match)

    def close_room(self, room_id: str) -> None:
        self._route(room_id, None)

    def finished(self, match: MatchRoom) -> None:
        """``match`` is over: whoever it was played for (a Limited event) hears its score."""
        if self._finished is not None:
            self._finished(match)

    def drop(self, match: MatchRoom) -> None:
        """Forget a finished or abandoned match (its log stays)."""
        self._drop(match)
