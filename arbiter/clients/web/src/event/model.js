// The arithmetic of the event views (docs/events.md, docs/protocol.md section 15): how cards
// sort and group by colour and mana value, what the deck builder holds and sends, the mana
// curve, the colour count, standings as percentages, a timer counted down between messages.
// Pure functions of the event's state and the catalog's card data; nothing here touches the page.

export const BASICS = ["Plains", "Island", "Swamp", "Mountain", "Forest"];
export const MIN_DECK = 40; // CR 100.2b: a Limited deck has at least forty cards

// The order colour groups are shown in: the five colours in their usual order, then
// multicoloured, colourless spells and lands (a card without data last).
export const GROUPS = ["W", "U", "B", "R", "G", "M", "C", "L", "N"];
export const GROUP_NAMES = { W: "White", U: "Blue", B: "Black", R: "Red", G: "Green",
  M: "Multicolour", C: "Colourless", L: "Lands", N: "Unknown" };
export const RARITY_NAMES = { C: "common", U: "uncommon", R: "rare", M: "mythic rare",
  L: "basic land" };

/** The colour group of a card's data: one colour, "M" for several, "L" for a colourless land,
 * "C" for another colourless card, "N" when the catalog does not know it. */
export function groupOf(card) {
  if (!card) return "N";
  const colors = card.colors ?? "";
  if (colors.length > 1) return "M";
  if (colors.length === 1) return colors;
  return /\bLand\b/.test(card.types ?? "") ? "L" : "C";
}

/** A card's mana value (CR 202.3) from the catalog, 0 for a land or an unknown card. */
export function manaValue(card) {
  return Number(card?.mv ?? 0);
}

function compare(cards) {
  return (a, b) => {
    const ca = cards?.[a];
    const cb = cards?.[b];
    return GROUPS.indexOf(groupOf(ca)) - GROUPS.indexOf(groupOf(cb))
      || manaValue(ca) - manaValue(cb) || (a < b ? -1 : a > b ? 1 : 0);
  };
}

/** Card names sorted by colour group, then mana value, then name. */
export function sortCards(names, cards) {
  return [...names].sort(compare(cards));
}

/** `counts` ({name: count}) as [group, [[name, count], ...]] in group order, each group sorted
 * by mana value then name; empty groups left out. */
export function groupCounts(counts, cards) {
  const out = new Map();
  for (const name of sortCards(Object.keys(counts).filter((n) => counts[n] > 0), cards)) {
    const g = groupOf(cards?.[name]);
    if (!out.has(g)) out.set(g, []);
    out.get(g).push([name, counts[name]]);
  }
  return [...out];
}

/** A list of names (a draft's picks, in pick order) as counts. */
export function countsOf(names) {
  const out = {};
  for (const n of names ?? []) out[n] = (out[n] ?? 0) + 1;
  return out;
}

export function total(counts) {
  return Object.values(counts).reduce((s, n) => s + n, 0);
}

// ------------------------------------------------------------------ the deck builder

/** The builder's state for a pool: the pool's cards in the deck (`main`, basic lands apart:
 * any number of them may be added, CR 100.2b, so the steppers hold them) and the basic lands.
 * A deck already sent (`deck`, as the event shows it) is where it starts. */
export function newBuild(pool, deck) {
  const build = { main: {}, basics: Object.fromEntries(BASICS.map((b) => [b, 0])) };
  for (const [name, n] of Object.entries(deck ?? {})) {
    if (BASICS.includes(name)) build.basics[name] += n;
    else if (pool?.[name]) build.main[name] = Math.min(n, pool[name]);
  }
  return build;
}

/** The pool's cards that are not in the deck: the sideboard (basic lands apart). */
export function sideboardOf(pool, build) {
  const out = {};
  for (const [name, n] of Object.entries(pool ?? {})) {
    if (BASICS.includes(name)) continue;
    const left = n - (build.main[name] ?? 0);
    if (left > 0) out[name] = left;
  }
  return out;
}

/** One copy of `name` from the sideboard to the deck (`toDeck`) or back. A new state. */
export function moveCard(pool, build, name, toDeck) {
  const main = { ...build.main };
  const have = main[name] ?? 0;
  if (toDeck && have < (pool?.[name] ?? 0)) main[name] = have + 1;
  else if (!toDeck && have > 0) main[name] = have - 1;
  if (main[name] === 0) delete main[name];
  return { ...build, main };
}

