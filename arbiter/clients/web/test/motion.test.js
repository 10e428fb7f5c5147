// What the animations of src/motion.js start from: objects new in their zone (a card that
// moves is a new object, CR 400.7) and life totals that changed (CR 119.3).
import { test } from "node:test";
import assert from "node:assert/strict";
import { changes, stateOf } from "../src/motion.js";

const before = stateOf({ p0: { l: 20 }, p1: { l: 20 }, 5: { n: "Lightning Bolt", z: "h" },
  6: { n: "Mountain", z: "b" } });

test("the first view of a room animates nothing", () => {
  assert.deepEqual(changes(null, before), { arrived: [], life: [] });
});

test("a card new in its zone arrives; one that stayed does not", () => {
  const after = stateOf({ p0: { l: 20 }, p1: { l: 20 }, 9: { n: "Lightning Bolt", z: "s" },
    6: { n: "Mountain", z: "b", t: 1 } });
  assert.deepEqual(changes(before, after).arrived, ["9"]);
});

test("a life total that changed, with by how much", () => {
  const after = stateOf({ p0: { l: 23 }, p1: { l: 17 }, 5: { n: "Lightning Bolt", z: "h" },
    6: { n: "Mountain", z: "b" } });
  assert.deepEqual(changes(before, after).life, [{ pid: 0, change: 3 }, { pid: 1, change: -3 }]);
});
