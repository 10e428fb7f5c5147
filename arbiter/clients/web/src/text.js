// Words for what the view holds: step names, results, player names. Plain functions of the
// replica and the room summary (docs/protocol.md, sections 6 and 8).

export const STEPS = {
  setup: "setup", untap: "untap step", upkeep: "upkeep", draw: "draw step",
  main1: "first main phase", begin_combat: "beginning of combat",
  declare_attackers: "declare attackers", declare_blockers: "declare blockers",
  combat_damage: "combat damage", first_strike_damage: "first-strike damage",
  end_combat: "end of combat", main2: "second main phase", end: "end step", cleanup: "cleanup",
};

export const ZONES = { h: "hand", b: "battlefield", g: "graveyard", e: "exile", s: "stack",
  c: "command zone" };

export const REASONS = {
  concession: "conceded", life: "life total reached 0", decking: "drew from an empty library",
  poison: "ten or more poison counters", judge: "game loss from a judge",
  clock: "ran out of time", range_draw: "draw by range of influence", agreement: "agreed draw",
};

const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESC[c]);
}

/** A seat as people count it: from 1 (the wire counts from 0, docs/protocol.md). */
export function seatName(pid) {
  return `Seat ${Number(pid) + 1}`;
}

export function names(summary) {
  const out = new Map();
  (summary?.seats ?? []).forEach((s, i) => out.set(i, s.n || seatName(i)));
  return out;
}

export function nameOf(names, pid) {
  return names.get(pid) ?? seatName(pid);
}

/** "1 card", "2 cards". */
export function plural(n, word) {
  return `${n} ${word}${Number(n) === 1 ? "" : "s"}`;
}

export function seatsOf(view) {
  const g = view.g;
  if (g && Array.isArray(g.seats)) return g.seats;
  return Object.keys(view).filter((k) => /^p\d+$/.test(k)).map((k) => Number(k.slice(1)))
    .sort((a, b) => a - b);
}

/** Who must decide: `w` is [player, kind], in Grand Melee [player, kind, turn marker]. */
export function decider(view) {
  const w = view.w;
  return Array.isArray(w) && w.length >= 2 && typeof w[0] === "number" ? w[0] : null;
}

/** Whose turn it is, as a set of seats: in Grand Melee every holder of a turn marker taking a
 * turn with it (CR 807.4); with shared team turns every player on the active team (CR 805.4a);
 * otherwise the active player. */
export function activePlayers(view) {
  if (Array.isArray(view.m) && view.m.length) {
    return new Set(view.m.filter((m) => m.s === "turn").map((m) => m.p));
  }
  const active = (view.t ?? [])[1];
  const g = view.g ?? {};
  if ((g.shared ?? []).includes("turns")) {
    const team = (g.teams ?? []).find((members) => members.includes(active));
    if (team) return new Set(team);
  }
  return new Set(active === undefined || active === null ? [] : [active]);
}

export function describeRef(ref, view, names) {
  if (!Array.isArray(ref)) return String(ref);
  if (ref[0] === "p") return nameOf(names, ref[1]);
  const o = view[String(ref[1])];
  return o ? o.n : "a card no longer there";
}

/** "Ann won: Bob lost (life total reached 0, CR 104.3b)". */
export function resultText(res, names) {
  let head;
  if (res.restarted) head = "The game restarted";
  else if (res.draw) head = "The game is a draw";
  else if (res.winners?.length) head = res.winners.map((w) => nameOf(names, w)).join(" and ") + " won";
  else head = "Nobody won";
  const ends = (res.outcomes ?? []).filter((o) => o.outcome !== "won")
    .map((o) => `${nameOf(names, o.player)} ${o.outcome} (${REASONS[o.reason] ?? o.reason}, CR ${o.rule})`);
  return ends.length ? `${head}: ${ends.join("; ")}` : head;
}

export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
