// Room ids (docs/protocol.md, section 7, "Room ids"), ported from protocol/ids.py: a match's
// room is its number ("12"), a subgame's room is MATCH.GAME.N ("12.1.5") at any depth, each
// number from 1 to 2**53 - 1 without leading zeros, 32 characters at most. The id names its
// match and nothing more of its place: which room a subgame is nested in and how deep come
// with `opened` and the view's `g`. tests/web/test_js.py checks this port answers as the Python
// one does on the same strings.

export const MAX_LENGTH = 32;
const MAX_NUMBER = Number.MAX_SAFE_INTEGER; // 2**53 - 1: exact in JavaScript's numbers
const ROOM = /^([1-9][0-9]*)(?:\.([1-9][0-9]*)\.([1-9][0-9]*))?$/;
const GRAMMAR = "MATCH or MATCH.GAME.N, each a number from 1 written without leading zeros";

export class RoomIdError extends Error {}

function positive(what, value) {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_NUMBER) {
    throw new RoomIdError(`a room id's ${what} is a whole number from 1 to ${MAX_NUMBER}, not ${value}`);
  }
  return value;
}

/** The id of a parsed room: { match, game, number }, game and number 0 for a match's room. */
export function formatRoomId({ match, game = 0, number = 0 }) {
  positive("match", match);
  if (game !== 0 || number !== 0) {
    positive("game", game);
    positive("subgame number", number);
  }
  const text = game === 0 ? String(match) : `${match}.${game}.${number}`;
  if (text.length > MAX_LENGTH) throw new RoomIdError(`room id ${JSON.stringify(text)} is longer than ${MAX_LENGTH} characters`);
  return text;
}

/** The room `text` spells, as { match, game, number }; a RoomIdError says why if none. */
export function parseRoomId(text) {
  if (typeof text !== "string") throw new RoomIdError(`a room id is a string, not ${typeof text}`);
  if (text.length > MAX_LENGTH) {
    throw new RoomIdError(`room id ${JSON.stringify(text.slice(0, 40))}... is longer than ${MAX_LENGTH} characters`);
  }
  const found = ROOM.exec(text);
  if (found === null) throw new RoomIdError(`${JSON.stringify(text)} is not a room id: ${GRAMMAR}`);
  const room = { match: Number(found[1]), game: Number(found[2] ?? 0), number: Number(found[3] ?? 0) };
  formatRoomId(room); // the numbers' range
  return room;
}

export function isRoomId(text) {
  try {
    parseRoomId(text);
    return true;
  } catch (err) {
    if (err instanceof RoomIdError) return false;
    throw err;
  }
}

/** The id of the match room that `room` (a match's room or a subgame's) belongs to. */
export function matchOf(room) {
  return String(parseRoomId(room).match);
}
