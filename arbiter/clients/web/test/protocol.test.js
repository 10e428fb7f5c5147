// The JavaScript port of the wire codec and the view replica against docs/protocol.md's test
// vectors (section 9) and against snapshots the Python reference encoded: tests/web/test_js.py
// writes them to a file and names it in ARBITER_VECTORS before it runs these tests.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { canonical, canonicalEntry, decodeFrame, encodeMessage, keyOf, MARK } from
  "../src/protocol/codec.js";
import { crc32 } from "../src/protocol/crc32.js";
import { checksum, Tracker, ViewState } from "../src/protocol/views.js";

const hex = (bytes) => Buffer.from(bytes).toString("hex");
const forest = { n: "Forest", z: "b", o: 0, i: 3 };

test("canonical encodings and CRC32s of section 9", () => {
  const turn = canonicalEntry("t", [1, 0, "main1", 0]);
  assert.equal(hex(turn), "92a174940100a56d61696e3100");
  assert.equal(crc32(turn), 3460788851);
  const land = canonicalEntry("12", forest);
  assert.equal(hex(land), "920c84a16903a16ea6466f72657374a16f00a17aa162");
  assert.equal(crc32(land), 1041658989);
});

test("the checksum of section 9's view, and after tapping the Forest", () => {
  const state = new ViewState({ t: [1, 0, "main1", 0], 12: forest });
  assert.equal(state.checksum, 207480544);
  assert.equal(checksum(state.view), 207480544);
  state.apply([["s", 12, { ...forest, t: 1 }]]);
  assert.equal(state.checksum, 3337695215);
  state.apply([["d", 12]]);
  assert.equal(state.checksum, crc32(canonicalEntry("t", [1, 0, "main1", 0])));
});

test("maps are ordered by the canonical bytes of their keys, integers before strings", () => {
  // 5 (05) < "b" (a1 62) < "aa" (a2 61 61) < 200 (cc c8): bytewise, as the reference sorts.
  const value = decodeFrame(encodeMessage({ x: 1 })); // a decoded map, keys as strings
  assert.deepEqual(value, { x: 1 });
  const bytes = canonical({ aa: 1, b: 2, 200: 3, 5: 4 });
  assert.equal(hex(bytes), "84" + "0504" + "a16202" + "a2616101" + "ccc803");
});

test("integer keys and digit strings as keys stay apart", () => {
  // {1: "int", "1": "str"} as the Python reference encodes it (msgpack.packb)
  const frame = Uint8Array.from(Buffer.from("8201a3696e74a131a3737472", "hex"));
  const map = decodeFrame(frame);
  assert.equal(map["1"], "int");
  assert.equal(map[MARK + "1"], "str");
  assert.equal(keyOf(MARK + "1"), "1");
  assert.equal(hex(canonical(map)), "8201a3696e74a131a3737472");
});

const VECTORS = process.env.ARBITER_VECTORS;

test("Python-encoded frames decode and check as the reference computed",
  { skip: VECTORS ? false : "ARBITER_VECTORS names no file (tests/web/test_js.py makes one)" },
  () => {
  const vectors = JSON.parse(readFileSync(VECTORS));
  assert.ok(vectors.length > 0);
  for (const v of vectors.filter((x) => x.frame)) {
    const msg = decodeFrame(Uint8Array.from(Buffer.from(v.frame, "hex")));
    if (v.checksum !== undefined) assert.equal(checksum(msg.v), v.checksum, v.what);
    if (v.canonical !== undefined) assert.equal(hex(canonical(msg.v)), v.canonical, v.what);
  }
});

test("the replica follows the server's deltas of a real game, patches included",
  { skip: VECTORS ? false : "ARBITER_VECTORS names no file (tests/web/test_js.py makes one)" },
  () => {
  const streams = JSON.parse(readFileSync(VECTORS)).filter((x) => x.deltas);
  assert.ok(streams.length > 0);
  const frame = (h) => decodeFrame(Uint8Array.from(Buffer.from(h, "hex")));
  for (const s of streams) {
    const tracker = new Tracker();
    assert.equal(tracker.feed(frame(s.snapshot)), null, s.what);
    s.deltas.forEach((d, n) => assert.equal(tracker.feed(frame(d)), null, `${s.what}, ${n}`));
    const rv = tracker.rooms.get("1");
    assert.equal(rv.seq, s.deltas.length);
    assert.equal(rv.state.checksum, s.checksum, s.what);
    assert.equal(checksum(rv.view), s.checksum, s.what);
  }
});

