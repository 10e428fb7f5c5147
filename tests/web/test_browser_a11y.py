"""Accessibility of the browser client (issue 29, docs/clients.md "Accessibility"), read from
Chromium's own accessibility tree (CDP ``Accessibility.getFullAXTree``, what a screen reader is
given): no button, field, link, menu item or other control without a name on the lobby, on a
four-player table mid-game and on the phone layout; the log and the decision announced as live
regions; the Tab key reaching every control of the lobby and of the table, and a decision
answered with the keyboard alone. Every wait is on a condition with a bounded timeout; no page
may log an error or a warning."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from arbiter.clients.sdk import open_client

from .browser import Person, Server, aggressive, running_server
from .test_browser import create_from_lobby
from .test_browser_table import ANSWERED

# Roles a person operates: each must have a name a screen reader can say.
CONTROLS = {"button", "link", "textbox", "searchbox", "combobox", "checkbox", "radio",
            "menuitem", "menuitemcheckbox", "menuitemradio", "listbox", "spinbutton", "slider",
            "switch", "tab", "PopUpButton", "ToggleButton"}

# What the Tab key can reach, as the browser decides it: one entry per radio group (arrows
# move within it), nothing hidden or disabled.
TABBABLE = """() => {
  const sel = 'a[href], button, input, select, textarea, [tabindex]';
  const out = new Set();
  for (const el of document.querySelectorAll(sel)) {
    if (el.disabled || el.tabIndex < 0 || el.type === 'hidden' || !el.getClientRects().length
        || getComputedStyle(el).visibility === 'hidden') continue;
    out.add(window.__desc(el));
  }
  return [...out];
}"""

# A stable description of an element (regions are rewritten as HTML: identity would not do).
DESCRIBE = """() => {
  window.__desc = (el) => el.type === 'radio' ? `radio group ${el.name}` : [
    el.tagName.toLowerCase(), el.id, el.name, el.dataset.key, el.dataset.do,
    el.dataset.id, el.dataset.room,
    el.dataset.seat, el.dataset.op, el.dataset.side, el.dataset.step, el.dataset.until,
    el.textContent.trim().slice(0, 40)].filter(Boolean).join(' ');
  window.__tabbed = new Set();
  document.addEventListener('focusin', (e) => window.__tabbed.add(window.__desc(e.target)));
}"""


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Server]:
    """A server whose bots answer at once: four-player games get somewhere in a test's time."""
    with running_server(tmp_path, "--bot-think", "0.02") as s:
        yield s


