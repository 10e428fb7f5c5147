"""A Two-Headed Giant room (CR 810) over real websockets: four players in two teams and a
spectator play it to its end. Every view shows the teams, what they share and one life total
per team; teammates see each other's hands and nobody else does; views converge and no frame
carries a hidden card. And the room settings that choose the variant."""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio

from arbiter.bots.strategies import heuristic_strategy
from arbiter.protocol import Refusal
from arbiter.server.rooms.setup import parse_settings
from arbiter.server.rules.cards.decks import DeckList, ready_made

from .checks import assert_converged, assert_secret
from .harness import Client, create_room, play, settle, start_server

TEAMS = [[0, 1], [2, 3]]


def _hand_owners(view: dict[Any, Any]) -> set[int]:
    return {int(o["o"]) for k, o in view.items() if isinstance(k, int) and o.get("z") == "h"}


async def test_a_two_headed_giant_room_played_to_the_end(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    names = ["Ann", "Bob", "Cid", "Dee"]
    decks = ["quick-red", "quick-green", "quick-infect", "quick-red"]
    players = {i: await Client.open(nursery, server, n) for i, n in enumerate(names)}
    watcher = await Client.open(nursery, server, "Eve")
    room = await create_room(players[0], {"variant": "two_headed_giant", "seed": 13,
                                          "name": "Giants"})
    assert (await watcher.ok({"t": "spectate", "r": room}))["seat"] is None
    for i, c in players.items():
        assert await c.join(room, deck=decks[i]) == i
    await settle()
    everyone = [*players.values(), watcher]
    for c in everyone:
        g = c.tracker.rooms[room].view["g"]
        assert (g["variant"], g["teams"], g["shared"]) == ("two_headed_giant", TEAMS,
                                                           ["turns", "life"])

    seen_teammate_hand = [False]

    async def before(n: int) -> None:
        for seat, c in players.items():
            view = c.tracker.rooms[room].view
            assert view["p0"]["l"] == view["p1"]["l"] and view["p2"]["l"] == view["p3"]["l"]
            mate = seat ^ 1
            owners = _hand_owners(view)
            assert owners <= {seat, mate}, (seat, owners)  # CR 810.5
            seen_teammate_hand[0] |= mate in owners
        assert not _hand_owners(watcher.tracker.rooms[room].view)
        if n and n % 200 == 0:
            assert assert_converged(server, everyone) == 5

    n = await play(players, strategy=heuristic_strategy, rng=random.Random(3), before=before)
    assert n > 100 and seen_teammate_hand[0]
    await settle()

    for c in everyone:
        [result] = c.of_type("result")
        outcomes = {o["player"]: o["outcome"] for o in result["res"]["outcomes"]}
        assert outcomes[0] == outcomes[1] and outcomes[2] == outcomes[3]  # CR 810.8a
        assert result["res"]["winners"] in ([], [0, 1], [2, 3])
    for seat, c in players.items():
        assert c.decisions() and all(d["player"] == seat for d in c.decisions())
    assert not watcher.decisions()

    assert assert_converged(server, everyone) == 5
    oracle, scanned = assert_secret(server, room, players, [watcher])
    table = server.hub.matches[room].table
    assert table is not None and oracle.table.state_hash() == table.state_hash()
    assert scanned > 5 * n * 0.5


# --------------------------------------------------------------------------- settings


def test_a_room_chooses_two_headed_giant_with_teams_of_two() -> None:
    s = parse_settings({"variant": "two_headed_giant"}, default_name="R")
    assert [seat.team for seat in s.seats] == [0, 0, 1, 1]  # the default: four seats, paired
    s = parse_settings({"variant": "two_headed_giant", "seats": 6}, default_name="R")
    assert [seat.team for seat in s.seats] == [0, 0, 0, 1, 1, 1]  # CR 810.11
    explicit = [{"team": t} for t in (1, 1, 0, 0)]
    s = parse_settings({"variant": "two_headed_giant", "seats": explicit}, default_name="R")
    assert [seat.team for seat in s.seats] == [1, 1, 0, 0]
    config = s.game_config(["A", "B", "C", "D"], [ready_made("quick-red")] * 4)
    assert config.giant and config.team_turns and config.starting_life(0) == 30


@pytest.mark.parametrize(("raw", "why"), [
    ({"variant": "two_headed_giant", "seats": 3}, "810.1"),
    ({"variant": "two_headed_giant", "seats": [{"team": t} for t in (0, 1, 0, 1)]},
     "sit together"),
    ({"variant": "two_headed_giant", "attack": "left"}, "805.10"),
    ({"variant": "free_for_all", "seats": 4, "shared_team_turns": True}, "Team vs. Team"),
    ({"variant": "team_vs_team", "seats": [{"team": 0}, {"team": 1}, {"team": 1}],
      "shared_team_turns": 1}, "true or false"),
])
def test_settings_the_engine_refuses(raw: dict[str, Any], why: str) -> None:
    with pytest.raises(Refusal) as info:
        parse_settings(raw, default_name="R")
    assert info.value.code.value == "bad_config" and why in info.value.message


def test_team_vs_team_may_share_turns() -> None:
    seats = [{"team": 0}, {"team": 1}, {"team": 1}]
    s = parse_settings({"variant": "team_vs_team", "seats": seats, "shared_team_turns": True},
                       default_name="R")
    decks: list[DeckList] = [ready_made("quick-red")] * 3
    config = s.game_config(["A", "B", "C"], decks)
    assert config.team_turns and not config.giant
