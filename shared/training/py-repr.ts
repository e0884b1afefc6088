// Python repr() of the values behavior_signature hashes (strings, bools, ints and tuples of them), so the hash
// is the SDK's: sha256(repr(payload)).
export type PyReprValue = string | boolean | number | PyTuple;
export interface PyTuple {
  tuple: PyReprValue[];
}

export const tuple = (...items: PyReprValue[]): PyTuple => ({ tuple: items });

function printable(code: number): boolean {
  if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad) return false;
  if (code >= 0xd800 && code <= 0xdfff) return false; // a lone surrogate
  if (code === 0x2028 || code === 0x2029 || (code >= 0x200b && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2060 && code <= 0x2064) || code === 0xfeff) return false;
  return true;
}

const PLAIN_ASCII = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/; // printable ASCII but the backslash and the single quote

/** repr(s): single quotes unless the text has one and no double quote; escapes for what str.isprintable() refuses. */
export function pyReprString(s: string): string {
  if (PLAIN_ASCII.test(s)) return `'${s}'`; // nothing to escape (tool names, provenance words)
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (printable(code)) out += ch;
    else if (code < 0x100) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return out + quote;
}

export function pyRepr(value: PyReprValue): string {
  if (typeof value === 'string') return pyReprString(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  const items = value.tuple.map(pyRepr);
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}
