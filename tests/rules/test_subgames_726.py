"""Subgames (CR 726) with Shahrazad, and the test-only instant Tale Within a Tale (Shahrazad's
effect for {0}) where a subgame must start at a moment a sorcery can't.

Subgame hands are dealt from shuffled libraries, so the libraries here are built so that every
possible opening hand holds what a test needs (a card with c copies in an n-card library is in
every 7-card hand when n - c < 7)."""

from __future__ import annotations

import pytest

from arbiter.server.rules.cards.vocab import CREATURE_OR_LAND_CARD
from arbiter.server.rules.game import Game
from arbiter.server.rules.hashing import game_state
from arbiter.server.rules.state import BATTLEFIELD, COMMAND, GRAVEYARD, HAND, LIBRARY

from .helpers import G, Scene


def _cids(game: Game, pid: int, zone: str | None = None) -> set[int]:
    return {o.card.cid for o in game.objects.values()
            if o.card is not None and o.owner == pid and (zone is None or o.zone == zone)}


def _priority_for(g: G, pid: int, step: str | None = None) -> G:
    """Keep hands and pass until ``pid`` holds priority in the top game (in ``step``)."""
    for _ in range(300):
        d = g.decision
        if d.kind == "priority" and d.player == pid and (step is None or g.game.step == step):
            return g
        g.step_on()
    raise AssertionError(f"player {pid} never got priority")


def _own_main_phase(g: G, pid: int, *, next_turn: bool = False) -> G:
    """Pass (keeping hands) until ``pid`` has priority in their own precombat main phase of
    the top game: this turn's if it is theirs and ``next_turn`` is false, else their next."""
    game = g.game
    start = game.turn
    for _ in range(300):
        d = g.decision
        if (game.active == pid and game.step == "main1" and d.kind == "priority"
                and d.player == pid and not (next_turn and game.turn == start)):
            return g
        g.step_on()
    raise AssertionError(f"player {pid} never reached their main phase")


def _next_own_main(g: G, pid: int) -> G:
    return _own_main_phase(g, pid, next_turn=True)


def _shahrazad(scene: Scene, pid: int = 0) -> Scene:
    return scene.battlefield(pid, "Plains", "Plains").hand(pid, "Shahrazad")


def _start_subgame(g: G, pid: int = 0) -> G:
    g.cast(pid, "Shahrazad")
    while g.table.top is g.main:
        g.pass_()
    return g


# --------------------------------------------------------------------------- 726.1


def test_726_1a_the_main_game_is_discontinued_and_resumes_where_it_stopped() -> None:
    g = (_shahrazad(Scene()).battlefield(1, "Hill Giant").hand(0, "Serra Angel")
         .graveyard(1, "Lightning Bolt").at("main1", active=0, turn=5).start())
    main = g.main
    _start_subgame(g)
    sub = g.game
    assert main.suspended and main.pending is None
    assert g.decision.game == sub.number  # every decision now belongs to the subgame
    suspended = game_state(main)
    g.keep_hands()
    _priority_for(g, 1)
    g.next_turn(g.game.active)  # a turn or two of the subgame
    assert game_state(main) == suspended  # nothing happens to the main game meanwhile
    g.concede(1)  # player 1 concedes the subgame
    assert g.table.top is main and not main.suspended
    # Shahrazad finished resolving, then play goes on from the same moment: turn 5, 0's main
    # phase, 0 holding priority with an empty stack.
    assert (main.turn, main.active, main.step) == (5, 0, "main1")
    assert g.decision.kind == "priority" and g.decision.player == 0
    assert g.decision.game == main.number
    assert main.stack == [] and g.zone_names(GRAVEYARD, 0, main) == ["Shahrazad"]
    assert [o.name for o in main.battlefield if o.owner == 1] == ["Hill Giant"]


