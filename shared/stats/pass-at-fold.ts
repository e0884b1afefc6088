// pass_at's fold: what pass_at gathers from its rows, one row at a time, so the rows need not be held, and two
// threads can each fold a part of a file or dataset and merge (test/unit/stats/pass-at-fold.test.ts).
import { isObject, pyStr, pyTruthy, taskKey } from './keys';
import { gradedReward, groupLabel } from './readers';
import { addRunConfigRow, mergeRunConfig, runConfigFold, type RunConfigFold } from './run-config';
import { addTaskLabel, taskTally, type TaskTally } from './task-tally';
import { mergeTaskSums } from './task-sums';

/**
 * What pass_at gathers from rows seen one at a time (a fold), so a file or dataset need not be held as row objects
 * and two threads can each fold a part: plain data (structured-clone safe), and the fold of consecutive parts
 * merges (mergePassAt) into exactly the fold of all the rows in order.
 */
export interface PassAtFold {
  /** Each task's 0/1 labels counted, tasks in order of first appearance. */
  tasks: TaskTally;
  /** Graded rewards: how many, the first, and whether a second distinct value was seen (the degenerate note). */
  graded: number;
  firstReward: number | null;
  distinctRewards: number;
  /** Rows with a judge_status, those not 'ok', their statuses, and the first such row's reason (nothing to score). */
  judged: number;
  failed: number;
  failedStatuses: Set<string>;
  failedReason: string | null;
  config: RunConfigFold;
}

export function passAtFold(): PassAtFold {
  return { tasks: taskTally(), graded: 0, firstReward: null, distinctRewards: 0, judged: 0, failed: 0, failedStatuses: new Set(), failedReason: null, config: runConfigFold() };
}

/** Adds one row; `key` is its taskKey when the caller has it already (delta_report's side fold). */
export function addPassAtRow(fold: PassAtFold, row: unknown, key?: string): void {
  const label = groupLabel(row);
  if (label !== null) addTaskLabel(fold.tasks, key ?? taskKey(row as Record<string, unknown>), label);
  const v = gradedReward(row);
  if (v !== null) {
    fold.graded++;
    if (fold.firstReward === null) {
      fold.firstReward = v;
      fold.distinctRewards = 1;
    } else if (fold.distinctRewards === 1 && v !== fold.firstReward) fold.distinctRewards = 2;
  }
  if (isObject(row) && pyTruthy(row.judge_status)) {
    fold.judged++;
    const status = pyStr(row.judge_status);
    if (status !== 'ok') {
      fold.failed++;
      fold.failedStatuses.add(status);
      if (fold.failedReason === null && pyTruthy(row.reason)) fold.failedReason = pyStr(row.reason).trim().slice(0, 120);
    }
  }
  addRunConfigRow(fold.config, row);
}

/** The fold of `earlier`'s rows followed by `later`'s, written into `earlier`. */
export function mergePassAt(earlier: PassAtFold, later: PassAtFold): PassAtFold {
  mergeTaskSums(earlier.tasks, later.tasks);
  if (later.firstReward !== null) {
    if (earlier.firstReward === null) {
      earlier.firstReward = later.firstReward;
      earlier.distinctRewards = later.distinctRewards;
    } else if (earlier.distinctRewards === 1 && (later.distinctRewards > 1 || later.firstReward !== earlier.firstReward)) earlier.distinctRewards = 2;
  }
  earlier.graded += later.graded;
  earlier.judged += later.judged;
  earlier.failed += later.failed;
  for (const status of later.failedStatuses) earlier.failedStatuses.add(status);
  earlier.failedReason ??= later.failedReason;
  mergeRunConfig(earlier.config, later.config);
  return earlier;
}

export function foldPassAt(rows: readonly unknown[]): PassAtFold {
  const fold = passAtFold();
  for (const row of rows) addPassAtRow(fold, row);
  return fold;
}
