// The page's screens as HTML strings: the name prompt, the lobby, the waiting room and the
// table's regions. Pure functions of what app.js hands them; app.js writes each region to the
// page only when its HTML changed.

import { cardHtml, detailHtml, poolHtml } from "./cards.js";
import { STOP_STEPS } from "./stops.js";
import { keyOf } from "./protocol/codec.js";
import { activePlayers, clockText, decider, describeRef, esc, nameOf, plural, REASONS,
  resultText, seatName, seatsOf, STEPS } from "./text.js";

const VARIANT_NAMES = { two_player: "Two players", free_for_all: "Free-for-all",
  team_vs_team: "Team vs. team", emperor: "Emperor", commander: "Commander",
  two_headed_giant: "Two-Headed Giant", archenemy: "Archenemy", grand_melee: "Grand Melee" };
const STATUS = { in: "", won: "won", lost: "lost", drew: "drew" };

// ------------------------------------------------------------------ legal actions

/** Where each action is clicked: "o<id>" (a card) or "p<seat>" (a player); actions with
 * neither are buttons only. Targets, player choices and what an Aura may enchant go on what
 * they name; attackers,
 * blockers, spells and abilities on the card that acts. */
export function actionsByPlace(decision) {
  const out = new Map();
  for (const a of decision.actions) {
    let key = null;
    // An Aura entering without being cast (CR 303.4f) is put on the permanent it may enchant.
    const onRef = a.kind === "target" || a.kind === "choose_player" || a.kind === "enchant"
      || a.obj === undefined;
    if (onRef && Array.isArray(a.ref)) key = a.ref[0] === "p" ? `p${a.ref[1]}` : `o${a.ref[1]}`;
    else if (a.obj !== undefined && a.obj !== null) key = `o${a.obj}`;
    if (key === null) continue;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(a);
  }
  return out;
}

const PRIMARY = ["pass", "done", "keep", "choose_none", "auto"];

/** The action the one key (Space) takes: pass priority, end a declaration, keep a hand, pay
 * the rest of a cost automatically. */
export function primaryAction(decision) {
  for (const kind of PRIMARY) {
    const a = decision.actions.find((x) => x.kind === kind);
    if (a) return a;
  }
  return decision.actions.length === 1 ? decision.actions[0] : null;
}

/** All one can do is pass (or tap mana with nothing to spend it on). */
export function onlyPassing(decision) {
  return decision.kind === "priority" && decision.actions.some((a) => a.kind === "pass")
    && decision.actions.every((a) => a.kind === "pass" || a.kind === "mana");
}

// ------------------------------------------------------------------ shared pieces

export function connectionHtml(status, conn) {
  const who = conn.name ? `<span class="me-name">${esc(conn.name)}</span>` : "";
  const state = { open: "connected", connecting: "connecting…", closed: "reconnecting…" }[status.state] ?? status.state;
  const cls = status.state === "open" ? "ok" : "warn";
  return `${who}<span class="conn ${cls}" title="${esc(status.reason ?? "")}">${esc(state)}</span>`;
}

export function nameScreen(name) {
  return `<div id="toast" role="status" hidden></div>
<main class="name-screen"><h1>Arbiter</h1>
<p>Play Magic-style card games against people and bots.</p>
<form id="name-form"><label for="name-input">Your name</label>
<input id="name-input" name="name" maxlength="40" autocomplete="nickname" required value="${esc(name ?? "")}">
<button type="submit">Enter</button></form></main>`;
}

// ------------------------------------------------------------------ the lobby

export function lobbyFrame() {
  return `<div id="toast" role="status" hidden></div>
<header class="bar"><h1>Arbiter</h1><span class="grow"></span><span id="conn"></span>
<button data-do="forget" class="link" title="Forget this browser's session">change name</button></header>
<main class="lobby"><section class="rooms-panel"><h2>Rooms <button data-do="refresh" class="small">Refresh</button></h2>
<div id="lobby-rooms"></div></section>
<section class="create-panel"><h2>New room</h2><div id="create"></div></section>
<section class="history-panel"><h2>Recent matches</h2><div id="lobby-history"></div></section>
<section class="events-panel"><h2>Limited events</h2><div id="lobby-events"></div><h3>Host an event</h3><div id="ev-host"></div></section>
<section class="people-panel" id="people-panel" aria-labelledby="people-h"></section></main>`;
}

function seatList(summary) {
  return summary.seats.map((s, i) => {
    if (!s.n) return `<span class="seat-chip free">${esc(seatName(i))} free</span>`;
    const flagsText = [s.b ? "bot" : "", s.c || s.b ? "" : "away", s.d ? "" : "no deck"].filter(Boolean);
    return `<span class="seat-chip${s.c || s.b ? "" : " away"}">${esc(s.n)}${flagsText.length ? ` <small>(${esc(flagsText.join(", "))})</small>` : ""}</span>`;
  }).join(" ");
}

