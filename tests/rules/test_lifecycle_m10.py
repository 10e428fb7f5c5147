"""The game's lifecycle with the cards of Magic 2010: a player leaving a multiplayer game
(CR 800.4), a restart (724) and a Shahrazad subgame (726) while the set's stolen creatures,
Auras, Equipment, tokens, copies, counters, planeswalkers, delayed triggers and extra turns are
in play, and the state-based actions (704.5d, 704.5m, 704.5n) that meet several of them at once.

Players: Alex (0), Bianca (1) and Carissa (2), who keeps a three-player game going when one of
the others leaves; a fourth, Dmitri (3), where four are needed."""

from __future__ import annotations

from arbiter.server.rules.characteristics import power, subtypes, toughness
from arbiter.server.rules.game import Game
from arbiter.server.rules.hashing import game_state
from arbiter.server.rules.state import BATTLEFIELD, GRAVEYARD, LIBRARY, Obj
from arbiter.server.rules.view import SPECTATOR

from .helpers import G, Scene
from .test_extra_turns_500_7 import _turns, _warp
from .test_subgames_726 import _cids, _next_own_main, _own_main_phase

ALEX, BIANCA, CARISSA, DMITRI = 0, 1, 2, 3
BLUE5 = ("Island",) * 5
TREASON = ("Mountain", "Wastes", "Wastes")


def _pt(g: G, obj: Obj) -> tuple[int, int]:
    return power(g.game, obj), toughness(g.game, obj)


def _seen(g: G, viewer: int, name: str) -> bool:
    """Whether ``viewer``'s view shows a card called ``name`` in a hand."""
    return any(isinstance(v, dict) and v.get("n") == name and v.get("z") == "h"
               for v in g.view(viewer).values())


# --------------------------------------------------------------------------- 800.4a: control


def test_800_4a_mind_control_and_act_of_treason_end_when_their_controller_leaves() -> None:
    g = (Scene(3).battlefield(ALEX, *BLUE5, *TREASON).hand(ALEX, "Mind Control",
                                                           "Act of Treason")
         .battlefield(BIANCA, "Serra Angel").battlefield(CARISSA, "Stone Giant").start())
    g.cast(ALEX, "Mind Control", "Serra Angel").resolve()
    g.cast(ALEX, "Act of Treason", "Stone Giant").resolve()
    angel, giant = g.obj("Serra Angel"), g.obj("Stone Giant")
    assert (angel.controller, giant.controller) == (ALEX, ALEX)
    g.concede(ALEX)
    # Mind Control left the game with its owner; Act of Treason's effect gave Alex control and
    # ends (800.4a). Each creature is back with its owner, the same object as before.
    assert g.objs("Mind Control") == [] and g.objs("Act of Treason") == []
    assert (g.obj("Serra Angel").oid, g.obj("Serra Angel").controller) == (angel.oid, BIANCA)
    assert (g.obj("Stone Giant").oid, g.obj("Stone Giant").controller) == (giant.oid, CARISSA)
    assert not any(e.kind == "control" for e in g.game.effects)


def test_800_4a_a_token_owned_by_the_leaver_leaves_even_under_anothers_control() -> None:
    g = (Scene(3).battlefield(ALEX, "Mountain", "Mountain", "Mountain", "Wastes", "Wastes")
         .hand(ALEX, "Siege-Gang Commander")
         .battlefield(BIANCA, *TREASON).hand(BIANCA, "Act of Treason").start())
    g.cast(ALEX, "Siege-Gang Commander").resolve().resolve()
    goblins = g.objs("Goblin Token", "battlefield")
    assert len(goblins) == 3 and all(o.is_token and o.owner == ALEX for o in goblins)
    g.until("main1", BIANCA)
    g.cast(BIANCA, "Act of Treason", goblins[0]).resolve()
    assert goblins[0].controller == BIANCA
    g.concede(ALEX)
    # Every object Alex owns leaves, the stolen token too (800.4a); tokens leave no card.
    assert g.objs("Goblin Token") == [] and g.objs("Siege-Gang Commander") == []
    departed = [c.name for c in g.game.departed_cards[ALEX]]
    assert "Siege-Gang Commander" in departed and "Goblin Token" not in departed
    assert all(o.owner != ALEX for o in g.game.objects.values())


# --------------------------------------------------------------------------- 800.4a: Auras


def test_800_4a_auras_leave_with_their_owner_and_auras_on_their_permanents_fall_off() -> None:
    g = (Scene(3).battlefield(ALEX, "Plains", "Wastes", "Island", "Wastes", "Grizzly Bears")
         .hand(ALEX, "Pacifism", "Ice Cage")
         .battlefield(BIANCA, "Hill Giant", "Serra Angel", "Plains", "Wastes")
         .hand(BIANCA, "Pacifism").start())
    g.cast(ALEX, "Pacifism", "Hill Giant").resolve()
    g.cast(ALEX, "Ice Cage", "Serra Angel").resolve()
    g.until("main1", BIANCA)
    g.cast(BIANCA, "Pacifism", "Grizzly Bears").resolve()
    assert g.obj("Pacifism", controller=BIANCA).attached_to == g.obj("Grizzly Bears").oid
    g.concede(ALEX)
    # Alex's Auras are gone with him, so Bianca's creatures are free again; Bianca's Pacifism
    # enchanted a creature that left: the next check puts it into her graveyard (704.5m).
    assert g.objs("Ice Cage") == [] and g.objs("Grizzly Bears") == []
    assert [o.owner for o in g.objs("Pacifism")] == [BIANCA]
    g.pass_()  # a state-based check happens before anyone gets priority again
    assert g.zone_names(GRAVEYARD, BIANCA) == ["Pacifism"]
    g.until("declare_attackers", BIANCA)
    attackers = {g.game.objects[a.obj].name for a in g.options(BIANCA) if a.kind == "attack"}
    assert attackers == {"Hill Giant", "Serra Angel"}


