"""Restarting the game (CR 724) with Karn Liberated, and the test-only instant Second Beginning
("{0}: Restart the game.") where a restart must happen at a moment Karn can't reach.

A restart ends the game with no result and builds a brand-new game from the table's data; these
tests look at the new game only through what the rules say a new game is."""

from __future__ import annotations

from arbiter.server.rules.game import Game
from arbiter.server.rules.hashing import game_state
from arbiter.server.rules.state import BATTLEFIELD, EXILE, LIBRARY

from .helpers import G, Scene

MINUS_14 = "\u221214"
MINUS_3 = "\u22123"


def _cids(game: Game, pid: int) -> set[int]:
    return {o.card.cid for o in game.objects.values() if o.card is not None and o.owner == pid}


def _restart_with_karn(g: G, pid: int = 0) -> G:
    g.activate(pid, "Karn Liberated", MINUS_14)
    return g.resolve()


# --------------------------------------------------------------------------- Karn Liberated


def test_karn_plus_4_makes_the_target_player_exile_a_card_remembered_with_karn() -> None:
    g = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 6})
         .hand(1, "Lightning Bolt", "Hill Giant").start())
    g.activate(0, "Karn Liberated", "+4", target=1).pass_(2)
    assert g.decision.player == 1 and g.decision.kind == "exile_from_hand"  # they choose
    g.choose(label="Exile Hill Giant")
    karn = g.obj("Karn Liberated")
    giant = g.obj("Hill Giant", EXILE)
    assert karn.counters["loyalty"] == 10
    assert g.zone_names("hand", 1) == ["Lightning Bolt"]
    assert karn.linked == [giant.card.cid]  # "exiled with Karn Liberated" (CR 607.2a)


def test_karn_minus_3_exiles_a_permanent_remembered_with_karn() -> None:
    g = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 6})
         .battlefield(1, "Serra Angel").start())
    g.activate(0, "Karn Liberated", MINUS_3, target="Serra Angel").resolve()
    karn = g.obj("Karn Liberated")
    assert karn.counters["loyalty"] == 3
    angel = g.obj("Serra Angel", EXILE)
    assert karn.linked == [angel.card.cid]


def test_karn_minus_14_needs_fourteen_loyalty_and_sorcery_timing() -> None:
    g = Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 13}).start()
    assert g.find("activate", MINUS_14) is None
    g2 = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 14})
          .hand(0, "Lightning Bolt").battlefield(0, "Mountain").start())
    g2.cast(0, "Lightning Bolt", 1)
    assert g2.find("activate", MINUS_14) is None  # the stack isn't empty
    g2.resolve()
    assert g2.find("activate", MINUS_14) is not None


# --------------------------------------------------------------------------- 724.1


def test_724_1_the_restarted_game_ends_with_no_winner_loser_or_draw() -> None:
    g = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 14})
         .life(0, 3).life(1, 11).poison(1, 4).start())
    old = g.main
    _restart_with_karn(g)
    assert g.table.history[0].game == old.number
    first = g.table.history[0]
    assert first.restarted and first.winners == () and not first.draw
    assert first.outcomes == ()  # nobody won, lost or drew it
    assert not old.outcomes
    assert not g.table.finished and g.table.result is None
    (event,) = [e for e in g.events if e.kind == "game_restarted"]
    assert event.data == {"old_game": old.number, "game": g.main.number, "starting_player": 0,
                          "depth": 0}
    assert g.main is not old and g.main.number != old.number


def test_724_1_every_player_still_in_the_game_starts_a_new_game_by_rule_103() -> None:
    g = (Scene(3).battlefield(0, "Karn Liberated", counters={"loyalty": 14})
         .battlefield(1, "Serra Angel").life(1, 6).poison(1, 7).life(0, 2)
         .hand(2, "Hill Giant").start())
    g.concede(2)  # left before the restart: not involved in the new game
    gone = _cids(g.main, 2) | {c.cid for c in g.main.departed_cards.get(2, [])}
    _restart_with_karn(g)
    new = g.main
    assert new.seats == [0, 1] and not new.in_game(2)
    assert new.step == "setup" and new.turn == 0
    # CR 103.4-103.5: starting life, seven-card hands, mulligan decisions from the starter.
    assert [new.players[p].life for p in (0, 1)] == [20, 20]
    assert new.players[1].poison == 0
    assert [len(new.hand(p)) for p in (0, 1)] == [7, 7]
    assert not any(o.zone == BATTLEFIELD for o in new.objects.values())
    assert g.decision.kind == "mulligan" and g.decision.player == 0
    assert all(o.owner != 2 for o in new.objects.values())
    assert {c.cid for c in new.departed_cards[2]} == gone  # they stay with the departed player
    g.keep_hands()
    assert new.turn == 1 and new.active == 0 and g.decision.kind == "priority"


