"""Isolation (invariant 5): whatever a client sends (random bytes, random msgpack values,
request-shaped maps with wrong or hostile fields, text frames, oversized frames), it gets an
answer for each message (an error when the message is bad) or a policy close, the server never
raises out of a handler, and a game in another room goes on untouched."""

from __future__ import annotations

import logging
import random
import tempfile
from pathlib import Path
from typing import Any

import msgpack
import trio
import trio.testing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.server.rooms.peers import Limits

from .harness import Client, create_room, play, settle, start_server, two_player_game

TYPES = ["hello", "rooms", "create", "join", "spectate", "deck", "act", "concede", "draw",
         "chat", "resync", "leave", "judge", "bogus", ""]
ROOMS = ["1", "2", "2.1.2", "99", "", "x" * 40]  # "1": the victims' room, "2": the attacker's

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1), st.floats(),
                    st.text(max_size=20), st.binary(max_size=20))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
ints = st.one_of(st.integers(-3, 400), st.integers(-2**63, 2**64 - 1), st.booleans(), st.none(),
                 st.text(max_size=3))
fields = {
    "r": st.one_of(st.sampled_from(ROOMS), ints), "s": ints, "a": ints, "seat": ints,
    "token": st.one_of(st.text(max_size=70), ints), "op": st.sampled_from(
        ["propose", "accept", "decline", "withdraw", "x", 3]),
    "text": st.one_of(st.text(max_size=600), ints), "g": st.one_of(st.sampled_from(ROOMS), ints),
    "e": ints, "q": ints, "v": st.one_of(ints, st.lists(ints, max_size=3)),
    "name": st.one_of(st.text(max_size=50), ints), "session": st.one_of(st.text(max_size=30)),
    "ready": st.sampled_from(["quick-red", "nope", ""]), "config": st.one_of(
        values, st.fixed_dictionaries({}, optional={
            "variant": st.sampled_from(["two_player", "free_for_all", "planechase", 5]),
            "seats": ints, "clock": values, "scenario": values, "best_of": ints,
            "spectators": st.sampled_from(["none", "public", "all", "x"])})),
    "resume": values, "x": values,
}
requests = st.fixed_dictionaries(
    {"t": st.sampled_from(TYPES), "i": st.one_of(st.integers(0, 10**6), ints)},
    optional=fields)  # type: ignore[arg-type]
room = st.sampled_from(ROOMS)
small = st.integers(0, 600)
well_formed = st.one_of(  # the right shapes, hostile values: these reach rooms and the engine
    st.builds(lambda r, s, a: {"t": "act", "r": r, "s": s, "a": a}, room, small, small),
    st.builds(lambda r, g: {"t": "concede", "r": r, **({"g": g} if g else {})}, room,
              st.sampled_from([None, *ROOMS])),
    st.builds(lambda r, op: {"t": "draw", "r": r, "op": op}, room,
              st.sampled_from(["propose", "accept", "decline", "withdraw"])),
    st.builds(lambda r, seat, tok: {"t": "join", "r": r, "seat": seat,
                                    **({"token": tok} if tok else {})},
              room, st.integers(0, 9), st.sampled_from([None, "guess", "A" * 24])),
    st.builds(lambda r, seat: {"t": "judge", "r": r, "seat": seat}, room, st.integers(0, 9)),
    st.builds(lambda r, e, q: {"t": "resync", "r": r, "e": e, "q": q}, room, small, small),
    st.builds(lambda kind, r: {"t": kind, "r": r},
              st.sampled_from(["spectate", "leave", "resync"]), room),
    st.builds(lambda r, text: {"t": "chat", "r": r, "text": text}, room,
              st.text(min_size=1, max_size=50)),
    st.builds(lambda r, ready: {"t": "deck", "r": r, "ready": ready}, room,
              st.sampled_from(["quick-red", "nope"])),
    st.builds(lambda r, text: {"t": "deck", "r": r, "text": text}, room,
              st.text(min_size=1, max_size=80)),
    st.builds(lambda config: {"t": "create", "config": config}, fields["config"]),
    st.just({"t": "rooms"}), st.just({"t": "hello", "v": 1, "name": "again"}),
).flatmap(lambda m: st.integers(0, 10**6).map(lambda i: {**m, "i": i}))
frames = st.one_of(
    well_formed, well_formed, well_formed, well_formed,
    st.binary(max_size=300),
    values.map(lambda v: msgpack.packb(v, use_bin_type=True)),
    requests.map(lambda v: msgpack.packb(v, use_bin_type=True)),
    requests,  # packed by the test; some become text frames
    st.binary(min_size=2100, max_size=2200),  # larger than the 2048-byte limit below
)


class ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def attack(data_dir: Path, batch: list[Any], greet: bool, as_text: list[bool]) -> None:
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, data_dir,
                                    limits=Limits(rate=1e9, burst=10**9, max_frame=2048))
        ann, bob, victims = await two_player_game(nursery, server, seed=5, actions=12)
        mallory = await Client.open(nursery, server, "Mallory", hello=greet)
        if greet:
            partner = await Client.open(nursery, server, "Trent")
            own = await create_room(mallory, {"seats": 2, "seed": 6})
            assert own == "2"
            await mallory.join(own, deck="quick-red")
            await partner.join(own, deck="quick-red")
            await settle()
        match = server.hub.matches[victims]
        assert match.table is not None
        before = match.table.state_hash()
        views = {c.label: dict(c.tracker.rooms[victims].view) for c in (ann, bob)}
        answered_before = sum(1 for m in mallory.messages if "i" in m)
        sent = 0
        for frame, text in zip(batch, as_text, strict=True):
            if mallory.closed:
                break
            if isinstance(frame, dict):
                frame = msgpack.packb(frame, use_bin_type=True)
                if text:
                    frame = frame.decode("latin-1")
            try:
                await mallory.ws.send(frame)
            except Exception:
                break  # the server closed the connection
            sent += 1
            await settle()
        await settle()
        answered = sum(1 for m in mallory.messages if "i" in m) - answered_before
        if mallory.closed:
            assert mallory.close_code in (1002, 1008, 1009), mallory.close_code
        else:
            assert answered == sent, (answered, sent)  # one answer per message
        assert server.hub.stats.internal_errors == 0
        # The victims' game was not touched, and is still served.
        assert match.table.state_hash() == before
        for c in (ann, bob):
            assert c.tracker.rooms[victims].view == views[c.label]
            assert c.tracker.mismatches == 0
        assert await play({0: ann, 1: bob}, max_actions=3) == 3
        nursery.cancel_scope.cancel()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(frames, min_size=1, max_size=25), st.sampled_from([True, True, True, False]),
       st.randoms())
def test_hostile_frames_get_errors_and_touch_no_other_room(batch: list[Any], greet: bool,
                                                           rnd: random.Random) -> None:
    as_text = [rnd.random() < 0.15 for _ in batch]
    errors = ErrorLog()
    for name in ("arbiter", "websockets"):
        logging.getLogger(name).addHandler(errors)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            trio.run(attack, Path(tmp), batch, greet, as_text,
                     clock=trio.testing.MockClock(autojump_threshold=0))
    finally:
        for name in ("arbiter", "websockets"):
            logging.getLogger(name).removeHandler(errors)
    assert errors.records == [], [r.getMessage() for r in errors.records]