def test_800_4a_sleeps_effect_outlives_the_player_who_cast_it() -> None:
    # Sleep's "don't untap" is an effect of a resolved spell, not an object Alex owns and not
    # control: 800.4a ends neither it nor the tapping.
    g = (Scene(3).battlefield(ALEX, "Island", "Island", "Wastes", "Wastes").hand(ALEX, "Sleep")
         .battlefield(BIANCA, "Grizzly Bears", "Hill Giant").start())
    g.cast(ALEX, "Sleep", BIANCA).resolve()
    assert all(g.obj(n).tapped for n in ("Grizzly Bears", "Hill Giant"))
    g.concede(ALEX)
    g.until("main1", BIANCA)
    assert all(g.obj(n).tapped for n in ("Grizzly Bears", "Hill Giant"))
    g.next_turn(BIANCA)
    assert not any(g.obj(n).tapped for n in ("Grizzly Bears", "Hill Giant"))


# --------------------------------------------------------------------------- 800.4a: Equipment


def test_800_4a_301_5c_an_equipment_of_the_leaver_on_anothers_creature_leaves_the_game() -> None:
    # Alex steals Carissa's creature, equips it, and gives it back at end of turn with Gorgon
    # Flail still on it (301.5d). When Alex leaves, the Flail leaves with him: Carissa's
    # creature stays, unequipped.
    g = (Scene(3).battlefield(ALEX, "Gorgon Flail", *TREASON, "Wastes", "Wastes")
         .hand(ALEX, "Act of Treason").battlefield(CARISSA, "Runeclaw Bear").start())
    g.cast(ALEX, "Act of Treason", "Runeclaw Bear").resolve()
    g.activate(ALEX, "Gorgon Flail", "{2}", target="Runeclaw Bear").resolve()
    bear = g.obj("Runeclaw Bear")
    g.until("upkeep", BIANCA)
    assert bear.controller == CARISSA and g.obj("Gorgon Flail").attached_to == bear.oid
    assert _pt(g, bear) == (3, 3)
    g.concede(ALEX)
    assert g.objs("Gorgon Flail") == []
    assert g.obj("Runeclaw Bear").oid == bear.oid
    assert not any(o.attached_to == bear.oid for o in g.game.battlefield)
    assert _pt(g, bear) == (2, 2)


# --------------------------------------------------------------------------- 800.4a: copies


def _bianca_copies_alexs_bolt(bolt_at: int, copy_at: int | None = None, players: int = 3,
                              *more: str) -> tuple[G, Obj]:
    """Alex's Lightning Bolt aimed at ``bolt_at`` on the stack, and above it the copy Bianca's
    Twincast makes of it, aimed at ``copy_at`` (kept on the Bolt's target if None). ``more``
    goes into Bianca's hand."""
    g = (Scene(players).battlefield(ALEX, "Mountain").hand(ALEX, "Lightning Bolt")
         .battlefield(BIANCA, "Island", "Island").hand(BIANCA, "Twincast", *more).start())
    g.cast(ALEX, "Lightning Bolt", bolt_at).pass_()
    bolt = g.game.stack[-1]
    g.choose("cast", "Cast Twincast", player=BIANCA).target(bolt).resolve()
    if copy_at is None:
        g.choose("target", "Keep", player=BIANCA)
    else:
        g.choose("target", ref=("p", copy_at), player=BIANCA)
    return g, g.game.stack[-1]


def test_800_4a_a_copy_of_the_leavers_spell_made_by_another_player_stays() -> None:
    g, copy = _bianca_copies_alexs_bolt(CARISSA)
    assert copy.controller == BIANCA and copy.card is None
    g.concede(ALEX)
    # Alex's Bolt (a card he owns) left the game with him; Bianca's copy is hers (707.10):
    # it stays and resolves.
    assert g.game.stack == [copy]
    assert "Lightning Bolt" in [c.name for c in g.game.departed_cards[ALEX]]
    g.resolve()
    assert g.life(CARISSA) == 17


def test_800_4a_the_leavers_own_copy_of_their_spell_ceases_to_exist() -> None:
    g = (Scene(3).battlefield(ALEX, "Mountain", "Island", "Island")
         .hand(ALEX, "Lightning Bolt", "Twincast").start())
    g.cast(ALEX, "Lightning Bolt", BIANCA)
    g.cast(ALEX, "Twincast", g.game.stack[-1]).resolve()
    g.choose("target", "Keep", player=ALEX)
    assert [o.name for o in g.game.stack] == ["Lightning Bolt", "Lightning Bolt"]
    copy = g.game.stack[-1]
    g.concede(ALEX)
    # The copy was not a card: it ceases to exist (800.4a); no exile holds it.
    assert g.game.stack == [] and copy.oid not in g.game.objects
    assert g.game.exile == []
    assert g.decision.player == BIANCA and g.life(BIANCA) == 20


