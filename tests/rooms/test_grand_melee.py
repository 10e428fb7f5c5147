"""Grand Melee (CR 807) in the room core: the catalog offers it as parse_settings accepts it,
a room of ten server-run bots plays it with a spectator watching every turn marker, and a
server restart rebuilds the room mid-game from its log (the replay checks every recorded state
hash) and the bots play it on to the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbiter.protocol.errors import Refusal
from arbiter.server.rooms.context import HubSettings
from arbiter.server.rooms.setup import MAX_MELEE_SEATS, parse_settings, variants
from arbiter.server.store.db import Store

from .sim import Sim, assert_converged, restart


def test_807_1_the_catalog_offers_grand_melee_with_the_seats_a_room_accepts() -> None:
    [entry] = [v for v in variants() if v["name"] == "grand_melee"]
    assert entry == {"name": "grand_melee", "seats": [4, MAX_MELEE_SEATS], "teams": False,
                     "options": ["format", "vanguard"]}  # not Planechase: 901.14
    fewest, most = entry["seats"]
    for seats in (fewest, most):
        assert len(parse_settings({"variant": "grand_melee", "seats": seats},
                                  default_name="R").seats) == seats
    for seats in (fewest - 1, most + 1):
        with pytest.raises(Refusal):
            parse_settings({"variant": "grand_melee", "seats": seats}, default_name="R")


@pytest.mark.parametrize("option", [{"shared_team_turns": True}, {"attack": "multiple"},
                                    {"range_of_influence": 2}, {"deploy_creatures": True},
                                    {"planechase": True}])
def test_807_2_a_grand_melee_room_offers_no_options(option: dict[str, Any]) -> None:
    """The catalog lists no multiplayer options for Grand Melee (CR 807.2), and the room
    refuses each one: shared team turns too, since the option is for games between teams
    (CR 805.1), and Planechase, whose Grand Melee rules (901.14) the engine doesn't play."""
    with pytest.raises(Refusal) as err:
        parse_settings({"variant": "grand_melee", "seats": 10, **option}, default_name="R")
    assert err.value.code == "bad_config"


def _restart(store: Store, **settings: float) -> Sim:
    sim, lines = restart(store, **settings)
    assert all(" resumed: " in line for line in lines), lines
    return sim


def _turns(view: dict[Any, Any]) -> int:
    return sum(1 for m in view.get("m") or [] if m["s"] == "turn")


def test_807_a_room_of_bots_plays_grand_melee_and_survives_a_restart(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(HubSettings(allow_scenarios=True, bot_think=0.1), store=store)
    host = first.connect("Host")
    room = host.ok({"t": "create", "config": {"variant": "grand_melee", "seats": 10,
                                              "seed": 8}})["r"]
    host.ok({"t": "spectate", "r": room})
    for _ in range(10):
        host.ok({"t": "bot", "r": room, "strategy": "random"})
    assert first.match(room).state == "playing"
    both = 0
    while first.hub.stats.actions_total < 400:
        first.advance(0.1)
        view = host.view(room)
        both += _turns(view) == 2
        w = view.get("w")
        if view.get("m") and w:  # every decision names the stack it is for (CR 807.5)
            assert len(w) == 3 and w[2] in {m["n"] for m in view["m"]}
    assert both > 50, "two turns ran at once for a good part of the game (CR 807.4b)"
    assert assert_converged(first, [host]) == 1
    table = first.match(room).table
    before, markers = table.state_hash(), table.main.melee.view()

    second = _restart(store, bot_think=0.1)
    match = second.match(room)
    assert match.table.state_hash() == before
    assert match.table.main.melee.view() == markers
    watcher = second.connect("Watcher")
    watcher.ok({"t": "spectate", "r": room})
    assert watcher.view(room)["m"] == host.view(room)["m"]
    for _ in range(2000):
        if match.state == "finished":
            break
        second.advance(60)
    assert match.state == "finished", "the bots finish (or agree to a draw)"
    [result] = watcher.of_type("result")
    assert {o["player"] for o in result["res"]["outcomes"]} == set(range(10))


def test_a_grand_melee_room_with_vanguards_starts_each_player_at_their_vanguard_s_life() -> None:
    """Vanguard (CR 902.4) combines with Grand Melee: the room takes the option, and each
    player's starting life is 20 plus their vanguard's modifier."""
    sim = Sim()
    players, room = sim.table({"variant": "grand_melee", "seats": 4, "vanguard": True,
                               "seed": 3}, ("Ann", "Bob", "Cid", "Dee"))
    table = sim.match(room).table
    assert table is not None and table.config.vanguard
    for pid in range(4):
        assert table.main.players[pid].life == table.config.starting_life(pid)
    assert any(table.config.starting_life(pid) != 20 for pid in range(4))
    assert assert_converged(sim, players) == 4
