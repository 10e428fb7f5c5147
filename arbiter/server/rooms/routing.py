"""How the hub treats what it does not hold: a strategy chosen once, when the hub is made.

An embedded server is alone (:class:`LocalRouting`): a session or a room it does not hold does
not exist, new rooms are made here, and a room list is its own rooms. A cluster node is one of
several (:class:`ClusterRouting`, docs/cluster.md "Routing"): before the core says a session or
a room does not exist, decides where a new room goes, or lists rooms, the frame waits while the
node finds out (an ``Effects.lookups`` entry), and the node hands the frame back with what it
found (:class:`~.effects.Resolved`).

Both are pure, like the rest of the core: they decide, and the hub acts on the decision. The
only state is a cluster node's copy of the other nodes' rooms, which the node hands in
(``Hub.remote_lobby``) as it hands in frames.
"""

from __future__ import annotations

from collections.abc import Collection, Container, Mapping
from typing import Any, Protocol

from arbiter.protocol import ids as room_ids

from .effects import LookupKind, Resolved

# On a cluster node, a room list's rooms of other nodes are at most this old (seconds): the
# lobby is read from the directory when a list asks for it, not on every beat.
LOBBY_FRESH = 1.0


class Routing(Protocol):
    def must_ask(self, kind: LookupKind, key: str, resolved: Resolved | None,
                 now: float) -> bool:
        """Whether the frame being handled must wait for the node to find out ``key`` (what
        ``kind`` names), given what the node found out for it already (``resolved``)."""
        ...

    def followed_elsewhere(self, followed: Collection[str], here: Container[str]
                           ) -> list[str]:
        """Of the match ids a client follows or holds a seat in as it says hello, those to
        look up (and send the client on to): the ones not ``here``."""
        ...

    def lobby_fresh(self, now: float) -> bool:
        """Whether the copy of the other nodes' rooms is recent enough for a room list."""
        ...

    def remote_lobby(self, entries: Mapping[str, dict[str, Any]], now: float) -> None:
        """The other nodes' room summaries by room id, read at ``now``."""
        ...

    def other_rooms(self, here: Container[str]) -> list[dict[str, Any]]:
        """The other nodes' rooms for a room list, by number; a room ``here`` is listed by
        the hub from its own match, never from a copy that may be stale."""
        ...


class LocalRouting:
    """A server alone: nothing to ask, no other nodes, no other rooms."""

    def must_ask(self, kind: LookupKind, key: str, resolved: Resolved | None,
                 now: float) -> bool:
        return False

    def followed_elsewhere(self, followed: Collection[str], here: Container[str]
                           ) -> list[str]:
        return []

    def lobby_fresh(self, now: float) -> bool:
        return True  # there is nothing else to read

    def remote_lobby(self, entries: Mapping[str, dict[str, Any]], now: float) -> None:
        raise ValueError("a server alone has no other nodes to read a lobby from")

    def other_rooms(self, here: Container[str]) -> list[dict[str, Any]]:
        return []


class ClusterRouting:
    """One node of several: ask before saying something does not exist."""

    def __init__(self) -> None:
        # The other nodes' room summaries, and when they were read (read when a room list
        # asks for them, at most once per LOBBY_FRESH seconds: docs/cluster.md, "Capacity").
        self.lobby: dict[str, dict[str, Any]] = {}
        self.lobby_at: float | None = None

    def must_ask(self, kind: LookupKind, key: str, resolved: Resolved | None,
                 now: float) -> bool:
        if kind is LookupKind.LOBBY and self.lobby_fresh(now):
            return False
        return resolved is None or not resolved.answers(kind, key)

    def followed_elsewhere(self, followed: Collection[str], here: Container[str]
                           ) -> list[str]:
        return sorted(r for r in followed if r not in here)

    def lobby_fresh(self, now: float) -> bool:
        return self.lobby_at is not None and now - self.lobby_at < LOBBY_FRESH

    def remote_lobby(self, entries: Mapping[str, dict[str, Any]], now: float) -> None:
        self.lobby = dict(entries)
        self.lobby_at = now

    def other_rooms(self, here: Container[str]) -> list[dict[str, Any]]:
        listed = sorted(self.lobby.items(), key=lambda item: room_ids.parse(item[0]))
        return [summary for room, summary in listed if room not in here]