# --------------------------------------------------------------------------- 800.4a: others


def test_800_4a_506_4c_an_attacked_planeswalker_leaves_with_its_owner() -> None:
    g = (Scene(3).battlefield(ALEX, "Hill Giant").battlefield(BIANCA, "Jace Beleren")
         .at("begin_combat").start())
    g.pass_(3)
    jace = g.obj("Jace Beleren")
    g.attack(("Hill Giant", jace))
    g.concede(BIANCA)
    # The giant stays an attacking creature attacking nothing and deals no damage (506.4c).
    giant = g.obj("Hill Giant")
    assert g.objs("Jace Beleren") == [] and giant.attacking is not None
    g.until("combat_damage")
    assert not any("combat damage" in line for line in g.log)
    assert (g.life(ALEX), g.life(CARISSA)) == (20, 20)


def test_800_4a_603_7_a_delayed_trigger_of_the_leaver_never_fires() -> None:
    # Stone Giant's delayed "destroy that creature" is controlled by Alex; the creature it
    # names is Carissa's (stolen with Act of Treason). Alex leaves: nothing destroys it.
    g = (Scene(3).battlefield(ALEX, "Stone Giant", *TREASON).hand(ALEX, "Act of Treason")
         .battlefield(CARISSA, "Grizzly Bears").start())
    g.cast(ALEX, "Act of Treason", "Grizzly Bears").resolve()
    g.activate(ALEX, "Stone Giant", target="Grizzly Bears").resolve()
    assert len(g.game.delayed_triggers) == 1
    g.concede(ALEX)
    bears = g.obj("Grizzly Bears")
    assert bears.controller == CARISSA
    g.until("end", ALEX)
    assert g.game.stack == [] and g.game.delayed_triggers == []  # 800.4d: never triggered
    g.until("upkeep", BIANCA)
    assert g.obj("Grizzly Bears").oid == bears.oid


def test_800_4a_701_16a_telepathy_stops_revealing_when_its_controller_leaves() -> None:
    g = (Scene(4).battlefield(ALEX, "Island").hand(ALEX, "Telepathy")
         .hand(BIANCA, "Lightning Bolt").hand(CARISSA, "Grizzly Bears").start())
    g.cast(ALEX, "Telepathy").resolve()
    assert _seen(g, DMITRI, "Lightning Bolt") and _seen(g, SPECTATOR, "Grizzly Bears")
    g.concede(ALEX)
    assert not _seen(g, DMITRI, "Lightning Bolt") and not _seen(g, SPECTATOR, "Grizzly Bears")
    assert _seen(g, BIANCA, "Lightning Bolt")  # their own hands, as always


# --------------------------------------------------------------------------- extra turns


def test_800_4k_an_extra_turn_of_a_player_who_left_doesnt_begin_in_a_four_player_game() -> None:
    g = Scene(4).battlefield(ALEX, *BLUE5).hand(ALEX, "Time Warp").start()
    _warp(g, ALEX, CARISSA)
    assert g.game.extra_turns == [CARISSA]
    g.concede(CARISSA)
    # Carissa's extra turn doesn't begin; the normal order goes on from Alex's turn.
    assert _turns(g, 3) == [BIANCA, DMITRI, ALEX]
    assert g.game.extra_turns == []


def test_104_3a_800_4j_conceding_during_ones_own_extra_turn_the_game_goes_on() -> None:
    g = (Scene(3).battlefield(ALEX, *BLUE5, "Hill Giant").hand(ALEX, "Time Warp").start())
    _warp(g, ALEX, ALEX)
    g.next_turn(ALEX, "declare_attackers")
    assert g.game.turn == 2 and g.game.active == ALEX
    g.attack(("Hill Giant", BIANCA))
    g.concede(ALEX)
    # The extra turn goes on without its active player (800.4j); Alex's creature is gone.
    assert g.outcome(ALEX) == ("lost", "concession") and not g.table.finished
    assert g.game.active == ALEX and g.objs("Hill Giant") == []
    assert _turns(g, 2) == [BIANCA, CARISSA]
    assert g.life(BIANCA) == 20


def test_800_4j_603_7_each_end_step_triggers_in_the_turn_of_a_player_who_left() -> None:
    # Carissa's Bolt takes three counters off Bianca's Protean Hydra in Alex's turn; Alex
    # leaves. His turn still has its end step (800.4j), and that is the "next end step" of the
    # Hydra's delayed triggers: they put their counters on at once, not a turn later.
    g = (Scene(3).battlefield(BIANCA, "Protean Hydra", counters={"+1/+1": 4})
         .battlefield(CARISSA, "Mountain").hand(CARISSA, "Lightning Bolt").start())
    hydra = g.obj("Protean Hydra")
    g.pass_()
    g.pass_()
    g.cast(CARISSA, "Lightning Bolt", hydra).resolve_all()  # and the three triggers
    assert hydra.counters["+1/+1"] == 1 and len(g.game.delayed_triggers) == 3
    g.concede(ALEX)
    g.until("end", ALEX)
    assert g.game.active == ALEX and len(g.game.stack) == 3
    g.resolve_all()
    assert hydra.counters["+1/+1"] == 7 and g.game.delayed_triggers == []


