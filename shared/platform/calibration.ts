// The calibration stamp the publish gate writes on every 0/1-rewarded row (platform-api.md §3.5 "Calibration stamp").
import { sha256Hex } from '../stats/hash';
import { wilsonInterval } from '../stats/intervals';
import { isObject, pyStr, pyTruthy, taskKey } from '../stats/keys';
import { pyRound } from '../stats/py-format';
import { groupLabel } from '../stats/readers';
import { taskCountOf, tallyRows, type TaskCount, type TaskTally } from '../stats/task-tally';

/** The policy that produced the rows (the SDK's PolicyRef). */
export interface PolicyRef {
  name: string;
  model: string | null;
  prompt_hash: string | null;
  version: string | null;
}

export interface Calibration {
  task_id: string;
  student: PolicyRef;
  /** Graded rollouts of the task. */
  n: number;
  pass_rate: number;
  mean_kl: number | null;
  /** Wilson 95%, rounded to 4. */
  pass_rate_ci95: [number, number] | null;
}

export type PolicyInput = { name?: string | null; model?: string | null; prompt_hash?: string | null; version?: string | null } | string | null | undefined;

/** A {name, model, prompt_hash, version} object field by field; a bare string is the system prompt, hashed to 16 hex. */
export function policyRef(policy: PolicyInput, model: string | null = null): PolicyRef {
  if (isObject(policy)) {
    const p = policy as Record<string, unknown>;
    return {
      name: pyTruthy(p.name) ? pyStr(p.name) : '',
      model: pyTruthy(p.model) ? (p.model as string) : model,
      prompt_hash: (p.prompt_hash as string | null | undefined) ?? null,
      version: (p.version as string | null | undefined) ?? null,
    };
  }
  const hash = typeof policy === 'string' && policy ? sha256Hex(policy).slice(0, 16) : null;
  return { name: '', model, prompt_hash: hash, version: null };
}

const identified = (p: PolicyRef) => Boolean(p.name || p.model || p.prompt_hash || p.version);

/** The caller's policy when it names anything, else the row's own policy_version (or model_version). */
function studentFor(row: Record<string, unknown>, student: PolicyRef): PolicyRef {
  if (identified(student)) return student;
  const version = pyTruthy(row.policy_version) ? row.policy_version : row.model_version;
  return pyTruthy(version) ? { name: '', model: null, prompt_hash: null, version: pyStr(version) } : student;
}

/** A stamp the row already carries, when it is well-formed enough to keep. */
function carriedStamp(row: Record<string, unknown>): Calibration | null {
  const c = row.calibration;
  if (!isObject(c) || typeof c.n !== 'number' || !Number.isInteger(c.n) || c.n < 1 || typeof c.pass_rate !== 'number') return null;
  const s = isObject(c.student) ? c.student : {};
  return {
    task_id: typeof c.task_id === 'string' ? c.task_id : taskKey(row),
    student: policyRef(s as PolicyInput),
    n: c.n,
    pass_rate: c.pass_rate,
    mean_kl: typeof c.mean_kl === 'number' ? c.mean_kl : null,
    pass_rate_ci95: Array.isArray(c.pass_rate_ci95) && c.pass_rate_ci95.length === 2 ? (c.pass_rate_ci95 as [number, number]) : null,
  };
}

export interface CalibrationCounts {
  n_tasks: number;
  n_rows: number;
  n_stamped: number;
  n_carried: number;
  n_unstamped: number;
  student: PolicyRef;
}

/** The counts of a calibration: rows, tasks and stamps, from the task tally (every 0/1 row is in one task and is stamped). */
export function calibrationCounts(tasks: TaskTally, nRows: number, nCarried: number, student: PolicyRef): CalibrationCounts {
  let stamped = 0;
  for (const n of tasks.counts) stamped += n;
  return { n_tasks: tasks.keys.length, n_rows: nRows, n_stamped: stamped, n_carried: nCarried, n_unstamped: nRows - stamped, student };
}

/**
 * The stamp written on one row, from the counts of its task's 0/1 labels over all the rows; null when the row gets
 * none. `carried`: the row's own stamp was kept, being over more rollouts than remain.
 */
export function stampRow(row: unknown, task: TaskCount | undefined, student: PolicyRef): { stamp: Calibration; carried: boolean } | null {
  if (!isObject(row) || groupLabel(row) === null) return null;
  if (!task || !task.n) return null;
  const existing = carriedStamp(row);
  if (existing && existing.n > task.n) return { stamp: { ...existing, student: identified(student) ? student : existing.student }, carried: true };
  const ci = wilsonInterval(task.passes, task.n);
  return {
    stamp: {
      task_id: taskKey(row),
      student: studentFor(row, student),
      n: task.n,
      pass_rate: task.passes / task.n,
      mean_kl: null,
      pass_rate_ci95: ci ? [pyRound(ci[0], 4), pyRound(ci[1], 4)] : null,
    },
    carried: false,
  };
}

/** Stamps for every row (null where none is written) and the counts. A carried stamp with a larger n is kept. */
export function calibrate(rows: readonly unknown[], policy: PolicyInput, model: string | null): { stamps: Array<Calibration | null>; counts: CalibrationCounts } {
  const student = policyRef(policy, model);
  const tasks = tallyRows(rows);
  let carried = 0;
  const stamps = rows.map((row): Calibration | null => {
    const stamped = stampRow(row, isObject(row) ? taskCountOf(tasks, taskKey(row)) : undefined, student);
    if (stamped?.carried) carried++;
    return stamped ? stamped.stamp : null;
  });
  return { stamps, counts: calibrationCounts(tasks, rows.length, carried, student) };
}
