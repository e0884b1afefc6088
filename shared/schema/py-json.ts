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
// JSON.stringify escapes what is below space (as json.dumps does: \n, \t, \u001f) but leaves DEL and above as they are.
const BEYOND_ASCII = /[\x7f-\uffff]/;

/** A string literal as json.dumps writes it (ensure_ascii): anything outside space..~ as \uXXXX (lowercase hex). */
export function pyJsonString(s: string): string {
  if (ASCII_PLAIN.test(s)) return `"${s}"`;
  const json = JSON.stringify(s);
  if (!BEYOND_ASCII.test(s)) return json;
  return json.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function floatText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return pyFloatRepr(x);
}

// Shortest round-trip digits cost a tenth of a microsecond or more per number, and rows repeat theirs (prices,
// sampling settings, a group's mean): each text is kept once, up to a bound.
const FLOAT_CACHE_LIMIT = 4096;
const floatTexts = new Map<number, string>();

function cachedFloatText(x: number): string {
  if (x === 0) return floatText(x); // a Map key does not tell -0 from 0
  let text = floatTexts.get(x);
  if (text === undefined) {
    text = floatText(x);
    if (floatTexts.size >= FLOAT_CACHE_LIMIT) floatTexts.clear();
    floatTexts.set(x, text);
  }
  return text;
}

function numberText(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e21) return Object.is(x, -0) ? '0' : String(x);
  return cachedFloatText(x);
}

// The writer appends pieces to one array and joins them once, instead of concatenating a string per value: a row
// written by `+=` was a rope of a few hundred pieces that the file write then had to flatten (profiled on an export
// of 100k bench rows: 2.8 s of its 7.3 s went to writing rows so and flattening them, before the collector's share).
// Keys repeat on every row, so each key's quoted text with the key separator is kept once, as the first member and
// (the item separator before it) as a later one: one piece per member instead of two.
const KEY_CACHE_LIMIT = 4096;
const keyTexts = new Map<string, string>();
const laterKeyTexts = new Map<string, string>();

/** A member's key as written: its quoted text and the key separator, after the item separator unless it is the first. */
function keyText(key: string, itemSep: string, keySep: string, first: boolean): string {
  if (keySep !== ': ' || itemSep !== ', ') return (first ? '' : itemSep) + pyJsonString(key) + keySep;
  const cache = first ? keyTexts : laterKeyTexts;
  let text = cache.get(key);
  if (text === undefined) {
    text = (first ? '' : itemSep) + pyJsonString(key) + keySep;
    if (cache.size < KEY_CACHE_LIMIT && key.length <= 64) cache.set(key, text);
  }
  return text;
}

function dumpInto(out: string[], value: unknown, itemSep: string, keySep: string, sortKeys: boolean): void {
  if (value === null || value === undefined) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      if (ASCII_PLAIN.test(value)) out.push(`"${value}"`);
      else out.push(pyJsonString(value));
      return;
    case 'number':
      out.push(numberText(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      break;
    default:
      out.push(pyJsonString(String(value)));
      return;
  }
  if (value instanceof Number) {
    out.push(cachedFloatText(value.valueOf()));
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i) out.push(itemSep);
      dumpInto(out, value[i], itemSep, keySep, sortKeys);
    }
    out.push(']');
    return;
  }
  out.push('{');
  let first = true;
  const obj = value as Record<string, unknown>;
  const keys = sortKeys ? Object.keys(obj).sort() : null;
  if (keys) {
    for (const key of keys) {
      if (obj[key] === undefined) continue;
      out.push(keyText(key, itemSep, keySep, first));
      dumpInto(out, obj[key], itemSep, keySep, true);
      first = false;
    }
  } else {
    for (const key in obj) {
      const item = obj[key];
      if (item === undefined) continue;
      out.push(keyText(key, itemSep, keySep, first));
      dumpInto(out, item, itemSep, keySep, false);
      first = false;
    }
  }
  out.push('}');
}

/**
 * json.dumps(value, default=str) with the given separators (Python's defaults: ", " and ": "). Keys keep insertion
 * order (sorted with `sortKeys`); undefined object members are left out as JSON.stringify leaves them.
 */
export function pyDumps(value: unknown, itemSep = ', ', keySep = ': ', sortKeys = false): string {
  const kept = keptDumps !== null && typeof value === 'object' && value !== null && itemSep === ', ' && keySep === ': ' && !sortKeys ? keptDumps : null;
  const known = kept?.get(value as object);
  if (known !== undefined) return known;
  // One array for every call, emptied after, rather than one grown afresh per value (a nested call, from a value's
  // own String(), gets its own).
  const out = spare ?? [];
  spare = null;
  try {
    dumpInto(out, value, itemSep, keySep, sortKeys);
    const text = out.join('');
    kept?.set(value as object, text);
    return text;
  } finally {
    out.length = 0;
    spare = out;
  }
}

