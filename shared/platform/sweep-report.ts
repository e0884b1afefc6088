// A harness sweep's report from its graded rows (platform-api.md §6; SweepReport.to_dict() plus the printed table).
import { StatsValueError } from '../stats/errors';
import { sha256Hex } from '../stats/hash';
import { isObject, pyStr, pyTruthy } from '../stats/keys';
import { pyRound } from '../stats/py-format';
import { evalVariance } from '../stats/variance';
import { codePointCompare } from '../stats/task-order';
import { checkBehaviorName, judgeWire } from './behavior-wire';
import { makeHarness, type HarnessInput } from './harness';
import { checkSameDenominators, gradedPerAsk } from './sweep-denominators';
import { checkLabels } from './sweep-labels';
import { armScores, type Score } from './sweep-scores';
import { sweepText } from './sweep-text';
import type { JudgeWire } from './types';

/** Under this many asks the platform verdict says "unproven". */
export const MIN_ASKS = 50;

export interface SweepVariantInput {
  harness: HarnessInput;
  /** The arm's graded rows (what its rollouts and the judge produced). */
  rows: readonly unknown[];
}

export interface SweepOptions {
  k?: number;
  behavior?: string;
  /** Total scorings of the first arm (default 2); the floor needs 2 or more. */
  noise_runs?: number;
  test_version?: string | null;
  /** The first arm's re-runs: re-run i (1 .. noise_runs - 1) is noise_rows[i - 1]. */
  noise_rows?: readonly (readonly unknown[])[];
  /** A judge already measured (posted with the behaviours); null when none. */
  judge?: JudgeWire | null;
}

export interface SweepVariant {
  label: string;
  model: string | null;
  harness: string;
  run: string | null;
  graded_rows: number;
  scores: Record<string, Score>;
}

export interface SweepReport {
  behavior: string;
  test_version: string;
  n_asks: number;
  k: number;
  noise_floor: number | null;
  run_std: number | null;
  /** Scorings of the first arm behind the floor; null with noise_runs <= 1 (no re-run was scored, no floor measured). */
  noise_runs: number | null;
  judge: Record<string, unknown> | null;
  best: string | null;
  /** n_asks under 50: whatever the ranking, the platform verdict reads unproven. */
  unproven: boolean;
  variants: SweepVariant[];
  text: string;
}

export interface SweepNoise {
  floor: number | null;
  runStd: number | null;
  df: number | null;
  runs: number;
}

/** a clears b on the headline score: same ask count, the gap past sqrt(ci_a^2 + ci_b^2) and past the noise floor. */
export function clears(a: Score, b: Score, floor: number | null): boolean {
  const [sa, ca, na] = a;
  const [sb, cb, nb] = b;
  const d = sa - sb;
  return na === nb && d > Math.sqrt(ca ** 2 + cb ** 2) && d > (floor ?? 0);
}

/** The §5.4 rule over the first arm's rows and its re-runs: round(round(t x run_std x sqrt 2, 4) x 100, 2) points. */
function sweepNoise(firstRows: readonly unknown[], reruns: readonly (readonly unknown[])[], noiseRuns: number): SweepNoise {
  if (noiseRuns <= 1) return { floor: null, runStd: null, df: null, runs: 1 };
  const report = evalVariance([firstRows, ...reruns] as unknown[][]);
  if (report.run_std === null || report.noise_band === null) {
    throw new StatsValueError(`sweep noise floor: ${report.n_runs} of ${noiseRuns} scorings of the first arm carried 0/1 rewards; two or more are needed`);
  }
  return { floor: pyRound(report.noise_band * 100, 2), runStd: report.run_std, df: report.noise_band_df, runs: report.n_runs };
}

function testVersionOf(rows: readonly unknown[]): { version: string; asks: number } {
  const prompts = [...new Set(rows.map((r) => (isObject(r) && pyTruthy(r.prompt) ? pyStr(r.prompt) : '')))].sort(codePointCompare);
  return { version: `t-${sha256Hex(prompts.join('\n')).slice(0, 8)}`, asks: prompts.length };
}

/** Scores every arm on its graded rows, measures the floor on the first arm's re-runs, ranks, and names the winner. */
export function sweepReport(variants: readonly SweepVariantInput[], options: SweepOptions = {}): SweepReport {
  if (!Array.isArray(variants) || !variants.length) throw new StatsValueError('sweep: variants is empty; pass at least one {harness, rows}');
  const behavior = checkBehaviorName(options.behavior ?? 'policy');
  const k = Math.trunc(options.k ?? 4);
  const noiseRuns = Math.max(1, Math.trunc(options.noise_runs ?? 2));
  const harnesses = variants.map((v) => makeHarness(v.harness ?? {}));
  checkLabels(harnesses);
  const counts = variants.map((v) => gradedPerAsk(v.rows));
  harnesses.forEach((h, i) => checkSameDenominators(harnesses[0].version, counts[0], h.version, counts[i]));
  const reruns = (options.noise_rows ?? []).slice(0, Math.max(0, noiseRuns - 1));
  if (reruns.length < noiseRuns - 1) {
    throw new StatsValueError(`noise_runs=${noiseRuns} scores the first arm ${noiseRuns} times: pass ${noiseRuns - 1} re-run row list(s) as noise_rows (got ${reruns.length})`);
  }
  reruns.forEach((rows, i) => checkSameDenominators(harnesses[0].version, counts[0], `${harnesses[0].version} re-run ${i + 1}`, gradedPerAsk(rows)));

  const results: SweepVariant[] = variants.map((v, i) => ({
    label: harnesses[i].version,
    model: harnesses[i].model,
    harness: harnesses[i].fingerprint,
    run: null,
    graded_rows: [...counts[i].values()].reduce((a, b) => a + b, 0),
    scores: armScores(v.rows, k, behavior),
  }));
  const { version, asks } = testVersionOf(variants[0].rows);
  const noise = sweepNoise(variants[0].rows, reruns, noiseRuns);
  const headline = (v: SweepVariant): Score => v.scores[behavior];
  const ranked = [...results].sort((a, b) => headline(b)[0] - headline(a)[0]);
  const top = ranked[0];
  const best = ranked.slice(1).every((other) => clears(headline(top), headline(other), noise.floor)) ? top : null;
  const report: Omit<SweepReport, 'text'> = {
    behavior,
    test_version: options.test_version || version,
    n_asks: asks,
    k,
    noise_floor: noise.floor,
    run_std: noise.runStd,
    noise_runs: noiseRuns > 1 ? noiseRuns : null,
    judge: options.judge ? judgeWire(options.judge) : null,
    best: best ? best.label : null,
    unproven: asks < MIN_ASKS,
    variants: ranked,
  };
  return { ...report, text: sweepText(report, noise, MIN_ASKS, harnesses[0].version) };
}
