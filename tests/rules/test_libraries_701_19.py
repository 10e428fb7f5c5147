"""Searching (CR 701.19), shuffling (701.20), ordering cards put into a library together
(401.4) and revealing (701.16a, 400.2), rule by rule, with the cards of Magic 2010."""

from __future__ import annotations

from arbiter.server.rules.view import SPECTATOR

from .helpers import G, Scene


def _library(g: G, pid: int) -> list[str]:
    return list(reversed(g.zone_names("library", pid)))


def test_701_19b_a_search_for_a_card_with_a_quality_may_find_nothing() -> None:
    g = (Scene().battlefield(0, "Forest", "Wastes").hand(0, "Rampant Growth")
         .library(0, "Island", "Grizzly Bears").start())
    g.cast(0, "Rampant Growth").resolve()
    assert g.labels() == ["Find nothing", "Put Island onto the battlefield"]
    g.choose("choose_none")
    assert not g.objs("Island", "battlefield")
    assert sorted(_library(g, 0)) == ["Grizzly Bears", "Island"]


def test_701_19d_a_search_for_just_a_card_must_find_one() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Wastes", "Wastes").hand(0, "Diabolic Tutor")
         .library(0, "Wastes", "Wastes").start())
    g.cast(0, "Diabolic Tutor").resolve()
    assert g.labels() == ["Put Wastes into your hand"]  # one name, and no "Find nothing"
    g.choose("choose_card")
    assert g.zone_names("hand", 0) == ["Wastes"]


def test_701_19d_a_search_of_an_empty_library_finds_nothing_and_asks_nothing() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Wastes", "Wastes").hand(0, "Diabolic Tutor")
         .library(0, "Wastes").start())
    g.game.library(0).clear()
    g.cast(0, "Diabolic Tutor").resolve()
    assert g.decision.kind == "priority" and g.zone_names("graveyard", 0) == ["Diabolic Tutor"]


def test_701_19e_a_found_card_is_revealed_only_when_the_effect_says_so() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Wastes", "Wastes", "Island", "Wastes",
                             "Wastes")
         .hand(0, "Diabolic Tutor", "Fabricate").library(0, "Ornithopter", "Coat of Arms")
         .start())
    g.cast(0, "Diabolic Tutor").resolve().choose("choose_card", "Coat of Arms")
    hidden = g.obj("Coat of Arms", "hand")
    assert hidden.oid not in g.view(1) and hidden.oid in g.view(0)
    assert not [e for e in g.events if e.kind == "reveal"]
    g.cast(0, "Fabricate").resolve().choose("choose_card", "Ornithopter")
    assert [e.data["cards"] for e in g.events if e.kind == "reveal"] == [["Ornithopter"]]


def test_701_20a_a_shuffle_randomises_the_whole_library() -> None:
    library = tuple(f"{n}" for n in ("Grizzly Bears", "Ornithopter", "Lightning Bolt",
                                     "Wastes")) * 5
    orders = set()
    for seed in range(4):
        g = (Scene().battlefield(0, "Forest", "Wastes").hand(0, "Rampant Growth")
             .library(0, *library).start(seed))
        g.cast(0, "Rampant Growth").resolve().choose("choose_none")
        assert sorted(_library(g, 0)) == sorted(library)  # the same cards
        orders.add(tuple(_library(g, 0)))
    assert len(orders) > 1 and tuple(library) not in orders


def test_701_20b_a_card_found_then_put_on_top_is_not_part_of_the_shuffle() -> None:
    """Liliana Vess's -2: "Search your library for a card, then shuffle and put that card on
    top" (a search for just "a card": no "Find nothing", CR 701.19d)."""
    library = ("Wastes", "Grizzly Bears", "Wastes", "Ornithopter", "Wastes", "Wastes")
    g = Scene().battlefield(0, "Liliana Vess").library(0, *library).start()
    g.activate(0, "Liliana Vess", "\u22122").resolve()
    assert g.labels() == ["Put Grizzly Bears on top of the library",
                          "Put Ornithopter on top of the library",
                          "Put Wastes on top of the library"]
    g.choose("choose_card", "Ornithopter")
    assert _library(g, 0)[0] == "Ornithopter" and sorted(_library(g, 0)) == sorted(library)
    assert g.obj("Ornithopter", "library").oid not in g.view(1)  # on top, still hidden


