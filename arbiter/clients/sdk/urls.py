"""Server URLs: the entry URLs a client is given, and the URLs a server may send it to.

A cluster has several nodes, and any of them accepts any session (docs/protocol.md section
14), so a client may be given several entry URLs: a sequence, or one string with commas (so a
command-line flag can carry several). A ``redirect`` from a server names the node to go to;
only a websocket URL is followed, so that a forged or corrupted message cannot send a client
(its session token with it) anywhere else.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from urllib.parse import urlsplit, urlunsplit

SCHEMES = ("ws", "wss")
MAX_URL = 2048  # longer than any node's address; a redirect to more is refused


class BadURL(ValueError):
    """Not a websocket URL we may connect to; the message says why."""


def websocket_url(url: str) -> str:
    """``url`` checked (ws:// or wss://, a host, nothing odd) and made canonical: the scheme
    in lower case and ``/`` for an empty path, so that one node has one spelling (the client
    compares them to decide where to try next)."""
    if not isinstance(url, str) or not url.strip():
        raise BadURL("a server URL must be a non-empty string")
    url = url.strip()
    if len(url) > MAX_URL:
        raise BadURL(f"a server URL is at most {MAX_URL} characters long")
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        raise BadURL(f"{url[:80]!r} holds white space or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError on a malformed port
    except ValueError as exc:
        raise BadURL(f"{url[:80]!r} is not a URL: {exc}") from None
    if port == 0:
        raise BadURL(f"{url[:80]!r} names port 0")
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise BadURL(f"{url[:80]!r} is not a websocket URL (ws:// or wss://)")
    if not parts.hostname:
        raise BadURL(f"{url[:80]!r} names no host")
    if parts.username is not None or parts.password is not None:
        raise BadURL(f"{url[:80]!r} carries credentials")
    return urlunsplit((scheme, parts.netloc, parts.path or "/", parts.query, ""))


def entry_urls(urls: str | Sequence[str]) -> list[str]:
    """The entry URLs in the order given: one URL, a comma-separated string of them, or a
    sequence of either. Each is checked (:func:`websocket_url`); repeats are dropped."""
    items = [urls] if isinstance(urls, str) else list(urls)
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise BadURL(f"a server URL must be a string, not {type(item).__name__}")
        for piece in item.split(","):
            if piece.strip():
                url = websocket_url(piece)
                if url not in out:
                    out.append(url)
    if not out:
        raise BadURL("no server URL given")
    return out


def url_argument(text: str) -> list[str]:
    """An argparse ``type`` for ``--url``: one URL or several, comma-separated (with
    ``action="extend"`` the flag may also be repeated)."""
    try:
        return entry_urls(text)
    except BadURL as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def rotation(current: str, entries: Sequence[str], *, silent: bool = False) -> list[str]:
    """Where a client tries to reconnect, in order: the node it was on, then the other entry
    URLs in the order given. A node that went ``silent`` (the connection ended with no close
    frame from it: frozen, cut off, or killed) comes last instead: a frozen node's socket
    still accepts, and a handshake with it waits out the whole open timeout while its rooms
    are taken over elsewhere (issue 27.5: players acted again only when it thawed); a killed
    one refuses at once, so trying the others first costs nothing."""
    others = [url for url in entries if url != current]
    return [*others, current] if silent and others else [current, *others]
