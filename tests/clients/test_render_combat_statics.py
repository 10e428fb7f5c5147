"""What the terminal client writes for M10's one-blocker-several-attackers (Palace Guard, CR
509.1a: a view's "bx") and a card name chosen as a permanent entered (Pithing Needle: "nm")."""

from __future__ import annotations

from arbiter.clients.tui import render


def test_509_1a_a_creature_blocking_several_and_a_chosen_name_are_shown() -> None:
    objs = {20: {"n": "Grizzly Bears"}, 21: {"n": "Raging Goblin"}}
    guard = {"n": "Palace Guard", "z": "b", "o": 0, "i": 1, "pt": [1, 4], "bl": 20, "bx": [21]}
    assert "blocking Grizzly Bears, Raging Goblin" in render.card_text(guard, objs)
    needle = {"n": "Pithing Needle", "z": "b", "o": 0, "i": 2, "nm": "Prodigal Pyromancer"}
    assert render.card_text(needle) == "Pithing Needle (named Prodigal Pyromancer)"
