"""Planechase, Vanguard and Archenemy rooms over real websockets: the room chooses the variant and
its options, each player's ready-made deck brings the parts the game uses, every viewer sees the
face-up plane, the schemes in motion and the vanguards (and only the sizes of planar and scheme
decks), views converge and no frame carries a hidden card. Deck submissions are checked against
the room's format, each violation with its line and its rule."""

from __future__ import annotations

import random

import trio

from arbiter.bots.strategies import random_strategy

from .checks import assert_converged, assert_secret
from .harness import Client, create_room, play, settle, start_server


def _command_zone(view: dict[object, dict[str, object]]) -> list[str]:
    return sorted(str(o["n"]) for k, o in view.items() if isinstance(k, int) and o["z"] == "c")


async def test_an_archenemy_room_with_planechase_and_vanguard(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    names = ["Ann", "Bob", "Cid"]
    players = {i: await Client.open(nursery, server, n) for i, n in enumerate(names)}
    watcher = await Client.open(nursery, server, "Eve")
    room = await create_room(players[0], {
        "variant": "archenemy", "planechase": True, "vanguard": True, "format": "constructed",
        "seats": [{"archenemy": True}, {}, {}], "seed": 7})
    await watcher.ok({"t": "spectate", "r": room})
    decks = ["gruul-stompy", "azorius-skies", "boros-lifecycle"]
    for i, c in players.items():
        assert await c.join(room, deck=decks[i]) == i
    await settle()
    view = watcher.tracker.rooms[room].view
    assert view["g"]["variant"] == "archenemy" and view["g"]["archenemy"] == 0
    assert view["g"]["options"] == ["planechase", "vanguard"]
    assert view["p0"]["l"] == 40 + 7  # the archenemy's 40, Tahngarth's +7
    assert view["p0"]["sd"] == 20 and all(view[f"p{p}"]["pd"] >= 9 for p in range(3))
    seen: set[str] = set()

    async def before(n: int) -> None:
        if n and n % 100 == 0:
            assert assert_converged(server, [*players.values(), watcher]) == 4
        v = watcher.tracker.rooms[room].view
        seen.update(_command_zone(v))

    n = await play(players, strategy=random_strategy, rng=random.Random(3), before=before,
                   max_actions=600)
    await settle()
    # Everyone saw the vanguards, a plane and a scheme in the command zone.
    assert {"Tahngarth", "Serra", "Maraxus"} <= seen
    assert seen & {"Krosa", "Goldmeadow", "Lethe Lake", "Panopticon", "Sanctum of Serra",
                   "Fields of Summer", "The Hippodrome", "Astral Arena"}
    assert seen & {"Look Skyward and Despair", "The Iron Guardian Stirs",
                   "Know Naught but Fire", "The Fate of the Flammable",
                   "Your Puny Minds Cannot Fathom", "Realms Befitting My Majesty",
                   "The Very Soil Shall Shake", "Behold the Power of Destruction"}
    assert assert_converged(server, [*players.values(), watcher]) == 4
    oracle, scanned = assert_secret(server, room, players, [watcher])
    assert scanned > n
    table = server.hub.matches[room].table
    assert table is not None and oracle.table.state_hash() == table.state_hash()
    # The planar and scheme decks' cards were hidden from everyone all along.
    hidden = {o.oid for g in oracle.table.games for o in g.objects.values()
              if o.zone in ("planar_deck", "scheme_deck")}
    assert hidden and hidden <= oracle.hidden[-1]


async def test_planechase_as_a_variant_name_and_deck_errors_with_lines(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    ann = await Client.open(nursery, server, "Ann")
    room = await create_room(ann, {"variant": "planechase", "seats": 3,
                                   "format": "constructed"})
    reply = await ann.ok({"t": "join", "r": room})
    assert reply["seat"] == 0
    # A deck that breaks the format twice and has no planar deck: every problem, each with
    # its line and its rule, and the seat stays without a deck.
    text = "5 Lightning Bolt\n50 Mountain\nSideboard\n16 Forest\n"
    err = await ann.call({"t": "deck", "r": room, "text": text})
    assert err["t"] == "error" and err["code"] == "bad_deck"
    assert "line 1 ('5 Lightning Bolt')" in err["msg"] and "CR 100.2a" in err["msg"]
    assert "line 4 ('16 Forest'): the sideboard has 16 cards" in err["msg"]
    assert "CR 100.4a" in err["msg"] and "CR 901.3" in err["msg"]
    assert server.hub.matches[room].seats[0].deck is None
    # A ready-made casual deck is not a constructed deck.
    err = await ann.call({"t": "deck", "r": room, "ready": "quick-red"})
    assert err["code"] == "bad_deck" and "at least 60 (CR 100.2a)" in err["msg"]
    assert (await ann.ok({"t": "deck", "r": room, "ready": "dimir-control"}))["t"] == "ok"
    match = server.hub.matches[room]
    assert match.settings.variant == "free_for_all" and match.settings.planechase
    # Formats must fit the variant.
    err = await ann.call({"t": "create", "config": {"variant": "commander",
                                                     "format": "constructed"}})
    assert err["code"] == "bad_config" and "commander format" in err["msg"]
