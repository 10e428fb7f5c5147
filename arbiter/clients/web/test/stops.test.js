// Stops (issue 29): which priority decisions the page passes for the player.
import assert from "node:assert/strict";
import { test } from "node:test";

import { DEFAULT_STOPS, holding, parseStops, passFor, somethingHappens, toggleStop } from "../src/stops.js";

const view = (step, active, extra = {}) => ({
  g: { n: 1, depth: 0, seats: [0, 1] }, t: [4, active, step, 0], p0: {}, p1: {}, ...extra,
});
const opts = (more = {}) => ({ onlyPassing: false, autoPass: true, stops: DEFAULT_STOPS, hold: null, ...more });

test("with an instant in hand the page passes the opponent's upkeep and draw, and stops at their end step", () => {
  assert.equal(passFor(view("upkeep", 1), 0, opts()), true);
  assert.equal(passFor(view("draw", 1), 0, opts()), true);
  assert.equal(passFor(view("end", 1), 0, opts()), false);
  assert.equal(passFor(view("main1", 0), 0, opts()), false);
  assert.equal(passFor(view("upkeep", 0), 0, opts()), true);
});

test("something happening to the player stops the page at any step, even in a hold", () => {
  const bolt = { 30: { n: "Lightning Bolt", z: "s", o: 1, i: 1, tg: [["p", 0]] } };
  assert.equal(somethingHappens(view("upkeep", 1, bolt), 0), true);
  assert.equal(passFor(view("upkeep", 1, bolt), 0, opts()), false);
  const attacked = { 31: { n: "Hill Giant", z: "b", o: 1, i: 1, at: ["p", 0] } };
  assert.equal(passFor(view("declare_attackers", 1, attacked), 0, opts()), false);
  const walker = { 32: { n: "Ajani Goldmane", z: "b", o: 0, i: 2 }, 33: { n: "Hill Giant", z: "b", o: 1, i: 1, at: ["o", 32] } };
  assert.equal(somethingHappens(view("declare_attackers", 1, walker), 0), true);
  const hold = { until: "my_turn", turn: 4 };
  assert.equal(passFor(view("upkeep", 1, bolt), 0, opts({ hold })), false);
  // The player's own spell on the stack is nothing happening *to* them.
  const mine = { 34: { n: "Giant Growth", z: "s", o: 0, i: 1 } };
  assert.equal(somethingHappens(view("main1", 0, mine), 0), false);
});

test("a hold passes every priority until it runs out", () => {
  const eot = { until: "end_of_turn", turn: 4 };
  assert.equal(passFor(view("main1", 0), 0, opts({ hold: eot })), true);
  assert.equal(holding(eot, { ...view("main1", 1), t: [5, 1, "main1", 0] }, 0), false);
  const mine = { until: "my_turn", turn: 4 };
  assert.equal(holding(mine, view("main2", 0), 0), true); // the turn it was set in goes on
  assert.equal(holding(mine, { ...view("end", 1), t: [5, 1, "end", 0] }, 0), true);
  assert.equal(holding(mine, { ...view("upkeep", 0), t: [6, 0, "upkeep", 0] }, 0), false);
  // Auto-pass off: only a hold passes for the player.
  assert.equal(passFor(view("upkeep", 1), 0, opts({ autoPass: false })), false);
  assert.equal(passFor({ ...view("upkeep", 1), t: [5, 1, "upkeep", 0] }, 0,
    opts({ autoPass: false, hold: eot })), false); // the hold ended with its turn
  assert.equal(passFor(view("upkeep", 1), 0, opts({ autoPass: false, hold: mine })), true);
});

test("stops are toggled in turn order and read back from storage, defaults when unreadable", () => {
  const s = toggleStop(toggleStop(DEFAULT_STOPS, "theirs", "declare_attackers"), "mine", "main2");
  assert.deepEqual(s, { mine: ["main1"], theirs: ["declare_attackers", "end"] });
  assert.deepEqual(parseStops(JSON.stringify(s)), s);
  assert.deepEqual(parseStops("{oops"), { mine: ["main1", "main2"], theirs: ["end"] });
  assert.deepEqual(parseStops(JSON.stringify({ mine: ["cleanup"], theirs: [] })), parseStops(null));
});
