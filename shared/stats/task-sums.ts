// Per-task sums: for each task, how many values and their sum, tasks in order of first appearance. pass_at's task
// groups (task-tally.ts: the values are 0/1 labels) and delta_report's per-metric task sums (delta-side.ts) are both
// this, and everything that reads them reads a task only through those two numbers (its mean is sum / count).
// Kept as three parallel arrays, not a map of pairs: a fold of 100k rows allocates nothing per row, a worker sends it
// to another as three arrays (no map to clone), and a kept fold reads back as three arrays in one pass each
// (main/rows/fold-codec.ts), where a map of 25,000 pairs took 40-80 ms to rebuild and as long again to collect.
import { sortedKeys } from './task-order';

/** Plain data (structured-clone safe): task `keys[i]` has `counts[i]` values, summing to `sums[i]`. */
export interface TaskSums {
  keys: string[];
  counts: number[];
  sums: number[];
}

/**
 * Each one's key -> position, derived from `keys` when first needed and kept beside it (never in it: sums sent to
 * another thread or kept on disk carry no index to copy, and sums whose index was dropped build it again).
 */
const indexes = new WeakMap<TaskSums, Map<string, number>>();

/**
 * Each one's means (meansOf), kept beside it as its index is: a report reads the same sums' means several times
 * (each metric's comparison, the headline's mean, the ceiling check). Dropped by every change made here.
 */
const means = new WeakMap<TaskSums, ReadonlyMap<string, number>>();

/** The position of each task key (read-only: built from `keys`, and kept while nothing new is merged in). */
export function taskIndex(sums: TaskSums): ReadonlyMap<string, number> {
  return indexOf(sums);
}

function indexOf(sums: TaskSums): Map<string, number> {
  let index = indexes.get(sums);
  if (!index) {
    index = new Map();
    for (let i = 0; i < sums.keys.length; i++) index.set(sums.keys[i], i);
    indexes.set(sums, index);
  }
  return index;
}

export function emptyTaskSums(): TaskSums {
  return { keys: [], counts: [], sums: [] };
}

/** Adds `count` values summing to `sum` to the task `key` (a task new to them goes last). */
export function addToTask(sums: TaskSums, key: string, count: number, sum: number): void {
  const index = indexOf(sums);
  means.delete(sums);
  const at = index.get(key);
  if (at !== undefined) {
    sums.counts[at] += count;
    sums.sums[at] += sum;
    return;
  }
  index.set(key, sums.keys.length);
  sums.keys.push(key);
  sums.counts.push(count);
  sums.sums.push(sum);
}

/**
 * The sums of `earlier`'s values followed by `later`'s, written into `earlier`, its index kept up to date: an
 * import merges the folds of its blocks one after another into one (main/datasets/import-session.ts), and an index
 * built again at each merge took 1.7 s of its engine thread for 170 blocks of a 25,000-task file.
 */
export function mergeTaskSums(earlier: TaskSums, later: TaskSums): TaskSums {
  const index = indexOf(earlier);
  for (let j = 0; j < later.keys.length; j++) {
    const at = index.get(later.keys[j]);
    if (at !== undefined) {
      earlier.counts[at] += later.counts[j];
      earlier.sums[at] += later.sums[j];
    } else {
      index.set(later.keys[j], earlier.keys.length);
      earlier.keys.push(later.keys[j]);
      earlier.counts.push(later.counts[j]);
      earlier.sums.push(later.sums[j]);
    }
  }
  means.delete(earlier);
  return earlier;
}

/** Each task's mean (sum / count), by task key in the sums' order. Shared while the sums stay as they are: read-only. */
export function meansOf(sums: TaskSums): ReadonlyMap<string, number> {
  let known = means.get(sums);
  if (!known) {
    const out = new Map<string, number>();
    for (let i = 0; i < sums.keys.length; i++) out.set(sums.keys[i], sums.sums[i] / sums.counts[i]);
    means.set(sums, (known = out));
  }
  return known;
}

/** The task keys both have, in code-point order (as the SDK pairs tasks). */
export function sharedTaskKeys(a: TaskSums, b: TaskSums): string[] {
  const other = indexOf(b);
  return sortedKeys(a.keys.filter((key) => other.has(key)));
}
