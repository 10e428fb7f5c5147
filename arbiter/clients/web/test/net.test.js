// The Connection's bookkeeping with a stand-in WebSocket: hello and resume, a resync after a
// checksum mismatch, the redirect to another node (asked for or not), a forgotten session, a
// lost seat, and the heartbeat that notices a silent server (on a mocked clock).
import assert from "node:assert/strict";
import { mock, test } from "node:test";

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
  const conn = new Connection("ws://a/", { storage: store, WebSocketImpl: FakeSocket, heartbeat: null });
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
    const conn = new Connection("ws://a/", { storage: memory(), WebSocketImpl: FakeSocket, heartbeat: null });
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
  const conn = new Connection("ws://a/", { storage: memory(), WebSocketImpl: FakeSocket, heartbeat: null });
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
  const conn = new Connection("ws://a/", { storage: store, WebSocketImpl: FakeSocket, heartbeat: null });
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

// ------------------------------------------------------------------ the heartbeat

/** A connection on a mocked clock: `advance(ms)` moves its `now` and node's timers together,
 * a few milliseconds at a time, letting promise callbacks and socket events run between. */
function onMockClock(url = "ws://a/") {
  mock.timers.enable({ apis: ["setTimeout"] });
  let clock = 0;
  const conn = new Connection(url, { storage: memory(), WebSocketImpl: FakeSocket,
    now: () => clock });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const advance = async (ms) => {
    for (let left = ms; left > 0; left -= 5) {
      const step = Math.min(5, left);
      clock += step;
      mock.timers.tick(step);
      await settle();
    }
  };
  const welcome = async (socket) => {
    await settle();
    const hello = socket.last();
    socket.deliver({ t: "welcome", i: hello.i, v: 1, session: "S1", name: "Ann", seats: [],
      limits: { rate: 50, burst: 200 } });
    await settle();
  };
  return { conn, advance, settle, welcome, now: () => clock };
}

test("a silent server is dropped a ping and its timeout after it last spoke", async (t) => {
  FakeSocket.all = [];
  const { conn, advance, welcome, now } = onMockClock();
  t.after(() => { conn.close(); mock.timers.reset(); });
  const drops = []; // [when, why]
  conn.on((kind, detail) => {
    if (kind === "status" && detail.state === "closed") drops.push([now(), detail.reason]);
  });
  conn.start("Ann");
  const first = FakeSocket.all[0];
  await welcome(first);
  await advance(2500); // nothing heard for an interval: a ping asks
  const ping = first.last();
  assert.equal(ping.t, "ping");
  first.deliver({ t: "ok", i: ping.i }); // answered: still there
  await advance(2500);
  assert.equal(first.last().t, "ping", "a ping an interval after the answer");
  assert.notEqual(first.last().i, ping.i);
  const askedAt = now();
  await advance(1000);
  first.deliver({ t: "rooms", rooms: [] }); // any frame counts as an answer
  await advance(2000);
  assert.equal(conn.stats.silent, 0, "a frame came after the ping: busy, not silent");
  await advance(4000); // no answer, nothing else, from here on
  assert.equal(conn.stats.silent, 1);
  assert.equal(first.closed, 4000);
  // The last frame at 1 s; a ping an interval after it (3.5 s), unanswered for the timeout.
  assert.equal(drops.length, 1);
  assert.equal(drops[0][0] - askedAt, 1000 + 2500 + 2500);
  assert.match(drops[0][1], /did not answer for 2\.5 s/);
  await advance(100); // the first backoff delay, at most
  assert.equal(FakeSocket.all.length, 2, "reconnected");
});

test("after a silent or dead node a redirect sent it to, the page goes back to its entry",
  async (t) => {
    FakeSocket.all = [];
    const { conn, advance, welcome } = onMockClock("ws://entry/");
    t.after(() => { conn.close(); mock.timers.reset(); });
    conn.start("Ann");
    await welcome(FakeSocket.all[0]);
    // After our hello's resume, the room lives on node b: a redirect with no request id.
    FakeSocket.all[0].deliver({ t: "redirect", r: "12", url: "ws://b/" });
    await advance(5);
    assert.equal(FakeSocket.all[1].url, "ws://b/");
    await welcome(FakeSocket.all[1]);
    // b freezes: the ping goes unanswered, and the page goes back to the entry, not to b.
    await advance(5000);
    assert.equal(conn.stats.silent, 1);
    await advance(100);
    assert.equal(FakeSocket.all[2].url, "ws://entry/");
    // The entry sends it to c; c dies (closed), and refuses the next try: back to the entry.
    await welcome(FakeSocket.all[2]);
    FakeSocket.all[2].deliver({ t: "redirect", r: "12", url: "ws://c/" });
    await advance(5);
    await welcome(FakeSocket.all[3]);
    FakeSocket.all[3].close(1006);
    // The close is seen at the first 5 ms step, and the first delay is at most 100 ms.
    await advance(105);
    assert.equal(FakeSocket.all[4].url, "ws://c/", "the node it was on, first");
    FakeSocket.all[4].onopen = null;
    FakeSocket.all[4].close(1006); // refused: never welcomed
    await advance(300);
    assert.equal(FakeSocket.all[5].url, "ws://entry/");
    assert.equal(conn.stats.redirects, 2);
  });

test("a socket not welcomed within the open timeout is dropped", async (t) => {
  FakeSocket.all = [];
  const { conn, advance } = onMockClock();
  t.after(() => { conn.close(); mock.timers.reset(); });
  conn.start("Ann");
  await advance(9995); // the handshake went through, the welcome never comes (a frozen node)
  assert.equal(conn.stats.silent, 0);
  await advance(5);
  assert.equal(conn.stats.silent, 1);
  assert.equal(FakeSocket.all[0].closed, 4000);
});

test("only websocket redirects are followed, and not in a loop", async (t) => {
  FakeSocket.all = [];
  const { conn, advance, welcome } = onMockClock();
  t.after(() => { conn.close(); mock.timers.reset(); });
  conn.start("Ann");
  await welcome(FakeSocket.all[0]);
  FakeSocket.all[0].deliver({ t: "redirect", r: "12", url: "https://evil.example/" });
  await advance(5);
  assert.equal(FakeSocket.all.length, 1, "not a websocket URL: not followed");
  for (let hop = 1; hop <= 5; hop += 1) {
    const here = FakeSocket.all[FakeSocket.all.length - 1];
    here.deliver({ t: "redirect", r: "12", url: `ws://n${hop}/` });
    await advance(5);
    await welcome(FakeSocket.all[FakeSocket.all.length - 1]);
  }
  assert.equal(FakeSocket.all.length, 6);
  const last = FakeSocket.all[5];
  const asked = conn.request({ t: "spectate", r: "12" });
  last.deliver({ t: "redirect", i: last.last().i, r: "12", url: "ws://n6/" });
  await assert.rejects(asked, (err) => err.code === "redirect_loop");
  assert.equal(FakeSocket.all.length, 6, "a sixth hop with no frame of the room between");
  const view = { t: [1, 0, "main1", 0] };
  last.deliver({ t: "s", r: "12", e: 1, q: 1, c: checksum(view), v: view });
  last.deliver({ t: "redirect", r: "12", url: "ws://n6/" });
  await advance(5);
  assert.equal(FakeSocket.all.length, 7, "a frame of the room between: no loop");
});
