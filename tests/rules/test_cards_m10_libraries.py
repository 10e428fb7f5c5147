"""Magic 2010's library and hand cards (arbiter/server/rules/cards/sets/m10.py), each played in
a game and held to its text: searches, looking at and ordering the top of a library, reveals,
discards, and the cards that rebuild libraries. Who may see what is asserted through the
views each player gets (view.py) and the log every player reads."""

from __future__ import annotations

import random

from arbiter.bots import heuristic_strategy, random_strategy
from arbiter.server.rules.cards.catalog import cards
from arbiter.server.rules.state import Action
from arbiter.server.rules.view import SPECTATOR

from .helpers import G, Scene


def _reveals(g: G) -> list[list[str]]:
    """The cards each ``reveal`` event showed to every player, in order."""
    return [list(e.data["cards"]) for e in g.events if e.kind == "reveal" and "cards" in e.data]


def _library(g: G, pid: int) -> list[str]:
    """``pid``'s library, top card first."""
    return list(reversed(g.zone_names("library", pid)))


def _controls(g: G, pid: int) -> list[str]:
    return [o.name for o in g.game.battlefield if o.controller == pid]


def _seen_by(g: G, viewer: int, name: str) -> bool:
    return any(isinstance(v, dict) and v.get("n") == name for v in g.view(viewer).values())


# --------------------------------------------------------------------------- blue


def test_fabricate_finds_an_artifact_reveals_it_and_puts_it_into_hand() -> None:
    g = (Scene().battlefield(0, "Island", "Wastes", "Wastes").hand(0, "Fabricate")
         .library(0, "Wastes", "Ornithopter", "Coat of Arms").start())
    g.cast(0, "Fabricate").resolve()
    assert g.labels() == ["Find nothing", "Put Coat of Arms into your hand",
                          "Put Ornithopter into your hand"]
    g.choose("choose_card", "Ornithopter")
    assert g.zone_names("hand", 0) == ["Ornithopter"]
    assert _reveals(g) == [["Ornithopter"]]  # everyone saw it (CR 701.16a)
    assert sorted(_library(g, 0)) == ["Coat of Arms", "Wastes"]


def test_merfolk_looter_draws_then_discards() -> None:
    g = (Scene().battlefield(0, "Merfolk Looter").hand(0, "Lightning Bolt")
         .library(0, "Grizzly Bears", "Wastes").start())
    g.activate(0, "Merfolk Looter").resolve()
    assert g.decision.kind == "discard"
    assert sorted(g.labels()) == ["Discard Grizzly Bears", "Discard Lightning Bolt"]
    g.choose("discard", "Lightning Bolt")
    assert g.zone_names("hand", 0) == ["Grizzly Bears"]
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt"]
    assert g.obj("Merfolk Looter").tapped


def test_polymorph_destroys_past_regeneration_and_its_controller_reveals_a_creature() -> None:
    g = (Scene().battlefield(1, "Drudge Skeletons", "Swamp")
         .library(1, "Wastes", "Lightning Bolt", "Grizzly Bears", "Ornithopter")
         .battlefield(0, "Island", "Wastes", "Wastes", "Wastes").hand(0, "Polymorph").start())
    g.cast(0, "Polymorph", "Drudge Skeletons").pass_()
    g.activate(1, "Drudge Skeletons: {B}: Regenerate Drudge Skeletons.").resolve()  # a shield
    g.resolve()
    assert g.zone_names("graveyard", 1) == ["Drudge Skeletons"]  # "can't be regenerated"
    assert _reveals(g)[-1] == ["Wastes", "Lightning Bolt", "Grizzly Bears"]
    assert g.obj("Grizzly Bears").controller == 1
    assert sorted(_library(g, 1)) == ["Lightning Bolt", "Ornithopter", "Wastes"]


def test_polymorph_reveals_for_the_creatures_controller_not_its_owner() -> None:
    g = (Scene().battlefield(0, "Island", "Mountain", *("Wastes",) * 5)
         .hand(0, "Act of Treason", "Polymorph").battlefield(1, "Grizzly Bears")
         .library(0, "Wastes", "Ornithopter").library(1, "Shivan Dragon").start())
    g.cast(0, "Act of Treason", "Grizzly Bears").resolve()
    g.cast(0, "Polymorph", "Grizzly Bears").resolve()
    assert g.zone_names("graveyard", 1) == ["Grizzly Bears"]
    # Its controller as it was destroyed (last known information, CR 608.2h) reveals.
    assert g.obj("Ornithopter").controller == 0 and _library(g, 1) == ["Shivan Dragon"]