def test_401_4_cards_put_back_together_are_ordered_by_their_owner_and_nobody_else_sees() -> None:
    g = (Scene().battlefield(0, "Island").hand(0, "Ponder")
         .library(0, "Grizzly Bears", "Ornithopter", "Lightning Bolt", "Wastes").start())
    g.cast(0, "Ponder").resolve()
    assert g.decision.player == 0
    shown_to_one = g.view(1)
    assert not any(isinstance(v, dict) and v.get("z") == "l" for v in shown_to_one.values())
    g.choose("choose_card", "Lightning Bolt").choose("choose_card", "Grizzly Bears")
    assert _library(g, 0)[:3] == ["Lightning Bolt", "Grizzly Bears", "Ornithopter"]


def test_401_4_identical_cards_need_no_order() -> None:
    g = (Scene().battlefield(0, "Island").hand(0, "Ponder")
         .library(0, "Wastes", "Wastes", "Wastes", "Grizzly Bears").start())
    g.cast(0, "Ponder").resolve()
    assert g.decision.kind == "may"  # nothing to order: straight to "you may shuffle"


def test_701_16a_a_revealed_hand_is_shown_to_every_player() -> None:
    g = (Scene(3).battlefield(0, "Swamp").hand(0, "Duress")
         .hand(1, "Lightning Bolt", "Grizzly Bears").start())
    g.cast(0, "Duress", 1).resolve()
    reveal = next(e for e in g.events if e.kind == "reveal")
    assert reveal.data["player"] == 1 and reveal.data["cards"] == ["Lightning Bolt",
                                                                   "Grizzly Bears"]
    assert "Lightning Bolt" in reveal.text  # the log line every player reads
    g.choose("choose_card", "Lightning Bolt")
    assert g.zone_names("graveyard", 1) == ["Lightning Bolt"]


def test_400_2_a_hand_revealed_by_a_static_ability_is_still_a_hidden_zone() -> None:
    g = (Scene().battlefield(0, "Telepathy").hand(1, "Lightning Bolt", "Grizzly Bears")
         .start())
    bolt = g.obj("Lightning Bolt", "hand")
    for viewer in (0, SPECTATOR):
        entry = g.view(viewer)[bolt.oid]
        assert entry["z"] == "h" and entry["o"] == 1
    assert g.view(0)["p1"]["h"] == 2  # the hand is counted as before
    # The library stays hidden: only hands are revealed.
    assert all(o.oid not in g.view(0) for o in g.game.library(1))


def test_701_16a_cards_revealed_until_a_creature_are_shown_then_shuffled_back() -> None:
    g = (Scene().battlefield(0, "Island", "Wastes", "Wastes", "Wastes").hand(0, "Polymorph")
         .battlefield(1, "Hill Giant")
         .library(1, "Wastes", "Lightning Bolt", "Grizzly Bears", "Ornithopter").start())
    g.cast(0, "Polymorph", "Hill Giant").resolve()
    assert [e.data["cards"] for e in g.events if e.kind == "reveal"] == [
        ["Wastes", "Lightning Bolt", "Grizzly Bears"]]
    assert g.obj("Grizzly Bears").controller == 1
    assert sorted(_library(g, 1)) == ["Lightning Bolt", "Ornithopter", "Wastes"]


def test_701_20d_a_library_is_shuffled_even_when_no_creature_was_revealed() -> None:
    library = ("Wastes", "Lightning Bolt") * 6
    orders = set()
    for seed in range(3):
        g = (Scene().battlefield(0, "Island", "Wastes", "Wastes", "Wastes").hand(0, "Polymorph")
             .battlefield(1, "Hill Giant").library(1, *library).start(seed))
        g.cast(0, "Polymorph", "Hill Giant").resolve()
        assert [len(e.data["cards"]) for e in g.events if e.kind == "reveal"] == [12]
        orders.add(tuple(_library(g, 1)))
    assert len(orders) > 1