def test_726_1b_nothing_from_the_main_game_means_anything_in_the_subgame() -> None:
    # Platinum Angel says its controller can't lose; Blood Tyrant watches for players losing
    # the game. Neither is in the subgame, so neither applies there (and player 0's short
    # library makes them lose the subgame at its first upkeep, CR 726.3).
    g = (_shahrazad(Scene()).battlefield(0, "Platinum Angel").battlefield(1, "Blood Tyrant")
         .library(0, "Wastes", "Wastes", "Wastes").life(0, 5).poison(1, 9).start())
    main = g.main
    _start_subgame(g)
    sub = g.game
    # A subgame is a new game: starting life, no counters (CR 726.4b).
    assert [sub.players[p].life for p in (0, 1)] == [20, 20]
    assert sub.players[1].poison == 0
    g.keep_hands()
    assert g.table.top is main  # 0 lost the subgame despite the main-game Platinum Angel
    sub_result = g.table.history[-1]
    assert sub_result.winners == (1,)
    assert sub_result.outcome_of(0).reason == "decking"
    # Back in the main game: Shahrazad made 0 lose half their life, rounded up (5 -> 2); the
    # subgame loss didn't trigger Blood Tyrant, and the main game goes on.
    assert g.life(0, main) == 2 and main.in_game(0)
    assert g.obj("Blood Tyrant", game=main).counters == {}
    assert main.pending_triggers == [] and main.stack == []


# --------------------------------------------------------------------------- 726.2


def test_726_2_libraries_become_subgame_libraries_and_the_rest_stays_behind() -> None:
    g = (_shahrazad(Scene()).hand(0, "Hill Giant").graveyard(0, "Lightning Bolt")
         .exile(1, "Serra Angel").battlefield(1, "Grizzly Bears")
         .library(0, *[f"{n}" for n in ["Forest", "Island"] * 6])
         .library(1, *["Wastes"] * 15).start())
    main = g.main
    g.cast(0, "Shahrazad")
    libraries = {p: [o.card.cid for o in main.library(p)] for p in (0, 1)}
    elsewhere = {p: {(o.oid, o.zone) for o in main.objects.values()
                     if o.owner == p and o.zone != LIBRARY} for p in (0, 1)}
    g.pass_(2)
    sub = g.game
    assert sub is not main
    for p in (0, 1):
        assert main.library(p) == []
        # Every card of the main-game library is in the subgame (drawn or still in the
        # library), and nothing else is.
        assert _cids(sub, p) == set(libraries[p])
        # Everything else stays where it was in the main game, as the same objects.
        assert {(o.oid, o.zone) for o in main.objects.values() if o.owner == p} == \
            elsewhere[p]
    assert sub.battlefield == [] and sub.exile == [] and sub.graveyard(0) == []
    # CR 103 as usual: seven-card hands and mulligan decisions.
    assert [len(sub.hand(p)) for p in (0, 1)] == [7, 7]
    assert g.decision.kind == "mulligan"
    # The libraries were shuffled: player 0's twelve cards are not in their old order.
    order = [o.card.cid for o in sub.hand(0)] + [o.card.cid for o in reversed(sub.library(0))]
    assert order != list(reversed(libraries[0]))


def test_726_2_the_subgame_starting_player_is_random_and_the_events_say_so() -> None:
    starters = set()
    for seed in range(8):
        g = _start_subgame(_shahrazad(Scene()).start(seed))
        sub = g.game
        (ev,) = [e for e in g.events if e.kind == "subgame_started"]
        assert ev.data["game"] == sub.number and ev.data["parent"] == g.main.number
        assert ev.data["depth"] == 1 and ev.data["players"] == [0, 1]
        assert ev.data["starting_player"] == sub.starting_player
        assert g.decision.player == sub.starting_player  # the starter decides on a mulligan
        starters.add(sub.starting_player)
        if seed == 0:
            g.keep_hands()
            sp = sub.starting_player
            g.until("main1", sp)
            assert len(sub.hand(sp)) == 7  # CR 103.8a: a two-player subgame, no first draw
    assert starters == {0, 1}  # not always Shahrazad's controller