test("a patch sets and removes fields of a map, and needs a map there", () => {
  const state = new ViewState({ t: [1, 0, "main1", 0], 12: { ...forest, t: 1 } });
  const before = state.view[12];
  state.apply([["p", 12, { t: null }]]);
  assert.deepEqual(state.view[12], forest);
  assert.equal(state.checksum, 207480544, "section 9's view again");
  assert.equal(before.t, 1, "a new map: the old one is left as it was");
  state.apply([["p", 12, { d: 2, t: 1 }]]);
  assert.equal(state.checksum, checksum(state.view));
  assert.throws(() => state.apply([["p", "t", { n: 1 }]]));
  assert.throws(() => state.apply([["p", 99, { n: 1 }]]));
  assert.throws(() => state.apply([["p", 12, [1]]]));
  state.apply([["s", 13, { ...forest, i: 4, t: 1 }], ["p", [12, 13], { t: null }]]);
  assert.equal(state.view[12].t, undefined);
  assert.equal(state.view[13].t, undefined, "one patch for several keys");
  assert.equal(state.checksum, checksum(state.view));
  assert.throws(() => state.apply([["p", [], { t: 1 }]]));
  assert.throws(() => state.apply([["p", [12, 1.5], { t: 1 }]]));
});

test("the tracker asks for a resync on a gap, a bad checksum or a malformed op", () => {
  const view = { t: [1, 0, "main1", 0], 12: forest };
  const c = checksum(view);
  const tracker = new Tracker();
  assert.equal(tracker.feed({ t: "s", r: "7", e: 5, q: 0, c, v: view }), null);
  const tapped = { ...forest, t: 1 };
  assert.equal(tracker.feed({ t: "d", r: "7", q: 1, c: 3337695215, o: [["s", 12, tapped]] }),
    null);
  assert.equal(tracker.feed({ t: "d", r: "7", q: 1, c: 0, o: [] }), null, "a duplicate");
  assert.deepEqual(tracker.positions(), { 7: [5, 1] });
  assert.equal(tracker.feed({ t: "d", r: "7", q: 3, c: 0, o: [] }), "7", "a gap");
  assert.equal(tracker.feed({ t: "d", r: "7", q: 4, c: 0, o: [] }), null, "ignored while stale");
  assert.deepEqual(tracker.positions(), {});
  assert.equal(tracker.feed({ t: "s", r: "7", e: 5, q: 9, c, v: view }), null);
  assert.equal(tracker.feed({ t: "d", r: "7", q: 10, c: 1, o: [["s", "w", [0, "priority"]]],
    a: { serial: 3, actions: [] } }), "7", "a wrong checksum");
  assert.equal(tracker.rooms.get("7").actions, null);
  assert.equal(tracker.feed({ t: "s", r: "7", e: 6, q: 0, c, v: view }), null);
  assert.equal(tracker.feed({ t: "d", r: "7", q: 1, c, o: [["x"]] }), "7", "a malformed op");
  assert.equal(tracker.mismatches, 3);
});

test("legal actions ride in a delta and are used up by acting", () => {
  const view = { t: [1, 0, "main1", 0] };
  const tracker = new Tracker();
  tracker.feed({ t: "s", r: "3", e: 1, q: 0, c: checksum(view), v: view });
  const w = [0, "priority"];
  const after = checksum({ ...view, w });
  tracker.feed({ t: "d", r: "3", q: 1, c: after, o: [["s", "w", w]], a: { serial: 8 } });
  assert.equal(tracker.rooms.get("3").actions.serial, 8);
  tracker.acted("3", 8);
  assert.equal(tracker.rooms.get("3").actions, null);
  tracker.feed({ t: "a", r: "3", d: { serial: 9 } });
  tracker.feed({ t: "closed", r: "3", parent: "2", res: { winners: [0] } });
  assert.equal(tracker.rooms.get("3").closed, true);
  assert.equal(tracker.rooms.get("3").actions, null);
});
