// The browser client: the lobby, the waiting room and the table, driven by one Connection.
//
// Everything shown is a function of the replica (the views the server keeps us up to date with),
// the room summaries and the events of the match. Rendering is synchronous after each server
// message, region by region: a region's HTML is rebuilt as a string and written to the page only
// when it changed, so a delta that taps one land rewrites one battlefield.

import { Arrows } from "./arrows.js";
import { BlockPlan, blocksMany } from "./blocks.js";
import { checkDeckList, serverErrorLine } from "./decks.js";
import { moveFocus } from "./focus.js";
import { Motion } from "./motion.js";
import { parseShare, shareLink } from "./share.js";
import { holding, parseStops, passFor, toggleStop } from "./stops.js";
import { EventScreens } from "./event/screen.js";
import { finalBoard } from "./finalboard.js";
import { ReplayScreen, historyHtml, replayGame } from "./replay/screen.js";
import { Connection } from "./net.js";
import { LobbyPeople, panelHtml as peoplePanelHtml } from "./people.js";
import { isRoomId, matchOf } from "./protocol/ids.js";
import * as T from "./table.js";
import { clockText, describeRef, nameOf, names as namesOf, resultText } from "./text.js";

function storage(key) {
  return {
    load() {
      try {
        return JSON.parse(localStorage.getItem(key) ?? "null");
      } catch {
        return null;
      }
    },
    save(state) {
      localStorage.setItem(key, JSON.stringify(state));
    },
  };
}

/** What a lobby or deck form holds, as its fields' names and values; an unchecked box is "off"
 * (FormData leaves it out, and a box whose default is checked would come back checked). */
function formStateOf(form) {
  const state = Object.fromEntries(new FormData(form));
  delete state.deckfile; // a chosen file is read into the deck list (onInput), not kept as is
  for (const box of form.querySelectorAll("input[type=checkbox]")) if (!box.checked) state[box.name] = "off";
  return state;
}

/** p50 and p99 of a list of numbers. */
function percentiles(values) {
  const s = [...values].sort((a, b) => a - b);
  const at = (p) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : 0);
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: s.length ? s[s.length - 1] : 0 };
}

export class App {
  constructor(root, url) {
    this.root = root;
    this.conn = new Connection(url, { storage: storage("arbiter.client") });
    this.catalog = null;
    this.rooms = [];
    this.summaries = new Map(); // match room -> summary
    this.results = new Map(); // match room -> [{res, m, room}]
    this.clocks = new Map(); // match room -> {k, p, at}
    this.logs = new Map(); // match room -> [{text, cls}]
    this.logged = new Set(); // rooms whose snapshot's log lines are shown
    this.notes = new Map(); // match room -> {text, cls}: the banner
    this.answered = new Map(); // room -> serial we answered
    this.watching = new Set(); // match rooms we spectate
    this.autoPass = localStorage.getItem("arbiter.autopass") !== "off";
    // Pay mana by hand: casting and activating ask which permanents pay (a pay_mana
    // decision); off by default, the engine choosing as it pays.
    this.payByHand = localStorage.getItem("arbiter.paybyhand") === "on";
    this.stops = parseStops(localStorage.getItem("arbiter.stops")); // stops.js
    this.stopsOpen = false; // the stops panel is shown
    this.hold = null; // "pass until end of turn / my turn", while it runs
    this.autoPasses = 0;
    this.match = null; // the match room on screen (null: the lobby)
    this.eventId = null; // the Limited event on screen (#/event/ID; event/screen.js)
    this.ev = new EventScreens(this);
    this.people = new LobbyPeople(this.conn, (text) => this.toast(text)); // people.js
    this.rp = new ReplayScreen(this); // #replay=GAME and the lobby's recent matches (replay/screen.js)
    this.replayGame = null; // the game replayed on screen
    this.status = { state: "connecting" };
    this.deckErrors = [];
    this.toastText = "";
    this.popup = null; // {key, acts}
    this.detailId = null;
    this.concedeArmed = false;
    this.blocks = new BlockPlan(); // blocks chosen and not yet declared (blocks.js)
    this.filter = { serial: null, text: "" }; // what is typed to search a long list of choices
    this.live = new Map(); // room -> a copy of its view as it last was before its game ended
    this.regions = new Map(); // region name -> last HTML written
    this.perf = { delta: [], snapshot: [], apply: [] }; // milliseconds to apply (and render)
    this.arrows = new Arrows(); // target and attack arrows over the board (arrows.js)
    this.motion = new Motion(); // short animations of what changed (motion.js)
    this.conn.on((kind, detail) => this.onConnection(kind, detail));
    window.addEventListener("hashchange", () => this.route());
    document.addEventListener("keydown", (e) => this.onKey(e));
    root.addEventListener("click", (e) => this.onClick(e));
    root.addEventListener("submit", (e) => this.onSubmit(e));
    root.addEventListener("input", (e) => this.onInput(e));
    root.addEventListener("change", (e) => this.onInput(e));
    root.addEventListener("mouseover", (e) => this.onHover(e));
    root.addEventListener("focusin", (e) => this.onHover(e));
    setInterval(() => this.tick(), 500);
  }

  start() {
    if (this.conn.session) this.conn.start();
    this.render();
  }

  // ------------------------------------------------------------------ connection events

  onConnection(kind, detail) {
    if (kind === "status") {
      this.status = detail;
      this.render();
      return;
    }
    if (kind === "welcome") {
      this.ev.onConnected();
      this.people.onConnected();
      this.loadCatalog();
      this.route();
      return;
    }
    const start = performance.now();
    this.onMessage(detail.msg);
    this.render();
    const took = detail.applyMs + performance.now() - start;
    if (detail.msg.t === "d") {
      this.perf.delta.push(took);
      this.perf.apply.push(detail.applyMs);
    }
    else if (detail.msg.t === "s") this.perf.snapshot.push(took);
  }

