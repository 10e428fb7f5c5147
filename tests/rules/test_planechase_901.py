"""Planechase (CR 901): the planar deck and the face-up plane in the command zone, the planar
die, planeswalking and chaos, the planar controller, players leaving, and planes' exemption from
the limited range of influence option."""

from __future__ import annotations

from arbiter.protocol.errors import Refusal
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.state import PLANAR_DECK
from arbiter.server.rules.view import SPECTATOR, snapshot

from .helpers import Scene, seed_rolling

DECK = ("Krosa", "Goldmeadow", "Lethe Lake", "Panopticon", "Sanctum of Serra",
        "Fields of Summer", "The Hippodrome", "Astral Arena", "Mutual Epiphany",
        "Planewide Disaster")


def _table(seed: int, players: int = 2) -> Table:
    decks = [ready_made(d) for d in ("gruul-stompy", "azorius-skies", "dimir-control")]
    config = GameConfig(
        players=tuple(PlayerConfig(f"P{i}", d.main, d.sideboard, planar_deck=d.planar)
                      for i, d in enumerate(decks[:players])),
        variant="two_player" if players == 2 else "free_for_all", planechase=True,
        format="constructed")
    return Table(config, seed)


def _keep_all(t: Table) -> None:
    while t.pending is not None and t.pending.kind == "mulligan":
        t.act(t.pending.player, t.pending.serial,
              next(a.id for a in t.pending.actions if a.kind == "keep"))


def _scene(players: int = 2, **config: object) -> Scene:
    """Planechase with Krosa face up (owned by player 0) and a planar deck for everyone."""
    s = Scene(players, planechase=True, **config).plane(0, "Krosa")
    for p in range(players):
        s.planar_deck(p, *[n for n in DECK if n != "Krosa"])
    return s


# --------------------------------------------------------------------------- setting up


def test_901_3_a_planechase_game_refuses_a_deck_without_its_planar_deck() -> None:
    deck = ready_made("gruul-stompy")
    players = (PlayerConfig("A", deck.main, planar_deck=deck.planar), PlayerConfig("B", deck.main))
    try:
        Table(GameConfig(players=players, planechase=True), 1)
    except Refusal as err:
        assert "player 1 (B)'s deck is not legal" in err.message
        assert "a planar deck has at least 10 planes and phenomena (CR 901.3)" in err.message
    else:
        raise AssertionError("a player without a planar deck was seated")


def test_901_4_planar_cards_stay_in_the_command_zone_and_the_planar_deck_is_hidden() -> None:
    t = _table(4)
    _keep_all(t)
    g = t.main
    face = [o for o in g.command if o.defn.planar]
    assert len(face) == 1
    for p in (0, 1):
        assert len(g.planar_deck(p)) + sum(o.owner == p for o in face) == 10
        assert all(o.zone == PLANAR_DECK for o in g.planar_deck(p))
    # Every viewer sees the face-up plane and each planar deck's size, no card in one.
    hidden = {o.oid for p in (0, 1) for o in g.planar_deck(p)}
    for viewer in (0, 1, SPECTATOR):
        view = snapshot(g, viewer)
        assert face[0].oid in view and not hidden & set(view)
        assert view["p0"]["pd"] + view["p1"]["pd"] == 19
    # Planes aren't permanents: destroying "all nonland permanents" leaves the face-up plane
    # where it is (CR 311.2).
    g2 = (Scene(2, planechase=True).plane(0, "Sanctum of Serra").planar_deck(0, "Krosa")
          .battlefield(1, "Hill Giant").start(seed_rolling("planeswalker")))
    g2.roll()
    g2.resolve()
    g2.resolve()  # Sanctum of Serra: destroy all nonland permanents
    assert not g2.game.battlefield and g2.plane() == "Krosa"
    assert [o.name for o in g2.game.planar_deck(0)] == ["Sanctum of Serra"]


