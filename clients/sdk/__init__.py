"""The Arbiter client SDK (trio): a connection with request/reply matching, a replica of each
followed room checked by sequence numbers and checksums, automatic resync and reconnection, and
typed events. See docs/clients.md."""

from . import events
from .client import (
    Backoff,
    Client,
    ConnectError,
    ConnectionLost,
    RequestError,
    SeatTicket,
    Stats,
    open_client,
)
from .events import match_of

__all__ = ["Backoff", "Client", "ConnectError", "ConnectionLost", "RequestError", "SeatTicket",
           "Stats", "events", "match_of", "open_client"]
