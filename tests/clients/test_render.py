"""What the terminal client writes for a view: the banners a person must not miss (a paused main
game and its depth, a restart, the end of a game), the table of players with the range of
influence, and the log lines built from deltas."""

from __future__ import annotations

from arbiter.clients.tui import render

NAMES = {0: "Ann", 1: "Bob", 2: "Cid"}
VIEW = {
    "g": {"n": 3, "depth": 1, "parent": 1, "variant": "free_for_all", "seats": [0, 1, 2]},
    "t": [4, 1, "declare_attackers", 0],
    "w": [2, "priority"],
    "r": {"0": [0, 1], "1": [0, 1, 2], "2": [1, 2]},
    "p0": {"l": 14, "h": 3, "y": 40, "s": "in", "v": 2},
    "p1": {"l": 20, "h": 5, "y": 38, "s": "in", "m": "GG"},
    "p2": {"l": 0, "h": 0, "y": 39, "s": "lost"},
    10: {"n": "Grizzly Bears", "z": "b", "o": 1, "i": 1, "pt": [2, 2], "t": 1,
         "at": ["p", 0]},
    11: {"n": "Forest", "z": "b", "o": 1, "i": 2},
    12: {"n": "Lightning Bolt", "z": "s", "o": 0, "i": 3, "tg": [["o", 10]]},
    13: {"n": "Mountain", "z": "h", "o": 0, "i": 4},
    14: {"n": "Shock", "z": "g", "o": 0, "i": 5},
}


def test_the_status_line_says_the_main_game_is_paused_and_how_deep() -> None:
    text = render.status_text(VIEW, NAMES, depth=1, main_room="7", room="7.1.3",
                              clock=([61_000, 5_000, 0], 1)).plain
    assert "MAIN GAME PAUSED: subgame at depth 1 in room 7.1.3" in text
    assert "turn 4 · Bob's declare attackers · Cid has priority" in text
    assert "clocks Ann 1:01, ▶Bob 0:05, Cid 0:00" in text
    main = render.status_text({**VIEW, "w": ["subgame"]}, NAMES, depth=0, main_room="7",
                              room="7", banner="GAME RESTARTED (CR 724)").plain
    assert "PAUSED" not in main and "waiting for the subgame" in main
    assert main.endswith("GAME RESTARTED (CR 724)")


def test_the_players_table_zones_and_hand() -> None:
    players = render.players_text(VIEW, NAMES, me=0).plain.splitlines()
    assert players[1].split() == ["Ann", "(you)", "14", "2", "3", "40", "playing"]
    assert players[2].split() == ["▶", "Bob", "20", "0", "5", "38", "GG", "playing"]
    assert players[3].split() == ["*Cid", "0", "0", "0", "39", "LOST"]
    assert players[4] == ("Range of influence (CR 801): Ann sees Ann, Bob; Bob sees Ann, Bob, "
                          "Cid; Cid sees Bob, Cid")
    zones = render.zones_text(VIEW, NAMES).plain
    assert ("Stack: Lightning Bolt (targets Grizzly Bears) [Ann]  (top first)") in zones
    assert "Battlefield: Grizzly Bears 2/2 (tapped, attacking Ann); Forest" in zones
    assert "Graveyard: Shock" in zones
    assert render.hand_text(VIEW, 0).plain == "Your hand (1): Mountain"
    assert render.hand_text(VIEW, None).plain == "Spectating: hands are hidden."


def test_results() -> None:
    result = {"winners": [1], "draw": False, "outcomes": [
        {"player": 0, "outcome": "lost", "reason": "life", "rule": "104.3b"},
        {"player": 1, "outcome": "won", "reason": "last", "rule": "104.2a"}]}
    assert render.result_text(result, NAMES) == "Bob won: Ann lost (life, CR 104.3b)"
    assert render.result_text({"draw": True, "winners": [], "outcomes": []}, NAMES) == (
        "The game is a draw")


