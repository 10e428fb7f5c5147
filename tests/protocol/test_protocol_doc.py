"""docs/protocol.md and the typed messages agree: every message kind, every key, and whether it
is optional, in the tables of sections 5 and 6 is what arbiter/protocol/ encodes and decodes,
and the other way round. A client written from the document alone gets exactly what the
server sends."""

from __future__ import annotations

import re
from pathlib import Path

from arbiter.protocol import requests as rq
from arbiter.protocol import server_messages as sm
from arbiter.protocol.wire import Codec

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _table(section: str) -> dict[str, dict[str, bool]]:
    """The table in ``section`` of the document: message type -> {key: optional}."""
    text = DOC.read_text()
    start = text.index(f"\n## {section}")
    end = text.index("\n## ", start + 1)
    out: dict[str, dict[str, bool]] = {}
    for line in text[start:end].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not re.fullmatch(r"`[a-z_]+`", cells[0]) or cells[0] == "`t`":
            continue
        keys = {}
        for part in filter(None, (p.strip() for p in cells[1].split(","))):
            m = re.fullmatch(r"(\[)?`([a-z_]+)`(\])?", part)
            assert m is not None, f"{cells[0]}: cannot read key {part!r}"
            keys[m.group(2)] = bool(m.group(1))
        out[cells[0].strip("`")] = keys
    return out


def _code(codec: Codec, *, skip: frozenset[str] = frozenset()) -> dict[str, dict[str, bool]]:
    """What arbiter/protocol/ says: message type -> {wire key: optional}."""
    return {kind: {f.key: f.omit and not f.required for f in codec.fields_of(cls)
                   if f.key not in skip}
            for kind, cls in codec.classes.items()}


def test_every_request_and_key_in_the_document_is_in_the_code_and_back() -> None:
    assert _table("5. Client messages") == _code(rq.REQUESTS, skip=frozenset({"i"}))


def test_every_server_message_and_key_in_the_document_is_in_the_code_and_back() -> None:
    assert _table("6. Server messages") == _code(sm.SERVER_MESSAGES)


def test_the_reader_of_the_tables_sees_a_difference() -> None:
    doc = _table("6. Server messages")
    assert doc["d"] == {"r": False, "q": False, "c": False, "o": False, "i": True, "a": True,
                        "l": True}
    code = _code(sm.SERVER_MESSAGES)
    code["d"]["new"] = True
    assert doc != code
