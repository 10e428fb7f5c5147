// Replays of finished games in the page (docs/clients.md, "Replays and recent matches"): the
// link #replay=GAME, the replay view drawn with the table's own renderer (table.js) read-only,
// and the lobby's "Recent matches" panel.
//
// The server answers `replay` with the view before the first command and one list of delta ops
// per command (docs/protocol.md section 17); the page applies them once to a replica
// (protocol/views.js, the live table's) and keeps every step's view, so a jump to any step is a
// lookup. Where the viewer is, as a small state machine:
//   loading -> ready (paused <-> playing; playing stops by itself at the last step)
//   loading -> failed (the server refused: the reason is shown, with the way back)

import { finalBoard } from "../finalboard.js";
import { ViewState } from "../protocol/views.js";
import * as T from "../table.js";
import { esc, names as namesOf, resultText } from "../text.js";

export const SPEEDS = [0.5, 1, 2, 4]; // playback speeds, steps per STEP_MS at 1x
const STEP_MS = 800; // one step a 0.8 s at 1x: a person can follow a game's actions
const LOG_LINES = 60; // the log lines shown, up to the step on screen
const VARIANT = { two_player: "two players", free_for_all: "free-for-all" };

/** The replay link of a game: `#replay=GAME`; the game number for such a fragment, or null. */
export function replayGame(hash) {
  const m = /^#replay=(\d{1,15})$/.exec(hash);
  return m ? Number(m[1]) : null;
}

/** Every step's view of a `replay` answer: step 0 is `v`, step k has the first k ops lists
 * applied. Copies are shallow: the replica replaces an entry's value, never changes it. */
export function stepViews(msg) {
  const state = new ViewState(msg.v);
  const copy = () => Object.assign(Object.create(null), state.view);
  const out = [copy()];
  for (const ops of msg.o) {
    state.apply(ops);
    out.push(copy());
  }
  return out;
}

/** The first step of each turn, in order: [[turn, step], ...]. */
export function turnStarts(firstTurn, turns) {
  const out = [];
  const all = [firstTurn, ...turns];
  all.forEach((turn, step) => {
    if (!out.length || out[out.length - 1][0] !== turn) out.push([turn, step]);
  });
  return out;
}

function entryHtml(g, mine) {
  const names = namesOf({ seats: g.names.map((n) => ({ n })) });
  const when = g.started ? new Date(g.started * 1000).toLocaleString() : "";
  const you = mine && g.seat !== undefined ? ` <small>(you: ${esc(g.names[g.seat] ?? "")})</small>` : "";
  const result = g.res ? resultText(g.res, names) : "";
  return `<li data-game="${esc(g.game)}"><a href="#replay=${esc(g.game)}" class="replay-link">Replay</a>
<b>${esc(g.names.join(" vs "))}</b>${you} <small>${esc(g.room_name ?? `room ${g.room}`)}, game ${esc(g.n)}${g.variant ? ` · ${esc(VARIANT[g.variant] ?? g.variant.replaceAll("_", " "))}` : ""} · ${esc(when)}</small><br><small>${esc(result)}</small></li>`;
}

/** The lobby's panel: your recent matches, then the server's. */
export function historyHtml(history) {
  if (!history) return `<p class="empty">Loading…</p>`;
  const list = (games, mine, empty) => (games.length
    ? `<ol class="history" aria-label="${mine ? "your recent matches" : "recent games on this server"}">${games.map((g) => entryHtml(g, mine)).join("")}</ol>`
    : `<p class="empty">${empty}</p>`);
  return `<h3>Yours</h3>${list(history.mine, true, "None yet: a game you finish here is listed, with its replay.")}
<h3>On this server</h3>${list(history.recent, false, "No finished games yet.")}`;
}

export function replayFrame() {
  return `<div id="toast" role="status" hidden></div>
<div class="table-screen replay-screen">
<header class="bar top"><div id="rp-top"></div><span class="grow"></span><span id="conn"></span></header>
<div id="banner" class="replay-bar"><div id="rp-controls"></div><div id="rp-slider"></div></div>
<main class="board"><div id="seats"></div><div id="stack"></div><div id="hand"></div></main>
<aside class="side"><div id="rp-help"></div><div id="rp-log" role="log" aria-label="the game's log up to this step"></div></aside></div>`;
}

export class ReplayScreen {
  constructor(app) {
    this.app = app;
    this.game = null; // the game on screen
    this.state = "idle"; // idle, loading, ready, failed
    this.msg = null; // the server's answer
    this.views = [];
    this.turns = []; // [[turn, first step]]
    this.step = 0;
    this.playing = false;
    this.speed = 1;
    this.timer = null;
    this.why = "";
    this.history = null; // the lobby's panel: the last `history` answer
  }

  get last() {
    return this.views.length - 1;
  }

  // ------------------------------------------------------------------ the lobby's panel

  refreshHistory() {
    if (!this.app.conn.ready) return;
    this.app.conn.request({ t: "history" }).then((msg) => {
      this.history = { mine: msg.mine ?? [], recent: msg.recent ?? [] };
      this.app.render();
    }).catch(() => {});
  }

