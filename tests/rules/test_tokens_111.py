"""Tokens (CR 111), made by M10's cards: created by effects rather than cards, owned by their
creator, named and typed by the effect, with the colours and abilities it gives them, and gone
once they leave the battlefield (CR 704.5d)."""

from __future__ import annotations

from arbiter.server.rules.characteristics import colors, subtypes
from arbiter.server.rules.state import BATTLEFIELD, Obj

from .helpers import G, Scene


def _wolves(g: G) -> list[Obj]:
    return g.objs("Wolf Token", BATTLEFIELD)


def _howl() -> G:
    g = (Scene().battlefield(0, *["Forest"] * 5, "Mountain", "Mountain")
         .hand(0, "Howl of the Night Pack").start())
    g.cast(0, "Howl of the Night Pack").resolve()
    return g


def test_111_1_a_token_is_made_by_an_effect_and_is_no_card() -> None:
    g = _howl()
    wolves = _wolves(g)
    assert len(wolves) == 5
    for w in wolves:
        assert w.defn.token and w.card is None  # not a physical card (CR 111.6)
        assert (w.owner, w.controller) == (0, 0)  # CR 111.2: its creator owns and controls it
    assert "Wolf Token" not in g.owned(0)  # not among the cards the player owns


def test_111_4_an_unnamed_token_is_named_after_its_subtypes_plus_token() -> None:
    g = _howl()
    wolf = _wolves(g)[0]
    assert wolf.name == "Wolf Token"
    assert tuple(subtypes(g.game, wolf)) == ("Wolf",) and wolf.defn.is_("Creature")
    assert g.view(1)[wolf.oid]["n"] == "Wolf Token"


def test_111_3_the_creating_effect_sets_the_tokens_colour() -> None:
    g = (Scene().battlefield(0, "Honor of the Pure", *["Plains"] * 6)
         .hand(0, "Captain of the Watch").start())
    g.cast(0, "Captain of the Watch").resolve()
    g.resolve()  # three white Soldiers: Honor of the Pure (white creatures) and the Captain
    for s in g.objs("Soldier Token", BATTLEFIELD):
        assert colors(g.game, s) == {"W"}
        assert g.view(0)[s.oid]["pt"] == [3, 3]


def test_111_3_a_token_can_have_a_characteristic_defining_ability() -> None:
    # Ajani's Avatar: "This creature's power and toughness are each equal to your life
    # total" (CR 604.3), read again whenever life changes.
    g = (Scene().battlefield(0, "Ajani Goldmane", counters={"loyalty": 7}).life(0, 9).start())
    g.activate(0, "Ajani Goldmane", "\u22126").resolve()
    avatar = g.obj("Avatar Token")
    assert g.view(0)[avatar.oid]["pt"] == [9, 9]
    g.next_turn(0)
    g.activate(0, "Ajani Goldmane", "+1").resolve()  # you gain 2 life
    assert g.view(0)[avatar.oid]["pt"] == [11, 11]


def test_704_5d_a_token_that_dies_ceases_to_exist() -> None:
    g = (Scene().battlefield(0, "Ant Queen", "Forest", "Forest")
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.activate(0, "Ant Queen").resolve()
    insect = g.obj("Insect Token")
    g.pass_()
    g.cast(1, "Lightning Bolt", insect).resolve()
    assert g.objs("Insect Token") == []  # in no zone at all
    assert insect.oid not in g.game.objects and g.zone_names("graveyard", 0) == []


def test_704_5d_a_sacrificed_token_ceases_to_exist() -> None:
    g = (Scene().battlefield(0, *["Mountain"] * 7).hand(0, "Siege-Gang Commander").start())
    g.cast(0, "Siege-Gang Commander").resolve()
    g.resolve()
    goblin = g.obj("Goblin Token")
    g.choose("activate", "Siege-Gang Commander: {1}{R}, Sacrifice a Goblin").target(1)
    g.choose("choose_card", obj=goblin.oid)
    g.resolve()
    assert goblin.oid not in g.game.objects and g.zone_names("graveyard", 0) == []
    assert len(g.objs("Goblin Token", BATTLEFIELD)) == 2 and g.life(1) == 18
