// The plain-text deck list (docs/protocol.md, "deck"), checked line by line in the page so a
// person sees every problem at once; the server checks it again and has the last word.

const ENTRY = /^(?:(\d+)\s*[xX]?\s+)?(\S.*?)\s*$/;

/**
 * Parse a deck list. `cards` (the catalog's cards by name) lets unknown names be flagged; without
 * it only the format is checked. Returns {main, side, commander, errors: [{line, text, why}]}.
 */
export function checkDeckList(text, cards = null) {
  const main = [];
  const side = [];
  const errors = [];
  let commander = null;
  let section = main;
  const known = (name) => !cards || Object.prototype.hasOwnProperty.call(cards, name);
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.split("#", 1)[0].trim();
    const lineno = index + 1;
    if (!line) return;
    const header = line.replace(/:+$/, "").trim().toLowerCase();
    if (header === "sideboard") {
      section = side;
      return;
    }
    if (["deck", "main", "maindeck"].includes(header)) {
      section = main;
      return;
    }
    if (line.toLowerCase().startsWith("commander:")) {
      const name = line.split(":").slice(1).join(":").trim();
      if (!name) errors.push({ line: lineno, text: raw, why: "the Commander line names no card" });
      else if (commander !== null) errors.push({ line: lineno, text: raw, why: "a deck has one Commander line" });
      else if (!known(name)) errors.push({ line: lineno, text: raw, why: `unknown card "${name}"` });
      else {
        commander = name;
        main.push(name);
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
  return { main, side, commander, errors };
}

/** "line 3: unknown card 'Foo': '2 Foo'" (the server's bad_deck message) -> its line number. */
export function serverErrorLine(message) {
  const m = /^line (\d+):/.exec(message ?? "");
  return m ? Number(m[1]) : null;
}