# --------------------------------------------------------------------------- 724 and 726

# Alex's mana for Pacifism, Siege-Gang Commander, equip, Clone and Time Warp (18), and two
# Plains for Shahrazad.
FULL_LANDS = ("Plains", "Mountain", "Mountain", "Island", "Island", "Island") + ("Wastes",) * 12


def _full_table(scene: Scene) -> G:
    """Alex's main phase with everything of the set in play: Protean Hydra with +1/+1
    counters, Gorgon Flail on a Goblin token of Siege-Gang Commander, Pacifism on Bianca's
    Hill Giant, a Clone of it, Jace and Bianca's Ajani with their loyalty, Stone Giant's delayed
    trigger waiting (for the equipped token) and an extra turn of Alex's pending."""
    g = (scene.battlefield(ALEX, *FULL_LANDS, "Gorgon Flail", "Stone Giant")
         .battlefield(ALEX, "Protean Hydra", counters={"+1/+1": 3})
         .battlefield(ALEX, "Jace Beleren", counters={"loyalty": 3})
         .hand(ALEX, "Pacifism", "Siege-Gang Commander", "Clone", "Time Warp")
         .battlefield(BIANCA, "Hill Giant").battlefield(BIANCA, "Ajani Goldmane",
                                                         counters={"loyalty": 4})
         .start())
    g.cast(ALEX, "Pacifism", "Hill Giant").resolve()
    g.cast(ALEX, "Siege-Gang Commander").resolve().resolve()
    goblin = g.objs("Goblin Token", BATTLEFIELD)[0]
    g.activate(ALEX, "Gorgon Flail", "{2}", target=goblin).resolve()
    g.cast(ALEX, "Clone").resolve().choose("copy", "Copy Hill Giant")
    g.activate(ALEX, "Stone Giant", target=goblin).resolve()
    _warp(g, ALEX, ALEX)
    assert g.obj("Gorgon Flail").attached_to == goblin.oid
    assert len(g.objs("Hill Giant", BATTLEFIELD)) == 2  # Bianca's and Alex's Clone
    assert len(g.game.delayed_triggers) == 1 and g.game.extra_turns == [ALEX]
    return g


def test_724_1_724_2_a_restart_leaves_nothing_of_the_sets_objects_behind() -> None:
    g = _full_table(Scene(3).battlefield(ALEX, "Karn Liberated", counters={"loyalty": 14}))
    g.concede(CARISSA)  # she left before the restart: she isn't in the new game
    owned = {p: _cids(g.main, p) for p in (ALEX, BIANCA)}
    old = g.main
    g.activate(ALEX, "Karn Liberated", "\u221214").resolve()
    new = g.main
    assert new is not old and g.table.history[0].restarted
    # 724.1: a new game for the players still in it, by rule 103; 724.2: the same cards, each
    # with its owner, and nothing else: no token, counter, attachment, effect, delayed trigger
    # or extra turn of the old game.
    assert new.seats == [ALEX, BIANCA] and not new.in_game(CARISSA)
    assert {p: _cids(new, p) for p in (ALEX, BIANCA)} == owned
    assert all(o.card is not None and o.owner == o.card.owner for o in new.objects.values())
    assert new.battlefield == [] and new.stack == [] and new.exile == []
    assert not any(o.counters or o.attached_to is not None or o.controller != o.owner
                   for o in new.objects.values())
    assert (new.effects, new.delayed_triggers, new.extra_turns, new.pending_triggers) == \
        ([], [], [], [])
    assert [new.players[p].life for p in (ALEX, BIANCA)] == [20, 20]
    assert [len(new.hand(p)) for p in (ALEX, BIANCA)] == [7, 7]
    assert "Clone" in [o.name for o in new.objects.values()]  # a card again, copying nothing
    g.keep_hands()
    # 724.1a: Alex starts; no extra turn of the old game is taken: turns alternate.
    assert (new.turn, new.active) == (1, ALEX)
    assert _turns(g, 2) == [BIANCA, ALEX]


def _board(game: Game) -> list[tuple[object, ...]]:
    """What the main game's permanents are: everything a subgame must leave alone."""
    return sorted((o.oid, o.name, o.owner, o.controller, o.is_token, o.tapped, o.attached_to,
                   tuple(sorted(o.counters.items()))) for o in game.battlefield)


