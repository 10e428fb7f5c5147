"""Archenemy (CR 904): the archenemy alone against a team, with 40 life and the first turn,
setting a scheme in motion at the start of each of their precombat main phases; ongoing schemes
stay until abandoned, the others go back under the scheme deck."""

from __future__ import annotations

import pytest

from arbiter.protocol.errors import Refusal
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.config import validate
from arbiter.server.rules.state import SCHEME_DECK
from arbiter.server.rules.view import SPECTATOR, snapshot

from .helpers import G, Scene


def _config(players: int = 3, archenemy: int = 0, **options: object) -> GameConfig:
    deck = ready_made("gruul-stompy")
    return GameConfig(players=tuple(
        PlayerConfig(f"P{i}", deck.main, deck.sideboard,
                     scheme_deck=deck.schemes if i == archenemy else (),
                     archenemy=i == archenemy)
        for i in range(players)), variant="archenemy", format="constructed",
        **options)  # type: ignore[arg-type]


def _scene(*schemes: str, players: int = 3, step: str = "upkeep") -> Scene:
    """Player 0 is the archenemy, with ``schemes`` on top of their scheme deck."""
    s = Scene(players, variant="archenemy").archenemy(0)
    s.scheme_deck(0, *schemes, "Look Skyward and Despair", "The Iron Guardian Stirs")
    return s.at(step, 0)


def _to_main(g: G) -> G:
    """From the archenemy's upkeep to their precombat main phase (CR 904.9 happens there)."""
    return g.until("main1", 0)


def test_904_2a_the_archenemy_is_a_team_of_one_against_everyone_else() -> None:
    t = Table(_config(4, archenemy=2), 1)
    g = t.main
    assert g.are_opponents(2, 0) and g.are_opponents(1, 2) and not g.are_opponents(0, 3)
    assert g.teammates(2) == [] and g.teammates(0) == [1, 3]
    for bad, fragment in [
        (_config(3, archenemy=5), "exactly one archenemy (CR 904.2a)"),
        # CR 904.2: shared team turns and no other multiplayer option.
        (_config(3, range_of_influence=1), "can't be combined with shared team turns"),
        (_config(3, attack="left"), "teams sharing turns attack as a team (CR 805.10)"),
    ]:
        with pytest.raises(Refusal) as err:
            validate(bad)
        assert fragment in err.value.message
    # The other team wins together when the archenemy leaves.
    t.concede(2)
    assert t.result is not None and t.result.winners == (0, 1, 3)


def test_904_3_the_archenemy_needs_a_scheme_deck_of_twenty() -> None:
    config = _config(3)
    short = config.players[0].scheme_deck[:19]
    players = (PlayerConfig("A", config.players[0].deck, scheme_deck=short, archenemy=True),
               *config.players[1:])
    with pytest.raises(Refusal) as err:
        validate(GameConfig(players=players, variant="archenemy", format="constructed"))
    assert "the scheme deck has 19 cards; the archenemy's scheme deck has at least 20 " \
           "(CR 904.3)" in err.value.message
    # Only the archenemy has one.
    players = (*config.players[:2], PlayerConfig("C", config.players[2].deck,
                                                 scheme_deck=config.players[0].scheme_deck))
    with pytest.raises(Refusal, match="only the archenemy uses one"):
        validate(GameConfig(players=players, variant="archenemy"))


def test_904_4_schemes_stay_in_the_command_zone_and_the_scheme_deck_is_hidden() -> None:
    t = Table(_config(3), 2)
    g = t.main
    assert len(g.scheme_deck(0)) == 20 and all(o.zone == SCHEME_DECK for o in g.scheme_deck(0))
    for viewer in (0, 1, SPECTATOR):
        view = snapshot(g, viewer)
        assert view["p0"]["sd"] == 20
        assert not {o.oid for o in g.scheme_deck(0)} & set(view)


def test_904_5_the_archenemy_starts_with_40_life_the_others_20() -> None:
    t = Table(_config(4, archenemy=1), 3)
    assert [t.main.players[p].life for p in range(4)] == [20, 40, 20, 20]


def test_904_6_the_archenemy_takes_the_first_turn() -> None:
    for seed in range(8):
        for archenemy in (0, 2):
            t = Table(_config(3, archenemy=archenemy, chooser=1), seed)
            assert t.main.starting_player == archenemy
    with pytest.raises(Refusal, match=r"the archenemy takes the first turn \(CR 904.6\)"):
        validate(_config(3, starting_player=1))


