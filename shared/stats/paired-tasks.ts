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

/** Sort order: regressions first (largest drop first), then unchanged, then gains, then one-sided tasks; ties by task. */
function byRegression(a: PairedTask, b: PairedTask): number {
  const rank = (t: PairedTask) => (t.delta === null ? 1 : 0);
  return rank(a) - rank(b) || (a.delta ?? 0) - (b.delta ?? 0) || (a.task < b.task ? -1 : a.task > b.task ? 1 : 0);
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
    const status = statusOf(a, b);
    counts[status]++;
    tasks.push({ task, baseline: a, candidate: b, delta: a === null || b === null ? null : b - a, status });
  };
  for (const [task, a] of baseline) add(task, a, candidate.get(task) ?? null);
  for (const [task, b] of candidate) if (!baseline.has(task)) add(task, null, b);
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
