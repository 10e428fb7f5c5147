// The board to draw once a game is over, for the live table (app.js) and for replays
// (replay/screen.js), which both end on the delta that ends the game.

/** The view to draw for a room whose game is over: its final board. When a player loses, the
 * engine takes what they own out of the game (CR 800.4a) in the same delta that ends it, so the
 * loser's side would be empty; their objects and their hand and library sizes as they were just
 * before the end are put back (`live` is the view as it last was while the game was on). A
 * player's objects that left in an earlier delta (they left a game that went on) stay gone. */
export function finalBoard(live, view) {
  if (!live) return view;
  const out = Object.assign(Object.create(null), view);
  const gone = new Set(["lost", "drew"]); // a winner keeps what it has
  const ended = (pid) => gone.has(view[`p${pid}`]?.s) && live[`p${pid}`]?.s === "in";
  for (const key of Object.keys(live)) {
    const o = live[key];
    if (!(key in view) && /^\d+$/.test(key) && ended(o.o)) out[key] = o;
    const player = /^p(\d+)$/.exec(key);
    if (player && key in view && ended(Number(player[1]))) out[key] = { ...view[key], h: o.h, y: o.y };
  }
  return out;
}
