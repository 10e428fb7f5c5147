"""Limited events in a real headless Chromium against a real ``arbiter serve`` (issue 26,
docs/clients.md "Limited events", docs/events.md): a person hosts a booster draft of eight
seats filled with bots, drafts all 45 picks by clicking, builds a legal deck in the deck builder
(a deck under 40 cards refused first, CR 100.2b, and kept), plays round one to its end at the
ordinary table and sees the event go on to round 2 with standings; players are listed as they
join, a spectator's page shows no pack during the draft and a drop is confirmed first; the
draft and the deck builder fit a phone and take taps. Every wait is on a condition with a
bounded timeout; no page may log an error or a warning."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import Person, Server, aggressive, running_server

PHONE = {"width": 390, "height": 844}
NO_SIDEWAYS = ("() => document.documentElement.scrollWidth"
               " <= document.documentElement.clientWidth")
BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
COLOURS = "RG"  # the colours the test drafts and builds


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Server]:
    """A server whose bots think for 20 ms, so that a round of bots' matches ends quickly."""
    with running_server(tmp_path, "--bot-think", "0.02") as s:
        yield s


def event_id(person: Person) -> str:
    person.wait("() => /^#\\/event\\/\\d+$/.test(location.hash)")
    found: str = person.page.evaluate("() => location.hash.split('/')[2]")
    return found


def state(person: Person, event: str) -> dict[str, Any]:
    """The latest state of ``event`` the person's page was sent."""
    ev: dict[str, Any] = person.page.evaluate(
        "id => { const s = window.arbiter.ev.states.get(id); return s ? s.ev : null; }", event)
    return ev


def wait_event(person: Person, event: str, condition: str, timeout: float = 20_000) -> None:
    """Wait until ``condition`` (JavaScript on ``ev``, the event's latest state) holds."""
    person.page.wait_for_function(
        "([id, cond]) => { const s = window.arbiter.ev.states.get(id); if (!s) return false;"
        " const ev = s.ev; return new Function('ev', 'return ' + cond)(ev); }",
        arg=[event, condition], timeout=timeout)


def host(person: Person, *, kind: str, seats: int, best_of: int, tap: bool = False) -> str:
    """Host an event with the lobby's form (and take a seat in it); its id."""
    page = person.page
    page.wait_for_selector("#ev-host-form")
    page.fill("#ev-host-form input[name=name]", f"{person.name}'s {kind}")
    page.select_option("#ev-host-form select[name=kind]", kind)
    page.fill("#ev-host-form input[name=seats]", str(seats))
    page.select_option("#ev-host-form select[name=best_of]", str(best_of))
    submit = page.locator("#ev-host-form button[type=submit]")
    if tap:
        submit.tap()
    else:
        submit.click()
    event = event_id(person)
    wait_event(person, event, f"ev.phase === 'lobby' && ev.you && ev.config.seats === {seats}")
    return event


def preferred(pack: list[str], cards: dict[str, Any]) -> str:
    """The card the test drafts: one of its colours (a cheap creature first), else any."""
    def score(name: str) -> tuple[int, int, int]:
        card = cards.get(name, {})
        colours = card.get("colors", "")
        ours = bool(colours) and set(colours) <= set(COLOURS)
        creature = "Creature" in card.get("types", "")
        return (0 if ours else 1, 0 if creature else 1, card.get("mv", 0))
    return min(pack, key=score)


def cards_of(person: Person) -> dict[str, Any]:
    person.wait("() => window.arbiter.catalog !== null")
    found: dict[str, Any] = person.page.evaluate("() => window.arbiter.catalog.cards")
    return found


