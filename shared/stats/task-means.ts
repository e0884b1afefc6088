// Per-task means of a metric (stats-semantics.md section 7 step 1): "pass_at_1" (binary reader) or "marker:<name>".
import { StatsValueError } from './errors';
import { taskKey, type Row } from './keys';
import { binaryReward, markerValue } from './readers';
import { sortedKeys } from './task-order';
import { addToTask, emptyTaskSums, meansOf, type TaskSums } from './task-sums';

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
 * cached rows read by the next job, are always read afresh. The sums it hands out are shared: read-only.
 */
let turnCache: WeakMap<readonly unknown[], Map<string, Readonly<TaskSums>>> | null = null;

function cachedSums(rows: readonly unknown[], metric: string): Readonly<TaskSums> | undefined {
  return turnCache?.get(rows)?.get(metric);
}

function remember(rows: readonly unknown[], metric: string, sums: Readonly<TaskSums>): void {
  if (!turnCache) {
    turnCache = new WeakMap();
    queueMicrotask(() => (turnCache = null));
  }
  let byMetric = turnCache.get(rows);
  if (!byMetric) turnCache.set(rows, (byMetric = new Map()));
  byMetric.set(metric, sums);
}

/** Each task's count and sum of the metric's values (first-appearance order). Shared within a turn: do not change it. */
export function taskSums(rows: readonly unknown[], metric: string): Readonly<TaskSums> {
  const cached = cachedSums(rows, metric);
  if (cached) return cached;
  const read = metricReader(metric);
  const sums = emptyTaskSums();
  for (const row of rows) {
    const v = read(row);
    if (v !== null) addToTask(sums, taskKey(row as Row), 1, v);
  }
  remember(rows, metric, sums);
  return sums;
}

/** Task key -> mean of the metric over that task's rows that carry a value. Shared within a turn: do not change it. */
export function taskMeans(rows: readonly unknown[], metric: string): ReadonlyMap<string, number> {
  return meansOf(taskSums(rows, metric));
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

/** The keys of `a` that `b` has too, in code-point order (codePointCompare). */
export function sharedKeysSorted(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): string[] {
  const shared: string[] = [];
  for (const key of a.keys()) if (b.has(key)) shared.push(key);
  return sortedKeys(shared);
}