def test_726_4_726_5_a_subgame_leaves_the_main_games_objects_as_they_were() -> None:
    g = _full_table(Scene().battlefield(ALEX, "Plains", "Plains").hand(ALEX, "Shahrazad"))
    main = g.main
    libraries = {p: _cids(main, p, LIBRARY) for p in (ALEX, BIANCA)}
    g.cast(ALEX, "Shahrazad")
    board = _board(main)  # Shahrazad's Plains are tapped now
    while g.table.top is main:
        g.pass_()
    sub = g.game
    suspended = game_state(main)
    # 726.2: only the libraries went in; the main game's permanents are outside (726.4).
    assert sub.battlefield == [] and {p: _cids(sub, p) for p in (ALEX, BIANCA)} == libraries
    g.keep_hands()
    g.next_turn(sub.active)
    assert game_state(main) == suspended  # nothing of the main game moved meanwhile
    g.concede(BIANCA)  # Bianca concedes the subgame: Alex won it
    assert g.table.top is main and main.in_game(BIANCA)
    # 726.5: the libraries are back; the permanents, counters, loyalty, attachments, token,
    # copy, delayed trigger and extra turn are as they were. Shahrazad: Bianca, who didn't win,
    # loses half her life, rounded up.
    assert {p: _cids(main, p, LIBRARY) for p in (ALEX, BIANCA)} == libraries
    assert _board(main) == board
    assert len(main.delayed_triggers) == 1 and main.extra_turns == [ALEX]
    assert (g.life(ALEX, main), g.life(BIANCA, main)) == (20, 10)
    # The main game goes on: at this turn's end step Stone Giant destroys the equipped token;
    # the token ceases to exist (704.5d) and Gorgon Flail stays, unattached (704.5n, 301.5c).
    goblins = len(g.objs("Goblin Token", BATTLEFIELD))
    g.until("end", ALEX).resolve()
    assert len(g.objs("Goblin Token", BATTLEFIELD)) == goblins - 1
    assert not any(o.is_token for o in main.objects.values() if o.zone != BATTLEFIELD)
    assert g.obj("Gorgon Flail").attached_to is None
    assert _turns(g, 1) == [ALEX]  # the extra turn


# --------------------------------------------------------------------------- 704 all at once


def test_704_5d_704_5m_704_5n_one_sweep_kills_tokens_under_equipment_and_an_enchanted_creature(
) -> None:
    g = (Scene().battlefield(ALEX, "Plains", "Mountain", "Mountain", "Mountain", *["Wastes"] * 7,
                             "Gorgon Flail")
         .battlefield(ALEX, "Protean Hydra", counters={"+1/+1": 3})
         .hand(ALEX, "Siege-Gang Commander", "Pacifism", "Pyroclasm")
         .battlefield(BIANCA, "Grizzly Bears").start())
    g.cast(ALEX, "Siege-Gang Commander").resolve().resolve()
    goblin = g.objs("Goblin Token", BATTLEFIELD)[0]
    g.activate(ALEX, "Gorgon Flail", "{2}", target=goblin).resolve()
    g.cast(ALEX, "Pacifism", "Grizzly Bears").resolve()
    g.cast(ALEX, "Pyroclasm").resolve()
    # One sweep: the creatures with lethal damage die together (704.5g); at the next check
    # Pacifism, enchanting nothing, goes to its owner's graveyard (704.5m), Gorgon Flail stays
    # unattached (704.5n, 301.5c) and the tokens that went to the graveyard cease to exist
    # (704.5d). The Hydra's damage was prevented, its counters removed instead.
    assert sorted(g.zone_names(GRAVEYARD, ALEX)) == ["Pacifism", "Pyroclasm",
                                                     "Siege-Gang Commander"]
    assert g.zone_names(GRAVEYARD, BIANCA) == ["Grizzly Bears"]
    assert g.objs("Goblin Token") == []
    flail = g.obj("Gorgon Flail")
    assert flail.attached_to is None and flail.zone == BATTLEFIELD
    assert g.obj("Protean Hydra").counters["+1/+1"] == 1


# --------------------------------------------------------------------------- more of 800.4a


def test_800_4a_506_4_a_creature_stolen_by_the_leaver_leaves_combat_with_its_new_controller(
) -> None:
    g = (Scene(3).battlefield(ALEX, *TREASON).hand(ALEX, "Act of Treason")
         .battlefield(CARISSA, "Hill Giant").start())
    g.cast(ALEX, "Act of Treason", "Hill Giant").resolve()
    g.until("declare_attackers", ALEX).attack(("Hill Giant", BIANCA))
    assert g.obj("Hill Giant").attacking == ("p", BIANCA)
    g.concede(ALEX)
    # Control goes back to Carissa (800.4a), which removes it from combat (506.4).
    giant = g.obj("Hill Giant")
    assert giant.controller == CARISSA and giant.attacking is None
    g.until("end", ALEX)
    assert (g.life(BIANCA), g.life(CARISSA)) == (20, 20)


def test_800_4a_603_7c_a_delayed_trigger_about_a_creature_that_left_with_its_owner() -> None:
    # Bianca's Stone Giant marks Alex's creature, stolen with Act of Treason; Alex leaves and
    # takes it with him. Her delayed trigger still triggers and finds nothing to destroy.
    g = (Scene(3).battlefield(BIANCA, "Stone Giant", *TREASON).hand(BIANCA, "Act of Treason")
         .battlefield(ALEX, "Grizzly Bears").at("main1", BIANCA).start())
    g.cast(BIANCA, "Act of Treason", "Grizzly Bears").resolve()
    g.activate(BIANCA, "Stone Giant", target="Grizzly Bears").resolve()
    g.concede(ALEX)
    assert g.objs("Grizzly Bears") == []
    g.until("end", BIANCA)
    assert [o.name for o in g.game.stack] == ["Stone Giant"]
    g.resolve()
    assert g.game.stack == [] and g.obj("Stone Giant").zone == BATTLEFIELD
    assert g.zone_names(GRAVEYARD, BIANCA) == ["Act of Treason"]