let spare: string[] | null = [];

/** The texts pyDumps wrote of objects while withDumpsKept runs (its default separators only), else null. */
let keptDumps: Map<object, string> | null = null;

/**
 * Runs `work` with each object pyDumps writes kept by identity, so that writing the same object again costs a
 * lookup: for readers of one row that each write the same tool result (select_for_rl's facts of a row write it for
 * the behavior signature, the fault and the conversation). Only for work that changes no object it writes.
 */
export function withDumpsKept<T>(work: () => T): T {
  if (keptDumps !== null) return work();
  keptDumps = new Map();
  try {
    return work();
  } finally {
    keptDumps = null;
  }
}

// A whole float outside a string is a number token ending in ".0…" or carrying an exponent, before a JSON delimiter.
// The pattern finds a token's tail (a digit, then ".0…" or an exponent); the token starts at the first character of
// the run of number characters before it. The pattern can fire inside a string too ("version 1.0 of"): a real token
// has an even count of unescaped quotes before it (the test that decides), and follows ":", ",", "[" or white space
// (a shortcut that skips most in-string hits without counting quotes). Only real tokens are rewritten, where the
// rewrite-every-token pass before it made parsePyJson 1.4 s of an export of 100k bench rows (JSON.parse about 0.5 s
// of it). Most rows have none, and JSON.parse alone reads them.
const WHOLE_FLOAT_TAIL = /\d(?:\.0+|(?:\.\d+)?[eE][-+]?\d+)(?=[\s,\]}])/g;
// A rewritten token becomes a string starting with NUL. A string of the row's own can hold NUL only written as
// \u0000 (JSON has no raw control characters), so a text without that escape cannot be confused with the mark; one
// with it gets a mark of its own with a random part.
const MARK = '\u0000f';

function markFor(text: string): string {
  return text.includes('\\u0000') ? `${MARK}${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}:` : MARK;
}

const isNumberChar = (c: number): boolean => (c >= 48 && c <= 57) || c === 46 || c === 43 || c === 45 || c === 101 || c === 69;
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/** Whether the text before `at` (a token's first character) puts it where a JSON value may start, not mid-word. */
function afterDelimiter(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
  if (i < 0) return true;
  const c = text.charCodeAt(i);
  return c === 58 /* : */ || c === 44 /* , */ || c === 91 /* [ */;
}

/** Quote parity walked forward, one indexOf per quote: whether a position is inside a string literal. */
class StringState {
  private at = 0;
  private inside = false;
  constructor(private readonly text: string) {}

  /** Inside a string at `to` (never earlier than the last position asked about)? */
  insideAt(to: number): boolean {
    const { text } = this;
    for (;;) {
      const q = text.indexOf('"', this.at);
      if (q === -1 || q >= to) break;
      this.at = q + 1;
      if (this.inside) {
        let b = q - 1;
        while (text.charCodeAt(b) === 92 /* \ */) b--;
        if ((q - 1 - b) % 2 === 1) continue; // an escaped quote: still inside
      }
      this.inside = !this.inside;
    }
    return this.inside;
  }

  /** The scan resumes at `to` (the end of a token outside strings). */
  skipTo(to: number): void {
    this.at = to;
  }
}

/** Puts back the marked tokens as PyFloats; stops once all `left.n` of them are found. */
function unmark(value: unknown, left: { n: number; mark: string }): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(left.mark)) return value;
    left.n--;
    return pyFloat(Number(value.slice(left.mark.length)));
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && left.n > 0; i++) value[i] = unmark(value[i], left);
    return value;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    if (left.n <= 0) break;
    obj[key] = unmark(obj[key], left);
  }
  return value;
}

/** JSON.parse, with whole numbers written as floats (`1.0`, `2e3`) boxed as PyFloat. */
export function parsePyJson(text: string): unknown {
  WHOLE_FLOAT_TAIL.lastIndex = 0;
  let match = WHOLE_FLOAT_TAIL.exec(text);
  if (match === null) return JSON.parse(text);
  const strings = new StringState(text);
  const mark = markFor(text);
  let rewritten = '';
  let copied = 0;
  let marked = 0;
  for (; match !== null; match = WHOLE_FLOAT_TAIL.exec(text)) {
    const end = match.index + match[0].length;
    let start = match.index;
    while (start > 0 && isNumberChar(text.charCodeAt(start - 1))) start--;
    if (!afterDelimiter(text, start) || strings.insideAt(start)) continue;
    strings.skipTo(end);
    const token = text.slice(start, end);
    if (!Number.isInteger(Number(token))) continue;
    rewritten += text.slice(copied, start) + JSON.stringify(mark + token);
    copied = end;
    marked++;
  }
  if (!marked) return JSON.parse(text);
  return unmark(JSON.parse(rewritten + text.slice(copied)), { n: marked, mark });
}
