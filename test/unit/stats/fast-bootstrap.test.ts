import { describe, expect, it } from 'vitest';
import { binomialDraw, distinctCounts, multinomialBootstrapMeans } from '../../../shared/stats/fast-bootstrap';
import { PyRandom } from '../../../shared/stats/random';

/**
 * Pearson's chi-square of `draws` against Binomial(n, p), over bins of at least 20 expected draws, as a z score
 * ((chi2 - dof) / sqrt(2 dof)): about normal when the draws follow the distribution.
 */
function chiSquareZ(draws: number[], n: number, p: number): number {
  const seen = new Map<number, number>();
  for (const k of draws) seen.set(k, (seen.get(k) ?? 0) + 1);
  let chi = 0;
  let bins = 0;
  let expected = 0;
  let observed = 0;
  let logPmf = n * Math.log(1 - p); // of k = 0, then by the ratio pmf(k + 1) / pmf(k)
  for (let k = 0; k <= n; logPmf += Math.log(((n - k) / (k + 1)) * (p / (1 - p))), k++) {
    expected += draws.length * Math.exp(logPmf);
    observed += seen.get(k) ?? 0;
    if (expected >= 20 || k === n) {
      chi += (observed - expected) ** 2 / Math.max(expected, 1e-9);
      bins++;
      expected = 0;
      observed = 0;
    }
  }
  const dof = bins - 1;
  return (chi - dof) / Math.sqrt(2 * dof);
}

describe('binomial draws (the multinomial bootstrap and the sign-flip test)', () => {
  // Both methods: inversion below a spread of 10 (n p on the smaller side), rejection (BTRS) above, and p past 1/2.
  for (const [n, p] of [[25_000, 0.2], [40, 0.3], [1000, 0.97], [12, 0.9], [200, 0.04], [60, 0.5]] as const) {
    it(`follow Binomial(${n}, ${p})`, () => {
      const rng = new PyRandom(n);
      const draws = Array.from({ length: 60_000 }, () => binomialDraw(n, p, rng));
      expect(draws.every((k) => Number.isInteger(k) && k >= 0 && k <= n)).toBe(true);
      expect(Math.abs(chiSquareZ(draws, n, p))).toBeLessThan(4);
    });
  }

  it('are 0 and n at the ends of p and of n', () => {
    const rng = new PyRandom(0);
    expect(binomialDraw(0, 0.4, rng)).toBe(0);
    expect(binomialDraw(50, 0, rng)).toBe(0);
    expect(binomialDraw(50, 1, rng)).toBe(50);
  });
});

/** The reference: counts by a Map (SameValueZero keys), values ascending. */
function countsByMap(values: number[]): { distinct: number[]; counts: number[] } {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const distinct = [...counts.keys()].sort((a, b) => a - b);
  return { distinct, counts: distinct.map((v) => counts.get(v) as number) };
}

describe('distinctCounts', () => {
  it('counts each value as a Map would, ascending, for plain arrays and doubles', () => {
    const rng = new PyRandom(3);
    for (let trial = 0; trial < 50; trial++) {
      const pool = Array.from({ length: 1 + Math.floor(rng.random() * 10) }, () => Math.round(rng.random() * 8) / 4 - 1);
      const values = Array.from({ length: 1 + Math.floor(rng.random() * 500) }, () => pool[Math.floor(rng.random() * pool.length)]);
      expect(distinctCounts(values)).toEqual(countsByMap(values));
      expect(distinctCounts(Float64Array.from(values))).toEqual(countsByMap(values));
    }
  });

  it('takes -0 and 0 as one value and every NaN as one, last', () => {
    const found = distinctCounts([NaN, 0, 1, -0, NaN, 1, 0]);
    expect(found?.counts).toEqual([3, 2, 2]);
    expect(found?.distinct[0] === 0 && found.distinct[1] === 1).toBe(true); // 0 or -0: one value, as for a Map
    expect(Number.isNaN(found?.distinct[2])).toBe(true);
  });

  it('gives up past the limit', () => {
    const values = Array.from({ length: 65 }, (_, i) => i);
    expect(distinctCounts(values)).toBeNull();
    expect(distinctCounts(values, 65)?.counts).toHaveLength(65);
    expect(multinomialBootstrapMeans(values, 10, new PyRandom(0))).toBeNull();
  });

  it('leaves its input as it was', () => {
    const values = Float64Array.from([3, 1, 2, 1]);
    distinctCounts(values);
    expect([...values]).toEqual([3, 1, 2, 1]);
  });
});
