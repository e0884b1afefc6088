// The selectors on rows in memory (conformance, tests): facts of each row, the selection, the rows it keeps. The
// RL selection stamps `calibration` on the rows it keeps, measured on the rows as they arrived (carry_calibration).
import { isObject } from '../stats/keys';
import { leakFact } from './privileged';
import { rlDetails, rlFacts, rlPrepared, type TruncatedPolicy } from './rl-facts';
import { selectForRl, type RlOptions } from './select-rl';
import { selectForSft, sftFacts, type SftOptions } from './select-sft';
import { TrainingValueError } from './export-settings';

type Obj = Record<string, unknown>;

export function selectForSftRows(rows: readonly unknown[], options: SftOptions = {}): { rows: Obj[]; report: Obj } {
  const facts = rows.flatMap((row, i) => (isObject(row) ? [sftFacts(row, i, leakFact(row))] : []));
  const { selected, report } = selectForSft(facts, rows.length, options);
  return { rows: selected.map((i) => rows[i] as Obj), report };
}

export function selectForRlRows(rows: readonly unknown[], options: RlOptions = {}): { rows: Obj[]; report: Obj } {
  const policy = (options.drop_truncated === false && (options.truncated ?? 'drop') === 'drop' ? 'keep' : options.truncated ?? 'drop') as TruncatedPolicy;
  const hasTools = options.has_tools !== false;
  const valid = ['drop', 'keep', 'penalize'].includes(policy);
  const factsPolicy = valid ? policy : 'drop';
  const facts = rows.flatMap((row, i) => (isObject(row) ? [rlFacts(row, i, factsPolicy, hasTools)] : []));
  const detailsOf = (selected: readonly { index: number }[]) => selected.map((f) => rlDetails(rows[f.index] as Obj, factsPolicy));
  const { selected, stamps, report } = selectForRl(facts, detailsOf, options, rows.length);
  return {
    rows: selected.map((i) => {
      const row = rlPrepared(rows[i] as Obj, policy);
      const stamp = stamps.get(i);
      return stamp ? { ...row, calibration: stamp } : row;
    }),
    report,
  };
}

export interface OptimizeOptions extends SftOptions, Omit<RlOptions, 'lo' | 'hi'> {
  mode?: string | null;
  band?: [number, number];
}

/** optimize(rows, mode=...): select_for_sft for "sft", select_for_rl otherwise; report.mode says which ran. */
export function optimizeRows(rows: readonly unknown[], options: OptimizeOptions = {}): { rows: Obj[]; report: Obj } {
  const mode = String(options.mode ?? '').toLowerCase() === 'sft' ? 'sft' : 'rl';
  let out: { rows: Obj[]; report: Obj };
  if (mode === 'sft') out = selectForSftRows(rows, { target: options.target, select: options.select, min_reward: options.min_reward, seed: options.seed });
  else {
    const band = options.band ?? [0.2, 0.8];
    if (!Array.isArray(band) || band.length !== 2) throw new TrainingValueError('band is a pair (lo, hi) of pass rates');
    out = selectForRlRows(rows, { target: options.target, lo: Number(band[0]), hi: Number(band[1]), enforce_band: options.enforce_band, truncated: options.truncated, order: options.order });
  }
  out.report.mode = mode;
  return out;
}
