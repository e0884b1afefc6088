// JSON as Python's json module reads and writes it (sdk-semantics §1.6, §1.9, §8.3): the one writer of Python-compatible
// JSON text, and a reader that keeps what JSON.parse loses, whether a whole number was written as a float (`1.0`).
//
// Python's json.loads gives `1.0` a float and `1` an int, and json.dumps writes them back as they were; JavaScript has
// one number type, so JSON.parse reads both as 1 and a file written back would say `1` where the SDK's says `1.0`.
// parsePyJson boxes such numbers (a Number object, `pyFloat`): every other value is what JSON.parse gives. A number
// that is not whole is always a Python float, and one written without `.` or an exponent always an int, so only whole
// floats need the box. Known limit: an object key that looks like an array index ("10") is ordered first by
// JavaScript, where Python keeps the file's order.
import { pyFloatRepr } from '../stats/py-format';

/** A Python float whose value is whole (`1.0`): a boxed Number, so arithmetic still works on it. */
export type PyFloat = Number;

/** x as a Python float: written `1.0`, never `1`. */
export function pyFloat(x: number): PyFloat {
  return Object(x) as PyFloat;
}

export function isPyFloat(value: unknown): value is PyFloat {
  return value instanceof Number;
}

/** A JSON number (plain or boxed) as a plain number; null for anything else (booleans included). */
export function pyNumber(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (value instanceof Number) return value.valueOf();
  return null;
}

const ASCII_PLAIN = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

/** A string literal as json.dumps writes it (ensure_ascii): anything outside space..~ as \uXXXX (lowercase hex). */
export function pyJsonString(s: string): string {
  if (ASCII_PLAIN.test(s)) return `"${s}"`;
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function floatText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return pyFloatRepr(x);
}

function numberText(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e21) return Object.is(x, -0) ? '0' : String(x);
  return floatText(x);
}

/**
 * json.dumps(value, default=str) with the given separators (Python's defaults: ", " and ": "). Keys keep insertion
 * order (sorted with `sortKeys`); undefined object members are left out as JSON.stringify leaves them.
 */
export function pyDumps(value: unknown, itemSep = ', ', keySep = ': ', sortKeys = false): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return pyJsonString(value);
    case 'number':
      return numberText(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return pyJsonString(String(value));
  }
  if (value instanceof Number) return floatText(value.valueOf());
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? itemSep : '') + pyDumps(value[i], itemSep, keySep, sortKeys);
    return out + ']';
  }
  let out = '{';
  let first = true;
  const obj = value as Record<string, unknown>;
  if (sortKeys) {
    for (const key of Object.keys(obj).sort()) {
      if (obj[key] === undefined) continue;
      out += (first ? '' : itemSep) + pyJsonString(key) + keySep + pyDumps(obj[key], itemSep, keySep, true);
      first = false;
    }
    return out + '}';
  }
  for (const key in obj) {
    const item = obj[key];
    if (item === undefined) continue;
    out += (first ? '' : itemSep) + pyJsonString(key) + keySep + pyDumps(item, itemSep, keySep);
    first = false;
  }
  return out + '}';
}

// A whole float outside a string is a number token ending in ".0…" or carrying an exponent, between JSON delimiters.
// The cheap test below can fire inside a string too ("version 1.0 of"); the careful pass then skips strings.
const MAYBE_WHOLE_FLOAT = /\d\.0+[\s,\]}]|\d[eE][-+]?\d+[\s,\]}]/;
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;
const MARK = '\u0000f';

function unmark(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith(MARK) ? pyFloat(Number(value.slice(MARK.length))) : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unmark(value[i]);
    return value;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) obj[key] = unmark(obj[key]);
  return value;
}

/** JSON.parse, with whole numbers written as floats (`1.0`, `2e3`) boxed as PyFloat. */
export function parsePyJson(text: string): unknown {
  if (!MAYBE_WHOLE_FLOAT.test(text)) return JSON.parse(text);
  let marked = false;
  const rewritten = text.replace(TOKENS, (token) => {
    if (token.charCodeAt(0) === 34 /* " */) return token;
    if (!/[.eE]/.test(token)) return token;
    const value = Number(token);
    if (!Number.isInteger(value)) return token;
    marked = true;
    return JSON.stringify(MARK + token);
  });
  return marked ? unmark(JSON.parse(rewritten)) : JSON.parse(text);
}
