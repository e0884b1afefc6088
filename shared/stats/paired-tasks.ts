// The per-task table of a comparison: each task's pass rate in the baseline and in the candidate, side by side.
// The rates are pass_at's own per-task rates (pass-at.ts), so a task reads the same here as in pass@1.

export type PairedTaskStatus = 'improved' | 'regressed' | 'same' | 'only_baseline' | 'only_candidate';

export interface PairedTask {
  task: string;
  baseline: number | null;
  candidate: number | null;
  /** candidate − baseline; null when the task is on one side only. */
  delta: number | null;
  status: PairedTaskStatus;
}

export interface PairedTaskTable {
  tasks: PairedTask[];
  n_paired: number;
  n_improved: number;
  n_regressed: number;
  n_same: number;
  n_only_baseline: number;
  n_only_candidate: number;
}

/** A change smaller than this is float noise, not a move (rates are ratios of small integers). */
const EPSILON = 1e-12;

function statusOf(baseline: number | null, candidate: number | null): PairedTaskStatus {
  if (candidate === null) return 'only_baseline';
  if (baseline === null) return 'only_candidate';
  if (candidate - baseline > EPSILON) return 'improved';
  if (baseline - candidate > EPSILON) return 'regressed';
  return 'same';
}

/** One task's row: its two rates, their difference and its status. */
const pairedTask = (task: string, baseline: number | null, candidate: number | null): PairedTask => ({
  task,
  baseline,
  candidate,
  delta: baseline === null || candidate === null ? null : candidate - baseline,
  status: statusOf(baseline, candidate),
});

const oneSidedRank = (t: PairedTask) => (t.delta === null ? 1 : 0);

/** Sort order: regressions first (largest drop first), then unchanged, then gains, then one-sided tasks; ties by task. */
function byRegression(a: PairedTask, b: PairedTask): number {
  return oneSidedRank(a) - oneSidedRank(b) || (a.delta ?? 0) - (b.delta ?? 0) || (a.task < b.task ? -1 : a.task > b.task ? 1 : 0);
}

/** Task -> rate, as pass_at's per_task gives it (a record) or as a fold's task groups give it (a map). */
type Rates = ReadonlyMap<string, number> | Record<string, number>;

const asMap = (rates: Rates): ReadonlyMap<string, number> => (rates instanceof Map ? rates : new Map(Object.entries(rates)));

export function pairedTaskTable(baselineRates: Rates, candidateRates: Rates): PairedTaskTable {
  const baseline = asMap(baselineRates);
  const candidate = asMap(candidateRates);
  const tasks: PairedTask[] = [];
  const counts = { improved: 0, regressed: 0, same: 0, only_baseline: 0, only_candidate: 0 };
  const add = (task: string, a: number | null, b: number | null) => {
    const row = pairedTask(task, a, b);
    counts[row.status]++;
    tasks.push(row);
  };
  // forEach, not for-of: no entry array per task, which a cold worker feels on 25,000 tasks.
  baseline.forEach((a, task) => add(task, a, candidate.get(task) ?? null));
  candidate.forEach((b, task) => {
    if (!baseline.has(task)) add(task, null, b);
  });
  tasks.sort(byRegression);
  return {
    tasks,
    n_paired: counts.improved + counts.regressed + counts.same,
    n_improved: counts.improved,
    n_regressed: counts.regressed,
    n_same: counts.same,
    n_only_baseline: counts.only_baseline,
    n_only_candidate: counts.only_candidate,
  };
}

/**
 * The table as the compare report sends it: one array per column, tasks in the table's order (regressions first),
 * and the counts. A quarter of the bytes of the rows (25,000 tasks: some 0.5 MB of JSON, not 2 MB), so the answer
 * crosses from the worker, through the engine and into the window in a quarter of the time. Delta and status are
 * not sent: fromTaskColumns derives them exactly as pairedTaskTable does.
 */
export interface PairedTaskColumns extends Omit<PairedTaskTable, 'tasks'> {
  task: string[];
  baseline: Array<number | null>;
  candidate: Array<number | null>;
}

export function toTaskColumns(table: PairedTaskTable): PairedTaskColumns {
  const { tasks, ...counts } = table;
  return { ...counts, task: tasks.map((t) => t.task), baseline: tasks.map((t) => t.baseline), candidate: tasks.map((t) => t.candidate) };
}

/** The table's rows again (in the same order), each with its delta and status. */
export function fromTaskColumns(columns: PairedTaskColumns): PairedTaskTable {
  const { task, baseline, candidate, ...counts } = columns;
  return { ...counts, tasks: task.map((name, i) => pairedTask(name, baseline[i] ?? null, candidate[i] ?? null)) };
}

/** Row `i` of the columns, with its delta and status (a screen that shows a few rows of 25,000 makes only those). */
export const taskRowAt = (columns: PairedTaskColumns, i: number): PairedTask => pairedTask(columns.task[i], columns.baseline[i] ?? null, columns.candidate[i] ?? null);

/** Row `i`'s status alone (filtering by status makes no rows). */
export const taskStatusAt = (columns: PairedTaskColumns, i: number): PairedTaskStatus => statusOf(columns.baseline[i] ?? null, columns.candidate[i] ?? null);
