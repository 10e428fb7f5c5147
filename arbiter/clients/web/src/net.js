// One connection to an Arbiter server, as docs/protocol.md asks of any client: requests matched
// to their answers by request id, a verified replica of every followed room (protocol/views.js),
// a resync when a delta is missing or a checksum disagrees, reconnection with the session and
// where each room stands, and the redirect to the node that holds a room.

import { decodeFrame, encodeMessage } from "./protocol/codec.js";
import { Tracker } from "./protocol/views.js";

export const PROTOCOL_VERSIONS = [1, 2]; // 2: deltas may patch a map entry (views.js)

export class RequestError extends Error {
  constructor(code, message, request) {
    super(`${code}: ${message}`);
    this.code = code;
    this.detail = message;
    this.request = request;
  }
}

/** Delays between reconnection attempts: 0.1 s doubling to 5 s, each cut by up to half. */
function* backoff() {
  let delay = 100;
  for (;;) {
    yield delay * (1 - 0.5 * Math.random());
    delay = Math.min(5000, delay * 2);
  }
}

// Answers that end a request: a reply carrying its id. A delta carrying it acknowledges an act,
// a concession or a draw (section 2); a snapshot answers a resync.
const FINAL = new Set(["welcome", "rooms", "created", "joined", "ok", "s", "d", "error",
  "catalog", "redirect", "events", "people", "replay", "history"]);

/**
 * Events (`on(fn)`: fn(kind, detail)):
 *   "status"  {state: "connecting" | "open" | "closed", reason}
 *   "welcome" the welcome message (session, name, seats)
 *   "message" every decoded server message, after the replica has taken it in; detail.stale
 *             names a room that needed a resync, detail.applyMs the time the replica took
 */
export class Connection {
  constructor(url, { storage = null, WebSocketImpl = globalThis.WebSocket, now } = {}) {
    this.url = url;
    this.storage = storage; // {load(), save(state)}: session, name, seats
    this.WebSocketImpl = WebSocketImpl;
    this.now = now ?? (() => globalThis.performance.now());
    this.tracker = new Tracker();
    this.session = null;
    this.name = null;
    this.seats = new Map(); // match room -> {seat, token}
    this.limits = {};
    this.listeners = [];
    this.pending = new Map(); // request id -> {msg, resolve, reject}
    this.nextId = 1;
    this.ws = null;
    this.ready = false; // welcomed on the current socket
    this.closing = false;
    this.delays = null;
    this.timer = null;
    this.queue = []; // requests waiting for a welcomed connection
    this.stats = { frames: 0, bytes: 0, deltas: 0, snapshots: 0, desyncs: 0, resyncs: 0,
      reconnects: 0, redirects: 0 };
    const saved = storage?.load();
    if (saved) {
      this.session = saved.session ?? null;
      this.name = saved.name ?? null;
      for (const [room, seat] of Object.entries(saved.seats ?? {})) this.seats.set(room, seat);
    }
  }

  on(fn) {
    this.listeners.push(fn);
  }

  emit(kind, detail) {
    for (const fn of this.listeners) fn(kind, detail);
  }

  save() {
    this.storage?.save({ session: this.session, name: this.name,
      seats: Object.fromEntries(this.seats) });
  }

  /** Connect as `name` (a new session) or with the stored session. */
  start(name) {
    if (name) this.name = name;
    this.closing = false;
    this.open();
  }

  /** Forget the session (a new name starts a new one). */
  forget() {
    this.session = null;
    this.seats.clear();
    this.save();
  }

