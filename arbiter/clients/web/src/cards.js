// How one object of the view reads on the table: name, cost, type, text, power/toughness,
// counters, damage, tapped, attachments, combat, controller and owner. Card data comes from the
// server's catalog (docs/protocol.md); without it a card shows what the view says.

import { describeRef, esc, nameOf } from "./text.js";

/** "{2}{W}{W}" as mana symbols. */
export function manaHtml(cost) {
  if (!cost) return "";
  return cost.replace(/\{([^}]+)\}/g, (_, sym) => {
    const s = sym.toUpperCase();
    const cls = /^[WUBRGC]$/.test(s) ? s : /^\d+$|^X$/.test(s) ? "N" : "H";
    return `<span class="m m-${cls}" title="{${esc(s)}}">${esc(s)}</span>`;
  });
}

/** A mana pool such as "GGR", as symbols. */
export function poolHtml(pool) {
  return [...String(pool ?? "")].map((c) => `<span class="m m-${/[WUBRGC]/.test(c) ? c : "N"}">${esc(c)}</span>`).join("");
}

function colorClass(card) {
  if (!card) return "col-N";
  const colors = card.colors ?? "";
  if (colors.length > 1) return "col-M";
  if (colors.length === 1) return `col-${colors}`;
  return /Land/.test(card.types ?? "") ? "col-L" : "col-C";
}

/** The flags an object carries, in words. */
export function flags(o, view, names) {
  const out = [];
  if (o.t) out.push("tapped");
  if (o.d) out.push(`${o.d} damage`);
  for (const [kind, n] of Object.entries(o.k ?? {})) out.push(`${n} ${kind}`);
  if (o.kw?.length) out.push(...o.kw);
  if (o.tk) out.push("token");
  if (o.cp) out.push(`${o.cp}, as a copy`); // CR 707.2: its name is what it copies
  if (o.cy) out.push("copy of a spell"); // CR 707.10
  if (o.xv) out.push(`X=${o.xv}`); // CR 107.3a
  if (o.cm) out.push("commander");
  if (o.x) out.push("phased out");
  if (o.ch) out.push(`chosen: ${o.ch}`); // a basic land type chosen as it entered (CR 305.6)
  if (o.nm) out.push(`named ${o.nm}`); // a card name chosen as it entered (CR 614.12b)
  if (o.at) out.push(`attacking ${describeRef(o.at, view, names)}`);
  if (o.bl !== undefined && o.bl !== null) {
    // One creature may block several attackers (CR 509.1a): `bx` lists the others.
    const blocked = [o.bl, ...(o.bx ?? [])].map((b) => describeRef(["o", b], view, names));
    out.push(`blocking ${blocked.join(" and ")}`);
  }
  if (o.a !== undefined && o.a !== null) out.push(`attached to ${describeRef(["o", o.a], view, names)}`);
  if (o.tg?.length) out.push(`targets ${targetsText(o, view, names)}`);
  if (o.z === "l") out.push("top of library, revealed");
  return out;
}

/** A spell's targets; with damage divided among them (CR 601.2d) each with its share. */
export function targetsText(o, view, names) {
  return o.tg.map((t, i) => {
    const share = Array.isArray(o.dv) && o.dv[i] !== undefined ? ` (${o.dv[i]} damage)` : "";
    return `${describeRef(t, view, names)}${share}`;
  }).join(", ");
}

/** One card as HTML. `acts` are the legal actions this card is the place to click for;
 * `planned` names the attacker it was chosen to block, not declared yet (blocks.js). */
