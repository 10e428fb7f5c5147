// The event screens in the page (docs/clients.md, "Limited events"): what the App hands over
// about events (their messages, their link #/event/ID, their clicks, forms and keys) and what
// is drawn for them. The server sends each follower the whole event whenever it changes for
// them (docs/protocol.md section 15), so there is no replica here: the latest state is the
// state, and the page adds only what is its own (the deck being built, the timers counted
// between messages, which match it already took you to).
//
// Where a person is, as a small state machine of the event's phase and their match:
//   lobby -> drafting -> building -> playing (their match opens: the table; it ends: back
//   here) -> ... -> finished. A spectator follows the same phases without a pack or a pool.

import { serverErrorLine } from "../decks.js";
import { connectionHtml } from "../table.js";
import * as M from "./model.js";
import * as V from "./views.js";

const HOSTED = "arbiter.hosted"; // the events this browser hosts (the server says nothing of it)
const BACK_AFTER_MS = 4000; // the game-over panel is read before the page goes back
const TABLE_IN_MS = 6000; // the round's pairings and standings are read before the table opens

/** The host form's fields; an unchecked box is "off" (FormData leaves it out). */
function fieldsOf(form) {
  const fields = Object.fromEntries(new FormData(form));
  for (const box of form.querySelectorAll("input[type=checkbox]")) if (!box.checked) fields[box.name] = "off";
  return fields;
}

export class EventScreens {
  constructor(app) {
    this.app = app;
    this.list = []; // the open events, from `events`
    this.states = new Map(); // event id -> {ev, at}: the latest state and when it came
    this.builds = new Map(); // event id -> the deck being built (model.js newBuild)
    this.filter = ""; // the deck builder's colour filter
    this.errors = []; // the server's refusal of the last deck sent
    this.busy = false; // a pick or a deck is on its way
    this.dropArmed = false;
    this.hostState = {}; // what the host form holds
    this.hosting = false;
    this.followed = new Set(); // events asked for on this connection
    this.entered = new Set(); // match rooms the page already took us to
    this.soon = null; // {id, r, due}: the match the page opens when `due` comes
    this.returning = new Set(); // match rooms after whose end the page goes back
    this.matchRooms = new Map(); // match room -> its event's id (every round's, as seen)
    this.hosted = new Set(JSON.parse(localStorage.getItem(HOSTED) ?? "[]"));
  }

  get conn() {
    return this.app.conn;
  }

  // ------------------------------------------------------------------ messages

  onMessage(msg) {
    if (msg.t === "events") {
      this.list = msg.events ?? [];
      return;
    }
    const id = String(msg.r);
    const ev = msg.ev;
    this.states.set(id, { ev, at: performance.now() });
    this.busy = false; // what was sent is in this state (or was refused, and said so)
    if (ev.you && !this.builds.has(id)) this.builds.set(id, M.newBuild(ev.you.pool, ev.you.deck));
    if (ev.phase !== "building") this.errors = [];
    this.followMatch(id, ev);
  }

  /** The person's match of the round opened: take them to it (once, a few seconds after they
   * see the round's pairings, tick()); it ended: back here. */
  followMatch(id, ev) {
    for (const p of ev.pairings ?? []) if (p.room) this.matchRooms.set(p.room, id);
    const match = ev.you?.match;
    const pairing = match && ev.pairings?.find((p) => p.room === match.r);
    if (match && !pairing?.result && !this.entered.has(match.r) && !ev.you.dropped) {
      if (this.soon?.r !== match.r) this.soon = { id, r: match.r, due: null };
    }
    // The match on screen is this event's and has a result (or its round is over).
    const at = this.app.match;
    const there = ev.pairings?.find((p) => p.room === at);
    if (this.matchRooms.get(at) === id && (!there || there.result) && !this.returning.has(at)) {
      this.returning.add(at);
      setTimeout(() => {
        if (this.app.match === at) this.open(id);
      }, BACK_AFTER_MS);
    }
  }

  /** The event a match room belongs to, if the page knows it. */
  eventOf(room) {
    return this.matchRooms.get(room) ?? null;
  }

  /** Leaving a match of an event goes back to the event rather than to the lobby. */
  backFrom(room) {
    const id = this.eventOf(room);
    if (id === null) return false;
    this.open(id);
    return true;
  }

  // ------------------------------------------------------------------ following

