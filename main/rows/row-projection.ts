// Field projection (issue 30): a row's JSON text read for the top-level fields a statistic declares
// (shared/stats/registry/define.ts, `reads`), the rest stepped over unparsed. The one way both row readers (the
// database's, main/rows/read.ts, and a JSONL file's, main/stats-workers/file-rows.ts) hand a statistic its rows.
//
// How: the row's top level is walked in JavaScript (keys, colons, commas, by JSON's grammar), and the members the
// statistic does not read are stepped over in runs by one sticky regular expression, which V8 compiles to machine
// code: it steps over a member at about 1 ns a character with no object made, where JSON.parse of the same members
// takes some 3.5 ns a character on 1.7 KB rows (a JavaScript loop over the characters costs about what JSON.parse
// does). Strings, numbers and literals are matched by JSON's grammar; an array or object stepped over is matched by
// its brackets and the strings inside it (an expression that also checked every comma and colon inside ran at half
// the speed), so a member the statistic does not read is not checked in full (an import checks it). The values it
// reads are parsed by JSON.parse, all of a row's in one call. A text this cannot read (not one JSON object, nested
// deeper than NEST_DEPTH, a value read that is not JSON) is `undefined`: the caller parses it whole and picks the
// fields (pickFields), which gives the same object, only slower.
//
// What it costs, measured on 50k rows of 1.7 KB in one cold thread (CPU time): whole rows 380 ms; one field 220 ms;
// pass_at's fields (16, nine of them in the rows) 350 ms, of which `messages` (read lazily) 35 ms: the cost grows with
// the fields read, and a statistic that reads most of a row's small fields gains little over JSON.parse.
//
// What a projected row is: a plain object holding, as own properties in the text's order, exactly the declared
// fields the row has, with the values JSON.parse gives (a repeated key keeps its first place and its last value, as
// JSON.parse does). `transient` rows (a fold reads each once and lets it go) hold a large array or object value as
// an accessor that parses it on first read (deferred-fields.ts). A fold's `rarely` fields (BoundFold.rarely: pass_at reads `messages` only
// where final_text is blank, `reason` for its first failed judge) are not looked for at all: the run steps over them
// with the members it skips, and the row's prototype has a getter for each that finds it in the row's text on first
// read, then holds it as an own field (on 100k rows of 1.7 KB about a tenth less CPU in each fold thread of stats
// pass-at FILE). Rows that are kept hold plain values only. Rows are read-only: an array or object value whose text
// equals the same field's in the row before is the same value (run facts such as sampling repeat).

import { LazyFieldError, lateRowOf, newLateRow, put, putLazy } from './deferred-fields';

export { LazyFieldError };

type Obj = Record<string, unknown>;

/** The fields a statistic reads: top-level field names, or 'row' for the whole row. */
export type RowFields = readonly string[] | 'row';

/** How deeply a member the projection steps over may nest ([ and { count one level each); deeper rows are parsed whole. */
const NEST_DEPTH = 10;

/** A value at least this long is parsed on first read in transient rows (an array or object). */
const LAZY_MIN_CHARS = 160;

/**
 * Strings shorter than this are cut out by slice, which copies them; from 13 characters on V8 makes a view of the
 * text instead, which would hold the whole block of the file a line came from (64 KiB) for as long as a fold keeps
 * the string (a task key): longer strings are parsed, which copies them.
 */
const SLICE_COPY_CHARS = 13;

const WS = '[ \\t\\n\\r]*';
/** A JSON string: the escapes are stepped over as pairs (what JSON.parse of a value read checks in full). */
const STRING = '"[^"\\\\]*(?:\\\\.[^"\\\\]*)*"';
const NUMBER = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';
/** Between strings and brackets inside an array or object: numbers, literals, commas, colons, spaces. */
const BETWEEN = '[^"\\[\\]{}]*';

/**
 * What may stand between an array's or object's brackets, nested at most `depth` more levels. One bracket class a
 * level, not an array branch and an object branch: the expression grows with the depth, not twice a level (a 15 KB
 * expression took a new thread some 30 ms to compile), and on valid JSON each bracket still meets its own.
 */
function insidePattern(depth: number): string {
  const nested = depth === 0 ? STRING : `${STRING}|[\\[{]${insidePattern(depth - 1)}[\\]}]`;
  return `${BETWEEN}(?:(?:${nested})${BETWEEN})*`;
}

/**
 * One member value. Strings, numbers and literals by JSON's grammar; an array or object by its brackets (matched,
 * each kind with its own) and the strings inside it, which is as far as a member stepped over is read: a regular
 * expression that checked every token inside (commas, colons) steps over members at half the speed. V8 runs such
 * an expression without backtracking into a member once matched (each branch starts with a different character).
 */