def test_ponder_orders_the_top_three_unseen_by_the_opponent_then_draws() -> None:
    g = (Scene().battlefield(0, "Island").hand(0, "Ponder")
         .library(0, "Grizzly Bears", "Lightning Bolt", "Ornithopter", "Wastes").start())
    g.cast(0, "Ponder").resolve()
    assert g.decision.kind == "order" and g.decision.player == 0
    assert g.labels() == ["Grizzly Bears next", "Lightning Bolt next", "Ornithopter next"]
    assert not any(_seen_by(g, v, "Lightning Bolt") for v in (1, SPECTATOR))
    assert not any("Lightning Bolt" in line for line in g.log)  # the log is everyone's
    g.choose("choose_card", "Ornithopter").choose("choose_card", "Lightning Bolt")
    assert _library(g, 0)[:4] == ["Ornithopter", "Lightning Bolt", "Grizzly Bears", "Wastes"]
    g.choose("no")  # don't shuffle
    assert g.zone_names("hand", 0) == ["Ornithopter"]
    assert _library(g, 0) == ["Lightning Bolt", "Grizzly Bears", "Wastes"]


def test_ponder_may_shuffle_before_drawing() -> None:
    library = ("Wastes", "Grizzly Bears", "Lightning Bolt") * 6
    g = Scene().battlefield(0, "Island").hand(0, "Ponder").library(0, *library).start()
    g.cast(0, "Ponder").resolve()
    g.choose("choose_card", "Wastes").choose("choose_card", "Grizzly Bears")
    g.choose("yes")
    assert any("shuffles their library" in line for line in g.log)
    assert len(g.zone_names("hand", 0)) == 1 and len(_library(g, 0)) == len(library) - 1


def test_sage_owl_orders_the_top_four_as_it_enters() -> None:
    g = (Scene().battlefield(0, "Island", "Wastes").hand(0, "Sage Owl")
         .library(0, "Wastes", "Grizzly Bears", "Ornithopter", "Lightning Bolt", "Mountain")
         .start())
    g.cast(0, "Sage Owl").resolve().resolve()
    assert sorted(g.labels()) == ["Grizzly Bears next", "Lightning Bolt next",
                                  "Ornithopter next", "Wastes next"]
    for name in ("Lightning Bolt", "Wastes", "Ornithopter"):
        g.choose("choose_card", name)
    assert _library(g, 0) == ["Lightning Bolt", "Wastes", "Ornithopter", "Grizzly Bears",
                              "Mountain"]


def _sphinx_hits(library: tuple[str, ...]) -> G:
    g = (Scene().battlefield(0, "Sphinx Ambassador").library(1, *library)
         .hand(1, "Lightning Bolt").at("begin_combat").start())
    g.pass_(2).attack(("Sphinx Ambassador", 1))
    while g.decision.kind != "search":
        g.step_on()
    return g


def test_sphinx_ambassador_takes_a_creature_whose_name_was_not_chosen() -> None:
    g = _sphinx_hits(("Wastes", "Grizzly Bears", "Lightning Bolt"))
    assert g.life(1) == 15 and g.decision.player == 0
    assert "Find nothing" not in g.labels()  # "a card": one must be found (CR 701.19d)
    g.choose("choose_card", "Grizzly Bears")
    assert g.decision.kind == "name_card" and g.decision.player == 1
    assert g.labels() == ["Grizzly Bears", "Lightning Bolt", "Wastes"]  # what player 1 owns
    g.choose("name_card", "Wastes")
    g.choose("yes")
    assert g.obj("Grizzly Bears").controller == 0 and g.obj("Grizzly Bears").owner == 1
    assert sorted(_library(g, 1)) == ["Lightning Bolt", "Wastes"]


