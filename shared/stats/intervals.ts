// Wilson score interval and the percentile bootstrap (stats-semantics.md sections 4.1 and 4.2).
import { StatsValueError } from './errors';
import { PyRandom, type PySeed } from './random';
import { multinomialBootstrapMeans } from './fast-bootstrap';
import { pyFloat } from './readers';

export { normInvCdf, normCdf, erfc } from './normal';

export const Z_95 = 1.96;
export const BOOTSTRAP_DRAWS = 2000;
export const MIN_CI_TASKS = 3;

export type Interval = [number, number];

/** wilson_interval(successes, n, z = 1.96): null when n <= 0 (section 4.1). */
export function wilsonInterval(successes: number, n: number, z: number = Z_95): Interval | null {
  if (n <= 0) return null;
  const p = successes / n;
  const denom = 1 + (z * z) / n;
  const center = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

/** Left-to-right float sum (CPython 3.11 `sum`). */
export function pySum(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s;
}

export function pyMean(values: ArrayLike<number>): number {
  return pySum(values) / values.length;
}

export interface BootstrapOptions {
  n_boot?: number;
  seed?: PySeed;
  level?: number;
}

/** Above this many draws (n x n_boot) a few-valued input is resampled by multinomial counts (same distribution, faster). */
export const FAST_BOOTSTRAP_DRAWS = 4_000_000;

/** The replicate means of a bootstrap, drawn exactly as the SDK does (randrange(n), in order) for small inputs. */
export function bootstrapMeans(values: ArrayLike<number>, nBoot: number, rng: PyRandom): Float64Array {
  const n = values.length;
  if (n * nBoot > FAST_BOOTSTRAP_DRAWS) {
    const fast = multinomialBootstrapMeans(values, nBoot, rng);
    if (fast) return fast;
  }
  const xs = Float64Array.from(values as ArrayLike<number>);
  const means = new Float64Array(nBoot);
  for (let b = 0; b < nBoot; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += xs[rng.randrange(n)];
    means[b] = s / n;
  }
  return means;
}

/** Percentile indexes of a sorted replicate list: trunc((1 - level)/2 * n_boot) and trunc((1 + level)/2 * n_boot) - 1. */
export function percentileIndexes(level: number, nBoot: number): [number, number] {
  return [Math.trunc(((1 - level) / 2) * nBoot), Math.trunc(((1 + level) / 2) * nBoot) - 1];
}

function checkLevel(level: number): void {
  if (!(level > 0 && level < 1)) throw new StatsValueError(`level must be between 0 and 1, exclusive (got ${level}); pass e.g. level=0.95`);
}

/** The values as doubles (Python's float()), refused by index when one is not a number. */
function asFloats(values: ArrayLike<unknown>): Float64Array {
  const xs = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = typeof values[i] === 'number' ? (values[i] as number) : pyFloat(values[i]);
    if (v === null) throw new StatsValueError(`bootstrap_ci: value ${i} (${String(values[i])}) is not a number`);
    xs[i] = v;
  }
  return xs;
}

/** bootstrap_ci(values, n_boot = 2000, seed = 0, level = 0.95) of the mean (doubles are read as they are); null under 3 values (section 4.2). */
export function bootstrapCi(values: ArrayLike<unknown>, options: BootstrapOptions = {}): Interval | null {
  const nBoot = options.n_boot ?? BOOTSTRAP_DRAWS;
  const level = options.level ?? 0.95;
  checkLevel(level);
  const xs = values instanceof Float64Array ? values : asFloats(values);
  if (xs.length < MIN_CI_TASKS) return null;
  if (!Number.isInteger(nBoot) || nBoot < 1) throw new StatsValueError(`n_boot must be a whole number of at least 1 (got ${nBoot})`);
  const means = bootstrapMeans(xs, nBoot, new PyRandom(options.seed ?? 0));
  means.sort();
  const [lo, hi] = percentileIndexes(level, nBoot);
  return [means[Math.max(0, lo)], means[Math.min(nBoot - 1, hi)]];
}

/** The sentence used when an interval is withheld (no_interval_note). */
export function noIntervalNote(n: number, quantity: string): string {
  const tasks = n === 1 ? '1 task' : `${n} tasks`;
  return `no interval on ${quantity}: ${tasks}, and a bootstrap needs at least ${MIN_CI_TASKS}; add tasks, or give each row its own task_id when rows are separate items`;
}