const inside = insidePattern(NEST_DEPTH - 1);
const COMPOSITE_SOURCE = `[\\[{]${inside}[\\]}]`;
const VALUE_SOURCE = `(?:${STRING}|${NUMBER}|true|false|null|${COMPOSITE_SOURCE})`;
/** An array or an object, from lastIndex. */
const COMPOSITE = new RegExp(COMPOSITE_SOURCE, 'y');
const NUMBER_AT = new RegExp(NUMBER, 'y');

const escapeName = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A name the projection looks for: handed on (`wanted`), and/or noted (its index in `noted`, else -1). */
interface Looked {
  name: string;
  wanted: boolean;
  note: number;
  /** The text of this field's last array or object value parsed, and what it parsed to (rows share it: read-only). */
  lastText: string;
  lastValue: unknown;
}

/** A compiled projection: the fields, and the expression that steps over a run of members not among them. */
export interface Projection {
  readonly fields: readonly string[];
  readonly wanted: ReadonlySet<string>;
  /**
   * Fields looked at but not handed on (`noted`, in order): after each projectText, the first character of the
   * value of each (0 when the row has none): the file reader's check of a row's shape reads them.
   */
  readonly noted: readonly string[];
  readonly notes: Int32Array;
  /** Members (each followed by a comma) whose key is plain text and not a looked-for name, from lastIndex. */
  readonly skipRun: RegExp;
  /** Looked-for names by length and first character, compared in place (no key string is made). */
  readonly byShape: ReadonlyMap<number, readonly Looked[]>;
  readonly byName: ReadonlyMap<string, Looked>;
  /**
   * The prototype of a transient row whose `late` fields are getters (null when there are none): those fields are not
   * looked for, so the run steps over them; each is found in the row's text on first read.
   */
  readonly lateRow: object | null;
}

const compiled = new Map<string, Projection>();

const shapeOf = (length: number, first: number) => length * 65536 + first;

/**
 * The projection of these fields, noting `noted` (compiled once per set of names in a thread). `late`: those of the
 * fields a fold reads for few rows (BoundFold.rarely), held as getters in transient rows; only for transient rows.
 */
export function projection(fields: readonly string[], noted: readonly string[] = [], late: readonly string[] = []): Projection {
  const names = [...new Set(fields)];
  const lateNames = [...new Set(late)].filter((name) => names.includes(name) && !noted.includes(name));
  const cacheKey = `${names.join('\u0000')}\u0001${noted.join('\u0000')}\u0001${lateNames.join('\u0000')}`;
  const found = compiled.get(cacheKey);
  if (found) return found;
  const byName = new Map<string, Looked>();
  for (const name of names) if (!lateNames.includes(name)) byName.set(name, { name, wanted: true, note: -1, lastText: '', lastValue: undefined });
  noted.forEach((name, note) => {
    const known = byName.get(name);
    if (known) known.note = note;
    else byName.set(name, { name, wanted: false, note, lastText: '', lastValue: undefined });
  });
  // A name written in a key with escapes cannot be compared in place: the run stops at every such key instead.
  const plain = [...byName.values()].filter((looked) => !/["\\\x00-\x1f]/.test(looked.name));
  const notLooked = plain.length ? `(?!(?:${plain.map((looked) => escapeName(looked.name)).join('|')})")` : '';
  const skipRun = new RegExp(`(?:"${notLooked}[^"\\\\]*"${WS}:${WS}${VALUE_SOURCE}${WS},${WS})*`, 'y');
  const byShape = new Map<number, Looked[]>();
  for (const looked of plain) {
    const shape = shapeOf(looked.name.length, looked.name.charCodeAt(0));
    byShape.set(shape, [...(byShape.get(shape) ?? []), looked]);
  }
  const lateRow = lateNames.length ? lateRowOf(lateNames, lateValue) : null;
  const made: Projection = { fields: names, wanted: new Set(names), noted, notes: new Int32Array(noted.length), skipRun, byShape, byName, lateRow };
  compiled.set(cacheKey, made);
  return made;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where the string whose opening quote is at `at` ends (past its closing quote), or -1. */
function stringEnd(text: string, at: number): number {
  let end = text.indexOf('"', at + 1);
  while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) {
    let slashes = 1;
    while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) break; // the backslashes escape each other: the quote closes the string
    end = text.indexOf('"', end + 1);
  }
  return end < 0 ? -1 : end + 1;
}

/** Where the value starting at `at` ends, or -1 when it is not one (or nests deeper than NEST_DEPTH). */
function valueEnd(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === QUOTE) return stringEnd(text, at);
  if (c === 0x5b || c === 0x7b) {
    COMPOSITE.lastIndex = at;
    return COMPOSITE.test(text) ? COMPOSITE.lastIndex : -1;
  }
  if (c === 0x74) return text.startsWith('true', at) ? at + 4 : -1;
  if (c === 0x66) return text.startsWith('false', at) ? at + 5 : -1;
  if (c === 0x6e) return text.startsWith('null', at) ? at + 4 : -1;
  NUMBER_AT.lastIndex = at;
  return NUMBER_AT.test(text) ? NUMBER_AT.lastIndex : -1;
}