def test_sphinx_ambassador_gets_nothing_when_the_name_is_guessed() -> None:
    g = _sphinx_hits(("Wastes", "Grizzly Bears"))
    g.choose("choose_card", "Grizzly Bears").choose("name_card", "Grizzly Bears")
    assert g.decision.kind != "may"
    assert not g.objs("Grizzly Bears", "battlefield")
    assert sorted(_library(g, 1)) == ["Grizzly Bears", "Wastes"]


def test_telepathy_reveals_opponents_hands_exactly_while_it_is_in_play() -> None:
    g = (Scene(3).battlefield(0, "Island").hand(0, "Telepathy", "Ornithopter")
         .hand(1, "Lightning Bolt").hand(2, "Grizzly Bears").start())
    assert not _seen_by(g, 0, "Lightning Bolt") and not _seen_by(g, 2, "Lightning Bolt")
    g.cast(0, "Telepathy").resolve()
    # Revealed means shown to every player (CR 701.16a), yet the hand stays a hidden zone
    # (CR 400.2): its cards are in the views, in zone "h".
    for viewer in (0, 1, 2, SPECTATOR):
        assert _seen_by(g, viewer, "Lightning Bolt") and _seen_by(g, viewer, "Grizzly Bears")
    assert not _seen_by(g, 1, "Ornithopter")  # the controller's own hand stays hidden
    g.concede(0)  # Telepathy leaves the game with its owner (CR 800.4a)
    assert not _seen_by(g, 2, "Lightning Bolt") and not _seen_by(g, SPECTATOR, "Grizzly Bears")


def test_tome_scour_mills_five() -> None:
    g = (Scene().battlefield(0, "Island").hand(0, "Tome Scour")
         .library(1, *["Grizzly Bears"] * 5, "Wastes").start())
    g.cast(0, "Tome Scour", 1).resolve()
    assert g.zone_names("graveyard", 1) == ["Grizzly Bears"] * 5
    assert _library(g, 1) == ["Wastes"]


# --------------------------------------------------------------------------- black


def test_diabolic_tutor_puts_any_card_into_hand_without_showing_it() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Wastes", "Wastes").hand(0, "Diabolic Tutor")
         .library(0, "Wastes", "Lightning Bolt").start())
    g.cast(0, "Diabolic Tutor").resolve()
    assert g.labels() == ["Put Lightning Bolt into your hand", "Put Wastes into your hand"]
    g.choose("choose_card", "Lightning Bolt")
    assert g.zone_names("hand", 0) == ["Lightning Bolt"]
    assert _reveals(g) == [] and not _seen_by(g, 1, "Lightning Bolt")  # CR 701.19e


def test_duress_reveals_the_hand_and_the_caster_picks_a_noncreature_nonland_card() -> None:
    g = (Scene().battlefield(0, "Swamp").hand(0, "Duress")
         .hand(1, "Grizzly Bears", "Lightning Bolt", "Mountain", "Coat of Arms").start())
    g.cast(0, "Duress", 1).resolve()
    assert _reveals(g) == [["Grizzly Bears", "Lightning Bolt", "Mountain", "Coat of Arms"]]
    assert g.decision.player == 0 and g.decision.kind == "choose_discard"
    assert g.labels() == ["B discards Coat of Arms", "B discards Lightning Bolt"]
    g.choose("choose_card", "Coat of Arms")
    assert g.zone_names("graveyard", 1) == ["Coat of Arms"]
    assert sorted(g.zone_names("hand", 1)) == ["Grizzly Bears", "Lightning Bolt", "Mountain"]


def test_duress_with_nothing_to_take_only_reveals() -> None:
    g = (Scene().battlefield(0, "Swamp").hand(0, "Duress").hand(1, "Grizzly Bears").start())
    g.cast(0, "Duress", 1).resolve()
    assert g.decision.kind == "priority" and g.zone_names("hand", 1) == ["Grizzly Bears"]
    assert _reveals(g) == [["Grizzly Bears"]]


