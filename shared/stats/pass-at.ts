// pass_at(rows, k, min_k, unanimous_short): pass@1, pass^k, pass@k with bootstrap intervals (stats-semantics.md section 5).
import { StatsValueError } from './errors';
import { bootstrapCi, noIntervalNote, type Interval } from './intervals';
import { pyTruthy } from './keys';
import { foldPassAt, type PassAtFold } from './pass-at-fold';
import { runConfigFrom, type RunConfig } from './run-config';
import { meanOf } from './task-means';
import { meansOf } from './task-sums';
import { tallyRows, type TaskTally } from './task-tally';

export interface PassAtOptions {
  k?: number | null;
  min_k?: number;
  unanimous_short?: boolean;
  /**
   * false: leave the bootstrap intervals out (null) and say nothing about them. Not an SDK argument: the run summary
   * reads only pass@1, and the bootstraps are most of the cost on a large run.
   */
  intervals?: boolean;
}

export interface PassAtResult {
  k: number;
  pass_at_1: number | null;
  pass_pow_k: number | null;
  pass_at_k: number | null;
  headroom: number | null;
  n_groups: number;
  n_groups_at_k: number;
  n_groups_imputed: number;
  n_rows: number;
  note: string;
  ci95: Interval | null;
  pass_pow_k_ci95: Interval | null;
  pass_at_k_ci95: Interval | null;
  config: RunConfig;
  /** task key -> mean label (on the SDK object, not in its to_dict()). */
  per_task: Record<string, number>;
}

/**
 * Each task's mean label (pass_at's per_task) as an object, tasks in tally order. Built by fromEntries, which defines
 * each key as its own property: an assignment would drop a task named "__proto__" (it would try to set the prototype).
 */
function perTaskObject(tally: TaskTally): Record<string, number> {
  return Object.fromEntries(meansOf(tally));
}

/**
 * Each task's label count, passes and mean label in tally order; all the labels; the smallest and largest group of 2
 * or more (0: none).
 */
interface TaskCounts {
  sizes: Int32Array;
  passes: Int32Array;
  rates: Float64Array;
  labels: number;
  smallestMulti: number;
  largestMulti: number;
}

/** The tally's counts in typed arrays, as the bootstraps read them. */
function taskCounts(tally: TaskTally): TaskCounts {
  const size = tally.keys.length;
  const sizes = Int32Array.from(tally.counts);
  const passes = Int32Array.from(tally.sums);
  const rates = new Float64Array(size);
  let smallestMulti = Infinity;
  let largestMulti = 0;
  let all = 0;
  for (let t = 0; t < size; t++) {
    const n = sizes[t];
    all += n;
    rates[t] = passes[t] / n; // the labels are 0 and 1: their sum is exact, so this is their mean
    if (n >= 2) {
      if (n < smallestMulti) smallestMulti = n;
      if (n > largestMulti) largestMulti = n;
    }
  }
  return { sizes, passes, rates, labels: all, smallestMulti: largestMulti ? smallestMulti : 0, largestMulti };
}

/**
 * Gives `result` its per_task, built on first read (then an ordinary property): an object of one key per task
 * takes some 17 ms on 25,000 tasks in a cold worker, and the API returns it only when asked (options.per_task).
 */
function withLazyPerTask(result: Omit<PassAtResult, 'per_task'>, tally: TaskTally): PassAtResult {
  return Object.defineProperty(result, 'per_task', {
    enumerable: true,
    configurable: true,
    get(this: PassAtResult) {
      const value = perTaskObject(tally);
      Object.defineProperty(this, 'per_task', { value, enumerable: true, configurable: true, writable: true });
      return value;
    },
  }) as PassAtResult;
}

/** pass_at(rows).per_task without the rest (no bootstraps, no run config): what a per-task table reads. */
export function perTaskRates(rows: readonly unknown[]): Record<string, number> {
  return perTaskObject(tallyRows(rows));
}

/** math.comb(a, b) as a float (exact below 2^53), 0 when b < 0 or b > a. */
export function comb(a: number, b: number): number {
  if (b < 0 || b > a) return 0;
  const m = Math.min(b, a - b);
  let r = 1;
  for (let i = 1; i <= m; i++) {
    r = (r * (a - m + i)) / i;
  }
  return r;
}

