// Links that open a room: `#room=ID` to take a seat in it (the first free one, or the seat this
// browser already holds), `#watch=ID` to watch it. The room's header offers both to copy; the
// page's own address for a room it shows stays `#/room/ID` (app.js route).

import { isRoomId, matchOf } from "./protocol/ids.js";

const SHARE = /^#(room|watch)=([^&?]*)$/;

/** {as: "room" | "watch", match} for a shared link's fragment, or null for any other (a
 * mistyped room id too: the lobby is shown). */
export function parseShare(hash) {
  const m = SHARE.exec(hash);
  if (!m || !isRoomId(m[2])) return null;
  return { as: m[1], match: matchOf(m[2]) };
}

/** The link that opens `match` as a player ("room") or a spectator ("watch"). */
export function shareLink(location, as, match) {
  return `${location.origin}${location.pathname}#${as}=${match}`;
}
