"""The browser client in a real headless Chromium against a real ``arbiter serve``: people who
create rooms, take seats, play whole games by clicking cards and players, concede, reload the
page mid-game, watch by a room's link (and go on watching after the server is killed and
restarted) and play a Shahrazad subgame (CR 726). No test ends with an error or a warning in
any page's console (but for the refused connects while a killed server is down).

Screenshots of the lobby, a table mid-game, a subgame and a game over are written to
tests/web/screenshots/ (git-ignored)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import trio

from arbiter.clients.sdk import open_client

from .browser import Person, Server, aggressive, running_server

LIBRARY = ["Plains", "Shahrazad", "Plains", "Plains", "Shahrazad"] * 6


def create_from_lobby(person: Person, *, seats: int = 2, bots: bool = False,
                      deck: str = "quick-red", variant: str | None = None) -> str:
    page = person.page
    page.wait_for_selector("#create-form")
    if variant is not None:
        page.select_option("select[name=variant]", variant)
    page.select_option("select[name=seats]", str(seats))
    page.select_option("select[name=deck]", deck)
    if not bots:
        page.uncheck("input[name=bots]")
    page.fill("input[name=name]", f"{person.name}'s table")
    page.click("#create-form button[type=submit]")
    person.wait("() => /^#\\/room\\/\\d+$/.test(location.hash)")
    person.wait("() => document.querySelector('.wait-panel, .table-screen')")
    return str(page.evaluate("location.hash.split('/').pop()"))


def play_until(people: list[Person], done: Any, choose: Any = aggressive,
               limit: float = 240.0) -> None:
    """Each person answers their decisions (by clicking) until ``done()``."""
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        acted = False
        for p in people:
            state = p.read()
            if state and state["decision"] is not None and not state["over"]:
                p.click_action(choose(state))
                acted = True
                p.page.wait_for_function(
                    "s => { const a = window.arbiter; const d = a.decision(a.match);"
                    " return !d || d.serial !== s; }", arg=state["decision"]["serial"])
        if not acted:
            people[0].page.wait_for_timeout(30)  # the bot's turn: look again shortly


def test_a_person_creates_a_room_adds_a_bot_and_plays_a_game_to_its_end(
        browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    # A pasted deck list: every bad line is shown, with its number, before anything is sent.
    ann.page.check("input[name=decksource][value=text]")
    ann.page.fill("textarea[name=decktext]", "4 Lightning Bolt\n0 Mountain\n3\n16 Mountain")
    ann.page.wait_for_selector(".deck-errors li:nth-child(2)")
    errors = ann.page.inner_text(".deck-errors")
    assert "line 2" in errors and "line 3" in errors and "line 1" not in errors
    ann.page.check("input[name=decksource][value=ready]")
    ann.shot("lobby-create")
    create_from_lobby(ann, bots=True)  # "Fill the other seats with bots": the server runs one
    ann.wait("() => document.querySelector('.table-screen')")
    play_until([ann], lambda: (ann.read() or {}).get("turn", 0) >= 4)
    ann.wait("() => document.querySelectorAll('#seats .card').length > 0")
    ann.shot("table-mid-game")
    play_until([ann], lambda: (ann.read() or {}).get("over", False), limit=300)
    state = ann.read()
    assert state is not None and state["result"]["outcomes"]
    ann.wait("() => document.querySelector('.game-over')")
    text = ann.page.inner_text(".game-over")
    assert "Game over" in text and "CR 104." in text
    ann.shot("game-over")
    assert ann.clicks > 10
    figures = ann.page.evaluate("window.arbiter.figures()")
    assert figures["stats"]["desyncs"] == 0 and figures["delta"]["n"] > 20
    assert "bot" in ann.page.inner_text('.seat-head[data-player="1"]').lower()
    ann.check_console()
    ann.close()


def test_three_players_one_concedes_and_the_others_play_on(browser: Any, server: Server
                                                          ) -> None:
    ann, bob, cid = (Person(browser, server, n) for n in ("Ann", "Bob", "Cid"))
    for p in (ann, bob, cid):
        p.enter()
    ann.page.select_option("select[name=clock]", "20")
    room = create_from_lobby(ann, seats=3, variant="free_for_all")
    for p, deck in ((bob, "quick-green"), (cid, "quick-red")):
        p.page.click("button[data-do=refresh]")
        p.page.wait_for_selector(f'tr[data-room-row="{room}"] button[data-do=join]')
        if p is bob:
            p.shot("lobby")
        p.page.click(f'tr[data-room-row="{room}"] button[data-do=join]')
        p.page.wait_for_selector("#deck-form")
        p.page.select_option("#deck-form select[name=deck]", deck)
        p.page.click("#deck-form button[type=submit]")
    people = [ann, bob, cid]
    for p in people:
        p.wait("() => document.querySelector('.table-screen')")
    play_until(people, lambda: (ann.read() or {}).get("turn", 0) >= 3)
    assert ann.page.locator("#topbar .clock").count() == 3  # the chess clocks
    bob.page.press("body", "/")
    bob.page.keyboard.type("good game, I am out")
    bob.page.keyboard.press("Enter")
    for p in people:
        p.wait("() => /Bob: good game, I am out/.test(document.querySelector('#log').innerText)")
    # Bob concedes (CR 104.3a): one click arms the button, the second concedes.
    bob.page.click("button[data-do=concede]")
    bob.page.wait_for_selector("text=Really concede?")
    bob.page.click("button[data-do=concede]")
    bob.wait("() => (window.arbiter.view(window.arbiter.match).p1 || {}).s === 'lost'")
    for p in (ann, cid):
        p.wait("() => (window.arbiter.view(window.arbiter.match).p1 || {}).s === 'lost'")
        head = p.page.inner_text('.seat-head[data-player="1"]')
        assert "left the game" in head.lower(), head
    cid.shot("table-a-player-left")
    turn = (ann.read() or {})["turn"]
    assert not (ann.read() or {})["over"]
    # The others play on for two more turns, then agree to a draw (CR 104.4i).
    play_until([ann, cid], lambda: (ann.read() or {}).get("turn", 0) >= turn + 2)
    assert (bob.read() or {})["decision"] is None
    # An offer lapses as soon as the game changes (CR 104.4i), and a page with auto-pass on
    # passes for its player on its own: propose only once the game waits on a person's click.
    for p in (ann, cid):
        p.page.click('button[data-do="autopass"]')
        p.wait("() => !window.arbiter.autoPass")
    deadline = time.monotonic() + 20
    while not any((p.read() or {}).get("decision") for p in (ann, cid)):
        assert time.monotonic() < deadline, "the game never waited on Ann or Cid"
        ann.page.wait_for_timeout(30)
    ann.page.click("button[data-do=draw][data-op=propose]")
    cid.page.wait_for_selector("#banner button[data-op=accept]")
    cid.page.click("#banner button[data-op=accept]")
    for p in people:
        p.wait("() => document.querySelector('.game-over')")
    assert "agreed draw" in ann.page.inner_text(".game-over")
    for p in people:
        p.check_console()
        p.close()


def test_a_reload_mid_game_returns_to_the_same_seat_and_the_game_goes_on(
        browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    room = create_from_lobby(ann, bots=True)
    ann.wait("() => document.querySelector('.table-screen')")
    play_until([ann], lambda: (ann.read() or {}).get("turn", 0) >= 3)
    before = ann.read()
    assert before is not None
    session = ann.page.evaluate("window.arbiter.conn.session")
    ann.page.reload()
    # No name is asked: the session in the browser's storage brings the seat back.
    ann.wait("() => window.arbiter && window.arbiter.conn.ready "
             "&& document.querySelector('.table-screen')")
    after = ann.read()
    assert after is not None
    assert after["match"] == room and after["me"] == before["me"] == 0
    assert ann.page.evaluate("window.arbiter.conn.session") == session
    assert after["turn"] >= before["turn"]
    # Played from the keyboard this time.
    deadline = time.monotonic() + 120
    while (ann.read() or {}).get("turn", 0) < before["turn"] + 2:
        assert time.monotonic() < deadline
        state = ann.wait_turn()
        ann.key_action(aggressive(state))
        ann.page.wait_for_function(
            "s => { const a = window.arbiter; const d = a.decision(a.match);"
            " return !d || d.serial !== s; }", arg=state["decision"]["serial"])
    # And a dropped connection (not a reload) resumes the same way.
    ann.page.evaluate("window.arbiter.conn.drop()")
    ann.wait("() => window.arbiter.conn.stats.reconnects >= 1 && window.arbiter.conn.ready")
    play_until([ann], lambda: (ann.read() or {}).get("turn", 0) >= before["turn"] + 3)
    assert ann.page.evaluate("window.arbiter.conn.stats.desyncs") == 0
    # A reload closes the page's socket while it is open: that is not a console error.
    ann.check_console()
    ann.close()


def test_a_spectator_by_link_sees_no_hidden_card(browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    room = create_from_lobby(ann, bots=True)
    eve = Person(browser, server, "Eve")
    ann.wait("() => document.querySelector('.table-screen')")
    play_until([ann], lambda: (ann.read() or {}).get("turn", 0) >= 3)
    eve.enter(f"#/room/{room}")
    eve.wait("() => document.querySelector('.table-screen') && "
             "document.querySelectorAll('#seats .seat').length === 2")
    assert "Watching" in eve.page.inner_text("#hand")
    held = 0
    for _ in range(3):  # look at several moments of the game
        ann.play_one(aggressive)
        hidden = ann.page.evaluate(
            "() => { const v = window.arbiter.view(window.arbiter.match);"
            " return Object.keys(v).filter(k => v[k] && v[k].z === 'h'); }")
        held += len(hidden)
        eve.page.wait_for_timeout(200)
        seen = eve.page.evaluate(
            "ids => { const v = window.arbiter.view(window.arbiter.match);"
            " return {inView: Object.keys(v).filter(k => v[k] && v[k].z === 'h'),"
            "  inPage: ids.filter(id => document.querySelector(`[data-obj=\"${id}\"]`))}; }",
            hidden)
        assert seen == {"inView": [], "inPage": []}
        counts = eve.page.inner_text('.seat-head[data-player="0"]')
        assert "hand" in counts
    assert held > 0, "Ann held cards the spectator must not see"
    for p in (ann, eve):
        p.check_console()
        p.close()


def no_shahrazad(state: dict[str, Any]) -> dict[str, Any]:
    """As aggressive, but no second subgame."""
    acts = [a for a in state["decision"]["actions"] if "Shahrazad" not in a["label"]]
    return aggressive({**state, "decision": {**state["decision"], "actions": acts}})


def _create_shahrazad_room(server: Server) -> str:
    """A room whose first seat starts with Shahrazad in hand (a scenario, which only the wire
    can ask for: the page offers people the real game's settings)."""
    setups = [{"library": LIBRARY, "hand": ["Shahrazad"], "battlefield": ["Plains", "Plains"]},
              {"library": LIBRARY, "battlefield": ["Plains"]}]

    async def create() -> str:
        async with open_client(server.ws_url, "Host") as host:
            return await host.create({"name": "Shahrazad", "seats": 2, "seed": 4,
                                      "scenario": {"players": setups, "active": 0}})
    return trio.run(create)


def test_a_shahrazad_subgame_pauses_the_main_game_and_returns_to_it(
        browser: Any, server: Server) -> None:
    room = _create_shahrazad_room(server)
    ann = Person(browser, server, "Ann")
    ann.enter()
    ann.page.wait_for_selector(f'tr[data-room-row="{room}"] button[data-do=join]')
    ann.page.click(f'tr[data-room-row="{room}"] button[data-do=join]')
    ann.page.wait_for_selector('button[data-do=bot][data-seat="1"]')
    ann.page.click('button[data-do=bot][data-seat="1"]')  # the waiting room's "Add a bot"
    ann.page.wait_for_selector("#deck-form")
    ann.page.click("#deck-form button[type=submit]")
    ann.wait("() => document.querySelector('.table-screen')")
    state = ann.wait_turn()
    cast = [a for a in state["decision"]["actions"]
            if a["kind"] == "cast" and "Shahrazad" in a["label"]]
    assert cast, state["decision"]
    ann.click_action(cast[0])  # click Shahrazad in the hand
    # The spell resolves (the bot passes) and the subgame begins (CR 726).
    ann.wait("() => { const a = window.arbiter; return a.roomsOf(a.match).length === 2; }")
    ann.wait("() => document.querySelector('.banner.sub')")
    banner = ann.page.inner_text("#banner")
    assert "MAIN GAME PAUSED" in banner and "depth 1" in banner
    assert "subgame depth 1" in ann.page.inner_text("#topbar")
    sub = (ann.read() or {})["room"]
    assert sub.startswith(f"{room}.")
    play_until([ann], lambda: (ann.read() or {}).get("turn", 0) >= 2, choose=no_shahrazad)
    ann.shot("subgame")
    # Ann concedes the subgame (the innermost game, CR 104.3a); the main game resumes.
    ann.page.click("button[data-do=concede]")
    ann.page.click("button[data-do=concede]")
    ann.wait("() => { const a = window.arbiter; return a.roomsOf(a.match).length === 1; }")
    state = ann.read()
    assert state is not None and state["room"] == room and state["depth"] == 0
    ann.wait("() => !document.querySelector('.banner.sub') || "
             "/Subgame over/.test(document.querySelector('#banner').innerText)")
    assert "MAIN GAME PAUSED" not in ann.page.inner_text("#banner")
    log = ann.page.inner_text("#log")
    assert f"The subgame in room {sub} ended" in log
    # The main game goes on: Ann gets decisions in the main room again.
    state = ann.wait_turn()
    assert state["room"] == room and not state["over"]
    assert state["decision"] is not None and state["decision"]["room"] == room
    ann.check_console()
    ann.close()


def test_a_restart_is_shown_as_a_fresh_game_and_who_starts(browser: Any, server: Server
                                                           ) -> None:
    """Karn Liberated restarts the game (CR 724): the page says so and who takes the first
    turn (CR 724.1a), and the fresh game starts with a new hand to keep."""
    library = ["Mountain", "Hill Giant", "Mountain", "Lightning Bolt"] * 6
    setups = [{"library": library, "battlefield": ["Karn Liberated", "Mountain"],
               "counters": [[0, "loyalty", 14]]},
              {"library": library, "hand": ["Mountain"]}]

    async def create() -> str:
        async with open_client(server.ws_url, "Host") as host:
            return await host.create({"name": "Karn", "seats": 2, "seed": 8,
                                      "scenario": {"players": setups, "active": 0}})
    room = trio.run(create)
    ann = Person(browser, server, "Ann")
    ann.enter(f"#/room/{room}")
    ann.page.wait_for_selector('button[data-do=join][data-seat="0"]')
    ann.page.click('button[data-do=join][data-seat="0"]')
    ann.page.wait_for_selector('button[data-do=bot][data-seat="1"]')
    ann.page.click('button[data-do=bot][data-seat="1"]')  # the waiting room's "Add a bot"
    ann.page.wait_for_selector("#deck-form")
    ann.page.click("#deck-form button[type=submit]")
    state = ann.wait_turn()
    old_game = ann.page.evaluate("window.arbiter.view(window.arbiter.match).g.n")
    restart = next(a for a in state["decision"]["actions"] if "Restart" in a["label"])
    ann.click_action(restart)  # Karn on the battlefield: a menu of its abilities
    ann.wait("() => /The game restarted \\(CR 724\\)/.test("
             "document.querySelector('#banner').innerText)", timeout=30_000)
    banner = ann.page.inner_text("#banner")
    assert "takes the first turn" in banner
    # The restart's message comes first, the new game's snapshot in a frame of its own.
    ann.wait(f"() => window.arbiter.view(window.arbiter.match).g.n !== {int(old_game)}")
    state = ann.wait_turn()
    assert state["turn"] <= 1 and not state["over"]
    assert ann.page.locator(".seat .card").count() == 0, "a fresh game: no permanents"
    ann.check_console()
    ann.close()


def test_807_a_grand_melee_room_shows_every_turn_marker_and_its_own_stack(
        browser: Any, tmp_path: Path) -> None:
    """A ten-seat Grand Melee room made in the lobby, the other seats filled with bots: the
    table lists both turn markers with the turn each is in and who may act on its stack (CR
    807.4, 807.5a), marks both players taking a turn as active, and says which stack each
    decision is for, while the person plays on by clicking until the markers have passed on."""
    with running_server(tmp_path, "--bot-think", "0.02") as server:
        ann = Person(browser, server, "Ann")
        ann.enter()
        ann.page.wait_for_selector("#create-form")
        ann.page.select_option("select[name=variant]", "grand_melee")
        seats = ann.page.eval_on_selector_all("select[name=seats] option",
                                              "os => os.map(o => Number(o.value))")
        assert seats == list(range(4, 25))  # the catalog's 4 to 24 seats (CR 807.1)
        create_from_lobby(ann, seats=10, bots=True, variant="grand_melee")
        ann.wait("() => document.querySelector('.table-screen')")
        seen: set[str] = set()

        def look() -> bool:
            stack = ann.page.inner_text("#stack")
            turns = ann.page.locator("#stack .marker:not(.waiting)").count()
            if turns == 2 and ann.page.locator(".seat.active").count() == 2:
                seen.add("two turns, two active players")
            if "Turn marker 1" in stack and "Turn marker 2" in stack and \
                    "may act on its stack:" in stack:
                seen.add("markers")
            if re.search(r"(has priority|decides \(\w+\)) for stack [12]",
                         ann.page.inner_text("#topbar")):
                seen.add("stack named")
            return (ann.read() or {}).get("turn", 0) >= 4

        play_until([ann], look, limit=240)
        assert seen == {"two turns, two active players", "markers", "stack named"}
        ann.shot("grand-melee")
        ann.check_console()
        ann.close()


def test_a_spectators_page_goes_on_after_the_server_is_killed_and_restarted(
        browser: Any, server: Server, tmp_path: Path) -> None:
    """Issue 27.18: the page said "connected" after a restart but stayed at the turn of the
    crash (the restarted server ignored a spectator's resume)."""
    ann = Person(browser, server, "Ann")
    ann.enter()
    room = create_from_lobby(ann, bots=True)
    ann.wait("() => document.querySelector('.table-screen')")
    play_until([ann], lambda: (ann.read() or {}).get("turn", 0) >= 2)
    eve = Person(browser, server, "Eve")
    eve.enter(f"#/room/{room}")
    eve.wait("() => document.querySelector('.table-screen')")
    server.proc.kill()  # SIGKILL: nothing said to anyone
    server.proc.wait(10)
    turn = (ann.read() or {}).get("turn", 0)
    again = Server(tmp_path, "--port", str(server.port))  # the same log, the same port
    try:
        for p in (ann, eve):
            p.wait("() => window.arbiter.conn.stats.reconnects >= 1 "
                   "&& window.arbiter.conn.ready", timeout=30_000)
        play_until([ann], lambda: (ann.read() or {}).get("turn", 0) >= turn + 2)
        eve.wait(f"() => {{ const v = window.arbiter.view(window.arbiter.match) || {{}};"
                 f" return (v.t || [0])[0] >= {turn + 2}; }}", timeout=30_000)
        assert eve.page.evaluate("window.arbiter.conn.stats.desyncs") == 0
        for p in (ann, eve):  # the refused connects while the server was down are no fault
            assert [x for x in p.problems if "WebSocket connection to" not in x] == []
            p.close()
    finally:
        again.stop()
