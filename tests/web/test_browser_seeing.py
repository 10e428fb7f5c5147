"""Seeing what happens in the browser (issue 29, docs/clients.md "Seeing what happens"): arrows
from each spell on the stack to its targets (CR 115.1, 601.2c) and from each attacker to the
player it attacks (CR 508.1b), drawn where those cards and players are on the page, again after
a resize to a phone's width, the arrows of the card pointed at standing out; short animations
of a card arriving in a zone (CR 400.7) and of a life total changing (CR 119.3), which a key
skips and the player's setting and the system's reduced motion turn off. Every wait is on a
condition with a bounded timeout; no page may log an error or a warning."""

from __future__ import annotations

from typing import Any

from .browser import Person, Server
from .test_browser_m10 import answer_until, cast, obj_named
from .test_browser_table import ANSWERED, scenario_room, sit_with_a_bot

# Each arrow on the page: what it joins, where its ends are and the boxes of the elements it
# should join, all in the viewport's coordinates.
ARROWS = """() => {
  const svg = document.getElementById('arrows');
  if (!svg) return [];
  const ctm = svg.getScreenCTM();
  const at = (p, len) => { const q = p.getPointAtLength(len); const m = new DOMPoint(q.x, q.y)
    .matrixTransform(ctm); return [m.x, m.y]; };
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  return [...svg.querySelectorAll('path.arrow')].map((p) => {
    const to = p.dataset.to;
    const id = to.slice(1);
    const target = to[0] === 'p'
      ? document.querySelector(`.seat-head[data-player="${id}"]`)
      : document.querySelector(`#seats [data-obj="${id}"], #stack [data-obj="${id}"]`);
    const source = document.querySelector(`.board [data-obj="${p.dataset.from}"]`);
    return {kind: p.classList.contains('attack') ? 'attack' : 'target', from: p.dataset.from, to,
            start: at(p, 0), end: at(p, p.getTotalLength()), source: box(source),
            target: box(target), hl: p.classList.contains('hl'),
            width: parseFloat(getComputedStyle(p).strokeWidth)};
  });
}"""

# Every animation the page starts from now on: the class added and the animation the browser
# runs for it (the element's own and its ::after's), with the change shown on a life total.
WATCH = """() => {
  window.__anims = [];
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target;
      for (const cls of ['arrive', 'life-down', 'life-up']) {
        if (el.classList && el.classList.contains(cls) && !(r.oldValue || '').includes(cls)) {
          window.__anims.push({cls, obj: el.dataset.obj || null, change: el.dataset.change || null,
            anim: getComputedStyle(el).animationName,
            after: getComputedStyle(el, '::after').animationName});
        }
      }
    }
  }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['class'],
                             attributeOldValue: true});
}"""


SLACK = 3  # CSS pixels an arrow's end may lie outside its card's box

# _inside in the page's JavaScript, for conditions waited on there.
INSIDE = (f"(p, box) => box !== null && box[0] - {SLACK} <= p[0] && p[0] <= box[2] + {SLACK}"
          f" && box[1] - {SLACK} <= p[1] && p[1] <= box[3] + {SLACK}")


def _inside(point: list[float], box: list[float] | None) -> bool:
    return box is not None and (box[0] - SLACK <= point[0] <= box[2] + SLACK
                                and box[1] - SLACK <= point[1] <= box[3] + SLACK)


def _joined(arrow: dict[str, Any]) -> bool:
    """The arrow starts on its source's box and ends on its target's."""
    return _inside(arrow["start"], arrow["source"]) and _inside(arrow["end"], arrow["target"])


def _cast_at(ann: Person, target: list[Any]) -> None:
    """Cast a Lightning Bolt from Ann's hand at ``target`` and wait until she may act again with
    it on the stack."""
    decision = answer_until(ann, "target", cast("Lightning Bolt"))
    aim = next(a for a in decision["actions"] if a.get("ref") == target)
    ann.click_action(aim)
    ann.page.wait_for_function(ANSWERED, arg=decision["serial"])
    ann.page.wait_for_function(
        "t => { const a = window.arbiter; const d = a.decision(a.match); const v = a.view(a.match);"
        " return d && d[1].kind === 'priority' && Object.values(v).some(o => o && o.z === 's'"
        " && JSON.stringify(o.tg) === JSON.stringify([t])); }", arg=target)


