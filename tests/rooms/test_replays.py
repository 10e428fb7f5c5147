"""Replays never show a viewer a card it could not see live (docs/protocol.md section 17): for
random games, two players and Two-Headed Giant teams, every step of every viewer's replay holds
no card of a hand the viewer may not look at (CR 402.3: only one's own hand, and the teammates'
hands the live view shares, rules/view.py), and its last step is the very board that viewer was
shown live."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.protocol.codec import pack
from arbiter.protocol.errors import Refusal
from arbiter.protocol.views import ViewState
from arbiter.server.rooms import replays
from arbiter.server.rules.view import SPECTATOR
from arbiter.server.store.archive import ArchivedGame, FinishedGame
from arbiter.server.store.db import Store

from .sim import Sim

TEAMS = {"two_player": [{0}, {1}], "two_headed_giant": [{0, 1}, {2, 3}]}


def archived(store: Store) -> ArchivedGame:
    game = store.all_games()[-1]
    room = next(r for r in store.rooms(unfinished=False) if r.id == game.room)
    return ArchivedGame(game, room, store.seats(game.room))


def steps(frames: Any) -> list[dict[Any, Any]]:
    state = ViewState(frames.view)
    out = [dict(state.view)]
    for ops in frames.ops:
        state.apply(ops)
        out.append(dict(state.view))
    return out


@settings(max_examples=12)
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 120),
       variant=st.sampled_from(sorted(TEAMS)))
def test_a_replay_shows_each_viewer_only_the_hands_it_saw_live(
        seed: int, actions: int, variant: str) -> None:
    with TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "log.sqlite3")
        sim = Sim(store=store, seed=seed)
        teams = TEAMS[variant]
        seats = len(teams) * len(teams[0])
        names = ("Ann", "Bob", "Cid", "Dee")[:seats]
        players, room = sim.table({"variant": variant, "seats": seats, "seed": seed}, names)
        sim.play(dict(enumerate(players)), rng=random.Random(seed), max_actions=actions)
        players[-1].ok({"t": "concede", "r": room})
        game = archived(store)
        commands = list(store.commands(game.game.id))
        for session, viewer in [(p.session, i) for i, p in enumerate(players)] + [(None, -1)]:
            assert replays.viewer_of(game, session) == viewer
            frames = replays.replay_frames(1, game, commands, viewer)
            views = steps(frames)
            assert len(views) == len(commands) + 1
            mates = next((t for t in teams if viewer in t), set())
            for view in views:
                for key, value in view.items():
                    if isinstance(key, int) and value["z"] in ("h", "l"):
                        assert value["z"] == "h" and value["o"] in mates, (viewer, value)
            if viewer != SPECTATOR:
                assert views[-1] == dict(players[viewer].tracker.rooms[room].view)
        store.close()


def test_the_core_hands_replays_and_histories_out_as_reads_of_the_log() -> None:
    # The room core holds no finished game: a replay or a history is a read for the server
    # (Effects.reads) with the asker's session, which decides what the replay shows.
    sim = Sim()
    ann = sim.connect("Ann")
    effects = ann.send_raw(pack({"t": "replay", "i": 1, "game": 3}))
    [read] = effects.reads
    assert read.peer is ann.peer and read.session == ann.session and read.request.game == 3
    assert not effects.frames  # answered by the server once it has read the log
    [read] = ann.send_raw(pack({"t": "history", "i": 2})).reads
    assert read.request.TYPE == "history"
    # Before hello there is no session to read for.
    stranger = sim.connect("Zed", hello=False)
    effects = stranger.send_raw(pack({"t": "history", "i": 1}))
    assert not effects.reads and stranger.replies[1]["code"] == "hello_first"


def test_a_room_whose_spectators_saw_all_is_replayed_to_strangers_with_the_public_view() -> None:
    # The all-seeing view was for the creator's invited guests; a replay has no invitation.
    with TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "log.sqlite3")
        sim = Sim(store=store)
        (ann, bob), room = sim.table({"seats": 2, "seed": 1, "spectators": "all"})
        bob.ok({"t": "concede", "r": room})
        game = archived(store)
        assert game.room is not None and game.room.config["spectators"] == "all"
        assert replays.viewer_of(game, "someone else") == SPECTATOR
        assert replays.viewer_of(game, ann.session) == 0
        store.close()


def test_replays_are_charged_to_the_address_as_refused_decks_are() -> None:
    # Each replay costs a worker thread up to about half a second (docs/measurements.md):
    # many connections from one address share its bucket (rooms/addresses.py).
    sim = Sim()
    burst = sim.hub.addresses.limits.refusal_burst
    players = [sim.connect(f"P{i}") for i in range(3)]
    answers = [players[n % 3].send_raw(pack({"t": "replay", "i": 100 + n, "game": 1}))
               for n in range(burst + 1)]
    assert all(a.reads for a in answers[:burst]) and not answers[burst].reads
    assert players[burst % 3].replies[100 + burst]["code"] == "rate_limited"
    sim.advance(2.0)  # the bucket refills
    assert players[0].send_raw(pack({"t": "replay", "i": 999, "game": 1})).reads


def test_a_limited_events_own_log_is_no_game_to_replay_or_list() -> None:
    # An event is logged as a "game" of its room whose commands are the event's (joins,
    # picks): the log's rows hold it beside the games, and a replay or a history skips it.
    with TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "log.sqlite3")
        sim = Sim(store=store)
        host = sim.connect("Host")
        host.ok({"t": "create_event", "config": {"kind": "sealed"}})
        event = archived(store)
        assert "event" in event.game.config
        with pytest.raises(Refusal) as refused:
            replays.check_replayable(event, event.game.id)
        assert refused.value.code == "unknown_game"
        finished = replace(event.game, result={"standings": []})
        listed = replays.history(1, [FinishedGame(finished, "Event", {}, 0)],
                                 [FinishedGame(finished, "Event", {}, None)])
        assert listed.mine == [] and listed.recent == []
        store.close()