  loadCatalog() {
    if (this.catalog) return;
    this.conn.request({ t: "catalog" }).then((msg) => {
      this.catalog = { cards: msg.cards ?? {}, decks: msg.decks ?? [], variants: msg.variants ?? [] };
      this.render();
    }).catch((err) => this.toast(`No card data from the server: ${err.detail ?? err.message}`));
  }

  onMessage(msg) {
    const room = msg.r === undefined ? null : String(msg.r);
    // A message about no room (an error or a redirect with r nil) concerns no match.
    const match = isRoomId(room) ? matchOf(room) : null;
    switch (msg.t) {
      case "rooms":
        this.rooms = msg.rooms;
        for (const s of msg.rooms) if (this.summaries.has(s.r)) this.summaries.set(s.r, s);
        break;
      case "room": {
        const { t, ...summary } = msg;
        this.summaries.set(room, summary);
        break;
      }
      case "s":
        if (!this.logged.has(room)) {
          this.logged.add(room);
          for (const line of msg.l ?? []) this.log(match, line, "game");
        }
        this.keepLive(room);
        break;
      case "d":
        for (const line of msg.l ?? []) this.log(match, line, "game");
        this.keepLive(room);
        break;
      case "result": {
        const list = this.results.get(match) ?? [];
        list.push({ res: msg.res, m: msg.m ?? {}, room });
        this.results.set(match, list);
        const text = this.resultLine(match, msg.res, msg.m);
        this.log(match, text, "result");
        if (room === match) this.notes.set(match, { text, cls: "over", over: true });
        break;
      }
      case "opened":
        this.log(match, `A subgame begins (Shahrazad, CR 726) in room ${room}, depth ${msg.depth}; the game below is paused.`, "note");
        this.notes.delete(match); // the paused banner says it now
        break;
      case "closed":
        this.log(match, `The subgame in room ${room} ended: ${resultText(msg.res, this.names(match))}. Back to room ${msg.parent}.`, "note");
        this.notes.set(match, { text: `Subgame over: ${resultText(msg.res, this.names(match))}. Back to ${msg.parent === match ? "the main game" : `room ${msg.parent}`}.`, cls: "sub", turns: 1 });
        break;
      case "paused":
        this.log(match, `Room ${room} is paused while the subgame in room ${msg.sub} is played.`, "note");
        break;
      case "resumed":
        this.log(match, `Room ${room} runs again.`, "note");
        break;
      case "restarted": {
        const who = nameOf(this.names(match), msg.starting);
        const text = `The game restarted (CR 724): a fresh game ${msg.g}; ${who} takes the first turn.`;
        this.log(match, text, "note");
        this.notes.set(match, { text, cls: "restart", turns: 1 });
        break;
      }
      case "events":
      case "event":
        this.ev.onMessage(msg);
        break;
      case "chat":
        this.log(match, `${msg.from}: ${msg.text}`, "chat");
        break;
      case "people":
      case "lobby_chat":
        this.people.onMessage(msg);
        break;
      case "clock":
        this.clocks.set(match, { k: msg.k, p: msg.p, at: performance.now() });
        break;
      case "seat_lost":
        this.notes.set(match, { text: "Your seat was taken over from another device: you are watching now.", cls: "over" });
        break;
      case "error":
        if (msg.i === null || msg.i === undefined) this.toast(`Server: ${msg.msg}`);
        break;
      default:
        break;
    }
    this.clearNoteIfOld(match);
  }

  /** Remember the room's board while its game is on, for the final board (finalBoard). A
   * shallow copy: the replica replaces an entry's value, never changes it in place. */
  keepLive(room) {
    const view = this.view(room);
    if (view && !view.x) this.live.set(room, Object.assign(Object.create(null), view));
  }

  clearNoteIfOld(match) {
    // A banner about a restart or a subgame's end stays for the rest of the turn it came in.
    const note = match && this.notes.get(match);
    if (!note || note.turns === undefined) return;
    const view = this.view(this.activeRoom(match));
    const turn = view?.t?.[0];
    if (note.turn === undefined) note.turn = turn;
    else if (turn !== undefined && turn > note.turn) this.notes.delete(match);
  }

  log(match, text, cls) {
    if (!match) return;
    const list = this.logs.get(match) ?? [];
    list.push({ text, cls });
    if (list.length > 500) list.splice(0, list.length - 500);
    this.logs.set(match, list);
  }

  resultLine(match, res, m) {
    const names = this.names(match);
    let text = `Game ${res.game ?? ""} over. ${resultText(res, names)}.`;
    if (m && m.best_of > 1) {
      const score = (m.wins ?? []).map((w, i) => `${names.get(i)} ${w}`).join(", ");
      text += ` Match (best of ${m.best_of}): ${score}.${m.over ? " The match is over." : " The next game starts now."}`;
    }
    return text;
  }

  // ------------------------------------------------------------------ state for the screens

  variants() {
    return this.catalog?.variants ?? [];
  }

  names(match) {
    return namesOf(this.summaries.get(match));
  }

  mySeat(match) {
    return this.conn.seats.get(match)?.seat ?? null;
  }

