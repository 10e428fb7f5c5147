// The arrows a view calls for (src/arrows.js): targets of what is on the stack (CR 115.1) and
// what each attacker attacks (CR 508.1b), and the path joining two boxes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { arrowsOf, pathBetween } from "../src/arrows.js";

test("a spell on the stack has an arrow to each of its targets, objects and players", () => {
  const view = { p0: { l: 20 }, p1: { l: 20 },
    7: { n: "Ignite Disorder", z: "s", o: 0, i: 1, tg: [["o", 3], ["p", 1]], dv: [2, 1] },
    3: { n: "Grizzly Bears", z: "b", o: 1, i: 1 } };
  assert.deepEqual(arrowsOf(view), [
    { kind: "target", from: "7", to: "o3" }, { kind: "target", from: "7", to: "p1" }]);
});

test("an attacker has an arrow to the player or planeswalker it attacks", () => {
  const view = { 4: { n: "Hill Giant", z: "b", o: 0, i: 1, at: ["p", 2] },
    5: { n: "Grizzly Bears", z: "b", o: 0, i: 2, at: ["o", 9] },
    9: { n: "Jace Beleren", z: "b", o: 2, i: 1 } };
  assert.deepEqual(arrowsOf(view), [
    { kind: "attack", from: "4", to: "p2" }, { kind: "attack", from: "5", to: "o9" }]);
});

test("no arrows without targets or attacks, nor from a card elsewhere", () => {
  const view = { 1: { n: "Mountain", z: "b", o: 0, i: 1 },
    2: { n: "Lightning Bolt", z: "g", o: 0, i: 1, tg: [["p", 1]] },
    3: { n: "Shock", z: "s", o: 0, i: 1 }, "\u00001": [1, 2] };
  assert.deepEqual(arrowsOf(view), []);
});

test("the path runs from the edge of one box to the edge of the other", () => {
  const a = { x: 0, y: 0, w: 100, h: 50 };
  const b = { x: 300, y: 0, w: 100, h: 50 };
  const nums = pathBetween(a, b).match(/-?\d+(\.\d+)?/g).map(Number);
  assert.deepEqual([nums[0], nums[1]], [100, 25]); // the right edge of a
  assert.deepEqual([nums[4], nums[5]], [300, 25]); // the left edge of b
});
