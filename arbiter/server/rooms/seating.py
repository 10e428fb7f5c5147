"""Who is in a match room: the seats (held by seat tokens, belonging to sessions, followed by
connections), the bots the server runs in some of them, and the spectators.

A seat belongs to a session and is held by a token, not by a connection (docs/protocol.md
section 4): a player may follow the room from several connections, or from none for a while.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arbiter.server.rules.cards.decks import DeckList
from arbiter.server.rules.view import OMNISCIENT, SPECTATOR

if TYPE_CHECKING:
    from .bots import RoomBot
    from .peers import Peer
    from .sessions import Session


@dataclass(eq=False)
class Seat:
    index: int
    token: str | None = None
    session: Session | None = None
    name: str | None = None
    deck: DeckList | None = None
    peers: set[Peer] = field(default_factory=set)
    away_deadline: float | None = None  # when an empty seat's grace period ends
    bot: RoomBot | None = None  # a bot the server runs in this seat
    addresses: set[str] = field(default_factory=set)  # where its holders have played from

    @property
    def taken(self) -> bool:
        return self.token is not None

    @property
    def present(self) -> bool:
        """Someone is playing this seat now: a connection, or the server's bot."""
        return bool(self.peers) or self.bot is not None


class Seating:
    def __init__(self, match_id: str, decks: list[DeckList | None]) -> None:
        self.match_id = match_id
        self.seats = [Seat(i, deck=deck) for i, deck in enumerate(decks)]
        self.spectators: set[Peer] = set()

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.seats)

    def __len__(self) -> int:
        return len(self.seats)

    def __getitem__(self, index: int) -> Seat:
        return self.seats[index]

    def members(self) -> list[Peer]:
        """Every connection following the match, seated or watching."""
        out = list(self.spectators)
        for seat in self.seats:
            out.extend(seat.peers)
        return out

    def follows(self, peer: Peer) -> bool:
        return peer in self.spectators or any(peer in s.peers for s in self.seats)

    def seat_of(self, peer: Peer) -> Seat | None:
        """The seat ``peer``'s session holds here, if any (followed by ``peer`` or not)."""
        session = peer.session
        if session is None:
            return None
        index = session.seats.get(self.match_id)
        return None if index is None else self.seats[index]

    def player_of(self, peer: Peer) -> int | None:
        """The seat ``peer`` plays from: held by its session, and followed by it."""
        seat = self.seat_of(peer)
        return seat.index if seat is not None and peer in seat.peers else None

    def by_token(self, token: str) -> Seat | None:
        return next((s for s in self.seats if s.token == token), None)

    def free(self) -> list[Seat]:
        return [s for s in self.seats if not s.taken]

    def unique_name(self, name: str, seat: Seat) -> str:
        taken = {s.name for s in self.seats if s is not seat and s.taken}
        candidate, n = name, 2
        while candidate in taken:
            candidate = f"{name} ({n})"
            n += 1
        return candidate

    def class_peers(self, key: int, classes: Collection[int]) -> list[Peer]:
        """The connections of viewer class ``key`` in a game whose classes are ``classes``
        (``GameRoom.classes``): a seat's own connections; the spectators; and the players of
        the match who have no seat in that game (outsiders of a subgame), who watch with the
        public view (``SPECTATOR``) whether or not the spectators see everything."""
        if key >= 0:
            return list(self.seats[key].peers)
        out = [] if key == SPECTATOR and OMNISCIENT in classes else list(self.spectators)
        if key == SPECTATOR:
            for seat in self.seats:
                if seat.index not in classes:
                    out.extend(seat.peers)
        return out
