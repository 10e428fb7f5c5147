// A viewer's replica of one room's view, kept by deltas and checked by a checksum; and the
// tracker of every room a connection follows. A port of protocol/views.py and
// protocol/tracker.py (docs/protocol.md, section 9): the same ops, the same checks, the same
// answers (which room needs a resync).

import { canonicalEntry, viewKey } from "./codec.js";
import { crc32 } from "./crc32.js";

export function entryHash(key, value) {
  return crc32(canonicalEntry(key, value));
}

/** The checksum of a whole view (keys as decoded), computed from scratch. */
export function checksum(view) {
  let sum = 0;
  for (const key of Object.keys(view)) sum = (sum + entryHash(key, view[key])) >>> 0;
  return sum;
}

const isMap = (x) => typeof x === "object" && x !== null && !Array.isArray(x)
  && !(x instanceof Uint8Array);

function validKey(key) {
  return typeof key === "string" || Number.isSafeInteger(key);
}

export class ViewState {
  constructor(view) {
    this.view = Object.create(null);
    this.hashes = new Map();
    this.checksum = 0;
    if (view) for (const key of Object.keys(view)) this.set(key, view[key]);
  }

  set(key, value) {
    if (value === null || value === undefined) {
      this.delete(key);
      return;
    }
    const h = entryHash(key, value);
    const old = this.hashes.get(key) ?? 0;
    this.checksum = (this.checksum - old + h) >>> 0;
    this.view[key] = value;
    this.hashes.set(key, h);
  }

  /** A patch op (protocol version 2): the map at `key` with each field set, or removed where
   * the value is nil; a new object, so a renderer holding the old one still sees the old. */
  patch(key, fields) {
    const old = this.view[key];
    if (!isMap(old) || !isMap(fields)) {
      throw new Error(`cannot patch ${JSON.stringify(key)} with ${JSON.stringify(fields)}`);
    }
    const value = { ...old };
    for (const field of Object.keys(fields)) {
      if (fields[field] === null || fields[field] === undefined) delete value[field];
      else value[field] = fields[field];
    }
    this.set(key, value);
  }

  delete(key) {
    if (!(key in this.view)) return;
    delete this.view[key];
    this.checksum = (this.checksum - this.hashes.get(key)) >>> 0;
    this.hashes.delete(key);
  }

  /** Apply a delta's ops in order; throws on a malformed op (then ask for a snapshot). */
  apply(ops) {
    if (!Array.isArray(ops)) throw new Error("delta ops must be an array");
    for (const op of ops) {
      if (!Array.isArray(op) || op.length < 2) {
        throw new Error(`malformed delta op ${JSON.stringify(op)}`);
      }
      if (op[0] === "p" && op.length === 3 && Array.isArray(op[1]) && op[1].length
          && op[1].every(validKey)) {
        for (const key of op[1]) this.patch(viewKey(key), op[2]); // the same patch, several keys
        continue;
      }
      if (!validKey(op[1])) throw new Error(`malformed delta op ${JSON.stringify(op)}`);
      if (op[0] === "s" && op.length === 3) this.set(viewKey(op[1]), op[2]);
      else if (op[0] === "d" && op.length === 2) this.delete(viewKey(op[1]));
      else if (op[0] === "p" && op.length === 3) this.patch(viewKey(op[1]), op[2]);
      else throw new Error(`malformed delta op ${JSON.stringify(op)}`);
    }
  }
}

export class RoomView {
  constructor(room, epoch, seq, state) {
    this.room = room;
    this.epoch = epoch;
    this.seq = seq;
    this.state = state;
    this.actions = null; // the latest legal actions, while they are current
    this.result = null; // set when the room's game (or subgame) ended
    this.closed = false;
    this.stale = false; // waiting for a snapshot after a gap or a checksum mismatch
    this.deltas = 0;
  }

  get view() {
    return this.state.view;
  }
}

/** Feed it every decoded server message in order; feed() returns the id of a room that needs
 * a resync (a gap in the sequence, a checksum that does not match, a malformed op), or null. */
export class Tracker {
  constructor() {
    this.rooms = new Map();
    this.mismatches = 0;
  }

  feed(msg) {
    const kind = msg.t;
    const room = msg.r;
    if (kind === "s") {
      const state = new ViewState(msg.v);
      const rv = new RoomView(String(room), msg.e, msg.q, state);
      const old = this.rooms.get(String(room));
      if (old && !old.closed) rv.deltas = old.deltas;
      this.rooms.set(String(room), rv);
      if (state.checksum !== msg.c) return this.#stale(rv);
      return null;
    }
    if (typeof room !== "string") return null;
    const rv = this.rooms.get(room);
    if (!rv) return null;
    if (kind === "d") {
      if (rv.stale || msg.q <= rv.seq) return null;
      if (msg.q !== rv.seq + 1) return this.#stale(rv);
      try {
        rv.state.apply(msg.o);
      } catch {
        return this.#stale(rv);
      }
      rv.seq = msg.q;
      rv.deltas += 1;
      if (msg.o.some((op) => op[1] === "w")) rv.actions = null;
      if ("a" in msg) rv.actions = msg.a;
      if (rv.state.checksum !== msg.c) return this.#stale(rv);
    } else if (kind === "a") {
      rv.actions = msg.d;
    } else if (kind === "closed") {
      rv.closed = true;
      rv.actions = null;
      rv.result = msg.res;
    } else if (kind === "result") {
      rv.result = msg.res;
    }
    return null;
  }

  /** The client answered decision `serial` in `room`: its actions are used up. */
  acted(room, serial) {
    const rv = this.rooms.get(room);
    if (rv && rv.actions && rv.actions.serial === serial) rv.actions = null;
  }

  #stale(rv) {
    rv.stale = true;
    rv.actions = null;
    this.mismatches += 1;
    return rv.room;
  }

  /** Where each open room stands, for hello's resume field after a reconnect. */
  positions() {
    const out = {};
    for (const [room, rv] of this.rooms) {
      if (!rv.closed && !rv.stale) out[room] = [rv.epoch, rv.seq];
    }
    return out;
  }
}
