// Python's str methods and regular expressions where JavaScript's differ: what counts as whitespace (str.split(),
// strip(), re's \s), line breaks (str.splitlines()), digits (str.isdigit(), re's \d), word characters (re's \w),
// len() and slicing by code point, and a small translator that turns the marker families' regular expressions, written
// in Python's dialect, into JavaScript ones that match the same (docs/markers.md "Text the way Python reads it").

/** Python's whitespace (str.isspace, re's \s on str): JavaScript's \s less U+FEFF, plus U+001C-U+001F and U+0085. */
export const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** re's \w on str: letters, numbers (any numeric kind) and the underscore. */
export const PY_WORD = '\\p{L}\\p{N}_';

const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
const DIGIT = /\p{Nd}|[\u{b2}-\u{b3}\u{b9}\u{1369}-\u{1371}\u{19da}\u{2070}\u{2074}-\u{2079}\u{2080}-\u{2089}\u{2460}-\u{2468}\u{2474}-\u{247c}\u{2488}-\u{2490}\u{24ea}\u{24f5}-\u{24fd}\u{24ff}\u{2776}-\u{277e}\u{2780}-\u{2788}\u{278a}-\u{2792}\u{10a40}-\u{10a43}\u{10e60}-\u{10e68}\u{11052}-\u{1105a}\u{1f100}-\u{1f10a}]/u;

/** Whether a UTF-16 unit is Python whitespace (every such character is in the BMP). */
export function isPySpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x85) return false;
  return (
    code === 0x85 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000
  );
}

/** len(text.split()): the words between runs of whitespace, counted without building them. */
export function pyWordCount(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isPySpace(text.charCodeAt(i));
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

/** str.split() with no argument: runs of whitespace separate, none at either end. */
export function pySplit(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isPySpace(text.charCodeAt(i));
    if (space && start >= 0) (out.push(text.slice(start, i)), (start = -1));
    else if (!space && start < 0) start = i;
  }
  return out;
}

export function pyStrip(text: string): string {
  let start = 0;
  while (start < text.length && isPySpace(text.charCodeAt(start))) start++;
  return pyRstrip(start ? text.slice(start) : text);
}

export function pyRstrip(text: string): string {
  let end = text.length;
  while (end > 0 && isPySpace(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** str.splitlines(): the pieces between line breaks (a break at the very end makes no empty last piece). */
export function pySplitlines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(LINE_BREAK);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** str.isdigit() of one character (decimal digits and the superscript, subscript and circled ones). */
export function pyIsDigit(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code < 0xb2) return code >= 0x30 && code <= 0x39;
  return DIGIT.test(char);
}

/** Python's code-point order for strings (sorted(), min()): the one implementation, task-order's. */
export { codePointCompare as pyCompare } from '../stats/task-order';

/** len() of a string: code points, not UTF-16 units. */
export function pyLen(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) count--;
  }
  return count;
}

/** `not text.strip()`: empty or only whitespace. */
export function pyIsBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isPySpace(text.charCodeAt(i))) return false;
  return true;
}

const NON_ASCII = /[^\x00-\x7f]/;
export const isAscii = (text: string): boolean => !NON_ASCII.test(text);
/** text[:n], cut by code point. */
export function pyHead(text: string, n: number): string {
  if (text.length <= n || isAscii(text)) return text.slice(0, n);
  let out = '';
  let count = 0;
  for (const ch of text) {
    if (count++ >= n) break;
    out += ch;
  }
  return out;
}

/**
 * A regular expression in Python's dialect, compiled twice: for text that is all ASCII (native \b and \w, which
 * agree with Python's there, and run faster) and for any other text (Unicode-aware \b and \w, as Python's are).
 * Both read `.` as "anything but a newline" (JavaScript's also refuses \r and U+2028/9), `$` as "the end, or just
 * before a newline that ends the text" and \s as Python's whitespace. Each is compiled on first use: the patterns are
 * module constants, and compiling the Unicode classes of all of them (\p{L} under the i flag) cost every thread that
 * loaded them 20-45 ms before its first row, most of them never matched.
 */
export class PyPattern {
  private asciiRx: RegExp | null = null;
  private unicodeRx: RegExp | null = null;

  constructor(
    private readonly source: string,
    private readonly flags: { ignoreCase?: boolean; dotAll?: boolean } = {},
  ) {}

  private compiled(text: string): RegExp {
    const unicode = !isAscii(text);
    const found = unicode ? this.unicodeRx : this.asciiRx;
    if (found) return found;
    const flags = `${this.flags.ignoreCase ? 'i' : ''}${this.flags.dotAll ? 's' : ''}u`;
    const made = new RegExp(translate(this.source, unicode, this.flags.dotAll ?? false), flags);
    if (unicode) this.unicodeRx = made;
    else this.asciiRx = made;
    return made;
  }

  /** re.search: the first match, or null. */
  search(text: string): RegExpExecArray | null {
    const rx = this.compiled(text);
    rx.lastIndex = 0;
    return rx.exec(text);
  }

  /** re.finditer over the text, in order. */
  *finditer(text: string): Generator<RegExpExecArray> {
    const base = this.compiled(text);
    const rx = new RegExp(base.source, base.flags + 'g');
    for (let m = rx.exec(text); m; m = rx.exec(text)) {
      yield m;
      if (m[0] === '') rx.lastIndex++;
    }
  }
}

const WORD = `[${PY_WORD}]`;
const UNICODE_BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;

/** Python pattern text -> JavaScript (u flag); only the constructs the marker families use differ. */
function translate(source: string, unicode: boolean, dotAll: boolean): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[++i];
      if (next === 's') out += inClass ? PY_SPACE : `[${PY_SPACE}]`;
      else if (next === 'w' && unicode) out += inClass ? PY_WORD : WORD;
      else if (next === 'b' && !inClass && unicode) out += UNICODE_BOUNDARY;
      else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      out += ch;
      if (source[i + 1] === '^') out += source[++i];
      if (source[i + 1] === ']') out += `\\${source[++i]}`; // a leading ] is a literal in Python
    } else if (ch === '.' && !dotAll) out += '[^\\n]';
    else if (ch === '$') out += '(?=\\n?$)';
    else out += ch;
  }
  return out;
}
