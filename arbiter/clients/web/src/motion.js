// Short animations for what changed: a card that arrived in a zone (a card moving between zones
// is a new object there, CR 400.7, so it is a new id in that zone) slides in, and a life total
// that changed (CR 119.3) flashes with the change ("-3", "+4") rising from it.
//
// They only decorate: the page is already in its new state when they start, they hold nothing
// up (a click or a key goes through at once, and ends those running: skip), they last under a
// second, and they are off when
// the system asks for reduced motion or the player turns them off (the "Animations" button,
// kept in localStorage). Regions are rewritten as HTML (app.js), which would cut an animation
// short: one still running is put back on the new element where it had got to.

const NUMERIC = /^\d+$/;
const LIFE_MS = 900;
const ARRIVE_MS = 320;

/** What changed from `before` to `after` (each {objects: Map id -> zone, life: Map seat ->
 * life}): the ids new in their zone and the seats whose life changed, with by how much. Pure. */
export function changes(before, after) {
  const arrived = [];
  const life = [];
  if (!before) return { arrived, life };
  for (const [id, zone] of after.objects) {
    if (before.objects.get(id) !== zone) arrived.push(id);
  }
  for (const [pid, total] of after.life) {
    const was = before.life.get(pid);
    if (was !== undefined && was !== total) life.push({ pid, change: total - was });
  }
  return { arrived, life };
}

/** The objects (id -> zone) and life totals (seat -> life) of a view. */
export function stateOf(view) {
  const objects = new Map();
  const life = new Map();
  for (const key of Object.keys(view)) {
    const v = view[key];
    if (NUMERIC.test(key)) objects.set(key, v.z);
    else if (key[0] === "p" && NUMERIC.test(key.slice(1)) && typeof v?.l === "number") {
      life.set(Number(key.slice(1)), v.l);
    }
  }
  return { objects, life };
}

export class Motion {
  constructor(storage = localStorage) {
    this.storage = storage;
    this.on = storage.getItem("arbiter.motion") !== "off";
    this.room = null;
    this.last = null; // stateOf the room's view at the last render
    this.running = []; // {selector, cls, attrs, until, start}
    this.reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)") ?? { matches: false };
    this.apply();
    const skip = () => this.skip();
    document.addEventListener("keydown", skip, true);
    document.addEventListener("pointerdown", skip, true);
  }

  /** A key or a click: the animations running end at once (their elements as they end). */
  skip() {
    if (!this.running.length) return;
    for (const r of this.running) document.querySelector(r.selector)?.classList.remove(r.cls);
    this.running = [];
  }

  /** Animations are shown: the player's setting, and the system's reduced motion. */
  enabled() {
    return this.on && !this.reduced.matches;
  }

  toggle() {
    this.on = !this.on;
    this.storage.setItem("arbiter.motion", this.on ? "on" : "off");
    this.apply();
  }

  apply() {
    // The CSS turns every animation and transition off under .no-motion (style.css).
    document.documentElement.classList.toggle("no-motion", !this.on);
  }

  /** After a render of `room`'s table showing `view`: start the animations of what changed
   * since the last render, and put back those still running on rewritten elements. */
  after(room, view) {
    const now = performance.now();
    const state = stateOf(view);
    const fresh = room === this.room ? changes(this.last, state) : { arrived: [], life: [] };
    if (room !== this.room) this.running = [];
    this.room = room;
    this.last = state;
    if (!this.enabled()) {
      this.running = [];
      return;
    }
    for (const id of fresh.arrived) {
      this.running.push({ selector: `.board [data-obj="${id}"]`, cls: "arrive", attrs: null,
        start: now, until: now + ARRIVE_MS });
    }
    for (const { pid, change } of fresh.life) {
      this.running.push({ selector: `#seat-${pid} .life`, cls: change < 0 ? "life-down" : "life-up",
        attrs: { "data-change": change < 0 ? `\u2212${-change}` : `+${change}` },
        start: now, until: now + LIFE_MS });
    }
    this.running = this.running.filter((r) => r.until > now);
    for (const r of this.running) {
      const el = document.querySelector(r.selector);
      if (!el || el.classList.contains(r.cls)) continue;
      for (const [k, v] of Object.entries(r.attrs ?? {})) el.setAttribute(k, v);
      // A rewritten element starts the animation where the old one had got to.
      if (r.start < now) el.style.animationDelay = `${Math.round(r.start - now)}ms`;
      el.classList.add(r.cls);
    }
  }
}
