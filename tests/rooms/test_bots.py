"""Bots the server runs in a room's seats (the ``bot`` request): one person can play at once,
and a room of bots plays itself to the end. A bot answers after its think time, from what its
seat may see."""

from __future__ import annotations

import random

from arbiter.server.rooms.context import HubSettings

from .sim import Sim, assert_converged


def test_a_person_fills_the_other_seat_with_a_bot_and_plays_a_whole_game() -> None:
    sim = Sim(HubSettings(allow_scenarios=True, bot_think=0.5))
    ann = sim.connect("Ann")
    room = ann.ok({"t": "create", "config": {"seats": 2, "seed": 11}})["r"]
    ann.join(room, deck="quick-red")
    ann.ok({"t": "bot", "r": room, "strategy": "heuristic"})
    summary = ann.of_type("room")[-1]
    assert summary["state"] == "playing"
    assert summary["seats"][1] == {"n": "Bot (heuristic)", "c": True, "d": True, "b": True}
    rng = random.Random(3)
    for _ in range(3000):
        if sim.match(room).state == "finished":
            break
        if ann.pending():
            sim.play({0: ann}, rng=rng, max_actions=1)
        else:
            sim.advance(0.5)  # the bot thinks, then answers
    assert sim.match(room).state == "finished"
    [result] = ann.of_type("result")
    assert result["res"]["winners"] in ([0], [1])
    assert assert_converged(sim, [ann]) == 1


def test_a_room_of_bots_plays_itself_to_the_end_while_people_watch() -> None:
    sim = Sim(HubSettings(allow_scenarios=True, bot_think=0.2))
    host = sim.connect("Host")
    eve = sim.connect("Eve", address="10.0.0.9")
    room = host.ok({"t": "create", "config": {"seats": 3, "variant": "free_for_all",
                                              "seed": 5}})["r"]
    eve.ok({"t": "spectate", "r": room})
    for strategy in ("heuristic", "random", "heuristic"):
        host.ok({"t": "bot", "r": room, "strategy": strategy})
    assert sim.match(room).state == "playing"
    for _ in range(100):
        if sim.match(room).state == "finished":
            break
        sim.advance(60)
    assert sim.match(room).state == "finished", "the bots finish (or agree to a draw)"
    assert eve.of_type("result")
    assert sim.hub.stats.actions_total > 100  # a whole game, not a quick concession


def test_only_the_creator_or_a_player_adds_bots_and_a_bot_seat_is_not_for_people() -> None:
    sim = Sim()
    ann, bob = sim.connect("Ann"), sim.connect("Bob")
    room = ann.ok({"t": "create", "config": {"seats": 3, "variant": "free_for_all"}})["r"]
    assert bob.call({"t": "bot", "r": room})["code"] == "not_seated"
    bob.join(room, deck="quick-green")
    bob.ok({"t": "bot", "r": room, "seat": 2, "deck": {"ready": "quick-red"}})
    token = sim.match(room).seats[2].token
    assert token is not None
    eve = sim.connect("Eve")
    assert eve.call({"t": "join", "r": room, "token": token})["code"] == "seat_taken"
    assert ann.call({"t": "bot", "r": room, "seat": 2})["code"] == "seat_taken"
    refused = ann.call({"t": "bot", "r": room, "deck": {"text": "60 Forest\n1 Black Lotus"}})
    assert refused["code"] == "bad_deck" and "Black Lotus" in refused["msg"]
