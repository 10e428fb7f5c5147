// Frames and the canonical encoding of the view checksum (docs/protocol.md, sections 1 and 9),
// ported from protocol/codec.py. Every byte is written by @msgpack/msgpack; what is ours is only
// which map keys are integers and the order of a map's entries in the canonical form.
//
// Integer map keys. The server's views use integer keys (object ids) beside string keys, and a
// few maps use strings of digits as keys (ranges of influence: {"0": [...]}). A decoded map is a
// plain object, whose keys are strings, so the two must not collide: an integer key becomes its
// decimal string ("12"), and a string key that reads as a decimal integer is marked with a
// leading U+0000 ("\u00000"). keyOf() undoes the mark; the canonical encoder writes unmarked
// integer-looking keys as integers. Nothing is lost, and views stay cheap to index.

import { Decoder, Encoder } from "@msgpack/msgpack";

const INTEGER = /^(?:0|-?[1-9][0-9]{0,15})$/;
export const MARK = "\u0000";

function isIntegerKey(key) {
  return INTEGER.test(key) && Number.isSafeInteger(Number(key));
}

/** A key as a decoded map holds it: for map keys and for the keys of delta ops alike. */
export function viewKey(key) {
  if (typeof key === "number") {
    if (!Number.isSafeInteger(key)) throw new Error(`map key ${key} is not an integer`);
    return String(key);
  }
  if (typeof key === "string") return isIntegerKey(key) ? MARK + key : key;
  throw new Error(`a map key must be a string or an integer, not ${typeof key}`);
}

/** The string a decoded string key stood for (drops the mark of a digit-only string key). */
export function keyOf(key) {
  return key.charCodeAt(0) === 0 ? key.slice(1) : key;
}

/** A decoded view key as the server sent it: a number for an integer key, else the string. */
export function wireKey(key) {
  if (key.charCodeAt(0) === 0) return key.slice(1);
  return isIntegerKey(key) ? Number(key) : key;
}

const decoder = new Decoder({ mapKeyConverter: viewKey });
const encoder = new Encoder();

/** Decode one server frame; throws on anything but one msgpack map. */
export function decodeFrame(bytes) {
  const value = decoder.decode(bytes);
  if (value === null || typeof value !== "object" || Array.isArray(value)
      || ArrayBuffer.isView(value)) {
    throw new Error("a frame must hold one msgpack map");
  }
  return value;
}

/** Encode one client message (its maps have string keys only: docs/protocol.md, section 1). */
export function encodeMessage(message) {
  return encoder.encode(message);
}

// The canonical form: the library's encoder with its map writer replaced by one that writes
// integer keys as integers and orders entries by the canonical bytes of their keys.
const keyBytes = new Map();
const keyEncoder = new Encoder();

function canonicalKey(key) {
  let bytes = keyBytes.get(key);
  if (bytes === undefined) {
    const wire = wireKey(key);
    bytes = keyEncoder.encode(wire); // encode() returns a copy, safe to keep
    if (keyBytes.size < 4096) keyBytes.set(key, bytes);
  }
  return bytes;
}

function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

class CanonicalEncoder extends Encoder {
  encodeMap(object, depth) {
    const entries = Object.keys(object).map((key) => [canonicalKey(key), key]);
    entries.sort((x, y) => compareBytes(x[0], y[0]));
    const size = entries.length;
    if (size < 16) {
      this.writeU8(0x80 + size);
    } else if (size < 0x10000) {
      this.writeU8(0xde);
      this.writeU16(size);
    } else {
      this.writeU8(0xdf);
      this.writeU32(size);
    }
    for (const [bytes, key] of entries) {
      this.writeU8a(bytes);
      this.doEncode(object[key], depth + 1);
    }
  }
}

const canonicalEncoder = new CanonicalEncoder();

/** The canonical msgpack encoding of a value (a view key is given as its decoded string). */
export function canonical(value) {
  return canonicalEncoder.encodeSharedRef(value);
}

/** The canonical encoding of the view entry [key, value], as the checksum hashes it. */
export function canonicalEntry(key, value) {
  return canonicalEncoder.encodeSharedRef([wireKey(key), value]);
}
