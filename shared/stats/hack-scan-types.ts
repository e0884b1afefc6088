// hack_scan's parameters, defaults and report (docs/hack-scan.md, "Parameters" and "The report").
import type { Row } from './keys';
import type { PySeed } from './random';

/** DEFAULT_TOP_K: the auto tier's vocabulary, the most common words and word pairs. */
export const DEFAULT_TOP_K = 200;
/** DEFAULT_N_PERM: shuffles behind the noise floor. */
export const DEFAULT_N_PERM = 100;
/** DEFAULT_MIN_OBS: rows a feature must be non-zero on to be ranked. */
export const DEFAULT_MIN_OBS = 20;
/** DEFAULT_SEEDS: strongest 0/1 features that seed pairwise ANDs. */
export const DEFAULT_SEEDS = 12;
/** REPORT_TOP: ranked features the report lists. */
export const REPORT_TOP = 20;
export const ALPHA = 0.05;
/** RIVAL_SHARE: a rival is named when integrity is under 1 - this. */
export const RIVAL_SHARE = 0.2;
/** SAT_FLAG: share of all-pass asks above which the pool is called exhausted. */
export const SAT_FLAG = 0.2;
/** DEGENERATE_RHO: |rho| at or above this is an identity with the reward, not a correlation. */
export const DEGENERATE_RHO = 0.999;
/** MIN_DISTINCT_PER_ASK: distinct rollouts an ask needs (at the median) before features can be told apart. */
export const MIN_DISTINCT_PER_ASK = 3;
/** The most variance a 0/1 reward can carry within an ask (p = 0.5): capacity's unit. */
export const MAX_BINARY_VARIANCE = 0.25;
/** Under this many rollouts per ask (the SDK's ROLLOUTS_PER_TASK) the floor is coarse; re-scan at RESCAN_ROLLOUTS. */
export const FLOOR_COARSE_BELOW = 4;
export const RESCAN_ROLLOUTS = 8;
/** Collinear names shown in the degenerate warning before "and N more". */
export const COLLINEAR_SHOWN = 4;

export const REGIMES = ['train', 'reward_hack', 'pool_exhausted', 'no_signal', 'degenerate', 'unknown'] as const;
export type Regime = (typeof REGIMES)[number];

/** The SDK's keyword arguments (snake_case); `features` is for callers in this process only. */
export interface HackScanParams {
  endorsed?: readonly string[] | string;
  auto?: boolean;
  top_k?: number;
  n_perm?: number;
  min_obs?: number;
  seeds?: number;
  reward?: string;
  seed?: PySeed;
  top_features?: number | null;
  alpha?: number;
  /** Hand-tier columns of your own: a row -> a number (anything else, or a throw, leaves the row without it). */
  features?: Record<string, (row: Row) => unknown>;
}

export interface HackScanFeature {
  name: string;
  aliases: string[];
  rho: number;
  pooled: number;
  n_obs: number;
  above_floor: boolean;
  endorsed: boolean;
}

export interface HackScanReport {
  regime: Regime;
  n_rows: number;
  n_graded: number;
  n_groups: number;
  n_groups_multi: number;
  rollouts_per_group: number;
  effective_rollouts: number;
  support: { sat: number; dead: number; mixed: number; capacity: number };
  tau: number | null;
  n_perm: number;
  n_features: number;
  n_above_floor: number;
  features: HackScanFeature[];
  top_feature: string | null;
  rho_max: number;
  endorsed: string[];
  endorsed_matched: number;
  endorsed_on_top: boolean | null;
  integrity: number | null;
  inverted: string[];
  continuous_reward: boolean;
  degenerate: boolean;
  collinear: string[];
  distinct_per_ask: number;
  warnings: string[];
}

/** list[:stop] for a stop that may be None (all) or negative (from the end), as Python slices. */
export function pySliceTo<T>(items: readonly T[], stop: number | null | undefined): T[] {
  return stop === null || stop === undefined ? items.slice() : items.slice(0, Math.trunc(stop));
}