def _stack_id(ann: Person, target: list[Any]) -> str:
    found: str = ann.page.evaluate(
        "t => { const v = window.arbiter.view(window.arbiter.match); return Object.keys(v).find("
        "k => v[k] && v[k].z === 's' && JSON.stringify(v[k].tg) === JSON.stringify([t])); }",
        target)
    return found


def _auto_pass_off(ann: Person) -> None:
    ann.page.click('button[data-do="autopass"]')
    ann.wait("() => !window.arbiter.autoPass")


def test_arrows_join_each_spell_on_the_stack_to_its_target_and_follow_a_resize(
        browser: Any, server: Server) -> None:
    room = scenario_room(server, [
        {"library": ["Mountain"] * 10, "hand": ["Lightning Bolt", "Lightning Bolt"],
         "battlefield": ["Mountain", "Mountain"]},
        {"library": ["Forest"] * 10, "battlefield": ["Hill Giant", "Forest"]}],
        active=0, step="main1")
    ann = Person(browser, server, "Ann")
    sit_with_a_bot(ann, room)
    _auto_pass_off(ann)  # Ann keeps priority with both Bolts on the stack (CR 117.3c)
    giant = obj_named(ann, "Hill Giant")
    _cast_at(ann, ["o", int(giant)])
    _cast_at(ann, ["p", 1])
    at_giant, at_bob = _stack_id(ann, ["o", int(giant)]), _stack_id(ann, ["p", 1])
    ann.wait("() => document.querySelectorAll('#arrows path.arrow').length === 2")
    arrows = {a["from"]: a for a in ann.page.evaluate(ARROWS)}
    assert arrows[at_giant]["to"] == f"o{giant}" and arrows[at_bob]["to"] == "p1"
    assert all(a["kind"] == "target" and _joined(a) for a in arrows.values()), arrows
    # Pointing at a spell on the stack brings its arrows forward.
    ann.page.hover(f'#stack [data-obj="{at_bob}"]')
    ann.wait(f"() => document.querySelector('#arrows path[data-from=\"{at_bob}\"]')"
             ".classList.contains('hl')")
    arrows = {a["from"]: a for a in ann.page.evaluate(ARROWS)}
    assert arrows[at_bob]["hl"] and not arrows[at_giant]["hl"]
    assert arrows[at_bob]["width"] > arrows[at_giant]["width"]
    # At a phone's width the cards move: the arrows are drawn again where they now are.
    before = arrows[at_giant]["end"]
    ann.page.set_viewport_size({"width": 390, "height": 844})
    # Waited for, not read once after the first move: the page draws the arrows in the frame
    # after the resize and again after the next render of the table, and on a loaded machine
    # the first may come before the layout at the new width has settled; what must hold is
    # that the arrows come to rest joined to the cards' new places.
    ann.page.wait_for_function(
        f"b => {{ const arrows = ({ARROWS})(); const g = {INSIDE};"
        " const giant = arrows.find(a => a.from === b.from);"
        " return arrows.length === 2 && giant !== undefined"
        " && Math.abs(giant.end[0] - b.end[0]) + Math.abs(giant.end[1] - b.end[1]) > 5"
        " && arrows.every(a => g(a.start, a.source) && g(a.end, a.target)); }",
        arg={"from": at_giant, "end": before})
    arrows = {a["from"]: a for a in ann.page.evaluate(ARROWS)}
    assert len(arrows) == 2 and all(_joined(a) for a in arrows.values()), arrows
    assert all(a["width"] >= 3 for a in arrows.values())  # thick enough to follow on a phone
    ann.shot("arrows-390")
    ann.check_console()
    ann.close()


