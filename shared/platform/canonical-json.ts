// Python's default json.dumps with sort_keys=True (platform-api.md §4.2): ", " and ": ", non-ASCII as \uXXXX.

/** A JSON string literal as Python writes it with ensure_ascii: anything outside space..~ escaped. */
export function pyJsonString(s: string): string {
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function pyNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return String(x); // JSON cannot tell 3 from 3.0; whole numbers print as ints
}

/** json.dumps(value, sort_keys=True): keys sorted by code point, missing values as null. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'string') return pyJsonString(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(', ')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value as object).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${pyJsonString(k)}: ${canonicalJson((value as Record<string, unknown>)[k])}`).join(', ')}}`;
  }
  return pyJsonString(String(value));
}
