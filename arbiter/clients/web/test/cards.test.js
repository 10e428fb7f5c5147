// What the set's cards put on the table, from the view alone (docs/protocol.md, section 6):
// copies of creatures and of spells, X on the stack, counters and loyalty, tokens,
// attachments, and extra turns still to come.
import assert from "node:assert/strict";
import { test } from "node:test";

import { flags } from "../src/cards.js";
import { topbarHtml } from "../src/table.js";

const NAMES = new Map([[0, "Ann"], [1, "Bob"], [2, "Cid"]]);
const VIEW = {
  g: { n: 1, depth: 0, parent: null, variant: "free_for_all", seats: [0, 1, 2] },
  t: [5, 0, "main1", 0, [2, 1]],
  p0: { l: 20, h: 3, y: 30, s: "in" }, p1: { l: 20, h: 3, y: 30, s: "in" }, p2: { l: 20, h: 3, y: 30, s: "in" },
  10: { n: "Serra Angel", z: "b", o: 0, i: 1, cp: "Clone", pt: [4, 4] },
  11: { n: "Fireball", z: "s", o: 1, i: 1, cy: 1, xv: 3, tg: [["p", 0]] },
  12: { n: "Ajani Goldmane", z: "b", o: 0, i: 2, k: { loyalty: 5 } },
  13: { n: "Wolf", z: "b", o: 2, i: 1, tk: 1, k: { "+1/+1": 2 }, pt: [4, 4] },
  14: { n: "Pacifism", z: "b", o: 1, i: 3, a: 13 },
};

test("707.2, 707.10, 107.3a: a copy says what it really is; a spell copy and its X", () => {
  assert.deepEqual(flags(VIEW[10], VIEW, NAMES), ["Clone, as a copy"]);
  assert.deepEqual(flags(VIEW[11], VIEW, NAMES), ["copy of a spell", "X=3", "targets Ann"]);
});

test("122, 111, 303.4: counters, loyalty, tokens and what an Aura enchants", () => {
  assert.deepEqual(flags(VIEW[12], VIEW, NAMES), ["5 loyalty"]);
  assert.deepEqual(flags(VIEW[13], VIEW, NAMES), ["2 +1/+1", "token"]);
  assert.match(flags(VIEW[14], VIEW, NAMES).join(), /attached to Wolf/);
});

test("500.7: the top bar names who takes the extra turns still to come, next first", () => {
  const ctx = { view: VIEW, names: NAMES, me: 0, places: new Map(), catalog: null, match: "9", room: "9",
    summary: { name: "Table", seats: [] } };
  const top = topbarHtml(ctx, null, { autoPass: false, concedeArmed: false, watching: false });
  assert.match(top, /extra turns: Cid, Bob/);
  const none = topbarHtml({ ...ctx, view: { ...VIEW, t: [5, 0, "main1", 0] } }, null,
    { autoPass: false, concedeArmed: false, watching: false });
  assert.doesNotMatch(none, /extra turns/);
});