  open(id) {
    location.hash = `#/event/${id}`;
  }

  /** The page shows event `id`: follow it, as its entrant (join re-attaches a seat we hold)
   * or as a spectator. */
  follow(id) {
    if (this.followed.has(id)) return;
    this.followed.add(id);
    const seated = this.conn.seats.has(id);
    this.conn.request(seated ? { t: "join", r: id } : { t: "spectate", r: id }).catch((err) => {
      this.followed.delete(id);
      this.app.toast(`Cannot open event ${id}: ${err.detail ?? err.message}`);
    });
  }

  onConnected() {
    this.followed.clear(); // a new connection: what we followed is asked for again
  }

  refresh() {
    if (this.conn.ready) this.conn.request({ t: "events" }).catch(() => {});
  }

  mySeat(id) {
    const you = this.states.get(id)?.ev?.you;
    return you ? you.seat : null;
  }

  timer(id) {
    const s = this.states.get(id);
    const t = s?.ev?.you?.timer;
    if (t === undefined || t === null) return null;
    return M.secondsLeft(t, s.at, performance.now());
  }

  // ------------------------------------------------------------------ drawing

  lobbyHtml() {
    const entered = new Set([...this.conn.seats.keys()].filter((r) => this.list.some((e) => e.r === r)));
    return V.eventListHtml(this.list, entered);
  }

  hostHtml() {
    return V.hostFormHtml(this.hostState, this.hosting);
  }

  render() {
    const app = this.app;
    const id = app.eventId;
    app.setScreen(`event-${id}`, V.eventFrame());
    app.renderRegion("conn", connectionHtml(app.status, this.conn));
    const state = this.states.get(id);
    if (!state) {
      app.renderRegion("ev-main", `<p class="empty">Opening event ${id}…</p>`);
      return;
    }
    const ev = state.ev;
    const cards = app.catalog?.cards ?? {};
    const me = this.mySeat(id);
    const host = this.hosted.has(id);
    app.renderRegion("ev-title", V.titleHtml(ev, this.timer(id)));
    app.renderRegion("ev-side", V.sideHtml({ ev, me, host, dropArmed: this.dropArmed }));
    const soon = this.soon?.id === id && this.soon.due !== null
      ? Math.max(0, (this.soon.due - performance.now()) / 1000) : null;
    const ctx = { ev, me, host, cards, busy: this.busy, soon };
    let main;
    if (ev.phase === "lobby") main = V.lobbyHtml(ctx);
    else if (ev.phase === "drafting") main = V.draftHtml(ctx);
    else if (ev.phase === "building") {
      main = V.buildHtml({ ...ctx, build: this.buildOf(id), filter: this.filter, errors: this.errors });
    } else if (ev.phase === "playing") main = V.playingHtml(ctx);
    else main = V.finishedHtml(ctx);
    app.renderRegion("ev-main", main);
  }

  /** Twice a second: the timer counts down between messages; the lobby's list is refreshed
   * with the rooms'. */
  tick() {
    const id = this.app.eventId;
    if (id === null) return;
    const soon = this.soon;
    if (soon && soon.id === id) {
      // The countdown runs while the event is on screen.
      soon.due ??= performance.now() + TABLE_IN_MS;
      if (performance.now() >= soon.due) this.play(soon.r);
      else this.app.render();
    }
    const el = document.getElementById("ev-timer");
    const t = this.timer(id);
    if (el && t !== null) {
      el.textContent = M.timerText(t);
      el.classList.toggle("low", t < 10);
    }
  }

  buildOf(id) {
    if (!this.builds.has(id)) this.builds.set(id, M.newBuild(this.states.get(id)?.ev?.you?.pool, null));
    return this.builds.get(id);
  }

  // ------------------------------------------------------------------ input