  open() {
    clearTimeout(this.timer);
    this.ready = false;
    this.emit("status", { state: "connecting" });
    const ws = new this.WebSocketImpl(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => this.hello(ws);
    ws.onmessage = (event) => {
      if (ws === this.ws && event.data instanceof ArrayBuffer) this.frame(event.data);
    };
    ws.onclose = (event) => {
      if (ws === this.ws) this.lost(`closed (${event.code}${event.reason ? ": " + event.reason : ""})`);
    };
    ws.onerror = () => {}; // a close event follows and says what happened
  }

  lost(reason) {
    this.ws = null;
    this.ready = false;
    // Requests in flight may or may not have been applied: their callers are told, and the
    // replica will say what happened once we are back.
    for (const [id, p] of this.pending) {
      if (p.msg.t !== "hello") p.reject(new RequestError("connection_lost", reason, p.msg));
      this.pending.delete(id);
    }
    this.emit("status", { state: "closed", reason });
    if (this.closing) return;
    this.delays ??= backoff();
    this.timer = setTimeout(() => {
      this.stats.reconnects += 1;
      this.open();
    }, this.delays.next().value);
  }

  close() {
    this.closing = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
  }

  /** Drop the connection as a network failure would (for tests of reconnection). */
  drop() {
    this.ws?.close(4000, "dropped by the client");
  }

  hello(ws) {
    const msg = { t: "hello", v: PROTOCOL_VERSIONS };
    if (this.session) {
      msg.session = this.session;
      const resume = this.tracker.positions();
      if (Object.keys(resume).length) msg.resume = resume;
    } else {
      msg.name = this.name ?? "Player";
    }
    this.sendRaw(ws, msg).then((welcome) => this.welcomed(ws, welcome)).catch((err) => {
      if (err.code === "unknown_session" && this.name) {
        // The server forgot us (a long absence): a new session, and our seats by their tokens.
        this.session = null;
        const reclaim = [...this.seats];
        this.sendRaw(ws, { t: "hello", v: PROTOCOL_VERSIONS, name: this.name })
          .then((welcome) => this.welcomed(ws, welcome, reclaim))
          .catch((e) => this.emit("status", { state: "closed", reason: e.message }));
      } else {
        this.emit("status", { state: "closed", reason: err.message });
      }
    });
  }

  welcomed(ws, welcome, reclaim = []) {
    if (ws !== this.ws) return;
    this.session = welcome.session;
    this.name = welcome.name;
    this.limits = welcome.limits ?? {};
    this.bucket = { tokens: (this.limits.burst ?? 20) * 0.9, at: this.now() };
    for (const [room, seat, token] of welcome.seats) this.seats.set(room, { seat, token });
    this.save();
    this.ready = true;
    this.delays = null;
    this.emit("status", { state: "open" });
    this.emit("welcome", welcome);
    for (const [room, ticket] of reclaim) {
      this.request({ t: "join", r: room, token: ticket.token }).catch(() => {
        this.seats.delete(room);
        this.save();
      });
    }
    const queued = this.queue.splice(0);
    for (const q of queued) this.dispatch(q);
  }

  frame(data) {
    let msg;
    try {
      msg = decodeFrame(new Uint8Array(data));
    } catch (err) {
      console.warn("undecodable frame from the server", err);
      return;
    }
    this.stats.frames += 1;
    this.stats.bytes += data.byteLength;
    const start = this.now();
    const stale = this.tracker.feed(msg);
    const applyMs = this.now() - start;
    if (msg.t === "d") this.stats.deltas += 1;
    else if (msg.t === "s") this.stats.snapshots += 1;
    else if (msg.t === "joined" && msg.seat !== null && msg.seat !== undefined) {
      this.seats.set(msg.r, { seat: msg.seat, token: msg.token });
      this.save();
    } else if (msg.t === "seat_lost") {
      this.seats.delete(msg.r);
      this.save();
    }
    if (stale !== null) {
      this.stats.desyncs += 1;
      this.resync(stale);
    }
    const id = msg.i;
    const waiting = id === undefined || id === null ? undefined : this.pending.get(id);
    if (waiting && FINAL.has(msg.t)) {
      this.pending.delete(id);
      if (msg.t === "error") waiting.reject(new RequestError(msg.code, msg.msg, waiting.msg));
      else if (msg.t === "redirect") this.redirect(msg, waiting);
      else waiting.resolve(msg);
    }
    this.emit("message", { msg, stale, applyMs, bytes: data.byteLength });
  }

  resync(room) {
    this.stats.resyncs += 1;
    this.request({ t: "resync", r: room }).catch(() => {});
  }

  /** The room lives on another node: move there, say hello with our session (and where our
   * rooms stand), then ask again. */
  redirect(msg, waiting) {
    this.stats.redirects += 1;
    this.url = msg.url;
    this.queue.push(waiting);
    const old = this.ws;
    this.ws = null;
    this.ready = false;
    if (old) {
      old.onclose = null;
      old.close(1000, "redirected");
    }
    this.open();
  }

  sendRaw(ws, msg) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { msg, resolve, reject });
      ws.send(encodeMessage({ ...msg, i: id }));
    });
  }

  /** Send a request; resolves with its answer, rejects with a RequestError. */
  request(msg) {
    return new Promise((resolve, reject) => {
      const entry = { msg, resolve, reject };
      if (this.ready) this.dispatch(entry);
      else this.queue.push(entry);
    });
  }

  dispatch(entry) {
    const ws = this.ws;
    if (!ws || !this.ready) {
      this.queue.push(entry);
      return;
    }
    // Pace requests within the server's announced rate, so a busy page is slowed rather
    // than disconnected (docs/protocol.md, welcome.limits).
    const rate = (this.limits.rate ?? 50) * 0.9;
    const now = this.now();
    const b = this.bucket;
    b.tokens = Math.min((this.limits.burst ?? 20) * 0.9, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    if (b.tokens < 1) {
      setTimeout(() => this.dispatch(entry), ((1 - b.tokens) / rate) * 1000);
      return;
    }
    b.tokens -= 1;
    const id = this.nextId++;
    this.pending.set(id, entry);
    ws.send(encodeMessage({ ...entry.msg, i: id }));
  }

  /** `manual`: pay the mana of the spell or ability this action casts or activates by hand
   * (a pay_mana decision follows; docs/protocol.md section 5). Left out unless true. */
  act(room, serial, action, manual = false) {
    this.tracker.acted(room, serial);
    const msg = { t: "act", r: room, s: serial, a: action };
    if (manual) msg.manual = true;
    return this.request(msg);
  }
}
