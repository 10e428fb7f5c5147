"""Arbiter's wire protocol, shared by the server and every client: frames, messages, views and
their checksums. Pure: no I/O. docs/protocol.md is the specification; this package is its
reference implementation."""

from .codec import canonical, pack, unpack_client, unpack_server
from .errors import Code, ProtocolError
from .messages import VERSIONS, check_server_message, parse_request, to_wire
from .tracker import RoomView, Tracker
from .views import ViewState, checksum, diff, entry_hash

__all__ = [
    "VERSIONS", "Code", "ProtocolError", "RoomView", "Tracker", "ViewState", "canonical",
    "check_server_message", "checksum", "diff", "entry_hash", "pack", "parse_request",
    "to_wire", "unpack_client", "unpack_server",
]
