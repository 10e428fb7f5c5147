"""Views, delta ops and the incremental checksum (the Convergence invariant's machinery)."""

from __future__ import annotations

from typing import Any
from zlib import crc32

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.protocol import Refusal, ViewState, canonical, checksum, diff, entry_hash

keys = st.one_of(st.integers(min_value=1, max_value=40),
                 st.sampled_from(["t", "w", "g", "p0", "p1", "x"]))
leaf = st.one_of(st.integers(-5, 500), st.text(max_size=6), st.booleans())
values = st.recursive(leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["n", "z", "o", "i", "pt", "k"]), inner, max_size=4)),
    max_leaves=8)
ops = st.lists(st.tuples(keys, st.one_of(st.none(), values)), max_size=40)


def test_entry_hash_is_crc32_of_the_canonical_pair() -> None:
    value = {"z": "b", "n": "Forest", "o": 0}
    assert entry_hash(12, value) == crc32(canonical([12, value]))
    assert entry_hash(12, value) == crc32(bytes.fromhex("920c83a16e")
                                          + b"\xa6Forest" + bytes.fromhex("a16f00a17aa162"))


def test_set_and_delete_report_ops_only_for_changes() -> None:
    v = ViewState()
    assert v.set("t", [1, 0, "main1", 0]) == ["s", "t", [1, 0, "main1", 0]]
    assert v.set("t", [1, 0, "main1", 0]) is None
    assert v.delete(5) is None
    assert v.set(5, {"n": "Forest"}) == ["s", 5, {"n": "Forest"}]
    assert v.delete(5) == ["d", 5]
    assert v.view == {"t": [1, 0, "main1", 0]}
    assert v.checksum == checksum(v.view)


@given(ops)
def test_the_incremental_checksum_equals_the_checksum_from_scratch(changes: list[Any]) -> None:
    server = ViewState()
    client = ViewState()
    for key, value in changes:
        op = server.set(key, value)
        if op is not None:
            client.apply([op])
        assert server.checksum == checksum(server.view)
        assert client.view == server.view and client.checksum == server.checksum


@given(st.dictionaries(keys, values, max_size=12), st.dictionaries(keys, values, max_size=12))
def test_diff_turns_one_view_into_the_other(old: dict[Any, Any], new: dict[Any, Any]) -> None:
    state = ViewState(old)
    state.apply(diff(old, new))
    assert state.view == new
    assert state.checksum == checksum(new)


def test_the_checksum_does_not_depend_on_insertion_order() -> None:
    a = ViewState({"t": 1, 3: {"n": "X", "z": "b"}})
    b = ViewState({3: {"z": "b", "n": "X"}, "t": 1})
    assert a.checksum == b.checksum


@pytest.mark.parametrize("bad", [
    "nope", [["s", "t"]], [["d"]], [["x", "t", 1]], [["s", 1.5, 1]], [["s", True, 1]],
    [["d", "t", 1]], [5],
])
def test_malformed_ops_are_refused(bad: Any) -> None:
    with pytest.raises(Refusal):
        ViewState().apply(bad)


def test_the_checksum_vectors_in_docs_protocol_md() -> None:
    forest = {"n": "Forest", "z": "b", "o": 0, "i": 3}
    assert canonical(["t", [1, 0, "main1", 0]]).hex() == "92a174940100a56d61696e3100"
    assert entry_hash("t", [1, 0, "main1", 0]) == 3460788851
    assert canonical([12, forest]).hex() == "920c84a16903a16ea6466f72657374a16f00a17aa162"
    assert entry_hash(12, forest) == 1041658989
    view = ViewState({"t": [1, 0, "main1", 0], 12: forest})
    assert view.checksum == 207480544
    view.apply([["s", 12, {**forest, "t": 1}]])
    assert view.checksum == 3337695215