def test_726_2_a_mulligan_in_a_subgame_works_as_in_any_game() -> None:
    g = _start_subgame(_shahrazad(Scene()).start())
    sub = g.game
    first = g.decision.player
    g.choose("mulligan", player=first)
    g.choose("keep", player=1 - first)
    g.choose("bottom", player=first)
    g.choose("keep", player=first)
    assert len(sub.hand(first)) == 6 and sub.players[first].mulligans == 1


def test_726_2c_and_726_5c_commanders_move_to_the_subgame_and_back() -> None:
    scene = (Scene(variant="commander").battlefield(0, "Plains", "Plains")
             .hand(0, "Shahrazad").commander(0, "Isamaru, Hound of Konda")
             .battlefield(1, "Phage the Untouchable").library(0, *["Plains"] * 12))
    scene.setups[1].commander = "Phage the Untouchable"
    g = scene.start()
    main = g.main
    isamaru = g.obj("Isamaru, Hound of Konda", COMMAND).card.cid
    _start_subgame(g)
    sub = g.game
    # Player 0's commander was in the main-game command zone: it moves to the subgame's. Player
    # 1's is on the main-game battlefield, so it stays there.
    assert [o.card.cid for o in sub.command] == [isamaru]
    assert main.command == []
    assert [o.name for o in main.battlefield if o.owner == 1] == ["Phage the Untouchable"]
    g.keep_hands()
    g.concede(1)
    assert [o.card.cid for o in main.command] == [isamaru]  # CR 726.5c
    assert isamaru not in _cids(main, 0, LIBRARY)


@pytest.mark.parametrize("choice", ["yes", "no"])
def test_726_5c_a_commander_out_of_the_subgame_command_zone_goes_to_the_library(
        choice: str) -> None:
    scene = (Scene(variant="commander").battlefield(0, "Plains", "Plains")
             .hand(0, "Shahrazad").commander(0, "Isamaru, Hound of Konda")
             .commander(1, "Phage the Untouchable").library(0, *["Plains"] * 12).life(1, 30))
    g = scene.start()
    main = g.main
    isamaru = g.obj("Isamaru, Hound of Konda", COMMAND).card.cid
    _start_subgame(g)
    g.keep_hands()
    _own_main_phase(g, 0)
    g.play_land(0, "Plains")
    g.choose("cast", "Cast Isamaru", player=0).resolve()
    assert g.obj("Isamaru, Hound of Konda").is_commander
    g.concede(1)
    # CR 726.5 excepts only the subgame command zone: a commander elsewhere in the subgame
    # would go into its owner's main-game library with the rest, and CR 903.9b lets its owner
    # put it into the command zone instead. The choice comes before Shahrazad finishes.
    assert g.table.top is main
    assert g.decision.kind == "commander_zone" and g.decision.player == 0
    assert isamaru in _cids(main, 0, LIBRARY) and g.life(1, main) == 30
    g.choose(choice, player=0)
    if choice == "yes":
        assert [o.card.cid for o in main.command if o.owner == 0] == [isamaru]
        assert isamaru not in _cids(main, 0, LIBRARY)
    else:
        assert isamaru in _cids(main, 0, LIBRARY)
    # Player 1 conceded the subgame: their cards were set aside, their commander with them,
    # and come back into their library now, so they too get 903.9b's choice.
    assert g.decision.kind == "commander_zone" and g.decision.player == 1
    g.choose("yes", player=1)
    assert [o.name for o in main.command if o.owner == 1] == ["Phage the Untouchable"]
    assert g.life(1, main) == 15 and g.decision.kind == "priority"


# --------------------------------------------------------------------------- 726.3


