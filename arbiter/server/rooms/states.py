"""The states of a match room and of a connection, with every allowed transition in one table
each (as h11 writes its connection states down). Moving along an edge not in the table is a bug,
and raises.

Match room::

    waiting ──start──> playing <──subgame opens / last subgame closes──> paused
       │                  │                                                │
       └──nobody came──> finished <──the match is decided (or abandoned)───┘

Connection, as the core sees it::

    hello_wait ──hello──> active ──the core closes it──> closing
        │                   │                               │
        └───────────────────┴──the transport closed──> gone <┘
"""

from __future__ import annotations

from enum import StrEnum


class RoomState(StrEnum):
    WAITING = "waiting"  # for players and decks
    PLAYING = "playing"
    PAUSED = "paused"  # a subgame is being played above the main game (CR 726.1a)
    FINISHED = "finished"


ROOM_TRANSITIONS: dict[RoomState, frozenset[RoomState]] = {
    RoomState.WAITING: frozenset({RoomState.PLAYING, RoomState.FINISHED}),
    RoomState.PLAYING: frozenset({RoomState.PAUSED, RoomState.FINISHED}),
    RoomState.PAUSED: frozenset({RoomState.PLAYING, RoomState.FINISHED}),
    RoomState.FINISHED: frozenset(),
}


class PeerState(StrEnum):
    HELLO_WAIT = "hello_wait"  # connected; the first message must be hello
    ACTIVE = "active"  # has a session
    CLOSING = "closing"  # the core asked for a close: nothing more is read
    GONE = "gone"  # the transport closed


PEER_TRANSITIONS: dict[PeerState, frozenset[PeerState]] = {
    PeerState.HELLO_WAIT: frozenset({PeerState.ACTIVE, PeerState.CLOSING, PeerState.GONE}),
    PeerState.ACTIVE: frozenset({PeerState.CLOSING, PeerState.GONE}),
    PeerState.CLOSING: frozenset({PeerState.GONE}),
    PeerState.GONE: frozenset(),
}


class BadTransition(Exception):
    pass


def room_transition(current: RoomState, new: RoomState) -> RoomState:
    """``new``, if a room may go there from ``current`` (staying put is always allowed)."""
    if new != current and new not in ROOM_TRANSITIONS[current]:
        raise BadTransition(f"a room cannot go from {current} to {new}")
    return new


def peer_transition(current: PeerState, new: PeerState) -> PeerState:
    if new != current and new not in PEER_TRANSITIONS[current]:
        raise BadTransition(f"a connection cannot go from {current} to {new}")
    return new