function skipWhitespace(text: string, at: number): number {
  let c = text.charCodeAt(at);
  while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++at);
  return at;
}

/** A string's characters up to its first backslash, control character or quote. */
const PLAIN_CHARS = /[^"\\\x00-\x1f]*/y;

/** Whether text[start, end) (inside a string) holds a backslash or a control character: then JSON.parse reads it. */
function hasEscapes(text: string, start: number, end: number): boolean {
  PLAIN_CHARS.lastIndex = start;
  PLAIN_CHARS.test(text);
  return PLAIN_CHARS.lastIndex < end;
}

/** A late field's value, found in the row's text (undefined when the row has none). */
function lateValue(text: string, key: string): unknown {
  const found = projectText(text, projection([key]));
  // The text was read once already, so only the field's own value can be what this cannot read.
  if (found === undefined) throw new LazyFieldError(key, 'its value is not JSON');
  return Object.hasOwn(found, key) ? found[key] : undefined; // not the inherited __proto__
}

/** The looked-for name the key text[start, end) (quotes included) spells, else undefined. */
function lookedFor(text: string, start: number, end: number, p: Projection): Looked | undefined {
  const candidates = p.byShape.get(shapeOf(end - start - 2, text.charCodeAt(start + 1)));
  if (candidates) for (const looked of candidates) if (text.startsWith(looked.name, start + 1)) return looked;
  // Rare: the run stops at a key with escapes (it cannot compare those), and at the last member.
  return hasEscapes(text, start + 1, end - 1) ? p.byName.get(JSON.parse(text.slice(start, end)) as string) : undefined;
}

/**
 * Rows shorter than this are parsed whole and cut (pickFields) rather than projected: on the 0.5 KB bench rows
 * JSON.parse of the whole row costs less than the walk (stats pass-at FILE on 100k of them: 0.48 s projected, 0.34 s
 * parsed whole), while on 1.7 KB rows the walk wins. Both give the same object.
 */
export const PROJECT_MIN_CHARS = 1024;

/** The members read in one row, as (looked-for entry, start, end) triples: reused from row to row (never re-entered). */
const readNames: Looked[] = [];
const readSpans: number[] = [];

/**
 * The declared fields of the row in `text` (one JSON object), or undefined when this reader cannot read the text
 * (the caller parses it whole: JSON.parse, then pickFields). Never a different answer from pickFields(JSON.parse(text)).
 */
export function projectText(text: string, p: Projection, transient = false): Obj | undefined {
  if (p.lateRow !== null && !transient) throw new Error('a projection with late fields is for transient rows only');
  try {
    const count = findMembers(text, p);
    return count < 0 ? undefined : build(text, count, transient, p.lateRow);
  } catch {
    return undefined; // a value read is not JSON (JSON.parse said so): the whole-row parse names what is wrong
  }
}

/** Finds the looked-for members of the row (readNames, readSpans) and notes; their count, or -1 when it cannot read it. */
function findMembers(text: string, p: Projection): number {
  if (p.noted.length) p.notes.fill(0);
  let at = skipWhitespace(text, 0);
  if (text.charCodeAt(at) !== 0x7b) return -1;
  at = skipWhitespace(text, at + 1);
  if (text.charCodeAt(at) === 0x7d) return skipWhitespace(text, at + 1) === text.length ? 0 : -1;
  const skipRun = p.skipRun;
  let count = 0;
  let stepped = false;
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) return -1;
    const keyEnd = stringEnd(text, at);
    if (keyEnd < 0) return -1;
    const looked = lookedFor(text, at, keyEnd, p);
    if (looked === undefined && !stepped) {
      // A member not looked for: step over it and those after it that are not either, in one run.
      skipRun.lastIndex = at;
      skipRun.test(text); // matches at least the empty run
      stepped = skipRun.lastIndex > at;
      if (stepped) {
        at = skipRun.lastIndex;
        continue;
      }
    }
    stepped = false;
    at = text.charCodeAt(keyEnd) === 0x3a ? keyEnd : skipWhitespace(text, keyEnd);
    if (text.charCodeAt(at) !== 0x3a) return -1;
    const start = text.charCodeAt(at + 1) > 0x20 ? at + 1 : skipWhitespace(text, at + 1);
    const end = valueEnd(text, start);
    if (end < 0) return -1;
    if (looked !== undefined) {
      if (looked.note >= 0) p.notes[looked.note] = text.charCodeAt(start);
      if (looked.wanted) {
        readNames[count] = looked;
        readSpans[2 * count] = start;
        readSpans[2 * count + 1] = end;
        count++;
      }
    }
    at = text.charCodeAt(end) > 0x20 ? end : skipWhitespace(text, end);
    const next = text.charCodeAt(at);
    if (next === 0x2c) {
      at = text.charCodeAt(at + 1) > 0x20 ? at + 1 : skipWhitespace(text, at + 1);
      continue;
    }
    if (next !== 0x7d) return -1;
    return skipWhitespace(text, at + 1) === text.length ? count : -1;
  }
}