  // ------------------------------------------------------------------ loading

  open(game) {
    if (game === this.game && this.state !== "failed") return;
    this.stop();
    Object.assign(this, { game, state: "loading", msg: null, views: [], step: 0, why: "" });
    this.app.conn.request({ t: "replay", game }).then((msg) => {
      if (this.game !== game) return;
      this.msg = msg;
      this.views = stepViews(msg);
      this.turns = turnStarts(msg.v.t?.[0] ?? 0, msg.turns);
      this.state = "ready";
      this.app.render();
    }).catch((err) => {
      if (this.game !== game) return;
      this.state = "failed";
      this.why = err.detail ?? err.message;
      this.app.render();
    });
  }

  close() {
    this.stop();
    this.game = null;
    this.state = "idle";
  }

  // ------------------------------------------------------------------ moving

  go(step) {
    this.step = Math.max(0, Math.min(this.last, step));
    if (this.step === this.last) this.stop();
    this.app.render();
  }

  turnOf(step) {
    return step === 0 ? (this.msg?.v.t?.[0] ?? 0) : this.msg.turns[step - 1];
  }

  /** The first step of the turn `delta` turns from the current one. */
  turnStep(delta) {
    const i = this.turns.findLastIndex(([, s]) => s <= this.step);
    const at = this.turns[Math.max(0, Math.min(this.turns.length - 1, i + delta))];
    return delta < 0 && this.turns[i] && this.turns[i][1] < this.step ? this.turns[i][1] : at[1];
  }

  play() {
    if (this.state !== "ready") return;
    if (this.step >= this.last) this.step = 0; // play again from the start
    this.playing = true;
    this.schedule();
    this.app.render();
  }

  schedule() {
    clearTimeout(this.timer);
    if (!this.playing) return;
    this.timer = setTimeout(() => {
      if (!this.playing) return;
      this.go(this.step + 1);
      this.schedule();
    }, STEP_MS / this.speed);
  }

  stop() {
    this.playing = false;
    clearTimeout(this.timer);
  }

  setSpeed(speed) {
    if (!SPEEDS.includes(speed)) return;
    this.speed = speed;
    this.schedule();
    this.app.render();
  }

  command(what, data) {
    if (this.state !== "ready") return;
    switch (what) {
      case "rp-start": this.go(0); break;
      case "rp-back": this.go(this.step - 1); break;
      case "rp-forward": this.go(this.step + 1); break;
      case "rp-end": this.go(this.last); break;
      case "rp-play":
        if (this.playing) {
          this.stop();
          this.app.render();
        } else {
          this.play();
        }
        break;
      case "rp-prev-turn": this.go(this.turnStep(-1)); break;
      case "rp-next-turn": this.go(this.turnStep(1)); break;
      case "rp-speed": this.setSpeed(Number(data.speed)); break;
      default: break;
    }
  }

  /** The slider and the turn list; true when the input was one of them. */
  input(e) {
    const t = e.target;
    if (this.state !== "ready") return false;
    if (t.id === "rp-step") {
      this.stop();
      this.step = Number(t.value);
      // The slider is where the person drags: its region is not rewritten under the pointer.
      this.app.regions.set("rp-slider", this.sliderHtml());
      this.app.render();
      return true;
    }
    if (t.id === "rp-turn" && e.type === "change") {
      this.stop();
      this.go(Number(t.value));
      return true;
    }
    return false;
  }