# --------------------------------------------------------------------------- 724.1a


def test_724_1a_the_controller_of_the_restart_starts() -> None:
    # Player 1 restarts on their own turn; the configured starting player doesn't matter.
    g = (Scene(starting_player=0).battlefield(1, "Karn Liberated", counters={"loyalty": 14})
         .at("main1", active=1, turn=4).start())
    _restart_with_karn(g, 1)
    assert g.main.starting_player == 1
    assert g.decision.kind == "mulligan" and g.decision.player == 1  # 103.5: starter first
    g.keep_hands()
    assert (g.main.turn, g.main.active) == (1, 1)
    g.until("main1", 1)
    # CR 103.8a: in a two-player game the starting player skips their first draw.
    assert len(g.main.hand(1)) == 7 and len(g.main.hand(0)) == 7


def test_724_1a_a_restart_cast_by_the_non_active_player_makes_them_the_starter() -> None:
    g = (Scene(3).battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .hand(2, "Second Beginning").start())
    g.cast(0, "Lightning Bolt", 1).pass_()
    g.choose("pass", player=1)
    g.cast(2, "Second Beginning").resolve()
    assert g.main.starting_player == 2 and g.decision.player == 2
    g.keep_hands()
    assert g.main.active == 2
    g.until("main1", 2)
    # Three players: a multiplayer game, so nobody skips the first draw (CR 103.8c).
    assert len(g.main.hand(2)) == 8


# --------------------------------------------------------------------------- 724.2


def test_724_2_phased_out_and_wished_cards_go_into_the_new_game() -> None:
    g = (Scene().battlefield(0, "Breezekeeper", "Forest", "Forest")
         .battlefield(0, "Karn Liberated", counters={"loyalty": 14})
         .hand(0, "Living Wish").sideboard(0, "Grizzly Bears", "Hill Giant")
         .library(0, *["Wastes"] * 10).at("end", active=1).start())
    g.next_turn(0)
    assert g.obj("Breezekeeper").phased_out  # CR 702.26a, in 0's untap step
    g.cast(0, "Living Wish").resolve()
    g.choose("choose_outside", "Grizzly Bears")
    assert "Grizzly Bears" in g.zone_names("hand", 0)
    before = _cids(g.main, 0)
    names_before = g.owned(0)
    _restart_with_karn(g)
    new = g.main
    assert _cids(new, 0) == before  # the same physical cards, nothing more, nothing less
    assert g.owned(0) == names_before
    assert "Breezekeeper" in names_before and "Grizzly Bears" in names_before
    # All of them are in the new library or opening hand (no exemptions here).
    assert {o.zone for o in new.objects.values() if o.owner == 0} <= {LIBRARY, "hand"}
    # The sideboard card Living Wish didn't take stays outside the game.
    assert [c.name for c in g.table.outside[0]] == ["Hill Giant"]


def test_724_2_ownership_is_unchanged_and_tokens_are_gone() -> None:
    g = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 14})
         .battlefield(0, "Genesis Chamber", "Forest", "Forest", "Island", "Island", "Island",
                      "Island", "Island")
         .battlefield(1, "Hill Giant").hand(0, "Grizzly Bears", "Mind Control").start())
    g.cast(0, "Mind Control", "Hill Giant").resolve()
    g.cast(0, "Grizzly Bears").resolve_all()
    assert g.obj("Hill Giant").controller == 0
    assert [o.controller for o in g.objs("Myr")] == [0]  # the Genesis Chamber token
    owned_before = {p: _cids(g.main, p) for p in (0, 1)}
    giant = g.obj("Hill Giant").card.cid
    _restart_with_karn(g)
    new = g.main
    assert {p: _cids(new, p) for p in (0, 1)} == owned_before
    assert giant in _cids(new, 1)  # controlled by 0, still owned by 1
    assert all(o.owner == o.card.owner for o in new.objects.values() if o.card)
    assert not any(o.is_token for o in new.objects.values())
    assert not g.objs("Myr")


def test_724_2_cards_on_the_stack_go_into_the_new_game_too() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .hand(1, "Second Beginning").start())
    g.cast(0, "Lightning Bolt", 1).pass_()
    bolt = g.game.stack[0].card.cid
    g.cast(1, "Second Beginning")
    again = g.game.stack[-1].card.cid
    g.resolve()
    assert bolt in _cids(g.main, 0) and again in _cids(g.main, 1)
    assert not g.main.stack


# --------------------------------------------------------------------------- 724.3


