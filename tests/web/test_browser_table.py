"""The browser client's table and lobby in a real headless Chromium, for the defects of issue 29
(docs/clients.md, "The browser client"): a pasted deck list that the lobby's refresh erased,
Space that confirmed a concession or acted on a clicked card instead of passing, the final board
that vanished when the game ended, a chosen blocker that was neither marked nor could be taken
back, and the wording (articles, plurals, seat numbers from 1, poison in the accessible label,
long chat, a full hand at 1,400 px, the keys help shown to spectators).

Every wait is on a condition with a bounded timeout; no page may log an error or a warning."""

from __future__ import annotations

from typing import Any

import trio

from arbiter.clients.sdk import open_client

from .browser import Person, Server, aggressive
from .test_browser import create_from_lobby

# Two consecutive room lists the lobby asked for (it asks every 2 s) and rendered.
REFRESHED = ("() => { const a = window.arbiter; if (a.rooms !== window.__rooms) {"
             " window.__seen = (window.__seen || 0) + 1; window.__rooms = a.rooms; }"
             " return window.__seen >= 2; }")


def wait_refreshed(person: Person) -> None:
    person.page.evaluate("() => { window.__rooms = window.arbiter.rooms; window.__seen = 0; }")
    person.wait(REFRESHED, timeout=15_000)


def scenario_room(server: Server, players: list[dict[str, Any]], active: int = 0,
                  step: str | None = None) -> str:
    """A room starting from a position (only the wire can ask for one)."""
    scenario: dict[str, Any] = {"players": players, "active": active}
    if step is not None:
        scenario["step"] = step

    async def create() -> str:
        async with open_client(server.ws_url, "Host") as host:
            return await host.create({"name": "Scenario", "seats": len(players), "seed": 3,
                                      "scenario": scenario})
    return trio.run(create)


def sit_with_a_bot(person: Person, room: str, *, enter: bool = True) -> None:
    """Take seat 0 of ``room`` by its link, put a bot in seat 1 and give the ready-made deck
    (a scenario's cards are its own)."""
    if enter:
        person.enter(f"#/room/{room}")
    person.page.click('button[data-do=join][data-seat="0"]')
    person.page.click('button[data-do=bot][data-seat="1"]')
    person.page.wait_for_selector("#deck-form")
    person.page.click("#deck-form button[type=submit]")
    person.wait("() => document.querySelector('.table-screen')")


def wait_primary(person: Person) -> dict[str, Any]:
    """Answer decisions (as ``aggressive``) until one has a one-key action (keep, pass)."""
    for _ in range(40):
        state = person.wait_turn()
        acts = state["decision"]["actions"]
        if any(a["kind"] in ("keep", "pass", "done") for a in acts):
            return state
        person.click_action(aggressive(state))
        person.page.wait_for_function(
            "s => { const a = window.arbiter; const d = a.decision(a.match);"
            " return !d || d.serial !== s; }", arg=state["decision"]["serial"])
    raise AssertionError("no decision with a one-key action")


ANSWERED = ("s => { const a = window.arbiter; const d = a.decision(a.match);"
            " return !d || d.serial !== s; }")
# This page answered decision s itself (the serial it sent for the room on screen).
SENT = "s => { const a = window.arbiter; return a.answered.get(a.activeRoom(a.match)) === s; }"


