// Grand Melee (CR 807) on the table, from the view alone: every turn marker and the turn it is
// in, who may act on each stack, each stack on its own, who decides and for which stack; and
// whose turn it is when markers or shared team turns make that more than one player.
import assert from "node:assert/strict";
import { test } from "node:test";

import { seatClass, stackHtml, topbarHtml } from "../src/table.js";
import { activePlayers, decider } from "../src/text.js";

const NAMES = new Map(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
  .map((n, i) => [i, n]));

// Nine players: marker 1's holder (Bob) waits; Eve takes turn 7 with marker 2, whose stack has
// Dee's Hill Giant under Eve's Lightning Bolt, and Fay has priority for it. Object ids are
// strings in the replica (integer keys), as the codec gives them.
const MELEE = {
  g: { n: 1, depth: 0, parent: null, variant: "grand_melee", seats: [0, 1, 2, 3, 4, 5, 6, 7, 8] },
  t: [7, 4, "main1", 0],
  w: [5, "priority", 2],
  m: [{ n: 1, p: 1, s: "waiting" },
    { n: 2, p: 4, s: "turn", turn: 7, st: "main1", h: 5, pr: [3, 4, 5], rm: 1 }],
  ...Object.fromEntries([...Array(9).keys()].map((i) => [`p${i}`, { l: 20, h: 7, y: 30, s: "in" }])),
  20: { n: "Lightning Bolt", z: "s", o: 4, i: 2, sk: 2, tg: [["p", 5]] },
  21: { n: "Hill Giant", z: "s", o: 3, i: 1, sk: 2 },
};

function ctx(view, me) {
  return { view, names: NAMES, me, places: new Map(), catalog: null, match: "9", room: "9",
    summary: { name: "Melee", seats: [] } };
}

test("807: who decides, and for which turn marker's stack", () => {
  assert.equal(decider(MELEE), 5);
  assert.equal(decider({ w: [1, "priority"] }), 1);
  assert.equal(decider({ w: ["subgame"] }), null);
  const top = topbarHtml(ctx(MELEE, 3), null, { autoPass: false, concedeArmed: false, watching: false });
  assert.match(top, /Fay has priority for stack 2/);
});

test("807.4, 807.5: the markers, who may act on each stack, and each stack on its own", () => {
  const html = stackHtml(ctx(MELEE, 3));
  assert.match(html, /Turn marker 1<\/b> · Bob waits to begin a turn \(CR 807\.4d\)/);
  assert.match(html, /Turn marker 2 · Eve's turn 7, first main phase · priority Fay/);
  assert.match(html, /designated for removal \(CR 807\.4e\)/);
  assert.match(html, /may act on its stack: Dee, Eve, Fay <span class="mark you-act">/);
  assert.doesNotMatch(stackHtml(ctx(MELEE, 0)), /you may act/);
  assert.doesNotMatch(html, /Stack 1/, "a waiting marker's turn hasn't begun: no stack");
  const bolt = html.indexOf("Lightning Bolt");
  assert.ok(bolt > html.indexOf("Stack 2") && bolt < html.indexOf("Hill Giant"), "top first");
  const { 20: _bolt, 21: _giant, ...emptied } = MELEE;
  const empty = stackHtml(ctx(emptied, 3));
  assert.match(empty, /Stack 2 is empty/);
});

test("807.4, 805.4a: every player taking a turn is an active player", () => {
  assert.deepEqual([...activePlayers(MELEE)], [4]);
  const two = { ...MELEE, m: [{ ...MELEE.m[1], n: 1, p: 0 }, MELEE.m[1]] };
  assert.deepEqual([...activePlayers(two)].sort(), [0, 4]);
  assert.match(seatClass(ctx(two, 3), 0), /\bactive\b/);
  assert.doesNotMatch(seatClass(ctx(two, 3), 1), /\bactive\b/);
  const giant = { g: { teams: [[0, 1], [2, 3]], shared: ["turns", "life"] }, t: [3, 2, "main1", 0] };
  assert.deepEqual([...activePlayers(giant)], [2, 3]);
  assert.deepEqual([...activePlayers({ ...giant, g: { teams: giant.g.teams, shared: [] } })], [2]);
  assert.equal(stackHtml(ctx(giant, 0)), "", "no markers and an empty stack: nothing to show");
});