def test_haunting_echoes_exiles_the_graveyard_but_basics_and_their_namesakes() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Wastes", "Wastes", "Wastes")
         .hand(0, "Haunting Echoes")
         .graveyard(1, "Lightning Bolt", "Forest", "Grizzly Bears", "Wastes")
         .library(1, "Lightning Bolt", "Wastes", "Grizzly Bears", "Ornithopter").start())
    g.cast(0, "Haunting Echoes", 1).resolve()
    assert g.zone_names("graveyard", 1) == ["Forest", "Wastes"]
    assert sorted(o.name for o in g.game.exile) == ["Grizzly Bears", "Grizzly Bears",
                                                    "Lightning Bolt", "Lightning Bolt"]
    assert sorted(_library(g, 1)) == ["Ornithopter", "Wastes"]


def test_vampire_nocturnus_shows_the_top_card_and_grows_while_it_is_black() -> None:
    g = (Scene().battlefield(0, "Vampire Nocturnus", "Child of Night", "Grizzly Bears")
         .library(0, "Black Knight", "Wastes", "Wastes").start())
    top = g.game.library(0)[-1]
    for viewer in (1, SPECTATOR):  # the top card is revealed to everyone, in zone "l"
        assert g.view(viewer)[top.oid]["n"] == "Black Knight"
        assert g.view(viewer)[top.oid]["z"] == "l"
    second = g.game.library(0)[-2]
    assert second.oid not in g.view(0)  # the rest of the library stays hidden
    nocturnus, child = g.obj("Vampire Nocturnus"), g.obj("Child of Night")
    assert g.view(1)[nocturnus.oid]["pt"] == [5, 4] and "flying" in g.view(1)[nocturnus.oid]["kw"]
    assert g.view(1)[child.oid]["pt"] == [4, 2] and "flying" in g.view(1)[child.oid]["kw"]
    assert g.view(1)[g.obj("Grizzly Bears").oid]["pt"] == [2, 2]  # not a Vampire
    g.next_turn(0)  # the draw takes the black card; a Wastes is on top now
    assert top.oid not in g.view(1) and g.view(1)[second.oid]["n"] == "Wastes"
    assert g.view(1)[nocturnus.oid]["pt"] == [3, 3] and "kw" not in g.view(1)[nocturnus.oid]
    assert g.view(1)[child.oid]["pt"] == [2, 1]


# --------------------------------------------------------------------------- red


def test_burning_inquiry_draws_three_then_discards_three_at_random() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Burning Inquiry", "Lightning Bolt")
         .hand(1, "Grizzly Bears").start())
    g.cast(0, "Burning Inquiry").resolve()
    assert g.decision.kind == "priority"  # nobody chooses: the discards are random
    assert len(g.zone_names("hand", 0)) == 1 and len(g.zone_names("hand", 1)) == 1
    assert len(g.zone_names("graveyard", 0)) == 4 and len(g.zone_names("graveyard", 1)) == 3


_EIGHT_LANDS = ("Mountain", "Mountain", "Mountain", "Wastes", "Wastes", "Wastes", "Wastes",
                "Wastes")


def test_warp_world_shuffles_permanents_in_and_puts_back_what_it_reveals() -> None:
    g = (Scene().battlefield(0, *_EIGHT_LANDS).hand(0, "Warp World")
         .battlefield(1, "Grizzly Bears", "Honor of the Pure").library(1, "Grizzly Bears")
         .start())
    g.cast(0, "Warp World").resolve()
    # Player 1 owned two permanents, so two of their three cards are revealed; all are
    # permanent cards, so both come back (a new object each: CR 400.7).
    shown = _reveals(g)[1]
    assert len(shown) == 2 and sorted(_controls(g, 1)) == sorted(shown)
    assert len(_library(g, 1)) == 1
    mine = [o for o in g.game.battlefield if o.controller == 0]
    assert len(mine) == 8 and all(o.defn.is_("Land") and not o.tapped for o in mine)
    assert len(_library(g, 0)) == 20  # the default 20 plus 8, less the 8 revealed
    assert g.zone_names("graveyard", 0) == ["Warp World"]