export function roomsHtml(rooms, seats) {
  if (!rooms.length) return `<p class="empty">No rooms yet: create one.</p>`;
  const rows = rooms.map((r) => {
    const free = r.seats.findIndex((s) => !s.n);
    const mine = seats.has(r.r);
    const buttons = [];
    if (mine) buttons.push(`<button data-do="watch" data-room="${esc(r.r)}" class="primary">Back to my seat</button>`);
    else if (r.state === "waiting" && free >= 0) buttons.push(`<button data-do="join" data-room="${esc(r.r)}" data-seat="${free}">Take ${esc(seatName(free).toLowerCase())}</button>`);
    if (!mine && r.spectators !== "none") buttons.push(`<button data-do="watch" data-room="${esc(r.r)}">Watch</button>`);
    const game = r.game ? `game ${r.game}${r.best_of > 1 ? ` of best-of-${r.best_of} (${r.wins.join("–")})` : ""}` : (r.best_of > 1 ? `best of ${r.best_of}` : "");
    return `<tr data-room-row="${esc(r.r)}"><td class="num">${esc(r.r)}</td><td><strong>${esc(r.name)}</strong><br><small>${esc(VARIANT_NAMES[r.variant] ?? r.variant)}${r.clock ? ` · clock ${Math.round(r.clock.total / 60)}+${r.clock.inc}` : ""}${game ? ` · ${esc(game)}` : ""}</small></td>
<td><span class="state st-${esc(r.state)}">${esc(r.state)}</span></td><td>${seatList(r)}</td><td class="num">${esc(r.watching)}</td><td class="btns">${buttons.join(" ")}</td></tr>`;
  }).join("");
  return `<table class="rooms"><thead><tr><th>#</th><th>Room</th><th>State</th><th>Seats</th><th>Watching</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function options(list, selected) {
  return list.map(([value, label]) => `<option value="${esc(value)}"${String(value) === String(selected) ? " selected" : ""}>${esc(label)}</option>`).join("");
}

export function deckErrorsHtml(errors) {
  if (!errors.length) return "";
  return `<ul class="deck-errors" role="alert">${errors.map((e) => `<li>${e.line ? `<b>line ${e.line}</b>: ` : ""}${esc(e.why)}${e.text ? ` <code>${esc(e.text.trim())}</code>` : ""}</li>`).join("")}</ul>`;
}

function deckFields(catalog, state, variant, errors) {
  const commander = variant === "commander";
  const decks = (catalog?.decks ?? []).filter((d) => (d.format === "commander") === commander);
  const source = state.decksource ?? "ready";
  const fallback = commander ? "isamaru-commander" : "quick-red";
  const chosen = decks.some((d) => d.name === state.deck) ? state.deck : fallback;
  return `<fieldset class="deck"><legend>Your deck</legend>
<label><input type="radio" name="decksource" value="ready"${source === "ready" ? " checked" : ""}> Ready-made
<select name="deck" aria-label="Ready-made deck">${options(decks.map((d) => [d.name, d.commander ? `${d.name} (${d.commander})` : d.name]), chosen)}</select></label>
<label><input type="radio" name="decksource" value="text"${source === "text" ? " checked" : ""}> A deck list</label>
${source === "text" ? `<textarea name="decktext" data-key="decktext" rows="7" spellcheck="false" placeholder="4 Lightning Bolt&#10;16 Mountain&#10;Sideboard&#10;2 Hill Giant">${esc(state.decktext ?? "")}</textarea>
<label class="upload">or from a file <input type="file" name="deckfile" accept=".txt,.dec,.dek,text/plain"></label>` : ""}
<div id="deck-errors">${deckErrorsHtml(errors)}</div></fieldset>`;
}

export function createHtml(catalog, state, busy, errors) {
  if (!catalog) return `<p class="empty">Loading what this server offers…</p>`;
  const variants = catalog.variants;
  const variant = variants.some((v) => v.name === state.variant) ? state.variant : variants[0]?.name;
  const info = variants.find((v) => v.name === variant) ?? { seats: [2, 2] };
  const [lo, hi] = info.seats;
  const seats = Math.max(lo, Math.min(hi, Number(state.seats) || lo));
  const seatChoices = [];
  for (let n = lo; n <= hi; n++) {
    if (variant === "emperor" && n % 3) continue;
    if (variant === "team_vs_team" && n % 2) continue;
    seatChoices.push([n, `${n} players`]);
  }
  const offered = (option) => (info.options ? info.options.includes(option) : seats > 2);
  const multi = seats > 2 && offered("attack");
  return `<form id="create-form" autocomplete="off">
<label>Name <input name="name" data-key="room-name" maxlength="40" value="${esc(state.name ?? "")}" placeholder="My table"></label>
<div class="row"><label>Variant <select name="variant">${options(variants.map((v) => [v.name, VARIANT_NAMES[v.name] ?? v.name]), variant)}</select></label>
<label>Seats <select name="seats">${options(seatChoices, seats)}</select></label></div>
<div class="row"><label>Match <select name="best_of">${options([[1, "one game"], [3, "best of 3"], [5, "best of 5"], [7, "best of 7"]], state.best_of ?? 1)}</select></label>
<label>Clock <select name="clock">${options([[0, "none"], [5, "5 min"], [10, "10 min"], [20, "20 min"], [30, "30 min"], [50, "50 min"]], state.clock ?? 0)}</select>
+ <select name="inc" aria-label="increment per move">${options([[0, "0 s"], [2, "2 s"], [5, "5 s"], [10, "10 s"]], state.inc ?? 0)}</select></label></div>
<div class="row"><label>Spectators <select name="spectators">${options([["public", "public information"], ["all", "see all hands"], ["none", "none"]], state.spectators ?? "public")}</select></label>
${offered("range_of_influence") ? `<label>Range of influence <select name="range">${options([[0, "unlimited"], [1, "1 (CR 801)"], [2, "2 (CR 801)"]], state.range ?? 0)}</select></label>` : ""}</div>
${offered("format") ? `<div class="row"><label>Decks <select name="format">${options([["", "usual for the variant"], ["constructed", "constructed (CR 100.2a)"], ["limited", "limited (CR 100.2b)"], ["commander", "commander (CR 903.5)"], ["casual", "casual"]], state.format ?? "")}</select></label>
${offered("planechase") ? `<label><input type="checkbox" name="planechase"${state.planechase === "on" ? " checked" : ""}> Planechase</label>` : ""}
${offered("vanguard") ? `<label><input type="checkbox" name="vanguard"${state.vanguard === "on" ? " checked" : ""}> Vanguard</label>` : ""}</div>` : ""}
${multi ? `<div class="row"><label>Attack <select name="attack">${options([["multiple", "multiple players"], ["left", "left only (CR 803)"], ["right", "right only (CR 803)"]], state.attack ?? "multiple")}</select></label></div>` : ""}
${deckFields(catalog, state, variant, errors)}
<div class="row"><label><input type="checkbox" name="bots"${state.bots === "on" || state.bots === undefined ? " checked" : ""}> Fill the other seats with bots</label>
<label>playing <select name="strategy" aria-label="bot strategy">${options([["heuristic", "well"], ["random", "at random"]], state.strategy ?? "heuristic")}</select></label></div>
<button type="submit" class="primary"${busy ? " disabled" : ""}>Create and sit down</button></form>`;
}

// ------------------------------------------------------------------ the waiting room

export function waitingFrame() {
  return `<div id="toast" role="status" hidden></div>
<header class="bar"><h1>Arbiter</h1><button data-do="lobby" class="small">← Lobby</button><span class="grow"></span><span id="conn"></span></header>
<main class="waiting" id="waiting-body"></main>`;
}

export function waitingHtml({ match, summary, me, catalog, formState, deckErrors, link, watching }) {
  if (!summary) return `<p class="empty">Opening room ${esc(match)}…</p>`;
  const seats = summary.seats.map((s, i) => {
    const state = !s.n ? "free" : s.d ? "ready" : "choosing a deck";
    const you = i === me ? " (you)" : "";
    const bot = !s.n && me !== null
      ? `<button data-do="bot" data-seat="${i}" data-key="bot${i}">Add a bot</button>` : "";
    const take = !s.n && me === null ? `<button data-do="join" data-room="${esc(match)}" data-seat="${i}">Sit here</button>` : "";
    return `<li class="wseat ${s.n ? "taken" : "free"}"><span class="wname">${esc(s.n ?? seatName(i))}${you}${s.b ? " <small>(bot)</small>" : ""}</span>
<span class="wstate">${esc(state)}${s.n && !s.c && !s.b ? ", away" : ""}</span>${bot}${take}</li>`;
  }).join("");
  const mine = me !== null ? summary.seats[me] : null;
  const variant = summary.variant;
  const deck = mine && !mine.d ? `<form id="deck-form">${deckFields(catalog, formState, variant, deckErrors)}<button type="submit" class="primary">Use this deck</button></form>` : "";
  return `<section class="wait-panel"><h2>${esc(summary.name)} <small>room ${esc(match)} · ${esc(VARIANT_NAMES[variant] ?? variant)}${summary.best_of > 1 ? ` · best of ${summary.best_of}` : ""}</small></h2>
<p>${watching ? "You are watching. " : ""}The game starts when every seat is taken and has a deck.</p>
<p class="share-links">Copy a link: <button data-do="share" data-as="room" class="small"${summary.seats.some((s) => !s.n) ? "" : " disabled"}>to take a seat</button>
<button data-do="share" data-as="watch" class="small">to watch</button></p>
<ul class="wseats">${seats}</ul>
${me !== null ? `<label>Bots play <select id="bot-strategy">${options([["heuristic", "well"], ["random", "at random"]], "heuristic")}</select></label>` : ""}
${deck}
<p class="share">Link to this room (opens it for watching): <a href="${esc(link)}">${esc(link)}</a></p>
<button data-do="leave">Leave the room</button></section>`;
}

// ------------------------------------------------------------------ the table

export function tableFrame() {
  return `<div id="toast" role="status" hidden></div>
<div class="table-screen">
<header class="bar top"><div id="topbar"></div><span class="grow"></span><span id="conn"></span></header>
<div id="banner"></div>
<main class="board"><div id="seats"></div><div id="stack"></div><div id="hand"></div></main>
<aside class="side"><div id="actions" aria-live="polite"></div><div id="detail"></div>
<div id="log" role="log" aria-label="game log and chat"></div>
<form id="chat-form" autocomplete="off"><input id="chat-text" maxlength="500" placeholder="Chat (press / to type, Enter to send)" aria-label="chat message"></form></aside>
<div id="popup"></div></div>`;
}

export function topbarHtml(ctx, clocks, { autoPass, payByHand = false, concedeArmed, watching, motion = true }) {
  const { view, names, summary, match, room, me } = ctx;
  const g = view.g ?? {};
  const t = view.t;
  const parts = [`<strong>${esc(summary?.name ?? `Room ${match}`)}</strong>`];
  const bestOf = summary?.best_of ?? 1;
  parts.push(`game ${esc(g.n ?? summary?.game ?? "?")}${bestOf > 1 ? ` · match ${esc((summary?.wins ?? []).join("–"))} (best of ${bestOf})` : ""}`);
  if (g.depth) parts.push(`<span class="depth">subgame depth ${esc(g.depth)}</span>`);
  if (t) {
    parts.push(`turn ${esc(t[0])}`);
    parts.push(`<span class="step">${esc(nameOf(names, t[1]))}'s ${esc(STEPS[t[2]] ?? t[2])}</span>`);
    // CR 500.7: extra turns still to come, the next one first.
    if (t[4]?.length) parts.push(`<span class="extra-turns">extra turns: ${t[4].map((p) => esc(nameOf(names, p))).join(", ")}</span>`);
  }
  const w = view.w;
  if (Array.isArray(w) && w[0] === "subgame") parts.push("waiting for the subgame");
  else if (Array.isArray(w)) parts.push(`<span class="prio">${esc(nameOf(names, w[0]))} ${w[1] === "priority" ? "has priority" : `decides (${esc(w[1])})`}${w.length === 3 ? ` for stack ${esc(w[2])}` : ""}</span>`);
  if (clocks) {
    parts.push(`<span class="clocks">${clocks.k.map((c, i) => `<span class="clock${i === clocks.p ? " running" : ""}">${esc(nameOf(names, i))} ${esc(c)}</span>`).join(" ")}</span>`);
  }
  const buttons = [];
  const finished = summary?.state === "finished";
  if (!watching && !finished) {
    buttons.push(`<button data-do="autopass" class="small${autoPass ? " on" : ""}" aria-pressed="${autoPass}" title="A: pass for me when passing is all I can do, or at steps I do not stop at">Auto-pass ${autoPass ? "on" : "off"}</button>`);
    buttons.push(`<button data-do="stops" class="small" title="the steps where auto-pass stops for you">Stops</button>`);
    buttons.push(`<button data-do="paybyhand" class="small${payByHand ? " on" : ""}" aria-pressed="${payByHand}" title="choose which lands and creatures pay for each spell and ability (click them on the board), or let the game choose">Pay mana: ${payByHand ? "by hand" : "auto"}</button>`);
    const offer = view.d;
    if (!view.x && me !== null) {
      if (!offer) buttons.push(`<button data-do="draw" data-op="propose" class="small">Offer a draw</button>`);
      else if (offer[0] === me) buttons.push(`<button data-do="draw" data-op="withdraw" class="small">Withdraw draw offer</button>`);
    }
    if (view.p0 !== undefined && view[`p${me}`]?.s === "in") {
      buttons.push(`<button data-do="concede" class="small danger" data-key="concede">${concedeArmed ? "Really concede? (click again)" : "Concede"}</button>`);
    }
  }
  // Animations (motion.js) for anyone at the table, a spectator too.
  buttons.push(`<button data-do="motion" class="small${motion ? " on" : ""}" aria-pressed="${motion}" title="short animations of cards arriving and life totals changing">Animations ${motion ? "on" : "off"}</button>`);
  buttons.push(`<button data-do="leave" class="small">Lobby</button>`);
  // A link that opens this room for watching (share.js), for anyone at the table.
  buttons.push(`<button data-do="share" data-as="watch" class="small link" title="copy a link that opens this room for watching">Copy watch link</button>`);
  return `<span class="where">${parts.join(" · ")}</span> <span class="room-id">room ${esc(room)}</span> ${buttons.join(" ")}`;
}

