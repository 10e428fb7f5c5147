"""What a websocket client (tests/server/harness.py) was sent of a Limited event, and a legal
deck from a pool: for the tests that kill servers and nodes under an event (tests/e2e,
tests/cluster)."""

from __future__ import annotations

from typing import Any

from tests.server.harness import Client


def state(c: Client, room: str) -> dict[str, Any] | None:
    """The latest state of event ``room`` that ``c`` was sent."""
    states = [m["ev"] for m in c.messages if m["t"] == "event" and m["r"] == room]
    return states[-1] if states else None


def you(c: Client, room: str) -> dict[str, Any]:
    """The entrant's own part of it (docs/protocol.md section 15)."""
    ev = state(c, room)
    assert ev is not None and "you" in ev, ev
    return dict(ev["you"])


def deck_text(pool: dict[str, int]) -> str:
    """A legal Limited deck: the whole pool and Forests to forty (CR 100.2b: no copy limit)."""
    return "\n".join([*(f"{n} {c}" for c, n in pool.items()),
                      f"{max(40 - sum(pool.values()), 17)} Forest"])
