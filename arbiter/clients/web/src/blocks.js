// The blocks a person is choosing, kept in the page until they declare them (CR 509.1a).
//
// On the wire a blockers decision is answered one block at a time and the engine keeps no way
// to take a block back before the declaration (docs/protocol.md, "Decisions"), so a block sent
// at the first click could be neither marked as undeclared nor taken back (issue 29). The page
// therefore holds the chosen blocks itself and sends them when the person declares.
//
// A pick is one (blocker, attacker) pair: most creatures block one attacker, so choosing
// another attacker for the same blocker replaces its pick; a creature that "can block any
// number of creatures" (Palace Guard, CR 509.1a) keeps one pick per attacker (`multi`).
//
// The engine may leave "done" out of a blockers decision while the blocks so far do not obey
// the requirements within reach (a creature that must block, CR 509.1c). Then the page offers
// its own "Declare" (whenever there are picks) and, if the picks sent run out before "done"
// comes back, goes back to choosing: the blocks sent stay (`sent`, shown but no longer taken
// back, since the engine holds them) and the person adds what the declaration still needs.
// The person is never left without a way forward: either "done" or a block is always offered.
//
// States:
//   idle                      no blockers decision is being answered
//   choosing(room, picks)     a blockers decision in `room` is open; clicking a blocker adds or
//                             takes back its pick (blocker -> attacker); nothing is sent
//   sending(room, picks)      the person declared: each new blockers decision of `room` is
//                             answered with the next pick still offered, then with "done"
//                             (or, with no "done" offered, back to choosing)
// Any decision in `room` that is not about blockers, or a room that left the declare blockers
// step, ends it (back to idle).

export class BlockPlan {
  constructor() {
    this.reset();
  }

  reset() {
    this.room = null;
    this.picks = []; // [{obj, ref, attacker}] in the order chosen, not sent yet
    this.sent = []; // picks sent in this declaration: the engine holds them until "done"
    this.sending = false;
  }

  /** Follow what the room shows: `decision` is its pending decision (or null), `step` the
   * step it is in. */
  follow(room, decision, step) {
    if (this.room === null) return;
    if (room !== this.room) return;
    const offTopic = decision && decision.kind !== "blockers";
    if (offTopic || (step !== undefined && step !== "declare_blockers")) this.reset();
  }

  /** The picks (chosen or sent) of blocker `obj`. */
  picksOf(obj) {
    return [...this.sent, ...this.picks].filter((p) => String(p.obj) === String(obj));
  }

  /** The attackers each blocker was chosen to block, not declared yet: obj -> [names]. */
  planned() {
    const out = new Map();
    for (const p of [...this.sent, ...this.picks]) {
      const key = String(p.obj);
      if (!out.has(key)) out.set(key, []);
      out.get(key).push(p.attacker);
    }
    return out;
  }

  /** Choose block action `a` (kind "block") in `room`: a new pick, or the same one taken back,
   * or (unless the blocker may block several, `multi`) the blocker's other attacker instead.
   * `attacker` names the attacker for the page. */
  toggle(room, a, attacker, multi = false) {
    if (this.room !== room) {
      this.reset();
      this.room = room;
    }
    const same = this.picks.find((p) => String(p.obj) === String(a.obj) && sameRef(p.ref, a.ref));
    if (same) {
      this.picks = this.picks.filter((p) => p !== same);
      return;
    }
    if (!multi) this.picks = this.picks.filter((p) => String(p.obj) !== String(a.obj));
    this.picks.push({ obj: a.obj, ref: a.ref, attacker });
  }

  /** Take back the picks of blocker `obj` not sent yet; whether there was one. */
  takeBack(obj) {
    const before = this.picks.length;
    this.picks = this.picks.filter((p) => String(p.obj) !== String(obj));
    return this.picks.length !== before;
  }

  /** May the person declare now, in answer to `decision`: "done" is offered, or there are
   * picks to send (the engine then says what is still needed). */
  canDeclare(decision) {
    return this.picks.length > 0 || decision.actions.some((x) => x.kind === "done");
  }

  /** The person declares: start sending. */
  declare() {
    this.sending = true;
  }

  /** While sending: the action that answers `decision` (a blockers decision of the room), and
   * the picks no longer offered (dropped, for the page to say so). Sending "done" ends the
   * plan; with no "done" offered once the picks are sent, the action is null and the plan is
   * back to choosing, keeping what was sent. */
  next(decision) {
    const dropped = [];
    while (this.picks.length) {
      const pick = this.picks.shift();
      const a = decision.actions.find((x) => x.kind === "block" && String(x.obj) === String(pick.obj)
        && sameRef(x.ref, pick.ref));
      if (a) {
        this.sent.push(pick);
        return { action: a, dropped };
      }
      dropped.push(pick);
    }
    const done = decision.actions.find((x) => x.kind === "done") ?? null;
    if (done) this.reset();
    else this.sending = false; // the declaration needs more blocks: the person adds them
    return { action: done, dropped };
  }
}

function sameRef(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a[0] === b[0] && String(a[1]) === String(b[1]);
}

/** May this permanent block more than one attacker (CR 509.1a): its card says it "can block
 * any number of creatures" or "an additional creature". The engine is the judge (a pick it
 * no longer offers is dropped and said so); this only decides whether a second pick for the
 * same blocker adds to the first or replaces it. */
export function blocksMany(o, catalog) {
  const text = o ? catalog?.cards?.[o.n]?.text ?? "" : "";
  return /can block any number of creatures|can block an additional/i.test(text);
}