def test_901_5_the_starting_plane_is_set_once_the_mulligans_are_over() -> None:
    skipped = quiet = False
    for seed in range(300):
        if skipped and quiet:
            break
        t = _table(seed)
        g = t.main
        sp = g.starting_player
        assert not [o for o in g.command if o.defn.planar]  # nothing face up during mulligans
        before = [o.name for o in reversed(g.planar_deck(sp))]  # top first
        _keep_all(t)
        (face,) = [o for o in g.command if o.defn.planar]
        k = next(i for i, name in enumerate(before) if name not in (
            "Mutual Epiphany", "Planewide Disaster", "Chaotic Aether"))
        assert face.name == before[k] and face.owner == sp
        # Phenomena turned up first went to the bottom, in the order they were turned up.
        assert [o.name for o in reversed(g.planar_deck(sp))] == before[k + 1:] + before[:k]
        skipped = skipped or k > 0
        if face.name == "Panopticon":
            # Nothing triggers while the starting plane is set: no "planeswalk to" draw.
            assert not any(o.is_ability and o.name == "Panopticon" for o in g.stack)
            assert len(g.hand(sp)) == 7
            quiet = True
    assert skipped and quiet


def test_901_6_the_planar_controller_is_the_active_player() -> None:
    g = _scene(3).at("main1", 0).start()
    krosa = g.obj("Krosa", "command")
    assert g.game.planar_controller == 0 and krosa.controller == 0 and krosa.owner == 0
    assert g.view(SPECTATOR)["pc"] == 0
    g.next_turn(1)
    assert g.game.planar_controller == 1 and g.obj("Krosa", "command").controller == 1
    assert g.view(2)["pc"] == 1


def test_901_6_a_leaving_planar_controller_hands_it_to_the_next_player() -> None:
    g = _scene(3).at("main1", 1).start()
    g.concede(1)
    assert g.game.planar_controller == 2
    krosa = g.obj("Krosa", "command")  # owned by player 0, who is still here
    assert krosa.controller == 2


# --------------------------------------------------------------------------- abilities


def test_901_7_a_face_up_planes_abilities_work_from_the_command_zone() -> None:
    g = (_scene().battlefield(0, "Grizzly Bears").battlefield(1, "Hill Giant").start())
    view = g.view(SPECTATOR)
    assert view[g.obj("Grizzly Bears").oid]["pt"] == [4, 4]  # Krosa: all creatures +2/+2
    assert view[g.obj("Hill Giant").oid]["pt"] == [5, 5]
    # A triggered ability: Lethe Lake mills its controller (the active player) each upkeep.
    g = Scene(2, planechase=True).plane(1, "Lethe Lake").at("upkeep", 0).start()
    g.resolve()
    assert len(g.game.library(0)) == 10 and len(g.game.graveyard(0)) == 10


def test_901_7a_a_plane_turned_face_down_is_a_new_object() -> None:
    g = _scene().start(seed_rolling("planeswalker"))
    krosa = g.obj("Krosa", "command")
    assert g.roll() == "planeswalker"
    g.resolve()
    assert g.plane() == "Goldmeadow"
    bottom = g.game.planar_deck(0)[0]
    assert bottom.name == "Krosa" and bottom.oid != krosa.oid and krosa.oid not in g.game.objects


def test_901_8_the_planeswalking_ability_has_no_source_and_is_the_rollers() -> None:
    g = _scene().at("main1", 1).start(seed_rolling("planeswalker"))
    assert g.roll() == "planeswalker"
    (ability,) = g.game.stack
    assert ability.is_ability and ability.source is None and ability.controller == 1
    assert g.view(0)[ability.oid]["ab"] == "planeswalk"
    g.resolve()
    assert g.plane() == "Goldmeadow"  # the top card of player 1's planar deck
    assert g.obj("Goldmeadow", "command").owner == 1


def test_901_9_rolling_the_planar_die_costs_one_more_each_time_this_turn() -> None:
    g = _scene().battlefield(0, "Mountain", "Mountain", "Mountain").start(
        seed_rolling("blank", "blank", "blank"))
    assert g.find("roll_planar_die").label == "Roll the planar die ({0})"
    g.roll()
    assert g.find("roll_planar_die").label == "Roll the planar die ({1})"
    g.roll()
    assert sum(o.tapped for o in g.game.battlefield) == 1
    g.roll()
    assert sum(o.tapped for o in g.game.battlefield) == 3
    assert g.find("roll_planar_die") is None  # {3} more: no mana left
    g.next_turn(1)
    assert g.find("roll_planar_die").label == "Roll the planar die ({0})"