def test_warp_world_puts_the_rest_on_the_bottom_and_auras_on_a_creature() -> None:
    attached = 0
    for seed in range(8):
        g = (Scene().battlefield(0, *_EIGHT_LANDS).hand(0, "Warp World")
             .battlefield(1, "Grizzly Bears", "Honor of the Pure")
             .library(1, "Oakenform", "Lightning Bolt").start(seed))
        g.cast(0, "Warp World").resolve()
        shown = _reveals(g)[1]  # two of player 1's four cards
        while g.decision.kind != "priority":
            assert g.decision.kind in ("enchant", "order")
            if g.decision.kind == "enchant":  # the creature entered first (CR 303.4f)
                assert g.labels() == ["Enchant Grizzly Bears"]
                attached += 1
            g.choose(g.decision.actions[0].kind)
        # An Aura with nothing to enchant stays where it is (CR 303.4g).
        expect = sorted(n for n in shown if n in ("Grizzly Bears", "Honor of the Pure")
                        or (n == "Oakenform" and "Grizzly Bears" in shown))
        assert sorted(_controls(g, 1)) == expect
        rest = sorted(n for n in shown if n not in expect)
        assert sorted(_library(g, 1)[len(_library(g, 1)) - len(rest):]) == rest  # bottom
        if "Oakenform" in expect:
            assert g.obj("Oakenform").attached_to == g.obj("Grizzly Bears").oid
    assert attached  # some seed revealed the Aura with the creature


def test_yawning_fissure_makes_each_opponent_sacrifice_a_land() -> None:
    g = (Scene(3).battlefield(0, "Mountain", "Wastes", "Wastes", "Wastes", "Wastes")
         .hand(0, "Yawning Fissure").battlefield(1, "Forest", "Island", "Grizzly Bears")
         .battlefield(2, "Swamp").start())
    g.cast(0, "Yawning Fissure").resolve()
    assert g.decision.player == 1 and g.labels() == ["Sacrifice Forest", "Sacrifice Island"]
    g.choose("choose_card", "Island")
    g.choose("choose_card", "Swamp")
    assert g.zone_names("graveyard", 1) == ["Island"] and g.zone_names("graveyard", 2) == [
        "Swamp"]
    assert len([o for o in g.game.battlefield if o.controller == 0]) == 5


# --------------------------------------------------------------------------- green


def test_borderland_ranger_may_fetch_a_basic_land_to_hand_revealed() -> None:
    g = (Scene().battlefield(0, "Forest", "Wastes", "Wastes").hand(0, "Borderland Ranger")
         .library(0, "Grizzly Bears", "Plains").start())
    g.cast(0, "Borderland Ranger").resolve().resolve()
    g.choose("yes")
    assert g.labels() == ["Find nothing", "Put Plains into your hand"]
    g.choose("choose_card", "Plains")
    assert g.zone_names("hand", 0) == ["Plains"] and _reveals(g) == [["Plains"]]


def test_elvish_piper_puts_a_creature_card_from_hand_onto_the_battlefield() -> None:
    g = (Scene().battlefield(0, "Elvish Piper", "Forest")
         .hand(0, "Kalonian Behemoth", "Lightning Bolt").start())
    g.activate(0, "Elvish Piper").resolve()
    assert g.labels() == ["Put nothing", "Put Kalonian Behemoth onto the battlefield"]
    g.choose("choose_card", "Kalonian Behemoth")
    assert g.obj("Kalonian Behemoth").controller == 0
    assert g.zone_names("hand", 0) == ["Lightning Bolt"]


def test_lurking_predators_reveals_on_each_opponent_spell() -> None:
    g = (Scene().battlefield(0, "Lurking Predators").library(0, "Grizzly Bears", "Wastes",
                                                               "Ornithopter")
         .battlefield(1, "Mountain", "Mountain").hand(1, "Lightning Bolt", "Lightning Bolt")
         .at("main1", active=1).start())
    g.cast(1, "Lightning Bolt", 1)
    g.resolve()  # the trigger, above the Bolt
    assert _reveals(g) == [["Grizzly Bears"]] and g.obj("Grizzly Bears").controller == 0
    g.resolve()
    g.cast(1, "Lightning Bolt", 1).resolve()
    assert _reveals(g)[-1] == ["Wastes"]
    g.choose("yes")  # to the bottom
    assert _library(g, 0) == ["Ornithopter", "Wastes"]


def test_lurking_predators_ignores_its_controllers_own_spells() -> None:
    g = (Scene().battlefield(0, "Lurking Predators", "Mountain").hand(0, "Lightning Bolt")
         .library(0, "Grizzly Bears").start())
    g.cast(0, "Lightning Bolt", 1)
    assert len(g.game.stack) == 1


