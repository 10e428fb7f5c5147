"""A viewer's view of one room's game, kept up to date by deltas and checked by a checksum.

A view is a flat map from view keys (integer object ids, or short strings such as ``"t"``,
``"w"``, ``"p0"``) to values. Deltas change it with ops keyed by those stable keys, never by
positions in a list:

* ``["s", key, value]`` sets ``key`` to ``value`` (adding it if absent);
* ``["d", key]`` deletes ``key``;
* ``["p", key, {field: value}]`` (protocol version 2) patches the map at ``key``: each field
  set to its value, or removed where the value is nil. An untapping land is
  ``["p", 312, {"t": None}]`` (10 bytes) where its whole entry would take 28; ``key`` may be
  an array of keys that get the same patch: the untap step's lands are one op,
  ``["p", [312, 315, 319], {"t": None}]`` (:func:`group`).

The checksum of a view is ``sum(crc32(canonical([key, value])) for each entry) mod 2**32``. It is
a sum so that an op updates it in constant time: subtract the old entry's hash, add the new
one's (for a patch, the hash of the whole entry as patched). The server and every client
compute it the same way (docs/protocol.md, "Checksums"); :class:`ViewState` is the reference
implementation both use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from zlib import crc32

from .codec import canonical, pack
from .errors import Code, Refusal

MASK = 0xFFFFFFFF

Op = list[Any]


def entry_hash(key: Any, value: Any) -> int:
    """CRC-32 of the canonical encoding of the two-element array ``[key, value]``: the CRC
    of its head (the array's header byte and the key, kept per key) continued over the
    value's encoding, which is the same as that of the whole array's bytes."""
    head = _HEADS.get(key)
    if head is None:
        head = crc32(b"\x92" + canonical(key))
        if len(_HEADS) < 4096:
            _HEADS[key] = head
    return crc32(canonical(value), head)


_HEADS: dict[Any, int] = {}  # key -> CRC-32 of [key, ... (bounded: ids keep coming)


def checksum(view: Mapping[Any, Any]) -> int:
    """The checksum of a whole view, computed from scratch."""
    return sum(entry_hash(k, v) for k, v in view.items()) & MASK


def _valid_key(key: Any) -> bool:
    return (isinstance(key, int) and not isinstance(key, bool)) or isinstance(key, str)


class ViewState:
    """A view, its per-entry hashes and its checksum, maintained incrementally."""

    __slots__ = ("checksum", "hashes", "view")

    def __init__(self, view: Mapping[Any, Any] | None = None) -> None:
        self.view: dict[Any, Any] = {}
        self.hashes: dict[Any, int] = {}
        self.checksum = 0
        if view:
            for key, value in view.items():
                self.set(key, value)

    def set(self, key: Any, value: Any, value_hash: int | None = None) -> Op | None:
        """Set ``key`` (``value`` None deletes it); return the op, or None if nothing changed.

        ``value_hash`` may carry a precomputed :func:`entry_hash` of ``(key, value)``.
        """
        if value is None:
            return self.delete(key)
        view = self.view
        if key in view and view[key] == value:
            return None
        h = entry_hash(key, value) if value_hash is None else value_hash
        old = self.hashes.get(key)
        self.checksum = (self.checksum - (old or 0) + h) & MASK
        view[key] = value
        self.hashes[key] = h
        return ["s", key, value]

    def put(self, key: Any, value: Any, value_hash: int) -> None:
        """Set ``key`` to ``value`` (not None), whose :func:`entry_hash` is ``value_hash``,
        known to differ from what the view holds: :meth:`set` without its comparison, for a
        caller that compared already."""
        old = self.hashes.get(key)
        self.checksum = (self.checksum - (old or 0) + value_hash) & MASK
        self.view[key] = value
        self.hashes[key] = value_hash

    def update(self, key: Any, value: Any, value_hash: int | None = None,
               memo: list[Any] | None = None) -> Op | None:
        """:meth:`set`, but return a patch op when one is shorter than the whole value (a
        server talking protocol version 2 sends what this returns). ``memo``, a list shared
        by the calls that set one key in several views, keeps the last old value and its
        patch: the views of a room's viewer classes mostly hold the same old value."""
        old = self.view.get(key)
        op = self.set(key, value, value_hash)
        if op is None or not isinstance(old, dict) or not isinstance(value, dict):
            return op
        if memo is not None and memo and memo[0] is old:
            fields = memo[1]
        else:
            fields = patch_of(old, value)
            if memo is not None:
                memo[:] = [old, fields]
        return op if fields is None else ["p", key, fields]

    def patch(self, key: Any, fields: Any) -> None:
        """Apply a patch op's fields to the map at ``key`` (a new map: values may be shared
        with other views); raise :class:`Refusal` if there is no map there or a field is
        not a string."""
        old = self.view.get(key)
        if not isinstance(old, dict) or not isinstance(fields, dict) or not all(
                isinstance(f, str) for f in fields):
            raise Refusal(Code.BAD_FIELD, f"cannot patch {key!r} with {fields!r}")
        new = {**old, **fields}
        for field, value in fields.items():
            if value is None:
                del new[field]
        self.set(key, new)

    def delete(self, key: Any) -> Op | None:
        if key not in self.view:
            return None
        del self.view[key]
        self.checksum = (self.checksum - self.hashes.pop(key)) & MASK
        return ["d", key]

    def apply(self, ops: Iterable[Any]) -> None:
        """Apply a delta's ops, as a client does; raise :class:`Refusal` on a malformed op
        (the view may then be partly updated: ask for a snapshot)."""
        if not isinstance(ops, list):
            raise Refusal(Code.BAD_FIELD, "delta ops must be an array")
        for op in ops:
            if not isinstance(op, list) or len(op) < 2:
                raise Refusal(Code.BAD_FIELD, f"malformed delta op {op!r}")
            if op[0] == "p" and len(op) == 3 and isinstance(op[1], list) and op[1] and all(
                    _valid_key(k) for k in op[1]):
                for key in op[1]:  # several entries, the same patch
                    self.patch(key, op[2])
            elif not _valid_key(op[1]):
                raise Refusal(Code.BAD_FIELD, f"malformed delta op {op!r}")
            elif op[0] == "s" and len(op) == 3:
                self.set(op[1], op[2])
            elif op[0] == "d" and len(op) == 2:
                self.delete(op[1])
            elif op[0] == "p" and len(op) == 3:
                self.patch(op[1], op[2])
            else:
                raise Refusal(Code.BAD_FIELD, f"malformed delta op {op!r}")

    def copy(self) -> ViewState:
        other = ViewState()
        other.view = dict(self.view)
        other.hashes = dict(self.hashes)
        other.checksum = self.checksum
        return other


def patch_of(old: Mapping[Any, Any], new: Mapping[Any, Any]) -> dict[str, Any] | None:
    """The fields of a patch op that turns map ``old`` into ``new`` (nil for a field
    removed), or None when a patch would not be shorter than ``new`` itself (it changes as
    many fields as ``new`` has) or cannot say it (a field that is not a string, or a value
    that is nil). Not every map in a view is keyed by strings (some are keyed by player
    numbers), so both are typed as any map."""
    fields: dict[str, Any] = {}
    for field, value in new.items():
        if value is None or not isinstance(field, str):
            return None
        if field not in old or old[field] != value:
            fields[field] = value
    for field in old:
        if field not in new:
            if not isinstance(field, str):
                return None
            fields[field] = None
    return fields if len(fields) < len(new) else None


def group(ops: list[Op]) -> list[Op]:
    """``ops`` with the patches that carry the same fields made one, keyed by the array of
    their keys, where the first of them stood: at the untap step every land's ``{"t": nil}``
    is one op (3 bytes a land instead of 10). A delta names each key once, so moving a patch
    of one key past ops on other keys changes nothing."""
    patches = 0
    for op in ops:
        if op[0] == "p":
            patches += 1
            if patches > 1:
                break
    else:
        return ops  # most deltas: nothing to group
    seen: dict[bytes, int] = {}  # a patch's packed fields -> where its op stands in ``out``
    grouped: set[int] = set()  # ops of ``out`` made here, with a list of keys
    out: list[Op] = []
    for op in ops:
        if op[0] != "p":
            out.append(op)
            continue
        # Packed as they are, not canonically: equal fields in another order are merely left
        # apart, and the C packer is several times faster.
        fields = pack(op[2])
        at = seen.get(fields)
        if at is None:
            seen[fields] = len(out)
            out.append(op)
        elif at in grouped:
            out[at][1].append(op[1])
        else:
            # A new op: ``ops``' own may be shared by other viewers' deltas.
            out[at] = ["p", [out[at][1], op[1]], out[at][2]]
            grouped.add(at)
    return out


def expand(ops: list[Op], view: Mapping[Any, Any]) -> list[Op]:
    """``ops`` for a protocol version 1 client, which knows no patch: each patch as the set
    of the whole entry (of each entry, for a patch of several keys). ``view`` is the view
    after the ops (a delta names a key once)."""
    out: list[Op] = []
    for op in ops:
        if op[0] != "p":
            out.append(op)
        else:
            out.extend(["s", k, view[k]] for k in (op[1] if isinstance(op[1], list) else [op[1]]))
    return out


def diff(old: Mapping[Any, Any], new: Mapping[Any, Any]) -> list[Op]:
    """The ops that turn ``old`` into ``new`` (sets in ``new``'s order, then deletes)."""
    ops: list[Op] = [["s", k, v] for k, v in new.items() if k not in old or old[k] != v]
    ops.extend(["d", k] for k in old if k not in new)
    return ops