export function bannerHtml(ctx, note, rooms, results) {
  const { view, names, me, match } = ctx;
  const out = [];
  if (rooms.length > 1) {
    const crumbs = rooms.map((rid, i) => i === 0 ? `main game (paused)` : i === rooms.length - 1
      ? `<b>subgame ${esc(rid)}</b>` : `subgame ${esc(rid)} (paused)`).join(" › ");
    out.push(`<div class="banner sub" role="status">MAIN GAME PAUSED — a subgame is being played (Shahrazad, CR 726), depth ${rooms.length - 1}: ${crumbs}</div>`);
  }
  const offer = view.d;
  if (offer) {
    const accepted = offer[1].map((p) => nameOf(names, p)).join(", ");
    const mine = me !== null && offer[0] !== me && !offer[1].includes(me);
    out.push(`<div class="banner draw" role="status">${esc(nameOf(names, offer[0]))} offers a draw (CR 104.4i)${accepted ? `; accepted by ${esc(accepted)}` : ""}.
${mine ? `<button data-do="draw" data-op="accept" class="small">Accept</button> <button data-do="draw" data-op="decline" class="small">Decline</button>` : ""}</div>`);
  }
  if (note && !note.over) out.push(`<div class="banner ${esc(note.cls)}" role="status">${esc(note.text)}</div>`);
  const last = results?.filter((r) => r.room === match).at(-1);
  if (view.x && last) {
    const res = view.x;
    const m = last.m ?? {};
    const lines = (res.outcomes ?? []).map((o) => `<li class="out-${esc(o.outcome)}"><b>${esc(nameOf(names, o.player))}</b> ${esc(o.outcome)}${o.outcome === "won" ? "" : ` — ${esc(REASONS[o.reason] ?? o.reason)} (CR ${esc(o.rule)})`}${o.turn ? `, turn ${esc(o.turn)}` : ""}</li>`).join("");
    const score = m.best_of > 1 ? `<p>Match, best of ${esc(m.best_of)}: ${(m.wins ?? []).map((w, i) => `${esc(nameOf(names, i))} ${esc(w)}`).join(" · ")}${m.over ? " — the match is over." : " — the next game starts now."}</p>` : "";
    const mine = me === null ? "" : (res.winners ?? []).includes(me) ? "You won!" : res.draw ? "A draw." : "You lost.";
    out.push(`<div class="game-over" role="dialog" aria-label="game over"><h2>Game over${mine ? ` — ${esc(mine)}` : ""}</h2>
<p class="headline">${esc(resultText(res, names))}</p><ul>${lines}</ul>${score}
<button data-do="leave" class="primary">Back to the lobby</button></div>`);
  }
  return out.join("");
}

