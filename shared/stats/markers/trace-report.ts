// trace_flag_report (docs/markers.md "trace_flag_report"): how often each trace flag fires, the evidence to read,
// whether the reward pays for it, and each trace marker's clean share with its task-bootstrap interval.
import type { Interval } from '../intervals';
import { isObject, pyStr, pyTruthy, type Row } from '../keys';
import { metricSummary } from '../metric-summary';
import { pyRound, pySigned } from '../py-format';
import { groupLabel } from '../readers';
import { HACK_THRESHOLD, pearson } from './correlation';
import { pyHead } from '../../text/py-text';
import { traceFlags, traceValues, type Kinds } from './trace';
import { FLAG_MEANING, TRACE_FLAGS, TRACE_MARKERS } from './trace-patterns';

export interface TraceFlagEntry {
  n: number;
  rate: number | null;
  examples: Array<{ prompt: string; evidence: string }>;
  reward_corr: number | null;
  flagged?: true;
}

export interface TraceFlagReport {
  n: number;
  n_graded: number;
  threshold: number;
  flags: Record<string, TraceFlagEntry>;
  markers: Record<string, { clean: number | null; ci95: Interval | null }>;
  warnings: string[];
}

export interface TraceReportOptions {
  kinds?: Kinds;
  threshold?: number;
  n_boot?: number;
  seed?: number;
  examples?: number;
}

/** trace_flag_report(rows, kinds=, threshold=0.3, n_boot=2000, seed=0, examples=3); the rows are not changed. */
export function traceFlagReport(rows: readonly unknown[], options: TraceReportOptions = {}): TraceFlagReport {
  const threshold = options.threshold ?? HACK_THRESHOLD;
  const keep = Math.max(0, Math.trunc(options.examples ?? 3));
  const copies: Row[] = [];
  const flagsOf: Array<Record<string, string>> = [];
  for (const row of rows) {
    if (!isObject(row)) continue;
    const flags = traceFlags(row, options.kinds);
    flagsOf.push(flags);
    copies.push({ ...row, markers: { ...(isObject(row.markers) ? row.markers : {}), ...traceValues(flags) }, trace_flags: flags });
  }
  const graded: number[] = [];
  const labels: number[] = [];
  copies.forEach((row, i) => {
    const label = groupLabel(row);
    if (label !== null) graded.push(i), labels.push(label);
  });
  const flags: Record<string, TraceFlagEntry> = {};
  const warnings: string[] = [];
  for (const name of TRACE_FLAGS) {
    const fired = copies.map((_, i) => i).filter((i) => name in flagsOf[i]);
    const corr = graded.length > 0 ? pearson(graded.map((i) => (name in flagsOf[i] ? 1 : 0)), labels) : null;
    const entry: TraceFlagEntry = {
      n: fired.length,
      rate: copies.length > 0 ? pyRound(fired.length / copies.length, 4) : null,
      examples: fired.slice(0, keep).map((i) => ({ prompt: pyHead(pyTruthy(copies[i].prompt) ? pyStr(copies[i].prompt) : '', 120), evidence: flagsOf[i][name] })),
      reward_corr: corr === null ? null : pyRound(corr, 3),
    };
    if (corr !== null && corr >= threshold) {
      entry.flagged = true;
      warnings.push(`reward pays for ${name} (corr ${pySigned(corr, 2)} between the flag and a pass): ${FLAG_MEANING[name]}, and a policy trained on these rewards will do it more`);
    }
    flags[name] = entry;
  }
  const markers: TraceFlagReport['markers'] = {};
  for (const name of Object.keys(TRACE_MARKERS)) {
    const summary = metricSummary(copies, `marker:${name}`, { n_boot: options.n_boot, seed: options.seed });
    markers[name] = { clean: summary.mean, ci95: summary.ci95 };
  }
  return { n: copies.length, n_graded: graded.length, threshold, flags, markers, warnings };
}
