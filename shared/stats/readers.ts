// Reward and label readers (stats-semantics.md section 3.2); they differ on purpose, as the SDK's do.
import { isObject, type Row } from './keys';

const PY_WS = /^[\s\x1c-\x1f]+|[\s\x1c-\x1f]+$/g;
const FLOAT_TEXT = /^[+-]?((\d(_?\d)*)?\.?(\d(_?\d)*)?([eE][+-]?\d(_?\d)*)?)$/;

/** Python float(value) for JSON values: numbers, numeric strings (incl. inf/nan, underscores), booleans; null when it would raise. */
export function pyFloat(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (value instanceof Number) return value.valueOf(); // a whole float read by parsePyJson (shared/schema/py-json.ts)
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'string') return null;
  const text = value.replace(PY_WS, '');
  const lower = text.toLowerCase();
  const special = lower.replace(/^[+-]/, '');
  if (special === 'inf' || special === 'infinity') return lower.startsWith('-') ? -Infinity : Infinity;
  if (special === 'nan') return NaN;
  if (!FLOAT_TEXT.test(text) || !/\d/.test(text.split(/[eE]/)[0])) return null;
  const parsed = Number(text.replace(/_/g, ''));
  return Number.isNaN(parsed) ? null : parsed;
}

function numericNonBool(value: unknown): number | null {
  if (value === null || value === undefined || typeof value === 'boolean') return null;
  return pyFloat(value);
}

/** Binary (stats) reader: `reward` only, exactly 0 or 1 after float(). */
export function binaryReward(row: unknown): number | null {
  if (!isObject(row)) return null;
  const v = numericNonBool(row.reward);
  return v === 0 || v === 1 ? v : null;
}

/** Group-label (optimize) reader: `reward`, then `qwen_reward`, the first that is exactly 0 or 1. */
export function groupLabel(row: unknown): number | null {
  if (!isObject(row)) return null;
  const reward = row.reward;
  if (reward === 0 || reward === 1) return reward; // the common case, without parsing
  const v = numericNonBool(reward);
  if (v === 0 || v === 1) return v;
  const q = numericNonBool(row.qwen_reward);
  return q === 0 || q === 1 ? q : null;
}

/** Graded (passat) reader: `reward`, then `qwen_reward`, the first that parses to a finite float. */
export function gradedReward(row: unknown): number | null {
  if (!isObject(row)) return null;
  const reward = row.reward;
  if (typeof reward === 'number' && Number.isFinite(reward)) return reward; // the common case, without the loop
  for (const field of ['reward', 'qwen_reward']) {
    const v = numericNonBool(row[field]);
    if (v !== null && Number.isFinite(v)) return v;
  }
  return null;
}

/** judge_trust label reader: not null/boolean and parses to exactly 0 or 1 (strings accepted). */
export function trustLabel(value: unknown): number | null {
  const v = numericNonBool(value);
  return v === 0 || v === 1 ? v : null;
}

/** Agreement label reader: a JSON number (not boolean, not string) equal to 0 or 1. */
export function agreementLabel(value: unknown): number | null {
  return typeof value === 'number' && (value === 0 || value === 1) ? value : null;
}

/** Fraction reader: parses to a float that is not 0 or 1. */
export function isFraction(value: unknown): boolean {
  const v = numericNonBool(value);
  return v !== null && v !== 0 && v !== 1;
}

/** Marker reader: `row.markers[name]` when float() succeeds (booleans count as 1/0). */
export function markerValue(row: unknown, name: string): number | null {
  if (!isObject(row) || !isObject(row.markers) || !(name in row.markers)) return null;
  return pyFloat((row.markers as Row)[name]);
}
