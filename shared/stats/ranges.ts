// Range checks for the statistics' numeric options: a value out of range is a StatsValueError naming the function,
// the option, what was given and an example, so the CLI, the API and the app refuse it alike.
import { StatsValueError } from './errors';

const shown = (value: unknown): string => (typeof value === 'number' ? String(value) : JSON.stringify(value) ?? String(value));

/** A probability strictly between 0 and 1 (power, alpha, levels, effects). */
export function requireOpenUnit(fn: string, name: string, value: unknown, example: number): number {
  if (typeof value === 'number' && value > 0 && value < 1) return value;
  throw new StatsValueError(`${fn}: ${name} must be between 0 and 1, exclusive (got ${shown(value)}); pass e.g. ${name}=${example}`);
}

/** A rate in [0, 1] (a base pass rate, a threshold). */
export function requireUnit(fn: string, name: string, value: unknown, example: number): number {
  if (typeof value === 'number' && value >= 0 && value <= 1) return value;
  throw new StatsValueError(`${fn}: ${name} must be a rate between 0 and 1 (got ${shown(value)}); pass e.g. ${name}=${example}`);
}

/** A finite number of at least `min` (k, counts); whole when `whole`. */
export function requireAtLeast(fn: string, name: string, value: unknown, min: number, example: number, whole = false): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= min && (!whole || Number.isInteger(value))) return value;
  throw new StatsValueError(`${fn}: ${name} must be ${whole ? 'a whole number' : 'a number'} of at least ${min} (got ${shown(value)}); pass e.g. ${name}=${example}`);
}