def test_726_3_fewer_than_seven_cards_loses_the_subgame_at_its_first_upkeep() -> None:
    g = (_shahrazad(Scene()).library(1, *["Wastes"] * 6).life(1, 9).start())
    main = g.main
    _start_subgame(g)
    sub = g.game
    assert len(sub.hand(1)) == 6
    mulliganed = False
    while not (mulliganed and g.decision.kind == "mulligan" and g.decision.player == 1):
        d = g.decision
        if d.kind == "mulligan" and d.player == 1:
            g.choose("mulligan")
            mulliganed = True
        else:
            g.step_on()  # player 0 keeps; player 1 puts a card on the bottom
    assert sub.in_game(1) and sub.step == "setup"  # mulligans don't make them lose
    assert sub.players[1].mulligans == 1
    g.keep_hands()
    result = g.table.history[-1]
    assert result.game == sub.number and result.winners == (0,)
    out = result.outcome_of(1)
    assert (out.outcome, out.reason, out.turn) == ("lost", "decking", 1)
    # Back in the main game: player 1 didn't win, so they lose half their life, rounded up.
    assert g.table.top is main and g.life(1, main) == 4 and g.life(0, main) == 20


# --------------------------------------------------------------------------- 726.4 / 726.5

WISH_LIBRARY = ("Living Wish",) * 4 + ("Forest",) * 4 + ("Wastes",) * 2


def _wish_scene() -> Scene:
    return (_shahrazad(Scene()).battlefield(0, "Grizzly Bears", "Grave Sentinel")
            .graveyard(0, "Hill Giant").hand(0, "Serra Angel").exile(0, "Assault Griffin")
            .sideboard(0, "Llanowar Elves").battlefield(1, "Runeclaw Bear")
            .graveyard(1, "Glistener Elf").library(0, *WISH_LIBRARY))


def _cast_living_wish_in_subgame(g: G) -> G:
    """Two land drops in player 0's subgame turns, then Living Wish."""
    g.keep_hands()
    for turn in range(2):
        _own_main_phase(g, 0, next_turn=turn > 0)
        g.play_land(0, "Forest" if g.find("play_land", "Play Forest") else "Wastes")
    g.cast(0, "Living Wish").resolve()
    assert g.decision.kind == "wish"
    return g


def test_726_4_main_game_objects_and_the_sideboard_are_outside_the_subgame() -> None:
    g = _wish_scene().start()
    main = g.main
    _start_subgame(g)
    _cast_living_wish_in_subgame(g)
    offered = [a.label for a in g.decision.actions if a.kind == "choose_outside"]
    m = main.number
    # Player 0's own creature and land cards: the sideboard, and every main-game zone.
    for label in ("Llanowar Elves (sideboard)", f"Grizzly Bears (game {m} battlefield)",
                  f"Plains (game {m} battlefield)", f"Hill Giant (game {m} graveyard)",
                  f"Serra Angel (game {m} hand)", f"Assault Griffin (game {m} exile)"):
        assert f"Put {label} into your hand" in offered, label
    # Not other players' cards, and nothing that is in the subgame itself.
    assert not any("Runeclaw" in x or "Glistener" in x for x in offered)
    assert not any(f"game {g.game.number}" in x for x in offered)
    g.choose("choose_outside", f"Hill Giant (game {m} graveyard)")
    giant = g.obj("Hill Giant", HAND)
    assert giant.owner == 0 and g.game is not main
    assert g.zone_names(GRAVEYARD, 0, main) == []  # it left the main game


def test_726_4_a_creature_taken_from_a_main_game_combat_leaves_that_combat() -> None:
    g = (Scene().battlefield(0, "Grizzly Bears").battlefield(1, "Runeclaw Bear")
         .hand(1, "Tale Within a Tale").library(0, *WISH_LIBRARY).at("begin_combat").start())
    main = g.main
    g.pass_(2).attack(("Grizzly Bears", 1)).pass_(2)
    g.block(1, ("Runeclaw Bear", "Grizzly Bears")).pass_()
    g.cast(1, "Tale Within a Tale").pass_(2)  # a subgame in the declare blockers step
    _cast_living_wish_in_subgame(g)
    g.choose("choose_outside", f"Grizzly Bears (game {main.number} battlefield)")
    g.concede(1)
    assert g.table.top is main and main.step == "declare_blockers"
    blocker = g.obj("Runeclaw Bear", game=main)
    assert blocker.blocking is None  # the attacker it blocked is gone from the main game
    g.until("main2", 0)
    assert g.obj("Runeclaw Bear", game=main).damage == 0 and g.life(1, main) == 10


