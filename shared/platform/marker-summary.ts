// marker_summary(rows): each marker's mean over tasks with a task-bootstrap 95% interval (the SDK's metric_summary per
// marker, used by the sweep's scores, platform-api.md §6). ci95 is null under 3 tasks or when every row scored the same.
import { bootstrapCi, type Interval } from '../stats/intervals';
import { isObject } from '../stats/keys';
import { pyRound } from '../stats/py-format';
import { markerValue } from '../stats/readers';
import { meanOf, taskSums } from '../stats/task-means';
import { codePointCompare } from '../stats/task-order';
import { meansOf } from '../stats/task-sums';

export interface MarkerStats {
  mean: number | null;
  ci95: Interval | null;
  n_tasks: number;
  n_rows: number;
  degenerate: boolean;
}

/** Every marker name on the rows, sorted. */
export function markerNames(rows: readonly unknown[]): string[] {
  const names = new Set<string>();
  for (const row of rows) if (isObject(row) && isObject(row.markers)) for (const k of Object.keys(row.markers)) names.add(k);
  return [...names].sort(codePointCompare);
}

/** One marker's summary: the mean of its per-task means, its interval, and how many tasks and rows carry it. */
export function markerStats(rows: readonly unknown[], name: string): MarkerStats {
  const metric = `marker:${name}`;
  const perTask = taskSums(rows, metric);
  const means = [...meansOf(perTask).values()];
  const nRows = perTask.counts.reduce((acc, count) => acc + count, 0);
  // Degenerate: every applicable row holds one value, so the marker has not shown it can come out otherwise.
  const distinct = new Set<number>();
  for (const row of rows) {
    const value = markerValue(row, name);
    if (value !== null) distinct.add(pyRound(value, 9));
  }
  const degenerate = nRows > 0 && distinct.size === 1;
  return {
    mean: means.length ? meanOf(means) : null,
    ci95: degenerate ? null : bootstrapCi(means),
    n_tasks: means.length,
    n_rows: nRows,
    degenerate,
  };
}

export function markerSummary(rows: readonly unknown[]): Map<string, MarkerStats> {
  return new Map(markerNames(rows).map((name) => [name, markerStats(rows, name)]));
}
