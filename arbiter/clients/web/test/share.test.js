// Shared room links (src/share.js): what opens a room as a player or a spectator.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseShare, shareLink } from "../src/share.js";

test("a player's and a spectator's link name the match", () => {
  assert.deepEqual(parseShare("#room=12"), { as: "room", match: "12" });
  assert.deepEqual(parseShare("#watch=7"), { as: "watch", match: "7" });
});

test("a subgame's room opens its match", () => {
  assert.deepEqual(parseShare("#watch=12.1.5"), { as: "watch", match: "12" });
});

test("anything else is no shared link", () => {
  for (const hash of ["", "#/room/12", "#room=012", "#room=", "#seat=3", "#room=12&x=1", "#watch=abc"]) {
    assert.equal(parseShare(hash), null, hash);
  }
});

test("the link is the page's address with the fragment", () => {
  const where = { origin: "http://127.0.0.1:8765", pathname: "/" };
  assert.equal(shareLink(where, "room", "12"), "http://127.0.0.1:8765/#room=12");
  assert.equal(parseShare(new URL(shareLink(where, "watch", "3")).hash).match, "3");
});
