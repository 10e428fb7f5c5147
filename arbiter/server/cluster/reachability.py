"""Whether another node answers at its URL, as this node last found out (issue 27.4).

The directory lists a node for half a lease after its last heartbeat, so for a moment after a
node is killed it is still listed, and a node that sent clients there sent them to a dead
address (they bounced between it and a live node every 100 ms). Before it redirects a client,
a node connects to the target's address (TCP only: a killed process's port refuses at once,
a machine gone does not answer within the probe's bound); what it found is kept for a beat,
so a node probes each other node at most once a beat, and only while it redirects to it.

Pure: :class:`Reachability` keeps the answers and says when one is stale; the node connects.
A target behind a proxy or TLS terminator is the proxy: it answers for a dead node behind it,
as the directory does (docs/cluster.md, "What can still go wrong").
"""

from __future__ import annotations

from .public_url import parse


def address(url: str) -> tuple[str, int] | None:
    """The host and port a client connects to for ``url`` (None: no websocket URL)."""
    try:
        parsed = parse(url)
    except ValueError:
        return None
    return parsed.host, parsed.port


class Reachability:
    """The last answer of each node's URL, kept for ``keep`` seconds."""

    def __init__(self, keep: float) -> None:
        self.keep = keep
        self._seen: dict[str, tuple[float, bool]] = {}  # url -> (when, answered)

    def known(self, url: str, now: float) -> bool | None:
        """Whether ``url`` answered when last tried, if that is recent; None: try it."""
        seen = self._seen.get(url)
        if seen is None or now - seen[0] >= self.keep:
            return None
        return seen[1]

    def found(self, url: str, now: float, answered: bool) -> None:
        self._seen[url] = (now, answered)
        # Only live nodes' URLs are tried: few. Stale ones go as they are replaced.
        for old in [u for u, (when, _) in self._seen.items() if now - when >= 10 * self.keep]:
            del self._seen[old]
