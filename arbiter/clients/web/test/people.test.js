// The lobby's people list (src/people.js): what each person is doing in words, the count, and
// names that are markup shown as text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { peopleHtml, statusText } from "../src/people.js";

test("a status names its room when the server gave one", () => {
  assert.equal(statusText({ n: "Ann", s: "playing", r: "12" }), "playing room 12");
  assert.equal(statusText({ n: "Eve", s: "watching" }), "watching");
  assert.equal(statusText({ n: "Bob", s: "lobby" }), "in the lobby");
});

test("the count says when only the first people are listed", () => {
  const list = { n: 4000, people: [{ n: "Ann", s: "lobby" }] };
  const html = peopleHtml(list, new Set(), "Ann");
  assert.match(html, /4000 online \(the first 1 shown\)/);
  assert.match(html, /Ann <small>\(you\)<\/small>/);
  assert.doesNotMatch(html, /data-do="mute"/); // nobody mutes themselves
});

test("a hostile name is escaped, in the list and in its mute button", () => {
  const name = '<img src=x onerror=alert(1)>"';
  const html = peopleHtml({ n: 1, people: [{ n: name, s: "lobby" }] }, new Set([name]), "Ann");
  assert.doesNotMatch(html, /<img/);
  assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;&quot;/);
  assert.match(html, /aria-pressed="true" aria-label="Unmute &lt;img/);
});