def test_a_pasted_deck_list_and_the_room_name_outlive_the_lobby_refresh(
        browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    page = ann.page
    page.wait_for_selector("#create-form")
    page.fill("input[name=name]", "Ann's slow table")
    page.check("input[name=decksource][value=text]")
    bad = "4 Lightning Bolt\n0 Mountain\n16 Mountain"
    page.fill("textarea[name=decktext]", bad)
    page.wait_for_selector(".deck-errors li")
    wait_refreshed(ann)
    assert page.input_value("textarea[name=decktext]") == bad
    assert page.input_value("input[name=name]") == "Ann's slow table"
    assert "line 2" in page.inner_text(".deck-errors")
    good = "4 Lightning Bolt\n16 Mountain"
    page.fill("textarea[name=decktext]", good)
    page.wait_for_selector(".deck-errors", state="detached")
    wait_refreshed(ann)
    assert page.input_value("textarea[name=decktext]") == good
    assert page.input_value("input[name=name]") == "Ann's slow table"
    # The list is the deck the room gets.
    page.uncheck("input[name=bots]")
    page.click("#create-form button[type=submit]")
    ann.wait("() => document.querySelector('.wait-panel')")
    ann.wait("() => /ready/.test(document.querySelector('.wseats').innerText)")
    assert "Ann's slow table" in page.inner_text(".wait-panel h2")
    ann.check_console()
    ann.close()


def test_space_after_arming_concede_passes_and_does_not_concede(
        browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    create_from_lobby(ann, bots=True)
    ann.wait("() => document.querySelector('.table-screen')")
    state = wait_primary(ann)
    ann.page.click("button[data-do=concede]")  # one click arms it; the button has the focus
    ann.page.wait_for_selector("text=Really concede?")
    ann.page.keyboard.press("Space")  # the pass key
    ann.page.wait_for_function(SENT, arg=state["decision"]["serial"], timeout=10_000)
    me = ann.read()
    assert me is not None
    assert ann.page.evaluate(f"window.arbiter.view(window.arbiter.match).p{me['me']}.s") == "in"
    assert not me["over"]
    ann.check_console()
    ann.close()


def test_space_after_clicking_a_card_passes(browser: Any, server: Server) -> None:
    room = scenario_room(server, [
        {"library": ["Mountain"] * 10, "hand": ["Mountain", "Lightning Bolt"],
         "battlefield": ["Mountain"]},
        {"library": ["Forest"] * 10, "battlefield": ["Hill Giant"]}])
    ann = Person(browser, server, "Ann")
    sit_with_a_bot(ann, room)
    state = ann.wait_turn()
    assert any(a["kind"] == "pass" for a in state["decision"]["actions"])
    giant = ann.page.locator("#seat-1 .card").first
    giant.click()  # to read it (nothing to do with it): the card takes the focus
    assert ann.page.evaluate("document.activeElement.dataset.obj") is not None
    ann.page.keyboard.press("Space")
    ann.page.wait_for_function(SENT, arg=state["decision"]["serial"], timeout=10_000)
    hand = ann.page.evaluate("() => { const v = window.arbiter.view(window.arbiter.match);"
                             " return Object.values(v).filter(o => o && o.z === 'h' && o.o === 0)"
                             ".map(o => o.n).sort(); }")
    assert hand == ["Lightning Bolt", "Mountain"]  # passed: nothing played, nothing cast
    ann.check_console()
    ann.close()


def test_the_final_board_stays_when_the_game_ends(browser: Any, server: Server) -> None:
    creatures = ["Grizzly Bears", "Hill Giant", "Llanowar Elves", "Runeclaw Bear",
                 "Grizzly Bears", "Hill Giant", "Glistener Elf"]
    room = scenario_room(server, [
        {"library": ["Mountain"] * 10, "hand": ["Lightning Bolt"], "battlefield": ["Mountain"]},
        {"library": ["Forest"] * 10, "battlefield": [*creatures, "Forest"], "life": 3,
         "graveyard": ["Hill Giant", "Forest"]}])
    ann = Person(browser, server, "Ann")
    sit_with_a_bot(ann, room)
    state = ann.wait_turn()
    cast = next(a for a in state["decision"]["actions"] if "Lightning Bolt" in a["label"])
    ann.click_action(cast)
    state = ann.wait_turn()
    assert state["decision"]["kind"] == "target"
    # CR 115: "any target", without a stray article.
    prompt = ann.page.inner_text("#actions .prompt")
    assert prompt == "Choose any target for Lightning Bolt", prompt
    bob = next(a for a in state["decision"]["actions"] if a.get("ref") == ["p", 1])
    ann.click_action(bob)
    ann.wait("() => document.querySelector('.game-over')")
    seat = ann.page.locator("#seat-1")
    assert seat.locator(".card").count() == len(creatures) + 1, seat.inner_text()
    assert "no permanents" not in seat.inner_text()
    assert "Graveyard 2" in seat.inner_text() and "library 10" in seat.inner_text()
    assert ann.page.locator("#stack .card").count() == 0  # the Bolt resolved: not put back
    ann.shot("game-over-final-board")
    ann.check_console()
    ann.close()


def until_ann_blocks(browser: Any, server: Server, room: str) -> tuple[Person, Person]:
    """Ann (seat 0) and Bob (seat 1) at ``room``'s table; Bob attacks with everything and Ann
    passes until she must declare blockers."""
    ann, bob = Person(browser, server, "Ann"), Person(browser, server, "Bob")
    for person, seat in ((ann, 0), (bob, 1)):
        person.enter(f"#/room/{room}")
        person.page.click(f'button[data-do=join][data-seat="{seat}"]')
        person.page.wait_for_selector("#deck-form")
        person.page.click("#deck-form button[type=submit]")
    for p in (ann, bob):
        p.wait("() => document.querySelector('.table-screen')")

    def blocking() -> bool:
        d = (ann.read() or {}).get("decision")
        return d is not None and d["kind"] == "blockers"
    for _ in range(30):
        if blocking():
            break
        for p in (ann, bob):
            state = p.read()
            if state and state["decision"] is not None:
                p.click_action(aggressive(state))
                p.page.wait_for_function(ANSWERED, arg=state["decision"]["serial"])
        ann.page.wait_for_timeout(50)
    assert blocking(), ann.read()
    return ann, bob


def test_a_chosen_blocker_is_marked_and_can_be_taken_back(browser: Any, server: Server) -> None:
    room = scenario_room(server, [
        {"library": ["Forest"] * 10, "battlefield": ["Runeclaw Bear", "Forest"]},
        {"library": ["Forest"] * 10, "battlefield": ["Hill Giant", "Forest"]}], active=1)
    ann, bob = until_ann_blocks(browser, server, room)  # Bob attacks with his Hill Giant
    bear = ann.page.evaluate("() => { const v = window.arbiter.view(window.arbiter.match);"
                             " return Object.keys(v).find(k => v[k].n === 'Runeclaw Bear'); }")
    card = f'#seat-0 [data-obj="{bear}"]'
    ann.page.click(card)  # chosen: marked, not yet declared
    ann.page.wait_for_selector(f"{card}.planned-block")
    assert "will block Hill Giant" in ann.page.inner_text(card)
    assert "Declare these blockers" in ann.page.inner_text("#actions")
    ann.page.click(card)  # taken back
    ann.page.wait_for_selector(f"{card}:not(.planned-block)")
    assert "No blocks" in ann.page.inner_text("#actions")
    ann.page.click(card)
    ann.page.wait_for_selector(f"{card}.planned-block")
    ann.page.locator("body").focus()
    ann.page.keyboard.press("Space")  # declare
    # Declared (the engine's log says so; the Bear may die in the damage step right after).
    ann.wait("() => /Runeclaw Bear blocks Hill Giant\\./.test("
             "document.querySelector('#log').innerText)")
    for p in (ann, bob):
        p.check_console()
        p.close()


def test_the_wording_and_layout_of_the_table(browser: Any, server: Server) -> None:
    hand = ["Forest", "Grizzly Bears", "Hill Giant", "Llanowar Elves", "Runeclaw Bear",
            "Forest", "Lightning Bolt", "Glistener Elf"]
    room = scenario_room(server, [
        {"library": ["Forest"] * 10, "hand": hand, "battlefield": ["Forest"]},
        {"library": ["Forest"] * 10, "hand": ["Forest"], "poison": 3}])
    ann = Person(browser, server, "Ann")
    ann.page.set_viewport_size({"width": 1400, "height": 900})
    ann.enter(f"#/room/{room}")
    # Seats are counted from 1 for people (the wire counts from 0).
    body = ann.page.inner_text(".wait-panel")
    assert "Seat 1" in body and "Seat 2" in body and "Seat 0" not in body, body
    sit_with_a_bot(ann, room, enter=False)
    ann.wait_turn()
    label = ann.page.get_attribute('.seat-head[data-player="1"]', "aria-label") or ""
    assert "1 card in hand" in label and "3 poison counters" in label, label
    # Eight cards in hand, all of them in sight at 1,400 px.
    ann.wait("() => document.querySelectorAll('#hand .card').length === 8")
    hidden = ann.page.evaluate(
        "() => { const box = document.querySelector('#hand .hand-cards').getBoundingClientRect();"
        " return [...document.querySelectorAll('#hand .card')].filter(c => {"
        " const r = c.getBoundingClientRect(); return r.left < box.left - 1"
        " || r.right > box.right + 1 || r.right > window.innerWidth; }).length; }")
    assert hidden == 0
    # A long word in the chat wraps inside the log.
    ann.page.fill("#chat-text", "x" * 300)
    ann.page.press("#chat-text", "Enter")
    ann.wait("() => /xxxxxxxx/.test(document.querySelector('#log').innerText)")
    assert ann.page.evaluate(
        "() => { const l = document.querySelector('#log');"
        " return l.scrollWidth <= l.clientWidth; }")
    ann.shot("table-eight-cards-1400")
    # A spectator is not told the players' keys.
    eve = Person(browser, server, "Eve")
    eve.enter(f"#/room/{room}")
    eve.wait("() => document.querySelector('.table-screen #detail')")
    eve.wait("() => document.querySelector('#detail').innerText.length > 0")
    help_text = eve.page.inner_text("#detail")
    assert "pass" not in help_text.lower() and "watching" in help_text.lower(), help_text
    for p in (ann, eve):
        p.check_console()
        p.close()


def test_a_deck_list_file_is_read_into_the_deck_list_and_checked(
        browser: Any, server: Server, tmp_path: Any) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    page = ann.page
    page.wait_for_selector("#create-form")
    page.check("input[name=decksource][value=text]")
    bad = tmp_path / "typo.txt"
    bad.write_text("4 Lightning Bolt\n4 Lightnin Bolt\n52 Mountain\n")
    page.set_input_files("input[name=deckfile]", str(bad))
    page.wait_for_selector(".deck-errors li")
    assert "line 2" in page.inner_text(".deck-errors")
    assert page.input_value("textarea[name=decktext]") == bad.read_text()
    good = tmp_path / "red.txt"
    good.write_text("4 Lightning Bolt\n56 Mountain\n")
    page.set_input_files("input[name=deckfile]", str(good))
    page.wait_for_selector(".deck-errors", state="detached")
    assert page.input_value("textarea[name=decktext]") == good.read_text()
    page.uncheck("input[name=bots]")
    page.click("#create-form button[type=submit]")
    ann.wait("() => document.querySelector('.wait-panel')")
    ann.wait("() => /ready/.test(document.querySelector('.wseats').innerText)")
    ann.check_console()
    ann.close()
