"""The game lifecycle in the core's rooms: subgame rooms open, pause the room below and close
(CR 726); a restart keeps the room and sends the fresh game (CR 724); a best-of-three match
lets the loser choose who plays first (CR 103.1); a chess clock that runs out is a game loss
(CR 104.3k)."""

from __future__ import annotations

from typing import Any

from .sim import Player, Sim, assert_converged

LIBRARY = ["Plains", "Shahrazad", "Plains", "Plains", "Shahrazad"] * 6


def shahrazad_scene(sim: Sim, players: int = 2, **config: Any) -> tuple[list[Player], str]:
    setups: list[dict[str, Any]] = [{"library": LIBRARY, "battlefield": ["Plains"]}
                                    for _ in range(players)]
    setups[0] = {"library": LIBRARY, "hand": ["Shahrazad"], "battlefield": ["Plains", "Plains"]}
    names = ("Ann", "Bob", "Cid")[:players]
    variant = "two_player" if players == 2 else "free_for_all"
    return sim.table({"seats": players, "variant": variant, "seed": 4,
                      "scenario": {"players": setups, "active": 0}, **config}, names)


def test_726_1a_a_subgame_room_pauses_the_main_room_until_it_closes() -> None:
    sim = Sim()
    (ann, bob), main = shahrazad_scene(sim)
    ann.choose(main, "Cast Shahrazad")
    sim.play({0: ann, 1: bob}, until=lambda: bool(ann.of_type("opened")))
    [opened] = ann.of_type("opened")
    sub = opened["r"]
    assert sub == f"{main}.1.2" and opened["depth"] == 1 and opened["parent"] == main
    assert ann.of_type("paused") == [{"t": "paused", "r": main, "sub": sub}]
    assert sim.match(main).state == "paused"
    assert sim.hub.match_of(sub) is sim.match(main)
    # Game actions in the paused room are refused; a concession is accepted there.
    refused = ann.call({"t": "draw", "r": main, "op": "propose"})
    assert refused["code"] == "room_paused"
    assert assert_converged(sim, [ann, bob]) == 4
    bob.ok({"t": "concede", "r": main, "g": sub})  # Bob gives up the subgame only
    [closed] = ann.of_type("closed")
    assert closed["r"] == sub and closed["res"]["winners"] == [0]
    assert ann.of_type("resumed") == [{"t": "resumed", "r": main}]
    assert sim.match(main).state == "playing" and sim.hub.match_of(sub) is None
    assert ann.call({"t": "act", "r": sub, "s": 1, "a": 0})["code"] == "unknown_room"


def test_players_outside_a_subgame_never_watch_it_with_the_all_seeing_view() -> None:
    """Cid left the main game before Shahrazad resolved: the subgame is Ann's and Bob's. In a
    room whose spectators see everything, Cid (still seated in the match) watches the subgame
    with the public view, while a real spectator sees the hands."""
    sim = Sim()
    (ann, bob, cid), main = shahrazad_scene(sim, 3, spectators="all")
    eve = sim.connect("Eve", address="10.0.0.9")
    eve.ok({"t": "spectate", "r": main, "token": sim.match(main).settings.invite})
    cid.ok({"t": "concede", "r": main})
    ann.choose(main, "Cast Shahrazad")
    sim.play({0: ann, 1: bob}, until=lambda: bool(ann.of_type("opened")))
    sub = ann.of_type("opened")[0]["r"]
    assert ann.of_type("opened")[0]["players"] == [0, 1]

    def hand_cards(p: Player) -> list[Any]:
        return [v for k, v in p.view(sub).items() if isinstance(k, int) and v["z"] == "h"]

    sim.play({0: ann, 1: bob}, max_actions=6)
    assert hand_cards(cid) == [] and len(hand_cards(eve)) >= 14
    assert assert_converged(sim, [ann, bob, cid, eve]) == 8


def test_724_a_restart_keeps_the_room_and_sends_the_fresh_game() -> None:
    sim = Sim()
    lib = ["Mountain", "Hill Giant", "Mountain", "Lightning Bolt"] * 6
    setups = [{"library": lib, "hand": ["Mountain"]} for _ in range(3)]
    setups[1] = {"library": lib, "battlefield": ["Karn Liberated", "Mountain"],
                 "counters": [[0, "loyalty", 14]]}
    (ann, bob, cid), room = sim.table(
        {"variant": "free_for_all", "seats": 3, "seed": 8,
         "scenario": {"players": setups, "active": 1}}, ("Ann", "Bob", "Cid"))
    epoch = ann.tracker.rooms[room].epoch
    old = ann.view(room)["g"]["n"]
    bob.choose(room, "Restart")
    sim.play({0: ann, 1: bob, 2: cid}, until=lambda: bool(ann.of_type("restarted")))
    [restarted] = ann.of_type("restarted")
    assert restarted["r"] == room and restarted["old"] == old and restarted["starting"] == 1
    assert ann.tracker.rooms[room].epoch != epoch
    assert ann.view(room)["g"]["n"] == restarted["g"]
    assert assert_converged(sim, [ann, bob, cid]) == 3


def test_103_1_in_a_match_the_loser_of_a_game_chooses_who_plays_first() -> None:
    sim = Sim()
    (ann, bob), room = sim.table({"seats": 2, "seed": 21, "best_of": 3})
    loser = bob if ann.tracker.rooms[room].view["t"][3] == 0 else ann
    loser.ok({"t": "concede", "r": room})
    [result] = ann.of_type("result")
    assert result["m"] == {"game": 1, "best_of": 3, "wins": result["m"]["wins"],
                           "over": False}
    # The second game started at once; its first decision is the loser's choice.
    d = loser.decision(room)
    assert d is not None and d["kind"] == "starting_player"
    winner = ann if loser is bob else bob
    assert winner.decision(room) is None
    loser.choose(room, f"{winner.name} plays first")
    assert sim.match(room).score.chooser == (0 if loser is ann else 1)
    winner.ok({"t": "concede", "r": room})  # now the other player lost game 2: they choose
    d = winner.decision(room)
    assert d is not None and d["kind"] == "starting_player"
    assert loser.decision(room) is None
    assert ann.of_type("result")[-1]["m"]["wins"] == [1, 1]


def test_104_3k_a_chess_clock_that_runs_out_loses_the_game() -> None:
    sim = Sim()
    (ann, bob), room = sim.table({"seats": 2, "seed": 3, "clock": {"total": 30, "inc": 2}})
    [clock] = ann.of_type("clock")[-1:]
    assert clock["k"] == [30_000, 30_000] and clock["p"] is not None
    slow = (ann, bob)[clock["p"]]
    sim.advance(29.5)
    assert sim.match(room).state == "playing"
    sim.advance(1)
    [result] = ann.of_type("result")
    [outcome] = [o for o in result["res"]["outcomes"] if o["outcome"] == "lost"]
    assert (outcome["player"], outcome["reason"], outcome["rule"]) == (clock["p"], "clock",
                                                                       "104.3k")
    assert slow.view(room)[f"p{clock['p']}"]["s"] == "lost"
