"""The room core is a pure function of its inputs and the time it is told (with its tokens and
seeds from a seeded source): two cores fed the same inputs give byte-identical effects. This is
what lets tests drive it without sockets, and what a cluster node relies on when it rebuilds a
room from the log."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rooms.context import HubSettings

from .sim import Sim

STEPS = st.lists(st.sampled_from(["play", "chat", "drop", "wait", "spectate", "concede"]),
                 min_size=3, max_size=12)


def _run(seed: int, steps: list[str]) -> list[Any]:
    """Play a script on a fresh core; return everything it asked the outside world to do."""
    sim = Sim(HubSettings(allow_scenarios=True, grace=20, bot_think=0.3), seed=seed)
    seen: list[Any] = []
    apply = sim.apply

    def recording(effects: Any) -> Any:
        seen.append(([repr(r) for r in effects.records],
                     [(sorted(p.sink.name for p in peers), frame)
                      for peers, frame in effects.frames],
                     sorted(map(repr, effects.deadlines.items()))))
        return apply(effects)

    sim.apply = recording  # type: ignore[method-assign]
    rng = random.Random(seed)
    (ann, bob, cid), room = sim.table({"seats": 3, "variant": "free_for_all"},
                                      ("Ann", "Bob", "Cid"))
    bob.ok({"t": "leave", "r": room})  # Bob stops following: his seat is conceded in time
    players = {0: ann, 2: cid}
    for step in steps:
        if step == "play":
            sim.play(players, rng=rng, max_actions=rng.randint(1, 30))
        elif step == "chat":
            ann.call({"t": "chat", "r": room, "text": "hello"})
        elif step == "drop":
            cid.close()
            cid = sim.connect(session=cid.session, resume=cid.tracker.positions())
            players[2] = cid
        elif step == "wait":
            sim.advance(rng.choice([0.5, 5, 25]))
        elif step == "spectate":
            sim.connect(address=f"10.1.0.{rng.randint(1, 9)}").call(
                {"t": "spectate", "r": room})
        elif step == "concede":
            cid.call({"t": "concede", "r": room})
    return seen


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**16), steps=STEPS)
def test_the_same_inputs_give_byte_identical_effects(seed: int, steps: list[str]) -> None:
    first = _run(seed, steps)
    assert first == _run(seed, steps)
    assert any(frames for _, frames, _ in first)