def test_726_4a_726_5_leaving_the_main_game_triggers_there_and_waits_for_it() -> None:
    g = _wish_scene().start()
    main = g.main
    _start_subgame(g)
    _cast_living_wish_in_subgame(g)
    g.choose("choose_outside", f"Hill Giant (game {main.number} graveyard)")
    # Grave Sentinel (main game) triggered on the Hill Giant leaving 0's main-game graveyard,
    # but the main game is discontinued: the trigger waits (also the 2004 ruling 506.2).
    assert [t.name for t in main.pending_triggers] == ["Grave Sentinel"]
    assert [o.name for o in main.stack] == ["Shahrazad"] and g.life(0, main) == 20
    g.concede(0)  # player 0 concedes the subgame: 1 wins it
    # CR 726.5: first Shahrazad finishes (0 didn't win: 20 -> 10), then the waiting trigger
    # goes on the stack (10 + 2). In the other order 0 would end on 11.
    assert g.table.top is main
    assert g.life(0, main) == 10 and g.life(1, main) == 20
    assert [o.name for o in main.stack] == ["Grave Sentinel"]
    g.resolve()
    assert g.life(0, main) == 12


def test_726_5_cards_brought_into_the_subgame_end_in_the_main_game_library() -> None:
    g = _wish_scene().start()
    main = g.main
    library = _cids(main, 0, LIBRARY)
    _start_subgame(g)
    _cast_living_wish_in_subgame(g)
    g.choose("choose_outside", "Llanowar Elves (sideboard)")
    elves = g.obj("Llanowar Elves", HAND).card.cid
    wish_in_exile = {o.card.cid for o in g.game.exile}
    assert len(wish_in_exile) == 1  # Living Wish exiled itself
    g.concede(1)
    # Everything player 0 had in the subgame, exile included, and the card brought in from
    # the sideboard, is in player 0's main-game library; the sideboard is one card smaller.
    assert _cids(main, 0, LIBRARY) == library | {elves}
    assert wish_in_exile <= _cids(main, 0, LIBRARY)
    assert g.table.outside[0] == []


def test_726_4b_counters_stay_in_their_own_game() -> None:
    g = (_shahrazad(Scene()).poison(1, 9)
         .library(0, *["Glistener Elf"] * 4 + ["Forest"] * 6).start())
    main = g.main
    _start_subgame(g)
    sub = g.game
    assert sub.players[1].poison == 0  # main-game counters aren't part of the subgame
    g.keep_hands()
    _own_main_phase(g, 0).play_land(0, "Forest")
    g.cast(0, "Glistener Elf").resolve()
    _next_own_main(g, 0)
    g.until("declare_attackers", 0).attack(("Glistener Elf", 1)).until("combat_damage")
    assert sub.players[1].poison == 1 and main.players[1].poison == 9
    g.concede(1)
    # The subgame's poison counter ceased to exist with the subgame: player 1 has the 9
    # they had, not 10, and is still in the main game.
    assert main.players[1].poison == 9 and main.in_game(1)


