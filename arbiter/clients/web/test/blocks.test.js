// The blocks a person chooses, held in the page until declared (src/blocks.js): picks are
// added and taken back, then sent one decision at a time, dropping any no longer offered.
import assert from "node:assert/strict";
import { test } from "node:test";

import { BlockPlan, blocksMany } from "../src/blocks.js";

const decision = (serial, blocks, done = "No blocks") => ({
  serial, kind: "blockers",
  actions: [{ id: 0, kind: "done", label: done },
    ...blocks.map(([obj, attacker], i) => ({ id: i + 1, kind: "block", obj, ref: ["o", attacker] }))],
});

test("a pick is added, moved to another attacker and taken back", () => {
  const plan = new BlockPlan();
  const d = decision(4, [[10, 20], [10, 21], [11, 20]]);
  plan.toggle("1", d.actions[1], "Hill Giant");
  assert.deepEqual(plan.picks.map((p) => [p.obj, p.ref[1]]), [[10, 20]]);
  plan.toggle("1", d.actions[2], "Ogre");  // the same blocker, another attacker
  assert.deepEqual(plan.picks.map((p) => [p.obj, p.ref[1]]), [[10, 21]]);
  plan.toggle("1", d.actions[2], "Ogre");  // the same choice again: taken back
  assert.deepEqual(plan.picks, []);
  plan.toggle("1", d.actions[3], "Hill Giant");
  assert.equal(plan.takeBack("11"), true);
  assert.equal(plan.takeBack("11"), false);
});

test("declared picks are sent in order, then done; one no longer offered is dropped", () => {
  const plan = new BlockPlan();
  plan.toggle("1", { kind: "block", obj: 10, ref: ["o", 20] }, "Hill Giant");
  plan.toggle("1", { kind: "block", obj: 11, ref: ["o", 20] }, "Hill Giant");
  plan.toggle("1", { kind: "block", obj: 12, ref: ["o", 21] }, "Ogre");
  plan.declare();
  let step = plan.next(decision(5, [[10, 20], [11, 20], [12, 21]]));
  assert.equal(step.action.obj, 10);
  step = plan.next(decision(6, [[12, 21]], "Declare these blockers")); // 11 may block no more
  assert.equal(step.action.obj, 12);
  assert.deepEqual(step.dropped.map((p) => p.obj), [11]);
  step = plan.next(decision(7, [], "Declare these blockers"));
  assert.equal(step.action.kind, "done");
  assert.equal(plan.room, null);
});

test("a decision about something else, or another step, ends the plan", () => {
  const plan = new BlockPlan();
  plan.toggle("1", { kind: "block", obj: 10, ref: ["o", 20] }, "Hill Giant");
  plan.follow("1", null, "declare_blockers");
  assert.equal(plan.picks.length, 1, "waiting for an answer changes nothing");
  plan.follow("1.1", { kind: "priority", actions: [] }, "main1");
  assert.equal(plan.picks.length, 1, "another room's decision is not this one's");
  plan.follow("1", { kind: "priority", actions: [] }, "declare_blockers");
  assert.equal(plan.room, null);
});

test("a creature that can block any number keeps one pick per attacker (CR 509.1a)", () => {
  const plan = new BlockPlan();
  plan.toggle("1", { kind: "block", obj: 10, ref: ["o", 20] }, "Hill Giant", true);
  plan.toggle("1", { kind: "block", obj: 10, ref: ["o", 21] }, "Ogre", true);
  assert.deepEqual(plan.planned().get("10"), ["Hill Giant", "Ogre"]);
  plan.toggle("1", { kind: "block", obj: 10, ref: ["o", 20] }, "Hill Giant", true); // taken back
  assert.deepEqual(plan.planned().get("10"), ["Ogre"]);
  plan.toggle("1", { kind: "block", obj: 10, ref: ["o", 20] }, "Hill Giant", true);
  plan.declare();
  // The engine offers the same blocker against the other attacker after the first block.
  let step = plan.next(decision(8, [[10, 21], [10, 20]]));
  assert.deepEqual([step.action.obj, step.action.ref[1]], [10, 21]);
  step = plan.next(decision(9, [[10, 20]], "Declare these blockers"));
  assert.deepEqual([step.action.obj, step.action.ref[1]], [10, 20]);
  step = plan.next(decision(10, [], "Declare these blockers"));
  assert.equal(step.action.kind, "done");
});

test("without done offered, the picks are sent and the person goes on choosing (CR 509.1c)", () => {
  const noDone = (serial, blocks) => ({ ...decision(serial, blocks), actions: decision(serial, blocks).actions.slice(1) });
  const plan = new BlockPlan();
  const first = noDone(4, [[10, 20], [11, 20]]); // a creature must block: no "done" yet
  assert.equal(plan.canDeclare(first), false, "nothing chosen, nothing to declare");
  plan.toggle("1", first.actions[0], "Prized Unicorn");
  assert.equal(plan.canDeclare(first), true, "the page's own Declare is offered");
  plan.declare();
  let step = plan.next(first);
  assert.equal(step.action.obj, 10);
  step = plan.next(noDone(5, [[11, 20]])); // still not legal: back to choosing, not stuck
  assert.equal(step.action, null);
  assert.equal(plan.sending, false);
  assert.deepEqual(plan.planned().get("10"), ["Prized Unicorn"], "the block sent is still shown");
  assert.equal(plan.takeBack("10"), false, "a block the engine holds is not taken back");
  plan.toggle("1", { kind: "block", obj: 11, ref: ["o", 20] }, "Prized Unicorn");
  plan.declare();
  step = plan.next(noDone(6, [[11, 20]]));
  assert.equal(step.action.obj, 11);
  step = plan.next(decision(7, [], "Declare these blockers"));
  assert.equal(step.action.kind, "done");
  assert.equal(plan.room, null);
});

test("which blockers may block several, from their card's text", () => {
  const catalog = { cards: { "Palace Guard": { text: "Palace Guard can block any number of creatures." },
    "Grizzly Bears": { text: "" } } };
  assert.equal(blocksMany({ n: "Palace Guard" }, catalog), true);
  assert.equal(blocksMany({ n: "Grizzly Bears" }, catalog), false);
  assert.equal(blocksMany(undefined, catalog), false);
});