GIANT_NAMES = {0: "Ann", 1: "Bob", 2: "Cid", 3: "Dee"}
GIANT = {
    "g": {"n": 1, "depth": 0, "parent": None, "variant": "two_headed_giant",
          "seats": [0, 1, 2, 3], "teams": [[0, 1], [2, 3]], "shared": ["turns", "life"]},
    "t": [3, 2, "main1", 0],
    "w": [3, "priority"],
    "p0": {"l": 24, "h": 1, "y": 30, "s": "in", "v": 3},
    "p1": {"l": 24, "h": 1, "y": 31, "s": "in", "v": 3},
    "p2": {"l": 30, "h": 5, "y": 29, "s": "in"},
    "p3": {"l": 30, "h": 6, "y": 29, "s": "in", "m": "R"},
    20: {"n": "Mountain", "z": "h", "o": 0, "i": 1},
    21: {"n": "Hill Giant", "z": "h", "o": 1, "i": 2},
}


def test_two_headed_giant_teams_shared_life_and_the_teammates_hand() -> None:
    """CR 805, 810: the team whose turn it is, each team's shared life and poison, and the
    teammate's hand, all from the view alone."""
    status = render.status_text(GIANT, GIANT_NAMES, depth=0, main_room="4", room="4").plain
    assert "turn 3 · Cid and Dee's first main phase · Dee has priority" in status
    players = render.players_text(GIANT, GIANT_NAMES, me=0).plain.splitlines()
    assert players[3].split()[:2] == ["▶", "Cid"] and players[4].split()[:2] == ["▶*Dee", "30"]
    assert players[1].split()[:2] == ["Ann", "(you)"]  # not the active team: no marker
    assert players[5] == "Team 1: Ann and Bob · shared life 24, poison 3 (your team)"
    assert players[6] == "Team 2: Cid and Dee · shared life 30"
    hand = render.hand_text(GIANT, 0, GIANT_NAMES).plain
    assert hand == "Your hand (1): Mountain\nBob's hand (teammate) (1): Hill Giant"
    # A team game without shared life lists the teams only.
    teams_only = {**GIANT, "g": {**GIANT["g"], "variant": "team_vs_team", "shared": []}}
    lines = render.players_text(teams_only, GIANT_NAMES, me=2).plain.splitlines()
    assert lines[5:7] == ["Team 1: Ann and Bob", "Team 2: Cid and Dee (your team)"]
    assert lines[3].startswith("▶") and not lines[4].startswith("▶")


VARIANT_VIEW = {
    "g": {"n": 1, "depth": 0, "parent": None, "variant": "archenemy", "seats": [0, 1, 2],
          "options": ["planechase", "vanguard"], "archenemy": 0},
    "t": [3, 1, "main1", 0],
    "w": [1, "priority"],
    "pc": 1,
    "p0": {"l": 47, "h": 4, "y": 40, "s": "in", "pd": 9, "sd": 18, "mx": 6},
    "p1": {"l": 20, "h": 9, "y": 38, "s": "in", "pd": 10, "mx": "none"},
    "p2": {"l": 30, "h": 6, "y": 39, "s": "in", "pd": 10},
    20: {"n": "Krosa", "z": "c", "o": 0, "c": 1, "i": 1, "ty": "plane"},
    21: {"n": "The Very Soil Shall Shake", "z": "c", "o": 0, "i": 2, "ty": "scheme", "on": 1},
    22: {"n": "Tahngarth", "z": "c", "o": 0, "i": 3, "ty": "vanguard"},
    23: {"n": "Urza", "z": "c", "o": 2, "i": 4, "ty": "vanguard"},
    24: {"n": "Grizzly Bears", "z": "b", "o": 0, "i": 5, "pt": [6, 6], "kw": ["haste",
                                                                            "trample"]},
}


def test_the_plane_schemes_and_vanguards_come_from_the_view_alone() -> None:
    status = render.status_text(VARIANT_VIEW, NAMES, depth=0, main_room="9", room="9").plain
    assert "Bob's first main phase · planar controller Bob" in status
    zones = render.zones_text(VARIANT_VIEW, NAMES).plain.splitlines()
    assert zones[:3] == [
        "Plane: Krosa (owned by Ann, controlled by Bob)",
        "Schemes in motion: The Very Soil Shall Shake (ongoing) [Ann]",
        "Vanguards: Ann: Tahngarth; Cid: Urza"]
    assert "  Battlefield: Grizzly Bears 6/6 (haste, trample)" in zones
    assert not any(line.startswith("  Command") for line in zones)  # not listed twice
    players = render.players_text(VARIANT_VIEW, NAMES, me=1).plain.splitlines()
    assert players[1].endswith("(maximum hand size 6, planar deck 9, scheme deck 18)")
    assert players[2].endswith("(maximum hand size none, planar deck 10)")