  /** The open rooms of a match, the main game first and the innermost subgame last. */
  roomsOf(match) {
    const out = [];
    for (const [rid, rv] of this.conn.tracker.rooms) {
      if (matchOf(rid) === match && !rv.closed) out.push([rv.view.g?.depth ?? 0, rid]);
    }
    return out.sort((a, b) => a[0] - b[0]).map(([, rid]) => rid);
  }

  activeRoom(match) {
    const rooms = this.roomsOf(match);
    return rooms.length ? rooms[rooms.length - 1] : match;
  }

  view(room) {
    return this.conn.tracker.rooms.get(room)?.view ?? null;
  }

  /** The decision waiting for us in the match, if any: [room, decision]. */
  decision(match) {
    let found = null;
    for (const rid of this.roomsOf(match)) {
      const rv = this.conn.tracker.rooms.get(rid);
      if (rv.actions && !rv.stale && rv.actions.serial !== this.answered.get(rid)) found = [rid, rv.actions];
    }
    return found;
  }

  // ------------------------------------------------------------------ routing

  route() {
    // #replay=GAME: a finished game played back (replay/screen.js).
    this.replayGame = replayGame(location.hash);
    if (this.replayGame !== null) {
      this.match = null;
      this.eventId = null;
      if (this.conn.ready) this.rp.open(this.replayGame);
      this.render();
      return;
    }
    this.rp.close();
    const shared = parseShare(location.hash); // #room=ID, #watch=ID (share.js)
    if (shared) {
      this.openShared(shared);
      return;
    }
    // #/event/ID: a Limited event's screen (event/screen.js).
    const event = /^#\/event\/([^?]*)$/.exec(location.hash);
    this.eventId = event && isRoomId(event[1]) ? event[1] : null;
    if (this.eventId !== null) {
      this.match = null;
      if (this.conn.ready) this.ev.follow(this.eventId);
      this.render();
      return;
    }
    // #/room/ID, or #/room/ID?invite=TOKEN: the link a creator hands to the spectators of a
    // room whose spectators see every hand (docs/protocol.md section 7).
    const m = /^#\/room\/([^?]*)(?:\?invite=(.+))?$/.exec(location.hash);
    const match = m && isRoomId(m[1]) ? matchOf(m[1]) : null; // a mistyped link: the lobby
    const invite = m && m[2] ? decodeURIComponent(m[2]) : undefined;
    if (match !== this.match) {
      this.popup = null;
      this.detailId = null;
      this.concedeArmed = false;
    }
    this.match = match;
    if (!this.conn.ready) {
      this.render();
      return;
    }
    if (match === null) {
      this.refreshRooms();
      this.ev.refresh();
      this.rp.refreshHistory();
    } else if (!this.conn.seats.has(match) && !this.watching.has(match)
               && !this.conn.tracker.rooms.has(match)) {
      // A room's link: watch it (a seat we hold was re-attached by the server on hello).
      this.watching.add(match);
      const spectate = invite ? { t: "spectate", r: match, token: invite } : { t: "spectate", r: match };
      this.conn.request(spectate).catch((err) => {
        this.watching.delete(match);
        this.toast(`Cannot watch room ${match}: ${err.detail ?? err.message}`);
      });
    }
    this.render();
  }

  /** A shared link: take a seat in the room (the first free one, or the one this browser holds)
   * or watch it; either way the page then shows it at its own address, #/room/ID. */
  openShared({ as, match }) {
    if (!this.conn.ready) {
      this.render(); // route() runs again once the server has welcomed us
      return;
    }
    if (as === "watch" || this.conn.seats.has(match)) {
      location.replace(`#/room/${match}`);
      return;
    }
    this.conn.request({ t: "join", r: match }).then(() => {
      this.watching.delete(match);
      location.replace(`#/room/${match}`);
    }).catch((err) => {
      this.toast(`No seat for you in room ${match} (${err.detail ?? err.message}): watching it instead.`);
      location.replace(`#/room/${match}`);
    });
  }

  go(match) {
    location.hash = match === null ? "" : `#/room/${match}`;
  }

  refreshRooms() {
    if (this.conn.ready) this.conn.request({ t: "rooms" }).catch(() => {});
  }

  tick() {
    if (this.match === null && this.eventId === null && this.conn.ready
        && document.visibilityState !== "hidden") {
      this.ticks = (this.ticks ?? 0) + 1;
      if (this.ticks % 4 === 0) {
        this.refreshRooms(); // the lobby's lists, every 2 s
        this.ev.refresh();
      }
      if (this.ticks % 20 === 0) this.rp.refreshHistory(); // finished games, every 10 s
    }
    this.ev.tick();
    if (this.match !== null && this.clocks.get(this.match)?.p !== null && this.clocks.has(this.match)) {
      this.renderTopbar();
    }
  }

