// Replays (src/replay/screen.js): the link, every step's view from the server's answer, the
// turns a replay can jump to, and the lobby's list of recent matches.
import { test } from "node:test";
import assert from "node:assert/strict";
import { historyHtml, replayGame, stepViews, turnStarts } from "../src/replay/screen.js";

test("#replay=GAME opens a game's replay; anything else does not", () => {
  assert.equal(replayGame("#replay=12"), 12);
  for (const hash of ["", "#replay=", "#replay=x", "#replay=-1", "#replay=1.5", "#/room/12"]) {
    assert.equal(replayGame(hash), null, hash);
  }
});

test("step k is the first view with the first k deltas applied, each step its own copy", () => {
  const msg = { v: { p0: { l: 20 }, 5: { n: "Mountain", z: "h" } },
    o: [[["s", 5, { n: "Mountain", z: "b" }]], [["p", "p0", { l: 17 }], ["d", 5]]] };
  const views = stepViews(msg);
  assert.equal(views.length, 3);
  assert.equal(views[0]["5"].z, "h");
  assert.equal(views[1]["5"].z, "b");
  assert.equal(views[1].p0.l, 20);
  assert.equal(views[2].p0.l, 17);
  assert.equal("5" in views[2], false);
});

test("a turn starts at its first step", () => {
  assert.deepEqual(turnStarts(0, [1, 1, 1, 2, 2, 3]), [[0, 0], [1, 1], [2, 4], [3, 6]]);
  assert.deepEqual(turnStarts(1, []), [[1, 0]]);
});

test("recent matches link each game's replay and escape what players typed", () => {
  const game = { game: 4, room: "2", room_name: "<b>x</b>", n: 1, variant: "two_player",
    names: ["Ann", "Bot"], started: 1, res: { winners: [0], outcomes: [] }, seat: 0 };
  const html = historyHtml({ mine: [game], recent: [] });
  assert.match(html, /href="#replay=4"/);
  assert.match(html, /Ann won/);
  assert.doesNotMatch(html, /<b>x<\/b>/);
  assert.match(historyHtml({ mine: [], recent: [] }), /None yet/);
});
