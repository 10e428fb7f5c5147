"""Views, delta ops and the incremental checksum (the Convergence invariant's machinery)."""

from __future__ import annotations

from typing import Any
from zlib import crc32

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.protocol import Refusal, ViewState, canonical, checksum, diff, entry_hash
from arbiter.protocol.views import expand, group, patch_of

keys = st.one_of(st.integers(min_value=1, max_value=40),
                 st.sampled_from(["t", "w", "g", "p0", "p1", "x"]))
leaf = st.one_of(st.integers(-5, 500), st.text(max_size=6), st.booleans())
values = st.recursive(leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["n", "z", "o", "i", "pt", "k"]), inner, max_size=4)),
    max_leaves=8)
ops = st.lists(st.tuples(keys, st.one_of(st.none(), values)), max_size=40)
# Object-like entries: a map whose fields come and go and change, as patch ops carry them.
entries = st.dictionaries(st.sampled_from(["n", "z", "o", "i", "t", "d", "pt", "k", "a"]),
                          values, max_size=6)
# One delta's changes: each key once, as the server's projection names it.
entry_batches = st.dictionaries(st.sampled_from([3, 4, 5, 6, "p0"]),
                                st.one_of(st.none(), entries), max_size=5)


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


# The same change to several entries (every land untaps): fields to set (nil: remove).
shared_changes = st.tuples(st.lists(st.sampled_from([3, 4, 5, 6, "p0"]), unique=True),
                           st.dictionaries(st.sampled_from(["t", "d", "k"]),
                                           st.one_of(st.none(), st.sampled_from([1, 2])),
                                           min_size=1, max_size=2))


@given(st.lists(st.tuples(entry_batches, shared_changes), max_size=12))
def test_patch_ops_converge_with_the_same_checksum(
        deltas: list[tuple[dict[Any, Any], tuple[list[Any], dict[str, Any]]]]) -> None:
    """Section 9: patch ops (version 2), grouped where entries get the same fields, leave a
    client's entries, and so its checksum, as the server's whole values would; a version 1
    client gets each patch written out and agrees."""
    server, client, old_client = ViewState(), ViewState(), ViewState()
    for changes, (keys, fields) in deltas:
        for key in keys:
            old = server.view.get(key)
            if isinstance(old, dict) and key not in changes:
                new = {**old, **fields}
                changes[key] = {f: v for f, v in new.items() if v is not None}
        made = [server.update(key, value) for key, value in changes.items()]
        ops = group([op for op in made if op is not None])
        client.apply(ops)
        old_client.apply(expand(ops, server.view))
        assert client.view == server.view == old_client.view
        assert client.checksum == server.checksum == checksum(server.view)
        assert old_client.checksum == server.checksum


def test_entries_with_the_same_patch_share_one_op() -> None:
    lands = {k: {"n": "Forest", "z": "b", "o": 0, "i": k, "t": 1} for k in (12, 15, 19)}
    v = ViewState({**lands, "p0": {"l": 20, "h": 7}})
    made = [v.update(k, {"n": "Forest", "z": "b", "o": 0, "i": k}) for k in lands]
    made.insert(1, v.update("p0", {"l": 20, "h": 6}))
    assert group(made) == [["p", [12, 15, 19], {"t": None}], ["p", "p0", {"h": 6}]]
    assert expand(group(made), v.view)[0] == ["s", 12, v.view[12]]


def test_a_patch_names_only_the_fields_that_changed() -> None:
    forest = {"n": "Forest", "z": "b", "o": 0, "i": 3}
    v = ViewState({12: {**forest, "t": 1}, "p0": {"l": 20, "h": 7, "y": 33, "s": "in"}})
    assert v.update(12, forest) == ["p", 12, {"t": None}]
    assert v.update("p0", {"l": 20, "h": 6, "y": 33, "s": "in"}) == ["p", "p0", {"h": 6}]
    # No shorter as a patch: the whole entry goes.
    assert v.update(12, {"n": "Bear", "z": "g"}) == ["s", 12, {"n": "Bear", "z": "g"}]
    assert v.update("t", [1, 0, "untap", 0]) == ["s", "t", [1, 0, "untap", 0]]
    assert patch_of({"a": 1}, {"a": 1, "b": None}) is None  # nil cannot be said
    # A map keyed by player numbers: a patch names string fields only, so the whole map goes.
    assert patch_of({0: [1], 1: [2], 2: [3]}, {0: [1], 1: [2], 2: [4]}) is None
    assert v.update("m", {0: [1], 1: [2], 2: [3]}) == ["s", "m", {0: [1], 1: [2], 2: [3]}]
    assert v.update("m", {0: [1], 1: [2], 2: [4]}) == ["s", "m", {0: [1], 1: [2], 2: [4]}]


def test_views_holding_the_same_old_value_share_its_patch_and_others_do_not() -> None:
    shared = {"n": "Bear", "z": "b", "o": 0, "i": 3, "pt": [2, 2]}
    a, b = ViewState({3: shared}), ViewState({3: shared})
    c = ViewState({3: {"n": "Bear", "z": "b", "o": 0, "i": 3, "pt": [2, 2], "t": 1}})
    new = {"n": "Bear", "z": "b", "o": 0, "i": 3, "pt": [2, 2], "d": 1}
    memo: list[Any] = []
    made = [v.update(3, new, None, memo) for v in (a, b, c)]
    assert made[0] == made[1] == ["p", 3, {"d": 1}] and made[0][2] is made[1][2]
    assert made[2] == ["p", 3, {"d": 1, "t": None}]  # its own old value: its own patch


def test_a_patch_makes_a_new_map_and_leaves_the_old_one_alone() -> None:
    shared = {"n": "Forest", "z": "b", "o": 0, "i": 3, "t": 1}
    a, b = ViewState({12: shared}), ViewState({12: shared})
    a.apply([["p", 12, {"t": None, "d": 2}]])
    assert a.view[12] == {"n": "Forest", "z": "b", "o": 0, "i": 3, "d": 2}
    assert shared["t"] == 1 and b.view[12] is shared


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
    [["p", "t", {"n": 1}]], [["p", "w", 1]], [["s", "w", 1], ["p", "w", {"n": 1}]],
    [["s", 3, {"n": 1}], ["p", 3, {1: 2}]], [["s", 3, {"n": 1}], ["p", 3, [1]]],
    [["s", 3, {"n": 1}], ["p", 3]], [["s", 3, {"n": 1}], ["p", [3, 4], {"n": 2}]],
    [["s", 3, {"n": 1}], ["p", [], {"n": 2}]], [["s", 3, {"n": 1}], ["p", [3, 1.5], {"n": 2}]],
    [["s", 3, {"n": 1}], ["d", [3]]],
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
    view.apply([["p", 12, {"t": None}]])  # untapped again, by a patch (version 2)
    assert view.view[12] == forest and view.checksum == 207480544
