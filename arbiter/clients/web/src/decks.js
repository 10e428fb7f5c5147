// The plain-text deck list (docs/protocol.md, "deck"), checked line by line in the page so a
// person sees every problem at once; the server checks it again and has the last word.

const ENTRY = /^(?:(\d+)\s*[xX]?\s+)?(\S.*?)\s*$/;

const HEADERS = {
  sideboard: "side", deck: "main", main: "main", maindeck: "main",
  "planar deck": "planar", planes: "planar", "scheme deck": "schemes", schemes: "schemes",
};

/**
 * Parse a deck list. `cards` (the catalog's cards by name) lets unknown names be flagged; without
 * it only the format is checked. Returns {main, side, commander, planar, schemes, vanguard,
 * errors: [{line, text, why}]}: the supplementary parts of Planechase (a planar deck),
 * Archenemy (a scheme deck) and Vanguard (a vanguard) as the server reads them.
 */
export function checkDeckList(text, cards = null) {
  const parts = { main: [], side: [], planar: [], schemes: [] };
  const { main, side, planar, schemes } = parts;
  const errors = [];
  const named = { commander: null, vanguard: null };
  let section = main;
  const known = (name) => !cards || Object.prototype.hasOwnProperty.call(cards, name);
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.split("#", 1)[0].trim();
    const lineno = index + 1;
    if (!line) return;
    const header = line.replace(/:+$/, "").trim().toLowerCase();
    if (Object.prototype.hasOwnProperty.call(HEADERS, header)) {
      section = parts[HEADERS[header]];
      return;
    }
    const label = line.includes(":") ? line.split(":", 1)[0].trim().toLowerCase() : "";
    if (label === "commander" || label === "vanguard") {
      const word = label === "commander" ? "Commander" : "Vanguard";
      const name = line.split(":").slice(1).join(":").trim();
      if (!name) errors.push({ line: lineno, text: raw, why: `the ${word} line names no card` });
      else if (named[label] !== null) errors.push({ line: lineno, text: raw, why: `a deck has one ${word} line` });
      else if (!known(name)) errors.push({ line: lineno, text: raw, why: `unknown card "${name}"` });
      else {
        named[label] = name;
        if (label === "commander") main.push(name);
      }
      return;
    }
    const m = ENTRY.exec(line);
    if (!m) {
      errors.push({ line: lineno, text: raw, why: "malformed line" });
      return;
    }
    const count = m[1] ? Number(m[1]) : 1;
    const name = m[2];
    if (count < 1 || count > 250) {
      errors.push({ line: lineno, text: raw, why: "the count must be between 1 and 250" });
    } else if (/^\d+\s*[xX]?$/.test(line)) {
      errors.push({ line: lineno, text: raw, why: "malformed line (a count with no card name)" });
    } else if (!known(name)) {
      errors.push({ line: lineno, text: raw, why: `unknown card "${name}"` });
    } else {
      for (let i = 0; i < count; i++) section.push(name);
    }
  });
  if (!main.length && !errors.length) errors.push({ line: 0, text: "", why: "the deck list has no cards" });
  return { main, side, commander: named.commander, planar, schemes, vanguard: named.vanguard, errors };
}

/** "line 3: unknown card 'Foo': '2 Foo'" (the server's bad_deck message) -> its line number. */
export function serverErrorLine(message) {
  const m = /^line (\d+):/.exec(message ?? "");
  return m ? Number(m[1]) : null;
}