export function seatOrder(view, me) {
  const seats = seatsOf(view);
  if (me === null || !seats.includes(me)) return seats;
  const i = seats.indexOf(me);
  // Opponents in turn order after me, then me at the bottom.
  return [...seats.slice(i + 1), ...seats.slice(0, i), me];
}

function objectsIn(view, zone, pred = () => true) {
  const out = [];
  for (const key of Object.keys(view)) {
    const o = view[key];
    if (key.length && key.charCodeAt(0) !== 0 && /^\d+$/.test(key) && o.z === zone && pred(o)) out.push([key, o]);
  }
  return out.sort((a, b) => a[1].i - b[1].i);
}

function isLand(o, catalog) {
  const types = catalog?.cards?.[o.n]?.types;
  if (types) return /\bLand\b/.test(types);
  return /^(Plains|Island|Swamp|Mountain|Forest|Wastes)$/.test(o.n);
}

function battlefieldHtml(ctx, pid) {
  const { view, catalog, names, places } = ctx;
  const mine = objectsIn(view, "b", (o) => (o.c ?? o.o) === pid);
  const attached = new Map();
  const hosts = [];
  for (const entry of mine) {
    const host = entry[1].a;
    if (host !== undefined && host !== null && view[String(host)]) {
      if (!attached.has(String(host))) attached.set(String(host), []);
      attached.get(String(host)).push(entry);
    } else {
      hosts.push(entry);
    }
  }
  // Cards attached to a permanent someone else controls are shown with their own controller.
  for (const [host, list] of attached) {
    if ((view[host].c ?? view[host].o) !== pid) hosts.push(...list);
  }
  const card = ([id, o]) => cardHtml(id, o, { catalog, view, names, acts: places.get(`o${id}`) ?? [], size: "small",
    planned: ctx.planned?.get(id) });
  const group = (entry) => {
    const under = attached.get(entry[0]);
    if (!under || (view[entry[0]].c ?? view[entry[0]].o) !== pid) return card(entry);
    return `<div class="attach-group">${card(entry)}${under.map(card).join("")}</div>`;
  };
  const lands = hosts.filter(([, o]) => isLand(o, catalog));
  const others = hosts.filter(([, o]) => !isLand(o, catalog));
  if (!hosts.length) return '<div class="bf-row creatures"><span class="empty">no permanents</span></div>';
  return `<div class="bf-row creatures">${others.map(group).join("")}</div>
<div class="bf-row lands">${lands.map(group).join("")}</div>`;
}