def test_800_4a_608_2b_a_copy_aimed_at_the_leaver_does_nothing() -> None:
    g, copy = _bianca_copies_alexs_bolt(BIANCA, ALEX)  # the copy's target is changed to Alex
    assert copy.targets == [("p", ALEX)]
    g.concede(ALEX)
    assert g.game.stack == [copy]
    g.resolve()
    assert g.game.stack == [] and [g.life(p) for p in (BIANCA, CARISSA)] == [20, 20]


def test_800_4a_707_2_a_clone_of_the_leavers_creature_stays_what_it_copied() -> None:
    g = (Scene(3).battlefield(ALEX, "Serra Angel")
         .battlefield(BIANCA, "Island", "Wastes", "Wastes", "Wastes").hand(BIANCA, "Clone")
         .at("main1", BIANCA).start())
    g.cast(BIANCA, "Clone").resolve().choose("copy", "Copy Serra Angel")
    g.concede(ALEX)
    assert g.objs("Serra Angel", controller=ALEX) == []
    (clone,) = g.objs("Serra Angel", BATTLEFIELD)
    # Its copiable values were fixed as it entered (707.2); the original leaving changes
    # nothing.
    assert clone.owner == BIANCA and clone.card is not None and clone.card.name == "Clone"
    assert _pt(g, clone) == (4, 4)


def test_506_4_an_attacker_whose_control_effect_ends_mid_combat_is_removed_from_combat() -> None:
    g = (Scene(3).battlefield(ALEX, *BLUE5).hand(ALEX, "Mind Control")
         .battlefield(BIANCA, "Serra Angel")
         .battlefield(CARISSA, "Forest", "Wastes").hand(CARISSA, "Naturalize").start())
    g.cast(ALEX, "Mind Control", "Serra Angel").resolve()
    g.next_turn(ALEX, "declare_attackers").attack(("Serra Angel", CARISSA))
    while g.decision.player != CARISSA:
        g.pass_()
    g.cast(CARISSA, "Naturalize", "Mind Control").resolve()
    angel = g.obj("Serra Angel")
    assert angel.controller == BIANCA and angel.attacking is None
    g.until("end", ALEX)
    assert g.life(CARISSA) == 20


def test_800_4a_a_creature_the_leaver_reanimated_is_exiled() -> None:
    # Rise from the Grave puts Bianca's creature onto the battlefield under Alex's control: no
    # effect gives it to anyone else when he leaves, so it is exiled (800.4a's last step), a
    # new object that is no Zombie any more (400.7).
    g = (Scene(3).battlefield(ALEX, "Swamp", *["Wastes"] * 4).hand(ALEX, "Rise from the Grave")
         .graveyard(BIANCA, "Serra Angel").start())
    g.cast(ALEX, "Rise from the Grave", g.obj("Serra Angel", GRAVEYARD)).resolve()
    assert g.obj("Serra Angel").controller == ALEX
    g.concede(ALEX)
    assert g.objs("Serra Angel", BATTLEFIELD) == []
    exiled = g.obj("Serra Angel", "exile")
    assert exiled.owner == BIANCA and not any(e.affected == exiled.oid for e in g.game.effects)


def test_800_4a_an_opponents_aura_stays_on_the_creature_the_leaver_had_stolen() -> None:
    # Bianca pacifies Carissa's Hill Giant while Alex controls it with Mind Control; Alex
    # leaves: the giant goes back to Carissa, and Bianca's Aura stays on it (still legal).
    g = (Scene(3).battlefield(ALEX, *BLUE5).hand(ALEX, "Mind Control")
         .battlefield(BIANCA, "Plains", "Wastes").hand(BIANCA, "Pacifism")
         .battlefield(CARISSA, "Hill Giant").start())
    g.cast(ALEX, "Mind Control", "Hill Giant").resolve()
    g.until("main1", BIANCA)
    g.cast(BIANCA, "Pacifism", "Hill Giant").resolve()
    giant, pacifism = g.obj("Hill Giant"), g.obj("Pacifism")
    assert giant.controller == ALEX
    g.concede(ALEX)
    g.pass_()  # a state-based check has been made
    assert giant.controller == CARISSA and pacifism.attached_to == giant.oid
    assert pacifism.zone == BATTLEFIELD and pacifism.controller == BIANCA


def test_800_4a_an_extra_turn_the_leaver_gave_another_player_is_still_taken() -> None:
    g = Scene(3).battlefield(ALEX, *BLUE5).hand(ALEX, "Time Warp").start()
    _warp(g, ALEX, CARISSA)
    g.concede(ALEX)
    # The extra turn is Carissa's (500.7): Alex leaving doesn't take it away.
    assert g.game.extra_turns == [CARISSA]
    assert _turns(g, 3) == [CARISSA, BIANCA, CARISSA]


