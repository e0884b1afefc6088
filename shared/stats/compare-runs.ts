// compare_runs(a, b, metric, n_boot, seed, min_paired, level): paired bootstrap + sign-flip test (stats-semantics.md section 7).
import { StatsValueError } from './errors';
import { BOOTSTRAP_DRAWS, FAST_BOOTSTRAP_DRAWS, bootstrapCi, percentileIndexes, type Interval } from './intervals';
import { binomialDraw, distinctCounts, DrawCache, MAX_DISTINCT, multinomialBootstrapMeans } from './fast-bootstrap';
import { PyRandom, type PySeed } from './random';
import { meanOf, sharedKeysSorted, taskMeans } from './task-means';

export interface CompareOptions {
  metric?: string;
  n_boot?: number;
  seed?: PySeed;
  min_paired?: number;
  level?: number;
}

export type Verdict = 'b_better' | 'a_better' | 'no_difference_detected' | 'insufficient_data';

export interface CompareResult {
  metric: string;
  paired: boolean;
  n_paired: number;
  n_only_a: number;
  n_only_b: number;
  paired_share: number | null;
  n_used: number;
  mean_a: number | null;
  mean_b: number | null;
  delta: number | null;
  ci95: Interval | null;
  level: number;
  p_value: number | null;
  verdict: Verdict;
  note: string;
}

/** Sign-flip permutation test p-value, drawing R.random() per diff in order (step 3). */
function signFlipP(diffs: Float64Array, delta: number, nBoot: number, rng: PyRandom): number {
  const n = diffs.length;
  const bar = Math.abs(delta) - 1e-12;
  if (n * nBoot > FAST_BOOTSTRAP_DRAWS) {
    const fast = fastSignFlipP(diffs, bar, nBoot, rng);
    if (fast !== null) return fast;
  }
  let count = 0;
  for (let b = 0; b < nBoot; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += rng.random() < 0.5 ? diffs[i] : -diffs[i];
    if (Math.abs(s / n) >= bar) count++;
  }
  return (count + 1) / (nBoot + 1);
}

/** Same test for large inputs with few distinct |diff| values: each value's signed sum is |d| (2 Binomial(c, 1/2) - c). */
function fastSignFlipP(diffs: Float64Array, bar: number, nBoot: number, rng: PyRandom): number | null {
  const sizes = new Float64Array(diffs.length);
  for (let i = 0; i < diffs.length; i++) sizes[i] = Math.abs(diffs[i]);
  // The zero differences flip to themselves: up to 64 other values (and zero) are drawn this way.
  const found = distinctCounts(sizes, MAX_DISTINCT + 1);
  if (!found) return null;
  const values = found.distinct;
  const counts = found.counts;
  if (values[0] === 0) {
    values.shift();
    counts.shift();
  }
  if (values.length > MAX_DISTINCT) return null;
  const caches = values.map(() => new DrawCache());
  const n = diffs.length;
  let count = 0;
  for (let b = 0; b < nBoot; b++) {
    let s = 0;
    for (let v = 0; v < values.length; v++) s += values[v] * (2 * binomialDraw(counts[v], 0.5, rng, caches[v]) - counts[v]);
    if (Math.abs(s / n) >= bar) count++;
  }
  return (count + 1) / (nBoot + 1);
}

function unpairedInterval(va: number[], vb: number[], nBoot: number, level: number, rng: PyRandom): Interval {
  const [lo, hi] = percentileIndexes(level, nBoot);
  if ((va.length + vb.length) * nBoot > FAST_BOOTSTRAP_DRAWS) {
    const ma = multinomialBootstrapMeans(va, nBoot, rng);
    const mb = ma && multinomialBootstrapMeans(vb, nBoot, rng);
    if (ma && mb) {
      const fast = mb.map((m, i) => m - ma[i]).sort();
      return [fast[lo], fast[hi]];
    }
  }
  const reps = new Float64Array(nBoot);
  for (let b = 0; b < nBoot; b++) {
    let sa = 0;
    for (let i = 0; i < va.length; i++) sa += va[rng.randrange(va.length)];
    let sb = 0;
    for (let i = 0; i < vb.length; i++) sb += vb[rng.randrange(vb.length)];
    reps[b] = sb / vb.length - sa / va.length;
  }
  reps.sort();
  return [reps[lo], reps[hi]];
}

export function compareRuns(a: readonly unknown[], b: readonly unknown[], options: CompareOptions = {}): CompareResult {
  const metric = options.metric ?? 'pass_at_1';
  return compareTaskMeans(taskMeans(a, metric), taskMeans(b, metric), options);
}

/** compare_runs on each side's per-task means of the metric (task key -> mean, in order of first appearance). */
export function compareTaskMeans(meansA: ReadonlyMap<string, number>, meansB: ReadonlyMap<string, number>, options: CompareOptions = {}): CompareResult {
  const metric = options.metric ?? 'pass_at_1';
  const nBoot = options.n_boot ?? BOOTSTRAP_DRAWS;
  const seed = options.seed ?? 0;
  const minPaired = options.min_paired ?? 5;
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new StatsValueError(`compare_runs: level must be between 0 and 1, exclusive (got ${level})`);
  const shared = sharedKeysSorted(meansA, meansB);
  const paired = shared.length >= minPaired;
  const rng = new PyRandom(seed);
  const va = [...meansA.values()];
  const vb = [...meansB.values()];

  let delta: number;
  let ci95: Interval | null = null;
  let pValue: number | null = null;
  let nUsed: number;
  if (paired) {
    const diffs = Float64Array.from(shared, (t) => (meansB.get(t) as number) - (meansA.get(t) as number));
    delta = meanOf(diffs);
    ci95 = bootstrapCi(diffs, { n_boot: nBoot, seed, level });
    pValue = signFlipP(diffs, delta, nBoot, rng);
    nUsed = shared.length;
  } else {
    delta = meanOf(vb) - meanOf(va);
    if (va.length >= 3 && vb.length >= 3) ci95 = unpairedInterval(va, vb, nBoot, level, rng);
    nUsed = Math.min(va.length, vb.length);
  }
  let verdict: Verdict;
  if (ci95 === null || Number.isNaN(delta)) verdict = 'insufficient_data';
  else if (ci95[0] > 0) verdict = 'b_better';
  else if (ci95[1] < 0) verdict = 'a_better';
  else verdict = 'no_difference_detected';

  const nOnlyA = meansA.size - shared.length;
  const nOnlyB = meansB.size - shared.length;
  const union = meansA.size + nOnlyB;
  const pairedShare = union ? shared.length / union : null;
  let note = '';
  if (!paired) {
    note = `fewer than ${minPaired} shared tasks; unpaired task means, weaker test`;
  } else if (nOnlyA || nOnlyB) {
    note = `dropped ${nOnlyA} task(s) only in a and ${nOnlyB} only in b; the verdict rests on the ${shared.length} shared tasks`;
    if (pairedShare !== null && pairedShare < 0.5) note = `most tasks unpaired: ${note}`;
  }
  return {
    metric,
    paired,
    n_paired: shared.length,
    n_only_a: nOnlyA,
    n_only_b: nOnlyB,
    paired_share: pairedShare,
    n_used: nUsed,
    mean_a: va.length ? meanOf(va) : null,
    mean_b: vb.length ? meanOf(vb) : null,
    delta: Number.isNaN(delta) ? null : delta,
    ci95,
    level,
    p_value: pValue,
    verdict,
    note,
  };
}
