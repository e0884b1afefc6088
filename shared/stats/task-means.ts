// Per-task means of a metric (stats-semantics.md section 7 step 1): "pass_at_1" (binary reader) or "marker:<name>".
import { StatsValueError } from './errors';
import { taskKey, type Row } from './keys';
import { binaryReward, markerValue } from './readers';

/** The value reader of a metric string; raises for a metric with no colon other than "pass_at_1". */
export function metricReader(metric: string): (row: unknown) => number | null {
  if (metric === 'pass_at_1') return binaryReward;
  const colon = metric.indexOf(':');
  if (colon < 0) throw new StatsValueError(`unknown metric "${metric}": use "pass_at_1" or "marker:<name>"`);
  const name = metric.slice(colon + 1);
  return (row) => markerValue(row, name);
}

/**
 * Sums already computed in this synchronous turn, per rows array and metric. delta_report reads the same two row
 * sets' task sums six to nine times (compare_runs per metric, the ceiling check, the noise floor, the sizing),
 * each a pass over 100k rows; with this it makes one pass per set and metric. The cache is dropped at the next
 * microtask, so it never outlives the computation that filled it: rows a later job changes, or a worker's
 * cached rows read by the next job, are always read afresh. The maps it hands out are shared: read-only.
 */
let turnCache: WeakMap<readonly unknown[], Map<string, ReadonlyMap<string, readonly [number, number]>>> | null = null;

function cachedSums(rows: readonly unknown[], metric: string): ReadonlyMap<string, readonly [number, number]> | undefined {
  return turnCache?.get(rows)?.get(metric);
}

function remember(rows: readonly unknown[], metric: string, sums: ReadonlyMap<string, readonly [number, number]>): void {
  if (!turnCache) {
    turnCache = new WeakMap();
    queueMicrotask(() => (turnCache = null));
  }
  let byMetric = turnCache.get(rows);
  if (!byMetric) turnCache.set(rows, (byMetric = new Map()));
  byMetric.set(metric, sums);
}

/** Task key -> [sum, count] of the metric's values (first-appearance order). Shared within a turn: do not change it. */
export function taskSums(rows: readonly unknown[], metric: string): ReadonlyMap<string, readonly [number, number]> {
  const cached = cachedSums(rows, metric);
  if (cached) return cached;
  const read = metricReader(metric);
  const sums = new Map<string, [number, number]>();
  for (const row of rows) {
    const v = read(row);
    if (v === null) continue;
    const key = taskKey(row as Row);
    const acc = sums.get(key);
    if (acc) { acc[0] += v; acc[1]++; }
    else sums.set(key, [v, 1]);
  }
  remember(rows, metric, sums);
  return sums;
}

const meansCache = new WeakMap<ReadonlyMap<string, readonly [number, number]>, ReadonlyMap<string, number>>();

/** Task key -> mean of the metric over that task's rows that carry a value. Shared within a turn: do not change it. */
export function taskMeans(rows: readonly unknown[], metric: string): ReadonlyMap<string, number> {
  const sums = taskSums(rows, metric);
  const known = meansCache.get(sums);
  if (known) return known;
  const out = meansOf(sums);
  meansCache.set(sums, out);
  return out;
}

/** Task key -> mean, from task sums (same order). */
export function meansOf(sums: ReadonlyMap<string, readonly [number, number]>): Map<string, number> {
  const out = new Map<string, number>();
  sums.forEach((sc, key) => out.set(key, sc[0] / sc[1])); // not for-of with destructuring: half the time in a cold worker
  return out;
}

/**
 * The smallest of a list (Infinity when empty), by a loop: Math.min(...values) passes each value as an argument and
 * overflows the stack past some 150,000 of them (a run of 200,000 tasks).
 */
export function minOf(values: ArrayLike<number>): number {
  let min = Infinity;
  for (let i = 0; i < values.length; i++) if (values[i] < min) min = values[i];
  return min;
}

export function meanOf(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}

/** Sample standard deviation (n - 1); null under 2 values. Uses statistics.stdev-like two-pass arithmetic. */
export function sampleSd(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  const m = meanOf(values);
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  return Math.sqrt(ss / (values.length - 1));
}

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/**
 * Python's order of str (by code point), as the SDK sorts task ids and names. JavaScript's `<` compares UTF-16 code
 * units instead, which differs where a character past U+FFFF (a surrogate pair) meets one from U+E000 to U+FFFF.
 */
export function codePointCompare(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate starts a code point above U+FFFF: it sorts after every character of one unit.
    if (isSurrogate(x) !== isSurrogate(y)) return isSurrogate(x) ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

const HAS_SURROGATE = /[\ud800-\udfff]/;

/**
 * The keys of `a` that `b` has too, in code-point order (codePointCompare). Without surrogates the engine's own sort
 * gives that order without calling back into JavaScript for each comparison: some 40% faster on 25,000 task ids.
 */
export function sharedKeysSorted(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): string[] {
  const shared: string[] = [];
  let surrogates = false;
  for (const key of a.keys()) {
    if (!b.has(key)) continue;
    shared.push(key);
    if (!surrogates && HAS_SURROGATE.test(key)) surrogates = true;
  }
  return surrogates ? shared.sort(codePointCompare) : shared.sort();
}
