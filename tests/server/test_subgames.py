"""Shahrazad (CR 726): a subgame gets a room of its own and a subgame inside it a nested room.
The main room is paused while they run (CR 726.1a: its game actions are refused, concession is
accepted), everyone involved is moved into each new room with its snapshot, spectators follow,
and when a subgame ends its room closes with its result and the room below resumes."""

from __future__ import annotations

from typing import Any

import trio

from .checks import assert_converged, assert_secret
from .harness import Client, create_room, play, settle, start_server

LIBRARY = ["Plains", "Shahrazad", "Plains", "Plains", "Shahrazad"] * 6


def shahrazad_bot(n: int, room: str, decision: dict[str, Any], view: dict[Any, Any]
                  ) -> int | None:
    """Keep every hand, play lands, cast Shahrazad in the main game and in the first subgame."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for a in decision["actions"]:
        by_kind.setdefault(a["kind"], []).append(a)
    if "keep" in by_kind:
        return int(by_kind["keep"][0]["id"])
    depth = view["g"]["depth"]
    if depth < 2:
        for a in by_kind.get("cast", []):
            if "Shahrazad" in a["label"]:
                return int(a["id"])
    if "play_land" in by_kind:
        return int(by_kind["play_land"][0]["id"])
    if "pass" in by_kind:
        return int(by_kind["pass"][0]["id"])
    return int(decision["actions"][0]["id"])


def open_rooms(c: Client) -> dict[int, str]:
    """Depth -> room id of the rooms this client follows and that are still open."""
    return {rv.view["g"]["depth"]: r for r, rv in c.tracker.rooms.items() if not rv.closed}


async def setup(nursery: trio.Nursery, tmp_path: Any) -> tuple[Any, dict[int, Client], Client,
                                                                str]:
    server = await start_server(nursery, tmp_path)
    players = {i: await Client.open(nursery, server, n) for i, n in enumerate(["Ann", "Bob"])}
    watcher = await Client.open(nursery, server, "Eve")
    setups = [{"library": LIBRARY, "hand": ["Shahrazad"], "battlefield": ["Plains", "Plains"]},
              {"library": LIBRARY, "battlefield": ["Plains"]}]
    room = await create_room(players[0], {"seats": 2, "seed": 4,
                                          "scenario": {"players": setups, "active": 0}})
    await watcher.ok({"t": "spectate", "r": room})
    for c in players.values():
        await c.join(room, deck="quick-red")
    await settle()
    return server, players, watcher, room


async def test_a_subgame_and_a_nested_subgame_pause_and_resume_their_rooms(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server, players, watcher, main = await setup(nursery, tmp_path)
    everyone = [*players.values(), watcher]

    await play(players, choose=shahrazad_bot, until=lambda: 1 in open_rooms(watcher),
               max_actions=50)
    sub = open_rooms(watcher)[1]
    assert sub.startswith(f"{main}.1.")
    for c in everyone:
        [opened] = c.of_type("opened")
        assert opened["r"] == sub and opened["parent"] == main and opened["depth"] == 1
        assert opened["players"] == [0, 1]
        assert {"t": "paused", "r": main, "sub": sub} in c.messages
        assert c.tracker.rooms[sub].view["g"]["parent"] == c.tracker.rooms[main].view["g"]["n"]
        assert c.tracker.rooms[main].view["w"] == ["subgame"]
        assert not [m for m in c.messages if m.get("t") == "error"]
    assert server.hub.matches[main].state == "paused"
    assert watcher.of_type("room")[-1]["state"] == "paused"

    # The main room refuses game actions while the subgame runs (CR 726.1a)...
    refused = await players[0].call({"t": "act", "r": main, "s": 1, "a": 0})
    assert refused["t"] == "error" and refused["code"] == "room_paused"
    refused = await players[1].call({"t": "draw", "r": main, "op": "propose"})
    assert refused["code"] == "room_paused"

    await play(players, choose=shahrazad_bot, until=lambda: 2 in open_rooms(watcher),
               max_actions=400)
    nested = open_rooms(watcher)[2]
    assert nested.startswith(f"{main}.1.") and nested != sub
    for c in everyone:
        assert [m["r"] for m in c.of_type("opened")] == [sub, nested]
        assert {"t": "paused", "r": sub, "sub": nested} in c.messages
        assert c.tracker.rooms[nested].view["g"]["depth"] == 2
    assert assert_converged(server, everyone) == 9

    # Bob concedes the nested subgame only: its room closes, the subgame below resumes.
    reply = await players[1].call({"t": "concede", "r": main, "g": nested})
    assert reply["t"] in ("d", "ok"), reply
    await settle()
    for c in everyone:
        [closed] = c.of_type("closed")
        assert closed["r"] == nested and closed["parent"] == sub
        assert closed["res"]["winners"] == [0]
        assert {"t": "resumed", "r": sub} in c.messages
        assert c.tracker.rooms[nested].closed
    assert server.hub.matches[main].state == "paused"
    # CR 726.5 / Shahrazad: Bob, who did not win the nested subgame, lost half his life in sub.
    assert watcher.tracker.rooms[sub].view["p1"]["l"] == 10

    reply = await players[1].call({"t": "concede", "r": main, "g": sub})
    assert reply["t"] in ("d", "ok"), reply
    await settle()
    for c in everyone:
        assert [m["r"] for m in c.of_type("closed")] == [nested, sub]
        assert {"t": "resumed", "r": main} in c.messages
        view = c.tracker.rooms[main].view
        assert view["p1"]["l"] == 10 and view["p1"]["s"] == "in"  # half of 20, rounded up
        assert view.get("w", [None])[0] != "subgame"
    assert server.hub.matches[main].state == "playing"
    assert watcher.of_type("room")[-1]["state"] == "playing"
    assert assert_converged(server, everyone) == 3

    # The main game goes on in the main room.
    n = await play(players, choose=shahrazad_bot, max_actions=30)
    assert n == 30
    assert_secret(server, main, players, [watcher])


async def test_concession_is_accepted_while_the_main_game_is_paused(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server, players, watcher, main = await setup(nursery, tmp_path)
    await play(players, choose=shahrazad_bot, until=lambda: 1 in open_rooms(watcher),
               max_actions=50)
    sub = open_rooms(watcher)[1]
    # Conceding the main game (CR 104.3a) also takes Bob out of the subgame above it.
    reply = await players[1].call({"t": "concede", "r": main, "g": main})
    assert reply["t"] in ("d", "ok"), reply
    await settle()
    for c in [*players.values(), watcher]:
        [closed] = c.of_type("closed")
        assert closed["r"] == sub
        [result] = c.of_type("result")
        assert result["r"] == main and result["res"]["winners"] == [0]
        assert [o["reason"] for o in result["res"]["outcomes"] if o["player"] == 1] == [
            "concession"]
    assert server.hub.matches[main].state == "finished"
    assert sub not in server.hub.index
