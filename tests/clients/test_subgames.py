"""The SDK follows players into subgame rooms and back (CR 726): when Shahrazad starts a
subgame, the client's active room becomes the subgame's, the bots answer decisions there, the
main room shows as paused; when the subgame ends the client is back in the main room."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import trio

from arbiter.bots.strategies import heuristic_strategy
from arbiter.clients.bots.net import NetBot
from arbiter.clients.sdk import Client, events

from ..server.harness import settle, start_server
from .helpers import assert_replica_matches, sdk_client

LIBRARY = ["Plains", "Shahrazad", "Plains", "Plains", "Shahrazad"] * 6


def casts_shahrazad_once() -> Any:
    cast: list[int] = []

    def strategy(view: Any, decision: Any, rng: random.Random, cards: Any) -> int:
        for a in decision["actions"]:
            if a["kind"] == "cast" and "Shahrazad" in a["label"] and not cast:
                cast.append(a["id"])
                return int(a["id"])
        return heuristic_strategy(view, decision, rng, cards)
    return strategy


async def until(client: Client, condition: Any) -> None:
    while not condition():
        await client.wait_changed()


async def test_the_client_follows_its_player_into_a_subgame_and_back(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)
    ann = await sdk_client(nursery, server, "Ann")
    bob = await sdk_client(nursery, server, "Bob")
    eve = await sdk_client(nursery, server, "Eve")
    setups = [{"library": LIBRARY, "hand": ["Shahrazad"], "battlefield": ["Plains", "Plains"]},
              {"library": LIBRARY, "battlefield": ["Plains"]}]
    main = await ann.create({"seats": 2, "seed": 4,
                             "scenario": {"players": setups, "active": 0}})
    seen = eve.subscribe()
    await eve.spectate(main)
    await ann.join(main, deck="quick-red")
    await bob.join(main, deck="quick-red")
    bots = [NetBot(ann, casts_shahrazad_once(), random.Random(1)),
            NetBot(bob, heuristic_strategy, random.Random(2))]
    async with trio.open_nursery() as play:
        for bot in bots:
            play.start_soon(bot.play, main)

        await until(eve, lambda: eve.depth(main) == 1)
        sub = eve.active_room(main)
        assert sub is not None and sub != main and sub.startswith(f"{main}.")
        await until(ann, lambda: ann.active_room(main) == sub and bob.active_room(main) == sub)
        assert ann.rooms_of(main) == [main, sub]
        # The bots play on in the subgame room; the main room waits (CR 726.1a).
        acted = sum(b.record.actions for b in bots)
        await until(ann, lambda: sum(b.record.actions for b in bots) >= acted + 10)
        assert eve.view(main)["w"] == ["subgame"]
        assert all(room == sub for c in (ann, bob) for room, _ in c.decisions())

        await bob.concede(main, sub)  # Bob concedes the subgame only
        await until(eve, lambda: eve.active_room(main) == main)
        await until(ann, lambda: ann.active_room(main) == main)
        assert eve.room(sub).closed  # type: ignore[union-attr]
        assert ann.rooms_of(main) == [main]
        acted = sum(b.record.actions for b in bots)
        await until(ann, lambda: sum(b.record.actions for b in bots) >= acted + 10)
        assert all(room == main for c in (ann, bob) for room, _ in c.decisions())
        if not bob.match_over(main):
            await bob.concede(main)
    await settle()
    for c in (ann, bob, eve):
        assert assert_replica_matches(server, c) == 1
    assert all(c.match_over(main) for c in (ann, bob, eve))
    got = []
    while True:
        try:
            got.append(seen.receive_nowait())
        except trio.WouldBlock:
            break
    kinds = [type(e) for e in got if isinstance(e, (events.SubgameOpened, events.Paused,
                                                   events.SubgameClosed, events.Resumed))]
    assert kinds == [events.SubgameOpened, events.Paused, events.SubgameClosed,
                     events.Resumed]
    opened = next(e for e in got if isinstance(e, events.SubgameOpened))
    assert (opened.room, opened.parent, opened.depth, opened.players) == (sub, main, 1, [0, 1])
    closed = next(e for e in got if isinstance(e, events.SubgameClosed))
    assert closed.room == sub and closed.result["winners"] == [0]
    assert any(isinstance(e, events.Snapshot) and e.room == sub for e in got)
    [result] = [e for e in got if isinstance(e, events.Result)]
    assert result.room == main and result.over and result.result["winners"]
    assert all(b.record.errors == 0 for b in bots), [b.record for b in bots]
    assert sum(c.stats.desyncs for c in (ann, bob, eve)) == 0
