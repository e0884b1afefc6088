// holdout_size and detectable_effect: how many tasks a gain needs, and what n tasks can prove (stats-semantics.md section 10).
import { StatsValueError } from './errors';
import { requireAtLeast, requireOpenUnit, requireUnit } from './ranges';
import { normInvCdf } from './intervals';
import { taskKey, type Row } from './keys';
import { pyFixed, pyRound, roundOrNull } from './py-format';
import { binaryReward } from './readers';
import { meanOf, sampleSd, taskSums } from './task-means';
import { meansOf, sharedTaskKeys, taskIndex, type TaskSums } from './task-sums';

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const kPrime = (k: number) => Math.max(1, Math.trunc(k));

/** Uniform model sd s(p, e, k). */
export function modelSd(p: number, e: number, k: number): number {
  const pc = clamp01(p);
  const q = clamp01(pc + e);
  return Math.sqrt((pc * (1 - pc) + q * (1 - q)) / kPrime(k));
}

/** Concentrated-gain sd. */
export function concentratedSd(p: number, e: number, k: number): number {
  const pc = clamp01(p);
  const g = Math.min(1 - pc, Math.max(0, e));
  if (g <= 0 || pc >= 1) return modelSd(pc, g, k);
  const share = g / (1 - pc);
  const within = ((1 - share) * 2 * pc * (1 - pc) + share * pc * (1 - pc)) / kPrime(k);
  const between = (g * g * (1 - share)) / share;
  return Math.sqrt(within + between);
}

function zSum(power: number, alpha: number): number {
  return normInvCdf(1 - alpha / 2) + normInvCdf(power);
}

function tasksFor(z: number, sd: number, effect: number): number {
  return sd > 0 ? Math.max(2, Math.ceil(((z * sd) / effect) ** 2)) : 2;
}

function checkUnit(name: string, v: number): void {
  if (!(typeof v === 'number' && v > 0 && v < 1)) throw new StatsValueError(`${name} must be between 0 and 1, exclusive (got ${v})`);
}

/** Each task's count and sum of pass_at_1. */
type TaskSumsOf = Readonly<TaskSums>;

export interface HoldoutOptions {
  base?: number;
  k?: number;
  power?: number;
  alpha?: number;
  before?: readonly unknown[] | null;
  after?: readonly unknown[] | null;
  task_std?: number | null;
  rows?: readonly unknown[] | null;
  ceiling_pass_rate?: number;
}

export function holdoutSize(effect: number, options: HoldoutOptions = {}) {
  const before = options.before ?? options.rows ?? null;
  const after = options.after ?? null;
  return holdoutSizeOnSums(effect, options, before && taskSums(before, 'pass_at_1'), after && taskSums(after, 'pass_at_1'));
}