def test_726_5_every_card_goes_home_shuffled_and_everything_else_ceases_to_exist() -> None:
    g = (_shahrazad(Scene()).life(1, 15)
         .library(0, *["Flickering Drone"] * 3 + ["Myr Spawning"] * 3 + ["Forest"] * 3)
         .library(1, *["Wastes"] * 12).start())
    main = g.main
    owned = {p: _cids(main, p, LIBRARY) for p in (0, 1)}
    _start_subgame(g)
    sub = g.game
    g.keep_hands()
    _own_main_phase(g, 0).play_land(0, "Forest")
    g.cast(0, "Flickering Drone").resolve()
    g.cast(0, "Myr Spawning").resolve()
    assert [o.name for o in g.objs("Myr", BATTLEFIELD)] == ["Myr"]
    _next_own_main(g, 0)
    assert g.obj("Flickering Drone").phased_out  # CR 702.26a
    g.cast(0, "Myr Spawning")  # still on the stack when the subgame ends
    in_sub = {p: _cids(sub, p) for p in (0, 1)}
    assert in_sub == owned
    order_in = [o.card.cid for o in sub.objects.values() if o.card and o.owner == 0]
    g.concede(1)  # player 0 wins the subgame
    assert sub not in g.table.games and g.table.top is main
    for p in (0, 1):
        assert _cids(main, p, LIBRARY) == owned[p]
    assert [o.card.cid for o in main.library(0)] != order_in  # shuffled
    assert not any(o.is_token for gm in g.table.games for o in gm.objects.values())
    assert not any(o.phased_out for o in main.objects.values())
    # Shahrazad finished: the player who didn't win loses half their life, rounded up.
    assert (g.life(0, main), g.life(1, main)) == (20, 7)
    ended = [e for e in g.events if e.kind == "subgame_ended"]
    assert [(e.data["game"], e.data["parent"]) for e in ended] == [(sub.number, main.number)]
    assert ended[0].data["result"].winners == (0,)


def test_726_5_after_a_drawn_subgame_everybody_loses_half_their_life() -> None:
    g = _start_subgame(_shahrazad(Scene()).life(0, 7).start())
    g.keep_hands()
    g.table.draw_offer(0, "propose")
    g.table.draw_offer(1, "accept")
    g._collect()
    assert g.table.top is g.main and g.table.history[-1].draw
    assert (g.life(0), g.life(1)) == (3, 10)


# --------------------------------------------------------------------------- 726.6


def test_726_6_a_subgame_can_have_a_subgame_of_its_own() -> None:
    g = (Scene().hand(0, "Tale Within a Tale").battlefield(0, "Grizzly Bears")
         .library(0, *["Tale Within a Tale"] * 14 + ["Forest"] * 6)
         .library(1, *["Wastes"] * 30).start())
    main = g.main
    all_cards = {p: _cids(main, p) for p in (0, 1)}
    g.cast(0, "Tale Within a Tale").pass_(2)
    sub = g.game
    g.keep_hands()
    _priority_for(g, 0).cast(0, "Tale Within a Tale").resolve()
    inner = g.game
    assert g.table.games == [main, sub, inner]
    assert (inner.depth, inner.parent) == (2, sub)
    ev = [e for e in g.events if e.kind == "subgame_started"][-1]
    assert (ev.data["depth"], ev.data["parent"], ev.data["game"]) == (2, sub.number,
                                                                        inner.number)
    assert main.suspended and sub.suspended and not inner.suspended
    # The inner subgame's libraries are the (outer) subgame's libraries.
    assert sub.library(0) == [] and sub.library(1) == []
    # CR 726.4 from the inner subgame: the games beneath it are both outside it.
    offered = {label for label, _ in
               g.table.outside_candidates(inner, 0, CREATURE_OR_LAND_CARD)}
    assert f"Grizzly Bears (game {main.number} battlefield)" in offered
    forests_in_sub = {o.zone for o in sub.objects.values() if o.name == "Forest"}
    assert offered == {f"Grizzly Bears (game {main.number} battlefield)"} | {
        f"Forest (game {sub.number} {zone})" for zone in forests_in_sub}
    g.keep_hands()
    g.concede(1)  # player 1 concedes the inner subgame
    assert g.table.games == [main, sub]
    # The outer subgame is the inner one's main game: its Tale finishes there, and the cards
    # go into its libraries, not the main game's.
    assert (g.life(0, sub), g.life(1, sub)) == (20, 10)
    assert (g.life(0, main), g.life(1, main)) == (20, 20)
    assert main.library(0) == [] and len(sub.library(1)) > 0
    g.concede(1)  # and the outer subgame
    assert g.table.games == [main] and (g.life(0), g.life(1)) == (20, 10)
    assert {p: _cids(main, p) for p in (0, 1)} == all_cards