def test_724_2_a_copy_of_a_spell_on_the_stack_is_no_card_of_the_new_game() -> None:
    # Second Beginning is the test pool's instant "Restart the game.", for a moment Karn
    # can't reach: a Bolt and Bianca's Twincast copy of it on the stack.
    g, _ = _bianca_copies_alexs_bolt(BIANCA, None, 2, "Second Beginning")
    assert [o.card is None for o in g.game.stack] == [False, True]
    owned = {p: _cids(g.main, p) for p in (ALEX, BIANCA)}
    g.pass_()
    g.cast(BIANCA, "Second Beginning").resolve()
    new = g.main
    # 724.2: the Bolt card is in the new game; the copy, no card, is not (707.10a).
    assert {p: _cids(new, p) for p in (ALEX, BIANCA)} == owned
    assert new.stack == [] and all(o.card is not None for o in new.objects.values())
    assert new.starting_player == BIANCA  # 724.1a
    g.keep_hands()
    assert [g.life(p) for p in (ALEX, BIANCA)] == [20, 20]


def test_800_4a_726_conceding_the_main_game_from_a_subgame_ends_what_the_player_controlled(
) -> None:
    # Alex controls Bianca's Serra Angel (Mind Control) and has Pacifism on Carissa's Hill
    # Giant when Bianca's Shahrazad starts a subgame. From inside it Alex concedes the main
    # game: there 800.4a takes his cards and ends his control; the subgame goes on without him.
    g = (Scene(3).battlefield(ALEX, *BLUE5, "Plains", "Wastes")
         .hand(ALEX, "Mind Control", "Pacifism")
         .battlefield(BIANCA, "Serra Angel", "Plains", "Plains").hand(BIANCA, "Shahrazad")
         .battlefield(CARISSA, "Hill Giant").start())
    main = g.main
    g.cast(ALEX, "Mind Control", "Serra Angel").resolve()
    g.cast(ALEX, "Pacifism", "Hill Giant").resolve()
    g.until("main1", BIANCA)
    g.cast(BIANCA, "Shahrazad")
    while g.table.top is main:
        g.pass_()
    sub = g.game
    g.keep_hands()
    g.concede(ALEX, main.number)
    assert not main.in_game(ALEX) and not sub.in_game(ALEX) and g.table.top is sub
    assert g.obj("Serra Angel", game=main).controller == BIANCA
    assert g.objs("Mind Control", game=main) == [] and g.objs("Pacifism", game=main) == []
    g.concede(CARISSA, sub.number)  # Bianca wins the subgame
    assert g.table.top is main and main.in_game(CARISSA)
    assert (g.life(BIANCA, main), g.life(CARISSA, main)) == (20, 10)
    assert g.obj("Serra Angel").controller == BIANCA


def test_726_2_726_5_counters_put_in_a_subgame_stay_there_and_its_cards_go_home() -> None:
    # Alex's library (four Forests, four Protean Hydras: every opening hand of seven holds
    # three of each) becomes his subgame library. He plays a Hydra with a counter there; when
    # Bianca concedes the subgame the card goes back into his main-game library with the rest,
    # and the counter ceases to exist with the subgame (726.4b, 726.5).
    g = (Scene().battlefield(ALEX, "Plains", "Plains").hand(ALEX, "Shahrazad")
         .battlefield(ALEX, "Protean Hydra", counters={"+1/+1": 2})
         .library(ALEX, *["Forest", "Protean Hydra"] * 4).start())
    main = g.main
    library = _cids(main, ALEX, LIBRARY)
    g.cast(ALEX, "Shahrazad")
    while g.table.top is main:
        g.pass_()
    sub = g.game
    g.keep_hands()
    _own_main_phase(g, ALEX).play_land(ALEX, "Forest")
    _next_own_main(g, ALEX).play_land(ALEX, "Forest")
    g.choose("cast", "Cast Protean Hydra").choose("x", "X = 1").resolve()
    (hydra,) = g.objs("Protean Hydra", BATTLEFIELD, game=sub)
    assert hydra.counters == {"+1/+1": 1}
    g.concede(BIANCA)
    assert g.table.top is main and _cids(main, ALEX, LIBRARY) == library
    assert [o.counters for o in g.objs("Protean Hydra", BATTLEFIELD)] == [{"+1/+1": 2}]
    assert g.life(BIANCA, main) == 10


def _alex_leaves_while_asked(g: G, kind: str, resolving: str) -> None:
    """Alex concedes while ``resolving`` asks him ``kind``: after his loss the log says only
    that it stops resolving (800.4a), nothing more done in his name."""
    assert (g.decision.kind, g.decision.player) == (kind, ALEX)
    g.concede(ALEX)
    loss = "A loses the game (concession, CR 104.3a)."
    assert g.log[g.log.index(loss):] == [
        loss, f"{resolving} stops resolving: its controller has left the game."]


def test_800_4a_leaving_while_choosing_convincing_mirages_land_type() -> None:
    # "As it enters, choose a basic land type" (614.12) is asked with Convincing Mirage on the
    # battlefield; Alex leaves instead of answering. The Aura left with him: nobody chose a
    # type for it and the log must not say it entered under his control.
    g = (Scene(3).battlefield(ALEX, "Island", "Wastes").hand(ALEX, "Convincing Mirage")
         .battlefield(BIANCA, "Forest").start())
    g.cast(ALEX, "Convincing Mirage", "Forest").pass_(3)
    _alex_leaves_while_asked(g, "land_type", "Convincing Mirage")
    assert g.objs("Convincing Mirage") == []
    assert set(subtypes(g.game, g.obj("Forest"))) == {"Forest"}
    assert g.decision.player == BIANCA


