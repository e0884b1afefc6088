// Task and row keys (stats-semantics.md sections 1, 3.1 and 12.1) and Python str() of id values.
import { sha1Hex } from './hash';
import { pyFloatRepr } from './py-format';

export type Row = Record<string, unknown>;

/** Python truthiness of a JSON value. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === '' || value === 0) return false;
  if (value instanceof Number) return value.valueOf() !== 0; // a whole float read by parsePyJson (shared/schema/py-json.ts)
  if (typeof value === 'number' && Number.isNaN(value)) return true;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value as object).length > 0;
  return true;
}

export function isObject(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Number);
}

function pyReprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) out += `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return quote + out + quote;
}

function pyRepr(value: unknown): string {
  return typeof value === 'string' ? pyReprString(value) : pyStr(value);
}

/** Python str() of a JSON value (whole numbers print as ints, as JSON cannot tell 3 from 3.0). */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Number) return pyFloatRepr(value.valueOf()); // a float written whole (`1.0`): str() says 1.0
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) < 1e21) return BigInt(value).toString();
    return pyFloatRepr(value);
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') return `{${Object.entries(value as Row).map(([k, v]) => `${pyReprString(k)}: ${pyRepr(v)}`).join(', ')}}`;
  return String(value);
}

/** task_key(row): str(first truthy of scenario_id, task_id, prompt), else "" (section 3.1). */
export function taskKey(row: Row): string {
  if (!isObject(row)) return '';
  const sid = row.scenario_id;
  if (typeof sid === 'string' && sid !== '') return sid; // the common case
  if (pyTruthy(sid)) return pyStr(sid);
  const tid = row.task_id;
  if (pyTruthy(tid)) return pyStr(tid);
  const prompt = row.prompt;
  return pyTruthy(prompt) ? pyStr(prompt) : '';
}

/** The SHA-1 prompt/final_text key; a missing key reads as "" and a key present with null as "None". */
export function promptHashKey(prompt: unknown, finalText: unknown): string {
  const text = (v: unknown) => (v === undefined ? '' : pyStr(v));
  return sha1Hex(`${text(prompt)}\x1f${text(finalText)}`).slice(0, 16);
}

/** row_key(row) (section 12.1). */
export function rowKey(row: Row): string {
  if (pyTruthy(row.rollout_id)) return pyStr(row.rollout_id);
  const sid = row.scenario_id;
  const idx = row.rollout_index;
  if (sid !== null && sid !== undefined && idx !== null && idx !== undefined) return `${pyStr(sid)}#${pyStr(idx)}`;
  return promptHashKey(row.prompt, row.final_text);
}
