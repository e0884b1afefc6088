// Python's view of text where it differs from JavaScript's: lengths and slices in code points, str.split()'s
// whitespace, and the " ".join(s.lower().split()) normal form the SDK groups prompts by.

const SURROGATE = /[\uD800-\uDFFF]/;

/** len(s): code points, not UTF-16 units. */
export function pyLen(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** s[:n] in code points. */
export function pyHead(s: string, n: number): string {
  if (!SURROGATE.test(s)) return s.slice(0, n);
  return Array.from(s).slice(0, n).join('');
}

/** The characters str.split() and str.strip() treat as whitespace (JavaScript's \s differs: it has U+FEFF, lacks \x1c-\x1f, \x85). */
export const PY_SPACE = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const SPACES = new RegExp(`[${PY_SPACE}]+`, 'g');
const EDGES = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');
const RIGHT = new RegExp(`[${PY_SPACE}]+$`);

/** s.split() */
export function pySplit(s: string): string[] {
  const parts = s.split(SPACES);
  if (parts.length && parts[0] === '') parts.shift();
  if (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** s.strip() */
export function pyStrip(s: string): string {
  return s.replace(EDGES, '');
}

/** s.rstrip() */
export function pyRstrip(s: string): string {
  return s.replace(RIGHT, '');
}

/** " ".join(s.lower().split()): how the SDK keys prompts for SFT selection and preference pairs. */
export function collapsedLower(s: string): string {
  return pySplit(s.toLowerCase()).join(' ');
}

/** " ".join(s.split()) without lowering. */
export function collapsed(s: string): string {
  return pySplit(s).join(' ');
}
