// JSON's grammar as the row projection reads it (row-projection.ts, row-shape.ts): the regular expression sources
// that match a member's value, and the few hand-written steps (a string's end, a value's end, white space) that walk
// a row's top level. Apart, so the projection and the shapes it learns read values by one grammar.

/** How deeply a member the projection steps over may nest ([ and { count one level each); deeper rows are parsed whole. */
export const NEST_DEPTH = 10;

export const WS = '[ \\t\\n\\r]*';
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
export const VALUE_SOURCE = `(?:${STRING}|${NUMBER}|true|false|null|${COMPOSITE_SOURCE})`;
/** An array or an object, from lastIndex. */
const COMPOSITE = new RegExp(COMPOSITE_SOURCE, 'y');
const NUMBER_AT = new RegExp(NUMBER, 'y');

/** A name as a regular expression that matches it literally. */
export const escapeName = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where the string whose opening quote is at `at` ends (past its closing quote), or -1. */
export function stringEnd(text: string, at: number): number {
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
export function valueEnd(text: string, at: number): number {
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

export function skipWhitespace(text: string, at: number): number {
  let c = text.charCodeAt(at);
  while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++at);
  return at;
}

/** A string's characters up to its first backslash, control character or quote. */
const PLAIN_CHARS = /[^"\\\x00-\x1f]*/y;

/** Whether text[start, end) (inside a string) holds a backslash or a control character: then JSON.parse reads it. */
export function hasEscapes(text: string, start: number, end: number): boolean {
  PLAIN_CHARS.lastIndex = start;
  PLAIN_CHARS.test(text);
  return PLAIN_CHARS.lastIndex < end;
}
