// One connection to an Arbiter server, as docs/protocol.md asks of any client: requests matched
// to their answers by request id, a verified replica of every followed room (protocol/views.js),
// a resync when a delta is missing or a checksum disagrees, reconnection with the session and
// where each room stands, the redirect to the node that holds a room, and a heartbeat that
// notices a server gone silent.

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

/** Heartbeats (docs/protocol.md section 1): a frozen or cut-off server keeps the socket open
 * and says nothing, and a browser cannot send WebSocket pings. When nothing has come for
 * `interval` ms a `ping` request asks; when nothing comes in the `timeout` ms after it, the
 * connection is dropped (no closing handshake with a server that does not answer) and the
 * page reconnects, to the URL it started from. A socket that is not welcomed within `open`
 * ms is dropped the same way (a frozen node still accepts TCP connections). */
export const HEARTBEAT = { interval: 2500, timeout: 2500, open: 10000 };

/** Redirects in a row with no frame of a room between: past this, a loop (docs/protocol.md
 * section 14); the redirect is refused and the connection stays where it is. */
const MAX_HOPS = 5;

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
  constructor(url, { storage = null, WebSocketImpl = globalThis.WebSocket, now,
    heartbeat = HEARTBEAT } = {}) {
    this.url = url;
    // Where the page started (its own server, or a cluster's load balancer): after losing a
    // node a redirect sent us to, we go back there, and it sends us on to the room's node.
    this.entry = url;
    this.heartbeat = heartbeat; // null: no heartbeat
    this.heardAt = 0; // when the current socket last gave us anything (or was opened)
    this.pingAt = null; // when our unanswered ping went out
    this.beat = null; // the heartbeat's timer
    this.hops = 0; // redirects in a row with no frame of a room between
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
      reconnects: 0, redirects: 0, silent: 0 };
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
      if (ws !== this.ws) return;
      this.heardAt = this.now();
      if (event.data instanceof ArrayBuffer) this.frame(event.data);
    };
    ws.onclose = (event) => {
      if (ws === this.ws) this.lost(`closed (${event.code}${event.reason ? ": " + event.reason : ""})`);
    };
    ws.onerror = () => {}; // a close event follows and says what happened
    this.heardAt = this.now();
    this.pingAt = null;
    this.watch(ws);
  }

  /** The heartbeat of socket `ws` (HEARTBEAT): one timer, set for the next thing due. */
  watch(ws) {
    clearTimeout(this.beat);
    if (!this.heartbeat) return; // off (tests of other things)
    const { interval, timeout, open } = this.heartbeat;
    const check = () => {
      if (ws !== this.ws) return;
      const now = this.now();
      let due;
      if (!this.ready) {
        due = this.heardAt + open;
        if (now >= due) return this.silent(ws, `no welcome within ${open / 1000} s`);
      } else if (this.pingAt !== null && this.heardAt < this.pingAt) {
        due = this.pingAt + timeout;
        if (now >= due) return this.silent(ws, `the server did not answer for ${timeout / 1000} s`);
      } else {
        due = this.heardAt + interval;
        if (now >= due) {
          this.pingAt = now;
          this.sendRaw(ws, { t: "ping" }).catch(() => {});
          due = now + timeout;
        }
      }
      this.beat = setTimeout(check, Math.max(0, due - now));
    };
    this.beat = setTimeout(check, this.ready ? interval : open);
  }

  /** `ws` fell silent: drop it without a goodbye and reconnect, to the entry URL first (a
   * frozen node would hold us until it thawed) and at the first backoff delay (the silence
   * was waited out already; escalated delays would only lengthen the failover). */
  silent(ws, reason) {
    this.stats.silent += 1;
    ws.onclose = null;
    ws.onmessage = null;
    ws.onopen = null;
    try {
      ws.close(4000, "silent");
    } catch {
      // already closing: nothing to say to it
    }
    this.delays = null;
    this.url = this.entry;
    this.lost(`dropped: ${reason}`);
  }

  lost(reason) {
    clearTimeout(this.beat);
    // A node a redirect sent us to that never welcomed us (it died; the cluster does not know
    // yet): back to the entry URL, which sends us on once the room has a new node.
    if (!this.ready && this.url !== this.entry) this.url = this.entry;
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
    clearTimeout(this.beat);
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
    this.watch(ws);
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
    if ((msg.t === "s" || msg.t === "d") && msg.r !== undefined) this.hops = 0;
    const id = msg.i;
    const waiting = id === undefined || id === null ? undefined : this.pending.get(id);
    if (waiting && FINAL.has(msg.t)) {
      this.pending.delete(id);
      if (msg.t === "error") waiting.reject(new RequestError(msg.code, msg.msg, waiting.msg));
      else if (msg.t === "redirect") this.redirect(msg, waiting);
      else waiting.resolve(msg);
    } else if (msg.t === "redirect" && (id === undefined || id === null)) {
      // A room we follow lives on another node now (after our hello's resume, or moved while
      // we followed it): go there, as for a request's redirect (docs/protocol.md section 14).
      this.redirect(msg, null);
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
    // Only a websocket URL is followed: a forged message cannot send our session elsewhere.
    const refused = typeof msg.url !== "string" || !/^wss?:\/\/[^\s/]+/i.test(msg.url)
      ? ["bad_redirect", `not a websocket URL: ${String(msg.url).slice(0, 80)}`]
      : this.hops >= MAX_HOPS ? ["redirect_loop", `${MAX_HOPS} redirects in a row`] : null;
    if (refused) {
      waiting?.reject(new RequestError(refused[0], refused[1], waiting.msg));
      return;
    }
    this.hops += 1;
    this.stats.redirects += 1;
    this.url = msg.url;
    if (waiting) this.queue.push(waiting);
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