def test_an_attacker_has_an_arrow_to_the_player_it_attacks(browser: Any, server: Server) -> None:
    room = scenario_room(server, [
        {"library": ["Forest"] * 10, "battlefield": ["Grizzly Bears", "Forest"]},
        {"library": ["Forest"] * 10, "battlefield": ["Forest"]}], active=0, step="main1")
    ann = Person(browser, server, "Ann")
    sit_with_a_bot(ann, room)
    _auto_pass_off(ann)
    bears = obj_named(ann, "Grizzly Bears")

    def attack(decision: dict[str, Any]) -> Any:
        acts = decision["actions"]
        by_kind = {a["kind"]: a for a in reversed(acts)}
        return by_kind.get("attack") or by_kind.get("keep") or by_kind.get("pass") or acts[0]

    decision = answer_until(ann, "attackers", attack)
    ann.click_action(attack(decision))
    ann.page.wait_for_function(ANSWERED, arg=decision["serial"])
    answer_until(ann, "priority", lambda d: next(a for a in d["actions"] if a["kind"] == "done"))
    ann.wait("() => document.querySelectorAll('#arrows path.arrow.attack').length === 1")
    [arrow] = ann.page.evaluate(ARROWS)
    assert arrow["from"] == bears and arrow["to"] == "p1" and arrow["kind"] == "attack"
    assert _joined(arrow), arrow
    ann.check_console()
    ann.close()


def test_arrivals_and_life_changes_are_animated_unless_turned_off_or_reduced(
        browser: Any, server: Server) -> None:
    room = scenario_room(server, [
        {"library": ["Mountain"] * 10, "hand": ["Lightning Bolt"] * 3,
         "battlefield": ["Mountain"] * 3},
        {"library": ["Forest"] * 10, "battlefield": ["Forest"]}], active=0, step="main1")
    ann = Person(browser, server, "Ann")
    sit_with_a_bot(ann, room)
    _auto_pass_off(ann)  # the last Bolt stays on the stack until Ann passes

    def bolt_bob(life: int) -> list[dict[str, Any]]:
        """Ann bolts Bob and lets it resolve; the animations the page started meanwhile."""
        ann.page.evaluate(WATCH)
        _cast_at(ann, ["p", 1])
        ann.page.locator("body").focus()
        ann.page.keyboard.press("Space")  # pass: Bob's bot passes too and the Bolt resolves
        ann.wait(f"() => window.arbiter.view(window.arbiter.match).p1.l === {life}")
        ann.page.wait_for_timeout(100)  # the render after the delta, and its observer records
        found: list[dict[str, Any]] = ann.page.evaluate("() => window.__anims")
        return found

    seen = bolt_bob(17)
    arrived = [a for a in seen if a["cls"] == "arrive"]
    assert arrived and all(a["anim"] == "arrive" for a in arrived), seen  # the Bolt on the stack
    [life] = [a for a in seen if a["cls"] == "life-down"]
    assert life["change"] == "\u22123" and life["anim"] == "life-down"
    assert life["after"] == "life-rise", life  # the "-3" rising from the life total
    # A key skips what still runs (the game waits for Ann: nothing rewrites her seat meanwhile).
    assert ann.page.evaluate("() => !!document.querySelector('#seat-1 .life.life-down')")
    ann.page.keyboard.press("Escape")
    ann.wait("() => !document.querySelector('.life-down, .arrive')")
    # The player's setting: off, kept in the browser; nothing is animated.
    ann.page.click('button[data-do="motion"]')
    ann.wait("() => document.querySelector('button[data-do=\"motion\"]')"
             ".getAttribute('aria-pressed') === 'false'")
    assert ann.page.evaluate("() => localStorage.getItem('arbiter.motion')") == "off"
    assert bolt_bob(14) == []
    # On again, but the system asks for reduced motion: nothing is animated either.
    ann.page.click('button[data-do="motion"]')
    ann.page.emulate_media(reduced_motion="reduce")
    assert bolt_bob(11) == []
    ann.check_console()
    ann.close()