function pileHtml(ctx, pid, zone, label) {
  const { view, places } = ctx;
  const cards = objectsIn(view, zone, (o) => o.o === pid);
  if (!cards.length && zone === "c") return "";
  const chips = cards.slice(-8).map(([id, o]) => {
    const acts = places.get(`o${id}`) ?? [];
    return `<span class="chip${acts.length ? " actionable" : ""}" data-obj="${esc(id)}" data-key="o${esc(id)}" tabindex="${acts.length ? 0 : -1}" role="${acts.length ? "button" : "group"}" aria-label="${esc(o.n)}${acts.length ? `: ${esc(acts.map((a) => a.label).join("; "))}` : ""}" title="${esc(o.n)}">${esc(o.n)}</span>`;
  }).join("");
  return `<div class="pile"><span class="pile-label">${esc(label)} ${cards.length}</span>${cards.length > 8 ? `<span class="more">…</span>` : ""}${chips}</div>`;
}

function playerHead(ctx, pid) {
  const { view, names, me, places, summary } = ctx;
  const p = view[`p${pid}`] ?? {};
  const acts = places.get(`p${pid}`) ?? [];
  const seat = summary?.seats?.[pid];
  const status = STATUS[p.s] ?? p.s;
  // A player out of a game that goes on has left it (CR 800.4a); at the end, all are out.
  const gone = (p.s === "lost" || p.s === "drew") && !view.x;
  const away = seat && seat.n && !seat.c && !seat.b;
  const marks = [];
  if (activePlayers(view).has(pid)) marks.push(`<span class="mark active-mark" title="active player">turn</span>`);
  if (decider(view) === pid) marks.push(`<span class="mark prio-mark" title="must decide">${view.w[1] === "priority" ? "priority" : esc(view.w[1])}</span>`);
  if (status) marks.push(`<span class="mark st-${esc(p.s)}">${esc(status)}${gone ? " · left the game" : ""}</span>`);
  if (away) marks.push(`<span class="mark away">disconnected</span>`);
  if (seat?.b) marks.push(`<span class="mark bot">bot</span>`);
  const extra = [];
  for (const [cmd, dmg] of Object.entries(p.cd ?? {})) extra.push(`${dmg} from ${esc(keyOf(cmd))}`);
  if (p.ct) extra.push(`commander cast ${esc(p.ct)}×`);
  const range = view.r?.[`\u0000${pid}`] ?? view.r?.[String(pid)];
  if (range) extra.push(`range: ${range.map((q) => esc(nameOf(names, q))).join(", ")}`);
  const poison = p.v ? `, ${plural(p.v, "poison counter")}` : "";
  const label = `${nameOf(names, pid)}${pid === me ? " (you)" : ""}, life ${p.l}${poison}, ${plural(p.h, "card")} in hand, ${p.y} in library${acts.length ? `; ${acts.map((a) => a.label).join("; ")}` : ""}`;
  return `<div class="seat-head${acts.length ? " actionable" : ""}" data-player="${pid}" data-key="p${pid}" tabindex="0" role="${acts.length ? "button" : "group"}" aria-label="${esc(label)}">
<span class="s-name">${esc(nameOf(names, pid))}${pid === me ? " <small>(you)</small>" : ""}</span>
<span class="life" title="life">♥ ${esc(p.l)}</span>${p.v ? `<span class="poison" title="poison counters">☠ ${esc(p.v)}</span>` : ""}
<span class="count">hand <b>${esc(p.h)}</b></span><span class="count">library <b>${esc(p.y)}</b></span>
${p.m ? `<span class="pool" title="mana pool">${poolHtml(p.m)}</span>` : ""}${marks.join("")}
${extra.length ? `<span class="extra">${extra.join(" · ")}</span>` : ""}</div>`;
}

