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

test("the supplementary parts: a planar deck, a scheme deck and a vanguard", () => {
  const known = { ...cards, Krosa: {}, Goldmeadow: {}, "Look Skyward and Despair": {}, Maraxus: {} };
  const text = "20 Mountain\nPlanar deck\nKrosa\nGoldmeadow\nScheme deck\n2 Look Skyward and Despair\n" +
    "Deck\n4 Lightning Bolt\nVanguard: Maraxus";
  const deck = checkDeckList(text, known);
  assert.deepEqual(deck.errors, []);
  assert.equal(deck.main.length, 24, "Deck goes back to the main deck");
  assert.deepEqual(deck.planar, ["Krosa", "Goldmeadow"]);
  assert.equal(deck.schemes.length, 2);
  assert.equal(deck.vanguard, "Maraxus");
  const twice = checkDeckList("Mountain\nVanguard: Maraxus\nVanguard: Maraxus", known);
  assert.deepEqual(twice.errors.map((e) => [e.line, e.why]), [[3, "a deck has one Vanguard line"]]);
});