def test_724_3_fewer_than_seven_cards_loses_at_the_first_upkeep_despite_mulligans() -> None:
    g = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 14})
         .library(1, "Wastes", "Wastes", "Wastes", "Wastes").start())
    _restart_with_karn(g)
    assert len(g.main.hand(1)) == 4  # everything player 1 owns
    g.choose("keep", player=0)
    g.choose("mulligan", player=1)  # a mulligan doesn't help (CR 724.3)
    g.choose("bottom", player=1)
    assert g.main.in_game(1) and g.main.step == "setup"  # no loss while mulligans go on
    g.choose("keep", player=1)
    # CR 704.5b at the first upkeep: the game's first state-based action check.
    assert g.outcome(1) == ("lost", "decking")
    assert (g.main.outcomes[1].turn, g.main.step) == (1, "upkeep")
    assert g.table.finished and g.table.result.winners == (0,)


def test_724_3_seven_cards_are_enough_to_survive_the_first_upkeep() -> None:
    g = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 14})
         .library(1, *["Wastes"] * 7).start())
    _restart_with_karn(g).keep_hands()
    g.until("main1", 0)
    assert g.main.in_game(1) and len(g.main.hand(1)) == 7


# --------------------------------------------------------------------------- 724.4 / 724.5


def _karn_exiles(g: G, *steps: tuple[str, object]) -> G:
    """Activate Karn once per turn of player 0: ("+4", player) or ("-3", permanent)."""
    for i, (ability, target) in enumerate(steps):
        if i:
            g.next_turn(0)
        if ability == "+4":
            g.activate(0, "Karn Liberated", "+4", target=target).pass_(2)
            g.choose("choose_card")  # the target player's only card in hand
        else:
            g.activate(0, "Karn Liberated", MINUS_3, target=target).resolve()
    g.next_turn(0)
    return g


def test_724_4_karns_cards_enter_just_before_the_first_untap_step_without_priority() -> None:
    g = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 13})
         .battlefield(1, "Toll Keeper").hand(1, "Door to Nothingness").start())
    _karn_exiles(g, ("+4", 1), (MINUS_3, "Toll Keeper"))
    door, keeper = (g.obj(n, EXILE).card.cid for n in ("Door to Nothingness", "Toll Keeper"))
    assert g.obj("Karn Liberated").counters["loyalty"] == 14
    _restart_with_karn(g)
    new = g.main
    # During the new game's start the two cards wait in exile (CR 724.5).
    assert sorted(o.card.cid for o in new.exile) == sorted([door, keeper])
    assert new.step == "setup"
    while g.decision.kind == "mulligan":
        g.choose("keep")
    # The next thing anyone is asked is in the first upkeep: nobody had priority in between.
    assert (new.turn, new.step, new.active) == (1, "upkeep", 0)
    on_bf = {o.card.cid: o for o in new.battlefield}
    assert set(on_bf) == {door, keeper}
    assert all(o.controller == 0 and o.owner == 1 for o in on_bf.values())
    # Door to Nothingness entered tapped and untapped in the untap step that followed.
    assert not on_bf[door].tapped
    # Toll Keeper's enters trigger waited for the upkeep, when a player would get priority.
    assert [o.name for o in new.stack] == ["Toll Keeper"] and new.stack[0].is_ability
    assert g.decision.kind == "target" and g.decision.player == 0
    g.target(1).resolve()
    g.choose("no", player=1)  # don't pay 2 life: Karn's controller draws
    assert len(new.hand(0)) == 8
    # The permanents have been under 0's control since the turn began: Toll Keeper attacks.
    g.until("declare_attackers", 0)
    assert g.find("attack", obj=on_bf[keeper].oid) is not None


def test_724_5_only_karns_non_aura_permanent_cards_are_exempt_from_the_new_decks() -> None:
    g = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 16})
         .battlefield(0, *["Island"] * 5).hand(0, "Mind Control")
         .battlefield(1, "Hill Giant", "Serra Angel")
         .hand(1, "Lightning Bolt").exile(1, "Assault Griffin").start())
    g.cast(0, "Mind Control", "Serra Angel").resolve()
    assert g.obj("Serra Angel").controller == 0
    _karn_exiles(g, ("+4", 1), (MINUS_3, "Hill Giant"), (MINUS_3, "Mind Control"))
    cids = {n: g.obj(n, EXILE).card.cid for n in
            ("Lightning Bolt", "Hill Giant", "Mind Control", "Assault Griffin")}
    assert sorted(g.obj("Karn Liberated").linked) == sorted(
        cids[n] for n in ("Lightning Bolt", "Hill Giant", "Mind Control"))
    _restart_with_karn(g)
    new = g.main
    decks = {o.card.cid: o.owner for o in new.objects.values() if o.zone != EXILE}
    # Exempt: the non-Aura permanent card exiled with Karn. Not exempt: the instant and the
    # Aura exiled with Karn, and a card exiled by something else.
    assert cids["Hill Giant"] not in decks
    assert [o.card.cid for o in new.exile] == [cids["Hill Giant"]]
    assert (decks[cids["Lightning Bolt"]], decks[cids["Mind Control"]],
            decks[cids["Assault Griffin"]]) == (1, 0, 1)
    g.keep_hands()
    assert g.obj("Hill Giant").controller == 0