def test_901_9_only_the_active_player_in_a_main_phase_with_an_empty_stack() -> None:
    g = (_scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt").at("upkeep", 0).start())
    assert g.find("roll_planar_die") is None  # not a main phase
    g.until("main1", 0)
    assert g.find("roll_planar_die") is not None
    g.cast(0, "Lightning Bolt", 1)
    assert g.find("roll_planar_die") is None  # the stack isn't empty
    g.pass_()
    assert g.decision.player == 1 and g.find("roll_planar_die") is None  # not their turn


def test_901_9a_a_blank_does_nothing_and_the_roller_keeps_priority() -> None:
    g = _scene().start(seed_rolling("blank"))
    before = g.hash()
    assert g.roll() == "blank"
    assert g.decision.kind == "priority" and g.decision.player == 0
    assert not g.game.stack and g.plane() == "Krosa" and g.hash() != before


def test_901_9b_chaos_triggers_the_planes_chaos_ability() -> None:
    g = _scene().start(seed_rolling("chaos"))
    assert g.roll() == "chaos"
    assert g.game.stack[-1].name == "Krosa"
    g.resolve()
    assert g.decision.kind == "may" and g.decision.player == 0
    g.choose("yes")
    assert g.game.players[0].mana == {c: 1 for c in "WUBRG"}
    assert g.decision.kind == "priority" and g.decision.player == 0


def test_901_9c_the_planeswalker_symbol_planeswalks_through_the_stack() -> None:
    g = _scene().start(seed_rolling("planeswalker"))
    assert g.roll() == "planeswalker"
    assert g.plane() == "Krosa" and g.decision.player == 0  # the active player gets priority
    g.pass_()
    assert g.plane() == "Krosa"  # the opponent may respond
    g.pass_()
    assert g.plane() == "Goldmeadow" and not g.game.stack


# --------------------------------------------------------------------------- leaving


def test_901_10_a_face_up_planes_owner_leaving_turns_up_the_next_plane_at_once() -> None:
    g = _scene(3).at("main1", 1).start()
    g.concede(0)
    # Krosa left with its owner; the planar controller (player 1) turned up the top card of
    # their own planar deck right away, not at the next state-based check.
    assert g.plane() == "Goldmeadow" and g.obj("Goldmeadow", "command").owner == 1
    assert not any(o.owner == 0 for o in g.game.objects.values())
    assert len(g.game.planar_deck(1)) == 8


def test_901_10_when_the_planar_controller_owns_the_plane_and_leaves() -> None:
    s = Scene(3, planechase=True).plane(1, "The Hippodrome").at("main1", 1)
    for p in range(3):
        s.planar_deck(p, "Goldmeadow", "Lethe Lake")
    g = s.start()
    g.concede(1)
    # CR 901.6 first: player 2 becomes the planar controller, then player 1 leaves with The
    # Hippodrome, and player 2 turns up the top card of their planar deck.
    assert g.game.planar_controller == 2
    assert g.plane() == "Goldmeadow" and g.obj("Goldmeadow", "command").owner == 2


def test_901_10a_a_planeswalking_ability_ceases_to_exist_when_the_plane_leaves() -> None:
    g = _scene(3).at("main1", 1).start(seed_rolling("planeswalker"))
    assert g.roll() == "planeswalker"
    assert g.game.stack and g.game.stack[-1].source is None
    g.concede(0)  # Krosa's owner
    assert not g.game.stack
    assert g.plane() == "Goldmeadow"
    g.pass_(2)  # nothing left to resolve: the plane stays
    assert g.plane() == "Goldmeadow"


# --------------------------------------------------------------------------- planeswalking


def test_901_11_planeswalking_triggers_to_and_away_and_ends_effects() -> None:
    # Planeswalking away from Sanctum of Serra destroys all nonland permanents; planeswalking
    # to Panopticon draws a card.
    g = (Scene(2, planechase=True).plane(0, "Sanctum of Serra").planar_deck(0, "Panopticon")
         .battlefield(0, "Hill Giant", "Mountain").battlefield(1, "Grizzly Bears")
         .start(seed_rolling("planeswalker")))
    hand = len(g.game.hand(0))
    g.roll()
    g.resolve()
    assert g.plane() == "Panopticon"
    assert g.decision.kind == "order_triggers"  # both player 0's: they choose the order
    g.step_on()
    names = [o.name for o in g.game.stack]
    assert sorted(names) == ["Panopticon", "Sanctum of Serra"]
    g.resolve_all()
    assert [o.name for o in g.game.battlefield] == ["Mountain"]
    assert len(g.game.hand(0)) == hand + 1


def test_901_11_chaotic_aether_lasts_until_a_player_planeswalks_away_from_a_plane() -> None:
    g = (Scene(2, planechase=True).plane(0, "Krosa")
         .planar_deck(0, "Chaotic Aether", "Lethe Lake", "Goldmeadow")
         .battlefield(0, *["Mountain"] * 6)
         .start(seed_rolling("planeswalker", "blank", "planeswalker")))
    assert g.roll() == "planeswalker"
    g.resolve()
    assert g.plane() == "Chaotic Aether"
    g.resolve()  # the encounter: blank rolls are chaos rolls ...
    # ... then the phenomenon is planeswalked away from at once (CR 704.6f), to a plane.
    assert g.plane() == "Lethe Lake"
    assert any(e.kind == "blank_chaos" for e in g.game.effects)
    assert g.roll() == "chaos"  # a blank roll: chaos ensues
    assert g.game.stack[-1].name == "Lethe Lake"
    g.target(1).resolve()
    assert len(g.game.library(1)) == 10
    assert g.roll() == "planeswalker"
    g.resolve()
    assert g.plane() == "Goldmeadow"
    assert not any(e.kind == "blank_chaos" for e in g.game.effects)  # away from a plane


# --------------------------------------------------------------------------- range of influence


def test_901_13_planes_are_exempt_from_the_limited_range_of_influence() -> None:
    # Player 0's range is 1: player 2 is out of it. Lethe Lake's chaos ability may target
    # player 2 all the same.
    g = (Scene(5, range_of_influence=1, planechase=True).plane(0, "Lethe Lake")
         .start(seed_rolling("chaos")))
    assert not g.game.in_range(0, 2)
    g.roll()
    assert ("p", 2) in {a.ref for a in g.options(0)}
    g.target(2).resolve()
    assert len(g.game.library(2)) == 10
    # Astral Arena deals 2 damage to each creature, whoever controls it.
    g = (Scene(5, range_of_influence=1, planechase=True).plane(0, "Astral Arena")
         .battlefield(2, "Grizzly Bears").battlefield(1, "Hill Giant")
         .start(seed_rolling("chaos")))
    g.roll()
    g.resolve()
    assert g.objs("Grizzly Bears", "battlefield") == [] and g.obj("Hill Giant").damage == 2
    # Fields of Summer triggers on a spell cast by a player out of range, who may gain life.
    g = (Scene(5, range_of_influence=1, planechase=True).plane(0, "Fields of Summer")
         .battlefield(2, "Mountain").hand(2, "Lightning Bolt").at("main1", 0).start())
    g.pass_()
    while g.decision.player != 2:
        g.pass_()
    g.cast(2, "Lightning Bolt", 3)
    assert g.game.stack[-1].name == "Fields of Summer"
    g.resolve()
    assert g.decision.kind == "may" and g.decision.player == 2
    g.choose("yes")
    assert g.life(2) == 22


def test_901_9_with_shared_team_turns_each_active_player_may_roll() -> None:
    """In an Archenemy game the opponents share their turns (CR 904.2, 805.4a): each of them is
    an active player, may roll the planar die and pays by their own count of rolls; the planar
    controller is the team's turn holder. Planechase isn't added to Two-Headed Giant, whose own
    rules for it (901.12) aren't played here."""
    s = (Scene(3, variant="archenemy", planechase=True).archenemy(0).plane(0, "Krosa")
         .at("main1", 1))
    for p in range(3):
        s.planar_deck(p, "Goldmeadow", "Lethe Lake")
    g = s.start(seed_rolling("blank"))
    assert g.game.planar_controller == 1
    assert g.decision.player == 1 and g.roll() == "blank"
    g.pass_()
    assert g.decision.player == 2
    assert g.find("roll_planar_die").label == "Roll the planar die ({0})"
    giant = Scene(4, variant="two_headed_giant", planechase=True)
    for p in range(4):
        giant.team(p, p // 2)
    try:
        giant.start()
    except Refusal as err:
        assert "CR 901.12" in err.message
    else:
        raise AssertionError("Planechase was added to Two-Headed Giant")
