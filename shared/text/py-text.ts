// Python's text rules where the marker families depend on them (docs/markers.md "Text the way Python reads it"):
// whitespace as str.isspace() sees it, str.strip(), slicing and len() by code point, and a small translator that
// turns the families' regular expressions, written in Python's dialect, into JavaScript ones that match the same.

/** Python's whitespace (str.isspace, and re's \s on text): JavaScript's \s without U+FEFF, plus U+001C-U+001F and U+0085. */
export const PY_SPACE_CLASS = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Python's \w on text: letters and numbers of every script, and the underscore. */
const PY_WORD_CLASS = '\\p{L}\\p{N}_';

const EDGE_SPACE = new RegExp(`^[${PY_SPACE_CLASS}]+|[${PY_SPACE_CLASS}]+$`, 'gu');
const ALL_SPACE = new RegExp(`^[${PY_SPACE_CLASS}]*$`, 'u');
const NON_ASCII = /[^\x00-\x7f]/;

/** str.strip() with no argument. */
export function pyStrip(text: string): string {
  return text.replace(EDGE_SPACE, '');
}

/** `not text.strip()`: empty or only whitespace. */
export function pyIsBlank(text: string): boolean {
  return ALL_SPACE.test(text);
}

export const isAscii = (text: string): boolean => !NON_ASCII.test(text);

/** len(text): code points, not UTF-16 units. */
export function pyLen(text: string): number {
  if (isAscii(text)) return text.length;
  let n = 0;
  for (const _ of text) n++;
  return n;
}

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
 * before a newline that ends the text" and \s as Python's whitespace.
 */
export class PyPattern {
  private readonly ascii: RegExp;
  private readonly unicode: RegExp;

  constructor(source: string, flags: { ignoreCase?: boolean; dotAll?: boolean } = {}) {
    const f = `${flags.ignoreCase ? 'i' : ''}${flags.dotAll ? 's' : ''}u`;
    this.ascii = new RegExp(translate(source, false, flags.dotAll ?? false), f);
    this.unicode = new RegExp(translate(source, true, flags.dotAll ?? false), f);
  }

  /** re.search: the first match, or null. */
  search(text: string): RegExpExecArray | null {
    const rx = isAscii(text) ? this.ascii : this.unicode;
    rx.lastIndex = 0;
    return rx.exec(text);
  }

  /** re.finditer over the text, in order. */
  *finditer(text: string): Generator<RegExpExecArray> {
    const base = isAscii(text) ? this.ascii : this.unicode;
    const rx = new RegExp(base.source, base.flags + 'g');
    for (let m = rx.exec(text); m; m = rx.exec(text)) {
      yield m;
      if (m[0] === '') rx.lastIndex++;
    }
  }
}

const WORD = `[${PY_WORD_CLASS}]`;
const UNICODE_BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;

/** Python pattern text -> JavaScript (u flag); only the constructs the marker families use differ. */
function translate(source: string, unicode: boolean, dotAll: boolean): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[++i];
      if (next === 's') out += inClass ? PY_SPACE_CLASS : `[${PY_SPACE_CLASS}]`;
      else if (next === 'w' && unicode) out += inClass ? PY_WORD_CLASS : WORD;
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
