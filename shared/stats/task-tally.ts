// pass_at's task groups, counted: each task's 0/1 labels (the group-label reader) as task sums (task-sums.ts): how
// many labels and how many of them are 1, tasks in order of first appearance. Everything that reads the groups
// (pass@1, pass^k and pass@k, per_task, reliability, the publish gate's refusal, signal and calibration stamps) reads
// a task's labels only through those two numbers, so the labels themselves are never kept.
import { taskKey } from './keys';
import { groupLabel } from './readers';
import { addToTask, emptyTaskSums, taskIndex, type TaskSums } from './task-sums';

/** Task sums of 0/1 labels: task `keys[i]` has `counts[i]` labels, `sums[i]` of them 1. */
export type TaskTally = TaskSums;

/** One task's counts. */
export interface TaskCount {
  n: number;
  passes: number;
}

export const taskTally = emptyTaskSums;

/** Counts one label (0 or 1) for the task `key`. */
export function addTaskLabel(tally: TaskTally, key: string, label: number): void {
  addToTask(tally, key, 1, label);
}

/** The task's counts, or undefined when it has no 0/1 label. */
export function taskCountOf(tally: TaskTally, key: string): TaskCount | undefined {
  const at = taskIndex(tally).get(key);
  return at === undefined ? undefined : { n: tally.counts[at], passes: tally.sums[at] };
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
