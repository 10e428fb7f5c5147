// Arrows over the board: from each spell or ability on the stack to what it targets (CR 115.1,
// chosen as it was put there, 601.2c), and from each attacking creature to the player or
// planeswalker it attacks (CR 506.3, 508.1b). The view says both (`tg` of a stack object, `at`
// of an attacker: docs/protocol.md); the arrows only draw them, the cards say them in words.
//
// One SVG layer inside the board, drawn in the animation frame after a render (reading the
// cards' places forces a layout: done once per frame, never inside the render of a delta) and
// again when the window is resized. Its coordinates are the board's content box, so the arrows
// scroll with the board and need no redraw on scroll. Arrows of the object under the pointer,
// the keyboard focus or the last tap are highlighted, the others faded.

const SVG = "http://www.w3.org/2000/svg";
const NUMERIC = /^\d+$/;

/** "o12" or "p1": the key of a reference ["o", 12] / ["p", 1] (docs/protocol.md). */
function refKey(ref) {
  return Array.isArray(ref) && (ref[0] === "o" || ref[0] === "p") ? `${ref[0]}${ref[1]}` : null;
}

/** The arrows `view` calls for, as {kind: "target" | "attack", from: object id, to: "o<id>" |
 * "p<seat>"}: a spell or ability with several targets has one arrow to each. Pure. */
export function arrowsOf(view) {
  const out = [];
  for (const key of Object.keys(view)) {
    if (!NUMERIC.test(key)) continue;
    const o = view[key];
    if (o.z === "s" && Array.isArray(o.tg)) {
      for (const t of o.tg) {
        const to = refKey(t);
        if (to) out.push({ kind: "target", from: key, to });
      }
    } else if (o.z === "b" && Array.isArray(o.at)) {
      const to = refKey(o.at);
      if (to) out.push({ kind: "attack", from: key, to });
    }
  }
  return out;
}

/** A path from box `a` to box `b` (both relative to the board): from the edge of `a` facing
 * `b` to the edge of `b` facing `a`, bowed a little so that arrows between the same rows do not
 * lie on each other. */
export function pathBetween(a, b) {
  const ax = a.x + a.w / 2;
  const ay = a.y + a.h / 2;
  const bx = b.x + b.w / 2;
  const by = b.y + b.h / 2;
  const edge = (box, cx, cy, tx, ty) => {
    // Where the line from the box's centre toward (tx, ty) leaves the box.
    const dx = tx - cx;
    const dy = ty - cy;
    const sx = dx ? (box.w / 2) / Math.abs(dx) : Infinity;
    const sy = dy ? (box.h / 2) / Math.abs(dy) : Infinity;
    const s = Math.min(sx, sy, 1);
    return [cx + dx * s, cy + dy * s];
  };
  const [x1, y1] = edge(a, ax, ay, bx, by);
  const [x2, y2] = edge(b, bx, by, ax, ay);
  const mx = (x1 + x2) / 2 - (y2 - y1) * 0.15;
  const my = (y1 + y2) / 2 + (x2 - x1) * 0.15;
  const r = (n) => Math.round(n * 10) / 10;
  return `M${r(x1)} ${r(y1)} Q${r(mx)} ${r(my)} ${r(x2)} ${r(y2)}`;
}

const MARKERS = `<defs>${["target", "attack"].map((k) => `<marker id="ah-${k}" viewBox="0 0 10 10" refX="8" refY="5"
 markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="ah-${k}"/></marker>`).join("")}</defs>`;

export class Arrows {
  constructor() {
    this.list = []; // the arrows of the last render (arrowsOf)
    this.focus = null; // the object whose arrows are highlighted
    this.queued = false;
    this.shown = 0; // arrows on the page now
    this.times = []; // milliseconds each drawing took (bench/web.py)
    window.addEventListener("resize", () => this.schedule());
  }

  /** After a render of the table: the arrows of `view`, drawn in the next frame. */
  update(view, focus) {
    this.list = arrowsOf(view);
    this.focus = focus;
    if (this.list.length || this.shown) this.schedule();
  }

  /** Highlight the arrows from object `id` (null: none): classes only, no layout. */
  highlight(id) {
    if (id === this.focus) return;
    this.focus = id;
    const svg = document.getElementById("arrows");
    if (svg) this.mark(svg);
  }

  schedule() {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      this.draw();
    });
  }

  draw() {
    const start = performance.now();
    const board = document.querySelector(".board");
    if (!board) {
      this.shown = 0;
      return;
    }
    let svg = document.getElementById("arrows");
    if (!svg) {
      svg = document.createElementNS(SVG, "svg");
      svg.id = "arrows";
      svg.setAttribute("class", "arrows");
      svg.setAttribute("aria-hidden", "true"); // the cards say it in words (cards.js flags)
      board.prepend(svg);
    }
    const base = board.getBoundingClientRect();
    const boxOf = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left - base.left + board.scrollLeft, y: r.top - base.top + board.scrollTop,
        w: r.width, h: r.height };
    };
    const find = (key) => (key[0] === "p"
      ? board.querySelector(`.seat-head[data-player="${key.slice(1)}"]`)
      : board.querySelector(`#seats [data-obj="${key.slice(1)}"], #stack [data-obj="${key.slice(1)}"]`));
    const paths = [];
    for (const arrow of this.list) {
      const from = find(`o${arrow.from}`);
      const to = find(arrow.to);
      if (!from || !to || from === to) continue; // a target no one here may see (a hand)
      paths.push(`<path class="arrow ${arrow.kind}" data-from="${arrow.from}" data-to="${arrow.to}"
 d="${pathBetween(boxOf(from), boxOf(to))}" marker-end="url(#ah-${arrow.kind})"/>`);
    }
    svg.innerHTML = paths.length ? MARKERS + paths.join("") : "";
    this.shown = paths.length;
    this.mark(svg);
    this.times.push(performance.now() - start);
  }

  mark(svg) {
    let any = false;
    for (const p of svg.querySelectorAll("path.arrow")) {
      const on = p.dataset.from === this.focus;
      p.classList.toggle("hl", on);
      any ||= on;
    }
    svg.classList.toggle("focused", any);
  }
}