/** Values parsed together: one JSON.parse of all of them as an array costs less than one call each. */
const batchAt: number[] = [];
/** The values taken from a field's last value (batchAt -2), as they were before this row's own replace them. */
const sameValues: unknown[] = [];

/** The row from the members found: short plain strings sliced, large values lazy in a transient row, the rest parsed in one call. */
function build(text: string, count: number, transient: boolean, lateRow: object | null): Obj {
  let batch = '';
  let batched = 0;
  for (let i = 0; i < count; i++) {
    const start = readSpans[2 * i];
    const end = readSpans[2 * i + 1];
    const c = text.charCodeAt(start);
    const composite = c === 0x5b || c === 0x7b;
    const simple =
      (c === QUOTE && end - start - 2 < SLICE_COPY_CHARS && !hasEscapes(text, start + 1, end - 1)) ||
      (end === start + 1 && (c === 0x30 || c === 0x31)) ||
      c === 0x74 || c === 0x66 || c === 0x6e ||
      (transient && composite && end - start >= LAZY_MIN_CHARS);
    if (simple) {
      batchAt[i] = -1;
      continue;
    }
    const looked = readNames[i];
    if (composite && end - start === looked.lastText.length && text.startsWith(looked.lastText, start)) {
      batchAt[i] = -2; // the same text as this field's last value: the same value (run facts repeat row after row)
      sameValues[i] = looked.lastValue;
      continue;
    }
    batch += batched === 0 ? text.slice(start, end) : ',' + text.slice(start, end);
    batchAt[i] = batched++;
  }
  const parsed = batched === 0 ? null : (JSON.parse(`[${batch}]`) as unknown[]);
  const out: Obj = lateRow === null ? {} : newLateRow(lateRow, text);
  for (let i = 0; i < count; i++) {
    const looked = readNames[i];
    const key = looked.name;
    if (batchAt[i] === -2) {
      put(out, key, sameValues[i]);
      sameValues[i] = undefined;
      continue;
    }
    if (parsed !== null && batchAt[i] >= 0) {
      const value = parsed[batchAt[i]];
      const start = readSpans[2 * i];
      const c = text.charCodeAt(start);
      if (c === 0x5b || c === 0x7b) {
        looked.lastText = text.slice(start, readSpans[2 * i + 1]);
        looked.lastValue = value;
      }
      put(out, key, value);
      continue;
    }
    const start = readSpans[2 * i];
    const end = readSpans[2 * i + 1];
    const c = text.charCodeAt(start);
    if (c === QUOTE) put(out, key, text.slice(start + 1, end - 1));
    else if (c === 0x30 || c === 0x31) put(out, key, c - 0x30); // 0 or 1: most rewards
    else if (c === 0x74) put(out, key, true);
    else if (c === 0x66) put(out, key, false);
    else if (c === 0x6e) put(out, key, null);
    else putLazy(out, key, text, start, end);
  }
  return out;
}

/** The declared fields of a row already parsed, in its own order (the same object projectText makes). */
export function pickFields(row: Obj, p: Projection): Obj {
  const out: Obj = {};
  for (const key of Object.keys(row)) if (p.wanted.has(key)) put(out, key, row[key]);
  return out;
}

/** The projection a statistic's reads call for (`late`: for a fold's transient rows, BoundFold.rarely); null for whole rows. */
export function projectionOf(reads: RowFields, late: readonly string[] = []): Projection | null {
  return reads === 'row' ? null : projection(reads, [], late);
}

const isPlainObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Rows already parsed (rows sent along, labeled rows) cut to the fields `reads` names; other values as they are. */
export function projectRows(rows: readonly unknown[], reads: RowFields): unknown[] {
  const p = projectionOf(reads);
  if (!p) return rows as unknown[];
  return rows.map((row) => (isPlainObject(row) ? pickFields(row, p) : row));
}
