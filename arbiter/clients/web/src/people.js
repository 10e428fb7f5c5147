// The lobby's people and chat panel (docs/protocol.md section 16, docs/clients.md "Lobby").
//
// The page follows the lobby while the lobby is on screen (`lobby` with follow), so a table
// pays nothing for it. Who is online comes as `people` messages (the first 100 by name and a
// count; the search box asks the server for the rest), the chat as `lobby_chat` lines.
//
// Chat lines are appended to a live region (role="log") one element at a time with
// textContent: a screen reader announces each new line once, and nobody's text is ever read
// as markup. Muting is this browser's choice (saved in localStorage): a muted name's lines are
// not shown; the server moderates nothing beyond its limits.

import { esc } from "./text.js";

const KEEP = 50; // lines kept, as many as the server keeps for newcomers
const MUTED_KEY = "arbiter.muted";

const STATUS = { lobby: "in the lobby", playing: "playing", watching: "watching", event: "in event" };

function loadMuted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) ?? "[]");
    return new Set(Array.isArray(list) ? list.map(String) : []);
  } catch {
    return new Set();
  }
}

/** What a person is doing, as words: "playing room 12", "watching", "in the lobby". */
export function statusText(entry) {
  const said = STATUS[entry.s] ?? String(entry.s ?? "");
  return entry.r === undefined || entry.r === null ? said : `${said} room ${entry.r}`;
}

/** The people list: a count and one row per person, each with a mute button. */
export function peopleHtml(list, muted, me) {
  if (!list) return `<p class="empty">Asking who is online…</p>`;
  const rows = list.people.map((p) => {
    const name = String(p.n);
    const isMuted = muted.has(name);
    const you = name === me ? " <small>(you)</small>" : "";
    const mute = name === me ? "" : `<button class="small link" data-do="mute" data-name="${esc(name)}" data-key="mute-${esc(name)}" aria-pressed="${isMuted}" aria-label="${isMuted ? "Unmute" : "Mute"} ${esc(name)}">${isMuted ? "unmute" : "mute"}</button>`;
    return `<li class="person"><span class="pname">${esc(name)}${you}</span> <span class="pstatus">${esc(statusText(p))}</span>${mute}</li>`;
  }).join("");
  const shown = list.people.length < list.n ? ` (the first ${list.people.length} shown)` : "";
  const who = list.q ? `${list.n} online named like “${esc(list.q)}”` : `${list.n} online`;
  return `<p class="people-count" aria-live="polite">${who}${shown}</p><ul class="people">${rows}</ul>`;
}

export function panelHtml() {
  return `<h2 id="people-h">People</h2>
<label class="people-search">Find <input id="people-search" type="search" maxlength="40" autocomplete="off" placeholder="a name" aria-label="find people online by name"></label>
<div id="lobby-people"></div>
<h3 id="lobby-chat-h">Lobby chat</h3>
<div id="lobby-chat-log" role="log" aria-live="polite" aria-labelledby="lobby-chat-h"></div>
<form id="lobby-chat-form" autocomplete="off"><input id="lobby-chat-text" maxlength="500" placeholder="Say something to the lobby" aria-label="message to the lobby"><button type="submit">Send</button></form>`;
}

export class LobbyPeople {
  constructor(conn, toast) {
    this.conn = conn;
    this.toast = toast;
    this.following = false;
    this.history = false; // the next lines are the history a new follower is sent
    this.list = null; // the latest `people` (without a search)
    this.found = null; // the answer to the search typed, if any
    this.query = "";
    this.lines = []; // [{n, from, text}], oldest first
    this.muted = loadMuted();
    this.logEl = null; // the log element the lines were written into
    this.written = 0; // ... and how many of them
  }

  /** Follow the lobby while it is on screen, and stop when it is not. */
  follow(on) {
    if (on === this.following || !this.conn.ready) return;
    this.following = on;
    this.history = on;
    this.conn.request({ t: "lobby", follow: on }).catch(() => { this.following = false; });
  }

  /** The connection dropped: the server forgot what it followed. */
  onConnected() {
    this.following = false;
  }

  onMessage(msg) {
    if (msg.t === "people" && (msg.i === undefined || msg.i === null)) {
      this.list = msg;
    } else if (msg.t === "lobby_chat") {
      if (this.history) {
        // The first lines after following are the chat's latest, whole: they replace ours
        // (after a reconnect, or a server restart that cleared them).
        this.history = false;
        this.lines = [];
        this.logEl = null;
      }
      this.lines.push(...(msg.lines ?? []));
      if (this.lines.length > KEEP) {
        this.lines.splice(0, this.lines.length - KEEP);
        this.logEl = null; // written afresh
      }
    }
  }

  say(input) {
    const text = input.value.trim();
    if (!text) return;
    this.conn.request({ t: "lobby_chat", text: text.slice(0, 500) }).then(
      () => { input.value = ""; },
      (err) => this.toast(`Lobby chat: ${err.detail ?? err.message}`));
  }

  search(query, render) {
    this.query = query.trim();
    if (!this.query) {
      this.found = null;
      render();
      return;
    }
    const asked = this.query;
    this.conn.request({ t: "people", q: asked }).then((msg) => {
      if (asked === this.query) {
        this.found = msg;
        render();
      }
    }).catch((err) => this.toast(`Find people: ${err.detail ?? err.message}`));
  }

  toggleMute(name) {
    if (this.muted.has(name)) this.muted.delete(name);
    else this.muted.add(name);
    localStorage.setItem(MUTED_KEY, JSON.stringify([...this.muted]));
    this.logEl = null; // the log is written again without (or with) their lines
  }

  peopleHtml() {
    return peopleHtml(this.query ? this.found : this.list, this.muted, this.conn.name);
  }

  /** Append the lines not yet in the page's log (all of them into a fresh log element). */
  renderChat() {
    const el = document.getElementById("lobby-chat-log");
    if (!el) return;
    if (el !== this.logEl) {
      el.replaceChildren();
      this.logEl = el;
      this.written = 0;
    }
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 30;
    for (const line of this.lines.slice(this.written)) {
      if (this.muted.has(String(line.from))) continue;
      const p = document.createElement("p");
      const who = document.createElement("b");
      who.textContent = `${line.from}: `;
      p.append(who, document.createTextNode(String(line.text)));
      el.append(p);
    }
    this.written = this.lines.length;
    while (el.childElementCount > KEEP) el.firstElementChild.remove();
    if (atEnd) el.scrollTop = el.scrollHeight;
  }
}
