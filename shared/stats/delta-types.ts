// Shared shapes of delta_report (stats-semantics.md section 8).
import type { CompareResult, Verdict } from './compare-runs';
import type { Interval } from './intervals';
import type { PySeed } from './random';

export type GainVerdict = Verdict;

export interface DeltaOptions {
  target?: string | null;
  must_not_regress?: string[] | Record<string, unknown> | null;
  lower_is_better?: string[] | Record<string, boolean> | null;
  markers?: string[] | null;
  by?: string | boolean | ((row: Record<string, unknown>) => unknown) | null;
  run_std?: number | Record<string, number | null> | null;
  run_std_runs?: number | null;
  train_runs?: unknown[][] | { before?: unknown[][] | null; after?: unknown[][] | null } | null;
  proxy?: string | null;
  n_boot?: number;
  seed?: number;
  balance_rollouts?: boolean;
  alpha?: number;
  power?: number;
  ceiling_pass_rate?: number;
  answered_gap_points?: number;
  answered_alpha?: number;
}

export interface MetricEntry extends CompareResult {
  lower_is_better: boolean;
  gain_verdict: GainVerdict;
  run_std: number | null;
  noise_band: number | null;
  within_noise: boolean;
  noise_note?: string;
}

export type TargetWord =
  | 'moved' | 'moved_the_wrong_way' | 'no_change_detected' | 'insufficient_data' | 'within_eval_noise' | 'moved_unreplicated'
  | 'target_not_measured' | 'unresolved';

export const VERDICT_WORDS: Record<GainVerdict, TargetWord> = {
  b_better: 'moved',
  a_better: 'moved_the_wrong_way',
  no_difference_detected: 'no_change_detected',
  insufficient_data: 'insufficient_data',
};

export const LOWER_IS_BETTER_MARKERS = ['boilerplate', 'self_reference', 'hedging', 'refusal', 'sycophancy', 'truncated'];

/** "pass_at_1" and "marker:..." stay; any other name gets "marker:" prepended. */
export function metricKey(name: string): string {
  return name === 'pass_at_1' || name.startsWith('marker:') ? name : `marker:${name}`;
}

/** A gain-oriented interval: negated and swapped when lower is better. */
export function gainInterval(ci: Interval | null, lower: boolean): Interval | null {
  if (!ci) return null;
  return lower ? [-ci[1], -ci[0]] : ci;
}

export type SeedArg = PySeed;
