"""The loop watch's record of a state (flow.fingerprint, CR 104.4b): the game's state with
object ids left out, compared by value, so a state the game comes back to is recognised
whatever ids its objects got on the way, and two states that differ are never taken for one."""

from __future__ import annotations

from arbiter.server.rules.flow import fingerprint
from arbiter.server.rules.state import BATTLEFIELD, HAND

from .helpers import Scene


def test_104_4b_tokens_and_cards_on_one_battlefield_give_a_fingerprint() -> None:
    # A token is named by its name, a card by its card id: both sort in one zone.
    g = (Scene().battlefield(0, *["Forest"] * 5, "Mountain", "Mountain")
         .hand(0, "Howl of the Night Pack").start())
    g.cast(0, "Howl of the Night Pack").resolve()
    assert g.objs("Wolf Token", BATTLEFIELD)
    assert fingerprint(g.game) == fingerprint(g.game)


def test_104_4b_the_same_state_under_new_object_ids_has_the_same_fingerprint() -> None:
    g = Scene().battlefield(0, "Grizzly Bears").hand(0, "Mountain").start()
    game = g.game
    before = fingerprint(game)
    card = g.objs("Mountain", HAND)[0]
    back = game.move(game.move(card, "exile"), HAND)  # two new ids (CR 400.7), same state
    assert back is not None and back.oid != card.oid
    assert fingerprint(game) == before


def test_104_4b_a_tapped_permanent_is_a_different_state() -> None:
    g = Scene().battlefield(0, "Grizzly Bears").start()
    game = g.game
    before = fingerprint(game)
    game.set_tapped(g.objs("Grizzly Bears", BATTLEFIELD)[0], True)
    assert fingerprint(game) != before
