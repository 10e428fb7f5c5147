"""What the terminal client writes for the view keys Magic 2010 added (docs/protocol.md,
section 8): divided damage (CR 601.2d), one creature blocking several (509.1a), a chosen card
name (614.12b) and land type (305.6), loyalty (306.5c), Auras with their hosts (303.4), a hand
revealed by Telepathy and a library's top card kept revealed; and the menu of a long list of
card names, searched instead of listed whole."""

from __future__ import annotations

from arbiter.clients.tui import render
from arbiter.protocol import view_keys

NAMES = {0: "Ann", 1: "Bob"}
VIEW = {
    "g": {"n": 1, "depth": 0, "parent": None, "variant": "two_player", "seats": [0, 1]},
    "t": [5, 1, "declare_blockers", 0],
    "p0": {"l": 20, "h": 1, "y": 30, "s": "in"}, "p1": {"l": 20, "h": 2, "y": 29, "s": "in"},
    10: {"n": "Ignite Disorder", "z": "s", "o": 0, "i": 1, "tg": [["o", 11], ["o", 12]],
         "dv": [2, 1]},
    11: {"n": "Grizzly Bears", "z": "b", "o": 1, "i": 1, "pt": [2, 2], "at": ["p", 0]},
    12: {"n": "Hill Giant", "z": "b", "o": 1, "i": 2, "pt": [3, 3], "at": ["p", 0]},
    13: {"n": "Palace Guard", "z": "b", "o": 0, "i": 1, "pt": [1, 4], "bl": 11, "bx": [12]},
    14: {"n": "Pithing Needle", "z": "b", "o": 0, "i": 2, "nm": "Jace Beleren"},
    15: {"n": "Mountain", "z": "b", "o": 1, "i": 3},
    16: {"n": "Convincing Mirage", "z": "b", "o": 0, "i": 3, "a": 15, "c": 0, "ch": "Island"},
    17: {"n": "Jace Beleren", "z": "b", "o": 1, "i": 4, "k": {"loyalty": 4}},
    18: {"n": "Pacifism", "z": "b", "o": 1, "i": 5, "a": 12},
    19: {"n": "Lightning Bolt", "z": "h", "o": 1, "i": 1},  # revealed by Ann's Telepathy
    20: {"n": "Shock", "z": "l", "o": 1, "i": 1},  # the top of Bob's library, kept revealed
    21: {"n": "Duress", "z": "h", "o": 0, "i": 1},
}


def test_601_2d_509_1a_divided_damage_and_a_creature_blocking_several() -> None:
    zones = render.zones_text(VIEW, NAMES, 0).plain
    assert "Stack: Ignite Disorder (targets Grizzly Bears (2), Hill Giant (1))" in zones
    assert "Palace Guard 1/4 (blocking Grizzly Bears, Hill Giant)" in zones
    assert view_keys.blocked_attackers(VIEW[13]) == (11, 12)
    assert view_keys.divided_damage(VIEW[10]) == (2, 1)


def test_614_12b_305_6_306_5c_a_chosen_name_a_chosen_land_type_and_loyalty() -> None:
    zones = render.zones_text(VIEW, NAMES, 0).plain
    assert "Pithing Needle (named Jace Beleren)" in zones
    assert "Convincing Mirage (chosen: Island, attached to Mountain)" in zones
    assert "Jace Beleren [loyalty 4]" in zones and "4 loyalty" not in zones
    assert view_keys.chosen_name(VIEW[14]) == "Jace Beleren"
    assert view_keys.chosen_land_type(VIEW[16]) == "Island"
    assert view_keys.loyalty(VIEW[17]) == 4


def test_303_4_an_aura_reads_with_its_host() -> None:
    zones = render.zones_text(VIEW, NAMES, 0).plain
    bob = zones.split("\nBob\n")[1]
    assert "Hill Giant 3/3 (attacking Ann) + Pacifism" in bob
    assert "; Pacifism" not in bob


def test_a_revealed_hand_and_library_top_are_in_their_owners_area() -> None:
    zones = render.zones_text(VIEW, NAMES, 0).plain
    ann, bob = zones.split("\nBob\n")
    assert "Hand, revealed (1): Lightning Bolt" in bob
    assert "Library top (revealed): Shock" in bob
    assert "Duress" not in ann, "my own hand is in the hand panel"
    assert "Hand, revealed (1): Duress" in render.zones_text(VIEW, NAMES, None).plain
    assert render.hand_text(VIEW, 0).plain == "Your hand (1): Duress"


def test_a_long_list_of_names_is_searched_and_short_lists_are_whole() -> None:
    labels = ["Jace Beleren", "Ajani Goldmane", *(f"Card {i}" for i in range(298))]
    decision = {"kind": "name", "actions": [
        {"id": i, "kind": "name", "label": label} for i, label in enumerate(labels)]}
    assert render.list_kind(decision) == "name"
    assert [a["label"] for a in render.menu_actions(decision, "jace")] == ["Jace Beleren"]
    assert [a["label"] for a in render.menu_actions(decision, "GOLD aj")] == ["Ajani Goldmane"]
    assert len(render.menu_actions(decision)) == render.SHOWN
    exiled = {"kind": "choose_exiled", "actions": [{"id": 0, "kind": "done", "label": "Done"},
              *({"id": i + 1, "kind": "choose_card", "label": f"Exiled {i}"} for i in range(20))]}
    assert [a["kind"] for a in render.menu_actions(exiled, "zzz")] == ["done"]
    short = {"kind": "land_type", "actions": [{"id": 0, "kind": "land_type", "label": "Plains"}]}
    assert render.list_kind(short) is None and render.menu_actions(short, "x") == short["actions"]
    priority = {"kind": "priority", "actions": [
        {"id": i, "kind": "mana", "label": f"Tap land {i}"} for i in range(30)]}
    assert render.list_kind(priority) is None
