"""Karn Liberated restarts the game (CR 724): every seated player still in the game and every
spectator gets a "restarted" message naming who starts (CR 724.1a) and the fresh game's
snapshot; play goes on in the same room."""

from __future__ import annotations

import random

import trio

from arbiter.bots.strategies import heuristic_strategy

from .checks import assert_converged, assert_secret
from .harness import Client, create_room, play, settle, start_server

LIBRARY = ["Mountain", "Hill Giant", "Mountain", "Lightning Bolt"] * 6


async def test_karn_restart_gives_everyone_the_fresh_game(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    players = {i: await Client.open(nursery, server, n) for i, n in enumerate(["Ann", "Bob",
                                                                             "Cid"])}
    watcher = await Client.open(nursery, server, "Eve")
    setups = [{"library": LIBRARY, "hand": ["Mountain"]} for _ in range(3)]
    setups[1] = {"library": LIBRARY, "battlefield": ["Karn Liberated", "Mountain"],
                 "counters": [[0, "loyalty", 14]], "hand": ["Lightning Bolt"]}
    room = await create_room(players[0], {"variant": "free_for_all", "seats": 3, "seed": 8,
                                          "scenario": {"players": setups, "active": 1}})
    await watcher.ok({"t": "spectate", "r": room})
    for c in players.values():
        await c.join(room, deck="quick-red")
    await settle()
    everyone = [*players.values(), watcher]
    before_restart = {id(c): c.tracker.rooms[room].epoch for c in everyone}
    old_game = watcher.tracker.rooms[room].view["g"]["n"]

    [(_, decision)] = players[1].pending()
    restart = next(a for a in decision["actions"] if "Restart" in a["label"])
    await players[1].ok({"t": "act", "r": room, "s": decision["serial"], "a": restart["id"]})
    # Everyone passes priority until the ability resolves.
    for _ in range(3):
        await settle()
        [(c, d)] = [(c, d) for c in players.values() for _, d in c.pending()]
        if any(m["t"] == "restarted" for m in watcher.messages):
            break
        await c.ok({"t": "act", "r": room, "s": d["serial"],
                    "a": next(a["id"] for a in d["actions"] if a["kind"] == "pass")})
    await settle()
    for c in everyone:
        [msg] = c.of_type("restarted")
        assert msg["r"] == room and msg["starting"] == 1 and msg["old"] == old_game
        rv = c.tracker.rooms[room]
        snap = [m for m in c.messages if m["t"] == "s"][-1]  # the fresh game's snapshot
        assert c.messages.index(snap) > c.messages.index(msg)
        assert snap["g"] == msg["g"] != old_game and snap["e"] != before_restart[id(c)]
        assert rv.view["g"]["n"] == msg["g"]
        assert rv.view["t"][3] == 1  # the new game's starting player (CR 724.1a)
        if c is not players[1]:  # Karn went back into its owner's library (CR 724.2)
            assert "Karn Liberated" not in str(rv.view)
    assert assert_converged(server, everyone) == 4
    n = await play(players, strategy=heuristic_strategy, rng=random.Random(1), max_actions=200)
    assert n == 200
    assert assert_converged(server, everyone) == 4
    assert_secret(server, room, players, [watcher])
