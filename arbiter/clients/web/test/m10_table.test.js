// What Magic 2010's cards put on the table and the decisions they ask, from the view and the
// decision alone (docs/protocol.md, sections 8 and 9a; docs/clients.md): divided damage, one
// creature blocking several, a chosen name or land type, revealed hands and library tops,
// loyalty, and a long list of card names searched instead of shown whole.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardHtml, flags } from "../src/cards.js";
import { actionsByPlace, actionsHtml, keyedActions, listKind, matching, seatHtml } from "../src/table.js";

const NAMES = new Map([[0, "Ann"], [1, "Bob"]]);
const VIEW = {
  g: { n: 1, depth: 0, parent: null, variant: "two_player", seats: [0, 1] },
  t: [5, 0, "main1", 0],
  p0: { l: 20, h: 1, y: 30, s: "in" }, p1: { l: 20, h: 2, y: 29, s: "in" },
  10: { n: "Ignite Disorder", z: "s", o: 0, i: 1, tg: [["o", 11], ["o", 12]], dv: [2, 1] },
  11: { n: "Grizzly Bears", z: "b", o: 1, i: 1, pt: [2, 2] },
  12: { n: "Llanowar Elves", z: "b", o: 1, i: 2, pt: [1, 1], at: ["p", 0] },
  13: { n: "Palace Guard", z: "b", o: 0, i: 3, pt: [1, 4], bl: 12, bx: [14] },
  14: { n: "Hill Giant", z: "b", o: 1, i: 3, pt: [3, 3], at: ["p", 0] },
  15: { n: "Pithing Needle", z: "b", o: 0, i: 4, nm: "Jace Beleren" },
  16: { n: "Convincing Mirage", z: "b", o: 0, i: 5, a: 17, ch: "Island" },
  17: { n: "Mountain", z: "b", o: 1, i: 4 },
  18: { n: "Jace Beleren", z: "b", o: 1, i: 5, k: { loyalty: 4 } },
  19: { n: "Lightning Bolt", z: "h", o: 1, i: 1 }, // Bob's hand, revealed by Ann's Telepathy
  20: { n: "Giant Growth", z: "h", o: 1, i: 2 },
  21: { n: "Shock", z: "l", o: 1, i: 1 }, // the top of Bob's library, kept revealed
  22: { n: "Duress", z: "h", o: 0, i: 1 },
};
const CATALOG = { cards: { "Jace Beleren": { types: "Planeswalker — Jace", loyalty: 3, text: "" } } };
const ctx = (extra = {}) => ({ view: VIEW, names: NAMES, me: 0, places: new Map(), catalog: CATALOG,
  match: "9", room: "9", summary: { name: "Table", seats: [] }, ...extra });

test("601.2d: a spell's targets with each one's share of its divided damage", () => {
  assert.deepEqual(flags(VIEW[10], VIEW, NAMES), ["targets Grizzly Bears (2 damage), Llanowar Elves (1 damage)"]);
});

test("509.1a: a creature blocking several attackers names them all", () => {
  assert.deepEqual(flags(VIEW[13], VIEW, NAMES), ["blocking Llanowar Elves and Hill Giant"]);
});

test("614.12b, 305.6: the card name and the land type chosen as a permanent entered", () => {
  assert.deepEqual(flags(VIEW[15], VIEW, NAMES), ["named Jace Beleren"]);
  assert.deepEqual(flags(VIEW[16], VIEW, NAMES), ["chosen: Island", "attached to Mountain"]);
});

test("306.5c: a planeswalker's loyalty is shown where power and toughness would be", () => {
  const html = cardHtml("18", VIEW[18], { catalog: CATALOG, view: VIEW, names: NAMES });
  assert.match(html, /<span class="c-loyalty" title="loyalty">◆ 4<\/span>/);
});

test("a revealed hand is face up in its owner's area, and a revealed library top on it", () => {
  const bob = seatHtml(ctx(), 1);
  assert.match(bob, /Hand, revealed \(2\)/);
  assert.match(bob, /data-obj="19"[\s\S]*Lightning Bolt/);
  assert.match(bob, /Top of library, revealed[\s\S]*data-obj="21"/);
  const ann = seatHtml(ctx(), 0);
  assert.doesNotMatch(ann, /Duress/, "my own hand is in the hand region, not my area");
  const spectator = seatHtml(ctx({ me: null }), 0);
  assert.match(spectator, /Duress/, "a spectator sees a revealed hand in its owner's area");
});

