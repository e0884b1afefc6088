// Inside the judge's process: what the judge returned, reduced to plain data before it crosses to the engine.
// Only own enumerable keys of a plain object count (a polluted Object.prototype.reward is never read), each value
// copied as JSON so nothing of the judge's realm (getters, functions, class instances) reaches the engine.
import type { RowOutcome } from './judge-protocol';
import { errorText } from './error-text';

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function snapshotResult(value: unknown): RowOutcome {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return { value };
  if (typeof value !== 'object') return { status: 'invalid_result', meta: { returned_type: typeof value } };
  if (Array.isArray(value)) return { status: 'invalid_result', meta: { returned_type: 'array' } };
  if (!isPlainObject(value)) {
    let type = 'object';
    try {
      type = `object (${(Object.getPrototypeOf(value)?.constructor?.name as string | undefined) ?? 'unknown class'})`;
    } catch {
      // a hostile constructor: keep the plain word
    }
    return { status: 'invalid_result', meta: { returned_type: type, problem: 'a judge returns a number, a boolean or a plain object' } };
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    let text: string | undefined;
    try {
      text = JSON.stringify((value as Record<string, unknown>)[key]);
    } catch (error) {
      return { status: 'invalid_result', meta: { unserialisable_key: key, error: errorText(error) } };
    }
    // defineProperty: a key named __proto__ stays a plain key
    if (text !== undefined) Object.defineProperty(copy, key, { value: JSON.parse(text), enumerable: true, writable: true, configurable: true });
  }
  return { value: copy };
}