  /** Keys of the replay view (listed in its help). */
  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = {
      ArrowRight: () => this.command("rp-forward", {}), ArrowLeft: () => this.command("rp-back", {}),
      Home: () => this.command("rp-start", {}), End: () => this.command("rp-end", {}),
      " ": () => this.command("rp-play", {}), k: () => this.command("rp-play", {}),
      PageDown: () => this.command("rp-next-turn", {}), PageUp: () => this.command("rp-prev-turn", {}),
      "]": () => this.setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, SPEEDS.indexOf(this.speed) + 1)]),
      "[": () => this.setSpeed(SPEEDS[Math.max(0, SPEEDS.indexOf(this.speed) - 1)]),
    };
    const fn = keys[e.key];
    if (!fn) return;
    // Space and the arrows on a focused button or the slider keep their own meaning.
    if ((e.key === " " || e.key === "Enter") && e.target.closest?.("button,a")) return;
    e.preventDefault();
    fn();
  }

  // ------------------------------------------------------------------ drawing

  names() {
    return namesOf({ seats: (this.msg?.info.names ?? []).map((n) => ({ n })) });
  }

  /** The table's context (app.tableContext's shape), read-only: nothing to act on. */
  context() {
    const raw = this.views[this.step];
    // The step that ends the game takes the loser's cards out (CR 800.4a): draw the board as
    // it stood, as the live table does.
    const view = raw.x && this.step > 0 ? finalBoard(this.views[this.step - 1], raw) : raw;
    const info = this.msg.info;
    return { match: info.room, room: info.room, view, me: this.msg.seat ?? null, names: this.names(),
      catalog: this.app.catalog, summary: { name: info.room_name, seats: info.names.map((n) => ({ n, c: true })) },
      pending: null, planned: new Map(), declarable: false, filter: "", places: new Map() };
  }

  topHtml() {
    const info = this.msg?.info;
    const title = info ? `Replay: ${esc(info.names.join(" vs "))} <small>${esc(info.room_name ?? `room ${info.room}`)}, game ${esc(info.n)}</small>` : `Replay of game ${esc(this.game)}`;
    return `<strong>${title}</strong> <button data-do="lobby" class="small">Lobby</button>`;
  }

  controlsHtml() {
    if (this.state === "loading") return `<p role="status">Loading the replay of game ${esc(this.game)}…</p>`;
    if (this.state === "failed") return `<p role="alert" class="replay-failed">No replay of game ${esc(this.game)}: ${esc(this.why)}</p>`;
    const b = (what, label, text, extra = "") => `<button data-do="${what}" data-key="${what}" class="small" aria-label="${esc(label)}" title="${esc(label)}"${extra}>${text}</button>`;
    const speeds = SPEEDS.map((s) => `<button data-do="rp-speed" data-speed="${s}" data-key="speed-${s}" class="small${s === this.speed ? " on" : ""}" aria-pressed="${s === this.speed}">${s}x</button>`).join("");
    const turn = this.turnOf(this.step);
    const options = this.turns.map(([t, s]) => `<option value="${s}"${t === turn ? " selected" : ""}>turn ${esc(t)}</option>`).join("");
    const res = this.views[this.step].x;
    return `<div class="replay-controls" role="toolbar" aria-label="replay controls">
${b("rp-start", "to the start (Home)", "|◀ Start")}${b("rp-prev-turn", "previous turn (Page Up)", "« Turn")}${b("rp-back", "step back (←)", "◀ Step")}
${b("rp-play", this.playing ? "pause (Space)" : "play (Space)", this.playing ? "❚❚ Pause" : "▶ Play", ` aria-pressed="${this.playing}"`)}
${b("rp-forward", "step forward (→)", "Step ▶")}${b("rp-next-turn", "next turn (Page Down)", "Turn »")}${b("rp-end", "to the end (End)", "End ▶|")}
<span class="speeds" role="group" aria-label="speed">${speeds}</span>
<label>Jump to <select id="rp-turn" aria-label="jump to turn">${options}</select></label>
<span id="rp-where" role="status" aria-live="polite">step <b>${this.step}</b> of ${this.last} · turn ${esc(turn)}${res ? ` · ${esc(resultText(res, this.names()))}` : ""}</span></div>`;
  }

  sliderHtml() {
    return `<input id="rp-step" type="range" min="0" max="${this.last}" value="${this.step}" aria-label="step of the replay" aria-valuetext="step ${this.step} of ${this.last}, turn ${esc(this.turnOf(this.step))}">`;
  }

  helpHtml() {
    const who = this.msg?.seat === null || this.msg?.seat === undefined ? "as a spectator saw it: no hand is shown" : "from your seat: your hand as you saw it, never an opponent's";
    return `<div class="keys-help"><h3>Replay</h3><p>This game is shown ${who}.</p>
<ul><li><kbd>←</kbd> <kbd>→</kbd> step back and forward</li><li><kbd>Home</kbd> <kbd>End</kbd> start and end</li>
<li><kbd>Page Up</kbd> <kbd>Page Down</kbd> previous and next turn</li><li><kbd>Space</kbd> play and pause</li>
<li><kbd>[</kbd> <kbd>]</kbd> slower and faster (0.5x to 4x)</li></ul>
<p>Link to this replay: <a href="#replay=${esc(this.game)}">#replay=${esc(this.game)}</a></p></div>`;
  }

  /** The game's log up to the step shown (its last lines), the step's own lines marked. */
  logHtml() {
    const lines = this.msg.l ?? [];
    const out = [];
    for (let k = this.step; k >= 0 && out.length < LOG_LINES; k--) {
      for (const text of [...(lines[k] ?? [])].reverse()) out.push(`<p class="${k === this.step ? "l-now" : "l-game"}">${esc(text)}</p>`);
    }
    return out.reverse().join("");
  }

  render() {
    const app = this.app;
    app.setScreen("replay", replayFrame());
    app.renderRegion("conn", T.connectionHtml(app.status, app.conn));
    app.renderRegion("rp-top", this.topHtml());
    app.renderRegion("rp-controls", this.controlsHtml());
    app.renderRegion("rp-help", this.helpHtml());
    if (this.state !== "ready") {
      for (const region of ["rp-slider", "rp-log", "seats", "stack", "hand"]) app.renderRegion(region, "");
      return;
    }
    app.renderRegion("rp-slider", this.sliderHtml());
    app.renderRegion("rp-log", this.logHtml());
    const log = document.getElementById("rp-log");
    if (log) log.scrollTop = log.scrollHeight; // the step's own lines are the last ones
    app.renderBoard(this.context());
  }
}