def test_rampant_growth_puts_a_basic_land_onto_the_battlefield_tapped() -> None:
    g = (Scene().battlefield(0, "Forest", "Wastes").hand(0, "Rampant Growth")
         .library(0, "Grizzly Bears", "Island").start())
    g.cast(0, "Rampant Growth").resolve()
    g.choose("choose_card", "Island")
    assert g.obj("Island").tapped and _library(g, 0) == ["Grizzly Bears"]


# --------------------------------------------------------------------------- artifacts, lands


def test_mirror_of_fate_rebuilds_the_library_from_exile() -> None:
    g = (Scene().battlefield(0, "Mirror of Fate").exile(0, "Lightning Bolt", "Grizzly Bears",
                                                       "Ornithopter")
         .exile(1, "Shivan Dragon").library(0, "Wastes", "Wastes").start())
    g.activate(0, "Mirror of Fate").resolve()
    assert "Choose Shivan Dragon" not in g.labels()  # only cards you own
    g.choose("choose_card", "Lightning Bolt").choose("choose_card", "Grizzly Bears")
    g.choose("done")
    g.choose("choose_card", "Grizzly Bears")  # on top
    assert _library(g, 0) == ["Grizzly Bears", "Lightning Bolt"]
    assert sorted(o.name for o in g.game.exile) == ["Ornithopter", "Shivan Dragon", "Wastes",
                                                    "Wastes"]
    assert g.zone_names("graveyard", 0) == ["Mirror of Fate"]


def test_terramorphic_expanse_fetches_a_basic_land_tapped() -> None:
    g = (Scene().battlefield(0, "Terramorphic Expanse").library(0, "Grizzly Bears", "Swamp")
         .start())
    g.activate(0, "Terramorphic Expanse").resolve()
    g.choose("choose_card", "Swamp")
    assert g.obj("Swamp").tapped and g.zone_names("graveyard", 0) == ["Terramorphic Expanse"]


# --------------------------------------------------------------------------- bots


def _bot_pick(g: G) -> Action:
    d = g.decision
    return d.actions[heuristic_strategy(g.view(d.player), d.to_wire(), random.Random(0),
                                        cards())]


def test_the_heuristic_bot_keeps_its_best_cards() -> None:
    """Ponder: a land on top while it has few lands. Duress: it takes the priciest card.
    Yawning Fissure: it sacrifices its least valuable land."""
    g = (Scene().battlefield(0, "Island").hand(0, "Ponder")
         .library(0, "Lightning Bolt", "Shivan Dragon", "Forest").start())
    g.cast(0, "Ponder").resolve()
    assert _bot_pick(g).label == "Forest next"
    g = (Scene().battlefield(0, "Swamp").hand(0, "Duress")
         .hand(1, "Lightning Bolt", "Coat of Arms").start())
    g.cast(0, "Duress", 1).resolve()
    assert _bot_pick(g).label == "B discards Coat of Arms"
    g = (Scene().battlefield(0, "Mountain", *("Wastes",) * 4).hand(0, "Yawning Fissure")
         .battlefield(1, "Terramorphic Expanse", "Forest").start())
    g.cast(0, "Yawning Fissure").resolve()
    assert g.decision.player == 1 and _bot_pick(g).kind == "choose_card"


def test_the_bots_finish_every_library_decision() -> None:
    """Played out by either bot, each card's decisions end (every decision offers at least
    one action, and each pick moves on)."""
    for strategy in (heuristic_strategy, random_strategy):
        for seed in range(3):
            g = (Scene().battlefield(0, "Mirror of Fate")
                 .exile(0, "Lightning Bolt", "Grizzly Bears", "Forest").start(seed))
            g.activate(0, "Mirror of Fate").resolve()
            rng = random.Random(seed)
            for _ in range(20):
                d = g.decision
                if d.kind == "priority":
                    break
                assert d.actions
                pick = strategy(g.view(d.player), d.to_wire(), rng, cards())
                g.table.act(d.player, d.serial, d.actions[pick].id)
            assert g.decision.kind == "priority"
            assert g.zone_names("graveyard", 0) == ["Mirror of Fate"]