MELEE_NAMES = {i: n for i, n in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus",
                                           "Hal", "Ivy"])}
MELEE = {
    "g": {"n": 1, "depth": 0, "parent": None, "variant": "grand_melee",
          "seats": [0, 1, 2, 3, 4, 5, 6, 7, 8]},
    "t": [7, 4, "main1", 0],
    "w": [5, "priority", 2],
    "m": [{"n": 1, "p": 1, "s": "waiting"},
          {"n": 2, "p": 4, "s": "turn", "turn": 7, "st": "main1", "h": 5, "pr": [3, 4, 5],
           "rm": 1}],
    **{f"p{i}": {"l": 20, "h": 7, "y": 30, "s": "in"} for i in range(9)},
    20: {"n": "Lightning Bolt", "z": "s", "o": 4, "i": 1, "sk": 2, "tg": [["p", 5]]},
    21: {"n": "Hill Giant", "z": "s", "o": 3, "i": 2, "sk": 2},
}


def test_807_grand_melee_turn_markers_and_stacks_from_the_view_alone() -> None:
    status = render.status_text(MELEE, MELEE_NAMES, depth=0, main_room="9", room="9").plain
    assert "turn 7 · Eve's first main phase · Fay has priority for stack 2" in status
    assert render.decider(MELEE) == 5
    players = render.players_text(MELEE, MELEE_NAMES, me=3).plain.splitlines()
    assert players[5].startswith("▶ Eve") and players[2].startswith("  Bob")  # B waits
    at = players.index("Turn markers (CR 807):")
    assert players[at + 1] == "  #1 Bob: waiting to begin a turn (CR 807.4d)"
    assert players[at + 2] == ("  #2 Eve: turn 7, first main phase, priority Fay; may act on "
                               "its stack: Dee, Eve, Fay  (you may act)  designated for "
                               "removal (CR 807.4e)")
    zones = render.zones_text(MELEE, MELEE_NAMES).plain
    assert zones.splitlines()[0] == ("Stack 2 (Eve's turn): Hill Giant [Dee] ← Lightning Bolt "
                                     "(targets Fay) [Eve]  (top first)")
    assert "Stack 1" not in zones  # a waiting marker's turn hasn't begun: no stack
    alone = render.players_text(MELEE, MELEE_NAMES, me=0).plain
    assert "(you may act)" not in alone


def test_copies_x_counters_tokens_attachments_and_extra_turns_are_written_out() -> None:
    objs = {
        20: {"n": "Serra Angel", "z": "b", "o": 0, "i": 1, "cp": "Clone", "pt": [4, 4]},
        21: {"n": "Fireball", "z": "s", "o": 1, "i": 2, "cy": 1, "xv": 3, "tg": [["p", 0]]},
        22: {"n": "Wolf", "z": "b", "o": 2, "i": 3, "tk": 1, "k": {"+1/+1": 2}, "pt": [4, 4]},
        23: {"n": "Pacifism", "z": "b", "o": 1, "i": 4, "a": 22},
    }
    assert render.card_text(objs[20], objs, NAMES) == "Serra Angel 4/4 (Clone, as a copy)"
    assert render.card_text(objs[21], objs, NAMES) == \
        "Fireball (copy of a spell, X=3, targets Ann)"
    assert render.card_text(objs[22], objs, NAMES) == "Wolf 4/4 (2 +1/+1, token)"
    assert render.card_text(objs[23], objs, NAMES) == "Pacifism (attached to Wolf)"
    text = render.status_text({**VIEW, "t": [4, 1, "main1", 0, [2, 0]]}, NAMES, depth=0,
                              main_room="7", room="7").plain
    assert "turn 4 · Bob's first main phase · extra turns: Cid, Ann" in text