export function cardHtml(id, o, { catalog, view, names, acts = [], size = "", planned = undefined }) {
  const card = catalog?.cards?.[o.n];
  const pt = o.pt ?? card?.pt;
  const controller = o.c ?? o.o;
  const classes = ["card", colorClass(card), size];
  if (!card && !o.ab) classes.push("bare");
  if (o.t) classes.push("tapped");
  if (o.at) classes.push("attacking");
  if (o.bl !== undefined && o.bl !== null) classes.push("blocking");
  if (acts.length) classes.push("actionable");
  if (planned !== undefined) classes.push("planned-block");
  if (o.x) classes.push("phased");
  if (o.tk) classes.push("token");
  const willBlock = planned !== undefined ? [`will block ${[planned].flat().join(" and ")}`] : [];
  const tags = [...willBlock, ...flags(o, view, names).filter((f) => f !== "tapped" || size !== "")];
  const owner = controller !== o.o ? `<div class="c-owner">owned by ${esc(nameOf(names, o.o))}</div>` : "";
  const text = o.ab ?? card?.text ?? "";
  // A planeswalker's loyalty is its loyalty counters (CR 306.5c), shown where P/T would be.
  const loyal = o.k?.loyalty ?? card?.loyalty;
  const loyalty = loyal !== undefined && loyal !== null && !pt
    ? `<span class="c-loyalty" title="loyalty">◆ ${esc(loyal)}</span>` : "";
  const label = [o.n, card?.types, pt ? `${pt[0]}/${pt[1]}` : "", ...willBlock, ...flags(o, view, names),
    acts.length ? `${acts.length} action${acts.length > 1 ? "s" : ""}: ${acts.map((a) => a.label).join("; ")}` : ""]
    .filter(Boolean).join(", ");
  // A card one can act on is a button in the tab order; any other is a named group a screen
  // reader reads, reached with the arrow keys from the seat it is in (focus.js).
  const focus = acts.length ? ' tabindex="0" role="button"' : ' tabindex="-1" role="group"';
  return `<div class="${classes.join(" ")}" data-obj="${esc(id)}" data-key="o${esc(id)}"${focus}
 aria-label="${esc(label)}" title="${esc(label)}">
<div class="c-head"><span class="c-name">${esc(o.n)}</span><span class="c-cost">${manaHtml(card?.cost)}</span></div>
<div class="c-type">${esc(card?.types ?? (o.ab ? "Ability" : ""))}</div>
<div class="c-text">${esc(text)}</div>${owner}
<div class="c-foot"><span class="c-tags">${esc(tags.join(" · "))}</span>${pt ? `<span class="c-pt">${esc(pt[0])}/${esc(pt[1])}</span>` : loyalty}</div></div>`;
}

/** The full detail of a card, for the side panel. */
export function detailHtml(id, o, { catalog, view, names }) {
  const card = catalog?.cards?.[o.n];
  const pt = o.pt ?? card?.pt;
  const rows = [];
  rows.push(`<div class="d-head"><span class="d-name">${esc(o.n)}</span> <span class="c-cost">${manaHtml(card?.cost)}</span></div>`);
  if (card?.types) rows.push(`<div class="d-type">${esc(card.types)}</div>`);
  const text = o.ab ?? card?.text;
  if (text) rows.push(`<div class="d-text">${esc(text).replace(/\n/g, "<br>")}</div>`);
  if (pt) rows.push(`<div class="d-pt">${esc(pt[0])}/${esc(pt[1])}${card?.pt && o.pt && (card.pt[0] !== o.pt[0] || card.pt[1] !== o.pt[1]) ? ` (printed ${esc(card.pt[0])}/${esc(card.pt[1])})` : ""}</div>`);
  const where = [`in ${({ h: "a hand", b: "play", g: "a graveyard", e: "exile", s: "the stack", c: "the command zone",
    l: "a library (its top card, revealed)" })[o.z] ?? o.z}`];
  where.push(`owner ${nameOf(names, o.o)}`);
  if (o.c !== undefined && o.c !== o.o) where.push(`controller ${nameOf(names, o.c)}`);
  rows.push(`<div class="d-where">${esc(where.join(" · "))}</div>`);
  const f = flags(o, view, names);
  if (f.length) rows.push(`<div class="d-flags">${esc(f.join(" · "))}</div>`);
  const attached = Object.entries(view).filter(([, v]) => v && v.a !== undefined && String(v.a) === String(id));
  if (attached.length) rows.push(`<div class="d-flags">with ${esc(attached.map(([, v]) => v.n).join(", "))}</div>`);
  return rows.join("");
}
