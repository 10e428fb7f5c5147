"""Paying mana by hand in the browser (issue 29, docs/clients.md "Paying mana"; CR 601.2g-h):
the "Pay mana" switch is kept in the browser; with it on, a cast asks which permanents pay
(the engine's ``pay_mana`` decision), the sources are highlighted on the board and clicked
there, and the permanents clicked are the ones tapped, not those the engine would choose.
Every wait is on a condition with a bounded timeout; no page may log an error or warning."""

from __future__ import annotations

from typing import Any

from .browser import Person, Server
from .test_browser_m10 import answer_until, cast
from .test_browser_table import ANSWERED, scenario_room, sit_with_a_bot

# Ann's lands, in the order they are on the battlefield (ids ascending).
TAPPED = ("() => { const v = window.arbiter.view(window.arbiter.match);"
          " return Object.keys(v).filter(k => /^\\d+$/.test(k) && v[k] && v[k].z === 'b'"
          " && (v[k].c ?? v[k].o) === 0).sort((a, b) => a - b)"
          ".map(k => [Number(k), v[k].n, !!v[k].t]); }")


def test_601_2g_the_lands_clicked_are_the_lands_tapped(browser: Any, server: Server) -> None:
    room = scenario_room(server, [
        {"library": ["Forest"] * 10, "hand": ["Runeclaw Bear", "Lightning Bolt"],
         "battlefield": ["Forest", "Mountain", "Forest"]},
        {"library": ["Forest"] * 10, "battlefield": ["Forest"]}], active=0, step="main1")
    ann = Person(browser, server, "Ann")
    sit_with_a_bot(ann, room)
    page = ann.page
    # Auto-pass off, so that the page stops with the Bear on the stack and the lands tapped.
    page.click('button[data-do="autopass"]')
    toggle = 'button[data-do="paybyhand"]'
    assert page.get_attribute(toggle, "aria-pressed") == "false"
    page.click(toggle)
    ann.wait(f"() => document.querySelector('{toggle}').getAttribute('aria-pressed') === 'true'")
    assert page.evaluate("() => localStorage.getItem('arbiter.paybyhand')") == "on"
    assert "by hand" in page.inner_text(toggle)

    lands = page.evaluate(TAPPED)
    forests = [oid for oid, name, _ in lands if name == "Forest"]
    mountain = next(oid for oid, name, _ in lands if name == "Mountain")
    decision = answer_until(ann, "pay_mana", cast("Runeclaw Bear"))
    assert "{1}{G}" in decision["prompt"]
    # Every source that can pay is highlighted on the board, and the hint says to click one.
    for oid in (*forests, mountain):
        page.wait_for_selector(f'#seat-0 [data-obj="{oid}"].actionable')
    assert "Click a highlighted land" in page.inner_text("#actions")
    # The Mountain first (the engine would have kept it for Lightning Bolt), then the second
    # Forest, clicked on the board.
    page.click(f'#seat-0 [data-obj="{mountain}"].actionable')
    page.wait_for_function(ANSWERED, arg=decision["serial"])
    state = ann.wait_turn()
    assert state["decision"]["kind"] == "pay_mana", state["decision"]
    assert not any(a.get("obj") == mountain for a in state["decision"]["actions"])
    page.click(f'#seat-0 [data-obj="{forests[1]}"].actionable')
    ann.wait("() => { const v = window.arbiter.view(window.arbiter.match);"
             " return Object.values(v).some(o => o && o.z === 's' && o.n === 'Runeclaw Bear'); }")
    ann.wait(f"() => ({TAPPED})().filter(l => l[2]).length === 2")
    tapped = {oid: t for oid, _, t in page.evaluate(TAPPED)}
    assert tapped[mountain] and tapped[forests[1]] and not tapped[forests[0]], tapped
    ann.check_console()
    ann.close()


def test_the_pay_mana_switch_is_kept_in_the_browser(browser: Any, server: Server) -> None:
    room = scenario_room(server, [
        {"library": ["Forest"] * 10, "hand": ["Runeclaw Bear"], "battlefield": ["Forest"]},
        {"library": ["Forest"] * 10, "battlefield": ["Forest"]}], active=0, step="main1")
    ann = Person(browser, server, "Ann")
    ann.enter()
    ann.page.evaluate("() => localStorage.setItem('arbiter.paybyhand', 'on')")
    ann.page.goto(server.url + f"#/room/{room}")
    ann.page.reload()  # a fresh page load reads the switch
    ann.page.wait_for_function("() => window.arbiter && window.arbiter.conn.ready")
    sit_with_a_bot(ann, room, enter=False)
    toggle = 'button[data-do="paybyhand"]'
    ann.page.wait_for_selector(toggle)
    assert ann.page.get_attribute(toggle, "aria-pressed") == "true"
    ann.check_console()
    ann.close()
