// The blocks a person is choosing, kept in the page until they declare them (CR 509.1a).
//
// On the wire a blockers decision is answered one block at a time and the engine keeps no way
// to take a block back before the declaration (docs/protocol.md, "Decisions"), so a block sent
// at the first click could be neither marked as undeclared nor taken back (issue 29). The page
// therefore holds the chosen blocks itself and sends them when the person declares.
//
// States:
//   idle                      no blockers decision is being answered
//   choosing(room, picks)     a blockers decision in `room` is open; clicking a blocker adds or
//                             takes back its pick (blocker -> attacker); nothing is sent
//   sending(room, picks)      the person declared: each new blockers decision of `room` is
//                             answered with the next pick still offered, then with "done"
// Any decision in `room` that is not about blockers, or a room that left the declare blockers
// step, ends it (back to idle).

export class BlockPlan {
  constructor() {
    this.reset();
  }

  reset() {
    this.room = null;
    this.picks = []; // [{obj, ref, attacker}] in the order chosen
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

  /** The pick of blocker `obj`, if it has one. */
  pickOf(obj) {
    return this.picks.find((p) => String(p.obj) === String(obj)) ?? null;
  }

  /** Choose block action `a` (kind "block") in `room`: a new pick, or the same one taken back,
   * or the blocker's other attacker instead. `attacker` names the attacker for the page. */
  toggle(room, a, attacker) {
    if (this.room !== room) {
      this.reset();
      this.room = room;
    }
    const old = this.pickOf(a.obj);
    this.picks = this.picks.filter((p) => p !== old);
    if (!old || !sameRef(old.ref, a.ref)) this.picks.push({ obj: a.obj, ref: a.ref, attacker });
  }

  /** Take back the pick of blocker `obj`; whether there was one. */
  takeBack(obj) {
    const old = this.pickOf(obj);
    this.picks = this.picks.filter((p) => p !== old);
    return old !== null;
  }

  /** The person declares: start sending. */
  declare() {
    this.sending = true;
  }

  /** While sending: the action that answers `decision` (a blockers decision of the room), and
   * the picks no longer offered (dropped, for the page to say so). Sending "done" ends the
   * plan. */
  next(decision) {
    const dropped = [];
    while (this.picks.length) {
      const pick = this.picks.shift();
      const a = decision.actions.find((x) => x.kind === "block" && String(x.obj) === String(pick.obj)
        && sameRef(x.ref, pick.ref));
      if (a) return { action: a, dropped };
      dropped.push(pick);
    }
    const done = decision.actions.find((x) => x.kind === "done") ?? null;
    this.reset();
    return { action: done, dropped };
  }
}

function sameRef(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a[0] === b[0] && String(a[1]) === String(b[1]);
}
