"""Links that open a room (issue 29, docs/clients.md "Waiting room"): the room's header copies
`#room=ID`, which seats whoever opens it in the first free seat, and `#watch=ID`, which opens
the room for watching; a player link to a full room falls back to watching it. Every wait is
on a condition with a bounded timeout; no page may log an error or a warning."""

from __future__ import annotations

from typing import Any

from .browser import Person, Server
from .test_browser import create_from_lobby

SEATED = "m => window.arbiter.mySeat(m) !== null && location.hash === `#/room/${m}`"
WATCHING = ("m => window.arbiter.mySeat(m) === null && window.arbiter.watching.has(m)"
            " && location.hash === `#/room/${m}`")


def copied(person: Person, selector: str) -> str:
    """Click a share button and read what it put on the clipboard."""
    person.context.grant_permissions(["clipboard-read", "clipboard-write"],
                                     origin=person.server.url.rstrip("/"))
    person.page.evaluate("() => navigator.clipboard.writeText('')")
    person.page.click(selector)
    person.page.wait_for_function("() => navigator.clipboard.readText().then(t => t !== '')")
    text: str = person.page.evaluate("() => navigator.clipboard.readText()")
    return text


def test_a_player_link_seats_a_friend_and_a_watch_link_opens_the_room_for_watching(
        browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    room = create_from_lobby(ann, seats=2)  # Ann sits with her deck; one seat is free
    ann.page.wait_for_selector(".wait-panel")
    link = copied(ann, '.wait-panel button[data-do="share"][data-as="room"]')
    assert link == f"{server.url}#room={room}"
    # Bob opens the link: he sits in the free seat and gives his deck; the game starts.
    bob = Person(browser, server, "Bob")
    bob.enter(f"#room={room}")
    bob.page.wait_for_function(SEATED, arg=room)
    assert bob.page.evaluate("m => window.arbiter.mySeat(m)", room) == 1  # the free seat
    bob.page.wait_for_selector("#deck-form")
    bob.page.click("#deck-form button[type=submit]")
    for person in (ann, bob):
        person.wait("() => document.querySelector('.table-screen')")
    # The table's header copies the watch link; Eve opens it and watches.
    watch = copied(ann, '#topbar button[data-do="share"][data-as="watch"]')
    assert watch == f"{server.url}#watch={room}"
    eve = Person(browser, server, "Eve")
    eve.enter(f"#watch={room}")
    eve.page.wait_for_function(WATCHING, arg=room)
    eve.wait("() => document.querySelector('.table-screen')")
    # A player link to a room without a free seat: Carl is told, and watches.
    carl = Person(browser, server, "Carl")
    carl.enter(f"#room={room}")
    carl.page.wait_for_function(WATCHING, arg=room)
    carl.page.wait_for_function("() => /No seat for you/.test(document.getElementById('toast')"
                                ".textContent)")
    for person in (ann, bob, eve, carl):
        person.check_console()
        person.close()