def test_a_person_drafts_a_full_pod_builds_plays_round_one_and_sees_round_two(
        browser: Any, quick: Server) -> None:
    ann = Person(browser, quick, "Ann")
    ann.enter()
    cards = cards_of(ann)
    event = host(ann, kind="draft", seats=8, best_of=1)
    page = ann.page
    assert "Ann" in page.inner_text(".ev-entrants")
    page.click("[data-do=ev-start]")
    wait_event(ann, event, "ev.phase === 'drafting' && ev.you.pack")
    ev = state(ann, event)
    assert [e["b"] for e in ev["entrants"]] == [False] + [True] * 7
    assert page.locator(".ev-pack .ev-card").count() == 15
    assert page.locator(".ev-pack .ev-card .ev-rarity").count() == 15, "rarity on each face"
    timer = page.inner_text("#ev-timer")
    ann.wait(f"() => document.querySelector('#ev-timer').textContent !== {json.dumps(timer)}",
             5_000)  # counted down in the page between messages
    ann.shot("event-draft")
    for n in range(45):
        wait_event(ann, event,
                   f"ev.phase !== 'drafting' || (ev.you.pack && ev.you.picks.length === {n})")
        ev = state(ann, event)
        assert ev["phase"] == "drafting", f"the draft ended after {n} picks"
        heading = f"Pack {ev['draft']['pack']} · pick {ev['you']['pick']}"
        assert heading in page.inner_text("#ev-main")
        card = preferred(ev["you"]["pack"], cards)
        button = page.locator(f'.ev-pack .ev-card[data-card="{card}"]').first
        if n == 0:  # the keyboard takes a card too
            button.focus()
            page.keyboard.press("Enter")
        else:
            button.click()
        ann.clicks += 1
    wait_event(ann, event, "ev.phase === 'building'")
    ev = state(ann, event)
    pool = ev["you"]["pool"]
    assert sum(pool.values()) == 45
    # The builder: a deck of our colours from the pool.
    ours = sorted((n for n in pool if n not in BASICS.values()
                   and set(cards[n]["colors"]) <= set(COLOURS)
                   and "Land" not in cards[n]["types"] and cards[n]["mv"] <= 6),
                  key=lambda n: (cards[n]["mv"], n))
    spells: list[str] = []
    for name in ours:
        spells += [name] * pool[name]
    spells = spells[:23]
    for name in spells:
        page.click(f'#ev-sideboard button[data-card="{name}"]')
    page.wait_for_function(f"() => document.querySelector('#ev-count').textContent"
                           f" === '{len(spells)} / 40'")
    assert "short" in (page.get_attribute("#ev-count", "class") or "")
    # Too few cards: the server refuses the deck (bad_deck), the page says so and keeps it.
    page.click("[data-do=ev-submit]")
    page.wait_for_selector(".ev-build .deck-errors")
    assert "at least 40" in page.inner_text(".ev-build .deck-errors")
    assert page.inner_text("#ev-count") == f"{len(spells)} / 40"
    # Basic lands by the colours' symbols in the spells' costs, to 40 cards.
    symbols = {c: sum(cards[n]["cost"].count(c) for n in spells) for c in COLOURS}
    lands = max(17, 40 - len(spells))
    share = {c: round(lands * symbols[c] / max(1, sum(symbols.values()))) for c in COLOURS}
    share[COLOURS[0]] = lands - share[COLOURS[1]]
    for colour, count in share.items():
        for _ in range(count):
            page.click(f'[data-do=ev-basic][data-card="{BASICS[colour]}"][data-step="1"]')
    page.wait_for_function("() => document.querySelector('#ev-count.ok')")
    size = len(spells) + lands
    assert page.inner_text("#ev-count") == f"{size} / 40"
    assert page.locator(".ev-curve .ev-bar").count() == 7
    ann.shot("event-builder")
    page.click("[data-do=ev-submit]")
    # The last deck in: round one is paired and the page takes Ann to her match's table.
    wait_event(ann, event, "ev.phase === 'playing' && ev.round === 1 && ev.you.match")
    match = state(ann, event)["you"]["match"]["r"]
    ann.wait(f"() => window.arbiter.match === {json.dumps(match)}")
    for _ in range(600):
        table = ann.wait_turn(60_000)
        if table["over"]:
            break
        ann.click_action(aggressive(table))
    else:
        raise AssertionError("the match did not end")
    assert table["match"] == match
    # After the match, back to the event: the round goes on to its end and round 2 is paired.
    event_id(ann)
    wait_event(ann, event, "ev.round === 2 && ev.standings && ev.standings.length === 8", 90_000)
    ann.wait("() => document.querySelectorAll('.ev-standings tbody tr').length === 8")
    ev = state(ann, event)
    assert sum(s["points"] for s in ev["standings"]) == 12, "four matches, three points each"
    text = page.inner_text("#ev-main")
    assert "Round 2 of 3" in text and "OMW%" in text and "%" in text
    mine = next(s for s in ev["standings"] if s["seat"] == 0)
    assert (mine["w"], mine["l"]) in ((1, 0), (0, 1))
    ann.shot("event-standings")
    ann.check_console()
    ann.close()