def unnamed_controls(person: Person) -> list[str]:
    """Every control in the page's accessibility tree without an accessible name."""
    cdp = person.context.new_cdp_session(person.page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        out = []
        for n in nodes:
            role = (n.get("role") or {}).get("value")
            name = str((n.get("name") or {}).get("value", "")).strip()
            if n.get("ignored") or role not in CONTROLS or name:
                continue
            node = cdp.send("DOM.describeNode", {"backendNodeId": n["backendDOMNodeId"]})["node"]
            out.append(f"{role}: <{node['localName']} {node.get('attributes', [])}>")
        return out
    finally:
        cdp.detach()


def live_regions(person: Person) -> dict[str, str]:
    """The DOM ids of the live regions in the accessibility tree, with their politeness."""
    cdp = person.context.new_cdp_session(person.page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        out = {}
        for n in nodes:
            props = {p["name"]: p["value"].get("value") for p in n.get("properties", [])}
            if n.get("ignored") or props.get("live") in (None, "off"):
                continue
            node = cdp.send("DOM.describeNode", {"backendNodeId": n["backendDOMNodeId"]})["node"]
            attrs = node.get("attributes", [])
            ident = attrs[attrs.index("id") + 1] if "id" in attrs else ""
            if ident:
                out[ident] = str(props["live"])
        return out
    finally:
        cdp.detach()


def board_nodes(person: Person) -> list[dict[str, str]]:
    """Each card and player area of the board as the accessibility tree gives it: its role and
    name."""
    cdp = person.context.new_cdp_session(person.page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        ids = cdp.send("DOM.querySelectorAll", {
            "nodeId": root, "selector": ".board .seat-head, .board [data-obj]"})["nodeIds"]
        out = []
        for node_id in ids:
            ax = cdp.send("Accessibility.getPartialAXTree",
                          {"nodeId": node_id, "fetchRelatives": False})["nodes"][0]
            out.append({"role": str((ax.get("role") or {}).get("value")),
                        "name": str((ax.get("name") or {}).get("value", ""))})
        return out
    finally:
        cdp.detach()


def tab_through(person: Person) -> tuple[set[str], set[str]]:
    """Press Tab until the focus has gone round the page; what could be reached, and what
    was."""
    page = person.page
    page.evaluate(DESCRIBE)
    reachable = set(page.evaluate(TABBABLE))
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")
    for _ in range(len(reachable) + 15):
        page.keyboard.press("Tab")
    tabbed = set(page.evaluate("() => [...window.__tabbed]"))
    return reachable, tabbed


def _waiting_room(server: Server) -> None:
    """A room with free seats in the lobby's list (its buttons are controls too)."""
    async def create() -> None:
        async with open_client(server.ws_url, "Host") as host:
            await host.create({"name": "Open table", "seats": 2})
    trio.run(create)


def _mid_game(ann: Person) -> dict[str, Any]:
    """Play (as ``aggressive``) until Ann, at a four-player table, must decide with more than
    passing to choose from, past the first turns: the table is full of controls."""
    create_from_lobby(ann, seats=4, bots=True, variant="free_for_all")
    for _ in range(200):
        state = ann.wait_turn()
        assert not state["over"], "the game ended before the table filled"
        kinds = {a["kind"] for a in state["decision"]["actions"]}
        if state["turn"] >= 5 and state["decision"]["kind"] == "priority" and kinds - {"pass"}:
            return state
        ann.click_action(aggressive(state))
        ann.page.wait_for_function(ANSWERED, arg=state["decision"]["serial"])
    raise AssertionError("Ann never had a choice past turn 5")


def test_the_lobby_names_every_control_and_tab_reaches_each(browser: Any,
                                                           server: Server) -> None:
    _waiting_room(server)
    ann = Person(browser, server, "Ann")
    ann.enter()
    ann.wait("() => document.querySelector('#lobby-rooms button[data-do=join]')"
             " && document.querySelector('#create-form')")
    assert unnamed_controls(ann) == []
    reachable, tabbed = tab_through(ann)
    assert len(reachable) >= 15, reachable  # the list's buttons and the whole form
    assert reachable <= tabbed, sorted(reachable - tabbed)
    ann.check_console()
    ann.close()


def test_a_four_player_table_mid_game_is_named_live_and_played_by_keyboard(
        browser: Any, quick: Server) -> None:
    ann = Person(browser, quick, "Ann")
    ann.enter()
    state = _mid_game(ann)
    assert len(state["decision"]["actions"]) > 1
    assert unnamed_controls(ann) == []
    # Every card and player is read with a role and a name (a bare div's label is not read).
    nodes = board_nodes(ann)
    assert len(nodes) >= 10, nodes
    assert [n for n in nodes if n["role"] in ("generic", "none") or not n["name"]] == []
    live = live_regions(ann)
    assert live.get("log") == "polite" and live.get("actions") == "polite", live
    reachable, tabbed = tab_through(ann)
    assert any("act" in r for r in reachable)  # the decision's actions are among them
    assert reachable <= tabbed, sorted(reachable - tabbed)
    assert all(f"p{pid}" in " ".join(tabbed) for pid in range(4))  # each player's area
    # From a player's area the arrow keys visit every card on the board, each read in the
    # side panel as it takes the focus.
    page = ann.page
    cards = set(page.evaluate("() => [...document.querySelectorAll('.board [data-obj]')]"
                              ".map(e => e.dataset.obj)"))
    page.focus('.seat-head[data-player="1"]')
    page.evaluate("() => { window.__visited = new Set(); document.addEventListener('focusin',"
                  " (e) => e.target.dataset.obj && window.__visited.add(e.target.dataset.obj)); }")
    for key in ("ArrowUp", "ArrowDown"):
        for _ in range(len(cards) + 8):
            page.keyboard.press(key)
    visited = set(page.evaluate("() => [...window.__visited]"))
    assert cards <= visited, sorted(cards - visited)
    page.keyboard.press("ArrowLeft")
    name = page.evaluate("() => document.activeElement.querySelector('.c-name, .chip')"
                         " ?.textContent ?? document.activeElement.textContent")
    page.wait_for_function("n => (document.querySelector('#detail .d-name') || {}).textContent"
                           " === n", arg=name.strip())
    # The keyboard alone: Tab to a card one can act on, Enter (and Enter again in the menu
    # when the card offers several actions) answers the decision.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(200):
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement.closest('[data-obj].actionable')"):
            break
    else:
        raise AssertionError("Tab never reached a card to act on")
    page.keyboard.press("Enter")
    if page.evaluate("() => !!document.activeElement.closest('#popup-menu')"):
        page.keyboard.press("Enter")
    page.wait_for_function(ANSWERED, arg=state["decision"]["serial"])
    ann.check_console()
    ann.close()


def test_the_phone_layout_names_every_control(browser: Any, quick: Server) -> None:
    ann = Person(browser, quick, "Ann", {"width": 390, "height": 844}, touch=True)
    ann.enter()
    ann.page.wait_for_selector("#create-form")
    assert unnamed_controls(ann) == []
    _mid_game(ann)
    assert unnamed_controls(ann) == []
    nodes = board_nodes(ann)
    assert nodes and [n for n in nodes if n["role"] in ("generic", "none") or not n["name"]] == []
    ann.check_console()
    ann.close()
