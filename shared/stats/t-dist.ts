// z and Student t quantiles for noise bands (stats-semantics.md section 9.2).
import { StatsValueError } from './errors';
import { Z_95, normInvCdf } from './intervals';

const T_TABLE_95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
  2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042];

const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

/** ln Gamma(x) for x > 0 (Lanczos g = 7; about 1e-15 relative). */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const y = x - 1;
  let a = LANCZOS[0];
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Modified Lentz continued fraction for the incomplete beta (Numerical Recipes 6.4). */
function betaCf(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 3e-16) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaCf(a, b, x)) / a;
  return 1 - (front * betaCf(b, a, 1 - x)) / b;
}

/** Student t CDF with n degrees of freedom. */
export function studentCdf(t: number, n: number): number {
  const x = n / (n + t * t);
  const tail = 0.5 * incompleteBeta(x, n / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** z at a two-sided level: exactly 1.96 at 0.95, else the normal quantile at (1 + level)/2. */
export function zAt(level: number): number {
  if (!(level > 0 && level < 1)) throw new StatsValueError(`level must be between 0 and 1, exclusive (got ${level})`);
  if (level === 0.95) return Z_95;
  return normInvCdf((1 + level) / 2);
}

/** Two-sided t quantile: table at 0.95 to df 30, Cornish-Fisher above, bisection of the CDF at other levels. */
export function tQuantile(df: number, level = 0.95): number {
  if (!(level > 0 && level < 1)) throw new StatsValueError(`level must be between 0 and 1, exclusive (got ${level})`);
  const n = Math.max(1, Math.trunc(df));
  if (level === 0.95) {
    if (n <= 30) return T_TABLE_95[n - 1];
    const z = Z_95;
    return z + (z ** 3 + z) / (4 * n) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * n * n);
  }
  const target = (1 + level) / 2;
  let lo = 0;
  let hi = 1000;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (studentCdf(mid, n) < target) lo = mid;
    else hi = mid;
    if (hi - lo < 1e-10) break;
  }
  return (lo + hi) / 2;
}
