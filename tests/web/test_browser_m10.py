"""The browser client and Magic 2010's decisions in a real headless Chromium (docs/clients.md,
"Magic 2010 on the table"): naming a card among ~300 names through the search box (Pithing
Needle, CR 614.12b), and dividing a spell's damage among its targets (Ignite Disorder, CR
601.2d), each shown on the table afterwards. Every wait is on a condition with a bounded
timeout; no page may log an error or a warning."""

from __future__ import annotations

from typing import Any

from .browser import Person, Server
from .test_browser_table import ANSWERED, scenario_room, sit_with_a_bot, until_ann_blocks


def answer_until(ann: Person, kind: str, choose: Any) -> Any:
    """Answer Ann's decisions with ``choose(decision)`` until one of ``kind`` comes."""
    for _ in range(30):
        state = ann.wait_turn()
        decision = state["decision"]
        assert decision is not None, state
        if decision["kind"] == kind:
            return decision
        ann.click_action(choose(decision))
        ann.page.wait_for_function(ANSWERED, arg=decision["serial"])
    raise AssertionError(f"no {kind} decision came")


def cast(card: str) -> Any:
    def choose(decision: dict[str, Any]) -> Any:
        acts = decision["actions"]
        for a in acts:
            if a["kind"] == "cast" and card in a["label"]:
                return a
        by_kind = {a["kind"]: a for a in reversed(acts)}
        for kind in ("keep", "mana", "pass"):
            if kind in by_kind:
                return by_kind[kind]
        return acts[0]
    return choose


def obj_named(person: Person, name: str) -> str:
    found: str = person.page.evaluate(
        "n => { const v = window.arbiter.view(window.arbiter.match);"
        " return Object.keys(v).find(k => v[k] && v[k].n === n && v[k].z === 'b') ?? null; }", name)
    return found


def test_614_12b_a_card_is_named_by_searching_the_long_list(browser: Any, server: Server) -> None:
    room = scenario_room(server, [
        {"library": ["Mountain"] * 10, "hand": ["Pithing Needle"], "battlefield": ["Mountain"]},
        {"library": ["Forest"] * 10, "battlefield": ["Forest"]}], active=0, step="main1")
    ann = Person(browser, server, "Ann")
    sit_with_a_bot(ann, room)
    decision = answer_until(ann, "name_card", cast("Pithing Needle"))
    assert len(decision["actions"]) > 200, "every card name is offered"
    box = ann.page.locator("#choice-filter")
    assert ann.page.locator("#actions button[data-do=act]").count() <= 12, "not 300 buttons"
    box.click()
    box.press_sequentially("jace bel")
    ann.wait("() => document.querySelectorAll('#actions button[data-do=act]').length === 1")
    assert "Jace Beleren" in ann.page.inner_text("#actions")
    box.press("Enter")  # the first (only) match
    ann.wait("() => { const v = window.arbiter.view(window.arbiter.match);"
             " return Object.values(v).some(o => o && o.n === 'Pithing Needle' && o.nm); }")
    needle = f'#seat-0 [data-obj="{obj_named(ann, "Pithing Needle")}"]'
    assert "named Jace Beleren" in ann.page.inner_text(needle)
    ann.check_console()
    ann.close()


def test_601_2d_damage_is_divided_among_the_targets(browser: Any, server: Server) -> None:
    room = scenario_room(server, [
        {"library": ["Mountain"] * 10, "hand": ["Ignite Disorder"],
         "battlefield": ["Mountain", "Mountain"]},
        {"library": ["Plains"] * 10, "battlefield": ["Elite Vanguard", "Coral Merfolk", "Plains"]}],
        active=0, step="main1")
    ann = Person(browser, server, "Ann")
    sit_with_a_bot(ann, room)
    vanguard, merfolk = obj_named(ann, "Elite Vanguard"), obj_named(ann, "Coral Merfolk")

    def aim(decision: dict[str, Any]) -> Any:
        if decision["kind"] == "target":  # the Vanguard, then the Merfolk, then done
            for a in decision["actions"]:
                if a.get("ref") in (["o", int(vanguard)], ["o", int(merfolk)]):
                    return a
            return next(a for a in decision["actions"] if a["kind"] == "done")
        return cast("Ignite Disorder")(decision)
    decision = answer_until(ann, "divide", aim)
    two = next(a for a in decision["actions"] if a["n"] == 2)
    assert "2 to Elite Vanguard" in ann.page.inner_text("#actions")
    ann.page.click(f'#actions button[data-id="{two["id"]}"]')  # 2 to the Vanguard, 1 left
    ann.wait("() => { const v = window.arbiter.view(window.arbiter.match);"
             " return Object.values(v).some(o => o && o.z === 's' && o.dv); }")
    stack = ann.page.inner_text("#stack")
    assert "Elite Vanguard (2 damage), Coral Merfolk (1 damage)" in stack, stack
    ann.check_console()
    ann.close()


def test_509_1a_a_creature_that_blocks_any_number_is_declared_blocking_two(
        browser: Any, server: Server) -> None:
    room = scenario_room(server, [
        {"library": ["Plains"] * 10, "battlefield": ["Palace Guard", "Plains"]},
        {"library": ["Forest"] * 10, "battlefield": ["Grizzly Bears", "Grizzly Bears", "Forest"]}],
        active=1)
    ann, bob = until_ann_blocks(browser, server, room)  # Bob attacks with both Bears
    guard = f'#seat-0 [data-obj="{obj_named(ann, "Palace Guard")}"]'
    for pick in (1, 2):  # the popup offers each Bear; the second adds to the first
        ann.page.click(guard)
        ann.page.click(f"#popup-menu button >> nth={pick - 1}")
        ann.wait("() => (window.arbiter.blocks.planned().values().next().value || [])"
                 f".length === {pick}")
    assert "will block Grizzly Bears and Grizzly Bears" in ann.page.inner_text(guard)
    ann.page.locator("body").focus()
    ann.page.keyboard.press("Space")  # declare both blocks
    ann.wait("() => (document.querySelector('#log').innerText.match("
             "/Palace Guard blocks Grizzly Bears\\./g) || []).length === 2")
    for p in (ann, bob):
        p.check_console()
        p.close()