/** Add `step` (+1 or -1) of basic land `name`, never below none. A new state. */
export function stepBasic(build, name, step) {
  if (!BASICS.includes(name)) return build;
  const basics = { ...build.basics, [name]: Math.max(0, (build.basics[name] ?? 0) + step) };
  return { ...build, basics };
}

/** The whole deck as counts: the pool's cards chosen and the basic lands. */
export function deckCounts(build) {
  const out = { ...build.main };
  for (const [name, n] of Object.entries(build.basics)) if (n > 0) out[name] = (out[name] ?? 0) + n;
  return out;
}

/** The deck as the `deck` request sends it: one `N Name` line a card, sorted as shown. */
export function deckText(build, cards) {
  const counts = deckCounts(build);
  return sortCards(Object.keys(counts), cards).map((n) => `${counts[n]} ${n}`).join("\n");
}

/** The mana curve of the deck's spells: how many cards of each mana value, 0 to 6 and the
 * last bucket for 6 or more (lands are not spells and are left out). */
export function manaCurve(counts, cards) {
  const curve = [0, 0, 0, 0, 0, 0, 0];
  for (const [name, n] of Object.entries(counts)) {
    const card = cards?.[name];
    if (/\bLand\b/.test(card?.types ?? "") || (!card && BASICS.includes(name))) continue;
    curve[Math.min(6, manaValue(card))] += n;
  }
  return curve;
}

/** How many of the deck's cards are of each colour (a card of two colours counts for both),
 * and how many basic lands make each colour's mana. */
export function colourCount(counts, cards) {
  const out = Object.fromEntries(["W", "U", "B", "R", "G"].map((c) => [c, { cards: 0, lands: 0 }]));
  for (const [name, n] of Object.entries(counts)) {
    const basic = BASICS.indexOf(name);
    if (basic >= 0) {
      out["WUBRG"[basic]].lands += n;
      continue;
    }
    for (const c of cards?.[name]?.colors ?? "") if (out[c]) out[c].cards += n;
  }
  return out;
}

/** Whether a card passes the builder's colour filter: "" shows all; a colour shows the
 * cards of that colour (multicoloured ones too); "C" the colourless cards and lands. */
export function passesFilter(card, filter) {
  if (!filter) return true;
  const colors = card?.colors ?? "";
  if (filter === "C") return colors === "";
  return colors.includes(filter);
}

// ------------------------------------------------------------------ timers and standings

/** Seconds left of a timer the server said was `seconds` when it arrived at `at`
 * (milliseconds, the page's clock), `now` being the page's clock now. */
export function secondsLeft(seconds, at, now) {
  return Math.max(0, seconds - (now - at) / 1000);
}

/** "1:05" for 65 seconds (rounded up, so a timer reads 0:00 only when it has run out). */
export function timerText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A tie-breaker (0.3333) as a percentage ("33.33%"). */
export function percent(x) {
  return `${(Number(x ?? 0) * 100).toFixed(2)}%`;
}

/** A match's result from a pairing: "2–1" (with drawn games "2–1–1"), or null. */
export function resultText(result) {
  if (!result) return null;
  const [a, b, d] = result;
  return d ? `${a}–${b}–${d}` : `${a}–${b}`;
}

// ------------------------------------------------------------------ hosting

/** The `create_event` config from the host form's fields (strings, as a form gives them),
 * with the protocol's defaults where a field is empty and values kept within its bounds. */
export function eventConfig(fields) {
  const num = (key, fallback, low, high) => {
    const n = Number(fields[key]);
    return Number.isFinite(n) && fields[key] !== "" && fields[key] !== undefined
      ? Math.max(low, Math.min(high, Math.round(n))) : fallback;
  };
  const config = {
    kind: fields.kind === "sealed" ? "sealed" : "draft",
    seats: num("seats", 8, 2, 64),
    best_of: fields.best_of === "1" ? 1 : 3,
    pick_time: num("pick_time", 75, 5, 600),
    build_time: num("build_minutes", 15, 1, 120) * 60,
    bots: fields.bots !== "off",
  };
  config.build_time = Math.max(30, Math.min(7200, config.build_time));
  const name = String(fields.name ?? "").trim().slice(0, 40);
  if (name) config.name = name;
  if (fields.rounds && fields.rounds !== "auto") config.rounds = num("rounds", 3, 1, 10);
  return config;
}