/** The seats' frame: one box per player, opponents above in turn order, you below. Each
 * box is a region of its own (seatHtml), so a change at one seat rewrites that seat only. */
export function seatsFrame(ctx) {
  const { view, me } = ctx;
  const order = seatOrder(view, me);
  const opponents = order.filter((p) => p !== me);
  const box = (pid) => `<section id="seat-${pid}" aria-label="${esc(nameOf(ctx.names, pid))}"></section>`;
  const mine = me !== null && order.includes(me) ? box(me) : "";
  return `<div class="opponents n${opponents.length}">${opponents.map(box).join("")}</div>${mine}`;
}

export function seatClass(ctx, pid) {
  const { view, me } = ctx;
  const p = view[`p${pid}`] ?? {};
  return ["seat", pid === me ? "me" : "opp", activePlayers(view).has(pid) ? "active" : "",
    p.s && p.s !== "in" ? "out" : "", decider(view) === pid ? "deciding" : ""].filter(Boolean).join(" ");
}

/** Another player's cards the rules show every viewer: their hand while an opponent has
 * Telepathy ("play with their hands revealed"), face up in their area; and the top card of
 * their library kept revealed (Vampire Nocturnus, zone `l`), on their library. A player's own
 * hand is in the hand region. */
function revealedHtml(ctx, pid) {
  const { view, catalog, names, me, places } = ctx;
  const card = ([id, o]) => cardHtml(id, o, { catalog, view, names, acts: places.get(`o${id}`) ?? [], size: "small" });
  const hand = pid === me ? [] : objectsIn(view, "h", (o) => o.o === pid);
  const top = objectsIn(view, "l", (o) => o.o === pid);
  const out = [];
  if (hand.length) out.push(`<div class="revealed-label">Hand, revealed (${hand.length})</div><div class="revealed-hand" data-revealed="hand">${hand.map(card).join("")}</div>`);
  if (top.length) out.push(`<div class="revealed-label">Top of library, revealed</div><div class="revealed-hand" data-revealed="library">${top.map(card).join("")}</div>`);
  return out.length ? `<div class="revealed">${out.join("")}</div>` : "";
}

export function seatHtml(ctx, pid) {
  return `${playerHead(ctx, pid)}${revealedHtml(ctx, pid)}
<div class="bf">${battlefieldHtml(ctx, pid)}</div>
<div class="piles">${pileHtml(ctx, pid, "g", "Graveyard")}${pileHtml(ctx, pid, "e", "Exile")}${pileHtml(ctx, pid, "c", "Command")}</div>`;
}

export function stackHtml(ctx) {
  const { view } = ctx;
  const stack = objectsIn(view, "s").reverse();
  if (Array.isArray(view.m)) return markersHtml(ctx, stack);
  if (!stack.length) return "";
  return `<div class="stack-label">Stack <small>(top first)</small></div>${stackItems(ctx, stack)}`;
}

function stackItems(ctx, stack) {
  const { view, catalog, names, places } = ctx;
  const items = stack.map(([id, o]) => {
    const who = nameOf(names, o.c ?? o.o);
    return `<div class="stack-item"><span class="stack-who">${esc(who)}</span>${cardHtml(id, o, { catalog, view, names, acts: places.get(`o${id}`) ?? [], size: "stackcard" })}</div>`;
  }).join("");
  return `<div class="stack-items">${items}</div>`;
}

/** Grand Melee (CR 807): each turn marker with its holder and the turn it is in (step, who
 * has priority for its stack, who may act on that stack, CR 807.5a) or that the holder waits
 * (807.4d); and each turn's own stack, the objects whose `sk` is its number (807.5). */