# --------------------------------------------------------------------------- leaving


def test_conceding_inside_a_subgame_concedes_only_the_subgame() -> None:
    g = _start_subgame(_shahrazad(Scene()).start())
    g.keep_hands()
    g.concede(1)
    assert g.table.history[-1].outcome_of(1).reason == "concession"
    assert g.table.top is g.main and g.main.in_game(1) and not g.table.finished
    assert g.life(1) == 10


def test_800_4a_conceding_the_main_game_from_a_subgame_in_a_two_player_game_ends_it() -> None:
    g = _start_subgame(_shahrazad(Scene()).start())
    sub = g.game
    g.keep_hands()
    g.concede(1, g.main.number)
    assert g.table.finished and g.table.result.winners == (0,)
    assert g.outcome(1) == ("lost", "concession")
    assert sub not in g.table.games
    abandoned = [r for r in g.table.history if r.game == sub.number]
    assert abandoned and abandoned[0].abandoned
    census = g.table.card_census()
    assert set(census) == set(g.table.cards) and max(census.values()) == 1


def test_800_4a_conceding_the_main_game_from_a_subgame_takes_the_player_out_of_both() -> None:
    g = _start_subgame(_shahrazad(Scene(3)).hand(2, "Hill Giant").start())
    main, sub = g.main, g.game
    two_sub = _cids(sub, 2)
    two_main = _cids(main, 2)
    g.keep_hands()
    g.concede(2, main.number)
    # Out of the main game (CR 800.4a: their main-game cards leave it) and of the subgame.
    assert not main.in_game(2) and not sub.in_game(2)
    assert main.outcomes[2].reason == "concession" and sub.outcomes[2].reason == "concession"
    assert _cids(main, 2) == set() and _cids(sub, 2) == set()
    assert g.table.top is sub and sub.players_in_game() == [0, 1]
    g.concede(1)  # the subgame goes on between 0 and 1 until 1 concedes it
    assert g.table.top is main
    # Player 2's subgame cards left with them; nobody else's cards went anywhere strange.
    assert {c.cid for c in main.departed_cards[2]} == two_sub | two_main
    assert _cids(main, 2) == set()
    assert (g.life(0), g.life(1)) == (20, 10)


def test_a_player_out_of_the_subgame_gets_their_cards_back_when_it_ends() -> None:
    g = _start_subgame(_shahrazad(Scene(3)).start())
    main, sub = g.main, g.game
    owned = _cids(sub, 2)
    g.keep_hands()
    g.concede(2)  # the subgame only: 2 is still in the main game
    assert main.in_game(2) and not sub.in_game(2)
    assert _cids(sub, 2) == set()  # set aside while the subgame goes on
    g.concede(1)
    assert g.table.top is main
    assert _cids(main, 2, LIBRARY) == owned
    assert (g.life(0), g.life(1), g.life(2)) == (20, 10, 10)


def test_shahrazad_stops_resolving_if_its_controller_left_the_main_game() -> None:
    g = _start_subgame(_shahrazad(Scene(3)).start())
    main = g.main
    g.keep_hands()
    g.concede(0, main.number)  # Shahrazad's controller leaves the main game
    g.concede(2)  # 1 wins the subgame
    assert g.table.top is main and not g.table.finished
    # A resolving spell whose controller has left stops resolving: nobody loses life.
    assert (g.life(1), g.life(2)) == (20, 20)
    assert main.stack == []


def test_801_10_only_players_in_range_play_the_subgame() -> None:
    g = _start_subgame(_shahrazad(Scene(5, range_of_influence=1)).start())
    sub = g.game
    assert sub.seats == [0, 1, 4]
    assert len(g.main.library(2)) == 20  # players outside the subgame keep their libraries
    g.keep_hands()
    g.concede(1)
    g.concede(4)
    assert [g.life(p) for p in range(5)] == [20, 10, 20, 20, 10]
