"""Bots over the network: the bot core's strategies, fed by the SDK's replica and the server's
legal actions, finish matches on a real server; ``arbiter bot`` creates rooms and fills them,
or joins a given room and plays until its match ends."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import trio

from arbiter.bots.strategies import heuristic_strategy, random_strategy
from arbiter.clients.bots import bot_cmd
from arbiter.clients.bots.net import NetBot, describe_result, seat_names
from arbiter.clients.sdk import Client, ConnectionLost, RequestError

from ..server.harness import start_server
from .helpers import assert_replica_matches, bot_args, sdk_client, url


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
    assert server.hub.stats.games_finished == 2
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


async def test_104_4i_bots_agree_to_a_draw_in_a_game_nobody_can_win_or_lose(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    # Ann controls Platinum Angel and Abyssal Persecutor: nobody can win and nobody can lose
    # (and Bob has nothing to remove them with), so only an agreement ends the game. The bots
    # see it stall and settle it as people would.
    server = await start_server(nursery, tmp_path)
    ann = await sdk_client(nursery, server, "Ann")
    bob = await sdk_client(nursery, server, "Bob")
    bob_side = {"battlefield": ["Swamp"], "library": ["Swamp"] * 3}
    ann_side = {**bob_side, "battlefield": ["Platinum Angel", "Abyssal Persecutor", "Swamp"]}
    room = await ann.create({"seats": 2, "seed": 4,
                             "scenario": {"players": [ann_side, bob_side], "active": 0}})
    await ann.join(room, deck="quick-red")
    await bob.join(room, deck="quick-red")
    bots = [NetBot(ann, heuristic_strategy, random.Random(1), draw_after=3),
            NetBot(bob, heuristic_strategy, random.Random(2), draw_after=3)]
    async with trio.open_nursery() as n:
        for bot in bots:
            n.start_soon(bot.play, room)
    [result] = ann.results[room]
    res = result.result
    assert res["draw"] and not res["winners"]
    assert {(o["outcome"], o["rule"]) for o in res["outcomes"]} == {("drew", "104.4i")}
    # Three rounds of two players without anyone leaving, then one offer and one acceptance.
    assert ann.view(room)["t"][0] >= 1 + 3 * 2
    draws = sorted(sorted(b.record.draws.items()) for b in bots)
    assert draws == [[("accept", 1)], [("propose", 1)]]
    assert all(b.record.errors == 0 for b in bots)


async def test_104_4i_a_bot_declines_a_draw_offered_before_the_game_stalls(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)
    ann = await sdk_client(nursery, server, "Ann")
    bob = await sdk_client(nursery, server, "Bob")
    room = await ann.create({"seats": 2, "seed": 6})
    await ann.join(room, deck="quick-red")
    await bob.join(room, deck="quick-green")
    bot = NetBot(bob, heuristic_strategy, random.Random(3))
    async with trio.open_nursery() as n:
        n.start_soon(bot.play, room)
        # Propose while Ann must decide, so the bot cannot act (and so lapse the offer)
        # before it has seen it.
        with trio.fail_after(60):
            while not ann.decisions(room):
                await ann.wait_changed()
        for n in (1, 2):  # a second offer in the same turn gets its own answer
            await ann.draw(room, "propose")
            with trio.fail_after(60):
                while bot.record.draws.get("decline") != n:
                    await trio.sleep(0.1)  # the bot's reply may come after Ann's delta
            assert "d" not in ann.view(room), "the offer is gone"
        assert not ann.match_over(room)
        await ann.concede(room)
    [result] = ann.results[room]
    assert result.result["winners"] == [1]
    assert bot.record.draws == {"decline": 2}


async def test_a_bot_asks_again_what_a_busy_or_dropped_cluster_could_not_answer(
        autojump_clock: object) -> None:
    # `arbiter bot` on a cluster: a node that cannot reach its log says "unavailable", a node
    # killed mid-request drops the connection; both are asked again, a real refusal is not.
    answers: list[BaseException | str] = [RequestError("unavailable", "log away", 1),
                                          ConnectionLost("dropped"), "room-7"]

    async def create() -> str:
        answer = answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    assert await bot_cmd._patiently(create) == "room-7" and not answers
    answers[:] = [RequestError("seat_taken", "no", 2), "never"]
    with pytest.raises(RequestError, match="no"):
        await bot_cmd._patiently(create)
    assert answers == ["never"]


DECK_LIST = ("20 Forest\n20 Mountain\n4 Grizzly Bears\n4 Runeclaw Bear\n4 Llanowar Elves\n"
             "4 Lightning Bolt\n4 Lava Axe\n")


async def test_arbiter_bot_plays_the_deck_lists_of_its_deck_files(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    server = await start_server(nursery, tmp_path)
    green = tmp_path / "green.txt"
    green.write_text(DECK_LIST)
    bolts = tmp_path / "bolts.txt"
    bolts.write_text(DECK_LIST.replace("4 Lava Axe", "4 Fireball"))
    args = bot_args("--url", url(server), "--create", "--deck-file", str(green),
                    "--deck-file", str(bolts), "--seed", "3")
    sent: list[tuple[str | None, str | None]] = []
    submit = Client.submit_deck

    async def spy(self: Client, room: str, *, ready: str | None = None,
                  text: str | None = None) -> None:
        sent.append((ready, text))
        await submit(self, room, ready=ready, text=text)

    monkeypatch.setattr(Client, "submit_deck", spy)
    assert await bot_cmd._main(args) == 0
    assert server.hub.stats.games_finished == 1
    assert sent == [(None, green.read_text()), (None, bolts.read_text())]


async def test_arbiter_bot_says_which_card_of_a_deck_file_the_server_does_not_know(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)
    path = tmp_path / "deck.txt"
    path.write_text(DECK_LIST.replace("Lava Axe", "Lava Axxe"))
    args = bot_args("--url", url(server), "--create", "--deck-file", str(path))
    with pytest.raises(RequestError) as refused:
        await bot_cmd._main(args)
    assert refused.value.code == "bad_deck" and "'Lava Axxe'" in str(refused.value)


def test_arbiter_bot_refuses_a_deck_file_it_cannot_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.txt"
    args = bot_args("--url", "ws://127.0.0.1:9/", "--create", "--deck-file", str(missing))
    assert bot_cmd.run(args) == 2
    assert "cannot read the deck file" in capsys.readouterr().err
