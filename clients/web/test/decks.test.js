// Deck lists checked in the page, every bad line at once (the server has the last word).
import assert from "node:assert/strict";
import { test } from "node:test";

import { checkDeckList, serverErrorLine } from "../src/decks.js";

const cards = { Mountain: {}, "Lightning Bolt": {}, "Hill Giant": {}, "Isamaru, Hound of Konda": {} };

test("every bad line is reported with its number", () => {
  const text = "# burn\n4 Lightning Bolt\n0 Mountain\n3\nSideboard\n2 Hill Gaint\n16 Mountain";
  const { main, side, errors } = checkDeckList(text, cards);
  assert.deepEqual(errors.map((e) => [e.line, e.why]), [
    [3, "the count must be between 1 and 250"],
    [4, "malformed line (a count with no card name)"],
    [6, 'unknown card "Hill Gaint"'],
  ]);
  assert.equal(main.length, 4);
  assert.equal(side.length, 16, "every line after Sideboard");
});

test("a commander line, and a list checked for its form only without card data", () => {
  const ok = checkDeckList("Commander: Isamaru, Hound of Konda\n99 Mountain", cards);
  assert.deepEqual(ok.errors, []);
  assert.equal(ok.commander, "Isamaru, Hound of Konda");
  assert.equal(ok.main.length, 100);
  assert.deepEqual(checkDeckList("4 Anything At All", null).errors, []);
  assert.equal(checkDeckList("", cards).errors[0].why, "the deck list has no cards");
  assert.equal(serverErrorLine("line 12: unknown card 'X': 'X'"), 12);
});
