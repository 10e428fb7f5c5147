"""Bots over the network: the engine's strategies, fed by the SDK's replica and the server's
legal actions, finish matches on a real server; ``arbiter bot`` creates rooms and fills them,
or joins a given room and plays until its match ends."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pytest
import trio

from clients.bots import bot_cmd
from clients.bots.net import NetBot, describe_result, seat_names
from clients.bots.strategies import heuristic_strategy, random_strategy

from ..server.harness import start_server
from .helpers import assert_replica_matches, sdk_client, url


def bot_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    bot_cmd.add_arguments(parser)
    return parser.parse_args(list(argv))


async def test_bots_play_a_best_of_three_match_to_its_end(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)
    ann = await sdk_client(nursery, server, "Ann")
    bob = await sdk_client(nursery, server, "Bob")
    room = await ann.create({"seats": 2, "best_of": 3, "name": "Bo3"})
    await ann.join(room, deck="gruul-stompy")
    await bob.join(room, deck="boros-lifecycle")
    bots = [NetBot(ann, heuristic_strategy, random.Random(1), think=0.05),
            NetBot(bob, random_strategy, random.Random(2))]
    async with trio.open_nursery() as n:
        for bot in bots:
            n.start_soon(bot.play, room)
    results = ann.results[room]
    assert 2 <= len(results) <= 3 and results[-1].over
    wins = results[-1].match["wins"]
    assert max(wins) == 2 and sum(wins) == len([r for r in results if r.result["winners"]])
    assert [r.result for r in bob.results[room]] == [r.result for r in results]
    for bot in bots:
        assert bot.record.actions > 20 and bot.record.errors == 0
    assert ann.stats.desyncs == 0 and bob.stats.desyncs == 0
    assert server.hub.matches[room].state == "finished"
    assert assert_replica_matches(server, ann) == 1
    line = describe_result(results[0], seat_names(ann, room))
    assert line.startswith(f"room {room}: game 1 of best of 3: ") and " won" in line


async def test_arbiter_bot_create_fills_rooms_and_plays_each_game(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object,
        capsys: pytest.CaptureFixture[str]) -> None:
    server = await start_server(nursery, tmp_path)
    args = bot_args("--url", url(server), "--create", "--seats", "3", "--games", "2",
                    "--strategy", "heuristic", "--seed", "5", "--name", "Robo")
    assert await bot_cmd._main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert server.metrics.games_finished == 2
    rooms = [line for line in out if "heuristic bots (free_for_all)" in line]
    assert len(rooms) == 2
    finished = [line for line in out if ": game 1 of best of 1: " in line]
    assert len(finished) == 2, out
    assert all(("Robo " in line and (" won" in line or "draw" in line)) for line in finished)


async def test_arbiter_bot_joins_a_given_room_and_plays_until_the_match_ends(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object,
        capsys: pytest.CaptureFixture[str]) -> None:
    server = await start_server(nursery, tmp_path)
    host = await sdk_client(nursery, server, "Host")
    room = await host.create({"seats": 2})
    await host.spectate(room)
    async with trio.open_nursery() as n:
        for seat in (1, 0):
            n.start_soon(bot_cmd._main, bot_args(
                "--url", url(server), "--room", room, "--seat", str(seat),
                "--strategy", "heuristic", "--deck", "quick-red", "--name", f"B{seat}"))
    assert host.match_over(room)
    [result] = host.results[room]
    out = capsys.readouterr().out
    assert out.count(f"room {room}: game 1 of best of 1:") == 2
    assert "B0: " in out and "B1: " in out
    assert result.result["outcomes"]
    assert bot_cmd.run(bot_args("--url", url(server), "--room", room, "--games", "2")) == 2
