// Python's == on JSON values: dicts equal whatever their key order, 1 == 1.0, True == 1 (bool is an int).
import { pyNumber } from '../schema/py-json';

function scalar(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  const n = pyNumber(value);
  return n === null ? value : n;
}

export function isDeepStrictEqualJson(a: unknown, b: unknown): boolean {
  const x = scalar(a);
  const y = scalar(b);
  if (x === y) return true;
  if (typeof x === 'number' || typeof y === 'number') return false; // NaN != NaN, as in Python
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x)) {
    const ys = y as unknown[];
    return x.length === ys.length && x.every((item, i) => isDeepStrictEqualJson(item, ys[i]));
  }
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  const keys = Object.keys(xo).filter((k) => xo[k] !== undefined);
  if (keys.length !== Object.keys(yo).filter((k) => yo[k] !== undefined).length) return false;
  return keys.every((k) => k in yo && isDeepStrictEqualJson(xo[k], yo[k]));
}
