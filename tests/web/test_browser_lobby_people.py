"""The lobby's people and chat in the browser (issue 29, "A lobby with people in it";
docs/clients.md "Lobby"): two pages each see the other online, with what they are doing; a
line one says reaches the other's chat log, a live region, as text (a hostile string shows as
typed and runs nothing); a muted name's lines are not shown; at 390 px the panel fits without
sideways scrolling and every control has a name. Every wait is on a condition with a bounded
timeout; no page may log an error or a warning."""

from __future__ import annotations

from typing import Any

from .browser import Person, Server
from .test_browser_a11y import live_regions, unnamed_controls
from .test_browser_phone import NO_SIDEWAYS, PHONE

HOSTILE = "<img src=x onerror=alert(1)>"

COUNT = "document.querySelector('.people-count')?.textContent ?? ''"
PEOPLE = "() => [...document.querySelectorAll('#lobby-people .person')].map(li => li.textContent)"


def sees(person: Person, who: str, status: str) -> None:
    """Wait until ``person``'s people list shows ``who`` doing ``status``."""
    person.wait(f"() => [...document.querySelectorAll('#lobby-people .person')].some(li =>"
                f" li.querySelector('.pname').textContent.startsWith({who!r})"
                f" && li.querySelector('.pstatus').textContent === {status!r})")


def chat_lines(person: Person) -> list[str]:
    lines: list[str] = person.page.evaluate(
        "() => [...document.querySelectorAll('#lobby-chat-log p')].map(p => p.textContent)")
    return lines


def test_two_pages_see_each_other_online_and_chat_as_text(browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    bob = Person(browser, server, "Bob", PHONE, touch=True)
    bob.enter()
    for person, other in ((ann, "Bob"), (bob, "Ann")):
        sees(person, other, "in the lobby")
        person.wait(f"() => /2 online/.test({COUNT})")
    assert bob.page.evaluate(NO_SIDEWAYS)
    assert unnamed_controls(bob) == []
    assert live_regions(ann).get("lobby-chat-log") == "polite"

    # Bob says a hostile string: both logs show it as text, and no image element was made.
    bob.page.fill("#lobby-chat-text", HOSTILE)
    bob.page.press("#lobby-chat-text", "Enter")
    for person in (ann, bob):
        person.wait(f"() => [...document.querySelectorAll('#lobby-chat-log p')]"
                    f".some(p => p.textContent === {f'Bob: {HOSTILE}'!r})")
        assert person.page.evaluate("() => document.querySelectorAll('img').length") == 0
    assert bob.page.input_value("#lobby-chat-text") == ""  # sent: the box is cleared

    # Ann answers by keyboard alone; Bob reads it.
    ann.page.focus("#lobby-chat-text")
    ann.page.keyboard.type("hi Bob")
    ann.page.keyboard.press("Enter")
    bob.wait("() => [...document.querySelectorAll('#lobby-chat-log p')]"
             ".some(p => p.textContent === 'Ann: hi Bob')")

    # Ann mutes Bob: his lines leave her log, and the next ones do not appear there.
    ann.page.click('#lobby-people button[data-do="mute"][data-name="Bob"]')
    ann.wait("() => ![...document.querySelectorAll('#lobby-chat-log p')]"
             ".some(p => p.textContent.startsWith('Bob: '))")
    bob.page.fill("#lobby-chat-text", "still there?")
    bob.page.press("#lobby-chat-text", "Enter")
    bob.wait("() => [...document.querySelectorAll('#lobby-chat-log p')]"
             ".some(p => p.textContent === 'Bob: still there?')")
    ann.page.fill("#lobby-chat-text", "after the mute")
    ann.page.press("#lobby-chat-text", "Enter")
    ann.wait("() => [...document.querySelectorAll('#lobby-chat-log p')]"
             ".some(p => p.textContent === 'Ann: after the mute')")
    assert chat_lines(ann) == ["Ann: hi Bob", "Ann: after the mute"]

    # Ann sits down at a new room: Bob sees her playing it; a search finds her.
    ann.page.click("#create-form button[type=submit]")
    ann.wait("() => window.arbiter.match !== null")
    room = ann.page.evaluate("() => window.arbiter.match")
    sees(bob, "Ann", f"playing room {room}")
    bob.page.fill("#people-search", "an")
    bob.wait(f"() => /1 online named like/.test({COUNT})")
    assert [t.split(" ")[0] for t in bob.page.evaluate(PEOPLE)] == ["Ann"]
    for person in (ann, bob):
        person.check_console()
        person.close()