  command(what, data) {
    const id = data.ev ?? this.app.eventId;
    const ev = this.states.get(id)?.ev;
    switch (what) {
      case "ev-open":
        this.open(data.ev);
        break;
      case "ev-join":
        this.conn.request({ t: "join", r: data.ev }).then(() => {
          this.followed.add(data.ev);
          this.open(data.ev);
        }).catch(this.app.refused("Could not join the event"));
        break;
      case "ev-watch":
        this.open(data.ev);
        break;
      case "ev-start":
        this.conn.request({ t: "start", r: id }).catch(this.app.refused("The event did not start"));
        break;
      case "ev-pick":
        this.pick(id, ev, data.card);
        break;
      case "ev-in":
      case "ev-out":
        this.builds.set(id, M.moveCard(ev?.you?.pool, this.buildOf(id), data.card, what === "ev-in"));
        this.app.render();
        break;
      case "ev-basic":
        this.builds.set(id, M.stepBasic(this.buildOf(id), data.card, Number(data.step)));
        this.app.render();
        break;
      case "ev-filter":
        this.filter = data.filter ?? "";
        this.app.render();
        break;
      case "ev-submit":
        this.submitDeck(id);
        break;
      case "ev-play":
        this.play(data.room);
        break;
      case "ev-watch-match":
        this.app.go(data.room);
        break;
      case "ev-drop":
        if (!this.dropArmed) {
          this.dropArmed = true;
        } else {
          this.dropArmed = false;
          this.conn.request({ t: "drop", r: id }).catch(this.app.refused("Drop"));
        }
        this.app.render();
        break;
      case "ev-drop-cancel":
        this.dropArmed = false;
        this.app.render();
        break;
      case "ev-leave":
        this.leave(id, ev);
        break;
      default:
        return false;
    }
    return true;
  }

  /** Take the person to their match (join: the seat is held for them). */
  play(room) {
    if (this.soon?.r === room) this.soon = null;
    this.entered.add(room);
    this.app.join(room);
  }

  pick(id, ev, card) {
    if (this.busy || !ev?.you?.pack?.includes(card)) return;
    this.busy = true;
    this.app.render();
    this.conn.request({ t: "pick", r: id, card }).catch((err) => {
      this.busy = false;
      this.app.toast(`That pick was refused: ${err.detail ?? err.message}`);
    });
  }

  submitDeck(id) {
    const text = M.deckText(this.buildOf(id), this.app.catalog?.cards);
    this.busy = true;
    this.app.render();
    this.conn.request({ t: "deck", r: id, text }).then(() => {
      this.errors = [];
      this.app.toast("Deck sent.");
    }).catch((err) => {
      // The deck is kept as it is, to be fixed and sent again.
      const line = serverErrorLine(err.detail);
      this.errors = [`${line ? `line ${line}: ` : ""}${err.detail ?? err.message}`];
    }).finally(() => {
      this.busy = false;
      this.app.render();
    });
  }

  leave(id, ev) {
    this.followed.delete(id);
    this.conn.request({ t: "leave", r: id }).catch(() => {});
    if (ev?.phase === "lobby" && this.conn.seats.has(id)) {
      this.conn.seats.delete(id); // the lobby gives the seat up at once
      this.conn.save();
    }
    this.states.delete(id);
    this.app.go(null);
  }

  /** The host form was sent: create the event, take a seat in it if asked, open it. */
  host(form) {
    const fields = fieldsOf(form);
    this.hostState = fields;
    const config = M.eventConfig(fields);
    this.hosting = true;
    this.app.render();
    this.conn.request({ t: "create_event", config }).then(async (created) => {
      const id = String(created.r);
      this.hosted.add(id);
      localStorage.setItem(HOSTED, JSON.stringify([...this.hosted].slice(-20)));
      if (fields.play !== "off") {
        await this.conn.request({ t: "join", r: id });
        this.followed.add(id);
      }
      this.open(id);
    }).catch(this.app.refused("The event was not created")).finally(() => {
      this.hosting = false;
      this.app.render();
    });
  }

  /** A field of the host form changed: kept, so the lobby's refresh does not lose it. True
   * when the input was the host form's. */
  input(e) {
    const form = e.target.form;
    if (!form || form.id !== "ev-host-form") return false;
    const fields = fieldsOf(form);
    this.hostState = fields;
    // What was typed is on the page already: the region is now what this state draws.
    this.app.regions.set("ev-host", this.hostHtml());
    return true;
  }

  /** Keys on the event screen: the arrow keys move among the pack's cards (Enter or Space,
   * the buttons' own keys, take the focused one). */
  onKey(e) {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key)) return;
    const cards = [...document.querySelectorAll(".ev-pack .ev-card")];
    if (!cards.length) return;
    const at = cards.indexOf(document.activeElement);
    const step = e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 1;
    const next = at < 0 ? 0 : (at + step + cards.length) % cards.length;
    e.preventDefault();
    cards[next].focus();
  }
}