/** holdout_size with the before/after rows given as their pass_at_1 task sums (taskSums; delta_report's sides). */
export function holdoutSizeOnSums(
  effect: number, options: Omit<HoldoutOptions, 'before' | 'after' | 'rows'>, before: TaskSumsOf | null, after: TaskSumsOf | null,
) {
  const power = options.power ?? 0.8;
  const alpha = options.alpha ?? 0.05;
  const ceiling = options.ceiling_pass_rate ?? 0.9;
  checkUnit('effect', effect);
  checkUnit('power', power);
  checkUnit('alpha', alpha);
  if (after && !before) throw new StatsValueError('holdout_size: after= needs before= (the rows of the previous eval) to pair tasks');
  const taskStd = options.task_std ?? null;
  if (taskStd !== null && !(taskStd > 0)) throw new StatsValueError(`holdout_size: task_std must be greater than 0 (got ${taskStd})`);

  let base = requireUnit('holdout_size', 'base', options.base ?? 0.6, 0.6);
  let k = requireAtLeast('holdout_size', 'k', options.k ?? 4, 1, 4);
  requireUnit('holdout_size', 'ceiling_pass_rate', ceiling, 0.9);
  let spread: number | null = null;
  let ratio: number | null = null;
  const notes: string[] = [];
  const warnings: string[] = [];
  if (before) {
    const sums = before;
    if (sums.keys.length === 0) throw new StatsValueError('holdout_size: the before rows carry no 0/1 reward; grade them first');
    const rates = [...meansOf(sums).values()];
    k = Infinity;
    for (const count of sums.counts) if (count < k) k = count;
    base = meanOf(rates);
    spread = sampleSd(rates);
    if (rates.length >= 2) {
      const within = base * (1 - base);
      const between = rates.reduce((acc, r) => acc + (r - base) ** 2, 0) / rates.length;
      ratio = within <= 0 || within - between <= 1e-12 ? null : within / (within - between);
    }
  }

  let sd: number;
  let source: 'rows' | 'given' | 'model';
  let nPaired: number | null = null;
  if (before && after) {
    const a = before;
    const b = after;
    const shared = sharedTaskKeys(a, b);
    const atA = taskIndex(a);
    const atB = taskIndex(b);
    if (shared.length < 3) throw new StatsValueError(`holdout_size: before and after share ${shared.length} graded task(s); at least 3 are needed to measure the paired sd`);
    const diffs = new Array<number>(shared.length);
    const baseRates = new Array<number>(shared.length);
    k = Infinity;
    for (let i = 0; i < shared.length; i++) {
      const x = atA.get(shared[i])!;
      const y = atB.get(shared[i])!;
      baseRates[i] = a.sums[x] / a.counts[x];
      diffs[i] = b.sums[y] / b.counts[y] - baseRates[i];
      k = Math.min(k, a.counts[x], b.counts[y]);
    }
    sd = sampleSd(diffs) as number;
    nPaired = shared.length;
    base = meanOf(baseRates);
    source = 'rows';
    notes.push(`sd ${pyFixed(sd, 3)} measured on ${nPaired} paired tasks`);
  } else if (taskStd !== null) {
    sd = taskStd;
    source = 'given';
    notes.push(`task_std ${pyFixed(taskStd, 3)} given; the binomial model was not used`);
  } else {
    sd = modelSd(base, effect, k);
    source = 'model';
  }

  let saturated = false;
  if (before && source !== 'given' && (base >= ceiling || sd <= 0)) {
    saturated = true;
    warnings.push(
      base >= ceiling
        ? `CEILING: base pass rate ${pyFixed(base, 2)} is at or above ${pyFixed(ceiling, 2)}, so the formula returns its floor; n_tasks is the model's answer at base 0.60 with these rows' k=${k}; add harder situations (aim for a 20%-80% band)`
        : `DEGENERATE: every paired task moved by the same amount, so the sd is 0 and the formula returns its floor; n_tasks is the model's answer at base 0.60 with these rows' k=${k}; add harder situations (aim for a 20%-80% band)`,
    );
    sd = modelSd(0.6, effect, k);
    source = 'model';
    nPaired = null;
  }

  const z = zSum(power, alpha);
  const n = tasksFor(z, sd, effect);
  let concentrated: number | null = null;
  if (source === 'model') {
    concentrated = tasksFor(z, concentratedSd(saturated ? 0.6 : base, effect, k), effect);
    notes.push(
      `n_tasks ${n} assumes the gain is spread evenly across tasks and the two arms are independent draws. If the gain is carried by a few tasks the same ${pyFixed(effect, 3)} gain needs about ${concentrated} tasks (n_tasks_concentrated). Pass before= and after= to measure the paired sd, or task_std= read off a delta_report interval.`,
    );
    if (spread !== null && spread > 0 && !saturated) {
      notes.push(
        ratio === null
          ? `task pass rates spread ${pyFixed(spread, 3)}: every task is a sure pass or a sure fail`
          : `task pass rates spread ${pyFixed(spread, 3)} around p=${pyFixed(base, 2)}; paired rollouts vary ${pyFixed(ratio, 2)}x less than the binomial model assumes`,
      );
    }
  }
  return {
    n_tasks: n,
    effect,
    base,
    k,
    power,
    alpha,
    task_std: pyRound(sd, 4),
    sd_source: source,
    half_width: pyRound((normInvCdf(1 - alpha / 2) * sd) / Math.sqrt(n), 4),
    n_tasks_concentrated: concentrated,
    base_spread: roundOrNull(spread, 4),
    n_paired: nPaired,
    saturated,
    notes,
    warnings,
  };
}

export type HoldoutResult = ReturnType<typeof holdoutSize>;

export interface DetectableOptions {
  base?: number;
  k?: number;
  power?: number;
  alpha?: number;
}

/** The smallest gain n tasks can prove: 12 fixed-point steps of e = Z s(base, e, k)/sqrt(n); null under 2 tasks. */
export function detectableEffect(nTasks: number, options: DetectableOptions = {}): number | null {
  const base = requireUnit('detectable_effect', 'base', options.base ?? 0.6, 0.6);
  const k = requireAtLeast('detectable_effect', 'k', options.k ?? 4, 1, 4);
  const power = requireOpenUnit('detectable_effect', 'power', options.power ?? 0.8, 0.8);
  const alpha = requireOpenUnit('detectable_effect', 'alpha', options.alpha ?? 0.05, 0.05);
  if (typeof nTasks !== 'number' || Number.isNaN(nTasks)) throw new StatsValueError(`detectable_effect: n_tasks must be a number (got ${String(nTasks)}); pass e.g. n_tasks=200`);
  const z = zSum(power, alpha);
  const n = Math.trunc(nTasks);
  if (n < 2) return null;
  let e = 0;
  for (let i = 0; i < 12; i++) e = (z * modelSd(base, e, k)) / Math.sqrt(n);
  return pyRound(Math.min(1, e), 4);
}

/** Rows per task of the binary reader (used by delta sizing). */
export function binaryRowCounts(rows: readonly unknown[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const row of rows) if (binaryReward(row) !== null) out.set(taskKey(row as Row), (out.get(taskKey(row as Row)) ?? 0) + 1);
  return out;
}
