// The publish gate's input for a stored dataset (shared/platform GateInput), gathered without holding its rows,
// in two parts. The task groups come from the rows table's columns (main/rows/gate-columns.ts) plus the few rows
// they do not describe: that is all the refusal and the stamps' numbers need. The rest the gate reads of a row
// (its policy_version, a carried calibration, the judge's trust) is folded row by row (RowFacts): by the upload as
// it streams the rows, which reads each row anyway, or by one scan when nothing is uploaded.
import type { Db } from '../db/connection';
import { columnTasks, storedRowJson, undescribedRows, type ColumnTask } from '../rows/gate-columns';
import { countRows } from '../rows/index';
import { stampRow, type GateInput, type PolicyRef } from '../../shared/platform/index';
import { isObject, pyTruthy, taskKey } from '../../shared/stats/keys';
import { foldPassAt } from '../../shared/stats/pass-at-fold';
import { groupLabel, gradedReward } from '../../shared/stats/readers';
import { addRunConfigRow } from '../../shared/stats/run-config';
import { taskCountOf, taskTally, type TaskTally } from '../../shared/stats/task-tally';
import { addToTask } from '../../shared/stats/task-sums';

type Obj = Record<string, unknown>;

/** The gate's input before the row facts: the task tally and the counts the columns give. */
export interface GateGroups {
  tasks: TaskTally;
  nRows: number;
  objectRows: number;
  repeated: boolean;
  graded: number;
  /** The one value every graded row holds, or null; `distinct` is 0, 1 or 2 (two or more); a graded value, if any. */
  single: number | null;
  distinct: number;
  someReward: number | null;
  /** Rows with a judge_status (pass_at's note when nothing is graded); only the rows the columns do not describe. */
  judged: Obj[];
}

interface Task {
  n: number;
  passes: number;
  /** Ordinal of the task's first 0/1 row: tasks are tallied in this order, as pass_at's fold tallies them. */
  first: number;
}

/** The tasks' tally, in the order given. */
function tallyOf(tasks: Iterable<[string, Task]>): TaskTally {
  const tally = taskTally();
  for (const [key, task] of tasks) addToTask(tally, key, task.n, task.passes);
  return tally;
}

export function gateGroups(db: Db, datasetId: string): GateGroups {
  const out = { nRows: 0, objectRows: 0, repeated: false, graded: 0 };
  const values = new Set<number>();
  const { tasks: described, checked } = columnTasks(db, datasetId);
  let undescribed = 0;
  for (const task of described.values()) {
    undescribed += task.rows - task.labelled;
    out.nRows += task.labelled;
    if (task.labelled > 1) out.repeated = true;
    if (task.passes > 0) values.add(1);
    if (task.passes < task.labelled) values.add(0);
  }
  out.objectRows = out.graded = out.nRows;
  const judged: Obj[] = [];
  // The rows the columns do not describe (usually none), read one by one as the gate's readers read them.
  const readOthers = undescribed > 0 || out.nRows < countRows(db, datasetId);
  let tasks: Iterable<[string, Task]> = labelledTasks(described);
  if (readOthers) {
    const byKey = new Map(tasks);
    const otherKeys = new Set<string>();
    for (const { ordinal, json } of undescribedRows(db, datasetId, checked)) {
      out.nRows++;
      const row = JSON.parse(json) as unknown;
      if (!isObject(row)) continue;
      out.objectRows++;
      const key = taskKey(row);
      if (byKey.has(key) || otherKeys.has(key)) out.repeated = true;
      otherKeys.add(key);
      const label = groupLabel(row);
      const task = byKey.get(key);
      if (label !== null && task) Object.assign(task, { n: task.n + 1, passes: task.passes + label, first: Math.min(task.first, ordinal) });
      else if (label !== null) byKey.set(key, { n: 1, passes: label, first: ordinal });
      const reward = gradedReward(row);
      if (reward !== null) (out.graded++, values.add(reward));
      if (pyTruthy(row.judge_status)) judged.push({ judge_status: row.judge_status, reason: row.reason });
    }
    // A task an undescribed row starts, or moves earlier, is put in place.
    tasks = [...byKey].sort((a, b) => a[1].first - b[1].first);
  }
  const someReward = values.size ? [...values][0] : null;
  return { tasks: tallyOf(tasks), ...out, single: values.size === 1 ? someReward : null, distinct: Math.min(values.size, 2), someReward, judged };
}

/** The described tasks that have a 0/1 row, as the gate counts them. */
function* labelledTasks(described: Map<string, ColumnTask>): Generator<[string, Task]> {
  for (const [key, task] of described) if (task.labelled) yield [key, { n: task.labelled, passes: task.passes, first: task.first! }];
}

/** What the gate reads of each row beyond its task and reward, folded over the rows in stored order. */
export class RowFacts {
  trust: unknown = null;
  carried = 0;
  private readonly versions = new Map<string, Obj>();

  constructor(
    private readonly tasks: TaskTally,
    private readonly student: PolicyRef,
  ) {}

  /** A row's JSON text names none of the fields this reads: it need not be parsed for them. */
  static skips(json: string): boolean {
    return !json.includes('"policy_version"') && !json.includes('"calibration"') && !json.includes('"judge_meta"');
  }

  add(row: unknown): void {
    if (!isObject(row)) return;
    const meta = row.judge_meta;
    if (this.trust === null && isObject(meta) && meta.trust) this.trust = meta.trust;
    if (row.calibration !== undefined && stampRow(row, taskCountOf(this.tasks, taskKey(row)), this.student)?.carried) this.carried++;
    if (row.policy_version !== undefined) this.versions.set(JSON.stringify(row.policy_version) ?? '', { policy_version: row.policy_version });
  }

  /** One row per distinct policy_version: what run_config reads of the rows here. */
  versionRows(): Obj[] {
    return [...this.versions.values()];
  }
}

/** The facts by one scan of the stored rows, parsing only those that name a field RowFacts reads. */
export function scanRowFacts(db: Db, datasetId: string, tasks: TaskTally, student: PolicyRef): RowFacts {
  const facts = new RowFacts(tasks, student);
  for (const json of storedRowJson(db, datasetId)) if (!RowFacts.skips(json)) facts.add(JSON.parse(json));
  return facts;
}

export function gateInputOf(part: GateGroups, facts: RowFacts): GateInput {
  // pass_at's fold, from the counts: the task tally, the graded rewards, the judge's failures (rows with a judge_status,
  // folded as pass_at folds them), and run_config's fold over what the gate reads of each row (policy_version).
  const fold = foldPassAt(part.judged);
  fold.tasks = part.tasks;
  Object.assign(fold, { graded: part.graded, firstReward: part.single ?? part.someReward, distinctRewards: part.distinct });
  for (const row of facts.versionRows()) addRunConfigRow(fold.config, row);
  Object.assign(fold.config, { objectRows: part.objectRows, graded: part.graded });
  return { fold, n_rows: part.nRows, repeated: part.repeated, n_carried: facts.carried, judge_trust: facts.trust };
}
