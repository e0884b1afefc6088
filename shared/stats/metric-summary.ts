// metric_summary(rows, metric, n_boot, seed) (docs/markers.md "marker_summary"): a metric's mean over tasks with a
// task-bootstrap 95% interval, the row-level split beside it, and `degenerate` when every applicable row scored the
// same value (no interval then: a metric that cannot come out otherwise cannot be trusted to catch anything).
import { bootstrapCi, MIN_CI_TASKS, type Interval } from './intervals';
import { pyG, pyRound } from './py-format';
import { metricReader, meanOf, taskSums } from './task-means';
import { meansOf } from './task-sums';

export interface MetricSummary {
  metric: string;
  n_tasks: number;
  n_rows: number;
  n_rows_at_1: number;
  n_rows_at_0: number;
  mean: number | null;
  ci95: Interval | null;
  degenerate: boolean;
  warning?: string;
  note?: string;
}

export interface SummaryOptions {
  n_boot?: number;
  seed?: number;
}

/** The metric's name as its sentences say it: a marker's own name, else the metric string. */
const shownName = (metric: string) => (metric.startsWith('marker:') ? metric.slice('marker:'.length) : metric);

export function metricSummary(rows: readonly unknown[], metric = 'pass_at_1', options: SummaryOptions = {}): MetricSummary {
  const read = metricReader(metric);
  const sums = taskSums(rows, metric);
  const means = [...meansOf(sums).values()];
  let nRows = 0;
  let at1 = 0;
  let at0 = 0;
  const distinct = new Set<number>();
  for (const row of rows) {
    const v = read(row);
    if (v === null) continue;
    nRows++;
    if (v === 1) at1++;
    else if (v === 0) at0++;
    if (distinct.size < 2) distinct.add(pyRound(v, 9));
  }
  const degenerate = nRows > 0 && distinct.size === 1;
  const out: MetricSummary = {
    metric,
    n_tasks: means.length,
    n_rows: nRows,
    n_rows_at_1: at1,
    n_rows_at_0: at0,
    mean: means.length ? meanOf(means) : null,
    ci95: degenerate ? null : bootstrapCi(Float64Array.from(means), { n_boot: options.n_boot, seed: options.seed }),
    degenerate,
  };
  if (degenerate) {
    const only = [...distinct][0];
    out.warning =
      `every one of the ${nRows} rows that carry ${shownName(metric)} scored ${pyG(only)}, so it has not shown it can come out ` +
      'any other way: check that it fires at all (a misspelt key looks just like this) before reading the mean, and keep ' +
      'it out of must_not_regress, where a guard that cannot fail guards nothing';
  }
  return out;
}

/** marker_summary's note for a marker with too few tasks for an interval (and not degenerate). */
export function fewTasksNote(name: string, nTasks: number): string {
  return `no interval: ${nTasks} task(s) carry ${name} and a bootstrap needs at least ${MIN_CI_TASKS}; score more tasks (more situations, not more rollouts of one)`;
}
