"""Stops in the browser (issue 29, docs/clients.md "Stops"): with auto-pass on, the page
passes priority for the player at steps they do not stop at, even with an instant in hand,
unless something happens to them (a spell or ability of another player on the stack, an
attack on them); the stops are set in a panel and kept in the browser; "Pass until my turn"
passes until the player's next turn."""

from __future__ import annotations

from typing import Any

from .browser import Person, Server, aggressive
from .test_browser import create_from_lobby

# What the page shows when a decision is on screen: the step, whose turn, and whether
# something happens to the player (stops.js somethingHappens, read independently here).
SEEN = """() => {
  const a = window.arbiter;
  const room = a.activeRoom(a.match);
  const v = a.view(room) || {};
  const me = a.mySeat(a.match);
  const ctl = (o) => (o.c ?? o.o);
  let happens = false;
  for (const [k, o] of Object.entries(v)) {
    if (!/^\\d+$/.test(k) || !o) continue;
    if (o.z === "s" && ctl(o) !== me) happens = true;
    if (o.z === "b" && Array.isArray(o.at) && ((o.at[0] === "p" && o.at[1] === me)
        || (o.at[0] === "o" && v[o.at[1]] && ctl(v[o.at[1]]) === me))) happens = true;
  }
  return {turn: (v.t || [])[0], active: (v.t || [])[1], step: (v.t || [])[2], me, happens};
}"""


def _keeping_bolts(state: dict[str, Any]) -> dict[str, Any]:
    """As ``aggressive``, except that Lightning Bolts stay in hand: the player always has an
    instant to cast (with an untapped Mountain), so passing is never all they can do."""
    d = state["decision"]
    acts = [a for a in d["actions"]
            if not (a["kind"] == "cast" and "Lightning Bolt" in a["label"])]
    return aggressive({**state, "decision": {**d, "actions": acts}})


def _priorities(ann: Person, limit: int, stop: Any = None) -> list[dict[str, Any]]:
    """Play (keeping Lightning Bolts in hand) until the game ends or ``limit`` decisions; the priority decisions
    the page showed, where more than passing was possible, with what the view said."""
    seen: list[dict[str, Any]] = []
    for _ in range(limit):
        state = ann.wait_turn()
        if state["over"]:
            break
        d = state["decision"]
        kinds = {a["kind"] for a in d["actions"]}
        if d["kind"] == "priority" and kinds - {"pass", "mana"}:
            seen.append({**ann.page.evaluate(SEEN), "kinds": sorted(kinds)})
            if stop is not None and stop(seen[-1]):
                return seen
        ann.click_action(_keeping_bolts(state))
        ann.page.wait_for_function(
            "s => { const a = window.arbiter; const d = a.decision(a.match);"
            " return !d || d.serial !== s; }", arg=d["serial"])
    return seen


def test_the_page_passes_the_steps_the_player_does_not_stop_at(browser: Any,
                                                               server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    create_from_lobby(ann, bots=True)  # quick-red: Lightning Bolts in hand all game
    seen = _priorities(ann, 150)
    assert seen, "the player never had anything to do"
    for s in seen:
        mine = s["active"] == s["me"]
        stops = ("main1", "main2") if mine else ("end",)
        assert s["step"] in stops or s["happens"], s
    ann.check_console()
    ann.close()


def test_stops_are_set_in_a_panel_and_kept_in_the_browser(browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    create_from_lobby(ann, bots=True)
    ann.wait("() => document.querySelector('.table-screen')")
    ann.page.click('button[data-do="stops"] >> nth=0')
    box = 'input[data-do="stop"][data-side="theirs"][data-step="upkeep"]'
    ann.page.wait_for_selector(box)
    assert not ann.page.is_checked(box)
    ann.page.click(box)
    ann.wait(f"() => document.querySelector('{box}').checked")
    stored = ann.page.evaluate("() => JSON.parse(localStorage.getItem('arbiter.stops'))")
    assert stored == {"mine": ["main1", "main2"], "theirs": ["upkeep", "end"]}
    # With the opponent's upkeep a stop, the page stops there (the player holds instants).
    seen = _priorities(ann, 150, stop=lambda s: s["step"] == "upkeep" and s["active"] != s["me"])
    assert any(s["step"] == "upkeep" and s["active"] != s["me"] for s in seen), seen
    ann.check_console()
    ann.close()


def test_pass_until_my_turn_passes_until_the_players_next_turn(browser: Any,
                                                              server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    create_from_lobby(ann, bots=True)
    first = _priorities(ann, 60, stop=lambda s: s["active"] == s["me"] and s["step"] == "main1")
    assert first and first[-1]["step"] == "main1"
    turn = first[-1]["turn"]
    ann.page.click('button[data-do="hold"][data-until="my_turn"]')
    after = _priorities(ann, 60, stop=lambda s: True)
    if after:
        s = after[0]
        assert s["happens"] or (s["active"] == s["me"] and s["turn"] > turn), s
    ann.check_console()
    ann.close()
