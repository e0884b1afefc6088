// Fast bootstrap for large inputs with few distinct values: each replicate's mean from multinomial counts
// (same distribution as n draws with replacement; stats-semantics.md section 4.2 allows it for resampled fields).
import type { PyRandom } from './random';

const MAX_DISTINCT = 64;

function lgamma(x: number): number {
  // Lanczos (g = 7, n = 9), accurate to ~1e-15 for x > 0.
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The mode of Binomial(n, p) and its probability, by n, for draws that share one p (the bootstrap's loops). */
export type ModeCache = Map<number, number>;

function pmfAtMode(n: number, p: number, mode: number): number {
  const logPmf = lgamma(n + 1) - lgamma(mode + 1) - lgamma(n - mode + 1) + mode * Math.log(p) + (n - mode) * Math.log(1 - p);
  return Math.exp(logPmf);
}

/**
 * One Binomial(n, p) draw by inversion, searching outward from the mode. `modes` (one per p) keeps the probability
 * at the mode by n: the same arithmetic, done once per n instead of once per draw.
 */
export function binomialDraw(n: number, p: number, rng: PyRandom, modes?: ModeCache): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  const q = 1 - p;
  const mode = Math.min(n, Math.floor((n + 1) * p));
  let pmfMode = modes?.get(n);
  if (pmfMode === undefined) {
    pmfMode = pmfAtMode(n, p, mode);
    modes?.set(n, pmfMode);
  }
  let u = rng.random() - pmfMode;
  if (u <= 0) return mode;
  let lo = mode;
  let hi = mode;
  let pLo = pmfMode;
  let pHi = pmfMode;
  const ratio = p / q;
  for (;;) {
    let moved = false;
    if (hi < n) {
      pHi *= ((n - hi) / (hi + 1)) * ratio;
      hi++;
      u -= pHi;
      if (u <= 0) return hi;
      moved = true;
    }
    if (lo > 0) {
      pLo *= (lo / (n - lo + 1)) / ratio;
      lo--;
      u -= pLo;
      if (u <= 0) return lo;
      moved = true;
    }
    if (!moved) return mode; // floating leftovers: the whole support was walked
  }
}

/** Replicate means via multinomial counts; null when the values take too many distinct values. */
export function multinomialBootstrapMeans(values: ArrayLike<number>, nBoot: number, rng: PyRandom): Float64Array | null {
  const n = values.length;
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const v = values[i];
    counts.set(v, (counts.get(v) ?? 0) + 1);
    if (counts.size > MAX_DISTINCT) return null;
  }
  const distinct = [...counts.keys()].sort((a, b) => a - b);
  const probs = distinct.map((v) => (counts.get(v) as number) / n);
  const modes = distinct.map((): ModeCache => new Map());
  const means = new Float64Array(nBoot);
  for (let b = 0; b < nBoot; b++) {
    let left = n;
    let restP = 1;
    let sum = 0;
    for (let j = 0; j < distinct.length && left > 0; j++) {
      const c = j === distinct.length - 1 ? left : binomialDraw(left, Math.min(1, probs[j] / restP), rng, modes[j]);
      sum += c * distinct[j];
      left -= c;
      restP -= probs[j];
    }
    means[b] = sum / n;
  }
  return means;
}