  toast(text) {
    this.toastText = text;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      this.toastText = "";
      this.render();
    }, 6000);
    this.render();
  }

  // ------------------------------------------------------------------ requests

  refused(what) {
    return (err) => this.toast(`${what}: ${err.detail ?? err.message}`);
  }

  act(room, serial, id, manual = false) {
    this.answered.set(room, serial);
    this.popup = null;
    this.sendAct(room, serial, id, manual, "That action was refused");
    this.render();
  }

  /** Send an answer to decision `serial`. Refused, or its connection lost before the answer
   * came (a cluster node died: it may never have been applied), the decision is ours to answer
   * again if it is offered again: a lost answer kept as answered hid the decision for good and
   * the game waited on us forever. Applied, the game has moved on and offers a new serial. */
  sendAct(room, serial, id, manual, what) {
    this.conn.act(room, serial, id, manual).catch((err) => {
      if (this.answered.get(room) === serial) this.answered.delete(room);
      this.refused(what)(err);
      this.render();
    });
  }

  /** The person chose action `a` of `decision` in `room`. Blocks are held in the page until
   * they are declared (blocks.js); everything else is sent at once. */
  choose(room, decision, a) {
    if (decision.kind === "blockers" && a.kind === "block") {
      const view = this.view(room) ?? {};
      this.blocks.toggle(room, a, describeRef(a.ref, view, this.names(matchOf(room))),
        blocksMany(view[String(a.obj)], this.catalog));
      this.popup = null;
      this.render();
      return;
    }
    if (decision.kind === "blockers" && a.kind === "done" && this.blocks.room === room
        && this.blocks.picks.length) {
      this.blocks.declare(); // renderTable sends the blocks, one decision at a time
      this.popup = null;
      this.render();
      return;
    }
    // Only a cast or an activation has mana to pay: those carry the pay-by-hand setting.
    this.act(room, decision.serial, a.id, this.payByHand && (a.kind === "cast" || a.kind === "activate"));
  }

  /** Blocks are chosen in the page for this blockers decision and it offers no "done" (the
   * engine waits for requirements, CR 509.1c): the page's own Declare sends them. */
  declarable(pending) {
    return pending[1].kind === "blockers" && this.blocks.room === pending[0]
      && this.blocks.picks.length > 0 && !pending[1].actions.some((a) => a.kind === "done");
  }

  /** While declaring held blocks: answer the room's new blockers decision with the next. */
  sendBlocks(pending) {
    if (!pending || !this.blocks.sending || pending[0] !== this.blocks.room
        || pending[1].kind !== "blockers") return false;
    const { action, dropped } = this.blocks.next(pending[1]);
    const names = this.names(matchOf(pending[0]));
    for (const p of dropped) {
      this.toast(`${describeRef(["o", p.obj], this.view(pending[0]) ?? {}, names)} can no longer block ${p.attacker}.`);
    }
    if (!action) {
      // No "done" yet: a requirement still asks for blocks (CR 509.1c); the person adds them.
      if (!dropped.length) this.toast("These blocks are not a legal declaration yet: add the blocks it requires.");
      return false;
    }
    this.act(pending[0], pending[1].serial, action.id);
    return true;
  }

  createRoom(form) {
    const data = new FormData(form);
    const variant = data.get("variant");
    const info = this.variants().find((v) => v.name === variant) ?? { seats: [2, 2] };
    const n = Math.max(info.seats[0], Math.min(info.seats[1], Number(data.get("seats")) || 2));
    const config = { name: String(data.get("name") || `${this.conn.name}'s table`).slice(0, 40), variant,
      best_of: Number(data.get("best_of")), spectators: data.get("spectators") };
    if (variant === "team_vs_team") {
      config.seats = Array.from({ length: n }, (_, i) => ({ team: i < n / 2 ? 0 : 1 }));
    } else if (variant === "emperor") {
      config.seats = Array.from({ length: n }, (_, i) => ({ team: Math.floor(i / 3), emperor: i % 3 === 1 }));
    } else {
      config.seats = n;
    }
    const minutes = Number(data.get("clock"));
    if (minutes > 0) config.clock = { total: minutes * 60, inc: Number(data.get("inc")) || 0 };
    const range = Number(data.get("range"));
    if (range > 0) config.range_of_influence = range;
    if (n > 2 && data.get("attack")) config.attack = data.get("attack");
    if (data.get("format")) config.format = data.get("format");
    for (const option of ["planechase", "vanguard"]) if (data.get(option) === "on") config[option] = true;
    const deck = this.deckFrom(data);
    if (!deck) return;
    const bots = data.get("bots") === "on";
    const strategy = data.get("strategy") || "heuristic";
    this.busy = true;
    this.conn.request({ t: "create", config }).then(async (created) => {
      const room = created.r;
      await this.conn.request({ t: "join", r: room });
      this.go(room);
      if (created.invite) {
        // Only those given this link can watch: its spectators see every hand.
        const link = `${location.origin}${location.pathname}#/room/${room}?invite=${encodeURIComponent(created.invite)}`;
        this.notes.set(room, { text: `Spectators here see every hand: only those you give this link can watch: ${link}`, cls: "sub" });
      }
      await this.submitDeck(room, deck);
      if (bots) {
        for (let seat = 0; seat < n; seat++) {
          if (seat !== this.mySeat(room)) await this.addBot(room, seat, strategy);
        }
      }
    }).catch(this.refused("The room was not created")).finally(() => {
      this.busy = false;
      this.render();
    });
  }

  deckFrom(data) {
    if (data.get("decksource") === "text") {
      const text = String(data.get("decktext") ?? "");
      const checked = checkDeckList(text, this.catalog?.cards);
      this.deckErrors = checked.errors;
      if (checked.errors.length) {
        this.render();
        return null;
      }
      return { text };
    }
    return { ready: String(data.get("deck")) };
  }

  submitDeck(room, deck) {
    this.deckErrors = [];
    return this.conn.request({ t: "deck", r: room, ...deck }).then(() => {
      this.deckErrors = [];
    }).catch((err) => {
      const line = serverErrorLine(err.detail);
      this.deckErrors = [{ line: line ?? 0, text: "", why: err.detail ?? err.message }];
      this.toast(`Deck refused: ${err.detail ?? err.message}`);
    });
  }

  addBot(room, seat, strategy = "heuristic") {
    const msg = { t: "bot", r: room, strategy };
    if (seat !== null && seat !== undefined) msg.seat = seat;
    return this.conn.request(msg).catch((err) => {
      this.toast(`No bot: ${err.detail ?? err.message}`);
    });
  }

  join(room, seat) {
    const msg = { t: "join", r: room };
    if (seat !== undefined && seat !== null) msg.seat = seat;
    this.conn.request(msg).then(() => {
      this.watching.delete(room);
      this.go(room);
    }).catch(this.refused("Could not take the seat"));
  }

  concede() {
    if (!this.concedeArmed) {
      this.concedeArmed = true;
      this.render();
      return;
    }
    this.concedeArmed = false;
    this.conn.request({ t: "concede", r: this.match }).catch(this.refused("Concession"));
    this.render();
  }

  drawOp(op) {
    this.conn.request({ t: "draw", r: this.activeRoom(this.match), op })
      .catch(this.refused("Draw"));
  }

  leave() {
    const match = this.match;
    const seated = this.conn.seats.has(match);
    this.watching.delete(match);
    this.conn.request({ t: "leave", r: match }).catch(() => {});
    if (seated && (this.summaries.get(match)?.state ?? "waiting") === "waiting") {
      this.conn.seats.delete(match); // a waiting room frees the seat at once
      this.conn.save();
    }
    if (!seated || this.summaries.get(match)?.state !== "playing") {
      for (const [rid, rv] of this.conn.tracker.rooms) if (matchOf(rid) === match) rv.closed = true;
    }
    if (!this.ev.backFrom(match)) this.go(null); // an event's match: back to the event
  }

  togglePayByHand() {
    this.payByHand = !this.payByHand;
    localStorage.setItem("arbiter.paybyhand", this.payByHand ? "on" : "off");
    this.render();
  }

  toggleAutoPass() {
    this.autoPass = !this.autoPass;
    localStorage.setItem("arbiter.autopass", this.autoPass ? "on" : "off");
    this.render();
  }

  // ------------------------------------------------------------------ input

  onKey(e) {
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement
      || e.target instanceof HTMLSelectElement;
    if (e.key === "Escape") {
      if (this.popup || this.concedeArmed) {
        this.popup = null;
        this.concedeArmed = false;
        this.render();
      } else if (typing) {
        e.target.blur();
      }
      return;
    }
    if (this.replayGame !== null) {
      if (!typing || e.target.id === "rp-step") this.rp.onKey(e);
      return;
    }
    if (this.eventId !== null && !typing) this.ev.onKey(e);
    if (typing || this.match === null || e.ctrlKey || e.metaKey || e.altKey) return;
    if (moveFocus(e, this.root)) return; // arrow keys from card to card (focus.js)
    // At the table Space is the pass key wherever the focus is: it never presses the focused
    // button (a Concede clicked once stays focused) nor uses a card clicked to read it (issue
    // 29). Enter uses the focused card or button, for the keyboard.
    const space = e.key === " " && this.screen === "table";
    const place = e.target.closest?.("[data-obj],[data-player]");
    if (place && e.key === "Enter") {
      e.preventDefault();
      this.onClick({ target: place });
      return;
    }
    if (!space && (e.key === " " || e.key === "Enter") && e.target.closest?.("button,a")) return;
    const pending = this.decision(this.match);
    if (e.key === " " || e.key === "Enter") {
      if (space) e.preventDefault();
      // One key passes priority (or ends a declaration, or keeps a hand).
      if (pending) {
        const primary = T.primaryAction(pending[1]);
        if (primary) {
          e.preventDefault();
          this.choose(pending[0], pending[1], primary);
        } else if (this.declarable(pending)) {
          e.preventDefault();
          this.command("declare-blocks", {});
        }
      }
    } else if (/^[1-9]$/.test(e.key)) {
      const acts = this.popup ? this.popup.acts : pending && T.keyedActions(pending[1], this.filterFor(pending[1]));
      const a = acts?.[Number(e.key) - 1];
      if (a && pending) {
        e.preventDefault();
        this.choose(pending[0], pending[1], a);
      }
    } else if (e.key === "a" || e.key === "A") {
      this.toggleAutoPass();
    } else if (e.key === "/" || e.key === "c") {
      e.preventDefault();
      this.root.querySelector("#chat-text")?.focus();
    }
  }

  onClick(e) {
    const el = e.target.closest("[data-do],[data-obj],[data-player]");
    if (!el) {
      if (this.popup) {
        this.popup = null;
        this.render();
      }
      return;
    }
    const act = el.dataset.do;
    if (act) {
      this.command(act, el.dataset);
      return;
    }
    const key = el.dataset.obj !== undefined ? `o${el.dataset.obj}` : `p${el.dataset.player}`;
    this.detailId = el.dataset.obj ?? this.detailId;
    const pending = this.match !== null ? this.decision(this.match) : null;
    if (!pending) {
      this.render();
      return;
    }
    const view = this.view(pending[0]) ?? {};
    if (pending[1].kind === "blockers" && el.dataset.obj !== undefined && this.blocks.room === pending[0]
        && !blocksMany(view[el.dataset.obj], this.catalog) && this.blocks.takeBack(el.dataset.obj)) {
      this.render(); // a chosen blocker clicked again: taken back (one that blocks several
      return; // offers its blocks again instead, each taken back by choosing it again)
    }
    const acts = T.actionsByPlace(pending[1]).get(key) ?? [];
    if (acts.length === 1) {
      this.choose(pending[0], pending[1], acts[0]);
    } else if (acts.length > 1) {
      const box = el.getBoundingClientRect();
      this.popup = { key, acts, x: box.left, y: box.bottom };
      this.render();
      this.root.querySelector("#popup button")?.focus();
    }
  }

  command(what, data) {
    const pending = this.match !== null ? this.decision(this.match) : null;
    switch (what) {
      case "act": {
        const a = pending?.[1].actions.find((x) => x.id === Number(data.id));
        if (a) this.choose(pending[0], pending[1], a);
        break;
      }
      case "declare-blocks":
        if (pending && this.declarable(pending)) {
          this.blocks.declare(); // renderTable sends the blocks, one decision at a time
          this.render();
        }
        break;
      case "join":
        this.join(data.room, data.seat === undefined ? undefined : Number(data.seat));
        break;
      case "watch":
        if (this.conn.seats.has(data.room) && !this.roomsOf(data.room).length) {
          // Back to a seat we stopped following: joining again re-attaches us to it.
          this.conn.request({ t: "join", r: data.room }).catch(this.refused("Back to the seat"));
        }
        this.go(data.room);
        break;
      case "lobby":
        this.go(null);
        break;
      case "leave":
        this.leave();
        break;
      case "concede":
        this.concede();
        break;
      case "draw":
        this.drawOp(data.op);
        break;
      case "autopass":
        this.toggleAutoPass();
        break;
      case "paybyhand":
        this.togglePayByHand();
        break;
      case "motion":
        this.motion.toggle();
        this.render();
        break;
      case "stops":
        this.stopsOpen = !this.stopsOpen;
        this.render();
        break;
      case "stop":
        this.stops = toggleStop(this.stops, data.side, data.step);
        localStorage.setItem("arbiter.stops", JSON.stringify(this.stops));
        this.render();
        break;
      case "hold": {
        const view = this.view(this.activeRoom(this.match)) ?? {};
        this.hold = { until: data.until, turn: view.t?.[0] };
        this.render(); // passes now, as the hold says
        break;
      }
      case "bot":
        this.addBot(this.match, Number(data.seat), this.root.querySelector("#bot-strategy")?.value);
        break;
      case "refresh":
        this.refreshRooms();
        break;
      case "forget":
        this.conn.close();
        this.conn.forget();
        this.status = { state: "closed" };
        this.render();
        break;
      case "copy-link":
        navigator.clipboard?.writeText(location.href).then(() => this.toast("Link copied."), () => {});
        break;
      case "share": {
        const link = shareLink(location, data.as, this.match);
        const said = data.as === "room" ? "take a seat" : "watch";
        navigator.clipboard?.writeText(link).then(() => this.toast(`Copied: ${link} (opens room ${this.match} to ${said})`),
          () => this.toast(`The link to ${said}: ${link}`));
        break;
      }
      case "mute":
        this.people.toggleMute(data.name);
        this.render();
        break;
      default:
        if (what.startsWith("rp-")) this.rp.command(what, data); // a replay's (replay/screen.js)
        else this.ev.command(what, data); // an event's (event/screen.js)
        break;
    }
  }

  onSubmit(e) {
    e.preventDefault();
    const form = e.target;
    if (form.id === "name-form") {
      const name = String(new FormData(form).get("name") ?? "").trim().slice(0, 40);
      if (name) this.conn.start(name);
    } else if (form.id === "ev-host-form") {
      this.ev.host(form);
    } else if (form.id === "create-form") {
      this.createRoom(form);
    } else if (form.id === "deck-form") {
      const deck = this.deckFrom(new FormData(form));
      if (deck) this.submitDeck(this.match, deck).then(() => this.render());
    } else if (form.id === "choice-form") {
      // Enter in the search box of a long list chooses the first match.
      const pending = this.match !== null ? this.decision(this.match) : null;
      const first = pending && T.matching(pending[1], this.filterFor(pending[1]))[0];
      if (first) this.choose(pending[0], pending[1], first);
    } else if (form.id === "lobby-chat-form") {
      this.people.say(form.querySelector("input"));
    } else if (form.id === "chat-form") {
      const input = form.querySelector("input");
      const text = input.value.trim();
      if (text) {
        this.conn.request({ t: "chat", r: this.match, text: text.slice(0, 500) }).catch(this.refused("Chat"));
        input.value = "";
      }
    }
  }

  /** What is typed in the search box of `decision`'s long list ("" for a new decision). */
  filterFor(decision) {
    return this.filter.serial === decision.serial ? this.filter.text : "";
  }

  onInput(e) {
    const t = e.target;
    if (t.id === "choice-filter") {
      const pending = this.match !== null ? this.decision(this.match) : null;
      if (!pending) return;
      this.filter = { serial: pending[1].serial, text: t.value };
      this.render();
      // The region was written again: the caret goes back to the end of what was typed.
      const box = document.getElementById("choice-filter");
      if (box && document.activeElement === box) box.setSelectionRange(box.value.length, box.value.length);
      return;
    }
    if (t.id === "people-search") {
      if (e.type === "input") this.people.search(t.value, () => this.render());
      return;
    }
    if (this.ev.input(e) || this.rp.input(e)) return;
    const form = t.form;
    if (!form || (form.id !== "create-form" && form.id !== "deck-form")) return;
    // Everything typed or chosen is kept: the lobby rewrites its form from this state whenever
    // the room list or the server's answers change it (before issue 29 a pasted deck list and
    // the room's name were lost to the next refresh).
    this.formState = formStateOf(form);
    if (t.name === "deckfile") {
      if (e.type === "change") this.readDeckFile(t); // a file input fires both events
      return;
    }
    if (t.name === "decktext") {
      this.deckErrors = t.value.trim() ? checkDeckList(t.value, this.catalog?.cards).errors : [];
      this.renderRegion("deck-errors", T.deckErrorsHtml(this.deckErrors));
    } else if (t.name === "decksource" && t.value === "ready") {
      this.deckErrors = [];
    }
    const typed = e.type === "input" && (t instanceof HTMLTextAreaElement
      || (t instanceof HTMLInputElement && t.type !== "checkbox" && t.type !== "radio"));
    if (!typed) {
      this.render(); // a choice may change the form (a variant's seats, a deck list's box)
      return;
    }
    // What was typed is on the page already: the region is now what this state draws, and
    // is not rewritten under the caret.
    const [name, html] = this.formRegion();
    if (name) this.regions.set(name, html);
  }

  /** A deck list file chosen in the deck form: its text becomes the deck list, checked as if
   * pasted (a file that is no text, or too long for a deck request, is said so). */
  readDeckFile(input) {
    const file = input.files?.[0];
    if (!file) return;
    const done = (text, errors) => {
      this.formState = { ...(this.formState ?? {}), decksource: "text", decktext: text };
      this.deckErrors = errors;
      this.render();
    };
    if (file.size > 20000) {
      done(this.formState?.decktext ?? "", [{ line: 0, text: "", why: `${file.name} is too long for a deck list (20000 characters at most)` }]);
      return;
    }
    file.text().then(
      (text) => done(text, text.trim() ? checkDeckList(text, this.catalog?.cards).errors : []),
      () => done(this.formState?.decktext ?? "", [{ line: 0, text: "", why: `${file.name} could not be read` }]),
    );
  }

  /** The region holding the form on the screen, and its HTML for the current state. */
  formRegion() {
    if (this.screen === "lobby") return ["create", this.createRegionHtml()];
    if (this.screen === "waiting") return ["waiting-body", this.waitingRegionHtml()];
    return [null, ""];
  }

  createRegionHtml() {
    return T.createHtml(this.catalog, this.formState ?? {}, this.busy, this.deckErrors);
  }

  waitingRegionHtml() {
    const match = this.match;
    return T.waitingHtml({ match, summary: this.summaries.get(match), me: this.mySeat(match),
      catalog: this.catalog, formState: this.formState ?? {}, deckErrors: this.deckErrors,
      link: location.href, watching: !this.conn.seats.has(match) });
  }

  onHover(e) {
    const el = e.target.closest?.("[data-obj]");
    if (el && el.dataset.obj !== this.detailId) {
      this.detailId = el.dataset.obj;
      this.renderDetail();
    }
  }

  // ------------------------------------------------------------------ rendering

  /** Write `html` into the element with id `name` if it differs from what is there; keeps
   * the keyboard focus on the element with the same data-key. */
  renderRegion(name, html) {
    if (this.regions.get(name) === html) return;
    const el = document.getElementById(name);
    if (!el) return;
    const focused = document.activeElement;
    const key = el.contains(focused) ? focused.dataset?.key : undefined;
    el.innerHTML = html;
    this.regions.set(name, html);
    // Regions inside this one were written afresh with it.
    for (const inner of el.querySelectorAll("[id]")) this.regions.delete(inner.id);
    if (key) el.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus();
  }

  setScreen(name, html) {
    if (this.screen === name) return;
    this.screen = name;
    this.regions.clear();
    this.root.innerHTML = html;
  }

  render() {
    const status = this.status.state;
    this.renderToast();
    if (!this.conn.session && status !== "open") {
      this.setScreen("name", T.nameScreen(this.conn.name));
      this.root.querySelector("input[name=name]")?.focus();
      return;
    }
    this.people.follow(this.eventId === null && this.match === null); // only on the lobby
    if (this.eventId !== null) {
      this.ev.render();
      return;
    }
    if (this.replayGame !== null) {
      this.rp.render();
      return;
    }
    if (this.match === null) {
      this.setScreen("lobby", T.lobbyFrame());
      this.renderRegion("conn", T.connectionHtml(this.status, this.conn));
      this.renderRegion("lobby-rooms", T.roomsHtml(this.rooms, this.conn.seats));
      this.renderRegion("create", this.createRegionHtml());
      this.renderRegion("lobby-events", this.ev.lobbyHtml());
      this.renderRegion("ev-host", this.ev.hostHtml());
      this.renderRegion("people-panel", peoplePanelHtml());
      this.renderRegion("lobby-people", this.people.peopleHtml());
      this.people.renderChat();
      this.renderRegion("lobby-history", historyHtml(this.rp.history));
      return;
    }
    const match = this.match;
    const summary = this.summaries.get(match);
    if (!summary || summary.state === "waiting" || !this.conn.tracker.rooms.has(match)) {
      this.setScreen("waiting", T.waitingFrame());
      this.renderRegion("conn", T.connectionHtml(this.status, this.conn));
      this.renderRegion("waiting-body", this.waitingRegionHtml());
      return;
    }
    this.setScreen("table", T.tableFrame());
    this.renderTable();
  }

  renderToast() {
    const el = document.getElementById("toast");
    if (el && el.textContent !== this.toastText) {
      el.textContent = this.toastText;
      el.hidden = !this.toastText;
    }
  }

  tableContext() {
    const match = this.match;
    const room = this.activeRoom(match);
    const current = this.view(room) ?? {};
    const view = current.x ? finalBoard(this.live.get(room), current) : current;
    const me = this.mySeat(match);
    const names = this.names(match);
    const planned = this.blocks.room === room ? this.blocks.planned() : new Map();
    const pending = this.decision(match);
    return { match, room, view, me, names, catalog: this.catalog, summary: this.summaries.get(match),
      pending, planned, declarable: pending ? this.declarable(pending) : false,
      filter: pending ? this.filterFor(pending[1]) : "" };
  }

  renderTable() {
    const ctx = this.tableContext();
    const { pending } = ctx;
    this.blocks.follow(ctx.room, pending && pending[0] === ctx.room ? pending[1] : null, ctx.view.t?.[2]);
    if (this.sendBlocks(pending)) return; // act() rendered the table again
    if (this.hold && !holding(this.hold, ctx.view, ctx.me)) this.hold = null;
    if (pending && pending[1].kind === "priority" && pending[1].actions.some((a) => a.kind === "pass")
        && passFor(ctx.view, ctx.me, { onlyPassing: T.onlyPassing(pending[1]), autoPass: this.autoPass,
          stops: this.stops, hold: this.hold })) {
      // Passing (CR 117.3d) is all there is to do (mana with nothing to spend it on empties at
      // the end of the step, CR 500.4), or the step is none the player stops at, or a hold
      // runs (stops.js): pass without asking, as the player chose.
      this.autoPasses += 1;
      const pass = pending[1].actions.find((a) => a.kind === "pass");
      this.answered.set(pending[0], pending[1].serial);
      this.sendAct(pending[0], pending[1].serial, pass.id, false, "Pass");
      ctx.pending = null;
    }
    const places = ctx.pending ? T.actionsByPlace(ctx.pending[1]) : new Map();
    ctx.places = places;
    this.renderTopbar(ctx);
    this.renderRegion("banner", T.bannerHtml(ctx, this.notes.get(ctx.match), this.roomsOf(ctx.match),
      this.results.get(ctx.match)));
    this.renderBoard(ctx);
    this.renderRegion("actions", T.actionsHtml(ctx, this.autoPass, this.hold)
      + (this.stopsOpen ? T.stopsHtml(this.stops) : ""));
    this.renderRegion("popup", T.popupHtml(this.popup));
    this.renderLog();
    this.renderDetail(ctx);
    this.arrows.update(ctx.view, this.detailId);
    this.motion.after(ctx.room, ctx.view);
  }

  /** The seats, the stack and the hand of `ctx`: the live table's, or a replay's step. */
  renderBoard(ctx) {
    const frame = T.seatsFrame(ctx);
    if (this.regions.get("seats") !== frame) {
      for (const key of [...this.regions.keys()]) if (key.startsWith("seat-")) this.regions.delete(key);
      this.renderRegion("seats", frame);
    }
    for (const pid of T.seatOrder(ctx.view, ctx.me)) {
      const el = document.getElementById(`seat-${pid}`);
      const cls = T.seatClass(ctx, pid);
      if (el && el.className !== cls) el.className = cls;
      this.renderRegion(`seat-${pid}`, T.seatHtml(ctx, pid));
    }
    this.renderRegion("stack", T.stackHtml(ctx));
    this.renderRegion("hand", T.handHtml(ctx));
  }

  renderTopbar(ctx = this.tableContext()) {
    this.renderRegion("conn", T.connectionHtml(this.status, this.conn));
    this.renderRegion("topbar", T.topbarHtml(ctx, this.clockNow(ctx.match), {
      autoPass: this.autoPass, payByHand: this.payByHand, concedeArmed: this.concedeArmed,
      watching: !this.conn.seats.has(ctx.match), motion: this.motion.on }));
  }

  clockNow(match) {
    const c = this.clocks.get(match);
    if (!c) return null;
    const elapsed = performance.now() - c.at;
    return { p: c.p, k: c.k.map((ms, i) => (i === c.p ? ms - elapsed : ms)).map(clockText) };
  }

  renderLog() {
    const list = this.logs.get(this.match) ?? [];
    const el = document.getElementById("log");
    if (!el) return;
    const shown = Number(el.dataset.count ?? 0);
    if (shown === list.length && el.dataset.match === this.match) return;
    if (!el.dataset.watched) {
      // Follow the end of the log unless the person scrolled up to read; measured on scroll,
      // not on every message, so that rendering a delta never forces a layout.
      el.dataset.watched = "1";
      this.logPinned = true;
      el.addEventListener("scroll", () => {
        this.logPinned = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
      }, { passive: true });
    }
    if (el.dataset.match !== this.match || shown > list.length) {
      el.innerHTML = "";
      el.dataset.match = this.match;
    }
    const from = el.childElementCount;
    const frag = document.createDocumentFragment();
    for (const entry of list.slice(from)) {
      const p = document.createElement("p");
      p.className = `l-${entry.cls}`;
      p.textContent = entry.text;
      frag.appendChild(p);
    }
    el.appendChild(frag);
    el.dataset.count = String(list.length);
    if ((this.logPinned || from === 0) && !this.scrollQueued) {
      this.scrollQueued = true;
      requestAnimationFrame(() => {
        this.scrollQueued = false;
        el.scrollTop = el.scrollHeight;
      });
    }
  }

  renderDetail(ctx = null) {
    if (this.screen !== "table") return;
    const c = ctx ?? this.tableContext();
    const o = this.detailId !== null ? c.view[this.detailId] : undefined;
    this.arrows.highlight(this.detailId); // the arrows of the card read here stand out
    this.renderRegion("detail", o ? T.detailPanel(this.detailId, o, c)
      : T.keysHelp(!this.conn.seats.has(c.match)));
  }

  /** Figures for bench/web.py: apply-and-render times and the connection's counts. */
  figures() {
    return { delta: percentiles(this.perf.delta), snapshot: percentiles(this.perf.snapshot),
      arrows: percentiles(this.arrows.times), stats: { ...this.conn.stats }, autoPasses: this.autoPasses };
  }
}

