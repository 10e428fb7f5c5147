// The Connection's bookkeeping with a stand-in WebSocket: hello and resume, a resync after a
// checksum mismatch, the redirect to another node, a forgotten session, a lost seat.
import assert from "node:assert/strict";
import { test } from "node:test";

import { decodeFrame, encodeMessage, MARK } from "../src/protocol/codec.js";
import { checksum } from "../src/protocol/views.js";
import { Connection } from "../src/net.js";

class FakeSocket {
  static all = [];

  constructor(url) {
    this.url = url;
    this.sent = [];
    this.closed = null;
    FakeSocket.all.push(this);
    queueMicrotask(() => this.onopen?.());
  }

  send(bytes) {
    this.sent.push(decodeFrame(bytes));
  }

  close(code = 1000, reason = "") {
    this.closed = code;
    queueMicrotask(() => this.onclose?.({ code, reason }));
  }

  /** The server sends `msg`. */
  deliver(msg) {
    const bytes = encodeMessage(msg);
    this.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) });
  }

  last() {
    return this.sent[this.sent.length - 1];
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function memory(initial = null) {
  let state = initial;
  return { load: () => state, save: (s) => { state = s; }, get: () => state };
}

async function welcomed(conn, socket, seats = []) {
  await tick();
  const hello = socket.last();
  socket.deliver({ t: "welcome", i: hello.i, v: 1, session: "S1", name: "Ann", seats,
    limits: { rate: 50, burst: 200 } });
  await tick();
  return hello;
}

test("hello, a request and its reply, and the session kept in storage", async () => {
  FakeSocket.all = [];
  const store = memory();
  const conn = new Connection("ws://a/", { storage: store, WebSocketImpl: FakeSocket });
  conn.start("Ann");
  const hello = await welcomed(conn, FakeSocket.all[0], [["7", 1, "T7"]]);
  assert.deepEqual(hello.v, [1, 2], "version 2: deltas may patch a map entry");
  assert.equal(hello.name, "Ann");
  assert.equal(store.get().session, "S1");
  assert.deepEqual(store.get().seats, { 7: { seat: 1, token: "T7" } });
  const reply = conn.request({ t: "rooms" });
  const sent = FakeSocket.all[0].last();
  assert.equal(sent.t, "rooms");
  FakeSocket.all[0].deliver({ t: "rooms", i: sent.i, rooms: [] });
  assert.deepEqual((await reply).rooms, []);
  const refused = conn.request({ t: "join", r: "9" });
  FakeSocket.all[0].deliver({ t: "error", i: FakeSocket.all[0].last().i, code: "unknown_room", msg: "no" });
  await assert.rejects(refused, (err) => err.code === "unknown_room");
});

test("a checksum mismatch asks for a resync; a dropped connection resumes where it stood",
  async () => {
    FakeSocket.all = [];
    const conn = new Connection("ws://a/", { storage: memory(), WebSocketImpl: FakeSocket });
    conn.start("Ann");
    await welcomed(conn, FakeSocket.all[0]);
    const ws = FakeSocket.all[0];
    const view = { t: [1, 0, "main1", 0] };
    ws.deliver({ t: "s", r: "3", e: 11, q: 4, c: checksum(view), v: view });
    ws.deliver({ t: "d", r: "3", q: 5, c: 12345, o: [["s", "w", [0, "priority"]]] });
    assert.deepEqual(ws.last(), { t: "resync", r: "3", i: ws.last().i });
    assert.equal(conn.stats.desyncs, 1);
    ws.deliver({ t: "s", r: "3", e: 11, q: 6, c: checksum(view), v: view, i: ws.last().i });
    ws.close(1006);
    await new Promise((resolve) => setTimeout(resolve, 150)); // the first backoff delay
    const again = FakeSocket.all[1];
    assert.ok(again, "it reconnects");
    await tick();
    // The room id is a string key "3" (decoded here with the mark of a digit-only string).
    assert.deepEqual(again.last().resume, { [MARK + "3"]: [11, 6] });
    assert.equal(again.last().session, "S1");
    conn.close();
  });

test("a redirect moves the connection to the room's node and asks again", async () => {
  FakeSocket.all = [];
  const conn = new Connection("ws://a/", { storage: memory(), WebSocketImpl: FakeSocket });
  conn.start("Ann");
  await welcomed(conn, FakeSocket.all[0]);
  const answer = conn.request({ t: "spectate", r: "12" });
  const first = FakeSocket.all[0];
  first.deliver({ t: "redirect", i: first.last().i, r: "12", url: "ws://b:9000/" });
  await tick();
  const second = FakeSocket.all[1];
  assert.equal(second.url, "ws://b:9000/");
  assert.equal(first.closed, 1000);
  const hello = await welcomed(conn, second);
  assert.equal(hello.session, "S1", "the same session on the other node");
  const again = second.last();
  assert.equal(again.t, "spectate");
  assert.equal(again.r, "12");
  second.deliver({ t: "joined", i: again.i, r: "12", seat: null, token: null });
  assert.equal((await answer).t, "joined");
  assert.equal(conn.stats.redirects, 1);
});

test("a forgotten session starts afresh and reclaims seats by their tokens", async () => {
  FakeSocket.all = [];
  const store = memory({ session: "OLD", name: "Ann", seats: { 5: { seat: 0, token: "T5" } } });
  const conn = new Connection("ws://a/", { storage: store, WebSocketImpl: FakeSocket });
  conn.start();
  await tick();
  const ws = FakeSocket.all[0];
  assert.equal(ws.last().session, "OLD");
  ws.deliver({ t: "error", i: ws.last().i, code: "unknown_session", msg: "no such session" });
  await tick();
  assert.equal(ws.last().name, "Ann");
  ws.deliver({ t: "welcome", i: ws.last().i, v: 1, session: "NEW", name: "Ann", seats: [], limits: {} });
  await tick();
  assert.deepEqual(ws.last(), { t: "join", r: "5", token: "T5", i: ws.last().i });
  ws.deliver({ t: "seat_lost", r: "5", seat: 0 });
  assert.equal(conn.seats.has("5"), false);
  assert.deepEqual(store.get().seats, {});
});
