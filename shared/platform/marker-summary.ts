// marker_summary(rows, names=, n_boot=, seed=): the SDK's metric_summary for every marker on the rows (platform-api.md
// §6 for the sweep's scores; docs/markers.md). ci95 is null under 3 tasks (a note says so) or when every row scored
// the same (degenerate, with a warning). One implementation: the sweep's scores, `while-desk markers` and the
// marker_summary statistic all read this.
import { isObject } from '../stats/keys';
import { fewTasksNote, metricSummary, type MetricSummary, type SummaryOptions } from '../stats/metric-summary';
import { codePointCompare } from '../stats/task-order';

export type MarkerStats = MetricSummary;

/** Every marker name on the rows, sorted. */
export function markerNames(rows: readonly unknown[]): string[] {
  const names = new Set<string>();
  for (const row of rows) if (isObject(row) && isObject(row.markers)) for (const k of Object.keys(row.markers)) names.add(k);
  return [...names].sort(codePointCompare);
}

/** One marker's summary, with marker_summary's note when it has too few tasks for an interval. */
export function markerStats(rows: readonly unknown[], name: string, options: SummaryOptions = {}): MarkerStats {
  const stats = metricSummary(rows, `marker:${name}`, options);
  if (stats.ci95 === null && !stats.degenerate) stats.note = fewTasksNote(name, stats.n_tasks);
  return stats;
}

/** Each marker (all on the rows, or `names`) by name, in that order. */
export function markerSummary(rows: readonly unknown[], options: SummaryOptions & { names?: readonly string[] | null } = {}): Map<string, MarkerStats> {
  const names = options.names && options.names.length > 0 ? options.names : markerNames(rows);
  return new Map(names.map((name) => [name, markerStats(rows, name, options)]));
}
