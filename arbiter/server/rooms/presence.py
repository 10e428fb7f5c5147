"""Who is online, as the lobby lists them (docs/protocol.md section 16): pure functions over the
sessions the lobby counts as online, with no state of their own.

A person is a session with at least one connection that has said hello and did not ask to be
hidden. What each is doing is told only as far as it is public: a seat is (a room's summary
names its players), watching a room whose spectators see public information only is (anyone
may watch it), but who watches a room whose spectators see every hand is not (its creator
hands its invitation to whom they choose: docs/protocol.md section 7), so such a watcher is
listed as watching, without the room.

The list is bounded: a page is the first ``PAGE`` people by name, chosen with a heap
(O(n log PAGE)), and a count of all. At 4,000 people online a follower gets the count and the
first hundred; anyone else is found by a search. Sending every follower everyone whenever
anyone changed would cost O(n^2) frames' worth of entries a second.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from typing import Any

from .sessions import Session

PAGE = 100  # people in one list

# What a person is doing: a status and the room it concerns (None: not public, or none).
Whereabouts = tuple[str, str | None]
LOBBY, PLAYING, WATCHING, EVENT = "lobby", "playing", "watching", "event"


def entry(name: str, where: Whereabouts) -> dict[str, Any]:
    """One person as the wire lists them: ``{"n": name, "s": status, ["r": room]}``."""
    status, room = where
    out: dict[str, Any] = {"n": name, "s": status}
    if room is not None:
        out["r"] = room
    return out


def page(people: Iterable[Session], where: Callable[[Session], Whereabouts],
         query: str = "") -> tuple[int, list[dict[str, Any]]]:
    """The number of ``people`` whose name holds ``query`` (any case), and the first
    ``PAGE`` of them by name as wire entries. Only the page's people are looked up by
    ``where``; equal names keep a fixed order (their sessions' tokens, never sent)."""
    needle = query.casefold()
    matching = [s for s in people if needle in s.name.casefold()] if needle else list(people)
    first = heapq.nsmallest(PAGE, matching, key=lambda s: (s.name.casefold(), s.name, s.token))
    return len(matching), [entry(s.name, where(s)) for s in first]