function markersHtml(ctx, stack) {
  const { view, names, me } = ctx;
  const rows = view.m.map((m) => {
    const who = esc(nameOf(names, m.p));
    const removal = m.rm ? ` <span class="mark removal">designated for removal${m.rm > 1 ? ` ${esc(m.rm)} times` : ""} (CR 807.4e)</span>` : "";
    if (m.s !== "turn") {
      return `<div class="marker waiting" data-marker="${esc(m.n)}"><b>Turn marker ${esc(m.n)}</b> · ${who} waits to begin a turn (CR 807.4d)${removal}</div>`;
    }
    const able = (m.pr ?? []).map((p) => nameOf(names, p)).join(", ") || "nobody";
    const mine = me !== null && (m.pr ?? []).includes(me) ? ` <span class="mark you-act">you may act</span>` : "";
    const holder = m.h === undefined || m.h === null ? "" : ` · priority ${esc(nameOf(names, m.h))}`;
    const items = stack.filter(([, o]) => o.sk === m.n);
    return `<div class="marker" data-marker="${esc(m.n)}"><div class="stack-label">Turn marker ${esc(m.n)} · ${who}'s turn ${esc(m.turn)}, ${esc(STEPS[m.st] ?? m.st)}${holder}${removal}</div>
<div class="marker-who">may act on its stack: ${esc(able)}${mine}</div>
${items.length ? `<div class="stack-label">Stack ${esc(m.n)} <small>(top first)</small></div>${stackItems(ctx, items)}` : `<div class="marker-who">Stack ${esc(m.n)} is empty</div>`}</div>`;
  }).join("");
  return `<div class="markers" aria-label="turn markers and their stacks (CR 807)">${rows}</div>`;
}

export function handHtml(ctx) {
  const { view, catalog, names, me, places } = ctx;
  if (me === null) return `<div class="hand-label">Watching: hands are hidden.</div>`;
  const cards = objectsIn(view, "h", (o) => o.o === me);
  return `<div class="hand-label">Your hand <small>(${cards.length})</small></div><div class="hand-cards">${cards.map(([id, o]) => cardHtml(id, o, { catalog, view, names, acts: places.get(`o${id}`) ?? [], size: "handcard" })).join("") || '<span class="empty">empty</span>'}</div>`;
}

export function actionsHtml(ctx, autoPass, hold = null) {
  const { pending, view, names, me, summary } = ctx;
  if (!pending) {
    const who = decider(view);
    let text;
    if (view.x) text = "The game is over.";
    else if (Array.isArray(view.w) && view.w[0] === "subgame") text = "This game waits for its subgame.";
    else if (who === me && me !== null) text = hold ? "Passing (a hold)…" : autoPass ? "Passing: nothing else to do now." : "Sending…";
    else if (who !== null) text = `Waiting for ${nameOf(names, who)}…`;
    else if (summary?.state === "finished") text = "The match is over.";
    else text = "Waiting…";
    return `<div class="prompt idle">${esc(text)}</div>`;
  }
  const decision = pending[1];
  const primary = primaryAction(decision);
  const places = ctx.places;
  const placed = new Set([...places.values()].flat().map((a) => a.id));
  // Blocks chosen in the page and not declared yet (blocks.js): "No blocks" declares them.
  const planned = ctx.planned ?? new Map();
  const label = (a) => {
    if (a.kind === "done" && decision.kind === "blockers" && planned.size && a.label === "No blocks") {
      return `Declare these blockers (${[...planned.values()].flat().length})`;
    }
    if (a.kind === "block" && (planned.get(String(a.obj)) ?? []).includes(describeRef(a.ref, view, names))) {
      return `${a.label} (chosen: choose it again to take it back)`;
    }
    return a.label;
  };
  const item = (a, i) => {
    const keyHint = i < 9 ? `<kbd>${i + 1}</kbd>` : "";
    const where = placed.has(a.id) ? ` <small class="hint">or click the ${Array.isArray(a.ref) && a.ref[0] === "p" && (a.kind === "target" || a.kind === "choose_player") ? "player" : "card"}</small>` : "";
    // Combat damage among blockers names the blocker in obj; a divided spell's share names
    // its target in its label already (docs/protocol.md, "divide").
    const extra = a.kind === "amount" && !a.ref ? ` <small>(${esc(a.n)} to ${esc(describeRef(["o", a.obj], view, names))})</small>` : "";
    return `<li><button data-do="act" data-id="${a.id}" data-key="a${a.id}" class="act${a === primary ? " primary" : ""}">${keyHint} ${esc(label(a))}${extra}${a === primary ? " <kbd>Space</kbd>" : ""}${where}</button></li>`;
  };
  // A long list (a card name among hundreds, CR 614.12b) is searched, not shown whole: the
  // other actions (done, choose_none) stay buttons and the list shows what the filter finds.
  const keyed = keyedActions(decision, ctx.filter ?? "");
  const items = keyed.map(item).join("");
  // Holds (stops.js): pass every priority until the turn ends, or until the player's next
  // turn, unless something happens to them.
  const holds = decision.kind === "priority" && decision.actions.some((a) => a.kind === "pass")
    ? `<div class="holds"><button data-do="hold" data-until="end_of_turn" class="small">Pass until end of turn</button> <button data-do="hold" data-until="my_turn" class="small">Pass until my turn</button> <button data-do="stops" class="small link">Stops…</button></div>`
    : "";
  // A declaration that leaves "done" out until its requirements are met (CR 508.1d, 509.1c):
  // say why, and for blocks chosen in the page offer the page's own Declare (blocks.js).
  const needs = (decision.kind === "attackers" || decision.kind === "blockers")
    && !decision.actions.some((a) => a.kind === "done")
    ? `<div class="hint needs">A creature here must ${decision.kind === "attackers" ? "attack" : "block"}: choose until the declaration is legal.</div>` : "";
  const paying = decision.kind === "pay_mana"
    ? '<div class="hint paying">Click a highlighted land or creature to pay with it, or pay the rest automatically.</div>' : "";
  const declare = ctx.declarable
    ? `<div class="holds"><button data-do="declare-blocks" data-key="declare-blocks" class="act primary">Declare these blockers (${[...planned.values()].flat().length}) <kbd>Space</kbd></button></div>` : "";
  return `<div class="prompt">${esc(decision.prompt || decision.kind)}</div>${needs}${paying}${chooser(ctx, decision)}<ol class="acts">${items}</ol>${declare}${holds}`;
}

