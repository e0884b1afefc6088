import { describe, expect, it } from 'vitest';
import { bootstrapCi, bootstrapMeans, normCdf, normInvCdf, wilsonInterval } from '../../../shared/stats/intervals';
import { binomialDraw, multinomialBootstrapMeans } from '../../../shared/stats/fast-bootstrap';
import { PyRandom } from '../../../shared/stats/random';
import { StatsValueError } from '../../../shared/stats/errors';

describe('wilson_interval (§4.1)', () => {
  it('matches the SDK arithmetic, including the tiny positive lower end', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(wilsonInterval(0, 22)).toEqual([1.3877787807814457e-17, 0.14865952572596125]);
    expect(wilsonInterval(7, 10)).toEqual([0.39677321997956516, 0.892210712513788]);
    expect(wilsonInterval(57, 60, 1.645)).toEqual([0.8813167147185124, 0.979844553277665]);
  });
});

describe('bootstrap_ci (§4.2)', () => {
  it('reproduces CPython draws for small inputs (reference from random.Random)', () => {
    expect(bootstrapCi([0.1, 0.5, 0.9, 0.3, 0.7])).toEqual([0.26, 0.74]);
    expect(bootstrapCi([1, 0, 1, 1, 0, 0, 1], { seed: 3, level: 0.9, n_boot: 500 })).toEqual([0.2857142857142857, 0.8571428571428571]);
    expect(bootstrapCi([0.2, 0.4, 0.9, 1.0], { n_boot: 10 })).toEqual([0.375, 0.825]);
  });

  it('withholds an interval under 3 values and rejects a bad level', () => {
    expect(bootstrapCi([1, 0])).toBeNull();
    expect(() => bootstrapCi([1, 0, 1], { level: 1 })).toThrow(StatsValueError);
  });

  it('the multinomial path for large inputs has the right mean and spread', () => {
    const n = 20000;
    const values = Array.from({ length: n }, (_, i) => [0, 0.25, 0.5, 0.75, 1][i % 5]);
    const means = bootstrapMeans(values, 2000, new PyRandom(1)); // n x n_boot > threshold: fast path
    const m = means.reduce((a, b) => a + b, 0) / means.length;
    const sd = Math.sqrt(means.reduce((a, b) => a + (b - m) ** 2, 0) / (means.length - 1));
    const trueSd = Math.sqrt(0.125 / n); // population variance of the 5 values is 0.125
    expect(Math.abs(m - 0.5)).toBeLessThan(4 * trueSd / Math.sqrt(2000) + 1e-6);
    expect(sd / trueSd).toBeGreaterThan(0.9);
    expect(sd / trueSd).toBeLessThan(1.1);
    expect(multinomialBootstrapMeans(Array.from({ length: 100 }, (_, i) => i), 10, new PyRandom(0))).toBeNull();
  });

  it('binomial draws have the binomial mean and variance', () => {
    const rng = new PyRandom(5);
    const draws = Array.from({ length: 4000 }, () => binomialDraw(1000, 0.3, rng));
    const m = draws.reduce((a, b) => a + b, 0) / draws.length;
    const v = draws.reduce((a, b) => a + (b - m) ** 2, 0) / (draws.length - 1);
    expect(Math.abs(m - 300)).toBeLessThan(1.5);
    expect(v / 210).toBeGreaterThan(0.9);
    expect(v / 210).toBeLessThan(1.1);
    expect(binomialDraw(10, 0, rng)).toBe(0);
    expect(binomialDraw(10, 1, rng)).toBe(10);
  });
});

describe('normal quantile and CDF (§1)', () => {
  it('inv_cdf is AS241 as in CPython', () => {
    expect(normInvCdf(0.975)).toBe(1.9599639845400536);
    expect(normInvCdf(0.8)).toBe(0.8416212335729144);
    expect(normInvCdf(0.995)).toBe(2.5758293035489);
    expect(normInvCdf(1e-10)).toBe(-6.361340902404056);
  });
  it('cdf agrees with CPython to 1e-15', () => {
    expect(normCdf(1.96)).toBeCloseTo(0.9750021048517796, 15);
    expect(normCdf(-1.2)).toBeCloseTo(0.11506967022170833, 15);
    expect(normCdf(-4)).toBeCloseTo(3.167124183311998e-5, 15);
  });
});
