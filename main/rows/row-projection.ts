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
// the speed), so a member the statistic does not read is not checked in full (an import checks it). The arrays and
// objects it reads are parsed by JSON.parse, all of a row's in one call, and each string by its own. A text this
// cannot read (not one JSON object, nested deeper than NEST_DEPTH, a value read that is not JSON) is `undefined`: the
// caller parses it whole and picks the fields (pickFields), which gives the same object, only slower.
//
// Before the walk, the row is tried against a shape (row-shape.ts): the keys of a row walked earlier, in their order,
// as one anchored expression that captures the looked-for values. Rows of one file or dataset share their keys, so
// most rows are read in that one call; a row it does not fit is walked.
//
// What it costs, measured on 50k rows of 1.7 KB in one warm thread: JSON.parse of whole rows 290 ms; pass_at's
// fields (16, nine of them in the rows) walked 255 ms, through the shape 195 ms. `stats pass-at FILE` on 100k of
// them, whole process, medians of 7 alternated runs: 0.53 s walked against 0.45-0.46 s through the shape (on a
// slower minute of the same day, 0.58-0.61 s against 0.52-0.55 s).
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
import { escapeName, hasEscapes, QUOTE, skipWhitespace, stringEnd, VALUE_SOURCE, valueEnd, WS } from './json-scan';
import { RowShapes } from './row-shape';

export { LazyFieldError };

type Obj = Record<string, unknown>;

/** The fields a statistic reads: top-level field names, or 'row' for the whole row. */
export type RowFields = readonly string[] | 'row';

/** A value at least this long is parsed on first read in transient rows (an array or object). */
const LAZY_MIN_CHARS = 160;

/**
 * Strings shorter than this are cut out by slice, which copies them; from 13 characters on V8 makes a view of the
 * text instead, which would hold the whole block of the file a line came from (64 KiB) for as long as a fold keeps
 * the string (a task key): longer strings are parsed, which copies them.
 */
const SLICE_COPY_CHARS = 13;

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
  /** The row shape tried before the walk (row-shape.ts), learned from rows this projection has read. */
  readonly shapes: RowShapes<Looked>;
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
  const shapes = new RowShapes<Looked>((key) => byName.get(key));
  const made: Projection = { fields: names, wanted: new Set(names), noted, notes: new Int32Array(noted.length), skipRun, byShape, byName, lateRow, shapes };
  compiled.set(cacheKey, made);
  return made;
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

/**
 * The members read in one row, as (looked-for entry, text, start, end): the row's text and the value's place in it
 * from the walk, the value's own text (a capture) from a shape. Reused from row to row (never re-entered).
 */
const readNames: Looked[] = [];
const readTexts: string[] = [];
const readSpans: number[] = [];

/**
 * The declared fields of the row in `text` (one JSON object), or undefined when this reader cannot read the text
 * (the caller parses it whole: JSON.parse, then pickFields). Never a different answer from pickFields(JSON.parse(text)).
 */
export function projectText(text: string, p: Projection, transient = false): Obj | undefined {
  if (p.lateRow !== null && !transient) throw new Error('a projection with late fields is for transient rows only');
  try {
    const shaped = matchShape(text, p);
    if (shaped >= 0) return build(text, shaped, transient, p.lateRow);
    const count = findMembers(text, p);
    if (count < 0) return undefined;
    p.shapes.walked(text);
    return build(text, count, transient, p.lateRow);
  } catch {
    return undefined; // a value read is not JSON (JSON.parse said so): the whole-row parse names what is wrong
  }
}

/** The looked-for members of a row the shape matches (readNames, readTexts, readSpans) and notes; their count, or -1 when it does not match. */
function matchShape(text: string, p: Projection): number {
  const values = p.shapes.match(text);
  if (values === null) return -1;
  const shaped = p.shapes.looked;
  if (p.noted.length) p.notes.fill(0);
  let count = 0;
  for (let i = 0; i < shaped.length; i++) {
    const looked = shaped[i];
    const value = values[i + 1];
    if (looked.note >= 0) p.notes[looked.note] = value.charCodeAt(0);
    if (looked.wanted) {
      readNames[count] = looked;
      readTexts[count] = value;
      readSpans[2 * count] = 0;
      readSpans[2 * count + 1] = value.length;
      count++;
    }
  }
  return count;
}

/** Finds the looked-for members of the row (readNames, readTexts, readSpans) and notes; their count, or -1 when it cannot read it. */
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
        readTexts[count] = text;
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

/**
 * Arrays and objects parsed together: one JSON.parse of all of them as an array costs less than one call each. A
 * string is parsed alone (a string literal's own JSON.parse, on 50k rows of 1.7 KB a tenth less time than the batch).
 */
const batchAt: number[] = [];
/** Where a value is: in the batch (its index there), read from the text as it stands (-1), or already taken (-2: takenValues). */
const IN_TEXT = -1;
const TAKEN = -2;
/** The values taken before the row is made: a string parsed alone, or a field's last value (its text is the same). */
const takenValues: unknown[] = [];

/**
 * The row in `rowText` from the members found: short plain strings sliced, large values lazy in a transient row, the
 * rest parsed in one call.
 */
function build(rowText: string, count: number, transient: boolean, lateRow: object | null): Obj {
  let batch = '';
  let batched = 0;
  for (let i = 0; i < count; i++) {
    const text = readTexts[i];
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
      batchAt[i] = IN_TEXT;
      continue;
    }
    if (c === QUOTE) {
      batchAt[i] = TAKEN; // a string with escapes, or long enough to be a view of the text if sliced: parsing copies it
      takenValues[i] = JSON.parse(start === 0 && end === text.length ? text : text.slice(start, end));
      continue;
    }
    const looked = readNames[i];
    if (composite && end - start === looked.lastText.length && text.startsWith(looked.lastText, start)) {
      batchAt[i] = TAKEN; // the same text as this field's last value: the same value (run facts repeat row after row)
      takenValues[i] = looked.lastValue;
      continue;
    }
    batch += batched === 0 ? text.slice(start, end) : ',' + text.slice(start, end);
    batchAt[i] = batched++;
  }
  const parsed = batched === 0 ? null : (JSON.parse(`[${batch}]`) as unknown[]);
  const out: Obj = lateRow === null ? {} : newLateRow(lateRow, rowText);
  for (let i = 0; i < count; i++) {
    const looked = readNames[i];
    const text = readTexts[i];
    readTexts[i] = ''; // not held past the row
    const key = looked.name;
    if (batchAt[i] === TAKEN) {
      put(out, key, takenValues[i]);
      takenValues[i] = undefined;
      continue;
    }
    if (parsed !== null && batchAt[i] >= 0) {
      const value = parsed[batchAt[i]]; // an array or an object: kept as the field's last value
      looked.lastText = text.slice(readSpans[2 * i], readSpans[2 * i + 1]);
      looked.lastValue = value;
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
