// Stops: where the page stops passing for the player (issue 29, docs/clients.md "Stops").
// With auto-pass on, the page passes priority for the player when passing is all they can
// do; with stops it also passes when they could act but the step is not one they stop at
// (as Arena's and XMage's stops do), unless something happens to them. A hold ("pass until
// end of turn", "pass until my turn") passes every priority until it runs out, again unless
// something happens to the player. Pure functions of the view; app.js keeps the settings in
// the browser's localStorage.

import { activePlayers } from "./text.js";

/** The steps a player may stop at, in turn order (priority is never given in untap or
 * cleanup, CR 502.4, 514.3). */
export const STOP_STEPS = ["upkeep", "draw", "main1", "begin_combat", "declare_attackers",
  "declare_blockers", "combat_damage", "end_combat", "main2", "end"];

/** Your own main phases (lands, creatures, sorceries) and opponents' end steps (the last
 * moment for an instant before your turn). Being attacked, or a spell or ability of another
 * player on the stack, stops the page anyway. */
export const DEFAULT_STOPS = Object.freeze({ mine: ["main1", "main2"], theirs: ["end"] });

/** Stops read from storage, or the defaults when there are none or they are unreadable. */
export function parseStops(text) {
  try {
    const s = JSON.parse(text);
    const ok = (list) => Array.isArray(list) && list.every((x) => STOP_STEPS.includes(x));
    if (s && ok(s.mine) && ok(s.theirs)) return { mine: [...s.mine], theirs: [...s.theirs] };
  } catch {
    // fall through to the defaults
  }
  return { mine: [...DEFAULT_STOPS.mine], theirs: [...DEFAULT_STOPS.theirs] };
}

/** The stops with one step of one side turned on or off. */
export function toggleStop(stops, side, step) {
  const list = stops[side].includes(step) ? stops[side].filter((x) => x !== step)
    : STOP_STEPS.filter((x) => x === step || stops[side].includes(x));
  return { ...stops, [side]: list };
}

const controllerOf = (o) => (o.c ?? o.o);

/** Does something happen to ``me`` that they should see and may answer: a spell or ability
 * of another player on the stack, or a creature attacking them or a planeswalker of theirs. */
export function somethingHappens(view, me) {
  for (const [key, o] of Object.entries(view)) {
    if (!/^\d+$/.test(key) || !o) continue;
    if (o.z === "s" && controllerOf(o) !== me) return true;
    if (o.z === "b" && Array.isArray(o.at)) {
      const [kind, id] = o.at;
      if (kind === "p" && id === me) return true;
      if (kind === "o" && view[id] && controllerOf(view[id]) === me) return true;
    }
  }
  return false;
}

/** A hold still running? ``{until: "end_of_turn", turn}`` lasts while that turn does;
 * ``{until: "my_turn"}`` until a turn of the player's begins. */
export function holding(hold, view, me) {
  const t = view.t;
  if (!hold || !t) return false;
  if (hold.until === "end_of_turn") return t[0] === hold.turn;
  if (hold.until === "my_turn") return !activePlayers(view).has(me) || t[0] === hold.turn;
  return false;
}

/** Should the page pass this priority decision for the player? ``onlyPassing``: passing is all
 * they can do. */
export function passFor(view, me, { onlyPassing, autoPass, stops, hold }) {
  if (holding(hold, view, me) && !somethingHappens(view, me)) return true;
  if (!autoPass) return false;
  if (onlyPassing) return true;
  const t = view.t;
  if (!t || somethingHappens(view, me)) return false;
  const side = activePlayers(view).has(me) ? "mine" : "theirs";
  return !stops[side].includes(t[2]);
}
