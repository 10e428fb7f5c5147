"""Arbiter's wire protocol, shared by the server and every client: frames, messages, views and
their checksums. Pure: no I/O. docs/protocol.md is the specification; this package is its
reference implementation."""

from . import server_messages
from .codec import canonical, pack, unpack_client, unpack_server
from .errors import Code, Refusal
from .requests import VERSIONS, parse_request, to_wire
from .server_messages import ServerMessage, decode, encode
from .tracker import RoomView, Tracker
from .views import ViewState, checksum, diff, entry_hash

__all__ = [
    "VERSIONS", "Code", "Refusal", "RoomView", "ServerMessage", "Tracker", "ViewState",
    "canonical", "checksum", "decode", "diff", "encode", "entry_hash", "pack", "parse_request",
    "server_messages", "to_wire", "unpack_client", "unpack_server",
]