const NAMES_LIST = ["Air Elemental", "Ajani Goldmane", "Jace Beleren", "Lightning Bolt",
  ...Array.from({ length: 296 }, (_, i) => `Card ${i}`)];
const NAME_DECISION = { serial: 7, kind: "name", prompt: "Name a card",
  actions: NAMES_LIST.map((label, id) => ({ id, kind: "name", label })) };

test("614.12b: naming a card among ~300 is a search, not 300 buttons", () => {
  assert.equal(listKind(NAME_DECISION), "name");
  assert.deepEqual(matching(NAME_DECISION, "jace").map((a) => a.label), ["Jace Beleren"]);
  assert.deepEqual(matching(NAME_DECISION, "a  gold").map((a) => a.label), ["Ajani Goldmane"]);
  const html = actionsHtml(ctx({ pending: ["9", NAME_DECISION], filter: "bolt" }), false);
  assert.match(html, /id="choice-filter"/);
  assert.match(html, /1 of 300/);
  assert.equal((html.match(/data-do="act"/g) ?? []).length, 1);
  const all = actionsHtml(ctx({ pending: ["9", NAME_DECISION], filter: "" }), false);
  assert.equal((all.match(/data-do="act"/g) ?? []).length, 12, "the first matches only");
  assert.match(all, /showing 12 of 300/);
});

test("a long list keeps its other actions as buttons, first under the keys", () => {
  const d = { serial: 8, kind: "choose_exiled", actions: [{ id: 0, kind: "done", label: "Done" },
    ...Array.from({ length: 20 }, (_, i) => ({ id: i + 1, kind: "choose_card", label: `Exiled ${i}` }))] };
  const keyed = keyedActions(d, "1");
  assert.equal(keyed[0].kind, "done");
  assert.deepEqual(keyed.slice(1).map((a) => a.label), ["Exiled 1", "Exiled 10", "Exiled 11", "Exiled 12",
    "Exiled 13", "Exiled 14", "Exiled 15", "Exiled 16", "Exiled 17", "Exiled 18", "Exiled 19"]);
  const short = { serial: 9, kind: "land_type", actions: ["Plains", "Island"].map((label, id) => ({ id, kind: "land_type", label })) };
  assert.equal(listKind(short), null);
  assert.equal(keyedActions(short, "zzz"), short.actions, "a short list is shown whole");
  const priority = { serial: 10, kind: "priority", actions: Array.from({ length: 30 }, (_, id) => ({ id, kind: "mana", label: `Tap land ${id}` })) };
  assert.equal(listKind(priority), null, "priority is never hidden behind a search box");
});

test("601.2d: dividing damage offers each share for the target it names", () => {
  const d = { serial: 10, kind: "divide", prompt: "How much of 3 for Grizzly Bears",
    actions: [1, 2].map((n, id) => ({ id, kind: "amount", label: `${n} to Grizzly Bears`, obj: 10, ref: ["o", 11], n })) };
  const html = actionsHtml(ctx({ pending: ["9", d] }), false);
  assert.match(html, /2 to Grizzly Bears/);
  assert.doesNotMatch(html, /to Ignite Disorder/, "the share goes to the target, not the spell");
});

test("509.1c: a blockers decision without done says a creature must block", () => {
  const d = { serial: 11, kind: "blockers", prompt: "Choose blockers",
    actions: [{ id: 0, kind: "block", label: "Block Prized Unicorn with Grizzly Bears", obj: 11, ref: ["o", 14] }] };
  const html = actionsHtml(ctx({ pending: ["9", d], planned: new Map([["11", ["Hill Giant"]]]), declarable: true }), false);
  assert.match(html, /must block/);
  assert.match(html, /data-do="declare-blocks"/);
});

test("303.4f: what an Aura may enchant is clicked on that permanent, not on the Aura", () => {
  const d = { serial: 12, kind: "enchant", actions: [
    { id: 0, kind: "enchant", label: "Enchant Mountain", obj: 16, ref: ["o", 17] },
    { id: 1, kind: "enchant", label: "Enchant Jace Beleren", obj: 16, ref: ["o", 18] }] };
  const places = actionsByPlace(d);
  assert.deepEqual(places.get("o17").map((a) => a.id), [0]);
  assert.deepEqual(places.get("o18").map((a) => a.id), [1]);
  assert.equal(places.get("o16"), undefined);
});
