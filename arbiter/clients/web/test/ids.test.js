// The port of room ids (src/protocol/ids.js) against docs/protocol.md section 7 and against the
// Python reference: tests/web/test_js.py writes strings with protocol/ids.py's answers to a file
// and names it in ARBITER_ROOM_IDS before it runs these tests.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { formatRoomId, isRoomId, matchOf, parseRoomId, RoomIdError } from "../src/protocol/ids.js";

test("the documented examples", () => {
  assert.deepEqual(parseRoomId("12"), { match: 12, game: 0, number: 0 });
  assert.deepEqual(parseRoomId("12.1.5"), { match: 12, game: 1, number: 5 });
  assert.equal(formatRoomId({ match: 12, game: 1, number: 5 }), "12.1.5");
  assert.equal(formatRoomId({ match: 12 }), "12");
  assert.equal(matchOf("12.1.5"), "12");
  assert.equal(matchOf("12"), "12");
});

test("what is no room id is refused with its reason", () => {
  for (const text of ["", "0", "012", "12.1", "12.1.5.7", "12.0.0", "+12", " 12", "12\n", "١٢", "²", "abc"]) {
    assert.throws(() => parseRoomId(text), (err) => err instanceof RoomIdError && /not a room id/.test(err.message), text);
    assert.equal(isRoomId(text), false, text);
    assert.throws(() => matchOf(text), RoomIdError, text);
  }
  assert.throws(() => parseRoomId("9007199254740992"), /whole number from 1 to 9007199254740991/);
  assert.throws(() => parseRoomId("1".repeat(33)), /longer than 32 characters/);
  assert.throws(() => parseRoomId(12), /is a string, not number/);
  assert.equal(isRoomId(null), false);
});

test("every room id formats and parses back", () => {
  let seed = 7;
  const next = (limit) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return 1 + (seed % limit);
  };
  for (let i = 0; i < 2000; i += 1) {
    const room = i % 2 ? { match: next(1e6), game: 0, number: 0 } : { match: next(1e6), game: next(50), number: next(1e4) };
    const text = formatRoomId(room);
    assert.deepEqual(parseRoomId(text), room);
    assert.equal(matchOf(text), String(room.match));
  }
});

const VECTORS = process.env.ARBITER_ROOM_IDS;

test(
  "the same answers as protocol/ids.py on the same strings",
  { skip: VECTORS ? false : "ARBITER_ROOM_IDS names no file (tests/web/test_js.py makes one)" },
  () => {
    const vectors = JSON.parse(readFileSync(VECTORS));
    assert.ok(vectors.some((v) => v.room !== null) && vectors.some((v) => v.room === null));
    for (const { text, room, match } of vectors) {
      if (room === null) {
        assert.equal(isRoomId(text), false, JSON.stringify(text));
        assert.throws(() => parseRoomId(text), RoomIdError, JSON.stringify(text));
      } else {
        const [m, g, n] = room;
        assert.deepEqual(parseRoomId(text), { match: m, game: g, number: n }, text);
        assert.equal(matchOf(text), match, text);
        assert.equal(formatRoomId(parseRoomId(text)), text, text);
      }
    }
  },
);
