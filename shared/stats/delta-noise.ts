// delta_report re-run floors and noise bands (stats-semantics.md section 8 steps 6, 7 and 9).
import { metricSums, type DeltaSide } from './delta-side';
import { pyFixed, roundOrNull } from './py-format';
import { meansOf } from './task-sums';
import { meanOfTasks, noiseBand, runSpread } from './variance';
import { tQuantile, zAt } from './t-dist';
import { metricKey, type DeltaOptions } from './delta-types';

/** Distinct non-null lineage.eval_run values on one side. */
export const distinctEvalRuns = (side: DeltaSide): number => side.evalRuns.size;

/** eval_variance(side, metric, by="eval_run"): how many runs carry the metric, and their run_std (4 places). */
function sideRunStd(side: DeltaSide, metric: string): { n_runs: number; run_std: number | null } {
  const { present, sd } = runSpread([...side.runs.values()].map((sums) => meanOfTasks(meansOf(metricSums(sums, metric)))));
  return { n_runs: present.length, run_std: roundOrNull(sd, 4) };
}

export interface Floors {
  byMetric: Record<string, number | null>;
  source: 'given' | 'eval_run' | null;
  /** Run counts per side when pooled (for the rough-floor warning). */
  pooledRuns: { before: number; after: number } | null;
}

/** Per-metric re-run floors: given (map or number) or pooled from eval_variance(by="eval_run") on both sides. */
export function runStdFloors(
  before: DeltaSide, after: DeltaSide, metrics: string[], runStd: DeltaOptions['run_std'], evalRuns: { before: number; after: number },
): Floors {
  const byMetric: Record<string, number | null> = Object.fromEntries(metrics.map((m) => [m, null]));
  if (runStd !== null && runStd !== undefined && typeof runStd === 'object') {
    for (const [name, value] of Object.entries(runStd)) byMetric[metricKey(name)] = value === null || value === undefined ? null : Number(value);
    return { byMetric, source: 'given', pooledRuns: null };
  }
  if (typeof runStd === 'number') {
    for (const m of metrics) byMetric[m] = runStd;
    return { byMetric, source: 'given', pooledRuns: null };
  }
  if (evalRuns.before >= 2 && evalRuns.after >= 2) {
    let nA = 0;
    let nB = 0;
    for (const m of metrics) {
      const a = sideRunStd(before, m);
      const b = sideRunStd(after, m);
      nA = Math.max(nA, a.n_runs);
      nB = Math.max(nB, b.n_runs);
      if (a.run_std === null || b.run_std === null || a.n_runs < 2 || b.n_runs < 2) continue;
      const num = a.run_std ** 2 * (a.n_runs - 1) + b.run_std ** 2 * (b.n_runs - 1);
      byMetric[m] = Math.sqrt(num / (a.n_runs - 1 + (b.n_runs - 1)));
    }
    const some = Object.values(byMetric).some((v) => v !== null);
    return { byMetric, source: some ? 'eval_run' : null, pooledRuns: { before: nA, after: nB } };
  }
  return { byMetric, source: null, pooledRuns: null };
}

export interface Band {
  nA: number;
  nB: number;
  df: number | null;
  rule: string;
  bandFor(floor: number | null): number | null;
}

export function bandRule(source: Floors['source'], evalRuns: { before: number; after: number }, runStdRuns: number | null | undefined, level: number): Band {
  const nA = Math.max(1, evalRuns.before);
  const nB = Math.max(1, evalRuns.after);
  let df: number | null = null;
  if (source === 'eval_run') df = nA - 1 + (nB - 1);
  else if (source === 'given' && runStdRuns !== null && runStdRuns !== undefined) df = runStdRuns - 1;
  const q = df === null ? pyFixed(zAt(level), 2) : `t(df=${df})=${pyFixed(tQuantile(df, level), 2)}`;
  return {
    nA,
    nB,
    df,
    rule: `${q} x run_std x sqrt(1/${nA} + 1/${nB})`,
    bandFor: (floor) => (floor === null ? null : noiseBand(floor, { n_a: nA, n_b: nB, df, level })),
  };
}