def test_724_5a_an_exempt_commander_starts_outside_the_command_zone_but_stays_commander() -> None:
    scene = (Scene(variant="commander")
             .battlefield(0, "Karn Liberated", counters={"loyalty": 17})
             .battlefield(1, "Isamaru, Hound of Konda").commander(0, "Phage the Untouchable"))
    scene.setups[1].commander = "Isamaru, Hound of Konda"
    g = scene.start()
    isamaru = g.obj("Isamaru, Hound of Konda")
    assert isamaru.is_commander
    g.activate(0, "Karn Liberated", MINUS_3, target=isamaru).pass_(2)
    g.choose("no", player=1)  # CR 903.9a: the owner leaves it in exile
    g.next_turn(0)
    _restart_with_karn(g)
    new = g.main
    isamaru = g.obj("Isamaru, Hound of Konda", EXILE)
    assert isamaru.is_commander and isamaru.card.commander
    assert [o.name for o in new.command] == ["Phage the Untouchable"]  # 903.6 for the rest
    g.keep_hands()
    isamaru = g.obj("Isamaru, Hound of Konda")
    assert (isamaru.controller, isamaru.owner) == (0, 1) and isamaru.is_commander
    # Still player 1's commander: its combat damage is commander damage (CR 903.10a).
    g.until("declare_attackers", 0).attack((isamaru, 1)).until("combat_damage")
    assert new.players[1].commander_damage == {isamaru.card.cid: 2}


# --------------------------------------------------------------------------- 724.6 / 724.7


def _priority_for(g: G, pid: int) -> G:
    """Pass until ``pid`` holds priority in the top game (keeping opening hands)."""
    for _ in range(200):
        d = g.decision
        if d.kind == "priority" and d.player == pid:
            return g
        g.step_on()
    raise AssertionError(f"player {pid} never got priority")


def test_724_6_restarting_a_subgame_leaves_the_main_game_alone_and_its_winner_counts() -> None:
    g = (Scene().hand(0, "Tale Within a Tale").library(0, *["Second Beginning"] * 10)
         .life(0, 16).life(1, 12).start())
    main = g.main
    g.cast(0, "Tale Within a Tale").pass_(2)
    sub = g.game
    assert sub.depth == 1 and g.table.games == [main, sub]
    suspended = game_state(main)
    g.keep_hands()
    _priority_for(g, 0).cast(0, "Second Beginning").resolve()
    restarted = g.game
    assert restarted is not sub and restarted.parent is main and restarted.depth == 1
    assert g.table.games == [main, restarted]
    assert game_state(main) == suspended  # the main game is unaffected (CR 724.6)
    (ev,) = [e for e in g.events if e.kind == "game_restarted"]
    assert ev.data == {"old_game": sub.number, "game": restarted.number, "starting_player": 0,
                       "depth": 1}
    assert restarted.starting_player == 0
    g.keep_hands()
    g.concede(1)  # player 1 concedes the restarted subgame; player 0 wins it
    assert g.table.top is main
    results = {r.game: r for r in g.table.history}
    assert results[sub.number].restarted and results[sub.number].winners == ()
    assert results[restarted.number].winners == (0,)
    # Shahrazad's "each player who doesn't win the subgame" refers to the restarted subgame.
    assert (g.life(0, main), g.life(1, main)) == (16, 6)
    assert main.in_game(1)  # conceding the subgame isn't conceding the main game
    ended = [e for e in g.events if e.kind == "subgame_ended"]
    assert [e.data["game"] for e in ended] == [restarted.number]


def test_724_7_a_restart_under_limited_range_of_influence_involves_every_player() -> None:
    # CR 801.17: players 2 and 3 are outside player 0's range of influence, yet they too
    # start the new game.
    g = (Scene(5, range_of_influence=1)
         .battlefield(0, "Karn Liberated", counters={"loyalty": 14}).start())
    assert not g.main.in_range(0, 2) and not g.main.in_range(0, 3)
    _restart_with_karn(g)
    new = g.main
    assert new.seats == [0, 1, 2, 3, 4] and new.players_in_game() == [0, 1, 2, 3, 4]
    assert all(len(new.hand(p)) == 7 for p in range(5))
    assert new.starting_player == 0
