"""The Arbiter client SDK (trio): a connection with request/reply matching, a replica of each
followed room checked by sequence numbers and checksums, automatic resync and reconnection, and
typed events; several entry URLs and redirects between the nodes of a cluster. See
docs/clients.md."""

from . import events
from .client import (
    MAX_REDIRECTS,
    Backoff,
    Client,
    ConnectError,
    ConnectionLost,
    RequestError,
    SeatTicket,
    Stats,
    deck_list,
    open_client,
)
from .events import match_of
from .urls import BadURL, entry_urls

__all__ = ["MAX_REDIRECTS", "Backoff", "BadURL", "Client", "ConnectError", "ConnectionLost",
           "RequestError", "SeatTicket", "Stats", "deck_list", "entry_urls", "events", "match_of",
           "open_client"]
