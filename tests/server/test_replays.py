"""Replays and match histories over a real server (docs/protocol.md section 17): a finished
game read back from the log plays to the very board its players and spectators saw live, each
viewer sees only what they could see live, and what cannot be replayed is refused with a stable
code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from arbiter.protocol.views import ViewState
from arbiter.server.net.server import ArbiterServer
from arbiter.server.rooms import replays

from .harness import Activity, Client, create_room, play, settle, start_server


def steps(reply: dict[Any, Any]) -> list[dict[Any, Any]]:
    """Every step's view of a replay, the first before any command."""
    state = ViewState(reply["v"])
    out = [dict(state.view)]
    for ops in reply["o"]:
        state.apply(ops)
        out.append(dict(state.view))
    return out


async def finished_game(nursery: trio.Nursery, server: ArbiterServer, config: dict[str, Any],
                        actions: int = 12) -> tuple[Client, Client, Client, str]:
    """Ann and Bob play ``actions`` decisions, watched by Eve, then Bob concedes."""
    activity = Activity()
    ann = await Client.open(nursery, server, "Ann", activity=activity)
    bob = await Client.open(nursery, server, "Bob", activity=activity)
    eve = await Client.open(nursery, server, "Eve", activity=activity)
    room = await create_room(ann, {"seats": 2, "seed": 5, **config})
    if config.get("spectators") != "none":
        await eve.ok({"t": "spectate", "r": room})
    await ann.join(room, deck="quick-red")
    await bob.join(room, deck="quick-green")
    await play({0: ann, 1: bob}, max_actions=actions)
    await bob.ok({"t": "concede", "r": room})
    await settle()
    return ann, bob, eve, room


async def test_a_replay_ends_on_the_board_each_viewer_saw_live(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)
    ann, bob, eve, room = await finished_game(nursery, server, {})
    history = await ann.ok({"t": "history"})
    [mine] = history["mine"]
    assert mine["room"] == room and mine["seat"] == 0 and mine["names"] == ["Ann", "Bob"]
    assert mine["res"]["winners"] == [0]
    assert [g["game"] for g in history["recent"]] == [mine["game"]]
    assert (await eve.ok({"t": "history"}))["mine"] == []  # Eve watched: no seat of hers

    for client, seat in ((ann, 0), (bob, 1), (eve, None)):
        reply = await client.ok({"t": "replay", "game": mine["game"]})
        assert reply["seat"] == seat and reply["info"]["names"] == ["Ann", "Bob"]
        views = steps(reply)
        assert len(views) == len(reply["turns"]) + 1 > 12
        # The last step is the board this viewer was shown when the game ended.
        assert views[-1] == dict(client.tracker.rooms[room].view), client.label
        assert views[-1]["x"]["winners"] == [0]
        assert reply["turns"] == sorted(reply["turns"])  # turns only go forward
        # Hands: a player's own cards only; a spectator's replay none at all (CR 402.3).
        hands = {v["o"] for view in views for k, v in view.items()
                 if isinstance(k, int) and v["z"] == "h"}
        assert hands == ({seat} if seat is not None else set()), (client.label, hands)


async def test_what_cannot_be_replayed_is_refused_with_a_stable_code(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    server = await start_server(nursery, tmp_path)
    ann, _, eve, _ = await finished_game(nursery, server, {"spectators": "none"}, actions=4)
    [game] = (await ann.ok({"t": "history"}))["mine"]
    # A room that allowed no spectators: its players replay it, nobody else sees it.
    assert (await ann.ok({"t": "replay", "game": game["game"]}))["seat"] == 0
    refused = await eve.call({"t": "replay", "game": game["game"]})
    assert refused["code"] == "no_spectators"
    assert (await eve.ok({"t": "history"}))["recent"] == []
    assert (await eve.call({"t": "replay", "game": 999}))["code"] == "unknown_game"
    # A game still being played is watched, not replayed.
    room = await create_room(ann, {"seats": 2, "seed": 5})
    await ann.join(room, deck="quick-red")
    await eve.join(room, deck="quick-green")
    await settle()
    refused = await eve.call({"t": "replay", "game": game["game"] + 1})
    assert refused["code"] == "not_finished"
    # The work is bounded.
    monkeypatch.setattr(replays, "MAX_REPLAY_COMMANDS", 2)
    assert (await ann.call({"t": "replay", "game": game["game"]}))["code"] == "replay_too_long"
    assert (await ann.call({"t": "replay", "game": -1}))["code"] == "bad_field"
