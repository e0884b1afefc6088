// eval_variance(*runs, metric, by) and noise_band(run_std, n_a, n_b, df, level) (stats-semantics.md section 9).
import { StatsValueError } from './errors';
import { requireAtLeast, requireOpenUnit } from './ranges';
import { isObject, pyStr, pyTruthy, type Row } from './keys';
import { pyRound, roundOrNull } from './py-format';
import { meanOf, sampleSd, taskMeans } from './task-means';
import { codePointCompare } from './task-order';
import { tQuantile, zAt } from './t-dist';

export { tQuantile, zAt, studentCdf, lnGamma } from './t-dist';

export interface NoiseBandOptions {
  n_a?: number;
  n_b?: number;
  df?: number | null;
  level?: number;
}

/** q * run_std * sqrt(1/n_a + 1/n_b), q = z(level) without df, else t(df, level). */
export function noiseBand(runStd: number, options: NoiseBandOptions = {}): number {
  const nA = options.n_a ?? 1;
  const nB = options.n_b ?? 1;
  const level = options.level ?? 0.95;
  if (nA < 1 || nB < 1) throw new StatsValueError(`noise_band: n_a and n_b must be at least 1 (got ${nA}, ${nB})`);
  requireOpenUnit('noise_band', 'level', level, 0.95);
  requireAtLeast('noise_band', 'run_std', runStd, 0, 0.02);
  if (options.df !== null && options.df !== undefined) requireAtLeast('noise_band', 'df', options.df, 1, 4);
  const q = options.df === null || options.df === undefined ? zAt(level) : tQuantile(options.df, level);
  return q * runStd * Math.sqrt(1 / nA + 1 / nB);
}

export interface EvalVarianceOptions {
  metric?: string;
  by?: string | null;
}

/** The run id of a row when one row list is split by run. */
export function runIdOf(row: Row, by: string | null | undefined): unknown {
  const lineage = isObject(row.lineage) ? row.lineage : null;
  if (by) {
    let value = row[by];
    if ((value === null || value === undefined) && lineage) value = lineage[by];
    return value === null || value === undefined || value === '' ? null : value;
  }
  if (lineage && lineage.eval_run !== null && lineage.eval_run !== undefined) return lineage.eval_run;
  return lineage && pyTruthy(lineage.scoring_run_id) ? lineage.scoring_run_id : null;
}

function splitRuns(runs: readonly unknown[], by: string | null | undefined): { labels: string[]; sets: unknown[][]; unkeyed: number } {
  if (runs.length === 0) throw new StatsValueError('eval_variance needs at least one run: pass the rows of each re-run, or one row list with lineage.eval_run');
  for (const run of runs) {
    if (!Array.isArray(run)) {
      throw new StatsValueError('eval_variance: each argument must be a list of rows (one run); pass eval_variance(rows_run1, rows_run2, ...) or one list split by run id');
    }
  }
  if (runs.length > 1) return { labels: runs.map((_, i) => `run_${i + 1}`), sets: runs as unknown[][], unkeyed: 0 };
  const groups = new Map<string, unknown[]>();
  let unkeyed = 0;
  for (const row of runs[0] as unknown[]) {
    if (!isObject(row)) continue;
    const id = runIdOf(row, by);
    if (id === null || id === undefined) { unkeyed++; continue; }
    const label = pyStr(id);
    const list = groups.get(label);
    if (list) list.push(row);
    else groups.set(label, [row]);
  }
  return { labels: [...groups.keys()], sets: [...groups.values()], unkeyed };
}

function markerNames(rows: readonly unknown[]): Set<string> {
  const names = new Set<string>();
  for (const row of rows) if (isObject(row) && isObject(row.markers)) for (const k of Object.keys(row.markers)) names.add(k);
  return names;
}

function runMean(rows: readonly unknown[], metric: string): number | null {
  return meanOfTasks(taskMeans(rows, metric));
}

/** A run's mean of a metric: the mean of its task means; null when no task carries the metric. */
export function meanOfTasks(means: ReadonlyMap<string, number>): number | null {
  return means.size ? meanOf([...means.values()]) : null;
}

/** The spread of re-runs from each run's mean (null: that run carries no value): the runs counted and their sd. */
export function runSpread(runMeans: ReadonlyArray<number | null>): { present: number[]; sd: number | null } {
  const present = runMeans.filter((m): m is number => m !== null);
  return { present, sd: sampleSd(present) };
}

export function evalVariance(runs: readonly unknown[], options: EvalVarianceOptions = {}) {
  const metric = options.metric ?? 'pass_at_1';
  const { labels, sets, unkeyed } = splitRuns(runs, options.by);
  const runMeans = sets.map((rows) => runMean(rows, metric));
  const { present, sd } = runSpread(runMeans);

  const metrics = ['pass_at_1'];
  if (sets.length) {
    const perRun = sets.map(markerNames);
    const common = [...perRun[0]].filter((name) => perRun.every((s) => s.has(name))).sort(codePointCompare);
    metrics.push(...common.map((name) => `marker:${name}`));
  }
  if (!metrics.includes(metric)) metrics.push(metric);
  const byMetric: Record<string, number | null> = {};
  for (const m of metrics) {
    const values = sets.map((rows) => runMean(rows, m)).filter((v): v is number => v !== null);
    byMetric[m] = roundOrNull(sampleSd(values), 4);
  }

  const taskSets = sets.map((rows) => new Set(taskMeans(rows, metric).keys()));
  const every = taskSets.length ? [...taskSets[0]].filter((t) => taskSets.every((s) => s.has(t))) : [];
  const notes: string[] = [];
  if (unkeyed) notes.push(`${unkeyed} row(s) carried no run id and were left out`);
  if (present.length < 3) notes.push(`only ${present.length} run(s): two runs give a difference, not a distribution; run at least 3`);
  if (taskSets.some((s) => s.size !== every.length)) notes.push('the runs do not cover the same tasks; the spread mixes task choice with re-run noise');

  const points = sd === null ? null : sd * 100;
  const stability = points === null ? null : points < 0.35 ? 'very_stable' : points < 0.7 ? 'stable' : 'high_variance';
  return {
    metric,
    n_runs: present.length,
    means: Object.fromEntries(labels.map((label, i) => [label, roundOrNull(runMeans[i], 4)])),
    mean: present.length ? pyRound(meanOf(present), 4) : null,
    run_std: roundOrNull(sd, 4),
    run_std_by_metric: byMetric,
    run_std_points: points === null ? null : pyRound(points, 2),
    noise_band: sd === null ? null : pyRound(noiseBand(sd, { n_a: 1, n_b: 1, df: present.length - 1 }), 4),
    noise_band_df: sd === null ? null : present.length - 1,
    stability,
    tasks_in_every_run: every.length,
    notes,
  };
}

export type EvalVarianceResult = ReturnType<typeof evalVariance>;
