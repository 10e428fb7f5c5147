"""Frames and the canonical encoding the checksums are defined on (docs/protocol.md)."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.protocol import Code, Refusal, canonical, pack, unpack_client, unpack_server
from arbiter.protocol.codec import extend


def test_canonical_orders_map_keys_by_their_encoding_at_every_depth() -> None:
    a = {"z": 1, "ab": [{"y": 2, "x": 3}], "b": None}
    b = {"b": None, "ab": [{"x": 3, "y": 2}], "z": 1}
    assert canonical(a) == canonical(b)
    # fixstr "b" (a1 62) < fixstr "z" (a1 7a) < fixstr "ab" (a2 61 62): length comes first
    assert canonical(a).hex() == "83a162c0a17a01a261629182a17803a17902"


def test_canonical_uses_the_shortest_forms() -> None:
    assert canonical([1, 300, -1, "x", True]) == bytes.fromhex("9501cd012cffa178c3")


def test_canonical_of_a_map_with_integer_and_string_keys() -> None:
    value = {"n": 1, 7: 2, 200: 3}
    # 07 < a1 6e < cc c8: a positive fixint sorts before a string, a uint8 after it
    assert canonical(value) == bytes.fromhex("830702a16e01ccc803")


def test_client_frames_must_be_one_map_with_string_keys() -> None:
    assert unpack_client(pack({"t": "rooms", "i": 1})) == {"t": "rooms", "i": 1}
    with pytest.raises(Refusal) as e:
        unpack_client(b"\xc1")
    assert e.value.code == Code.BAD_FRAME
    with pytest.raises(Refusal) as e:
        unpack_client(pack([1, 2]))
    assert e.value.code == Code.BAD_MESSAGE
    with pytest.raises(Refusal) as e:
        unpack_client(msgpack.packb({1: 2}))
    assert e.value.code == Code.BAD_FRAME
    with pytest.raises(Refusal) as e:
        unpack_client(pack({"t": "x"}) + b"\x00")  # trailing bytes
    assert e.value.code == Code.BAD_FRAME


def test_oversized_client_frames_are_refused_before_decoding() -> None:
    frame = pack({"t": "chat", "i": 1, "text": "x" * 100})
    with pytest.raises(Refusal) as e:
        unpack_client(frame, max_size=50)
    assert e.value.code == Code.TOO_LARGE


def test_server_frames_may_use_integer_keys() -> None:
    assert unpack_server(pack({"t": "s", "v": {12: {"n": "Forest"}}})) == {
        "t": "s", "v": {12: {"n": "Forest"}}}


_values = st.recursive(st.none() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=3), max_leaves=6)


@given(st.dictionaries(st.text(max_size=4), _values, max_size=20),
       st.dictionaries(st.text(min_size=5, max_size=6), _values, min_size=1, max_size=3))
def test_entries_appended_to_a_packed_map_decode_as_the_map_with_them(
        base: dict[str, object], extra: dict[str, object]) -> None:
    # The delta's extras (legal actions, request id) ride appended to its packed bytes.
    assert unpack_server(extend(pack(base), extra)) == {**base, **extra}
