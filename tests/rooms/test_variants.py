"""Variant rooms in the core: an Archenemy room with Planechase and Vanguard survives a server
restart (its seats' decks keep their planar and scheme decks and vanguards for the match's next
game), and the catalog describes the variants, the options and the ready-made decks' formats as
the engine has them."""

from __future__ import annotations

from pathlib import Path

from arbiter.protocol.server_messages import Catalog, encode
from arbiter.server.rooms.setup import deck_from_wire, deck_to_wire
from arbiter.server.rules.cards.decks import READY_MADE, ready_made
from arbiter.server.rules.cards.formats import READY_FORMATS
from arbiter.server.store.db import Store

from .sim import Sim, restart

CONFIG = {"variant": "archenemy", "planechase": True, "vanguard": True, "best_of": 3,
          "seats": [{"archenemy": True}, {}, {}], "seed": 5}


def test_a_variant_room_is_rebuilt_from_its_records(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(store=store)
    players, room = first.table(CONFIG, names=("Ann", "Bob", "Cid"),
                                decks=("quick-red", "quick-green", "quick-infect"))
    first.play(dict(enumerate(players)), max_actions=80)
    before = first.match(room).table.state_hash()
    second, [line] = restart(store, grace=30)
    assert before in line
    match = second.match(room)
    assert match.table.state_hash() == before
    # The seats' decks come back whole: the next game of the match needs their parts.
    for seat, name in zip(match.seats, ("quick-red", "quick-green", "quick-infect"),
                          strict=True):
        assert seat.deck == ready_made(name)
        assert (seat.deck.planar, seat.deck.schemes, seat.deck.vanguard) == (
            ready_made(name).planar, ready_made(name).schemes, ready_made(name).vanguard)


def test_decks_keep_their_supplementary_parts_on_the_wire() -> None:
    for deck in READY_MADE.values():
        again = deck_from_wire(deck_to_wire(deck))
        assert again == deck and again.planar == deck.planar
        assert again.schemes == deck.schemes and again.vanguard == deck.vanguard
    # Records written before the parts existed read as decks without them.
    old = {"main": ["Forest"], "side": [], "commander": None}
    assert deck_from_wire(old).planar == () and deck_from_wire(old).vanguard is None


def test_the_catalog_offers_archenemy_the_options_and_the_decks_formats() -> None:
    sim = Sim()
    ann = sim.connect("Ann")
    catalog = ann.ok({"t": "catalog"})
    variants = {v["name"]: v for v in catalog["variants"]}
    assert variants["archenemy"]["archenemy"] is True
    assert all({"format", "planechase", "vanguard"} <= set(v["options"])
               for name, v in variants.items() if name not in ("two_headed_giant",
                                                              "grand_melee"))
    assert "planechase" not in variants["grand_melee"]["options"]  # CR 901.14
    assert variants["two_headed_giant"]["options"] == ["format"]  # CR 901.12: not played
    assert {d["name"]: d["format"] for d in catalog["decks"]} == READY_FORMATS
    assert all(d["planar"] == 10 and d["schemes"] == 20 and d["vanguard"]
               for d in catalog["decks"])
    urza = catalog["cards"]["Urza"]
    assert (urza["types"], urza["hand"], urza["life"]) == ("Vanguard", -1, 10)
    assert catalog["cards"]["Krosa"]["types"] == "Plane \u2014 Dominaria"
    assert catalog["cards"]["Nothing Can Stop Me Now"]["types"] == "Ongoing Scheme"


def test_a_deck_fixed_by_the_rooms_creator_is_checked_by_its_lines() -> None:
    sim = Sim()
    ann = sim.connect("Ann")
    text = "30 Forest\nPlanar deck\nKrosa\n20 Mountain\n"
    err = ann.call({"t": "create", "config": {"planechase": True, "format": "constructed",
                                              "seats": [{"deck": {"text": text}}, {}]}})
    assert err["t"] == "error" and err["code"] == "bad_deck"
    assert err["msg"] == (
        "the deck is not legal (constructed): the deck has 30 cards; a constructed deck has "
        "at least 60 (CR 100.2a); line 4 ('20 Mountain'): Mountain is a traditional card: it "
        "belongs in the deck or the sideboard, not in the planar deck (CR 901.3); line 4 ('20 "
        "Mountain'): more than one card named Mountain; each card in a planar deck has a "
        "different name (CR 901.3)")


def test_every_catalog_reply_is_the_catalog_with_its_own_request_id() -> None:
    sim = Sim()
    ann, bob = sim.connect("Ann"), sim.connect("Bob")
    first = ann.ok({"t": "catalog", "i": 7})
    second = bob.ok({"t": "catalog", "i": 8})
    whole = encode(Catalog(7, **sim.hub._catalog()))
    assert first == whole and first["i"] == 7
    assert second == {**whole, "i": 8}
