"""The client-side tracker notices gaps and wrong checksums and asks for a resync."""

from __future__ import annotations

from dataclasses import replace

from arbiter.protocol import Tracker, ViewState, checksum
from arbiter.protocol.server_messages import Actions, Delta, Snapshot


def snapshot(view: dict, seq: int = 0) -> Snapshot:
    return Snapshot("1", 9, seq, checksum(view), view, 1, [])


def delta(state: ViewState, seq: int, *changes: tuple) -> Delta:
    ops = [op for k, v in changes if (op := state.set(k, v)) is not None]
    return Delta("1", seq, state.checksum, ops)


def test_snapshot_then_deltas_then_actions() -> None:
    server = ViewState({"t": [1, 0, "main1", 0]})
    tr = Tracker()
    assert tr.feed(snapshot(dict(server.view))) is None
    assert tr.feed(delta(server, 1, ("w", [0, "priority"]), (7, {"n": "Forest"}))) is None
    assert tr.feed(Actions("1", {"serial": 3, "actions": []})) is None
    assert tr.rooms["1"].view == server.view
    assert tr.rooms["1"].actions == {"serial": 3, "actions": []}
    tr.acted("1", 2)
    assert tr.rooms["1"].actions is not None  # not the decision that was answered
    tr.acted("1", 3)
    assert tr.rooms["1"].actions is None
    assert tr.feed(delta(server, 2, (7, None))) is None
    assert tr.rooms["1"].view == server.view
    assert tr.positions() == {"1": (9, 2)}


def test_a_gap_or_a_bad_checksum_asks_for_a_resync() -> None:
    server = ViewState({"t": 1})
    tr = Tracker()
    tr.feed(snapshot(dict(server.view)))
    skipped = delta(server, 1, ("t", 2))
    assert tr.feed(delta(server, 2, ("t", 3))) == "1"  # delta 1 never arrived
    assert tr.rooms["1"].stale and tr.mismatches == 1
    assert tr.feed(skipped) is None  # ignored until the snapshot
    tr.feed(snapshot(dict(server.view), seq=2))
    bad = delta(server, 3, ("t", 4))
    assert tr.feed(replace(bad, checksum=bad.checksum ^ 1)) == "1"
    assert tr.positions() == {}


def test_duplicates_are_ignored() -> None:
    server = ViewState({"t": 1})
    tr = Tracker()
    tr.feed(snapshot(dict(server.view)))
    d1 = delta(server, 1, ("t", 2))
    assert tr.feed(d1) is None
    assert tr.feed(d1) is None
    assert tr.rooms["1"].seq == 1 and tr.mismatches == 0


def test_legal_actions_may_ride_in_a_delta() -> None:
    server = ViewState({"t": 1})
    tr = Tracker()
    tr.feed(snapshot(dict(server.view)))
    actions = {"serial": 4, "actions": [{"id": 0, "kind": "pass", "label": "Pass priority"}]}
    d = replace(delta(server, 1, ("w", [0, "priority"])), actions=actions)
    assert tr.feed(d) is None
    assert tr.rooms["1"].actions == actions  # set after the ops, which cleared the old ones
