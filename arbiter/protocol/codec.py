"""Frames: every WebSocket message is a binary frame holding exactly one msgpack map.

Client frames are decoded strictly (map keys must be strings, nothing may follow the map); server
frames may use integer map keys (object ids in views), so clients decode them with
:func:`unpack_server`. :func:`canonical` is the canonical encoding the view checksum is defined
on (docs/protocol.md, "Checksums").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack

from .errors import Code, Refusal

DEFAULT_MAX_FRAME = 64 * 1024  # bytes; the server announces its own limit in ``welcome``


# One packer, reused: half the cost of msgpack.packb, which builds a packer per call. Packing
# happens on one thread (the event loop's); a packer is not shared across threads.
_packer = msgpack.Packer(use_bin_type=True)

# Encode one message (ordinary, not canonical, msgpack: str as str, bytes as bin). The
# packer's own method, not a function around it: a server packs about ten times a command.
pack: Callable[[Any], bytes] = _packer.pack


def extend(frame: bytes, entries: dict[str, Any]) -> bytes:
    """``frame``, a packed map, with ``entries`` (keys it does not have) added after its own,
    without packing it again: a map of up to 15 entries is one header byte that counts them,
    then its keys and values, so the header is rewritten and the new pairs appended (the
    same map a decoder reads as ``pack({**map, **entries})`` would give; the order of a map's
    entries means nothing). A larger map is decoded and packed again."""
    head = frame[0]
    if head >> 4 != 0x8 or (head & 0x0F) + len(entries) > 15:
        return pack({**unpack_server(frame), **entries})
    parts = [bytes((head + len(entries),)), frame[1:]]
    for key, value in entries.items():
        parts += (pack(key), pack(value))
    return b"".join(parts)


def unpack_client(frame: bytes, *, max_size: int = DEFAULT_MAX_FRAME) -> dict[str, Any]:
    """Decode a client frame into its map, or raise :class:`Refusal`.

    Only the shape is checked here (one msgpack map with string keys, within ``max_size``);
    :func:`protocol.messages.parse_request` checks the fields.
    """
    if len(frame) > max_size:
        raise Refusal(Code.TOO_LARGE, f"frame of {len(frame)} bytes exceeds the limit of "
                                      f"{max_size} bytes")
    try:
        value = msgpack.unpackb(frame, raw=False, strict_map_key=True, use_list=True)
    except Exception as exc:  # msgpack raises many types for malformed input
        raise Refusal(Code.BAD_FRAME, f"not a msgpack value: {exc}") from None
    if not isinstance(value, dict):
        raise Refusal(Code.BAD_MESSAGE, "a frame must hold one msgpack map")
    return value


def peek_request_id(frame: bytes) -> int | None:
    """The request id (``"i"``) of a client frame, read without decoding anything else: so that
    an answer to a frame too large to decode, or broken after its id, still carries the id.
    None when the frame holds no readable id before whatever is wrong with it."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, max_str_len=64)
    unpacker.feed(frame)
    try:
        entries = unpacker.read_map_header()
        for _ in range(min(entries, 64)):
            try:
                key = unpacker.unpack()
            except ValueError:
                return None  # a key too long to be one of ours
            if key != "i":
                unpacker.skip()
                continue
            value = unpacker.unpack()
            return value if type(value) is int and 0 <= value <= 2**53 - 1 else None
    except Exception:  # malformed input raises many types
        return None
    return None


def unpack_server(frame: bytes) -> dict[Any, Any]:
    """Decode a server frame (maps may have integer keys)."""
    try:
        value = msgpack.unpackb(frame, raw=False, strict_map_key=False, use_list=True)
    except Exception as exc:
        raise Refusal(Code.BAD_FRAME, f"not a msgpack value: {exc}") from None
    if not isinstance(value, dict):
        raise Refusal(Code.BAD_MESSAGE, "a frame must hold one msgpack map")
    return value


_KEY_BYTES: dict[Any, bytes] = {}


def _key_bytes(key: Any) -> bytes:
    cached = _KEY_BYTES.get(key)
    if cached is None:
        cached = canonical(key)
        if len(_KEY_BYTES) < 4096:
            _KEY_BYTES[key] = cached
    return cached


# The types that pack the same whichever way (checked by ``type``, not ``isinstance``: views
# hold only these, and a type test is a fraction of an ``isinstance`` with a tuple).
_SCALARS = frozenset({int, str, bool, type(None), bytes})


def _sorted(value: Any) -> Any:
    t = type(value)
    if t in _SCALARS:
        return value
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value, key=_key_bytes)}
    if isinstance(value, (list, tuple)):
        return [_sorted(v) for v in value]
    return value


def _plain(value: Any) -> bool:
    """No maps inside: ordinary packing is already canonical. (A loop, not ``all`` over a
    generator: the checksums call this for every view entry that changes.)"""
    t = type(value)
    if t in _SCALARS:
        return True
    if t is list or t is tuple or isinstance(value, (list, tuple)):
        for v in value:  # noqa: SIM110 (a generator costs more here)
            if type(v) not in _SCALARS and not _plain(v):
                return False
        return True
    return not isinstance(value, dict)


def canonical(value: Any) -> bytes:
    """The canonical msgpack encoding of ``value``.

    Integers, strings, binaries, arrays and maps in their shortest msgpack form (what msgpack
    libraries produce by default); every map's entries ordered by the canonical encoding of their
    keys, compared bytewise. Floats never occur in views.
    """
    if _plain(value):
        return pack(value)
    return pack(_sorted(value))
