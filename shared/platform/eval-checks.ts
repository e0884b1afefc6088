// The eight eval-health checks of one behaviour (platform-api.md §5.2; the site's lib/evals.ts, tracked.evals()).
import { pyFixed } from '../stats/py-format';
import { fmtG, one, str } from './format';
import { CHECK_ORDER, CHECK_TEXTS, EVAL_RULES as R, type CheckKey } from './eval-check-texts';
import type { BehaviorWire, VersionScore } from './types';

export interface EvalCheck {
  key: CheckKey;
  label: string;
  /** true, false, or null when it cannot be measured yet (not counted). */
  ok: boolean | null;
  value: string;
  why: string;
  action: string;
  rule: string;
  cite: string;
  fix: string;
}

export interface EvalHealth {
  name: string;
  checks: EvalCheck[];
  good: number;
  total: number;
  /** "good", or "weak · " + the labels of the failed checks. */
  verdict: string;
}

type Part = Pick<EvalCheck, 'ok' | 'value' | 'why' | 'action'>;

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const has = <T>(x: T | null | undefined): x is T => x !== null && x !== undefined;
const firstBy = (vs: readonly VersionScore[], better: (a: number, b: number) => boolean) =>
  vs.reduce<VersionScore | null>((best, v) => (best === null || better(v.score, best.score) ? v : best), null);

function frozen(b: BehaviorWire): Part {
  return { ok: Boolean(b.testVersion), value: b.testVersion || 'unnamed', why: 'the test set has no name, so its scores cannot be compared', action: 'name the test set' };
}

function size(b: BehaviorWire, versions: readonly VersionScore[], resolves: number | null): Part {
  const n = has(b.n) ? b.n : (versions.find((v) => has(v.n))?.n ?? null);
  if (n === null) return { ok: false, value: 'n not declared', why: 'the size is not declared', action: 'declare n' };
  const action = n < R.min_n ? `add ${R.min_n - n}+ tasks` : 'add tasks';
  if (resolves === null) return { ok: n >= R.min_n, value: `n=${str(n)}`, why: `only ${str(n)} tasks`, action };
  return { ok: n >= R.min_n, value: `n=${str(n)} · resolves ≥ ${one(resolves)} pts`, why: `${str(n)} tasks see only gaps over ${one(resolves)} pts`, action };
}

function judge(b: BehaviorWire): Part {
  if (b.gradedBy === 'program') return { ok: true, value: 'graded by a program', why: '', action: '' };
  const j = b.judge ?? null;
  const agreement = j?.agreement ?? null;
  const humanN = j?.humanN ?? null;
  const on = `on ${humanN !== null ? str(humanN) : '?'}`;
  const ok = j?.verified === true && agreement !== null && agreement >= R.min_agreement && (humanN ?? 0) >= R.min_human_n;
  if (agreement === null) return { ok, value: 'unmeasured', why: 'the judge was never checked against people', action: 'check the judge against people' };
  const shown = `${pyFixed(agreement, 2)} ${on}`;
  if (j?.verified !== true) {
    return { ok, value: `${shown} (declared, unverified)`, why: 'these numbers were typed in, not measured by running the judge', action: 'measure the judge, then post it as verified' };
  }
  if (agreement < R.min_agreement) {
    return { ok, value: shown, why: `the judge agrees with people ${pyFixed(agreement, 2)}, under ${R.min_agreement}`, action: 'get a judge that agrees with people' };
  }
  const few = (humanN ?? 0) < R.min_human_n;
  return { ok, value: `${shown}${few ? ' (few)' : ''}`, why: `the judge was checked on ${str(humanN ?? 0)} hand labels`, action: `label ${R.min_human_n - (humanN ?? 0)}+ more by hand` };
}

function length(b: BehaviorWire): Part {
  const lb = b.judge?.lengthBias ?? null;
  if (lb === null) return { ok: null, value: '—', why: '', action: 'penalize length in the judge' };
  return { ok: Math.abs(lb) <= R.max_length_bias, value: `r = ${pyFixed(lb, 2)}`, why: `the judge pays for words (r = ${pyFixed(lb, 2)})`, action: 'penalize length in the judge' };
}

function noise(b: BehaviorWire, versions: readonly VersionScore[], base: VersionScore | null): Part {
  const floor = b.noiseFloor ?? null;
  let value: string;
  if (floor !== null && base !== null && versions.length > 1) {
    const clear = versions.filter((v) => v.v !== base.v && Math.abs(v.score - base.score) > floor).length;
    value = `±${fmtG(floor)} · ${clear} of ${versions.length - 1} clear it`;
  } else value = floor === null ? 'not measured' : `±${fmtG(floor)}`;
  return { ok: floor !== null, value, why: 'no noise floor measured, so no gap can be proven', action: 'score one version twice' };
}

function contamination(b: BehaviorWire): Part {
  const c = b.contamination ?? null;
  if (c === null) return { ok: false, value: 'not checked', why: 'not checked for leaks into the training data', action: 'check for leaks' };
  return { ok: c === 0, value: c === 0 ? '0 found' : `${str(c)} in training data`, why: `${str(c)} held-out tasks are in the training data`, action: 'drop leaked tasks from training' };
}

function reward(b: BehaviorWire): Part {
  const rj = b.rewardIsJudge ?? null;
  if (rj === null) return { ok: false, value: 'not declared', why: 'not declared whether the training reward is the judge', action: 'declare reward_is_judge' };
  return { ok: rj === false, value: rj ? 'same model' : 'different', why: 'the judge is also the training reward', action: 'score with a different model' };
}

function canFail(versions: readonly VersionScore[], base: VersionScore | null): Part {
  if (base === null) return { ok: null, value: 'no scores', why: '', action: 'add harder tasks' };
  const best = firstBy(versions, (a, b) => a > b);
  let value: string;
  if (base.score >= R.saturated_base) value = `${base.v} already ${one(base.score)}`;
  else if (best !== null && best.v !== base.v) value = `${base.v} ${one(base.score)} → best ${one(best.score)}`;
  else value = `${base.v} ${one(base.score)}`;
  return { ok: base.score < R.saturated_base, value, why: `${base.v} already passes ${one(base.score)}: nothing left to learn`, action: 'add harder tasks' };
}

/** The eight checks, in the order frozen, size, judge, length, noise, contamination, reward, canfail. */
export function evalChecks(b: BehaviorWire, versions: readonly VersionScore[]): EvalHealth {
  const med = median(versions.map((v) => v.ci).filter(has));
  const resolves = med === null ? null : Math.SQRT2 * med;
  const base = versions.find((v) => v.v === 'base') ?? firstBy(versions, (a, c) => a < c);
  const parts: Record<CheckKey, Part> = {
    frozen: frozen(b),
    size: size(b, versions, resolves),
    judge: judge(b),
    length: length(b),
    noise: noise(b, versions, base),
    contamination: contamination(b),
    reward: reward(b),
    canfail: canFail(versions, base),
  };
  const checks = CHECK_ORDER.map((key): EvalCheck => {
    const { label, rule, cite, fix } = CHECK_TEXTS[key];
    return { key, label, ...parts[key], rule, cite, fix };
  });
  const measured = checks.filter((c) => c.ok !== null);
  const failed = measured.filter((c) => c.ok === false);
  return {
    name: b.name,
    checks,
    good: measured.filter((c) => c.ok).length,
    total: measured.length,
    verdict: failed.length ? `weak · ${failed.map((c) => c.label).join(', ')}` : 'good',
  };
}
