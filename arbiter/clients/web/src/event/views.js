// The event views as HTML strings (docs/clients.md, "Limited events"): the lobby's list of
// events and the host form, and the event screen's regions for each phase (the lobby of the
// event, the draft, the deck builder, the rounds and standings, the final results). Pure
// functions of what event/screen.js hands them; it writes a region only when its HTML changed.

import { manaHtml } from "../cards.js";
import { esc, plural } from "../text.js";
import * as M from "./model.js";

const KIND_NAMES = { draft: "booster draft", sealed: "sealed" };
const PHASE_NAMES = { lobby: "open to join", drafting: "drafting", building: "building decks",
  playing: "playing", finished: "finished" };

function options(list, selected) {
  return list.map(([value, label]) => `<option value="${esc(value)}"${String(value) === String(selected) ? " selected" : ""}>${esc(label)}</option>`).join("");
}

function nameOf(ev, seat) {
  const e = ev.entrants?.[seat];
  return e ? e.n : `Seat ${Number(seat) + 1}`;
}

// ------------------------------------------------------------------ the lobby

/** The open events, each with what one may do: join (while it is open), go back to it (an
 * event one has entered), watch. */
export function eventListHtml(events, entered) {
  if (!events.length) return `<p class="empty">No events yet: host one.</p>`;
  const rows = events.map((e) => {
    const mine = entered.has(e.r);
    const buttons = [];
    if (mine) buttons.push(`<button data-do="ev-open" data-ev="${esc(e.r)}" class="primary">Back to my seat</button>`);
    else if (e.phase === "lobby" && e.entrants < e.seats) buttons.push(`<button data-do="ev-join" data-ev="${esc(e.r)}">Join</button>`);
    if (!mine) buttons.push(`<button data-do="ev-watch" data-ev="${esc(e.r)}">Watch</button>`);
    const round = e.round ? ` · round ${esc(e.round)} of ${esc(e.rounds)}` : ` · ${plural(e.rounds, "round")}`;
    return `<tr data-event-row="${esc(e.r)}"><td class="num">${esc(e.r)}</td><td><strong>${esc(e.name)}</strong><br><small>${esc(e.set)} ${esc(KIND_NAMES[e.kind] ?? e.kind)}${round} · best of ${esc(e.best_of)}${e.bots ? " · bots fill empty seats" : ""}</small></td>
<td><span class="state st-${e.phase === "lobby" ? "waiting" : "playing"}">${esc(PHASE_NAMES[e.phase] ?? e.phase)}</span></td><td class="num">${esc(e.entrants)}/${esc(e.seats)}</td><td class="btns">${buttons.join(" ")}</td></tr>`;
  }).join("");
  return `<table class="rooms events"><thead><tr><th>#</th><th>Event</th><th>State</th><th>Players</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The form to host an event, with the protocol's defaults (docs/protocol.md section 15). */
export function hostFormHtml(state, busy) {
  const s = state ?? {};
  return `<form id="ev-host-form" autocomplete="off" aria-label="host an event">
<label>Name <input name="name" data-key="ev-name" maxlength="40" value="${esc(s.name ?? "")}" placeholder="League night"></label>
<div class="row"><label>Kind <select name="kind">${options([["draft", "booster draft"], ["sealed", "sealed"]], s.kind ?? "draft")}</select></label>
<label>Set <select name="set" disabled><option>M10</option></select></label></div>
<div class="row"><label>Seats <input name="seats" type="number" min="2" max="64" value="${esc(s.seats ?? 8)}"></label>
<label>Rounds <select name="rounds">${options([["auto", "as the seats need"], ...[1, 2, 3, 4, 5].map((n) => [n, String(n)])], s.rounds ?? "auto")}</select></label>
<label>Matches <select name="best_of">${options([[1, "one game"], [3, "best of 3"]], s.best_of ?? 3)}</select></label></div>
<div class="row"><label>Pick time <input name="pick_time" type="number" min="5" max="600" value="${esc(s.pick_time ?? 75)}"> s</label>
<label>Build time <input name="build_minutes" type="number" min="1" max="120" value="${esc(s.build_minutes ?? 15)}"> min</label></div>
<div class="row"><label><input type="checkbox" name="bots"${s.bots === "off" ? "" : " checked"}> Bots fill the empty seats</label>
<label><input type="checkbox" name="play"${s.play === "off" ? "" : " checked"}> I play in it</label></div>
<button type="submit" class="primary"${busy ? " disabled" : ""}>Host the event</button></form>`;
}

// ------------------------------------------------------------------ the event screen

export function eventFrame() {
  return `<div id="toast" role="status" hidden></div>
<header class="bar"><h1>Arbiter</h1><button data-do="lobby" class="small">← Lobby</button><span id="ev-title" class="grow"></span><span id="conn"></span></header>
<div class="ev-screen"><main id="ev-main" class="ev-main"></main><aside id="ev-side" class="ev-side"></aside></div>`;
}

export function titleHtml(ev, timer) {
  if (!ev) return "";
  const c = ev.config;
  const what = `${esc(c.set)} ${esc(KIND_NAMES[c.kind] ?? c.kind)}`;
  const round = ev.phase === "playing" ? ` · round ${esc(ev.round)} of ${esc(ev.rounds)}` : "";
  const clock = timer === null ? "" : ` <span class="ev-timer${timer < 10 ? " low" : ""}" id="ev-timer" role="timer" aria-label="time left">${esc(M.timerText(timer))}</span>`;
  return `<strong>${esc(c.name)}</strong> <small>event ${esc(ev.r)} · ${what} · ${esc(PHASE_NAMES[ev.phase] ?? ev.phase)}${round}</small>${clock}`;
}

/** The side panel: who is in the event, its settings, and the entrant's own buttons. */
export function sideHtml({ ev, me, host, dropArmed }) {
  const c = ev.config;
  const rows = ev.entrants.map((e) => {
    const flags = [e.seat === me ? "you" : "", e.b ? "bot" : "", e.d ? "dropped" : "",
      ev.phase === "building" && e.deck ? "deck ready" : ""].filter(Boolean);
    return `<li class="${e.d ? "dropped" : ""}${e.seat === me ? " me" : ""}">${esc(e.n)}${flags.length ? ` <small>(${esc(flags.join(", "))})</small>` : ""}</li>`;
  }).join("");
  const free = ev.phase === "lobby" ? c.seats - ev.entrants.length : 0;
  const buttons = [];
  if (ev.phase === "lobby") {
    if (me === null) buttons.push(`<button data-do="ev-join" data-ev="${esc(ev.r)}" class="primary">Join</button>`);
    if (host) buttons.push(`<button data-do="ev-start" class="primary" data-key="ev-start">Start the event</button>`);
  }
  const you = ev.you;
  if (you && !you.dropped && ["drafting", "building", "playing"].includes(ev.phase)) {
    buttons.push(dropArmed
      ? `<span class="ev-confirm">Drop out of the event? You get no more pairings. <button data-do="ev-drop" class="danger" data-key="ev-drop">Yes, drop</button> <button data-do="ev-drop-cancel" data-key="ev-drop-cancel">No</button></span>`
      : `<button data-do="ev-drop" class="danger" data-key="ev-drop">Drop</button>`);
  }
  buttons.push(`<button data-do="ev-leave" data-key="ev-leave">${ev.phase === "lobby" && me !== null ? "Leave the event" : "Back to the lobby"}</button>`);
  return `<section class="ev-panel"><h2>Players <small>${esc(ev.entrants.length)}/${esc(c.seats)}</small></h2>
<ol class="ev-entrants">${rows}</ol>${free > 0 ? `<p class="empty">${plural(free, "seat")} open${c.bots ? ": bots take them at the start" : ""}</p>` : ""}
<p class="ev-settings"><small>${esc(plural(ev.rounds, "Swiss round"))}, ${c.best_of > 1 ? `best of ${esc(c.best_of)}` : "one game"} a match · picks ${esc(c.pick_time)} s · building ${esc(Math.round(c.build_time / 60))} min</small></p>
<div class="ev-buttons">${buttons.join(" ")}</div></section>`;
}

export function lobbyHtml({ ev, me, host }) {
  const who = me === null ? "You are watching." : "You have a seat.";
  const start = host ? "Start it when you are ready: the empty seats get bots if the event has them."
    : "The host starts it.";
  return `<section class="ev-panel"><h2>Waiting for players</h2><p>${esc(who)} ${esc(start)}</p>
<p>${esc(plural(ev.entrants.length, "player"))} of ${esc(ev.config.seats)} so far.</p></section>`;
}

// ------------------------------------------------------------------ drafting

function rarityHtml(card) {
  // Basic lands are printed in no set's rarity sheet (a booster's land slot holds one).
  const r = card?.rarity ?? (/\bBasic\b/.test(card?.types ?? "") ? "L" : null);
  return r ? `<span class="ev-rarity r-${esc(r)}" title="${esc(M.RARITY_NAMES[r] ?? r)}">${esc(r)}</span>` : "";
}

/** One card of the pack: a button, so a tap, a click, Enter or Space takes it. */
function packCardHtml(name, i, cards, busy) {
  const card = cards?.[name];
  const pt = card?.pt ? `<span class="c-pt">${esc(card.pt[0])}/${esc(card.pt[1])}</span>` : "";
  const label = [name, card?.cost ?? "", card?.types ?? "", M.RARITY_NAMES[card?.rarity] ?? ""].filter(Boolean).join(", ");
  return `<button class="card ev-card col-${M.groupOf(card)}" data-do="ev-pick" data-card="${esc(name)}" data-key="pack${i}" aria-label="Pick ${esc(label)}"${busy ? " disabled" : ""}>
<span class="c-head"><span class="c-name">${esc(name)}</span><span class="c-cost">${manaHtml(card?.cost)}</span></span>
<span class="c-type">${esc(card?.types ?? "")} ${rarityHtml(card)}</span>
<span class="c-text">${esc(card?.text ?? "")}</span><span class="c-foot"><span></span>${pt}</span></button>`;
}

/** Counts grouped by colour as compact rows; `move` names the command a row sends, if any. */
function groupedHtml(counts, cards, { move = null, filter = "", id = "" } = {}) {
  const groups = M.groupCounts(counts, cards);
  if (!groups.length) return `<p class="empty">None yet.</p>`;
  const hidden = groups.every(([, list]) => !list.some(([name]) => M.passesFilter(cards?.[name], filter)));
  if (hidden) return `<p class="empty"${id ? ` id="${id}"` : ""}>None of this colour.</p>`;
  return `<div class="ev-groups"${id ? ` id="${id}"` : ""}>${groups.map(([g, list]) => {
    const shown = list.filter(([name]) => M.passesFilter(cards?.[name], filter));
    if (!shown.length) return "";
    const n = shown.reduce((s, [, k]) => s + k, 0);
    const rows = shown.map(([name, k]) => {
      const card = cards?.[name];
      const inner = `<span class="ev-n">${k > 1 ? `${esc(k)}×` : ""}</span><span class="ev-cname">${esc(name)}</span><span class="c-cost">${manaHtml(card?.cost)}</span>`;
      const title = [card?.types, card?.text].filter(Boolean).join(" — ");
      return move
        ? `<li><button class="ev-row col-${M.groupOf(card)}" data-do="${move}" data-card="${esc(name)}" data-key="${move}:${esc(name)}" title="${esc(title)}">${inner}</button></li>`
        : `<li class="ev-row col-${M.groupOf(card)}" title="${esc(title)}">${inner}</li>`;
    }).join("");
    return `<div class="ev-group"><h4>${esc(M.GROUP_NAMES[g])} <small>${n}</small></h4><ul>${rows}</ul></div>`;
  }).join("")}</div>`;
}

export function draftHtml({ ev, cards, busy }) {
  const you = ev.you;
  const d = ev.draft ?? { pack: 1, waiting: [] };
  if (!you) {
    // A spectator sees nothing of packs or picks until the event ends (docs/events.md).
    return `<section class="ev-panel"><h2>Drafting: pack ${esc(d.pack)} of 3</h2>
<p>${esc(plural(d.waiting.length, "player"))} ${d.waiting.length === 1 ? "has" : "have"} a pack in front of them. Packs and picks are shown when the event ends.</p></section>`;
  }
  const pack = you.pack;
  const picks = you.picks ?? [];
  const head = pack
    ? `<h2>Pack ${esc(d.pack)} · pick ${esc(you.pick)} <small>${esc(plural(pack.length, "card"))}: click or tap one to take it<span class="ev-keys"> (Tab or the arrow keys, then Enter)</span></small></h2>`
    : `<h2>Pack ${esc(d.pack)} · waiting for the next pack…</h2>`;
  const body = pack
    ? `<div class="ev-pack" role="group" aria-label="the pack in front of you">${M.sortCards(pack, cards).map((n, i) => packCardHtml(n, i, cards, busy)).join("")}</div>`
    : `<p class="ev-waiting" role="status">Waiting for the next pack: your neighbour is still picking.</p>`;
  return `<section class="ev-panel ev-draft">${head}${body}</section>
<section class="ev-panel"><h2>Your picks <small>${esc(picks.length)} of 45, by colour and mana value</small></h2>${groupedHtml(M.countsOf(picks), cards, { id: "ev-picks" })}</section>`;
}

// ------------------------------------------------------------------ building

function curveHtml(curve) {
  const top = Math.max(1, ...curve);
  return `<div class="ev-curve" aria-label="mana curve">${curve.map((n, mv) => `<div class="ev-bar" title="${esc(plural(n, "card"))} of mana value ${mv === 6 ? "6 or more" : mv}"><span class="ev-bar-n">${n}</span><span class="ev-bar-fill" style="height:${Math.round((n / top) * 60)}px"></span><span class="ev-bar-mv">${mv === 6 ? "6+" : mv}</span></div>`).join("")}</div>`;
}

function coloursHtml(count) {
  return `<ul class="ev-colours">${Object.entries(count).map(([c, v]) => `<li><span class="m m-${c}">${c}</span> ${esc(plural(v.cards, "card"))}${v.lands ? `, ${esc(v.lands)} ${M.BASICS["WUBRG".indexOf(c)]}` : ""}</li>`).join("")}</ul>`;
}

export function buildHtml({ ev, cards, build, filter, errors, busy }) {
  const you = ev.you;
  if (!you) {
    const ready = ev.entrants.filter((e) => e.deck).length;
    return `<section class="ev-panel"><h2>Deck building</h2><p>${esc(ready)} of ${esc(ev.entrants.filter((e) => !e.d).length)} players have a deck. Pools and decks are shown when the event ends.</p></section>`;
  }
  if (you.dropped) return `<section class="ev-panel"><h2>You have dropped from this event.</h2></section>`;
  const counts = M.deckCounts(build);
  const size = M.total(counts);
  const legal = size >= M.MIN_DECK;
  const side = M.sideboardOf(you.pool, build);
  const filters = [["", "All"], ["W", "W"], ["U", "U"], ["B", "B"], ["R", "R"], ["G", "G"], ["C", "Colourless"]]
    .map(([f, label]) => `<button class="small${filter === f ? " on" : ""}" data-do="ev-filter" data-filter="${f}" aria-pressed="${filter === f}">${f && f !== "C" ? `<span class="m m-${f}">${f}</span>` : esc(label)}</button>`).join("");
  const basics = M.BASICS.map((b, i) => `<li><span class="m m-${"WUBRG"[i]}">${"WUBRG"[i]}</span> <span class="ev-basic">${b}</span>
<button class="small" data-do="ev-basic" data-card="${b}" data-step="-1" data-key="basic-${b}" aria-label="one ${b} fewer">−</button>
<b class="ev-basic-n" id="basic-${b}">${esc(build.basics[b])}</b>
<button class="small" data-do="ev-basic" data-card="${b}" data-step="1" data-key="basic+${b}" aria-label="one ${b} more">+</button></li>`).join("");
  const sent = you.deck ? `<p class="ev-sent" role="status">Your deck of ${esc(M.total(you.deck))} cards is in; you may change it and send it again until the last player sends theirs.</p>` : "";
  const errorList = errors.length ? `<ul class="deck-errors" role="alert">${errors.map((e) => `<li>${esc(e)}</li>`).join("")}</ul>` : "";
  return `<section class="ev-panel ev-build">
<div class="ev-build-head"><h2>Your deck: <span class="ev-count ${legal ? "ok" : "short"}" id="ev-count">${esc(size)} / ${M.MIN_DECK}</span> <small>${legal ? "legal size" : `${M.MIN_DECK - size} more to go`}</small></h2>
<button data-do="ev-submit" class="primary" data-key="ev-submit"${busy ? " disabled" : ""}>Submit the deck</button></div>${sent}${errorList}
<div class="ev-stats"><div><h4>Mana curve</h4>${curveHtml(M.manaCurve(counts, cards))}</div><div><h4>Colours</h4>${coloursHtml(M.colourCount(counts, cards))}</div>
<div><h4>Basic lands</h4><ul class="ev-basics">${basics}</ul></div></div>
<div class="ev-filter" role="group" aria-label="show cards of a colour">Show ${filters}</div>
<div class="ev-columns"><div><h3>Deck <small>${esc(M.total(build.main))} from the pool; click a card to take it out</small></h3>${groupedHtml(build.main, cards, { move: "ev-out", filter, id: "ev-deck" })}</div>
<div><h3>Pool and sideboard <small>${esc(M.total(side))}; click a card to put it in</small></h3>${groupedHtml(side, cards, { move: "ev-in", filter, id: "ev-sideboard" })}</div></div></section>`;
}

// ------------------------------------------------------------------ rounds and standings

function pairingsHtml(ev, me) {
  if (!ev.pairings?.length) return "";
  const rows = ev.pairings.map((p) => {
    const mine = me !== null && (p.a === me || p.b === me);
    const result = p.b === null || p.b === undefined ? "bye (2–0)" : M.resultText(p.result) ?? "playing";
    let button = "";
    if (p.room && p.result == null) {
      button = mine && !ev.you?.dropped
        ? `<button data-do="ev-play" data-room="${esc(p.room)}" class="primary" data-key="play">Play your match</button>`
        : `<button data-do="ev-watch-match" data-room="${esc(p.room)}" class="small">Watch</button>`;
    }
    return `<tr class="${mine ? "me" : ""}"><td class="num">${esc(p.table)}</td><td>${esc(nameOf(ev, p.a))}</td><td>${p.b === null || p.b === undefined ? "—" : esc(nameOf(ev, p.b))}</td><td class="ev-result">${esc(result)}</td><td class="btns">${button}</td></tr>`;
  }).join("");
  return `<section class="ev-panel"><h2>Round ${esc(ev.round)} of ${esc(ev.rounds)}: pairings</h2>
<table class="rooms ev-pairings"><thead><tr><th>Table</th><th>Player</th><th>Opponent</th><th>Result</th><th></th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

export function standingsHtml(ev, me, title = "Standings") {
  if (!ev.standings?.length) return "";
  const rows = ev.standings.map((s) => `<tr class="${s.seat === me ? "me" : ""}"><td class="num">${esc(s.rank)}</td><td>${esc(nameOf(ev, s.seat))}${ev.entrants[s.seat]?.d ? " <small>(dropped)</small>" : ""}</td><td class="num">${esc(s.points)}</td><td>${esc(s.w)}-${esc(s.l)}-${esc(s.d)}</td><td class="num">${M.percent(s.omw)}</td><td class="num">${M.percent(s.gw)}</td><td class="num">${M.percent(s.ogw)}</td></tr>`).join("");
  return `<section class="ev-panel"><h2>${esc(title)}</h2><div class="ev-scroll"><table class="rooms ev-standings"><thead><tr><th>Rank</th><th>Player</th><th>Points</th><th>W-L-D</th><th title="opponents' match-win percentage">OMW%</th><th title="game-win percentage">GW%</th><th title="opponents' game-win percentage">OGW%</th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
}

export function playingHtml({ ev, me, soon }) {
  const mine = ev.pairings?.find((p) => me !== null && (p.a === me || p.b === me));
  let note = "";
  if (soon !== null && soon !== undefined && mine?.room) {
    note = `<p class="ev-note" role="status">Your match of round ${esc(ev.round)} is ready: its table opens in ${esc(Math.ceil(soon))} s.
<button data-do="ev-play" data-room="${esc(mine.room)}" class="primary" data-key="play-now">Play now</button></p>`;
    return `${note}${pairingsHtml(ev, me)}${standingsHtml(ev, me)}`;
  }
  if (ev.you?.dropped) note = "You have dropped: no more pairings for you.";
  else if (mine && (mine.b === null || mine.b === undefined)) note = "You have a bye this round: a match won 2–0.";
  else if (mine && mine.result) note = "Your match is over: the next round is paired when every match of this one has ended.";
  return `${note ? `<p class="ev-note" role="status">${esc(note)}</p>` : ""}${pairingsHtml(ev, me)}${standingsHtml(ev, me)}`;
}

export function finishedHtml({ ev, me, cards }) {
  const pools = (ev.pools ?? []).map((p) => {
    const deck = p.deck ? groupedHtml(p.deck, cards) : `<p class="empty">no deck</p>`;
    return `<details class="ev-pool"><summary>${esc(nameOf(ev, p.seat))}: ${p.deck ? esc(plural(M.total(p.deck), "card")) : "no deck"}</summary>${deck}</details>`;
  }).join("");
  return `<section class="ev-panel ev-final"><h2>The event is over</h2><p>${ev.standings?.length ? `${esc(nameOf(ev, ev.standings[0].seat))} wins the event.` : "No match was played."}</p></section>
${standingsHtml(ev, me, "Final standings")}${pools ? `<section class="ev-panel"><h2>Decks</h2>${pools}</section>` : ""}`;
}