def test_904_9_a_scheme_is_set_in_motion_as_each_precombat_main_phase_begins() -> None:
    g = _to_main(_scene("Look Skyward and Despair").start())
    (scheme,) = [o for o in g.game.command if o.defn.is_("Scheme")]
    assert scheme.name == "Look Skyward and Despair"
    assert g.game.stack[-1].name == "Look Skyward and Despair"  # "when you set ... in motion"
    g.resolve()
    assert g.obj("Dragon").controller == 0
    # Not in the second main phase, nor in the opponents' turns.
    g.until("main2", 0)
    g.next_turn(1, "main2")
    assert len(g.game.scheme_deck(0)) == 3
    g.next_turn(0)
    assert g.game.stack[-1].name == "Look Skyward and Despair"  # the next one from the top


def test_904_7_a_face_up_scheme_is_owned_and_controlled_by_the_archenemy() -> None:
    g = _to_main(_scene("The Very Soil Shall Shake").start())
    scheme = g.obj("The Very Soil Shall Shake", "command")
    assert (scheme.owner, scheme.controller) == (0, 0)
    assert g.view(1)[scheme.oid]["n"] == "The Very Soil Shall Shake"


def test_904_8_a_face_up_schemes_abilities_work_from_the_command_zone() -> None:
    g = _to_main(_scene("The Very Soil Shall Shake").battlefield(0, "Grizzly Bears")
                 .battlefield(1, "Grizzly Bears").start())
    mine = g.obj("Grizzly Bears", controller=0)
    theirs = g.obj("Grizzly Bears", controller=1)
    view = g.view(SPECTATOR)
    assert view[mine.oid]["pt"] == [4, 4] and view[mine.oid]["kw"] == ["trample"]
    assert view[theirs.oid]["pt"] == [2, 2] and "kw" not in view[theirs.oid]


def test_904_10_a_non_ongoing_scheme_goes_under_the_scheme_deck_once_it_is_done() -> None:
    g = _to_main(_scene("The Iron Guardian Stirs").start())
    face_up = g.obj("The Iron Guardian Stirs", "command")
    assert g.game.stack  # its ability keeps it face up while it waits
    g.resolve()
    assert g.obj("Golem").controller == 0
    assert not [o for o in g.game.command if o.defn.is_("Scheme")]
    bottom = g.game.scheme_deck(0)[0]
    assert bottom.name == "The Iron Guardian Stirs" and bottom.oid != face_up.oid
    assert face_up.oid not in g.view(1)


def test_904_11_an_ongoing_scheme_stays_face_up_until_abandoned() -> None:
    g = _to_main(_scene("The Very Soil Shall Shake").battlefield(0, "Grizzly Bears")
                 .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.next_turn(1)
    g.next_turn(0, "main2")
    assert g.obj("The Very Soil Shall Shake", "command")  # still in motion, turns later
    g.next_turn(1)
    g.cast(1, "Lightning Bolt", "Grizzly Bears").resolve()
    # A 4/4 thanks to the scheme, it survives the Bolt, and the scheme stays in motion.
    assert g.obj("Grizzly Bears").damage == 3
    assert g.obj("The Very Soil Shall Shake", "command")


def test_904_11_abandoned_when_a_creature_you_control_dies() -> None:
    g = _to_main(_scene("The Very Soil Shall Shake").battlefield(0, "Glistener Elf")
                 .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.next_turn(1)
    g.cast(1, "Lightning Bolt", "Glistener Elf").resolve()  # a 3/3 with the scheme: it dies
    assert g.game.stack[-1].name == "The Very Soil Shall Shake"
    g.resolve()
    assert not [o for o in g.game.command if o.defn.is_("Scheme")]
    assert g.game.scheme_deck(0)[0].name == "The Very Soil Shall Shake"


def test_904_2_the_archenemys_opponents_share_their_turns() -> None:
    """CR 904.2, 805.4: the default setup uses shared team turns: after the archenemy's turn
    the other team takes one turn together, each of its players drawing and untapping in it,
    and the team has priority as one (CR 805.5)."""
    t = Table(_config(3, archenemy=0), 4)
    g = t.main
    assert g.team_turns and g.turn_mates[1] == (1, 2) and g.turn_mates[0] == (0,)
    assert snapshot(g, SPECTATOR)["g"]["shared"] == ["turns"]
    while t.pending is not None and t.pending.kind == "mulligan":
        d = t.pending
        t.act(d.player, d.serial, next(a.id for a in d.actions if a.kind == "keep"))
    turns: list[tuple[int, ...]] = []
    while g.turn < 3:
        if g.turn > len(turns):
            turns.append(tuple(q for q in range(3) if g.is_active(q)))
        d = t.pending
        assert d is not None
        pick = next((a for a in d.actions if a.kind in ("pass", "done", "keep")), d.actions[0])
        t.act(d.player, d.serial, pick.id)
    assert turns == [(0,), (1, 2)]
    assert g.active == 0 and g.turn == 3
    # Both opponents drew in their shared turn (CR 805.4b): seven and one each (and each
    # discarded one down to seven in its cleanup step).
    assert all(len(g.hand(q)) + len(g.graveyard(q)) == 8 for q in (1, 2))
