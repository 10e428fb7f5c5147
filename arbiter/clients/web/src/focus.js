// The arrow keys on the board: from a player's area (each is a stop of the Tab key) or a card,
// the next or previous card or player in reading order, so that every card on the table can
// be reached and read (its text shows in the side panel) with the keyboard alone, without
// putting dozens of cards one cannot act on into the Tab order.

const PLACES = ".board .seat-head, .board [data-obj]";
const STEP = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** Move the focus for an arrow key pressed on a place of the board; true when it did. */
export function moveFocus(e, root) {
  const step = STEP[e.key];
  const here = step ? e.target.closest?.(PLACES) : null;
  if (!here || !root.contains(here)) return false;
  const places = [...root.querySelectorAll(PLACES)];
  const next = places[places.indexOf(here) + step];
  e.preventDefault(); // the board does not scroll under the arrow keys while they move the focus
  next?.focus();
  return true;
}