def test_players_listed_as_they_join_a_spectator_sees_no_pack_a_drop_is_confirmed(
        browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann", PHONE, touch=True)
    ann.enter()
    assert ann.page.evaluate(NO_SIDEWAYS)
    event = host(ann, kind="draft", seats=4, best_of=3, tap=True)
    eve = Person(browser, server, "Eve")
    eve.enter()
    eve.page.wait_for_selector(f'[data-event-row="{event}"]')
    eve.shot("lobby-events")
    eve.page.click(f'[data-event-row="{event}"] [data-do=ev-watch]')
    wait_event(eve, event, "ev.phase === 'lobby' && ev.entrants.length === 1")
    assert "Ann" in eve.page.inner_text(".ev-entrants")
    assert eve.page.locator("[data-do=ev-start]").count() == 0, "only the host starts it"
    bob = Person(browser, server, "Bob")
    bob.enter()
    bob.page.click(f'[data-event-row="{event}"] [data-do=ev-join]')
    wait_event(bob, event, "ev.you && ev.you.seat === 1")
    for p in (ann, eve):  # the players are listed as they join
        p.wait("() => /Bob/.test(document.querySelector('.ev-entrants').innerText)")
    ann.page.tap("[data-do=ev-start]")
    wait_event(ann, event, "ev.phase === 'drafting' && ev.you.pack")
    ann.page.wait_for_selector(".ev-pack .ev-card")
    assert ann.page.evaluate(NO_SIDEWAYS)
    box = ann.page.locator(".ev-pack .ev-card").first.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"] / 2
    ann.shot("event-draft-390")
    ann.page.locator(".ev-pack .ev-card").first.tap()  # a tap takes the card
    wait_event(ann, event, "ev.you.picks.length === 1")
    # A reload puts Ann back at her seat of the draft, her pick kept.
    ann.page.reload()
    ann.wait("() => window.arbiter && window.arbiter.conn.ready")
    wait_event(ann, event, "ev.you && ev.you.picks.length === 1 && ev.you.pack")
    ann.page.wait_for_selector(".ev-pack .ev-card")
    pack = state(ann, event)["you"]["pack"] or []
    picks = state(ann, event)["you"]["picks"]
    secret = (set(pack) | set(picks)) - set(BASICS.values())
    wait_event(eve, event, "ev.phase === 'drafting'")
    seen = state(eve, event)
    assert "you" not in seen and "pools" not in seen
    shown = eve.page.inner_text("body")
    assert eve.page.locator(".ev-pack, .ev-card").count() == 0
    leaked = [card for card in secret if card in shown or card in json.dumps(seen)]
    assert leaked == [], f"the spectator sees {leaked}"
    assert "Drafting: pack 1 of 3" in shown
    # Bob drops, after saying yes once more; everyone sees it.
    bob.page.click("[data-do=ev-drop]")
    assert "Drop out of the event?" in bob.page.inner_text("#ev-side")
    assert state(bob, event)["you"]["dropped"] is False
    bob.page.click("[data-do=ev-drop]")
    wait_event(bob, event, "ev.you.dropped")
    eve.wait("() => /Bob \\(dropped\\)/.test(document.querySelector('.ev-entrants').innerText)")
    for p in (ann, eve, bob):
        p.check_console()
        p.close()


def test_the_deck_builder_fits_a_phone_and_takes_taps(browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann", PHONE, touch=True)
    ann.enter()
    event = host(ann, kind="sealed", seats=2, best_of=1, tap=True)
    ann.page.tap("[data-do=ev-start]")
    wait_event(ann, event, "ev.phase === 'building'")  # a sealed pool: straight to building
    page = ann.page
    page.wait_for_selector("#ev-count")
    assert page.evaluate(NO_SIDEWAYS)
    assert sum(state(ann, event)["you"]["pool"].values()) == 90
    page.locator("#ev-sideboard button.ev-row").first.tap()
    page.wait_for_function("() => document.querySelector('#ev-count').textContent === '1 / 40'")
    page.tap('[data-do=ev-basic][data-card="Forest"][data-step="1"]')
    page.wait_for_function("() => document.querySelector('#ev-count').textContent === '2 / 40'")
    page.tap('[data-do=ev-filter][data-filter="G"]')
    names = page.locator("#ev-sideboard .ev-cname").all_inner_texts()
    cards = cards_of(ann)
    assert names and all("G" in cards[n]["colors"] for n in names), "the filter shows green only"
    submit = page.locator("[data-do=ev-submit]").bounding_box()
    assert submit is not None and submit["x"] + submit["width"] <= PHONE["width"]
    assert page.evaluate(NO_SIDEWAYS)
    ann.shot("event-builder-390")
    ann.check_console()
    ann.close()