def test_800_4a_leaving_while_searching_with_liliana_vess() -> None:
    g = (Scene(3).battlefield(ALEX, "Liliana Vess", counters={"loyalty": 5})
         .library(ALEX, "Wastes", "Lightning Bolt", "Wastes").start())
    g.activate(ALEX, "Liliana Vess", "\u22122").pass_(3)
    # The search ends with him: no shuffle or card on top is reported for a departed player.
    _alex_leaves_while_asked(g, "search", "Liliana Vess")
    assert g.game.stack == [] and g.decision.player == BIANCA


def test_726_3_a_library_milled_short_loses_the_subgame_at_its_first_upkeep() -> None:
    # Tome Scour leaves Bianca five cards; Shahrazad's subgame deals her all five, and she
    # loses it when state-based actions are first checked, in the first upkeep (726.3, 704.5b),
    # whatever she does with her hand. Back in the main game she has her five cards again.
    g = (Scene().battlefield(ALEX, "Island", "Plains", "Plains").hand(ALEX, "Tome Scour",
                                                                      "Shahrazad")
         .library(BIANCA, *["Wastes"] * 5, *["Grizzly Bears"] * 5).start())
    main = g.main
    g.cast(ALEX, "Tome Scour", BIANCA).resolve()
    left = _cids(main, BIANCA, LIBRARY)
    assert len(left) == 5 and g.zone_names(GRAVEYARD, BIANCA) == ["Wastes"] * 5
    g.cast(ALEX, "Shahrazad")
    while g.table.top is main:
        g.pass_()
    sub = g.game
    assert len(sub.hand(BIANCA)) == 5 and sub.library(BIANCA) == []
    g.keep_hands()
    result = g.table.history[-1]
    assert result.game == sub.number and result.winners == (ALEX,)
    outcome = result.outcome_of(BIANCA)
    assert outcome is not None and outcome.reason == "decking"
    assert g.table.top is main and main.in_game(BIANCA)
    assert _cids(main, BIANCA, LIBRARY) == left and g.life(BIANCA, main) == 10


def test_726_1b_a_main_game_telepathy_reveals_nothing_in_the_subgame() -> None:
    g = (Scene().battlefield(ALEX, "Telepathy", "Plains", "Plains").hand(ALEX, "Shahrazad")
         .hand(BIANCA, "Lightning Bolt").library(BIANCA, *["Grizzly Bears"] * 10).start())
    assert _seen(g, ALEX, "Lightning Bolt") and _seen(g, SPECTATOR, "Lightning Bolt")
    g.cast(ALEX, "Shahrazad")
    while g.table.top is g.main:
        g.pass_()
    g.keep_hands()
    # Bianca's subgame hand is all Grizzly Bears: no effect of the main game means anything in
    # the subgame (726.1b), so nobody but her sees it.
    assert _seen(g, BIANCA, "Grizzly Bears")
    assert not _seen(g, ALEX, "Grizzly Bears") and not _seen(g, SPECTATOR, "Grizzly Bears")
    g.concede(BIANCA)
    assert g.table.top is g.main and _seen(g, SPECTATOR, "Lightning Bolt")


def test_724_4_724_5_karns_exiled_clone_enters_the_new_game_with_nothing_to_copy() -> None:
    # Karn exiles Bianca's Clone (a copy of Alex's Serra Angel) and a Goblin token. The token
    # ceased to exist in exile (704.5d); the Clone card is left out of the new decks (724.5)
    # and enters under Alex's control just before the first untap step (724.4), when no
    # creature is on the battlefield to copy (707.2): a 0/0, it dies at the first check.
    g = (Scene().battlefield(ALEX, "Karn Liberated", counters={"loyalty": 20})
         .battlefield(ALEX, "Serra Angel")
         .battlefield(BIANCA, "Island", "Wastes", "Wastes", "Wastes", *["Mountain"] * 5)
         .hand(BIANCA, "Clone", "Siege-Gang Commander").at("main1", BIANCA).start())
    g.cast(BIANCA, "Clone").resolve().choose("copy", "Copy Serra Angel")
    g.cast(BIANCA, "Siege-Gang Commander").resolve().resolve()
    g.next_turn(ALEX)
    g.activate(ALEX, "Karn Liberated", "\u22123", target=g.objs("Goblin Token")[0]).resolve()
    assert g.objs("Goblin Token", "exile") == []
    g.next_turn(ALEX)
    clone = g.obj("Serra Angel", controller=BIANCA)
    g.activate(ALEX, "Karn Liberated", "\u22123", target=clone).resolve()
    clone_card = g.obj("Clone", "exile").card
    g.next_turn(ALEX)
    g.activate(ALEX, "Karn Liberated", "\u221214").resolve()
    new = g.main
    assert [o.card for o in new.exile] == [clone_card]
    g.keep_hands()
    assert (new.turn, new.step, g.decision.kind) == (1, "upkeep", "priority")
    assert new.battlefield == [] and g.zone_names(GRAVEYARD, BIANCA) == ["Clone"]
    assert not any(o.is_token for o in new.objects.values())
