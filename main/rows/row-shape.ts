// A row shape: the top-level keys of one row, in their order, as one anchored regular expression that matches any
// row with exactly those keys in that order and captures the values of the ones a projection looks for. Rows of a
// file or a dataset nearly always share their keys and order (one writer made them), and V8 runs such an expression
// as machine code over the whole row in one call, where the projection's walk (row-projection.ts) steps between
// the looked-for members in JavaScript: on 50k rows of 1.7 KB with pass_at's fields, 85 ms for the expression
// against 220 ms for the walk (one warm thread).
//
// A row the shape does not match (another key, another order, a key written with escapes, deeper nesting) is walked
// as before. The values are matched by the walk's own grammar (json-scan.ts), so a row the shape matches gives the
// same members the walk finds. Each branch of the grammar starts with its own character and every run stops at a
// character outside its class, so a row that does not match fails in time linear in its length.
import { escapeName, hasEscapes, QUOTE, skipWhitespace, stringEnd, VALUE_SOURCE, valueEnd, WS } from './json-scan';

/** A learned shape: the expression, and for each of its capture groups (1, 2, ...) the looked-for name it holds. */
export interface RowShape<Looked> {
  readonly regex: RegExp;
  readonly looked: readonly Looked[];
}

/** Rows with more members than this are not learned: the expression grows with the members. */
const MAX_SHAPE_MEMBERS = 64;

/**
 * The top-level keys of the row in `text`, in order; null unless every key is plain text. A repeated key is
 * captured each time, as the walk reads it each time (the row keeps its first place and its last value).
 */
function plainKeys(text: string): string[] | null {
  const keys: string[] = [];
  let at = skipWhitespace(text, 0);
  if (text.charCodeAt(at) !== 0x7b) return null;
  at = skipWhitespace(text, at + 1);
  if (text.charCodeAt(at) === 0x7d) return null; // an empty row: nothing to learn
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE || keys.length >= MAX_SHAPE_MEMBERS) return null;
    const keyEnd = stringEnd(text, at);
    if (keyEnd < 0 || hasEscapes(text, at + 1, keyEnd - 1)) return null;
    keys.push(text.slice(at + 1, keyEnd - 1));
    at = skipWhitespace(text, keyEnd);
    if (text.charCodeAt(at) !== 0x3a) return null;
    const end = valueEnd(text, skipWhitespace(text, at + 1));
    if (end < 0) return null;
    at = skipWhitespace(text, end);
    const next = text.charCodeAt(at);
    if (next === 0x7d) return keys;
    if (next !== 0x2c) return null;
    at = skipWhitespace(text, at + 1);
  }
}

/**
 * The shape of the row in `text`, capturing the value of each key `lookFor` knows; null when the row cannot be a
 * shape (a key with escapes, too many members, not one JSON object) or no key is looked for.
 */
export function learnShape<Looked>(text: string, lookFor: (key: string) => Looked | undefined): RowShape<Looked> | null {
  const keys = plainKeys(text);
  if (keys === null) return null;
  const looked: Looked[] = [];
  let source = `^${WS}\\{${WS}`;
  keys.forEach((key, i) => {
    const found = lookFor(key);
    source += `"${escapeName(key)}"${WS}:${WS}${found === undefined ? VALUE_SOURCE : `(${VALUE_SOURCE})`}${WS}${i < keys.length - 1 ? `,${WS}` : ''}`;
    if (found !== undefined) looked.push(found);
  });
  if (looked.length === 0) return null;
  return { regex: new RegExp(`${source}\\}${WS}$`), looked };
}

const SHAPE_MISSES = 16;
const SHAPE_LEARNS = 8;
/** A shape that matched this many rows before it was dropped served its rows well: it does not count against SHAPE_LEARNS. */
const SHAPE_SERVED = 1024;

/**
 * The shape a projection tries first, and how it has fared. A shape that misses SHAPE_MISSES rows in a row is
 * dropped and the next row walked is learned instead (the rows changed writer). After SHAPE_LEARNS shapes that each
 * matched fewer than SHAPE_SERVED rows, every row is walked (rows of many shapes, where a miss would only add its cost).
 */
export class RowShapes<Looked> {
  private current: RowShape<Looked> | null = null;
  /** Rows the current shape has matched, and missed since its last match. */
  hits = 0;
  misses = 0;
  /** Shapes learned that matched few rows before they were dropped. */
  learned = 0;

  constructor(private readonly lookFor: (key: string) => Looked | undefined) {}

  /** The row's captured values (1, 2, ... in `looked` order) when the current shape fits it, else null. */
  match(text: string): RegExpExecArray | null {
    const shape = this.current;
    if (shape === null) return null;
    const values = shape.regex.exec(text);
    if (values !== null) {
      this.hits++;
      this.misses = 0;
      return values;
    }
    if (++this.misses >= SHAPE_MISSES) {
      if (this.hits >= SHAPE_SERVED) this.learned--;
      this.current = null;
    }
    return null;
  }

  /** The looked-for name of each capture of the shape that matched last. */
  get looked(): readonly Looked[] {
    return this.current?.looked ?? [];
  }

  /** A row the walk read: learned when there is no shape to try. */
  walked(text: string): void {
    if (this.current !== null || this.learned >= SHAPE_LEARNS) return;
    this.learned++;
    this.current = learnShape(text, this.lookFor);
    this.hits = 0;
    this.misses = 0;
  }
}
