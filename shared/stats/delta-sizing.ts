// delta_report sizing fields: detectable_effect at the paired task count and tasks_needed for the seen gain (stats-semantics.md section 8 step 14).
import { pyFixed } from './py-format';
import { sumsOf, type DeltaSide } from './delta-side';
import { detectableEffect, holdoutSize, holdoutSizeOnSums } from './sizing';
import { StatsValueError } from './errors';
import type { MetricEntry } from './delta-types';

export interface DeltaSizing {
  detectable_effect: number | null;
  tasks_needed: number | null;
  tasks_needed_source: string | null;
  gain: number | null;
}

export function deltaSizing(
  before: DeltaSide, after: DeltaSide, head: MetricEntry, meanA: number | null, kEval: number, power: number, alpha: number, ceiling: number,
): DeltaSizing {
  const base = meanA ?? 0.6;
  const k = kEval || 1;
  const detectable = head.n_paired >= 2 ? detectableEffect(head.n_paired, { base, k, power, alpha }) : null;
  const gain = head.delta === null ? null : head.lower_is_better ? -head.delta : head.delta;
  let tasksNeeded: number | null = null;
  let source: string | null = null;
  if (gain !== null && gain > 0 && gain < 1) {
    let sized;
    try {
      sized = holdoutSizeOnSums(gain, { power, alpha, ceiling_pass_rate: ceiling }, sumsOf(before, 'pass_at_1'), sumsOf(after, 'pass_at_1'));
    } catch (error) {
      if (!(error instanceof StatsValueError)) throw error;
      sized = holdoutSize(gain, { base, k, power, alpha, ceiling_pass_rate: ceiling });
    }
    tasksNeeded = sized.n_tasks;
    source = sized.sd_source;
  }
  return { detectable_effect: detectable, tasks_needed: tasksNeeded, tasks_needed_source: source, gain };
}

export function sizingWarning(nPaired: number, k: number, power: number, s: DeltaSizing): string {
  let line = `${nPaired} paired tasks at k=${k} can prove about +${pyFixed(s.detectable_effect ?? 0, 2)} at ${pyFixed(power * 100, 0)}% power`;
  if (s.tasks_needed !== null && s.gain !== null) {
    line += `; the seen ${pyFixed(s.gain, 3)} would need about ${s.tasks_needed} tasks (sd ${s.tasks_needed_source === 'rows' ? 'measured on the paired tasks' : 'modelled'})`;
  }
  return line;
}