function formatScore(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

/** The note when every graded row holds one value (section 5.2); "" otherwise. */
function degenerateNote(fold: PassAtFold): string {
  if (fold.graded >= 2 && fold.distinctRewards === 1) {
    return `every row scored ${formatScore(fold.firstReward as number)} (${fold.graded} of ${fold.graded}); check the judge before reading this number`;
  }
  return '';
}

function nothingToScoreNote(fold: PassAtFold): string {
  if (!fold.judged || fold.failed !== fold.judged) return 'no binary rewards; grade first';
  const statuses = [...fold.failedStatuses].sort();
  const reason = fold.failedReason ?? '';
  return `the judge failed on all ${fold.failed} rows (${statuses.join('/')})${reason ? `: ${reason}` : ''}; re-run the judge`;
}

const joinNotes = (parts: string[]) => parts.filter((p) => p).join('; ');

export function passAt(rows: readonly unknown[], options: PassAtOptions = {}): PassAtResult {
  return passAtFrom(foldPassAt(rows), options);
}

/** pass_at from the fold of its rows (the same result as passAt on those rows). */
export function passAtFrom(fold: PassAtFold, options: PassAtOptions = {}): PassAtResult {
  const minK = options.min_k ?? 4;
  const unanimousShort = options.unanimous_short ?? false;
  const kGiven = options.k !== undefined && options.k !== null;
  if (kGiven && !(typeof options.k === 'number' && Math.trunc(options.k) >= 1)) throw new StatsValueError(`pass_at: k must be at least 1 (got ${options.k}); pass k=4 for four repeats per task`);
  const tasks = fold.tasks;
  const nTasks = tasks.keys.length;
  const degenerate = degenerateNote(fold);

  if (nTasks === 0) {
    const k = kGiven && pyTruthy(options.k) ? Math.trunc(options.k as number) : 1;
    return {
      k, pass_at_1: null, pass_pow_k: null, pass_at_k: null, headroom: null, n_groups: 0, n_groups_at_k: 0, n_groups_imputed: 0,
      n_rows: 0, note: joinNotes([degenerate, nothingToScoreNote(fold)]), ci95: null, pass_pow_k_ci95: null, pass_at_k_ci95: null,
      config: runConfigFrom(fold.config, 0, k), per_task: {},
    };
  }

  const { sizes, passes, rates, labels: nRows, smallestMulti: smallest, largestMulti: largest } = taskCounts(tasks);
  const passAt1 = meanOf(rates);
  const k = kGiven ? Math.trunc(options.k as number) : largest ? smallest : 1;
  if (!(k >= 1)) throw new StatsValueError(`pass_at: k must be at least 1 (got ${options.k}); pass k=4 for four repeats per task`);

  const uneven = !kGiven && smallest !== largest;
  const unevenNote = `groups are uneven (${smallest} to ${largest} repeats)`;

  // pass^k and pass@k of each group with k labels or more, in group order, then the imputed unanimous short ones.
  let pow = new Float64Array(0);
  let at = new Float64Array(0);
  let nEligible = 0;
  let nImputed = 0;
  let note = '';
  if (k < Math.max(1, minK)) {
    if (uneven) {
      let reached = 0;
      for (let t = 0; t < sizes.length; t++) if (sizes[t] >= largest) reached++;
      note = `${unevenNote}; k defaults to the smallest, so pass k=${largest} to score the ${reached} group(s) that reached it, or finish the cut groups`;
    } else {
      note = `set repeats>=${minK} (k=${k} is under min_k=${minK}) to read pass^k and pass@k`;
    }
  } else {
    const imputed: number[] = [];
    pow = new Float64Array(sizes.length);
    at = new Float64Array(sizes.length);
    for (let t = 0; t < sizes.length; t++) {
      const n = sizes[t];
      const c = passes[t];
      if (n >= k) {
        const total = comb(n, k);
        pow[nEligible] = comb(c, k) / total;
        at[nEligible] = 1 - comb(n - c, k) / total;
        nEligible++;
      } else if (unanimousShort && (c === 0 || c === n)) {
        imputed.push(c === 0 ? 0 : 1);
      }
    }
    nImputed = imputed.length;
    for (let i = 0; i < nImputed; i++) pow[nEligible + i] = at[nEligible + i] = imputed[i];
    pow = pow.subarray(0, nEligible + nImputed);
    at = at.subarray(0, nEligible + nImputed);
    if (nEligible === 0 && nImputed === 0) note = `no group has ${k} graded repeats`;
    else if (uneven) note = `${unevenNote}; k is the smallest`;
  }
  const hasK = pow.length > 0;
  const passPowK = hasK ? meanOf(pow) : null;
  const passAtK = hasK ? meanOf(at) : null;

  const intervals = options.intervals !== false;
  const ci95 = intervals ? bootstrapCi(rates) : null;
  if (ci95 === null && intervals) note = joinNotes([note, noIntervalNote(nTasks, 'pass@1')]);
  note = joinNotes([degenerate, note]);

  const result = {
    k,
    pass_at_1: passAt1,
    pass_pow_k: passPowK,
    pass_at_k: passAtK,
    headroom: passAtK === null ? null : passAtK - passAt1,
    n_groups: nTasks,
    n_groups_at_k: hasK ? nEligible + nImputed : 0,
    n_groups_imputed: hasK ? nImputed : 0,
    n_rows: nRows,
    note,
    ci95,
    pass_pow_k_ci95: hasK && intervals ? bootstrapCi(pow) : null,
    pass_at_k_ci95: hasK && intervals ? bootstrapCi(at) : null,
    config: runConfigFrom(fold.config, nTasks, k),
  };
  return withLazyPerTask(result, tasks);
}

/** The SDK's PassAt.to_dict() (without per_task). */
export function passAtDict(result: PassAtResult): Omit<PassAtResult, 'per_task'> {
  // Copied key by key: a rest pattern would read per_task, building it (withLazyPerTask).
  const dict: Record<string, unknown> = {};
  for (const key of Object.keys(result)) if (key !== 'per_task') dict[key] = result[key as keyof PassAtResult];
  return dict as Omit<PassAtResult, 'per_task'>;
}

/** pass_at's config block from its fold, without the bootstraps (delta_report reads only k and the run facts). */
export function passAtConfigOf(fold: PassAtFold): RunConfig {
  const sizes = fold.tasks.counts;
  if (sizes.length === 0) return runConfigFrom(fold.config, 0, 1);
  let smallest = Infinity; // the default k: the smallest group of two or more repeats
  for (const n of sizes) if (n >= 2 && n < smallest) smallest = n;
  return runConfigFrom(fold.config, sizes.length, smallest === Infinity ? 1 : smallest);
}
