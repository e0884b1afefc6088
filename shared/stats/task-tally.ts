// pass_at's task groups, counted: each task's 0/1 labels (the group-label reader) as how many and how many of them
// are 1, tasks in order of first appearance. Everything that reads the groups (pass@1, pass^k and pass@k, per_task,
// reliability, the publish gate's refusal, signal and calibration stamps) reads a task's labels only through those
// two numbers, so the labels themselves are never kept.
// Kept as three parallel arrays, not a map of lists: a fold of 100k rows then allocates nothing per row, a worker
// sends it to another in some 4 ms instead of 20 (no map to clone), and a kept fold reads back as three arrays.
import { taskKey } from './keys';
import { groupLabel } from './readers';

/** Plain data (structured-clone safe): task `keys[i]` has `sizes[i]` labels, `passes[i]` of them 1. */
export interface TaskTally {
  keys: string[];
  sizes: number[];
  passes: number[];
}

/** One task's counts. */
export interface TaskCount {
  n: number;
  passes: number;
}

/**
 * Each tally's key -> position, derived from `keys` when first needed and kept beside the tally (never in it: a
 * tally sent to another thread or kept on disk carries no index to copy, and a tally whose index was dropped builds
 * it again).
 */
const indexes = new WeakMap<TaskTally, Map<string, number>>();

function indexOf(tally: TaskTally): Map<string, number> {
  let index = indexes.get(tally);
  if (!index) {
    index = new Map();
    for (let i = 0; i < tally.keys.length; i++) index.set(tally.keys[i], i);
    indexes.set(tally, index);
  }
  return index;
}

export function taskTally(): TaskTally {
  return { keys: [], sizes: [], passes: [] };
}

/** Counts one label (0 or 1) for the task `key`. */
export function addTaskLabel(tally: TaskTally, key: string, label: number): void {
  addTaskCount(tally, key, 1, label);
}

/** Adds `n` labels, `passes` of them 1, for the task `key` (a task new to the tally goes last). */
export function addTaskCount(tally: TaskTally, key: string, n: number, passes: number): void {
  const index = indexOf(tally);
  const at = index.get(key);
  if (at !== undefined) {
    tally.sizes[at] += n;
    tally.passes[at] += passes;
    return;
  }
  index.set(key, tally.keys.length);
  tally.keys.push(key);
  tally.sizes.push(n);
  tally.passes.push(passes);
}

/**
 * The tally of `earlier`'s labels followed by `later`'s, written into `earlier`. The later tasks that are new are
 * appended without entering the index, which is dropped instead (a merged tally is usually read, not added to;
 * one that is added to builds its index again).
 */
export function mergeTaskTallies(earlier: TaskTally, later: TaskTally): TaskTally {
  const index = indexOf(earlier);
  for (let j = 0; j < later.keys.length; j++) {
    const at = index.get(later.keys[j]);
    if (at !== undefined) {
      earlier.sizes[at] += later.sizes[j];
      earlier.passes[at] += later.passes[j];
    } else {
      // Not pushed into the index: the later keys are distinct, so none of them is looked up again here.
      earlier.keys.push(later.keys[j]);
      earlier.sizes.push(later.sizes[j]);
      earlier.passes.push(later.passes[j]);
    }
  }
  indexes.delete(earlier);
  return earlier;
}

/** The task's counts, or undefined when it has no 0/1 label. */
export function taskCountOf(tally: TaskTally, key: string): TaskCount | undefined {
  const at = indexOf(tally).get(key);
  return at === undefined ? undefined : { n: tally.sizes[at], passes: tally.passes[at] };
}

/** The rows' tally (every row with a 0/1 group label, by its task key). */
export function tallyRows(rows: readonly unknown[]): TaskTally {
  const tally = taskTally();
  for (const row of rows) {
    const label = groupLabel(row);
    if (label !== null) addTaskLabel(tally, taskKey(row as Record<string, unknown>), label);
  }
  return tally;
}

/** Each task's pass rate (its mean label; exact, as the labels are 0 and 1), by task key in tally order. */
export function taskRateMap(tally: TaskTally): Map<string, number> {
  const rates = new Map<string, number>();
  for (let i = 0; i < tally.keys.length; i++) rates.set(tally.keys[i], tally.passes[i] / tally.sizes[i]);
  return rates;
}
