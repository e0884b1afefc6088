// delta_report config comparisons: judge/prompt/sampling/truncation, graded-share bias, same policy, answered-share test,
// user/writer model (stats-semantics.md section 8 steps 13r, 15 and 16).
import { normCdf } from './normal';
import { pyFixed, pyPercent } from './py-format';
import type { DeltaSide } from './delta-side';
import { answeredCounts, type RunConfig } from './run-config';

export interface CheckState {
  ok: boolean;
  notComparable: string[];
  warnings: string[];
}

const OFFLINE_WRITERS = new Set(['seed', 'template', 'pinned', 'callable-writer']);
const present = (v: unknown) => v !== null && v !== undefined;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Pooled two-proportion z test p-value; null when a side has no rows or the pooled share is 0 or 1. */
export function twoProportionP(xa: number, na: number, xb: number, nb: number): number | null {
  if (na <= 0 || nb <= 0) return null;
  const pooled = (xa + xb) / (na + nb);
  if (pooled <= 0 || pooled >= 1) return null;
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb));
  return 2 * (1 - normCdf(Math.abs(xa / na - xb / nb) / se));
}

export interface ConfigCheckInput {
  before: DeltaSide;
  after: DeltaSide;
  a: RunConfig;
  b: RunConfig;
  headlineKey: string;
  headlineNoise: number | null;
  headlineCi: [number, number] | null;
  headlineDelta: number | null;
  answeredGapPoints: number;
  answeredAlpha: number;
}

function gradedShare(input: ConfigCheckInput, state: CheckState): void {
  const { a, b } = input;
  const both = a.graded_share !== null && b.graded_share !== null;
  let bias: number | null = null;
  if (both) bias = [a.graded_share as number, b.graded_share as number].map((g) => 1 - g).reduce((acc, d) => acc + (d < 1 ? d / (1 - d) : 1), 0);
  const size = input.headlineDelta !== null ? Math.abs(input.headlineDelta) : null;
  let bar: number | null = null;
  let barName = '';
  if (input.headlineNoise !== null) { bar = input.headlineNoise; barName = 'the re-run band'; }
  else if (input.headlineCi) { bar = (input.headlineCi[1] - input.headlineCi[0]) / 2; barName = "the interval's half-width"; }
  const shares = both ? `${pyPercent(a.graded_share as number, 1)} of before rows and ${pyPercent(b.graded_share as number, 1)} of after rows carry a verdict` : '';
  if (bias && bar !== null && bias > bar) {
    if (size !== null && bias >= size) {
      state.ok = false;
      state.notComparable.push('graded_share');
      state.warnings.push(`NOT COMPARABLE: ${shares}; ungraded rows are not a random sample, so the rates can be off by up to ${pyPercent(bias, 1)}, which covers the whole ${pyFixed(size, 3)} delta on ${input.headlineKey}; re-grade the dropped rows`);
    } else {
      state.warnings.push(`${shares}; ungraded rows can move the delta by up to ${pyPercent(bias, 1)}, more than ${barName} (${pyFixed(bar, 3)}); read a delta near that size as unproven`);
    }
  } else if (both && Math.min(a.graded_share as number, b.graded_share as number) < 0.95) {
    state.warnings.push(`only ${pyPercent(Math.min(a.graded_share as number, b.graded_share as number), 1)} of rows on one side carry a verdict; both rates are over the rows that survived grading`);
  }
}

function answered(input: ConfigCheckInput, state: CheckState): void {
  const { a, b } = input;
  if (a.answered_share === null || b.answered_share === null) return;
  const ca = answeredCounts(input.before.passAt.config);
  const cb = answeredCounts(input.after.passAt.config);
  const p = twoProportionP(ca.answered, ca.replies, cb.answered, cb.replies);
  const gap = Math.abs(a.answered_share - b.answered_share);
  const bar = input.headlineNoise ?? input.answeredGapPoints;
  if (p === null || !(p < input.answeredAlpha)) return;
  const fails = gap > bar;
  if (fails) {
    state.ok = false;
    state.notComparable.push('answered');
  }
  state.warnings.push(`${fails ? 'NOT COMPARABLE: ' : ''}${pyPercent(1 - a.answered_share)} of before rows and ${pyPercent(1 - b.answered_share)} of after rows have no spoken reply (two-proportion test p=${p.toPrecision(2)}, gap ${pyPercent(gap, 1)} against ${pyFixed(bar, 3)}); every rate is over replies one side did not produce. Check <think> markup, the token cap and finish_reason per side.`);
}

export function configChecks(input: ConfigCheckInput, state: CheckState): void {
  const { a, b } = input;
  const both = (k: keyof RunConfig) => present(a[k]) && present(b[k]);
  const w = state.warnings;
  if (both('judge_version') && !same(a.judge_version, b.judge_version)) {
    w.push(`Before and after were graded by different judges (${show(a.judge_version)} vs ${show(b.judge_version)}); grade both sides with the same judge.`);
  }
  if (both('prompt_hash') && !same(a.prompt_hash, b.prompt_hash)) {
    state.notComparable.push('prompt_hash');
    w.push(`NOT COMPARABLE: before rows ran under system prompt ${show(a.prompt_hash)} and after under ${show(b.prompt_hash)}; re-run one side with the other's system prompt.`);
  }
  if (both('temperature') && !same(a.temperature, b.temperature)) w.push(`Before was sampled at temperature ${show(a.temperature)} and after at ${show(b.temperature)}; use one temperature.`);
  if (both('max_tokens') && !same(a.max_tokens, b.max_tokens)) w.push(`Before allowed ${show(a.max_tokens)} reply tokens and after ${show(b.max_tokens)}; use one max_tokens.`);
  if (both('truncated_share') && Math.abs((a.truncated_share as number) - (b.truncated_share as number)) > 0.05) {
    w.push(`The token cap cut ${pyPercent(a.truncated_share as number)} of before rows and ${pyPercent(b.truncated_share as number)} of after rows; a side cut more often is not the same eval.`);
  }
  gradedShare(input, state);
  if (both('policy_version') && same(a.policy_version, b.policy_version)) {
    w.push('Before and after are the same policy version; this compares a model to itself. Stamp distinct policy versions on the two arms.');
  }
  answered(input, state);
  const agentA = String(a.policy_version || '').split('@', 1)[0];
  const agentB = String(b.policy_version || '').split('@', 1)[0];
  const oneNameTwoPolicies = agentA !== '' && agentA === agentB && !same(a.policy_version, b.policy_version);
  const writerClass = (v: unknown) => (OFFLINE_WRITERS.has(String(v)) ? 'offline' : v);
  for (const key of ['user_model', 'writer_model'] as const) {
    const equal = key === 'writer_model' ? same(writerClass(a[key]), writerClass(b[key])) : same(a[key], b[key]);
    if (both(key) && !equal) {
      state.ok = false;
      state.notComparable.push(key);
      w.push(`NOT COMPARABLE: ${key} was ${show(a[key])} before and ${show(b[key])} after; the environment moved with the weights, so pin it to one model and re-run.`);
    } else if (oneNameTwoPolicies && a[key] === agentA && b[key] === agentA) {
      w.push(`${key} is the agent's own served model (${agentA}) on both arms while policy_version differs under that name; pin it to a fixed model to rule out the environment moving with the weights.`);
    }
  }
}