// ------------------------------------------------------------------ long lists

const LONG = 16; // more choices than this are searched
const SHOWN = 12; // matches shown at once
const ON_TABLE = new Set(["priority", "attackers", "blockers"]);

/** The kind most of a long decision's actions have (the list to search), or null when the
 * decision is short enough to show whole. */
export function listKind(decision) {
  // Priority and the combat declarations act on the table's cards: never hidden behind a box.
  if (decision.actions.length <= LONG || ON_TABLE.has(decision.kind)) return null;
  const counts = new Map();
  for (const a of decision.actions) counts.set(a.kind, (counts.get(a.kind) ?? 0) + 1);
  return [...counts.entries()].sort((x, y) => y[1] - x[1])[0][0];
}

/** The actions of a long list whose label has every word typed in `filter` (any case). */
export function matching(decision, filter) {
  const kind = listKind(decision);
  const words = String(filter).toLowerCase().split(/\s+/).filter(Boolean);
  return decision.actions.filter((a) => a.kind === kind
    && words.every((w) => String(a.label).toLowerCase().includes(w)));
}

/** The actions as the page lists them, in the order the keys 1-9 choose them: all of them,
 * or for a long list its other actions, then the first matches of `filter`. */
export function keyedActions(decision, filter) {
  const kind = listKind(decision);
  if (kind === null) return decision.actions;
  return [...decision.actions.filter((a) => a.kind !== kind), ...matching(decision, filter).slice(0, SHOWN)];
}

/** The search box of a long list, and how many the filter finds. */
function chooser(ctx, decision) {
  const kind = listKind(decision);
  if (kind === null) return "";
  const all = decision.actions.filter((a) => a.kind === kind).length;
  const found = matching(decision, ctx.filter ?? "").length;
  const more = found > SHOWN ? `showing ${SHOWN} of ${found}: type more of the name` : `${found} of ${all}`;
  return `<form id="choice-form" class="choice-form" autocomplete="off"><input id="choice-filter" name="filter" type="search"
 data-key="choice-filter" value="${esc(ctx.filter ?? "")}" placeholder="Type to find one of ${all}" aria-label="Find a choice among ${all}">
<small class="choice-count" aria-live="polite">${esc(more)}</small></form>`;
}

/** The stops panel: a box per step and side; a checked box is a step the page stops at when
 * the player could act there (stops.js). */
export function stopsHtml(stops) {
  const row = (side, label) => `<tr><th scope="row">${label}</th>${STOP_STEPS.map((step) => `<td><input type="checkbox" data-do="stop" data-side="${side}" data-step="${step}" aria-label="${esc(`${label}: ${STEPS[step]}`)}"${stops[side].includes(step) ? " checked" : ""}></td>`).join("")}</tr>`;
  return `<div class="stops" id="stops-panel"><div class="prompt">Stops <small>where the page stops passing for you when you could act; being attacked or a spell of another player always stops it</small></div>
<table><thead><tr><th></th>${STOP_STEPS.map((s) => `<th scope="col">${esc(STEP_SHORT[s])}</th>`).join("")}</tr></thead><tbody>${row("mine", "Your turn")}${row("theirs", "Opponents' turns")}</tbody></table>
<button data-do="stops" class="small">Close</button></div>`;
}

const STEP_SHORT = { upkeep: "Upk", draw: "Draw", main1: "Main 1", begin_combat: "Comb", declare_attackers: "Att",
  declare_blockers: "Blk", combat_damage: "Dmg", end_combat: "EoC", main2: "Main 2", end: "End" };

export function popupHtml(popup) {
  if (!popup) return "";
  const x = Math.min(popup.x, window.innerWidth - 300);
  const y = Math.min(popup.y, window.innerHeight - 40 * popup.acts.length - 20);
  return `<div class="popup" id="popup-menu" role="menu" style="left:${x}px;top:${y}px">${popup.acts.map((a, i) => `<button data-do="act" data-id="${a.id}" role="menuitem"><kbd>${i + 1}</kbd> ${esc(a.label)}</button>`).join("")}</div>`;
}

export function detailPanel(id, o, ctx) {
  return `<div class="detail-card">${detailHtml(id, o, ctx)}</div>`;
}

/** The keys, for a player; a spectator has no decisions to take (and no keys for them). */
export function keysHelp(watching) {
  if (watching) return `<div class="keys">You are watching this game. Point at a card to read it here; <kbd>/</kbd> to chat.</div>`;
  return `<div class="keys"><b>Keys</b>: <kbd>Space</kbd> pass / done, wherever the focus is · <kbd>1</kbd>–<kbd>9</kbd> choose ·
<kbd>Tab</kbd> to a card, <kbd>Enter</kbd> to use it · <kbd>A</kbd> auto-pass · <kbd>/</kbd> chat · <kbd>Esc</kbd> close.
Point at a card to read it here.</div>`;
}

export { clockText };
