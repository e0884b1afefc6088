// delta_report slice table: automatic or given `by`, per-group comparison, down and weak groups (stats-semantics.md section 8 step 17).
import { compareTaskMeans } from './compare-runs';
import { metricSums, type DeltaSide, type SideGroup } from './delta-side';
import { isObject, pyStr, type Row } from './keys';
import { codePointCompare } from './task-order';
import { meansOf } from './task-sums';
import type { GainVerdict } from './delta-types';

export const SLICE_KEYS = ['category', 'slice'];
export const GROUP_SEED_OFFSET = 100;
export const WEAK_SLICE_SCORE = 0.5;
export const CEILING_PASS_RATE = 0.9;

export interface GroupEntry {
  delta: number | null;
  ci95: [number, number] | null;
  verdict: string;
  mean_a: number | null;
  mean_b: number | null;
  n_used: number;
  n_paired: number;
  paired: boolean;
  rows_a: number;
  rows_b: number;
  lower_is_better: boolean;
  gain_verdict: GainVerdict;
  low_n?: boolean;
  weak_reasons?: string[];
  weak?: boolean;
}

export type Grouper = (row: Row) => unknown;

/** A row's group: row[by] (or markers[by] when row[by] is null/absent); null/"" rows have none. */
export function groupOf(row: Row, by: string | Grouper): string | null {
  let v: unknown;
  if (typeof by === 'function') v = by(row);
  else {
    v = row[by];
    if ((v === null || v === undefined) && isObject(row.markers)) v = (row.markers as Row)[by];
  }
  if (v === null || v === undefined || v === '') return null;
  return pyStr(v);
}

/** The first SLICE_KEYS key whose non-empty values share at least 2 between the sides. */
export function detectSliceKey(before: DeltaSide, after: DeltaSide): string | null {
  for (const key of SLICE_KEYS) {
    const theirs = after.sliceValues.get(key) as Set<string>;
    let shared = 0;
    for (const v of before.sliceValues.get(key) as Set<string>) if (theirs.has(v)) shared++;
    if (shared >= 2) return key;
  }
  return null;
}

export function sliceMinTasks(alpha: number): number {
  return Math.max(2, Math.ceil(Math.log2(2 / alpha)));
}

/** Each group on both sides compared on the metric (by its grouping's name, folded into both sides). */
export function byGroup(
  before: DeltaSide, after: DeltaSide, grouping: string, metric: string, lower: boolean, nBoot: number, seed: number, level: number,
): Record<string, GroupEntry> {
  const ga = before.groups.get(grouping) as Map<string, SideGroup>;
  const gb = after.groups.get(grouping) as Map<string, SideGroup>;
  const names = [...ga.keys()].filter((g) => gb.has(g)).sort(codePointCompare);
  const means = (group: SideGroup) => meansOf(metricSums(group.sums, metric));
  const entries = names.map((name, i): [string, GroupEntry] => {
    const a = ga.get(name) as SideGroup;
    const b = gb.get(name) as SideGroup;
    const r = compareTaskMeans(means(a), means(b), { metric, n_boot: nBoot, seed: seed + GROUP_SEED_OFFSET + i, level });
    const gain: GainVerdict = lower && r.verdict === 'b_better' ? 'a_better' : lower && r.verdict === 'a_better' ? 'b_better' : r.verdict;
    const entry: GroupEntry = {
      delta: r.delta, ci95: r.ci95, verdict: r.verdict, mean_a: r.mean_a, mean_b: r.mean_b, n_used: r.n_used, n_paired: r.n_paired, paired: r.paired,
      rows_a: a.rows, rows_b: b.rows, lower_is_better: lower, gain_verdict: gain,
    };
    return [name, entry];
  });
  // Each group its own property, whatever its name: an assignment to groups["__proto__"] would replace the prototype.
  return Object.fromEntries(entries);
}

function sliceOrder(groups: Record<string, GroupEntry>): string[] {
  const key = (name: string): [number, number, number, string] => {
    const r = groups[name];
    if (r.delta === null) return [2, 0, 0, name];
    const sign = r.lower_is_better ? -1 : 1;
    return [r.weak ? 0 : 1, sign * (r.mean_b as number), sign * r.delta, name];
  };
  return Object.keys(groups).sort((x, y) => {
    const a = key(x);
    const b = key(y);
    for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
    return codePointCompare(a[3], b[3]);
  });
}

/** Marks each group low_n / weak and returns the weak ones, weakest first. */
export function flagSlices(groups: Record<string, GroupEntry>, minTasks: number, metric: string): string[] {
  for (const r of Object.values(groups)) {
    r.low_n = (r.n_paired || 0) < minTasks;
    const reasons: string[] = [];
    if (r.delta !== null) {
      const ma = r.mean_a as number;
      const mb = r.mean_b as number;
      const isRate = !r.lower_is_better && (metric === 'pass_at_1' || (ma >= 0 && ma <= 1 && mb >= 0 && mb <= 1));
      if (isRate && mb < WEAK_SLICE_SCORE) reasons.push('low');
      const atCeiling = isRate && mb >= CEILING_PASS_RATE;
      if (r.gain_verdict !== 'b_better' && !atCeiling && !r.low_n) reasons.push('no_gain');
    }
    r.weak_reasons = reasons;
    r.weak = reasons.length > 0;
  }
  return sliceOrder(groups).filter((name) => groups[name].weak);
}
