"""A watchers' class nobody is in is not kept up to date (GameRoom.doze) once its history could
serve nobody who left it, and wakes from a fresh snapshot when a viewer comes: spectators who
arrive, leave and come back still converge, get the deltas they missed while the history has
them, and never get deltas that skip the time nobody watched."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rooms.context import HubSettings
from arbiter.server.rules.view import OMNISCIENT, SPECTATOR

from .sim import Sim, assert_converged

HISTORY = 4  # deltas each class keeps for reconnects (256 by default)


def _sim(seed: int = 7) -> Sim:
    return Sim(HubSettings(allow_scenarios=True, history=HISTORY), seed=seed)


def test_a_room_without_spectators_stops_keeping_their_view_after_its_history() -> None:
    sim = _sim()
    (ann, bob), room = sim.table({"seats": 2, "seed": 3})
    game_room = sim.match(room).rooms[room]
    spectators = game_room.classes[SPECTATOR]
    sim.play({0: ann, 1: bob}, rng=random.Random(3),
             until=lambda: spectators.seq >= HISTORY)
    assert not spectators.dormant  # its history may still serve one who left
    sim.play({0: ann, 1: bob}, rng=random.Random(4), max_actions=15)
    assert spectators.dormant and spectators.seq == HISTORY
    assert [c.key for c in game_room.awake] == [0, 1]


def test_a_spectator_arriving_late_gets_a_snapshot_and_then_converging_deltas() -> None:
    sim = _sim()
    (ann, bob), room = sim.table({"seats": 2, "seed": 5})
    players = {0: ann, 1: bob}
    sim.play(players, rng=random.Random(5), max_actions=20)
    eve = sim.connect("Eve", address="10.0.0.9")
    eve.ok({"t": "spectate", "r": room})
    assert eve.of_type("s")
    assert not sim.match(room).rooms[room].classes[SPECTATOR].dormant
    sim.play(players, rng=random.Random(6), max_actions=20)
    assert eve.of_type("d")  # followed by deltas, which the tracker checked one by one
    assert assert_converged(sim, [ann, bob, eve]) == 3


def test_a_spectator_back_within_the_history_gets_deltas_and_after_a_dormant_spell_a_snapshot(
        ) -> None:
    """A position the history covers is served the deltas missed, as for a seat; one from
    before the class slept is not (its history is gone and its sequence number moved on:
    the protocol's resume, docs/protocol.md), so it gets a snapshot."""
    sim = _sim()
    (ann, bob), room = sim.table({"seats": 2, "seed": 7})
    players = {0: ann, 1: bob}
    spectators = sim.match(room).rooms[room].classes[SPECTATOR]
    eve = sim.connect("Eve", address="10.0.0.9")
    eve.ok({"t": "spectate", "r": room})
    sim.play(players, rng=random.Random(7), max_actions=10)
    positions = eve.tracker.positions()
    eve.close()
    sim.play(players, rng=random.Random(8), until=lambda: spectators.seq
             == positions[room][1] + HISTORY)
    back = sim.connect(session=eve.session, resume=positions)
    assert not back.of_type("s") and len(back.of_type("d")) == HISTORY
    positions = {room: (positions[room][0], spectators.seq)}
    back.close()
    sim.play(players, rng=random.Random(8), max_actions=15)
    assert spectators.dormant
    again = sim.connect(session=eve.session, resume=positions)
    assert again.of_type("s")
    sim.play(players, rng=random.Random(9), max_actions=10)
    assert assert_converged(sim, [ann, bob, again]) == 3


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16), watch=st.lists(st.booleans(), min_size=2, max_size=6))
def test_watchers_coming_and_going_always_converge(seed: int, watch: list[bool]) -> None:
    """Whatever the pattern of a spectator being there or not between stretches of play (in
    a room whose spectators see everything, too), every viewer's replica equals a fresh
    engine snapshot of their view afterwards (the Convergence invariant)."""
    sim = Sim(HubSettings(allow_scenarios=True, history=HISTORY), seed=seed)
    rng = random.Random(seed)
    config = {"seats": 2, "seed": seed, "spectators": rng.choice(["public", "all"])}
    (ann, bob), room = sim.table(config)
    players = {0: ann, 1: bob}
    eve = None
    for there in watch:
        if there and eve is None:
            eve = sim.connect("Eve", address="10.0.0.9")
            invite = sim.match(room).settings.invite
            eve.ok({"t": "spectate", "r": room, **({"token": invite} if invite else {})})
        elif not there and eve is not None:
            eve.close()
            eve = None
        sim.play(players, rng=rng, max_actions=rng.randint(1, 15))
        watchers = [ann, bob] + ([eve] if eve is not None else [])
        assert assert_converged(sim, watchers) == len(watchers)
    spectators = sim.match(room).rooms[room].classes
    assert SPECTATOR in spectators or OMNISCIENT in spectators
