"""Patch ops (protocol version 2, docs/protocol.md section 9): a map entry of which a few
fields changed goes as just those fields; a version 1 connection of the same viewer class gets
the same deltas with each patch written out, and both replicas converge on the engine's view."""

from __future__ import annotations

import copy
import random
from typing import Any

from arbiter.protocol import pack

from .sim import Player, Sim, assert_converged

DECKS = ("m10-green-stompy", "m10-white-weenie")


def _ops(player: Player, room: str) -> list[list[Any]]:
    return [op for m in player.messages if m["t"] == "d" and m["r"] == room for op in m["o"]]


def _table(sim: Sim) -> tuple[Player, Player, Player, Player, str]:
    ann = sim.connect("Ann")  # version 2
    bob = sim.connect("Bob", versions=(1,))
    room = ann.ok({"t": "create", "config": {"seats": 2, "seed": 5}})["r"]
    ann.join(room, deck=DECKS[0])
    bob.join(room, deck=DECKS[1])
    # Two spectators in one viewer class: one frame is encoded for both, one is rewritten.
    new = sim.connect("New", address="10.0.0.7")
    old = sim.connect("Old", address="10.0.0.8", versions=(1,))
    new.ok({"t": "spectate", "r": room})
    old.ok({"t": "spectate", "r": room})
    return ann, bob, new, old, room


def test_version_1_connections_get_whole_entries_and_every_replica_converges() -> None:
    sim = Sim()
    ann, bob, new, old, room = _table(sim)
    sim.play({0: ann, 1: bob}, rng=random.Random(4), max_actions=400)
    # Untapping, damage, hand counts: patches reach version 2 connections ...
    assert any(op[0] == "p" and isinstance(op[1], int) for op in _ops(ann, room))
    assert any(op[0] == "p" and op[1] == "p1" for op in _ops(new, room))
    # (the untap step's lands share one op: the same patch, an array of keys)
    assert any(op[0] == "p" and isinstance(op[1], list) for op in _ops(ann, room))
    # ... and never a version 1 connection, which gets the same changes as whole entries.
    assert not any(op[0] == "p" for p in (bob, old) for op in _ops(p, room))
    keys = [k for op in _ops(new, room) for k in (op[1] if isinstance(op[1], list) else [op[1]])]
    assert [op[1] for op in _ops(old, room)] == keys
    assert old.view(room) == new.view(room)
    assert assert_converged(sim, [ann, bob, new, old]) == 4


def test_a_version_1_resync_past_a_patch_gets_a_snapshot() -> None:
    sim = Sim()
    ann, bob, new, old, room = _table(sim)
    before = {p.name: copy.deepcopy(p.tracker.rooms[room]) for p in (new, old)}
    sim.play({0: ann, 1: bob}, rng=random.Random(4), max_actions=60)
    assert any(op[0] == "p" for op in _ops(new, room))
    for p, answer in ((new, "ok"), (old, "s")):
        # Back to where it stood (as if it had missed what came since), then ask for the rest:
        # the history serves version 2 the deltas; version 1 cannot read them (they have
        # patches), so it is given a snapshot.
        rv = p.tracker.rooms[room] = before[p.name]
        n = len(p.messages)
        p.send_raw(pack({"t": "resync", "i": 900, "r": room, "e": rv.epoch, "q": rv.seq}))
        assert p.replies[900]["t"] == answer
        assert ("s" in [m["t"] for m in p.messages[n:]]) == (answer == "s")
    assert assert_converged(sim, [new, old]) == 2
