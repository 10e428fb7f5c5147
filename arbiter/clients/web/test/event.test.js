// The event views' arithmetic (src/event/model.js): sorting by colour and mana value, the deck
// builder's moves and the deck list it sends, the curve and colour count, timers, standings.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as M from "../src/event/model.js";

const cards = {
  "Llanowar Elves": { colors: "G", mv: 1, types: "Creature — Elf Druid" },
  "Giant Growth": { colors: "G", mv: 1, types: "Instant" },
  "Craw Wurm": { colors: "G", mv: 6, types: "Creature — Wurm" },
  "Lightning Bolt": { colors: "R", mv: 1, types: "Instant" },
  "Serra Angel": { colors: "W", mv: 5, types: "Creature — Angel" },
  "Ornithopter": { colors: "", mv: 0, types: "Artifact Creature — Thopter" },
  "Dragon's Claw": { colors: "", mv: 2, types: "Artifact" },
  "Terramorphic Expanse": { colors: "", mv: 0, types: "Land" },
  "Blood Tyrant": { colors: "UBR", mv: 7, types: "Creature — Vampire" },
  Forest: { colors: "", mv: 0, types: "Basic Land — Forest" },
};

test("cards sort by colour (W U B R G, multicolour, colourless, lands), then mana value, then name", () => {
  const names = ["Terramorphic Expanse", "Craw Wurm", "Blood Tyrant", "Lightning Bolt", "Serra Angel",
    "Giant Growth", "Llanowar Elves", "Dragon's Claw", "Ornithopter", "Not A Card"];
  assert.deepEqual(M.sortCards(names, cards), ["Serra Angel", "Lightning Bolt", "Giant Growth",
    "Llanowar Elves", "Craw Wurm", "Blood Tyrant", "Ornithopter", "Dragon's Claw",
    "Terramorphic Expanse", "Not A Card"]);
  const groups = M.groupCounts(M.countsOf(["Craw Wurm", "Giant Growth", "Craw Wurm", "Lightning Bolt"]), cards);
  assert.deepEqual(groups, [["R", [["Lightning Bolt", 1]]], ["G", [["Giant Growth", 1], ["Craw Wurm", 2]]]]);
});

test("the builder moves one copy at a time, never more than the pool holds, and counts basics apart", () => {
  const pool = { "Craw Wurm": 2, "Giant Growth": 1, Forest: 1 };
  let build = M.newBuild(pool, null);
  build = M.moveCard(pool, build, "Craw Wurm", true);
  build = M.moveCard(pool, build, "Craw Wurm", true);
  build = M.moveCard(pool, build, "Craw Wurm", true); // the pool has two
  assert.deepEqual(build.main, { "Craw Wurm": 2 });
  assert.deepEqual(M.sideboardOf(pool, build), { "Giant Growth": 1 }, "a pool's basic land is no sideboard card");
  build = M.moveCard(pool, build, "Craw Wurm", false);
  build = M.stepBasic(build, "Forest", 1);
  build = M.stepBasic(build, "Forest", 1);
  build = M.stepBasic(M.stepBasic(build, "Island", -1), "Island", -1);
  assert.equal(build.basics.Island, 0, "never below none");
  assert.equal(M.total(M.deckCounts(build)), 3);
  assert.equal(M.deckText(build, cards), "1 Craw Wurm\n2 Forest");
});

test("a deck already sent is where the builder starts, its basics on the steppers", () => {
  const build = M.newBuild({ "Giant Growth": 1, Forest: 1 }, { "Giant Growth": 1, Forest: 17, Swamp: 2 });
  assert.deepEqual(build.main, { "Giant Growth": 1 });
  assert.equal(build.basics.Forest, 17);
  assert.equal(build.basics.Swamp, 2);
});

test("the mana curve counts spells by mana value (6 and up together) and leaves lands out", () => {
  const deck = { "Llanowar Elves": 2, "Craw Wurm": 1, "Blood Tyrant": 1, Ornithopter: 1, Forest: 9,
    "Terramorphic Expanse": 1 };
  assert.deepEqual(M.manaCurve(deck, cards), [1, 2, 0, 0, 0, 0, 2]);
  const colours = M.colourCount(deck, cards);
  assert.deepEqual(colours.G, { cards: 3, lands: 9 });
  assert.deepEqual(colours.R, { cards: 1, lands: 0 }, "a card of three colours counts for each");
  assert.equal(M.passesFilter(cards["Blood Tyrant"], "B"), true);
  assert.equal(M.passesFilter(cards.Ornithopter, "C"), true);
  assert.equal(M.passesFilter(cards["Craw Wurm"], "C"), false);
});

test("timers count down between messages and read 0:00 only when run out", () => {
  assert.equal(M.secondsLeft(75, 1000, 3500), 72.5);
  assert.equal(M.secondsLeft(5, 0, 9000), 0);
  assert.equal(M.timerText(72.5), "1:13");
  assert.equal(M.timerText(0.2), "0:01");
  assert.equal(M.timerText(0), "0:00");
});

test("standings read as percentages and results as scores", () => {
  assert.equal(M.percent(0.3333), "33.33%");
  assert.equal(M.percent(1), "100.00%");
  assert.equal(M.resultText([2, 1, 0]), "2–1");
  assert.equal(M.resultText([1, 1, 1]), "1–1–1");
  assert.equal(M.resultText(null), null);
});

test("the host form's fields become a create_event config within the protocol's bounds", () => {
  assert.deepEqual(M.eventConfig({ kind: "draft", seats: "8", rounds: "auto", best_of: "3",
    pick_time: "75", build_minutes: "15", bots: "on", name: "" }),
  { kind: "draft", seats: 8, best_of: 3, pick_time: 75, build_time: 900, bots: true });
  assert.deepEqual(M.eventConfig({ kind: "sealed", seats: "99", rounds: "2", best_of: "1",
    pick_time: "1", build_minutes: "0", bots: "off", name: " Friday " }),
  { kind: "sealed", seats: 64, best_of: 1, pick_time: 5, build_time: 60, bots: false, name: "Friday",
    rounds: 2 });
});
