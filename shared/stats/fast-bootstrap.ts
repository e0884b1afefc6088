// Fast bootstrap for large inputs with few distinct values: each replicate's mean from multinomial counts
// (same distribution as n draws with replacement; stats-semantics.md section 4.2 allows it for resampled fields).
// The counts are binomial draws, as are the sign-flip test's (compare-runs.ts): by inversion for small spreads, by
// rejection (BTRS) for larger ones, each exact (test/unit/stats/fast-bootstrap.test.ts).
import type { PyRandom } from './random';

/** The most distinct values an input may take to be resampled by counts. */
export const MAX_DISTINCT = 64;

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

/**
 * What the draws that share one p keep between draws, by n (the bootstrap's loops: one per resampled value): the
 * inversion's probability at the mode, and the rejection's constants. Both are the same arithmetic done once per n
 * instead of once per draw, so the draws are the same with a cache or without.
 */
export class DrawCache {
  readonly modes = new Map<number, number>();
  readonly rejection = new Map<number, RejectionSetup>();
}

function pmfAtMode(n: number, p: number, mode: number): number {
  const logPmf = lgamma(n + 1) - lgamma(mode + 1) - lgamma(n - mode + 1) + mode * Math.log(p) + (n - mode) * Math.log(1 - p);
  return Math.exp(logPmf);
}

/**
 * One Binomial(n, p) draw by inversion, searching outward from the mode. Its cost grows with the spread (some
 * sqrt(n p q) steps), so binomialDraw takes it only for small spreads.
 */
function inversionDraw(n: number, p: number, rng: PyRandom, modes?: Map<number, number>): number {
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

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);
/** log(k!) for k below 10, summed exactly. */
const LOG_FACTORIALS = Array.from({ length: 10 }, (_, k) => {
  let f = 0;
  for (let i = 2; i <= k; i++) f += Math.log(i);
  return f;
});

/** log(k!) for a whole k >= 0: exact below 10, else Stirling's formula in k + 1 with three terms of its series. */
function lgammaInt(k: number): number {
  if (k < 10) return LOG_FACTORIALS[k];
  const k1 = k + 1;
  const k1sq = k1 * k1;
  return (k + 0.5) * Math.log(k1) - k1 + HALF_LOG_2PI + (1 / 12 - (1 / 360 - 1 / 1260 / k1sq) / k1sq) / k1;
}

/** BTRS's constants for one n and p. */
interface RejectionSetup {
  a: number;
  b: number;
  c: number;
  vr: number;
  alpha: number;
  lpq: number;
  m: number;
  h: number;
}

function rejectionSetup(n: number, p: number): RejectionSetup {
  const q = 1 - p;
  const spq = Math.sqrt(n * p * q);
  const b = 1.15 + 2.53 * spq;
  const m = Math.floor((n + 1) * p);
  return {
    a: -0.0873 + 0.0248 * b + 0.01 * p,
    b,
    c: n * p + 0.5,
    vr: 0.92 - 4.2 / b,
    alpha: (2.83 + 5.1 / b) * spq,
    lpq: Math.log(p / q),
    m,
    h: lgammaInt(m) + lgammaInt(n - m),
  };
}

/**
 * One Binomial(n, p) draw, p <= 1/2 and n p >= 10, by Hormann's transformed rejection (BTRS, "The generation of
 * binomial random variates", 1993): exact, some 1.2 tries of two uniforms each whatever the spread.
 */
function rejectionDraw(n: number, p: number, rng: PyRandom, setups?: Map<number, RejectionSetup>): number {
  let setup = setups?.get(n);
  if (setup === undefined) {
    setup = rejectionSetup(n, p);
    setups?.set(n, setup);
  }
  const { a, b, c, vr, alpha, lpq, m, h } = setup;
  for (;;) {
    const u = rng.random() - 0.5;
    let v = rng.random();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k;
    v = Math.log((v * alpha) / (a / (us * us) + b));
    if (v <= h - lgammaInt(k) - lgammaInt(n - k) + (k - m) * lpq) return k; // log(pmf(k) / pmf(m))
  }
}

/** Above this spread (n p, on the smaller side of 1/2) a draw is by rejection, below it by inversion. */
const REJECTION_FROM = 10;

/** One Binomial(n, p) draw; `cache` is the one for this p (DrawCache), when draws share it. */
export function binomialDraw(n: number, p: number, rng: PyRandom, cache?: DrawCache): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p <= 0.5 ? n * p < REJECTION_FROM : n * (1 - p) < REJECTION_FROM) return inversionDraw(n, p, rng, cache?.modes);
  return p <= 0.5 ? rejectionDraw(n, p, rng, cache?.rejection) : n - rejectionDraw(n, 1 - p, rng, cache?.rejection);
}

/**
 * The distinct values of `values` ascending and how often each occurs; null past `max`. Equal as a Map's keys
 * are (NaN is one value). By a native sort and a binary search per value: a loop over every value runs cold here
 * (a worker's first job), and a Map keyed by doubles boxes each key.
 */
export function distinctCounts(values: ArrayLike<number>, max = MAX_DISTINCT): { distinct: number[]; counts: number[] } | null {
  const sorted = (values instanceof Float64Array ? values.slice() : Float64Array.from(values)).sort();
  const distinct: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < sorted.length; ) {
    const v = sorted[i];
    if (distinct.length === max) return null;
    if (v !== v) {
      // NaNs sort last
      distinct.push(v);
      counts.push(sorted.length - i);
      break;
    }
    let past = i + 1; // the first index past the run of v (a NaN compares as greater)
    let hi = sorted.length;
    while (past < hi) {
      const mid = (past + hi) >>> 1;
      if (sorted[mid] <= v) past = mid + 1;
      else hi = mid;
    }
    distinct.push(v);
    counts.push(past - i);
    i = past;
  }
  return { distinct, counts };
}

/** Replicate means via multinomial counts; null when the values take too many distinct values. */
export function multinomialBootstrapMeans(values: ArrayLike<number>, nBoot: number, rng: PyRandom): Float64Array | null {
  const n = values.length;
  const found = distinctCounts(values);
  if (!found) return null;
  const { distinct } = found;
  const probs = found.counts.map((count) => count / n);
  const caches = distinct.map(() => new DrawCache());
  const means = new Float64Array(nBoot);
  for (let b = 0; b < nBoot; b++) {
    let left = n;
    let restP = 1;
    let sum = 0;
    for (let j = 0; j < distinct.length && left > 0; j++) {
      const c = j === distinct.length - 1 ? left : binomialDraw(left, Math.min(1, probs[j] / restP), rng, caches[j]);
      sum += c * distinct[j];
      left -= c;
      restP -= probs[j];
    }
    means[b] = sum / n;
  }
  return means;
}
