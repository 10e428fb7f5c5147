// The event views' HTML (src/event/views.js) for each phase: what a spectator is not shown,
// the deck builder's count, the confirmation before a drop, the final results.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as M from "../src/event/model.js";
import * as V from "../src/event/views.js";

const cards = {
  "Craw Wurm": { colors: "G", mv: 6, cost: "{4}{G}{G}", types: "Creature — Wurm", rarity: "C", pt: [6, 4] },
  "Lightning Bolt": { colors: "R", mv: 1, cost: "{R}", types: "Instant", rarity: "C" },
  Forest: { colors: "", mv: 0, types: "Basic Land — Forest" },
};
const config = { name: "Friday", kind: "draft", set: "M10", seats: 4, rounds: 2, best_of: 3,
  pick_time: 75, pick_floor: 5, build_time: 900, bots: true };
const entrants = ["Ann", "Bot 1", "Bot 2", "Bot 3"].map((n, seat) => ({ seat, n, b: seat > 0, d: false, deck: false }));

test("a drafter sees the pack's faces and their picks; a spectator sees neither", () => {
  const ev = { r: "5", config, phase: "drafting", entrants, round: 0, rounds: 2, draft: { pack: 1, waiting: [0, 1] },
    you: { seat: 0, pool: {}, deck: null, dropped: false, pack: ["Lightning Bolt", "Craw Wurm"], pick: 2, picks: ["Forest"] } };
  const mine = V.draftHtml({ ev, cards, busy: false });
  assert.match(mine, /Pack 1 · pick 2/);
  assert.match(mine, /data-card="Lightning Bolt"/);
  assert.match(mine, /title="common"/, "the rarity is on the face");
  const { you, ...watched } = ev;
  const theirs = V.draftHtml({ ev: watched, cards, busy: false });
  assert.doesNotMatch(theirs, /Lightning Bolt|Craw Wurm|Forest/);
  assert.match(theirs, /2 players have a pack/);
  const waiting = V.draftHtml({ ev: { ...ev, you: { ...you, pack: null } }, cards, busy: false });
  assert.match(waiting, /waiting for the next pack/);
});

test("the deck builder says how far the deck is from 40 cards (CR 100.2b)", () => {
  const pool = { "Craw Wurm": 1, "Lightning Bolt": 1 };
  const ev = { r: "5", config, phase: "building", entrants, round: 0, rounds: 2,
    you: { seat: 0, pool, deck: null, dropped: false } };
  let build = M.moveCard(pool, M.newBuild(pool, null), "Craw Wurm", true);
  const short = V.buildHtml({ ev, cards, build, filter: "", errors: ["the deck has 1 card"], busy: false });
  assert.match(short, /class="ev-count short" id="ev-count">1 \/ 40/);
  assert.match(short, /39 more to go/);
  assert.match(short, /role="alert"><li>the deck has 1 card/);
  for (let i = 0; i < 39; i++) build = M.stepBasic(build, "Forest", 1);
  const ok = V.buildHtml({ ev, cards, build, filter: "R", errors: [], busy: false });
  assert.match(ok, /class="ev-count ok" id="ev-count">40 \/ 40/);
  assert.match(ok, /data-do="ev-in" data-card="Lightning Bolt"/);
  assert.doesNotMatch(ok, /data-do="ev-out" data-card="Craw Wurm"/, "the red filter hides the green card");
});

test("the side panel lists the players; Drop asks once more before it is sent", () => {
  const ev = { r: "5", config, phase: "playing", entrants, round: 1, rounds: 2,
    you: { seat: 0, pool: {}, deck: {}, dropped: false } };
  const side = V.sideHtml({ ev, me: 0, host: true, dropArmed: false });
  for (const e of entrants) assert.match(side, new RegExp(e.n));
  assert.match(side, />Drop</);
  assert.match(V.sideHtml({ ev, me: 0, host: true, dropArmed: true }), /Drop out of the event\?.*Yes, drop/s);
  const lobby = V.sideHtml({ ev: { ...ev, phase: "lobby", entrants: entrants.slice(0, 1), you: undefined }, me: null, host: false, dropArmed: false });
  assert.match(lobby, /data-do="ev-join"/);
  assert.match(lobby, /3 seats open: bots take them at the start/);
  assert.doesNotMatch(lobby, /ev-start/, "only the host starts it");
});

test("a finished event names its winner and shows the final standings as percentages", () => {
  const standings = [
    { seat: 2, rank: 1, points: 6, w: 2, l: 0, d: 0, omw: 0.5, gw: 0.8, ogw: 0.4444 },
    { seat: 0, rank: 2, points: 3, w: 1, l: 1, d: 0, omw: 0.5, gw: 0.5, ogw: 0.5 },
  ];
  const ev = { r: "5", config, phase: "finished", entrants, round: 2, rounds: 2, standings,
    pools: [{ seat: 0, picks: [], deck: { Forest: 40 } }] };
  const html = V.finishedHtml({ ev, me: 0, cards });
  assert.match(html, /Bot 2 wins the event/);
  assert.match(html, /Final standings/);
  assert.match(html, /80\.00%/);
  assert.match(html, /44\.44%/);
  assert.match(html, /Ann: 40 cards/);
});
