"""How a typed message maps to its msgpack map: short keys on the wire, readable names in code.

Every message, both ways, is a frozen dataclass whose class attribute ``TYPE`` is its type tag
(``"t"`` on the wire) and whose fields each declare their wire key with :func:`key`. One
:class:`Codec` per direction turns maps into messages and messages into maps, so the server, the
SDK and the tests share one encoding and one decoding (docs/protocol.md lists the same keys; a
test keeps the two in step).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from .errors import Code, Refusal

Checker = Callable[[str, Any], Any]

# Field metadata: the wire key, the value's checker (requests only) and whether a None value is
# left out of the map (``omit``) or sent as nil.
_KEY, _CHECK, _OMIT = "wire_key", "wire_check", "wire_omit"


def key(wire: str, check: Checker | None = None, *, default: Any = MISSING,
        omit: bool = True) -> Any:
    """Declare a field's wire key. Fields with a default are optional; with ``omit`` (the
    default) an optional field whose value is None is not sent at all, without it it is sent
    as nil (the documentation says "uint or nil")."""
    return field(default=default, metadata={_KEY: wire, _CHECK: check, _OMIT: omit})


@dataclass(frozen=True)
class WireField:
    name: str  # the attribute in code
    key: str  # the key on the wire
    required: bool
    omit: bool  # a None value is left out of the map
    check: Checker | None


def wire_fields(cls: type[Any]) -> tuple[WireField, ...]:
    out = []
    for f in fields(cls):
        meta = f.metadata
        if _KEY not in meta:
            raise TypeError(f"{cls.__name__}.{f.name} has no wire key")
        out.append(WireField(f.name, meta[_KEY], _required(f), meta[_OMIT], meta[_CHECK]))
    return tuple(out)


def _required(f: Field[Any]) -> bool:
    return f.default is MISSING and f.default_factory is MISSING


@dataclass(frozen=True)
class Message:
    """A message of either direction; subclasses set ``TYPE``."""

    TYPE: ClassVar[str] = ""


M = TypeVar("M", bound=Message)


class Codec:
    """The messages of one direction, by type tag."""

    def __init__(self, classes: tuple[type[Message], ...]) -> None:
        self.classes = {cls.TYPE: cls for cls in classes}
        self._fields = {cls: wire_fields(cls) for cls in classes}
        # For encoding, the attribute names and keys in order, ready for a tight loop.
        self._plan = {cls: tuple((f.name, f.key, f.omit) for f in spec)
                      for cls, spec in self._fields.items()}

    def fields_of(self, cls: type[Message]) -> tuple[WireField, ...]:
        return self._fields[cls]

    def encode(self, message: Message) -> dict[str, Any]:
        """The message as a map, ready to pack: ``"t"`` first, then its fields."""
        out: dict[str, Any] = {"t": message.TYPE}
        for name, wire, omit in self._plan[type(message)]:
            value = getattr(message, name)
            if value is None and omit:
                continue
            out[wire] = value
        return out

    def decode(self, data: dict[Any, Any], *, strict: bool) -> Message:
        """Build a message from a decoded map. ``strict`` (requests): every value is checked,
        unknown keys are refused; otherwise (server messages, read by clients) only the
        presence of required keys is checked and unknown keys are ignored, so a newer server
        can add fields."""
        kind = data.get("t")
        if not isinstance(kind, str):
            raise Refusal(Code.BAD_MESSAGE, "every message needs a string type tag 't'")
        cls = self.classes.get(kind)
        if cls is None:
            raise Refusal(Code.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}")
        spec = self._fields[cls]
        if strict:
            known = {"t", *(f.key for f in spec)}
            extra = sorted(str(k) for k in data if k not in known)
            if extra:
                raise Refusal(Code.BAD_FIELD, f"{kind} has no field {extra[0][:40]!r}")
        values: dict[str, Any] = {}
        for f in spec:
            value = data.get(f.key)
            if value is None:
                if f.key in data and not f.omit:
                    values[f.name] = None  # a nil the documentation allows ("uint or nil")
                elif f.required:
                    raise Refusal(Code.MISSING_FIELD, f"{kind} needs field {f.key!r}")
                continue
            if strict and f.check is not None:
                value = f.check(f.key, value)
            values[f.name] = value
        return cls(**values)
